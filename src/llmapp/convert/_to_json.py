"""Python results -> JSON-ready data (what ``json.dumps`` takes), for sending back to the model.

The encoding of each class is decided once and cached in ``_ENCODERS``; a table of
rows (looked up along the class's MRO) holds the value types, and a short list of
predicates the structural kinds (dataclass, NamedTuple, pydantic, attrs, abstract
collections). Nothing here raises: a value that cannot be encoded becomes its
``repr`` (``"<Connection object at 0x...>"``); a container met again inside itself
becomes ``"<cycle: TypeName>"``; nesting deeper than ``MAX_JSON_DEPTH`` becomes
``"<too deep: TypeName>"``.

``json_text(value)`` is the one writer of a result as JSON text: always valid JSON
(RFC 8259) that UTF-8 can encode, whatever the value holds. JSON has no NaN or
infinity, so they are ``null``; an integer past Python's limit on converting digits
(``sys.get_int_max_str_digits()``, 4,300 by default) is a string of its digits, up to
``MAX_DIGITS`` (past that, ``"<integer of about N digits>"``); a lone surrogate is
written as its escape.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import sys
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from llmapp._limits import MAX_DIGITS, MAX_JSON_DEPTH
from llmapp._scalars.iso8601 import encode_base64
from llmapp._scalars.table import scalar_of
from llmapp._text.unicode import encodable
from llmapp.introspect import model_fields

__all__ = ["json_text", "to_json"]

_SAFE_INT = 10**640
"""Every integer below this in size converts to text under any digit limit Python allows."""

_Encoder = Callable[[Any, set[int]], Any]
_AS_IS = frozenset({str, int, bool, type(None)})
_KEPT = frozenset({str, bool, type(None)})
"""Kept as they are with no check at all: containers keep them without calling ``_encode``
(an int's size and a float's finiteness are checked there)."""


def to_json(value: Any) -> Any:
    """Turn a Python value into JSON-ready data, to send a result back to the model.

    - dataclass, NamedTuple, attrs class -> dict of its fields (a NamedTuple is an
      object in the schema too, so it round-trips with its input form);
    - TypedDict and other mappings -> dict, keys as strings (``json.dumps`` rules:
      ``1`` -> ``"1"``, ``True`` -> ``"true"``, an Enum key -> its value);
    - pydantic model -> ``model_dump(mode="json", by_alias=True)`` (pydantic is
      imported only if it is already loaded);
    - Enum member -> its value; datetime/date/time -> ISO 8601 text; timedelta ->
      ISO 8601 duration (``P1DT2H``); UUID, Decimal, IP addresses, paths -> ``str``;
      bytes -> base64 text;
    - list, tuple, set, frozenset and other collections -> list (sets sorted when
      their items can be ordered, so output is stable);
    - float NaN and infinities -> ``None`` (JSON has no such numbers); an int with more
      digits than Python converts to text -> a string of its digits (see ``json_text``);
    - anything else -> its ``repr``; a cycle -> ``"<cycle: TypeName>"``.

    It never raises; the input is never mutated.

    Example:
        >>> from datetime import timedelta
        >>> to_json({"wait": timedelta(hours=1, minutes=30), "tags": {"b", "a"}})
        {'wait': 'PT1H30M', 'tags': ['a', 'b']}
    """
    cls = type(value)
    if cls in _KEPT or (cls is int and -_SAFE_INT < value < _SAFE_INT):
        return value  # as ``_encode`` returns it, without its call and its set
    if cls is list and set(map(type, value)) <= _KEPT:
        return value.copy()  # what ``_sequence`` makes of it, without a call per layer
    return _encode(value, set())


def _encode(value: Any, active: set[int]) -> Any:
    cls = type(value)
    if cls is int:
        return value if -_SAFE_INT < value < _SAFE_INT else _big_int(value)
    if cls in _AS_IS or (cls is float and math.isfinite(value)):
        return value
    encoder = _ENCODERS.get(cls)
    if encoder is None:
        encoder = _ENCODERS[cls] = _encoder_for(cls)
    try:
        return encoder(value, active)
    except Exception:  # a property, isoformat or model_dump that raises: still say something
        return _repr(value)


def json_text(value: Any) -> str:
    """``value`` as JSON text: valid JSON whatever it holds, encodable as UTF-8; never raises.

    Data already JSON-ready (``to_json``'s output, or parsed JSON) is written as it is;
    anything else (NaN, a huge int, a set, an object, a cycle) goes through ``to_json``
    first. Keys and strings keep their characters (``ensure_ascii=False``).

    Example:
        >>> json_text({"ratio": float("nan"), "tags": {"b", "a"}})
        '{"ratio": null, "tags": ["a", "b"]}'
    """
    try:
        text = "".join(_write(value, 0))
    except (ValueError, TypeError, RecursionError):
        try:
            text = "".join(_write(to_json(value), 0))
        except (ValueError, TypeError, RecursionError):  # a broken mapping built by hand
            text = "".join(_write(_repr(value), 0))
    return encodable(text)


_WRITER = json.JSONEncoder(ensure_ascii=False, allow_nan=False)


def _writer() -> Callable[[Any, int], Sequence[str]]:
    """``_WRITER.encode`` as its chunks, with json's C encoder made once, not per call.

    ``JSONEncoder.encode`` builds a new C encoder (and a closure) on every call: most of
    the cost of writing a short result, which every answer to the model pays. The one
    built here keeps no markers of the containers it is inside, since one dict of them
    could not be shared by calls in several threads: a cycle ends in ``RecursionError``
    instead of ``ValueError``, which ``json_text`` answers alike.
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # no C accelerator on this Python: json's own, one call at a time
        return lambda value, _level: (_WRITER.encode(value),)
    write: Callable[[Any, int], Sequence[str]] = make(
        None, _WRITER.default, json.encoder.encode_basestring, None, ": ", ", ", False, False, False
    )
    return write


_write = _writer()


def _big_int(value: int) -> int | str:
    """An int as is while Python converts it to text, else a string of its digits."""
    try:
        int.__repr__(value)
    except ValueError:  # past sys.get_int_max_str_digits()
        pass
    else:
        return value
    digits = int(value.bit_length() * 0.30103) + 1
    if digits > MAX_DIGITS:
        return f"<integer of about {digits:,} digits>"
    from decimal import Decimal  # converting an int to Decimal has no digit limit

    return format(Decimal(value), "f")


def _repr(value: Any) -> str:
    try:
        return repr(value)
    except Exception:
        return f"<{type(value).__name__} object>"


def _nested(encode_items: _Encoder) -> _Encoder:
    """Guard a mutable container's encoder against cycles and runaway depth.

    Immutable ones (tuple, frozenset, NamedTuple, frozen dataclass) go unguarded: a
    cycle must pass through a mutable object, and a runaway chain of immutable ones
    ends in a ``RecursionError``, which ``_encode`` turns into a repr like any error.
    """

    def guarded(value: Any, active: set[int]) -> Any:
        marker = id(value)
        if marker in active:
            return f"<cycle: {type(value).__name__}>"
        if len(active) >= MAX_JSON_DEPTH:
            return f"<too deep: {type(value).__name__}>"
        active.add(marker)
        try:
            return encode_items(value, active)
        finally:
            active.discard(marker)

    return guarded


# -- scalars ------------------------------------------------------------------------------


def _enum(value: enum.Enum, active: set[int]) -> Any:
    return _encode(value.value, active)


def _scalar(dump: Callable[[Any], Any]) -> _Encoder:
    """A row of ``llmapp._scalars.table``: its ``dump`` (a subclass gives the base's JSON)."""
    return lambda value, active: dump(value)


# -- containers ---------------------------------------------------------------------------


def _key(key: Any, active: set[int]) -> str:
    if isinstance(key, enum.Enum):
        key = key.value
    if isinstance(key, str):
        return str(key)
    if key is None or isinstance(key, bool):
        return {None: "null", True: "true", False: "false"}[key]
    if isinstance(key, (int, float)):
        return repr(key) if isinstance(key, float) else str(int(key))
    encoded = _encode(key, active)
    return encoded if isinstance(encoded, str) else _repr(key)


def _mapping(value: Mapping[Any, Any], active: set[int]) -> dict[str, Any]:
    return {
        key if type(key) is str else _key(key, active): (
            item if type(item) in _KEPT else _encode(item, active)
        )
        for key, item in value.items()
    }


def _sequence(value: Any, active: set[int]) -> list[Any]:
    return [item if type(item) in _KEPT else _encode(item, active) for item in value]


def _set(value: AbstractSet[Any], active: set[int]) -> list[Any]:
    items = [_encode(item, active) for item in value]
    try:
        return sorted(items)
    except TypeError:  # items of mixed or unorderable kinds: keep the set's own order
        return items


def _attributes(names: tuple[str, ...], frozen: bool) -> _Encoder:
    def encode(value: Any, active: set[int]) -> dict[str, Any]:
        return {name: _encode(getattr(value, name), active) for name in names}

    return encode if frozen else _nested(encode)


def _dataclass(cls: type) -> _Encoder:
    frozen = bool(getattr(getattr(cls, "__dataclass_params__", None), "frozen", False))
    return _attributes(tuple(field.name for field in model_fields(cls)), frozen)


def _namedtuple(cls: type) -> _Encoder:
    names: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]

    def encode(value: Any, active: set[int]) -> dict[str, Any]:
        return {name: _encode(item, active) for name, item in zip(names, value, strict=False)}

    return encode


