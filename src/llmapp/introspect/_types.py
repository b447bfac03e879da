"""Python type -> type-model node, through dispatch tables; named types become definitions.

Lookup order (first match wins):

1. ``EXACT`` (in ``_structural``): a type that always gives the same node
   (``str``, ``datetime``, ``Any``, bare ``list``); a class built before is found
   with them.
2. ``ORIGINS`` (in ``_structural``): a parametrised generic by its origin
   (``list[int]``, ``X | None``, ``Literal[...]``); a generic dataclass, TypedDict,
   NamedTuple (``Page[Product]``) or ``TypeAliasType`` goes to ``TypeBuilder.generic``.
3. Ordered (predicate, handler) pairs for everything else, in two tables, since no
   predicate of one accepts what the other's do: ``_CLASS_ROWS`` for classes (Enum,
   object classes, subclasses of scalars (``SCALAR_ROWS``) and, last, plain classes,
   a problem) and ``_OTHER_ROWS`` for the rest (forward references, TypeVars,
   aliases, NewType).

Adding a Python type is adding one entry to one of these tables; a scalar type (one
JSON value with a format, such as ``datetime`` or ``IPv4Network``) is a row of
``llmapp._scalars.table``, which every later stage reads too.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping
from typing import Any, ForwardRef

import typing_extensions as te

from llmapp._errors import BuildProblem
from llmapp.introspect import _compat, _objects
from llmapp.introspect._constraints import apply_metadata
from llmapp.introspect._structural import (
    EXACT,
    JSON_SCALARS,
    ORIGINS,
    SCALAR_ROWS,
    OriginHandler,
    Scope,
)
from llmapp.introspect.model import (
    AliasDef,
    AnyNode,
    Definition,
    EnumDef,
    Field,
    Node,
    ObjectDef,
    RefNode,
    TypeGraph,
    TypeKey,
)

__all__ = ["TypeBuilder", "type_name"]


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
        self._known: dict[Any, Node] = dict(EXACT)
        """``EXACT``'s nodes, then the node of every class a row built: one lookup finds either."""
        self._alias_keys: dict[Any, bool] = {}  # keys of AliasDefs
        self._outer_localns: Mapping[str, Any] | None = None
        self._annotations: dict[tuple[Any, int, int], Node] = {}
        self._identical: dict[tuple[int, int, int], Node] = {}
        self._class_namespaces: dict[type, dict[str, Any]] = {}  # the fields of one class share one
        self._namespaces: list[Any] = []

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
        # The same annotation object is asked again and again (one per string annotation of
        # a class): found by identity first, without hashing it (typing's hashes are Python).
        identity = (id(annotation), id(globalns), id(localns))
        cached = self._identical.get(identity)
        if cached is not None:
            return cached
        key = (annotation, id(globalns), id(localns))
        try:
            cached = self._annotations.get(key)
        except TypeError:  # unhashable metadata somewhere inside: build it every time
            return self.node(
                annotation, Scope(location=location, globalns=globalns, localns=localns)
            )
        if cached is None:
            reported = len(self.problems)
            scope = Scope(location=location, globalns=globalns, localns=localns)
            cached = self.node(annotation, scope)
            if cached is None or len(self.problems) != reported:
                # Problems must be reported again at each location: failures are not kept.
                return cached
            # Same annotation, same namespaces, no problem: the same node.
            self._annotations[key] = cached
        self._identical[identity] = cached
        self._namespaces.extend((annotation, globalns, localns))  # keep the ids alive
        return cached

    def graph(self) -> TypeGraph:
        """Every definition reached so far."""
        return TypeGraph(definitions=dict(self._definitions))

    # -- the dispatch -----------------------------------------------------------------------

    def node(self, annotation: Any, scope: Scope) -> Node | None:
        bare, metadata, _ = _compat.split_annotated(annotation)
        built = self.bare(bare, scope)
        if built is None or not metadata:
            return built
        return apply_metadata(built, metadata, lambda reason: self.report(scope, reason))

    def bare(self, tp: Any, scope: Scope) -> Node | None:
        known: Node | None = _lookup(self._known, tp)
        if known is not None:
            return known
        if self._alias_keys and _lookup(self._alias_keys, tp):  # a recursive alias, by value
            return RefNode(key=tp)
        origin = _compat.get_origin(tp)
        if origin is not None:
            handler: OriginHandler | None = _lookup(ORIGINS, origin)
            if handler is not None:
                return handler(self, tp, origin, _compat.get_args(tp), scope)
            if _objects.is_object_class(origin) or _compat.is_type_alias(origin):
                return self.generic(tp, origin, _compat.get_args(tp), scope)
        is_class = _compat.is_class(tp)
        for matches, handle in _CLASS_ROWS if is_class else _OTHER_ROWS:
            if matches(tp):
                built = handle(self, tp, scope)
                if built is not None and is_class:
                    self._known[tp] = built
                return built
        return self.report(scope, f"unsupported type {_compat.type_display(tp)}")

    def report(self, scope: Scope, reason: str) -> Node | None:
        """Record a problem; returns ``None`` so handlers can ``return self.report(...)``."""
        text = f"{scope.prefix}: {reason}" if scope.prefix else reason
        self.problems.append(BuildProblem(scope.location, text))
        return None

    # -- names and forward references -------------------------------------------------------

    def resolve(self, ref: str | ForwardRef, scope: Scope) -> Any:
        """Evaluate a forward reference; falls back to the outermost ``localns``."""
        try:
            return _compat.resolve_forward(ref, scope.globalns, scope.localns)
        except NameError:
            outer = self._outer_localns
            if outer is None or outer is scope.localns:
                raise
            return _compat.resolve_forward(ref, scope.globalns, outer)

    def forward(self, ref: str | ForwardRef, scope: Scope) -> Node | None:
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
        if isinstance(value, (str, ForwardRef)):  # ``A = "A"`` would never end
            return self.report(scope, f"annotation {text!r} names a string, not a type")
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

    def alias(self, alias: Any, scope: Scope, args: tuple[Any, ...] = ()) -> Node | None:
        params = getattr(alias, "__type_params__", ()) or ()
        typevars = dict(zip(params, args, strict=False)) if args else scope.typevars
        globalns = _compat.module_namespace(alias.__module__)
        inner = Scope(
            location=scope.location,
            globalns=globalns,
            localns=None,
            typevars=typevars,
            prefix=scope.prefix,
        )
        key = alias[args] if args else alias
        name = type_name(key)
        return self.aliased(key, name, alias.__module__, lambda: self.node(alias.__value__, inner))

    def typevar(self, tv: Any, scope: Scope) -> Node | None:
        if tv in scope.typevars:
            return self.node(scope.typevars[tv], scope)
        default = getattr(tv, "__default__", te.NoDefault)
        if default is not te.NoDefault and default is not None:
            return self.node(default, scope)
        return self.report(scope, f"unbound TypeVar {tv.__name__}: parametrise the generic type")

    def concrete(self, tp: Any, scope: Scope) -> Any:
        """A generic argument with forward references resolved and TypeVars substituted."""
        if isinstance(tp, (str, ForwardRef)):
            tp = self.resolve(tp, scope)
        if _compat.is_typevar(tp) and tp in scope.typevars:
            return scope.typevars[tp]
        return _compat.substitute(tp, scope.typevars)

    def plain_class(self, cls: type, scope: Scope) -> Node | None:
        shown = _compat.type_display(cls)
        return self.report(
            scope,
            f"unsupported type {shown}: a plain class has no field model"
            " (use a dataclass, TypedDict, NamedTuple or pydantic model)",
        )

    # -- named types ------------------------------------------------------------------------

    def generic(self, tp: Any, origin: Any, args: tuple[Any, ...], scope: Scope) -> Node | None:
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
        key = name = _subscript(origin, concrete, tp)
        if not _hashable(key):  # unhashable metadata in an argument: a key that says the same
            key = ("generic", origin, repr(concrete))
        if _compat.is_pydantic_model(origin):  # pydantic makes a class per parametrisation
            return self.node(key, scope)
        typevars = _compat.typevar_maps(origin, concrete)
        return self.named_object(key, origin, typevars, type_name(name), scope)

    def object(self, cls: type, scope: Scope) -> Node | None:
        typevars = _compat.typevar_maps(cls, ())
        return self.named_object(cls, cls, typevars, type_name(cls), scope)

    def named_object(
        self,
        key: TypeKey,
        cls: type,
        typevars: Mapping[type, Mapping[Any, Any]],
        name: str,
        scope: Scope,
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
        self, raw: _objects.RawField, owner: type, typevars: Mapping[Any, Any], scope: Scope
    ) -> Field | None:
        declaring = raw.owner or owner
        localns = self._class_namespaces.get(declaring)
        if localns is None:
            localns = self._class_namespaces[declaring] = _class_namespace(declaring)
        globalns = _compat.module_namespace(raw.module)
        known = None if raw.metadata else self._known_type(raw.annotation, globalns, localns)
        if known is not None:
            return _field(raw, known, None)
        inner = Scope(
            location=scope.location,
            globalns=globalns,
            localns=localns,
            typevars=typevars,
            prefix=f"{owner.__qualname__}.{raw.python_name or raw.name}",
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
        return _field(raw, built, required)

    def _known_type(
        self, annotation: Any, globalns: Mapping[str, Any], localns: Mapping[str, Any]
    ) -> Node | None:
        """The node of an annotation that is, or names, a type whose node is known (``str``,
        ``"str"``, a class built before): what ``field`` would build, with no scope to make.
        ``None`` for any other annotation."""
        if isinstance(annotation, (str, ForwardRef)):
            if type(annotation) is not str or not annotation.isidentifier():
                return None
            try:
                annotation = _compat.resolve_name(annotation, globalns, localns)
            except NameError:
                return None
        known: Node | None = _lookup(self._known, annotation)
        return known

    def enum(self, cls: type[enum.Enum], scope: Scope) -> Node | None:
        if cls in self._definitions:
            return RefNode(key=cls)
        members = tuple(cls)  # aliases left out: each value once, under its first name
        values = tuple(member._value_ for member in members)  # what ``.value`` reads
        bad = [v for v in values if not isinstance(v, JSON_SCALARS)]
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
            names=tuple(member.name for member in members),
        )
        return RefNode(key=cls)


