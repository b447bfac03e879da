"""The decorator, the application and its functions, and safe execution."""

from llmapp.app._application import LlmApplication, application
from llmapp.app._compose import Application, ComposedApplication, Origin, compose
from llmapp.app._decorator import llm_application, validates
from llmapp.kernel import (
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
