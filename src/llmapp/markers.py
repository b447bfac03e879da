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

from typing import Annotated, Any

from llmapp._records.record import Record

__all__ = [
    "URL",
    "ContentMediaType",
    "Context",
    "Email",
    "Examples",
    "Format",
    "Human",
    "Pattern",
    "Title",
]

# Frozen records (hashable, compared by type and value, as ``Annotated`` metadata must
# be) rather than dataclasses: every program that builds an application imports this
# module, and defining frozen dataclasses is most of what that import would cost.


class Format(Record):
    """A JSON Schema ``format`` for a string (``"email"``, ``"uri"``, ...)."""

    name: str

    def __init__(self, name: str) -> None:
        super().__init__(name=name)


class Pattern(Record):
    """A regular expression the whole string must match somewhere (``pattern``)."""

    regex: str

    def __init__(self, regex: str) -> None:
        super().__init__(regex=regex)


class ContentMediaType(Record):
    """The media type of a string's content (``contentMediaType``), e.g. a file."""

    media_type: str

    def __init__(self, media_type: str) -> None:
        super().__init__(media_type=media_type)


class Title(Record):
    """A short title for the value."""

    text: str

    def __init__(self, text: str) -> None:
        super().__init__(text=text)


class Examples(Record):
    """Example values shown to the model."""

    values: tuple[Any, ...]

    def __init__(self, *values: Any) -> None:
        super().__init__(values=values)


class Human(Record):
    """Only a human composes this value: ``separate`` keeps it from the LLM."""


class Context(Record):
    """The caller supplies this value per call, by its type: never in any schema.

    ``Annotated[User, Context()]`` is filled from ``execute(..., context=...)`` (or the
    toolset's framework context) with the first value that is a ``User``; see
    ``llmapp.app._context``.
    """


Email = Annotated[str, Format("email")]
URL = Annotated[str, Format("uri")]