def _attrs(cls: type) -> _Encoder:
    # The JSON name of an attrs attribute is its __init__ alias ("_secret" -> "secret").
    pairs = tuple(
        (getattr(attribute, "alias", None) or attribute.name, attribute.name)
        for attribute in cls.__attrs_attrs__  # type: ignore[attr-defined]
    )

    def encode(value: Any, active: set[int]) -> dict[str, Any]:
        return {key: _encode(getattr(value, name), active) for key, name in pairs}

    return _nested(encode)


def _pydantic(value: Any, active: set[int]) -> Any:
    computed = set(getattr(type(value), "model_computed_fields", ()))  # not in the schema
    return value.model_dump(mode="json", by_alias=True, exclude=computed or None)


# What is not a scalar type: a buffer (no annotation gives one, a method may return
# one) and the containers, looked up along the MRO; the order does not matter.
_ROWS: dict[type, _Encoder] = {
    memoryview: lambda value, active: encode_base64(value),
    dict: _nested(_mapping),
    list: _nested(_sequence),
    set: _nested(_set),
    # Immutable containers need no cycle guard: a cycle always runs through something
    # mutable (a list, a dict, a plain dataclass), whose guard catches it.
    frozenset: _set,
    tuple: _sequence,
}


def _is_pydantic(cls: type) -> bool:
    pydantic = sys.modules.get("pydantic")  # loaded already if the value is a model
    return pydantic is not None and issubclass(cls, pydantic.BaseModel)


