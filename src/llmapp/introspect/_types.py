"""Python type -> type-model node, through dispatch tables; named types become definitions.

Lookup order (first match wins):

1. ``_EXACT``: a type that always gives the same node (``str``, ``datetime``, ``Any``).
2. ``_ORIGINS``: a parametrised generic by its origin (``list[int]``, ``X | None``,
   ``Literal[...]``); a generic dataclass/TypedDict/NamedTuple (``Page[Product]``)
   or ``TypeAliasType`` falls through to its own handler.
3. ``_ROWS``: ordered (predicate, handler) pairs for everything else: forward
   references, TypeVars, aliases, NewType, Enum, object classes, subclasses of scalars.

Adding a Python type is adding one entry to one of these tables.
"""

from __future__ import annotations

import collections
import collections.abc as abc
import enum
import ipaddress
import pathlib
import re
import typing
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Any, ForwardRef

import typing_extensions as te

from llmapp._errors import BuildProblem
from llmapp.introspect import _compat, _objects
from llmapp.introspect._constraints import apply_metadata
from llmapp.introspect.model import (
    AliasDef,
    AnyNode,
    ArrayNode,
    BooleanNode,
    Definition,
    DictNode,
    EnumDef,
    Field,
    IntegerNode,
    LiteralNode,
    Node,
    NullNode,
    NumberNode,
    ObjectDef,
    RefNode,
    StringNode,
    TupleNode,
    TypeGraph,
    TypeKey,
    UnionNode,
)

__all__ = ["TypeBuilder", "type_name"]


@dataclass(frozen=True, slots=True)
class _Scope:
    """Where an annotation is being built: for messages and for resolving names."""

    location: str
    globalns: Mapping[str, Any] | None
    localns: Mapping[str, Any] | None
    typevars: Mapping[Any, Any] = field(default_factory=dict)
    prefix: str = ""
    """``Owner.field`` while building a field of a named type."""


