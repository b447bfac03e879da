"""The decorator, the application and its functions, and safe execution."""

from llmapp.app._application import LlmApplication, application
from llmapp.app._arguments import read_arguments, unknown_function
from llmapp.app._compose import Application, ComposedApplication, Origin, compose
from llmapp.app._config import LlmConfig, after_types
from llmapp.app._content import (
    Audio,
    EmbeddedResource,
    Image,
    ResourceLink,
    describe,
    is_content,
)
from llmapp.app._decorator import llm_application, validates
from llmapp.app._function import Function, LlmFunction, Separated, function_data
from llmapp.app._mask import Masker
from llmapp.app._merge import merge_parameters
from llmapp.app._result import CallResult
from llmapp.app._runner import Runner

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
