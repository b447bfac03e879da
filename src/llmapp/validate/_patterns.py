"""The pattern matcher, re-exported for the validator's modules (from ``llmapp._patterns``)."""

from llmapp._patterns import (
    TIME_LIMIT,
    TIMED_OUT,
    Matcher,
    PatternError,
    compile_pattern,
    explain_timeouts,
    forget_timeouts,
    is_pattern,
    translate,
)

__all__ = [
    "TIMED_OUT",
    "TIME_LIMIT",
    "Matcher",
    "PatternError",
    "compile_pattern",
    "explain_timeouts",
    "forget_timeouts",
    "is_pattern",
    "translate",
]
