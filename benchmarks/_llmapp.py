"""llmapp's parts, looked up lazily: each raises ``Unavailable`` until that part has landed."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from benchmarks._timing import Unavailable

__all__ = ["application", "parse", "validator"]


def _find(name: str, *modules: str) -> Callable[..., Any]:
    problems = []
    for module in modules:
        try:
            found = getattr(__import__(module, fromlist=[name]), name)
        except (ImportError, AttributeError) as exc:
            problems.append(f"{module}.{name}: {exc}")
            continue
        if isinstance(found, types.ModuleType) or not callable(found):
            problems.append(f"{module}.{name} is not a function yet")
            continue
        function: Callable[..., Any] = found
        return function
    raise Unavailable(f"n/a (not available yet: {problems[-1]})")


def validator() -> Callable[..., Any]:
    """``llmapp.validator``: schema -> callable returning a Validation."""
    return _find("validator", "llmapp", "llmapp.validate")


def parse() -> Callable[..., Any]:
    """``llmapp.parse``: the model's raw text -> Parsed(data, repairs, error)."""
    return _find("parse", "llmapp", "llmapp.repair")


def application() -> Callable[..., Any]:
    """``llmapp.application``: class -> LlmApplication."""
    return _find("application", "llmapp", "llmapp.application")
