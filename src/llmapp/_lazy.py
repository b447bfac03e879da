"""Public names of a package loaded on first use (PEP 562), written once for every package.

A package lists where each of its names lives; ``lazy_names`` gives the module-level
``__getattr__`` and ``__dir__`` that import the home module on first access and keep
the value in the package's globals, so later reads cost nothing. This is what keeps
``import llmapp`` (and each stage's package) fast: a stage loads when it is used.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, homes: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``, whose names live in ``homes``.

    Args:
        package: the package's ``__name__``.
        homes: each public name and the module that defines it (absolute, or relative
            to the package like ``"._text"``).
    """

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home, package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *homes})

    return __getattr__, __dir__
