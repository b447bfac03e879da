"""Every typing quirk in one place: unwrapping, ``is_*`` predicates, forward references.

The rest of introspection asks these small questions instead of poking at
``typing`` internals, so version differences (3.10 to 3.13, ``typing`` versus
``typing_extensions``) are handled here only.
"""

from __future__ import annotations

import dataclasses
import enum
import inspect
import re
import sys
import types
import typing
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, ForwardRef, NamedTuple, TypeVar

import typing_extensions as te

__all__ = [
    "NONE_TYPE",
    "Parameter",
    "get_args",
    "get_origin",
    "is_class",
    "is_dataclass_class",
    "is_enum_class",
    "is_literal",
    "is_namedtuple_class",
    "is_newtype",
    "is_pydantic_model",
    "is_type_alias",
    "is_typeddict",
    "is_typevar",
    "is_union",
    "module_namespace",
    "own_docstring",
    "resolve_forward",
    "resolve_name",
    "signature_of",
    "split_annotated",
    "substitute",
    "type_display",
    "typevar_maps",
]

get_origin = te.get_origin
get_args = te.get_args

NONE_TYPE = type(None)

_UNION_ORIGINS: frozenset[Any] = frozenset({typing.Union, types.UnionType})
_LITERAL_ORIGINS: frozenset[Any] = frozenset({typing.Literal, te.Literal})
_ANNOTATED_ORIGINS: frozenset[Any] = frozenset({typing.Annotated, te.Annotated})
_REQUIRED = frozenset({te.Required})  # typing's own on 3.11+
_NOT_REQUIRED = frozenset({te.NotRequired})
# Qualifiers that say something about the attribute, not about its value.
_PLAIN_QUALIFIERS = frozenset({typing.Final, te.Final, typing.ClassVar, te.ClassVar, te.ReadOnly})
_QUALIFIERS = _REQUIRED | _NOT_REQUIRED | _PLAIN_QUALIFIERS
_ALIAS_TYPES: tuple[type, ...] = tuple(
    {te.TypeAliasType, getattr(typing, "TypeAliasType", te.TypeAliasType)}
)
_GENERATED_DOC = re.compile(r"^\w+\(.*\)$")
_ENUM_DEFAULT_DOCS = frozenset({"An enumeration.", None, ""})


def split_annotated(tp: Any) -> tuple[Any, tuple[Any, ...], bool | None]:
    """Strip ``Annotated`` and attribute qualifiers (Final, ClassVar, Required, ...).

    Returns:
        The bare type, the ``Annotated`` metadata in order, and ``True``/``False``
        when ``Required``/``NotRequired`` was found (``None`` otherwise).
    """
    if is_class(tp) and not _is_plain_qualifier(tp):  # the common case: nothing to strip
        return tp, (), None
    metadata: tuple[Any, ...] = ()
    required: bool | None = None
    while True:
        origin = get_origin(tp)
        if origin in _ANNOTATED_ORIGINS:
            metadata = metadata + tuple(tp.__metadata__)
            tp = tp.__origin__
        elif origin in _QUALIFIERS:
            if origin in _REQUIRED:
                required = True
            elif origin in _NOT_REQUIRED:
                required = False
            args = get_args(tp)
            tp = args[0] if args else Any
        elif _is_plain_qualifier(tp):  # bare ``Final``: nothing known about the value
            tp = Any
        else:
            return tp, metadata, required


def _is_plain_qualifier(tp: Any) -> bool:
    try:
        return tp in _PLAIN_QUALIFIERS
    except TypeError:  # unhashable (a list, an alias with a dict in its metadata)
        return False


def is_class(tp: Any) -> bool:
    """A real class; on 3.10 ``isinstance(list[int], type)`` is true, so aliases are excluded."""
    return isinstance(tp, type) and not isinstance(tp, types.GenericAlias)


def is_union(tp: Any) -> bool:
    return get_origin(tp) in _UNION_ORIGINS


def is_literal(tp: Any) -> bool:
    return get_origin(tp) in _LITERAL_ORIGINS


def is_newtype(tp: Any) -> bool:
    # The class test first: on 3.11 ``hasattr`` on an Enum class runs EnumType.__getattr__.
    return not is_class(tp) and hasattr(tp, "__supertype__")


def is_typevar(tp: Any) -> bool:
    return isinstance(tp, TypeVar)


def is_type_alias(tp: Any) -> bool:
    """A ``TypeAliasType`` (PEP 695 ``type X = ...`` or typing_extensions)."""
    return isinstance(tp, _ALIAS_TYPES)