class TypeBuilder:
    """Builds type-model nodes for annotations; collects named types and problems.

    One builder serves one application: named types are built once and shared,
    so ``graph()`` holds every definition reached by any ``build`` call.

    Example:
        >>> builder = TypeBuilder()
        >>> builder.build(list[int], location="Shop.add.counts")
        ArrayNode(meta=Meta(...), python_type=<class 'list'>, item=IntegerNode(...), ...)
    """

    def __init__(self) -> None:
        self.problems: list[BuildProblem] = []
        self._definitions: dict[TypeKey, Definition] = {}
        self._building: set[TypeKey] = set()
        self._aliases: dict[Any, bool] = {}  # alias being built -> seen inside itself
        self._classes: dict[type, Node] = {}
        self._alias_keys: dict[Any, bool] = {}  # keys of AliasDefs
        self._outer_localns: Mapping[str, Any] | None = None

    def build(
        self,
        annotation: object,
        *,
        location: str,
        globalns: dict[str, Any] | None = None,
        localns: Mapping[str, Any] | None = None,
    ) -> Node | None:
        """Node for one annotation (may be ``Annotated``, a string, a ``ForwardRef``...).

        On an unsupported or unresolvable type, appends a ``BuildProblem`` naming
        the type or the unresolved name to ``problems`` and returns ``None``.
        """
        self._outer_localns = localns
        return self.node(annotation, _Scope(location, globalns, localns))

    def graph(self) -> TypeGraph:
        """Every definition reached so far."""
        return TypeGraph(definitions=dict(self._definitions))

    # -- the dispatch -----------------------------------------------------------------------

    def node(self, annotation: Any, scope: _Scope) -> Node | None:
        bare, metadata, _ = _compat.split_annotated(annotation)
        built = self.bare(bare, scope)
        if built is None or not metadata:
            return built
        return apply_metadata(built, metadata, lambda reason: self.report(scope, reason))

    def bare(self, tp: Any, scope: _Scope) -> Node | None:
        exact: Node | None = _lookup(_EXACT, tp)
        if exact is not None:
            return exact
        cached = self._classes.get(tp) if _compat.is_class(tp) else None
        if cached is not None:
            return cached
        if self._alias_keys and _lookup(self._alias_keys, tp):  # a recursive alias, by value
            return RefNode(key=tp)
        origin = _compat.get_origin(tp)
        if origin is not None:
            handler: _OriginHandler | None = _lookup(_ORIGINS, origin)
            if handler is not None:
                return handler(self, tp, origin, _compat.get_args(tp), scope)
            if _objects.is_object_class(origin) or _compat.is_type_alias(origin):
                return self.generic(tp, origin, _compat.get_args(tp), scope)
        for matches, handle in _ROWS:
            if matches(tp):
                built = handle(self, tp, scope)
                if built is not None and _compat.is_class(tp):
                    self._classes[tp] = built
                return built
        return self.report(scope, f"unsupported type {_compat.type_display(tp)}")

    def report(self, scope: _Scope, reason: str) -> Node | None:
        """Record a problem; returns ``None`` so handlers can ``return self.report(...)``."""
        text = f"{scope.prefix}: {reason}" if scope.prefix else reason
        self.problems.append(BuildProblem(scope.location, text))
        return None

    # -- names and forward references -------------------------------------------------------

    def resolve(self, ref: str | ForwardRef, scope: _Scope) -> Any:
        """Evaluate a forward reference; falls back to the outermost ``localns``."""
        try:
            return _compat.resolve_forward(ref, scope.globalns, scope.localns)
        except NameError:
            outer = self._outer_localns
            if outer is None or outer is scope.localns:
                raise
            return _compat.resolve_forward(ref, scope.globalns, outer)

    def forward(self, ref: str | ForwardRef, scope: _Scope) -> Node | None:
        text = ref.__forward_arg__ if isinstance(ref, ForwardRef) else ref
        try:
            value = self.resolve(ref, scope)
        except NameError as error:
            name = getattr(error, "name", None)
            if name is None or name == text.strip():
                return self.report(scope, f"unresolved name {(name or text.strip())!r}")
            return self.report(scope, f"unresolved name {name!r} in annotation {text!r}")
        except Exception as error:  # a syntax error or a failing subscription in the string
            return self.report(scope, f"cannot evaluate annotation {text!r}: {error}")
        if (
            _compat.is_class(value)  # classes and TypeAliasTypes handle their own recursion
            or _compat.is_type_alias(value)
            or not text.strip().isidentifier()
            or not _hashable(value)
        ):
            return self.node(value, scope)
        # A name for an alias (``Tree = list["Tree"]``) may be recursive.
        module = str(scope.globalns.get("__name__", "")) if scope.globalns else ""
        return self.aliased(value, text.strip(), module, lambda: self.node(value, scope))

    def aliased(
        self, key: Any, name: str, module: str, build: Callable[[], Node | None]
    ) -> Node | None:
        """Build an alias inline, or as an ``AliasDef`` when it turns out to contain itself."""
        if key in self._definitions:
            return RefNode(key=key)
        if key in self._aliases:
            self._aliases[key] = True
            return RefNode(key=key)
        self._aliases[key] = False
        try:
            built = build()
        finally:
            recursive = self._aliases.pop(key)
        if not recursive or built is None:
            return built
        self._definitions[key] = AliasDef(
            key=key, name=_sanitise(name), module=module, qualname=name, cls=key, type=built
        )
        self._alias_keys[key] = True
        return RefNode(key=key)

    def alias(self, alias: Any, scope: _Scope, args: tuple[Any, ...] = ()) -> Node | None:
        params = getattr(alias, "__type_params__", ()) or ()
        typevars = dict(zip(params, args, strict=False)) if args else scope.typevars
        globalns = _compat.module_namespace(alias.__module__)
        inner = _Scope(scope.location, globalns, None, typevars, scope.prefix)
        key = alias[args] if args else alias
        name = type_name(key)
        return self.aliased(key, name, alias.__module__, lambda: self.node(alias.__value__, inner))

    def typevar(self, tv: Any, scope: _Scope) -> Node | None:
        if tv in scope.typevars:
            return self.node(scope.typevars[tv], scope)
        default = getattr(tv, "__default__", te.NoDefault)
        if default is not te.NoDefault and default is not None:
            return self.node(default, scope)
        return self.report(scope, f"unbound TypeVar {tv.__name__}: parametrise the generic type")

    def concrete(self, tp: Any, scope: _Scope) -> Any:
        """A generic argument with forward references resolved and TypeVars substituted."""
        if isinstance(tp, (str, ForwardRef)):
            tp = self.resolve(tp, scope)
        if _compat.is_typevar(tp) and tp in scope.typevars:
            return scope.typevars[tp]
        return _compat.substitute(tp, scope.typevars)

    # -- named types ------------------------------------------------------------------------

    def generic(self, tp: Any, origin: Any, args: tuple[Any, ...], scope: _Scope) -> Node | None:
        """``Page[Product]``: a parametrised dataclass, TypedDict, NamedTuple or alias."""
        try:
            concrete = tuple(self.concrete(arg, scope) for arg in args)
        except Exception as error:
            return self.report(scope, f"cannot resolve the arguments of {tp!r}: {error}")
        unbound = [
            a for a in concrete if _compat.is_typevar(a) or getattr(a, "__parameters__", None)
        ]
        if unbound:
            names = ", ".join(_compat.type_display(a) for a in unbound)
            return self.report(scope, f"unbound TypeVar in {_compat.type_display(tp)}: {names}")
        if _compat.is_type_alias(origin):
            return self.alias(origin, scope, concrete)
        key = _subscript(origin, concrete, tp)
        if _compat.is_pydantic_model(
            origin
        ):  # pydantic builds a concrete class per parametrisation
            return self.node(key, scope)
        typevars = _compat.typevar_maps(origin, concrete)
        return self.named_object(key, origin, typevars, type_name(key), scope)

    def object(self, cls: type, scope: _Scope) -> Node | None:
        typevars = _compat.typevar_maps(cls, ())
        return self.named_object(cls, cls, typevars, type_name(cls), scope)

    def named_object(
        self,
        key: TypeKey,
        cls: type,
        typevars: Mapping[type, Mapping[Any, Any]],
        name: str,
        scope: _Scope,
    ) -> Node | None:
        if key in self._definitions or key in self._building:
            return RefNode(key=key)
        shape = _objects.object_shape(cls)
        if isinstance(shape, str):
            return self.report(scope, shape)
        self._building.add(key)  # reserve the key first: a recursive field gets a RefNode
        try:
            fields = [
                self.field(raw, cls, typevars.get(raw.owner or cls, {}), scope)
                for raw in shape.fields
            ]
        finally:
            self._building.discard(key)
        self._definitions[key] = ObjectDef(
            key=key,
            name=_sanitise(name),
            module=cls.__module__,
            qualname=cls.__qualname__,
            cls=cls,
            description=shape.description,
            title=shape.title,
            kind=shape.kind,  # type: ignore[arg-type]
            fields=tuple(f for f in fields if f is not None),
            additional=AnyNode() if shape.extra_allowed else None,
        )
        return RefNode(key=key)

    def field(
        self, raw: _objects.RawField, owner: type, typevars: Mapping[Any, Any], scope: _Scope
    ) -> Field | None:
        inner = _Scope(
            scope.location,
            _compat.module_namespace(raw.module),
            _class_namespace(raw.owner or owner),
            typevars,
            f"{owner.__qualname__}.{raw.python_name or raw.name}",
        )
        annotation = raw.annotation
        if isinstance(annotation, (str, ForwardRef)):  # resolved here to see Required/NotRequired
            try:
                annotation = self.resolve(annotation, inner)
            except Exception:
                self.forward(annotation, inner)  # reports why
                return None
        bare, metadata, required = _compat.split_annotated(annotation)
        built = self.bare(bare, inner)
        if built is None:
            return None
        metadata = metadata + raw.metadata
        if metadata:
            built = apply_metadata(built, metadata, lambda reason: self.report(inner, reason))
        return Field(
            name=raw.name,
            type=built,
            required=raw.required if required is None else required,
            default=raw.default,
            description=raw.description or built.meta.description,
            python_name=raw.python_name,
        )

    def enum(self, cls: type[enum.Enum], scope: _Scope) -> Node | None:
        if cls in self._definitions:
            return RefNode(key=cls)
        values = tuple(member.value for member in cls)
        bad = [v for v in values if not isinstance(v, _JSON_SCALARS)]
        if bad:
            return self.report(
                scope, f"Enum {cls.__qualname__} has values JSON cannot hold: {bad!r}"
            )
        doc = _objects.class_doc(cls)
        self._definitions[cls] = EnumDef(
            key=cls,
            name=_sanitise(cls.__name__),
            module=cls.__module__,
            qualname=cls.__qualname__,
            cls=cls,
            description=doc.description,
            title=doc.title,
            values=values,
        )
        return RefNode(key=cls)

    # -- structural types -------------------------------------------------------------------

    def array(self, tp: Any, origin: Any, args: tuple[Any, ...], scope: _Scope) -> Node | None:
        item = self.node(args[0], scope) if args else _ANY
        unique = origin in _UNIQUE
        return (
            None if item is None else ArrayNode(item=item, unique_items=unique, python_type=origin)
        )

    def tuple_type(self, tp: Any, origin: Any, args: tuple[Any, ...], scope: _Scope) -> Node | None:
        if len(args) == 2 and args[1] is Ellipsis:
            return self.array(tp, tuple, args[:1], scope)
        if args == ((),):  # ``Tuple[()]`` on Python 3.10
            args = ()
        items = [self.node(arg, scope) for arg in args]
        if any(item is None for item in items):
            return None
        return TupleNode(items=tuple(items), python_type=tuple)  # type: ignore[arg-type]

    def mapping(self, tp: Any, origin: Any, args: tuple[Any, ...], scope: _Scope) -> Node | None:
        if args and not self.string_key(args[0], scope):
            shown = _compat.type_display(tp)
            return self.report(scope, f"{shown}: JSON object keys are strings, use str keys")
        value = self.node(args[1], scope) if len(args) == 2 else _ANY
        return None if value is None else DictNode(value=value, python_type=origin)

    def string_key(self, tp: Any, scope: _Scope) -> bool:
        try:
            tp = self.concrete(tp, scope)
        except Exception:
            return False
        tp, _, _ = _compat.split_annotated(tp)
        while _compat.is_newtype(tp):
            tp = tp.__supertype__
        return tp in _ANY_TYPES or (_compat.is_class(tp) and issubclass(tp, str))

    def union(self, tp: Any, origin: Any, args: tuple[Any, ...], scope: _Scope) -> Node | None:
        built = [self.node(arg, scope) for arg in args]  # every option, to report every problem
        if any(option is None for option in built):
            return None
        options = _merge_literals(built)  # type: ignore[arg-type]
        return options[0] if len(options) == 1 else UnionNode(options=tuple(options))

    def literal(self, tp: Any, origin: Any, args: tuple[Any, ...], scope: _Scope) -> Node | None:
        values: list[Any] = []
        enums = set()
        for arg in args:
            if isinstance(arg, enum.Enum):
                enums.add(type(arg))
                values.append(arg.value)
            elif isinstance(arg, _JSON_SCALARS):
                values.append(arg)
            else:
                return self.report(scope, f"Literal value {arg!r} is not a JSON scalar")
        if enums and (len(enums) > 1 or len(values) != sum(isinstance(a, enum.Enum) for a in args)):
            return self.report(scope, f"{_compat.type_display(tp)} mixes Enum members with others")
        python_type = next(iter(enums)) if enums else None
        return LiteralNode(values=tuple(values), python_type=python_type)

    def plain_class(self, cls: type, scope: _Scope) -> None:
        shown = _compat.type_display(cls)
        self.report(
            scope,
            f"unsupported type {shown}: a plain class has no field model"
            " (use a dataclass, TypedDict, NamedTuple or pydantic model)",
        )

    def unsupported(self, tp: Any, origin: Any, args: tuple[Any, ...], scope: _Scope) -> None:
        reason = _NEVER_JSON.get(origin, "it cannot be sent as JSON")
        self.report(scope, f"unsupported type {_compat.type_display(tp)}: {reason}")


