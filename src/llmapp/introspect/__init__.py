"""Stage 1: Python classes and types -> method specs and the neutral type model."""

from llmapp.introspect._compat import model_fields
from llmapp.introspect._context import is_framework_context
from llmapp.introspect._docstrings import DocInfo, DocstringWarning, parse_docstring
from llmapp.introspect._methods import FUNCTION_NAME, ClassSpec, inspect_class
from llmapp.introspect._objects import class_doc
from llmapp.introspect._types import TypeBuilder, type_name

__all__ = [
    "FUNCTION_NAME",
    "ClassSpec",
    "DocInfo",
    "DocstringWarning",
    "TypeBuilder",
    "class_doc",
    "inspect_class",
    "is_framework_context",
    "model_fields",
    "parse_docstring",
    "type_name",
]