def is_typeddict(tp: Any) -> bool:
    return is_class(tp) and te.is_typeddict(tp)


def is_namedtuple_class(tp: Any) -> bool:
    return is_class(tp) and issubclass(tp, tuple) and hasattr(tp, "_fields")


def is_dataclass_class(tp: Any) -> bool:
    return is_class(tp) and dataclasses.is_dataclass(tp)


def model_fields(cls: type) -> tuple[dataclasses.Field[Any], ...]:
    """A dataclass's fields that the model sees: given to ``__init__`` and not private.

    A private field (``_name``) with a default stays the class's own business; one
    without a default must be given, so it is kept.
    """
    return tuple(
        item
        for item in dataclasses.fields(cls)
        if item.init
        and not (
            item.name.startswith("_")
            and (
                item.default is not dataclasses.MISSING
                or item.default_factory is not dataclasses.MISSING
            )
        )
    )


def is_enum_class(tp: Any) -> bool:
    return is_class(tp) and issubclass(tp, enum.Enum)


def is_pydantic_model(tp: Any) -> bool:
    """A pydantic ``BaseModel`` subclass; never imports pydantic itself."""
    main = sys.modules.get("pydantic.main")
    base = getattr(main, "BaseModel", None)
    return base is not None and is_class(tp) and issubclass(tp, base) and tp is not base


def own_docstring(cls: type) -> str | None:
    """The docstring written on ``cls`` itself, not inherited nor generated.

    Dataclasses and NamedTuples invent ``Name(field, ...)`` docstrings and Enum
    (before 3.11) ``"An enumeration."``: those are not documentation.
    """
    doc = cls.__dict__.get("__doc__")
    if not isinstance(doc, str) or not doc.strip():
        return None
    if is_enum_class(cls) and doc in _ENUM_DEFAULT_DOCS:
        return None
    is_generated = (  # the text first: asking an Enum class is_dataclass is slow on 3.11
        doc.startswith(cls.__name__ + "(")
        and (is_dataclass_class(cls) or is_namedtuple_class(cls))
        and _GENERATED_DOC.match(doc) is not None
    )
    return None if is_generated else doc


def module_namespace(module: str | None) -> dict[str, Any]:
    """The globals of a loaded module (empty when it is not loaded)."""
    loaded = sys.modules.get(module) if module else None
    return vars(loaded) if loaded is not None else {}


@lru_cache(maxsize=1024)
def _compile(source: str) -> types.CodeType:
    return compile(source, "<annotation>", "eval")


def resolve_forward(
    ref: str | ForwardRef,
    globalns: Mapping[str, Any] | None,
    localns: Mapping[str, Any] | None,
) -> Any:
    """Evaluate a string annotation or ``ForwardRef``.

    A ``ForwardRef`` that knows its module (TypedDict keys, ``TypeAliasType``)
    is evaluated there. Raises ``NameError`` (or whatever evaluation raises).
    """
    if isinstance(ref, ForwardRef):
        module = getattr(ref, "__forward_module__", None)
        if module is not None:
            globalns = module_namespace(module)
        ref = ref.__forward_arg__
    source = ref.strip()
    if source.isidentifier():  # the common case: one name, no ``eval`` needed
        return resolve_name(source, globalns, localns)
    # A module's own dict serves as it is (as typing.get_type_hints does); anything else
    # is copied, since eval needs a dict and adds ``__builtins__`` to one that lacks it.
    if type(globalns) is dict and "__builtins__" in globalns:
        namespace = globalns
    else:
        namespace = dict(globalns or {})
    return eval(_compile(source), namespace, dict(localns or {}))


def resolve_name(
    name: str, globalns: Mapping[str, Any] | None, localns: Mapping[str, Any] | None
) -> Any:
    """The value of one name, looked up as ``eval`` finds it: ``localns``, ``globalns``, then
    the builtins. Raises ``NameError`` when none holds it."""
    for scope in (localns, globalns):
        if scope is not None and name in scope:
            return scope[name]
    builtins = vars(sys.modules["builtins"])
    if name in builtins:
        return builtins[name]
    raise NameError(f"name {name!r} is not defined", name=name)