# -- tables -------------------------------------------------------------------------------------

_JSON_SCALARS = (str, int, float, bool, type(None))
_ANY = AnyNode()
_ANY_TYPES: frozenset[Any] = frozenset({Any, te.Any, object})


def _string(fmt: str | None = None, python_type: Any = None, **more: Any) -> StringNode:
    return StringNode(format=fmt, python_type=python_type, **more)


def _formats() -> dict[Any, Node]:
    return {
        datetime: _string("date-time", datetime),
        date: _string("date", date),
        time: _string("time", time),
        timedelta: _string("duration", timedelta),
        uuid.UUID: _string("uuid", uuid.UUID),
        Decimal: _string("decimal", Decimal),
        ipaddress.IPv4Address: _string("ipv4", ipaddress.IPv4Address),
        ipaddress.IPv6Address: _string("ipv6", ipaddress.IPv6Address),
        pathlib.Path: _string("path", pathlib.Path),
        pathlib.PurePath: _string("path", pathlib.PurePath),
        bytes: _string(None, bytes, content_encoding="base64"),
        bytearray: _string(None, bytearray, content_encoding="base64"),
    }


_EXACT: dict[Any, Node] = {
    str: StringNode(),
    te.LiteralString: StringNode(),
    int: IntegerNode(),
    float: NumberNode(),
    bool: BooleanNode(),
    None: NullNode(),
    type(None): NullNode(),
    **{any_type: _ANY for any_type in _ANY_TYPES},
    list: ArrayNode(item=_ANY, python_type=list),
    set: ArrayNode(item=_ANY, unique_items=True, python_type=set),
    frozenset: ArrayNode(item=_ANY, unique_items=True, python_type=frozenset),
    tuple: ArrayNode(item=_ANY, python_type=tuple),
    typing.Tuple: ArrayNode(item=_ANY, python_type=tuple),  # noqa: UP006  (bare, not tuple[()])
    dict: DictNode(value=_ANY, python_type=dict),
    **_formats(),
}

