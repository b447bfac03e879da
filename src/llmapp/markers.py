"""llmapp's own ``Annotated`` markers, for what annotated-types lacks.

Example::

    from typing import Annotated
    from llmapp.markers import Format, Human, Pattern

    def register(
        self,
        email: Annotated[str, Format("email")],
        code: Annotated[str, Pattern(r"^[A-Z]{3}$")],
        scan: Annotated[bytes, Human()],
    ) -> None: ...
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

__all__ = [
    "URL",
    "ContentMediaType",
    "Email",
    "Examples",
    "Format",
    "Human",
    "Pattern",
    "Title",
]


@dataclass(frozen=True, slots=True)
class Format:
    """A JSON Schema ``format`` for a string (``"email"``, ``"uri"``, ...)."""

    name: str


@dataclass(frozen=True, slots=True)
class Pattern:
    """A regular expression the whole string must match somewhere (``pattern``)."""

    regex: str


@dataclass(frozen=True, slots=True)
class ContentMediaType:
    """The media type of a string's content (``contentMediaType``), e.g. a file."""

    media_type: str


@dataclass(frozen=True, slots=True)
class Title:
    """A short title for the value."""

    text: str


@dataclass(frozen=True, slots=True)
class Examples:
    """Example values shown to the model."""

    values: tuple[Any, ...]

    def __init__(self, *values: Any) -> None:
        object.__setattr__(self, "values", values)


@dataclass(frozen=True, slots=True)
class Human:
    """Only a human composes this value: ``separate`` keeps it from the LLM."""


Email = Annotated[str, Format("email")]
URL = Annotated[str, Format("uri")]
