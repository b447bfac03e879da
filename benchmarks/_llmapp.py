"""llmapp's parts, looked up lazily: each raises ``Unavailable`` until that part has landed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from benchmarks._timing import Unavailable

__all__ = ["application", "parse", "validator"]


def _find(name: str, *modules: str) -> Callable[..., Any]:
    problems = []
    for module in modules:
        try:
            found: Callable[..., Any] = getattr(__import__(module, fromlist=[name]), name)
            return found
        except (ImportError, AttributeError) as exc:
            problems.append(f"{module}.{name}: {exc}")
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