_UNIQUE = frozenset({set, frozenset, abc.Set, abc.MutableSet})

_NEVER_JSON: dict[Any, str] = {
    abc.Callable: "a callable cannot be sent as JSON",
    type: "a class object cannot be sent as JSON",
    abc.Iterator: "an iterator cannot be sent as JSON",
    abc.Generator: "a generator cannot be sent as JSON",
    abc.Awaitable: "an awaitable cannot be sent as JSON",
    abc.Coroutine: "a coroutine cannot be sent as JSON",
}

_OriginHandler = Callable[[TypeBuilder, Any, Any, "tuple[Any, ...]", _Scope], "Node | None"]

_ORIGINS: dict[Any, _OriginHandler] = {
    **dict.fromkeys(
        (list, abc.Sequence, abc.MutableSequence, abc.Collection, abc.Iterable, collections.deque),
        TypeBuilder.array,
    ),
    **dict.fromkeys(_UNIQUE, TypeBuilder.array),
    tuple: TypeBuilder.tuple_type,
    **dict.fromkeys((dict, abc.Mapping, abc.MutableMapping), TypeBuilder.mapping),
    typing.Union: TypeBuilder.union,
    **({_compat.get_origin(int | None): TypeBuilder.union}),
    typing.Literal: TypeBuilder.literal,
    te.Literal: TypeBuilder.literal,
    **dict.fromkeys(_NEVER_JSON, TypeBuilder.unsupported),
}


