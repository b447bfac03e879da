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
"""

from llmapp._errors import BuildProblem, ExecutionError, LlmappError, LlmApplicationError
from llmapp.application import (
    CallResult,
    LlmApplication,
    LlmConfig,
    LlmFunction,
    Separated,
    after_types,
    application,
    llm_application,
    merge_parameters,
    validates,
)
from llmapp.feedback import feedback
from llmapp.repair import Parsed, coerce, parse
from llmapp.validate import Validator, validator
from llmapp.validate._result import (
    UNDEFINED,
    Validation,
    ValidationFailure,
    ValidationIssue,
    ValidationSuccess,
)

__version__ = "0.1.0"

__all__ = [
    "UNDEFINED",
    "BuildProblem",
    "CallResult",
    "ExecutionError",
    "LlmApplication",
    "LlmApplicationError",
    "LlmConfig",
    "LlmFunction",
    "LlmappError",
    "Parsed",
    "Separated",
    "Validation",
    "ValidationFailure",
    "ValidationIssue",
    "ValidationSuccess",
    "Validator",
    "__version__",
    "after_types",
    "application",
    "coerce",
    "feedback",
    "llm_application",
    "merge_parameters",
    "parse",
    "validates",
    "validator",
]
