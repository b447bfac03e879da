"""ClassNonPublic: members whose names start with ``_`` are not data (typia ``ClassNonPublic``).

A dataclass with ``_`` fields (with a default, and ``init=False``), a name-mangled
``__`` field, and a pydantic model with a ``PrivateAttr``. The application itself
has private methods, a dunder and a property: none of them becomes a function.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pydantic

from llmapp import llm_application


class Session(pydantic.BaseModel):
    """A session with a private token.

    Attributes:
        user: Who is logged in.
    """

    user: str
    _token: str = pydantic.PrivateAttr(default="secret")


@dataclass
class Accessor:
    """Public and non-public members side by side.

    Attributes:
        implicit: Public by default.
        shown: Public on purpose.
    """

    implicit: str
    shown: str
    session: Session
    _hidden: str = "hidden"
    _concealed: int = field(default=0, init=False)
    __mangled: bool = field(default=False, init=False)


@llm_application
class ClassNonPublicApplication:
    """Accessors through the three catalogue methods; private helpers stay private."""

    def insert(self, first: Accessor) -> None:
        """Store one accessor.

        Args:
            first: The accessor to store.
        """
        self._remember(first)

    def reduce(self, first: Accessor, second: Accessor | None) -> Accessor:
        """Keep the second accessor when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Accessor | None, second: Accessor | None, third: Accessor | None = None
    ) -> Accessor | None:
        """The first accessor given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)

    def _remember(self, value: Accessor) -> None:
        """A private method: not a function."""

    def __private(self) -> None:
        """A name-mangled method: not a function."""

    @staticmethod
    def _static_helper() -> None:
        """A private static method: not a function."""

    def __call__(self, value: Accessor) -> None:
        """A dunder: not a function."""

    @property
    def size(self) -> int:
        """A property: not a function."""
        return 0


APPLICATION = ClassNonPublicApplication

SAMPLE = {"implicit": "i", "shown": "s", "session": {"user": "ada"}}

HIDDEN = {
    "Accessor": ["_hidden", "_concealed", "_Accessor__mangled", "__mangled"],
    "Session": ["_token"],
}

SPOILERS = [
    (("_concealed",), 1, [("$input._concealed", "undefined")]),
    (("session", "_token"), "x", [("$input.session._token", "undefined")]),
    (("shown",), ..., [("$input.shown", "string")]),
]


def check_python(value: Accessor) -> None:
    """Non-public fields keep their defaults: the LLM cannot set them."""
    assert value._hidden == "hidden" and value._concealed == 0
    assert isinstance(value.session, Session)