def _is_namedtuple(cls: type) -> bool:
    return issubclass(cls, tuple) and hasattr(cls, "_fields")


# Structural kinds, checked in this order before the MRO rows: a NamedTuple is a
# tuple and a dataclass may subclass anything, so their shape must win.
_KINDS: list[tuple[Callable[[type], bool], Callable[[type], _Encoder]]] = [
    (_is_pydantic, lambda cls: _pydantic),
    (dataclasses.is_dataclass, _dataclass),
    (_is_namedtuple, _namedtuple),
    (lambda cls: hasattr(cls, "__attrs_attrs__"), _attrs),
]

# Abstract collections, after the MRO rows (a str is a Sequence, a bytes too).
_COLLECTIONS: list[tuple[type, _Encoder]] = [
    (Mapping, _nested(_mapping)),
    (AbstractSet, _nested(_set)),
    (Sequence, _nested(_sequence)),
]


def _encoder_for(cls: type) -> _Encoder:
    for matches, make in _KINDS:
        if matches(cls):
            return make(cls)
    if issubclass(cls, enum.Enum):
        return _enum
    scalar = scalar_of(cls)
    if scalar is not None:
        return _scalar(scalar[0].dump)
    for base in cls.__mro__:
        row = _ROWS.get(base)
        if row is not None:
            return row
    for abstract, encoder in _COLLECTIONS:
        if issubclass(cls, abstract):
            return encoder
    return lambda value, active: _repr(value)


_ENCODERS: dict[type, _Encoder] = {}
"""Encoder per class, decided on first sight."""
