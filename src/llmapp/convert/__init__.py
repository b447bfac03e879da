"""Validated JSON -> the method's Python types, and Python results -> JSON-ready data.

``compile_arguments(method, graph)`` compiles, once per method, how validated JSON
arguments become the ``(args, kwargs)`` of the Python call: dataclass instances,
TypedDict dicts, NamedTuples, Enum members, ``datetime``/``UUID``/``Decimal``/IP
objects, tuples, sets, pydantic models. ``compile_converter(node, graph)`` does
the same for one value. ``to_json(value)`` goes the other way, for results.

Decisions a caller may rely on:

- Converting runs after validation and assumes the shapes are right. A node with
  nothing to convert (``str``, ``list[str]``, a TypedDict of plain fields) gives
  the value back as it is, not a copy; the input is never mutated.
- ``null`` for an optional parameter or field whose type does not accept null
  means "not given" (OpenAI strict mode): it is left out and Python's default applies.
- A float like ``3.0`` where Python declared ``int`` becomes ``3`` (JSON Schema and
  the validator accept it as an integer); ``int | float`` keeps ``3.0`` a float.
- A value that already has the target Python type (a human-side ``bytes``, a built
  dataclass) passes through unchanged.
- Unions pick their branch by the value's JSON kind, then by structure (keys,
  required keys, literal tags, tuple lengths, the written form of a date), in
  declaration order.
- pydantic models are built with ``model_validate`` on the converted fields, keyed
  by their JSON names (aliases): the model's own validators run, strict models work.
  Where the model does not override ``model_validate``, its validator's
  ``validate_python`` is called as ``model_validate`` calls it.
- The usual text of a date, date-time, time, duration, UUID, IP address, ``Decimal`` or
  base64 ``bytes`` is read by the stdlib's fastest exact path (``_readers``), any other
  text by the scalar table's ``parse``: the same value either way.
- When the Python side refuses a value the schema allowed (``__post_init__``, a
  pydantic validator, a year outside ``datetime``'s range), ``ConversionError``
  says where, with a ``$input`` path like a ``ValidationIssue``.
- ``to_json``: a NamedTuple becomes an object (its schema is an object, so it
  round-trips), a pydantic model ``model_dump(mode="json", by_alias=True)``, NaN
  and infinities ``None``, an int past Python's digit limit a string of its digits,
  anything unknown its ``repr``, a cycle ``"<cycle: TypeName>"``. It never raises.
- ``json_text``: the one writer of results as JSON text, always valid JSON and always
  encodable as UTF-8 (lone surrogates escaped).

The modules load on first use (PEP 562): an application imports this stage at the top
of its execution plan and pays for it on its first call, not when it is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmapp._lazy import lazy_names as _lazy_names

if TYPE_CHECKING:
    from ._arguments import ArgumentBuilder, compile_arguments
    from ._error import ConversionError
    from ._to_json import json_text, to_json
    from ._to_python import compile_converter

_LAZY = {
    "ArgumentBuilder": "._arguments",
    "ConversionError": "._error",
    "compile_arguments": "._arguments",
    "compile_converter": "._to_python",
    "json_text": "._to_json",
    "to_json": "._to_json",
}

if not TYPE_CHECKING:  # a misspelled name stays an error for type checkers
    __getattr__, __dir__ = _lazy_names(__name__, _LAZY)


__all__ = [
    "ArgumentBuilder",
    "ConversionError",
    "compile_arguments",
    "compile_converter",
    "json_text",
    "to_json",
]
