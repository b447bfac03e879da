"""The pattern matcher, re-exported for the validator's modules (from ``llmapp._patterns``)."""

from llmapp._patterns import (
    CALL_BUDGET,
    NOT_CHECKED,
    TIME_LIMIT,
    TIMED_OUT,
    Matcher,
    PatternBudget,
    PatternError,
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
    "compile_pattern",
    "explain_timeouts",
    "forget_timeouts",
    "is_pattern",
    "translate",
]
