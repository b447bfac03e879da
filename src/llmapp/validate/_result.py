"""The validation results, re-exported for the validator's modules (from ``llmapp._results``)."""

from llmapp._results import (
    UNDEFINED,
    Validation,
    ValidationFailure,
    ValidationIssue,
    ValidationSuccess,
)

__all__ = [
    "UNDEFINED",
    "Validation",
    "ValidationFailure",
    "ValidationIssue",
    "ValidationSuccess",
]
