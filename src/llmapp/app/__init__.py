"""The class door: the decorator, the application and its functions.

The names load on first use (PEP 562): ``llmapp.LlmApplication`` loads the application's
module, not the whole package."""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmapp._lazy import lazy_names as _lazy_names

if TYPE_CHECKING:
    from llmapp.app._application import (
        LlmApplication,
        application,
    )
    from llmapp.app._compose import (
        ComposedApplication,
        Origin,
        compose,
    )
    from llmapp.app._decorator import (
        llm_application,
        validates,
    )
    from llmapp.kernel import (
        Application,
        Audio,
        CallResult,
        EmbeddedResource,
        Function,
        Image,
        LlmConfig,
        LlmFunction,
        Masker,
        ResourceLink,
        Runner,
        Separated,
        after_types,
        describe,
        function_data,
        is_content,
        merge_parameters,
        read_arguments,
        unknown_function,
    )

_HOMES = {
    "Application": "llmapp.kernel",
    "Audio": "llmapp.kernel",
    "CallResult": "llmapp.kernel",
    "ComposedApplication": "llmapp.app._compose",
    "EmbeddedResource": "llmapp.kernel",
    "Function": "llmapp.kernel",
    "Image": "llmapp.kernel",
    "LlmApplication": "llmapp.app._application",
    "LlmConfig": "llmapp.kernel",
    "LlmFunction": "llmapp.kernel",
    "Masker": "llmapp.kernel",
    "Origin": "llmapp.app._compose",
    "ResourceLink": "llmapp.kernel",
    "Runner": "llmapp.kernel",
    "Separated": "llmapp.kernel",
    "after_types": "llmapp.kernel",
    "application": "llmapp.app._application",
    "compose": "llmapp.app._compose",
    "describe": "llmapp.kernel",
    "function_data": "llmapp.kernel",
    "is_content": "llmapp.kernel",
    "llm_application": "llmapp.app._decorator",
    "merge_parameters": "llmapp.kernel",
    "read_arguments": "llmapp.kernel",
    "unknown_function": "llmapp.kernel",
    "validates": "llmapp.app._decorator",
}

__getattr__, __dir__ = _lazy_names(__name__, _HOMES)

__all__ = [
    "Application",
    "Audio",
    "CallResult",
    "ComposedApplication",
    "EmbeddedResource",
    "Function",
    "Image",
    "LlmApplication",
    "LlmConfig",
    "LlmFunction",
    "Masker",
    "Origin",
    "ResourceLink",
    "Runner",
    "Separated",
    "after_types",
    "application",
    "compose",
    "describe",
    "function_data",
    "is_content",
    "llm_application",
    "merge_parameters",
    "read_arguments",
    "unknown_function",
    "validates",
]
