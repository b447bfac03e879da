"""Frozen dataclasses built at the cost of a plain one: ``quick_init``.

A frozen dataclass's generated ``__init__`` sets each field through
``object.__setattr__`` (its own ``__setattr__`` refuses), a call per field. The call
step builds one ``CallResult`` and one ``Call`` on every call, so ``quick_init`` gives
such a class the ``__init__`` attrs writes for its frozen classes: the same signature
and defaults, each field stored straight into the instance's ``__dict__``. Everything
else stays the dataclass's own (``==``, ``hash``, ``repr``, assignment refused,
``dataclasses.fields`` and ``replace``, which calls this ``__init__``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from llmapp._codegen.source import compile_function

__all__ = ["quick_init"]

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Replace a frozen dataclass's ``__init__`` by one that fills ``__dict__`` directly.

    Only plain fields are supported (no ``default_factory``, ``init=False`` or
    keyword-only field, no ``__post_init__``, no ``__slots__``): a class with more is
    refused, so nothing is silently skipped.

    Example::

        @quick_init
        @dataclass(frozen=True)
        class Point:
            x: int
            y: int = 0
    """
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    unsupported = [
        field.name
        for field in fields
        if field.default_factory is not dataclasses.MISSING or not field.init or field.kw_only
    ]
    if unsupported or hasattr(cls, "__post_init__") or "__slots__" in vars(cls):
        raise TypeError(f"quick_init cannot build {cls.__qualname__}: {unsupported or 'slots'}")
    namespace: dict[str, Any] = {}
    parameters, lines = ["self"], ["    state = self.__dict__"]
    for field in fields:
        if field.default is dataclasses.MISSING:
            parameters.append(field.name)
        else:
            namespace[f"_default_{field.name}"] = field.default
            parameters.append(f"{field.name}=_default_{field.name}")
        lines.append(f"    state[{field.name!r}] = {field.name}")
    source = "\n".join([f"def __init__({', '.join(parameters)}):", *lines]) + "\n"
    init = compile_function("__init__", source, namespace, origin=f"init {cls.__qualname__}")
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
