"""llmapp: typed, validated LLM function-calling applications from Python classes.

Example::

    from llmapp import application, llm_application

    @llm_application
    class Shop:
        def search(self, query: str, limit: int = 10) -> list[str]:
            '''Search the catalogue.'''
            return []

    app = application(Shop)
    result = app.execute(Shop(), "search", '{"query": "socks"}')

The public names are loaded on first use (PEP 562), so ``import llmapp`` costs
almost nothing; each stage is imported when something needs it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmapp._lazy import lazy_names as _lazy_names

if TYPE_CHECKING:
    from llmapp._errors import (
        ArgumentError,
        BuildProblem,
        ConversionError,
        DocumentError,
        ExecutionError,
        FeedbackError,
        HttpError,
        LlmappError,
        LlmApplicationError,
        McpToolError,
        Problem,
        ResponseError,
        SchemaError,
        UnknownFunctionError,
    )
    from llmapp._results import (
        UNDEFINED,
        Validation,
        ValidationFailure,
        ValidationIssue,
        ValidationSuccess,
    )
    from llmapp.app import (
        ComposedApplication,
        LlmApplication,
        application,
        compose,
        llm_application,
        validates,
    )
    from llmapp.explain import feedback
    from llmapp.kernel import (
        Application,
        Approval,
        CallContext,
        CallResult,
        Controls,
        Function,
        LlmConfig,
        LlmFunction,
        Runner,
        Separated,
        after_types,
        controls,
        merge_parameters,
        sent_parameters,
    )
    from llmapp.output import StructuredOutput, structured_output
    from llmapp.repair import Parsed, coerce, parse
    from llmapp.search import EmbeddingRanker, SearchIndex, ToolSearch
    from llmapp.streaming import ArgumentStream, stream
    from llmapp.validate import Validator, validator

__version__ = "0.1.0"

# Each public name and the module defining it, as the imports above say it
# which type checkers read instead (tests/typing/test_public_names.py keeps the two equal).
_HOMES: dict[str, str] = {
    "ArgumentError": "llmapp._errors",
    "BuildProblem": "llmapp._errors",
    "ConversionError": "llmapp._errors",
    "DocumentError": "llmapp._errors",
    "ExecutionError": "llmapp._errors",
    "FeedbackError": "llmapp._errors",
    "HttpError": "llmapp._errors",
    "LlmappError": "llmapp._errors",
    "LlmApplicationError": "llmapp._errors",
    "McpToolError": "llmapp._errors",
    "Problem": "llmapp._errors",
    "ResponseError": "llmapp._errors",
    "SchemaError": "llmapp._errors",
    "UnknownFunctionError": "llmapp._errors",
    "UNDEFINED": "llmapp._results",
    "Validation": "llmapp._results",
    "ValidationFailure": "llmapp._results",
    "ValidationIssue": "llmapp._results",
    "ValidationSuccess": "llmapp._results",
    "LlmApplication": "llmapp.app",
    "Application": "llmapp.kernel",
    "ComposedApplication": "llmapp.app",
    "compose": "llmapp.app",
    "application": "llmapp.app",
    "LlmConfig": "llmapp.kernel",
    "after_types": "llmapp.kernel",
    "Approval": "llmapp.kernel",
    "CallContext": "llmapp.kernel",
    "Controls": "llmapp.kernel",
    "controls": "llmapp.kernel",
    "llm_application": "llmapp.app",
    "validates": "llmapp.app",
    "Function": "llmapp.kernel",
    "LlmFunction": "llmapp.kernel",
    "Separated": "llmapp.kernel",
    "merge_parameters": "llmapp.kernel",
    "CallResult": "llmapp.kernel",
    "Runner": "llmapp.kernel",
    "sent_parameters": "llmapp.kernel",
    "feedback": "llmapp.explain",
    "StructuredOutput": "llmapp.output",
    "structured_output": "llmapp.output",
    "Parsed": "llmapp.repair",
    "coerce": "llmapp.repair",
    "parse": "llmapp.repair",
    "ArgumentStream": "llmapp.streaming",
    "stream": "llmapp.streaming",
    "EmbeddingRanker": "llmapp.search",
    "SearchIndex": "llmapp.search",
    "ToolSearch": "llmapp.search",
    "Validator": "llmapp.validate",
    "validator": "llmapp.validate",
}

if not TYPE_CHECKING:  # a misspelled name stays an error for type checkers
    __getattr__, __dir__ = _lazy_names(__name__, _HOMES)


__all__ = [
    "UNDEFINED",
    "Application",
    "Approval",
    "ArgumentError",
    "ArgumentStream",
    "BuildProblem",
    "CallContext",
    "CallResult",
    "ComposedApplication",
    "Controls",
    "ConversionError",
    "DocumentError",
    "EmbeddingRanker",
    "ExecutionError",
    "FeedbackError",
    "Function",
    "HttpError",
    "LlmApplication",
    "LlmApplicationError",
    "LlmConfig",
    "LlmFunction",
    "LlmappError",
    "McpToolError",
    "Parsed",
    "Problem",
    "ResponseError",
    "Runner",
    "SchemaError",
    "SearchIndex",
    "Separated",
    "StructuredOutput",
    "ToolSearch",
    "UnknownFunctionError",
    "Validation",
    "ValidationFailure",
    "ValidationIssue",
    "ValidationSuccess",
    "Validator",
    "__version__",
    "after_types",
    "application",
    "coerce",
    "compose",
    "controls",
    "feedback",
    "llm_application",
    "merge_parameters",
    "parse",
    "sent_parameters",
    "stream",
    "structured_output",
    "validates",
    "validator",
]
