"""The pattern matcher, re-exported for the validator's modules (from
``llmapp._patterns.matching``), and the one way generated code searches with it
(``search_test``)."""

from collections.abc import Callable
from typing import Any

from llmapp._patterns.matching import (
    CALL_BUDGET,
    NOT_CHECKED,
    TIME_LIMIT,
    TIMED_OUT,
    Matcher,
    PatternBudget,
    PatternError,
    budget_begun,
    budget_ended,
    compile_pattern,
    explain_timeouts,
    forget_timeouts,
    is_pattern,
    translate,
)

__all__ = [
    "CALL_BUDGET",
    "NOT_CHECKED",
    "TIMED_OUT",
    "TIME_LIMIT",
    "Matcher",
    "PatternBudget",
    "PatternError",
    "budget_begun",
    "budget_ended",
    "compile_pattern",
    "explain_timeouts",
    "forget_timeouts",
    "is_pattern",
    "search_test",
    "translate",
]


def search_test(constant: Callable[[Any, str], str], matcher: Matcher, text: str) -> str:
    """The expression true when ``matcher`` matches the string in variable ``text``;
    ``constant`` names the global it calls (``Emitter.constant``)."""
    target, method = matcher.call()
    return f"{constant(target, 'PATTERN')}.{method}({text}) is not None"