def typevar_maps(cls: type, args: tuple[Any, ...]) -> dict[type, dict[Any, Any]]:
    """For ``cls[args]``: each generic class in its hierarchy -> its TypeVar bindings.

    Kept per class because one TypeVar object may mean different things in a class
    and in its base: ``class IntBox(Pair[int, T])`` binds Pair's ``T`` to ``int``
    while IntBox's own ``T`` is whatever ``IntBox[...]`` says.
    """
    params = tuple(getattr(cls, "__parameters__", ()))
    maps: dict[type, dict[Any, Any]] = {cls: dict(zip(params, args, strict=False))}
    pending = [cls]
    while pending:
        klass = pending.pop()
        for base in klass.__dict__.get("__orig_bases__", ()):
            origin = get_origin(base)
            base_params = getattr(origin, "__parameters__", ())
            if not is_class(origin) or not base_params or origin in maps:
                continue
            base_args = [substitute(arg, maps[klass]) for arg in get_args(base)]
            maps[origin] = dict(zip(base_params, base_args, strict=False))
            pending.append(origin)
    return maps


def substitute(tp: Any, mapping: Mapping[Any, Any]) -> Any:
    """``tp`` with TypeVars replaced from ``mapping`` (used for generic bases only)."""
    if not mapping:
        return tp
    if is_typevar(tp):
        return mapping.get(tp, tp)
    params = getattr(tp, "__parameters__", ())
    if params and get_origin(tp) is not None:
        try:
            return tp[tuple(mapping.get(p, p) for p in params)]
        except TypeError:
            return tp
    return tp


class Parameter(NamedTuple):
    """What introspection reads of one parameter: ``inspect.Parameter``'s fields."""

    name: str
    kind: inspect._ParameterKind
    annotation: Any
    default: Any


_EMPTY = inspect.Parameter.empty
_POSITIONAL_ONLY = inspect.Parameter.POSITIONAL_ONLY
_POSITIONAL_OR_KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD
_VAR_POSITIONAL = inspect.Parameter.VAR_POSITIONAL
_KEYWORD_ONLY = inspect.Parameter.KEYWORD_ONLY
_VAR_KEYWORD = inspect.Parameter.VAR_KEYWORD
# What makes inspect.signature look past a function's code: a wrapper chain, a signature
# set by hand, a partialmethod.
_SIGNATURE_ATTRIBUTES = ("__wrapped__", "__signature__", "_partialmethod", "__partialmethod__")


def signature_of(function: Any) -> tuple[list[Parameter], Any]:
    """``inspect.signature(function)``: its parameters in order and its return annotation.

    A plain function that nothing wraps is read from its code object, as
    ``inspect.signature`` reads it, without the ``Parameter`` and ``Signature`` objects
    (whose checks a compiled function passes by construction); anything else goes through
    ``inspect.signature``. Raises what ``inspect.signature`` raises.
    """
    state = getattr(function, "__dict__", None)
    if (
        type(function) is not types.FunctionType
        or state is None
        or (state and any(name in state for name in _SIGNATURE_ATTRIBUTES))
    ):
        signature = inspect.signature(function)
        found = [
            Parameter(each.name, each.kind, each.annotation, each.default)
            for each in signature.parameters.values()
        ]
        return found, signature.return_annotation
    code = function.__code__
    names = code.co_varnames
    positional, keyword_only = code.co_argcount, code.co_kwonlyargcount
    annotations = function.__annotations__
    defaults = function.__defaults__ or ()
    kwdefaults = function.__kwdefaults__ or {}
    first_default = positional - len(defaults)
    parameters = [
        Parameter(
            name,
            _POSITIONAL_ONLY if index < code.co_posonlyargcount else _POSITIONAL_OR_KEYWORD,
            annotations.get(name, _EMPTY),
            defaults[index - first_default] if index >= first_default else _EMPTY,
        )
        for index, name in enumerate(names[:positional])
    ]
    index = positional + keyword_only
    if code.co_flags & inspect.CO_VARARGS:
        parameters.append(
            Parameter(names[index], _VAR_POSITIONAL, annotations.get(names[index], _EMPTY), _EMPTY)
        )
        index += 1
    parameters += [
        Parameter(name, _KEYWORD_ONLY, annotations.get(name, _EMPTY), kwdefaults.get(name, _EMPTY))
        for name in names[positional : positional + keyword_only]
    ]
    if code.co_flags & inspect.CO_VARKEYWORDS:
        parameters.append(
            Parameter(names[index], _VAR_KEYWORD, annotations.get(names[index], _EMPTY), _EMPTY)
        )
    return parameters, annotations.get("return", _EMPTY)


def type_display(tp: Any) -> str:
    """A short readable name for a type in problem messages."""
    if isinstance(tp, str):
        return tp
    if isinstance(tp, ForwardRef):
        return str(tp.__forward_arg__)
    if is_class(tp) and get_origin(tp) is None:
        return str(tp.__qualname__ if tp.__module__ != "builtins" else tp.__name__)
    text = repr(tp)
    return re.sub(r"\b(typing_extensions|typing|collections\.abc)\.", "", text)
