"""ObjectGenericAlias: a generic object used through an alias (typia ``ObjectGenericAlias``).

Also a generic dataclass parametrised twice, and a generic ``TypeAliasType``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from typing_extensions import TypeAliasType

from llmapp import llm_application

T = TypeVar("T")


@dataclass
class Something(Generic[T]):
    """A box holding one value.

    Attributes:
        value: What the box holds.
    """

    value: T


Many = TypeAliasType("Many", list[T], type_params=(T,))


@dataclass
class Aliased:
    """Generic types through aliases.

    Attributes:
        text: A box of text.
    """

    text: Something[str]
    numbers: Something[list[int]]
    many: Many[Something[int]]


Alias = Aliased


@llm_application
class ObjectGenericAliasApplication:
    """Generic boxes through the three catalogue methods."""

    def insert(self, first: Alias) -> None:
        """Store one set of boxes.

        Args:
            first: The boxes to store.
        """

    def reduce(self, first: Alias, second: Alias | None) -> Alias:
        """Keep the second set when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Alias | None, second: Alias | None, third: Alias | None = None
    ) -> Alias | None:
        """The first set given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = ObjectGenericAliasApplication

SAMPLE = {
    "text": {"value": "hello"},
    "numbers": {"value": [1, 2]},
    "many": [{"value": 1}, {"value": 2}],
}

SPOILERS = [
    (("text", "value"), 1, [("$input.text.value", "string")]),
    (("numbers", "value", 1), "2", [("$input.numbers.value[1]", "integer")]),
    (("many", 1, "value"), "2", [("$input.many[1].value", "integer")]),
    (("many",), {"value": 1}, [("$input.many", "Array<Something_int_>")]),
]


def check_python(value: Aliased) -> None:
    """Each parametrisation of the generic dataclass is that dataclass."""
    assert isinstance(value.text, Something) and value.text.value == "hello"
    assert all(isinstance(item, Something) for item in value.many)
