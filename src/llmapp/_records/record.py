"""Frozen keyword-only records: the base class of llmapp's internal value classes (the
type model in ``introspect/model.py``, each function's execution ``Plan``) and of the
``Annotated`` markers (``llmapp.markers``, which give themselves positional constructors).

A record class declares its fields as annotations, with optional defaults, exactly as a
``@dataclass(frozen=True, kw_only=True)`` would (``typing.dataclass_transform`` tells
type checkers so), and inherits ``__init__``, ``==``, ``hash``, ``repr`` and
immutability from ``Record``; ``replace`` copies one with some fields changed. A
subclass adds its own fields after its bases'. Names starting with ``_`` are class
attributes, not fields.

Why not ``dataclasses``: a dataclass writes and compiles several methods per class when
the class is defined, and for the type model's twenty-odd classes that was the largest
part of a cold ``application()`` spent importing (``python -m benchmarks.cold_start --importtime``).
Declaring a record runs no code but reading its annotations. The public classes that
users take apart (``LlmFunction``, the results) stay dataclasses: users may rely on
``dataclasses.fields`` and ``replace``.

A record's fields are stored as attributes (``object.__setattr__``), never through its
``__dict__``: CPython then keeps them in a values array whose keys the class's records
share, where a ``__dict__`` written to holds a table of keys of its own, larger than
the record. An application keeps a few records a parameter (its
introspection, its plan), so this is most of what its build holds beyond its schemas.

A build makes thousands of records, so a class that has made a few dozen gets an
``__init__`` of its own, with one keyword parameter a field (``_keyword_init``): Python
binds them faster than the general ``__init__`` merges and checks a dict of them. A class
with an ``__init__`` of its own (the markers') keeps calling the general one.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, TypeVar

import typing_extensions as te

__all__ = ["Record", "replace"]

R = TypeVar("R", bound="Record")


@te.dataclass_transform(kw_only_default=True, frozen_default=True)
class Record:
    """Base of a frozen record; see the module docstring."""

    _defaults: ClassVar[dict[str, Any]] = {}
    """Every field, in order, with its default; a required field's is never read."""
    _required: ClassVar[frozenset[str]] = frozenset()
    _values: ClassVar[Callable[[Any], tuple[Any, ...]]] = staticmethod(lambda record: ())
    """The fields' values, in order."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        defaults = dict(cls._defaults)
        required = set(cls._required)
        for name in inspect.get_annotations(cls):
            if name.startswith("_"):
                continue
            # A field is required when the class gives no value for it (any value,
            # llmapp's own sentinels included, is a default).
            if name in cls.__dict__:
                defaults[name] = cls.__dict__[name]
                required.discard(name)
            else:
                defaults[name] = None
                required.add(name)
        cls._defaults = defaults
        cls._required = frozenset(required)
        cls._values = staticmethod(_getter(tuple(defaults)))
        inherited = cls.__init__
        if "__init__" not in cls.__dict__ and (
            inherited is Record.__init__ or hasattr(inherited, "_record_fields")
        ):  # its own: compiled for its fields once it has made many records (not a base's)
            cls.__init__ = Record.__init__  # type: ignore[method-assign]

    def __init__(self, **values: Any) -> None:
        cls = type(self)
        if cls.__init__ is Record.__init__:
            made = _MADE.get(cls, 0) + 1
            if made < _COMPILE_AFTER:
                _MADE[cls] = made
            else:  # a class of many records: compile its own
                _MADE.pop(cls, None)
                cls.__init__ = _keyword_init(cls)  # type: ignore[method-assign]
                cls.__init__(self, **values)
                return
        state = {**self._defaults, **values}
        # An unknown keyword adds an entry; a missing required one is absent from values.
        if len(state) != len(self._defaults) or not values.keys() >= self._required:
            _refuse(type(self), values)
        for name, value in state.items():
            _store(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return _values(self) == _values(other)

    def __hash__(self) -> int:
        return hash((type(self), *_values(self)))

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in _fields(self).items())
        return f"{type(self).__name__}({fields})"


_COMPILE_AFTER = 32
"""A class's records made by the general ``__init__`` before its own is compiled:
compiling costs about what two hundred records save, and most classes make few."""
_MADE: dict[type[Record], int] = {}

_REQUIRED: Any = object()
"""The default of a required parameter of ``_keyword_init``'s ``__init__``: not given."""


def _keyword_init(cls: type[Record]) -> Any:
    """``Record.__init__`` for ``cls`` alone: a keyword parameter a field, with its default."""
    namespace: dict[str, Any] = {
        "_REQUIRED": _REQUIRED,
        "_refuse_given": _refuse_given,
        "_store": _store,
    }
    parameters, stores = [], []
    for index, (name, default) in enumerate(cls._defaults.items()):
        namespace[f"_default{index}"] = default
        given = "_REQUIRED" if name in cls._required else f"_default{index}"
        parameters.append(f"{name}={given}")
        stores.append(f"    _store(_self, {name!r}, {name})")
    required = [name for name in cls._defaults if name in cls._required]
    missing = "".join(f" or {name} is _REQUIRED" for name in required)
    pairs = "".join(f"({name!r}, {name}), " for name in required)
    source = "\n".join(
        [
            f"def __init__({', '.join(['_self', *(['*'] if parameters else []), *parameters])},"
            " **_unknown):",
            f"    if _unknown{missing}:",
            f"        _refuse_given(type(_self), ({pairs}), _unknown)",
            *stores,
        ]
    )
    # Compiled as it is, not registered in ``linecache`` (``llmapp._codegen.source``): a cold build
    # compiles one for each of its record classes, and five lines read well in a traceback.
    exec(compile(source, f"<llmapp.init {cls.__qualname__}>", "exec"), namespace)
    init: Any = namespace["__init__"]
    init.__llmapp_source__ = source
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init._record_fields = tuple(cls._defaults)
    return init


def _refuse_given(
    cls: type[Record], required: tuple[tuple[str, Any], ...], unknown: dict[str, Any]
) -> None:
    given = {name: value for name, value in required if value is not _REQUIRED}
    _refuse(cls, {**given, **unknown})


def _refuse(cls: type[Record], values: dict[str, Any]) -> None:
    missing = sorted(cls._required - values.keys())
    if missing:
        raise TypeError(f"{cls.__name__}() missing keyword arguments: {', '.join(missing)}")
    unknown = sorted(values.keys() - cls._defaults.keys())
    raise TypeError(f"{cls.__name__}() got unexpected keyword arguments: {', '.join(unknown)}")


def replace(record: R, **changes: Any) -> R:
    """A copy of ``record`` with ``changes`` (field names) applied."""
    unknown = changes.keys() - record._defaults.keys()
    if unknown:
        raise TypeError(f"{type(record).__name__} has no fields {', '.join(sorted(unknown))}")
    copy = object.__new__(type(record))
    for name, value in {**_fields(record), **changes}.items():
        _store(copy, name, value)
    return copy


def _values(record: Record) -> tuple[Any, ...]:
    return type(record)._values(record)


def _fields(record: Record) -> dict[str, Any]:
    return dict(zip(record._defaults, _values(record), strict=True))


_store = object.__setattr__
"""Sets a field past ``Record.__setattr__`` (which refuses), as an attribute."""


def _getter(fields: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving a record's values of ``fields``, as a tuple (``attrgetter`` gives
    a tuple for two names or more only)."""
    if len(fields) > 1:
        return attrgetter(*fields)
    if fields:
        one = attrgetter(fields[0])
        return lambda record: (one(record),)
    return lambda record: ()