_Rows = tuple[tuple[Callable[[Any], bool], Callable[..., Node | None]], ...]

_CLASS_ROWS: _Rows = (  # each predicate accepts classes only
    (_compat.is_enum_class, TypeBuilder.enum),  # before int/str: IntEnum, StrEnum
    (_objects.is_object_class, TypeBuilder.object),  # before tuple: NamedTuple
    *SCALAR_ROWS,
    (_compat.is_class, TypeBuilder.plain_class),
)
_OTHER_ROWS: _Rows = (  # each predicate accepts no class
    (lambda tp: isinstance(tp, (str, ForwardRef)), TypeBuilder.forward),
    (_compat.is_typevar, TypeBuilder.typevar),
    (_compat.is_type_alias, TypeBuilder.alias),
    (_compat.is_newtype, lambda builder, tp, scope: builder.node(tp.__supertype__, scope)),
)


# -- helpers ------------------------------------------------------------------------------------

_UNSAFE = re.compile(r"[^A-Za-z0-9_]")


def _sanitise(name: str) -> str:
    if name.isascii() and name.isidentifier():  # the common name: nothing to replace
        return name
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


def _field(raw: _objects.RawField, built: Node, required: bool | None) -> Field:
    """The field ``raw`` with its type built (``required`` from ``Required``/``NotRequired``)."""
    return Field(
        name=raw.name,
        type=built,
        required=raw.required if required is None else required,
        default=raw.default,
        description=raw.description or built.meta.description,
        python_name=raw.python_name,
    )


def _subscript(origin: Any, args: tuple[Any, ...], fallback: Any) -> Any:
    try:
        return origin[args]
    except TypeError:
        return fallback


def type_name(tp: Any) -> str:
    """A deterministic display name: ``Page[Product]`` -> ``Page_Product_``."""
    tp = _compat.split_annotated(tp)[0]
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
