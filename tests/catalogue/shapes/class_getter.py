"""ClassGetter: computed properties are not data (typia ``ClassGetter``).

A dataclass with ``@property`` and ``@cached_property``, and a pydantic model
with ``@property`` and ``@computed_field``: none of them becomes a property of
the schema; the LLM sends only the fields.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import pydantic

from llmapp import llm_application


class Profile(pydantic.BaseModel):
    """A person's public profile.

    Attributes:
        nickname: The name shown to others.
    """

    nickname: str
    age: int

    @property
    def adult(self) -> bool:
        return self.age >= 18

    @pydantic.computed_field  # type: ignore[prop-decorator]
    @property
    def handle(self) -> str:
        return f"@{self.nickname}"


@dataclass
class Person:
    """A person, with a computed accessor.

    Attributes:
        dead: Whether the person has died; null when unknown.
    """

    id: str
    name: str
    dead: bool | None
    profile: Profile

    @property
    def accessor(self) -> str:
        """Id and name together."""
        return f"{self.id}::{self.name}"

    @cached_property
    def initials(self) -> str:
        return "".join(word[0] for word in self.name.split())


@llm_application
class ClassGetterApplication:
    """People with computed properties through the three catalogue methods."""

    def insert(self, first: Person) -> None:
        """Store one person.

        Args:
            first: The person to store.
        """

    def reduce(self, first: Person, second: Person | None) -> Person:
        """Keep the second person when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Person | None, second: Person | None, third: Person | None = None
    ) -> Person | None:
        """The first person given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)

    @property
    def count(self) -> int:
        """A property of the application: not a function."""
        return 0


APPLICATION = ClassGetterApplication

SAMPLE = {
    "id": "p-1",
    "name": "Ada Lovelace",
    "dead": True,
    "profile": {"nickname": "ada", "age": 36},
}

HIDDEN = {"Person": ["accessor", "initials"], "Profile": ["adult", "handle"]}

SPOILERS = [
    (("accessor",), "p-1::Ada", [("$input.accessor", "undefined")]),
    (("profile", "handle"), "@ada", [("$input.profile.handle", "undefined")]),
    (("dead",), "no", [("$input.dead", "(boolean | null)")]),
    (("profile", "age"), "36", [("$input.profile.age", "integer")]),
]


def check_python(value: Person) -> None:
    """A dataclass holding a pydantic model; the properties compute from the fields."""
    assert isinstance(value.profile, Profile)
    assert value.accessor == "p-1::Ada Lovelace" and value.initials == "AL"
    assert value.profile.adult and value.profile.handle == "@ada"
