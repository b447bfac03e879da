"""Types that are not named: scalars, formats, containers, unions, literals.

``EXACT`` maps a type to the one node it always gives; ``ORIGINS`` maps the
origin of a parametrised generic (``list``, ``dict``, ``Union``, ``Literal``) to
its handler; ``SCALAR_ROWS`` builds scalar types and their subclasses from the
rows of ``llmapp._scalars.table``. ``TypeBuilder``
adds the named types (dataclasses, Enums, aliases...) on top of these tables.
"""

from __future__ import annotations

import collections
import collections.abc as abc
import enum
import typing
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any, Protocol

import typing_extensions as te

from llmapp._records.record import Record
from llmapp._scalars.table import Form, scalar_of
from llmapp.introspect import _compat
from llmapp.introspect.model import (
    NO_META,
    AnyNode,
    ArrayNode,
    BooleanNode,
    DictNode,
    IntegerNode,
    LiteralNode,
    Node,
    NullNode,
    NumberNode,
    StringNode,
    TupleNode,
    UnionNode,
)

__all__ = ["EXACT", "JSON_SCALARS", "ORIGINS", "SCALAR_ROWS", "Scope"]


class Scope(Record):
    """Where an annotation is being built: for messages and for resolving names."""

    location: str
    globalns: Mapping[str, Any] | None
    localns: Mapping[str, Any] | None
    typevars: Mapping[Any, Any] = MappingProxyType({})
    prefix: str = ""
    """``Owner.field`` while building a field of a named type."""


class Builder(Protocol):
    """What these handlers need from ``TypeBuilder``."""

    def node(self, annotation: Any, scope: Scope) -> Node | None: ...

    def report(self, scope: Scope, reason: str) -> Node | None: ...

    def concrete(self, tp: Any, scope: Scope) -> Any: ...


OriginHandler = Callable[[Builder, Any, Any, "tuple[Any, ...]", Scope], "Node | None"]

JSON_SCALARS = (str, int, float, bool, type(None))
_ANY = AnyNode()
_ANY_TYPES: frozenset[Any] = frozenset({Any, te.Any, object})
_UNIQUE = frozenset({set, frozenset, abc.Set, abc.MutableSet})
_NEVER_JSON: dict[Any, str] = {
    abc.Callable: "a callable cannot be sent as JSON",
    type: "a class object cannot be sent as JSON",
    abc.Iterator: "an iterator cannot be sent as JSON",
    abc.Generator: "a generator cannot be sent as JSON",
    abc.Awaitable: "an awaitable cannot be sent as JSON",
    abc.Coroutine: "a coroutine cannot be sent as JSON",
}


# -- handlers of parametrised generics ----------------------------------------------------------


def array(
    builder: Builder, tp: Any, origin: Any, args: tuple[Any, ...], scope: Scope
) -> Node | None:
    item = builder.node(args[0], scope) if args else _ANY
    if item is None:
        return None
    return ArrayNode(item=item, unique_items=origin in _UNIQUE, python_type=origin)


def tuple_type(
    builder: Builder, tp: Any, origin: Any, args: tuple[Any, ...], scope: Scope
) -> Node | None:
    if len(args) == 2 and args[1] is Ellipsis:
        return array(builder, tp, tuple, args[:1], scope)
    if args == ((),):  # ``Tuple[()]`` on Python 3.10
        args = ()
    items = [builder.node(arg, scope) for arg in args]
    if any(item is None for item in items):
        return None
    return TupleNode(items=tuple(items), python_type=tuple)  # type: ignore[arg-type]


def mapping(
    builder: Builder, tp: Any, origin: Any, args: tuple[Any, ...], scope: Scope
) -> Node | None:
    if args and not _string_key(builder, args[0], scope):
        shown = _compat.type_display(tp)
        return builder.report(scope, f"{shown}: JSON object keys are strings, use str keys")
    value = builder.node(args[1], scope) if len(args) == 2 else _ANY
    return None if value is None else DictNode(value=value, python_type=origin)


def _string_key(builder: Builder, tp: Any, scope: Scope) -> bool:
    try:
        tp = builder.concrete(tp, scope)
    except Exception:
        return False
    tp, _, _ = _compat.split_annotated(tp)
    while _compat.is_newtype(tp):
        tp = tp.__supertype__
    return tp in _ANY_TYPES or (_compat.is_class(tp) and issubclass(tp, str))


def union(
    builder: Builder, tp: Any, origin: Any, args: tuple[Any, ...], scope: Scope
) -> Node | None:
    built = [builder.node(arg, scope) for arg in args]  # every option, to report every problem
    if any(option is None for option in built):
        return None
    options = _merge_literals(_flatten(built))  # type: ignore[arg-type]
    return options[0] if len(options) == 1 else UnionNode(options=tuple(options))


