"""``Annotated`` metadata -> constraints and metadata on a type-model node.

annotated-types constraints become node fields, llmapp's markers become string
fields or ``Meta``, ``Doc`` becomes the description. A constraint that cannot
apply to the node (``MaxLen`` on an integer) is reported, never dropped
silently; metadata nobody here knows (FastAPI's ``Depends``, ...) is ignored.

annotated-types is read from ``sys.modules``, never imported here: its constraints
can only be in an annotation once the user's code (or pydantic) has imported it, and
a build that does not use it should not pay for its import.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable
from typing import Any

import typing_extensions as te

from llmapp import markers
from llmapp._records.record import replace
from llmapp.introspect.model import (
    ArrayNode,
    DictNode,
    IntegerNode,
    Meta,
    Node,
    NullNode,
    NumberNode,
    StringNode,
    UnionNode,
)

__all__ = ["apply_metadata"]

Report = Callable[[str], object]

_NUMERIC = (IntegerNode, NumberNode)


def _numeric(name: str) -> Callable[[Node, Any], Node | None]:
    def apply(node: Node, value: Any) -> Node | None:
        return replace(node, **{name: value}) if isinstance(node, _NUMERIC) else None

    return apply


def _json_number(value: Any) -> int | float | str:
    """A numeric bound as the JSON number the schema writes, or why it cannot be one.

    ``Ge(Decimal("1"))`` is ``1`` and ``MultipleOf(Decimal("0.01"))`` is ``0.01``: the
    shortest float text that reads back as the same number. A bound no JSON number
    writes exactly (``Decimal("0.1234567890123456789")``, NaN, infinity, a string) is
    refused rather than rounded, since a rounded bound would let other values through.
    """
    if type(value) is int or (type(value) is float and value - value == 0.0):
        return value
    if isinstance(value, bool) or not hasattr(value, "__float__"):
        return f"the bound {value!r} is not a number"
    try:
        if value == int(value):
            return int(value)
        written = float(value)
    except (ValueError, OverflowError, TypeError, ArithmeticError):
        return f"the bound {value!r} is not a finite number"
    from decimal import Decimal  # only for bounds given as Decimal, Fraction, ...

    if written - written == 0.0 and Decimal(repr(written)) == value:
        return written
    return f"the bound {value!r} cannot be written exactly as a JSON number"


def _length(bound: str) -> Callable[[Node, Any], Node | None]:
    """``MinLen``/``MaxLen``: characters of a string, items of an array, keys of a dict."""

    def apply(node: Node, value: Any) -> Node | None:
        if isinstance(node, StringNode) and node.content_encoding is None:
            return replace(node, **{f"{bound}_length": value})
        if isinstance(node, ArrayNode):
            return replace(node, **{f"{bound}_items": value})
        if isinstance(node, DictNode):
            return replace(node, **{f"{bound}_properties": value})
        return None

    return apply


def _string(name: str, *, encoded: bool = False) -> Callable[[Node, Any], Node | None]:
    """A string keyword; ``encoded`` ones also apply to bytes (base64 text)."""

    def apply(node: Node, value: Any) -> Node | None:
        fits = isinstance(node, StringNode) and (encoded or node.content_encoding is None)
        return replace(node, **{name: value}) if fits else None

    return apply


Constraint = tuple[str, Callable[[Node, Any], Node | None]]
"""(attribute holding the value, how it lands on a node)"""

_BOUNDS = frozenset({"ge", "gt", "le", "lt", "multiple_of"})
"""Attributes whose value the schema writes as a JSON number."""

_MARKERS: dict[type, Constraint] = {
    markers.Format: ("name", _string("format")),
    markers.Pattern: ("regex", _string("pattern")),
    markers.ContentMediaType: ("media_type", _string("content_media_type", encoded=True)),
}
_ANNOTATED_TYPES: dict[str, Constraint] = {
    "Ge": ("ge", _numeric("ge")),
    "Gt": ("gt", _numeric("gt")),
    "Le": ("le", _numeric("le")),
    "Lt": ("lt", _numeric("lt")),
    "MultipleOf": ("multiple_of", _numeric("multiple_of")),
    "MinLen": ("min_length", _length("min")),
    "MaxLen": ("max_length", _length("max")),
}
_META_TYPES = frozenset({markers.Title, markers.Examples, markers.Human, te.Doc, str})


class _Known:
    """The constraint classes known now, and those never grouped (yielded as they are)."""

    def __init__(self, annotated_types: Any) -> None:
        self.module = annotated_types
        self.constraints = dict(_MARKERS)
        plain = set(_META_TYPES)
        if annotated_types is not None:
            for name, constraint in _ANNOTATED_TYPES.items():
                self.constraints[getattr(annotated_types, name)] = constraint
            plain.add(getattr(annotated_types, "Doc", te.Doc))
        self.plain = frozenset({*self.constraints, *plain})


_known = functools.lru_cache(maxsize=4)(_Known)
"""``_Known`` per annotated-types module object (``None`` while it is not imported)."""


def _tables() -> _Known:
    """The tables for the annotated-types module loaded now."""
    return _known(sys.modules.get("annotated_types"))


def _with_meta(node: Node, **changes: Any) -> Node:
    return replace(node, meta=replace(node.meta, **changes))


def _meta_change(item: Any) -> dict[str, Any] | None:
    """The ``Meta`` fields a piece of metadata sets, or ``None`` if it is not metadata."""
    if isinstance(item, markers.Title):
        return {"title": item.text}
    if isinstance(item, markers.Examples):
        return {"examples": tuple(item.values)}
    if isinstance(item, markers.Human):
        return {"human": True}
    if type(item).__name__ == "Doc" and isinstance(getattr(item, "documentation", None), str):
        return {"description": item.documentation}  # typing_extensions.Doc or annotated_types.Doc
    return None


def _constrain(node: Node, item: Any, constraint: Constraint, report: Report) -> Node:
    attribute, apply = constraint
    value = getattr(item, attribute)
    if attribute in _BOUNDS:
        value = _json_number(value)
        if isinstance(value, str):
            report(f"{item!r}: {value}")
            return node
    if isinstance(node, UnionNode):  # e.g. ``Annotated[int | None, Ge(0)]``: the non-null options
        options, applied = [], False
        for option in node.options:
            changed = None if isinstance(option, NullNode) else apply(option, value)
            applied = applied or changed is not None
            options.append(option if changed is None else changed)
        if applied:
            return replace(node, options=tuple(options))
    else:
        changed = apply(node, value)
        if changed is not None:
            return changed
    report(f"{item!r} does not apply to {_kind(node)}")
    return node


def _kind(node: Node) -> str:
    if isinstance(node, StringNode) and node.content_encoding is not None:
        return "bytes"
    return type(node).__name__.removesuffix("Node").lower() or "node"


def _expand(metadata: Iterable[Any]) -> Iterable[Any]:
    """Flatten grouped metadata (``Interval``, ``Len``, pydantic ``FieldInfo``)."""
    field_info = _pydantic_field_info()
    known = _tables()
    grouped = getattr(known.module, "GroupedMetadata", None)
    for item in metadata:
        if type(item) in known.plain:  # the common case, without a slow Protocol isinstance check
            yield item
        elif grouped is not None and isinstance(item, grouped):
            yield from _expand(item)
        elif field_info is not None and isinstance(item, field_info):
            yield from _from_field_info(item)
        elif type(item).__name__ == "_PydanticGeneralMetadata":
            pattern = getattr(item, "pattern", None)
            if isinstance(pattern, str):
                yield markers.Pattern(pattern)
        else:
            yield item


def _pydantic_field_info() -> type | None:
    fields = sys.modules.get("pydantic.fields")
    info = getattr(fields, "FieldInfo", None)
    return info if isinstance(info, type) else None


def _from_field_info(info: Any) -> Iterable[Any]:
    """A pydantic ``Field(...)`` used inside ``Annotated``."""
    if info.title:
        yield markers.Title(info.title)
    if info.description:
        yield te.Doc(info.description)
    if info.examples:
        yield markers.Examples(*info.examples)
    yield from _expand(info.metadata)


def apply_metadata(node: Node, metadata: Iterable[Any], report: Report) -> Node:
    """``node`` with every known piece of ``Annotated`` metadata applied, in order."""
    constraints = _tables().constraints
    for item in _expand(metadata):
        constraint = constraints.get(type(item))
        if constraint is not None:
            node = _constrain(node, item, constraint, report)
            continue
        change = _meta_change(item)
        if change is not None:
            node = _with_meta(node, **change)
    return node


def meta_from(metadata: Iterable[Any]) -> Meta:
    """Only the ``Meta`` part of some metadata (for places with no node to constrain)."""
    changes: dict[str, Any] = {}
    for item in _expand(metadata):
        change = _meta_change(item)
        if change is not None:
            changes.update(change)
    return Meta(**changes)
