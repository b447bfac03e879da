"""Stage 3: LLM schema -> generated validator that reports every mistake.

``validator(schema)`` writes Python source for the schema (a fast boolean checker
and an issue walker per definition), compiles it once and caches it; calling the
``Validator`` returns ``ValidationSuccess`` or ``ValidationFailure`` with every
``ValidationIssue`` (path, expected, value). Schemas that cannot be compiled raise
``SchemaError`` at build time; data never makes a validator raise.
"""

from ._expected import expected_of
from ._result import (
    UNDEFINED,
    Validation,
    ValidationFailure,
    ValidationIssue,
    ValidationSuccess,
)
from ._schema_error import SchemaError
from ._validator import Validator, validator

__all__ = [
    "UNDEFINED",
    "SchemaError",
    "Validation",
    "ValidationFailure",
    "ValidationIssue",
    "ValidationSuccess",
    "Validator",
    "expected_of",
    "validator",
]