def _scalar_subclass(base: type) -> tuple[Callable[[Any], bool], Callable[..., Node | None]]:
    """``class Sku(str)``, a ``datetime`` subclass: the base's node, converted to the subclass."""
    import dataclasses

    node = _EXACT[base]

    def matches(tp: Any) -> bool:
        return _compat.is_class(tp) and issubclass(tp, base)

    def handle(builder: TypeBuilder, tp: Any, scope: _Scope) -> Node:
        return dataclasses.replace(node, python_type=tp)

    return matches, handle


_ROWS: tuple[tuple[Callable[[Any], bool], Callable[..., Node | None]], ...] = (
    (lambda tp: isinstance(tp, (str, ForwardRef)), TypeBuilder.forward),
    (_compat.is_typevar, TypeBuilder.typevar),
    (_compat.is_type_alias, TypeBuilder.alias),
    (_compat.is_newtype, lambda builder, tp, scope: builder.node(tp.__supertype__, scope)),
    (_compat.is_enum_class, TypeBuilder.enum),  # before int/str: IntEnum, StrEnum
    (_objects.is_object_class, TypeBuilder.object),  # before tuple: NamedTuple
    # bool before int; datetime before date: a subclass matches its nearest base first.
    *(
        _scalar_subclass(base)
        for base in (bool, int, float, str, bytes, bytearray, datetime, date, time, timedelta)
    ),
    *(
        _scalar_subclass(base)
        for base in (uuid.UUID, Decimal, ipaddress.IPv4Address, ipaddress.IPv6Address)
    ),
    _scalar_subclass(pathlib.PurePath),
    (_compat.is_class, TypeBuilder.plain_class),
)


