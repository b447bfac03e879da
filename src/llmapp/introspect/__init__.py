"""Stage 1: Python classes and types -> method specs and the neutral type model."""

from llmapp.introspect._docstrings import DocInfo, DocstringWarning, parse_docstring
from llmapp.introspect._methods import ClassSpec, inspect_class

__all__ = ["ClassSpec", "DocInfo", "DocstringWarning", "inspect_class", "parse_docstring"]
