"""The validator's build-time error, re-exported where the validator's modules read it."""

from llmapp._errors import SchemaError

__all__ = ["SchemaError"]
