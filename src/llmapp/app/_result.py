"""What executing one function call returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from llmapp.validate._result import ValidationFailure

__all__ = ["CallResult"]


@dataclass(frozen=True)
class CallResult:
    """The outcome of one call the LLM asked for.

    Attributes:
        name: the function the LLM named.
        success: the arguments were right and the method returned without raising.
        value: what the method returned (its Python value).
        data: the same as JSON-ready data, to send back to the model.
        validation: the failed validation, when the arguments were wrong.
        feedback: text for the model explaining what to fix, or ``None``.
        error: the exception the method raised, or ``None``.
        deprecated: the function is deprecated (it still ran).
    """

    name: str
    success: bool
    value: Any = None
    data: Any = None
    validation: ValidationFailure | None = None
    feedback: str | None = None
    error: BaseException | None = None
    deprecated: bool = False

    def message(self) -> str:
        """A text for the model's tool-result message: the data, the feedback, or the error."""
        if self.feedback is not None:
            return self.feedback
        if self.error is not None:
            return f"The function raised {type(self.error).__name__}: {self.error}"
        import json

        return json.dumps(self.data, ensure_ascii=False, default=str)