def _flatten(options: list[Node]) -> list[Node]:
    """A union inside a union (``datetime`` has two forms) is one level of options."""
    flat: list[Node] = []
    for option in options:
        if isinstance(option, UnionNode) and option.meta is NO_META:
            flat.extend(option.options)
        else:
            flat.append(option)
    return flat


def _merge_literals(options: list[Node]) -> list[Node]:
    """``Literal["a"] | Literal["b"]`` -> one ``Literal["a", "b"]``."""
    merged: list[Node] = []
    for option in options:
        previous = merged[-1] if merged else None
        if (
            isinstance(option, LiteralNode)
            and isinstance(previous, LiteralNode)
            and option.meta == previous.meta
            and option.python_type is previous.python_type
        ):
            merged[-1] = LiteralNode(
                values=previous.values + option.values,
                meta=option.meta,
                python_type=option.python_type,
            )
        else:
            merged.append(option)
    return merged


def literal(
    builder: Builder, tp: Any, origin: Any, args: tuple[Any, ...], scope: Scope
) -> Node | None:
    values: list[Any] = []
    enums = set()
    for arg in args:
        if isinstance(arg, enum.Enum):
            enums.add(type(arg))
            values.append(arg.value)
        elif isinstance(arg, JSON_SCALARS):
            values.append(arg)
        else:
            return builder.report(scope, f"Literal value {arg!r} is not a JSON scalar")
    if enums and (len(enums) > 1 or len(values) != sum(isinstance(a, enum.Enum) for a in args)):
        return builder.report(scope, f"{_compat.type_display(tp)} mixes Enum members with others")
    python_type = next(iter(enums)) if enums else None
    return LiteralNode(values=tuple(values), python_type=python_type)


def unsupported(
    builder: Builder, tp: Any, origin: Any, args: tuple[Any, ...], scope: Scope
) -> None:
    reason = _NEVER_JSON.get(origin, "it cannot be sent as JSON")
    builder.report(scope, f"unsupported type {_compat.type_display(tp)}: {reason}")


ORIGINS: dict[Any, OriginHandler] = {
    **dict.fromkeys(
        (list, abc.Sequence, abc.MutableSequence, abc.Collection, abc.Iterable, collections.deque),
        array,
    ),
    **dict.fromkeys(_UNIQUE, array),
    tuple: tuple_type,
    **dict.fromkeys((dict, abc.Mapping, abc.MutableMapping), mapping),
    typing.Union: union,
    _compat.get_origin(int | None): union,
    typing.Literal: literal,
    te.Literal: literal,
    **dict.fromkeys(_NEVER_JSON, unsupported),
}


# -- types that always give the same node ------------------------------------------------------

EXACT: dict[Any, Node] = {
    te.LiteralString: StringNode(),
    None: NullNode(),
    type(None): NullNode(),
    **dict.fromkeys(_ANY_TYPES, _ANY),
    list: ArrayNode(item=_ANY, python_type=list),
    set: ArrayNode(item=_ANY, unique_items=True, python_type=set),
    frozenset: ArrayNode(item=_ANY, unique_items=True, python_type=frozenset),
    tuple: ArrayNode(item=_ANY, python_type=tuple),
    typing.Tuple: ArrayNode(item=_ANY, python_type=tuple),  # noqa: UP006  (bare, not tuple[()])
    dict: DictNode(value=_ANY, python_type=dict),
}


# -- scalar types: the rows of ``llmapp._scalars.table`` ----------------------------------------

_FORM_NODES: dict[str, Callable[..., Node]] = {
    "integer": IntegerNode,
    "number": NumberNode,
    "boolean": BooleanNode,
}


def _form_node(form: Form, python_type: Any) -> Node:
    if form.json_type == "string":
        return StringNode(
            format=form.format, content_encoding=form.content_encoding, python_type=python_type
        )
    return _FORM_NODES[form.json_type](python_type=python_type)


def _is_scalar(tp: Any) -> bool:
    return _compat.is_class(tp) and scalar_of(tp) is not None


def _scalar(builder: Builder, tp: Any, scope: Scope) -> Node:
    """A scalar type or a subclass of one: a node per JSON form, converted to ``tp``.

    JSON's own types (``str``, ``int``...) need no conversion; their subclasses do.
    """
    row, base = scalar_of(tp)  # type: ignore[misc]
    python_type = None if row.native and tp is base else tp
    nodes = tuple(_form_node(form, python_type) for form in row.forms)
    return nodes[0] if len(nodes) == 1 else UnionNode(options=nodes)


Row = tuple[Callable[[Any], bool], Callable[..., Node | None]]
"""(predicate, handler): the handler builds the node of a type the predicate accepts."""

SCALAR_ROWS: tuple[Row, ...] = ((_is_scalar, _scalar),)
