"""Validated JSON -> the method's Python types, and Python results -> JSON-ready data.

``compile_arguments(method, graph)`` compiles, once per method, how validated JSON
arguments become the ``(args, kwargs)`` of the Python call: dataclass instances,
TypedDict dicts, NamedTuples, Enum members, ``datetime``/``UUID``/``Decimal``/IP
objects, tuples, sets, pydantic models. ``compile_converter(node, graph)`` does
the same for one value. ``to_json(value)`` goes the other way, for results.
"""

from ._arguments import ArgumentBuilder, compile_arguments
from ._error import ConversionError
from ._to_json import to_json
from ._to_python import compile_converter

__all__ = [
    "ArgumentBuilder",
    "ConversionError",
    "compile_arguments",
    "compile_converter",
    "to_json",
]