# -- helpers ------------------------------------------------------------------------------------

_UNSAFE = re.compile(r"[^A-Za-z0-9_]")


def _sanitise(name: str) -> str:
    return _UNSAFE.sub("_", name)


def _lookup(table: Mapping[Any, Any], key: Any) -> Any:
    try:
        return table.get(key)
    except TypeError:  # an unhashable annotation (Annotated with a dict in it, ...)
        return None


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _class_namespace(cls: type) -> dict[str, Any]:
    """Names a field annotation may use besides its module's: the class, its PEP 695 params."""
    names: dict[str, Any] = {cls.__name__: cls}
    for param in getattr(cls, "__type_params__", ()):
        names[param.__name__] = param
    return names


def _subscript(origin: Any, args: tuple[Any, ...], fallback: Any) -> Any:
    try:
        return origin[args]
    except TypeError:
        return fallback


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


def type_name(tp: Any) -> str:
    """A deterministic display name: ``Page[Product]`` -> ``Page_Product_``."""
    if tp is None or tp is type(None):
        return "None"
    origin = _compat.get_origin(tp)
    if _compat.is_class(tp) and origin is None:
        return _sanitise(tp.__name__)
    args = _compat.get_args(tp)
    if _compat.is_union(tp):
        return "_or_".join(type_name(arg) for arg in args)
    if _compat.is_literal(tp):
        return "Literal_" + "_".join(_sanitise(str(arg)) for arg in args) + "_"
    if origin is not None:
        inner = "_".join(type_name(arg) for arg in args)
        return f"{type_name(origin)}_{inner}_"
    name = getattr(tp, "__name__", None)
    return _sanitise(name if isinstance(name, str) else _compat.type_display(tp))
