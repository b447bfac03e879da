"""The decorator, the application and its functions, and safe execution."""

from llmapp.application._application import LlmApplication, application
from llmapp.application._config import LlmConfig, after_types
from llmapp.application._decorator import llm_application, validates
from llmapp.application._function import LlmFunction, Separated
from llmapp.application._merge import merge_parameters
from llmapp.application._result import CallResult

__all__ = [
    "CallResult",
    "LlmApplication",
    "LlmConfig",
    "LlmFunction",
    "Separated",
    "after_types",
    "application",
    "llm_application",
    "merge_parameters",
    "validates",
]
