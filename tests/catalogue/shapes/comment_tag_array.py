"""CommentTagArray: array lengths and unique items (typia ``CommentTagArray``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from annotated_types import Len, MaxLen, MinLen

from llmapp import llm_application


@dataclass
class Arrays:
    """Arrays with bounds on their length.

    Attributes:
        items: Exactly three strings.
        unique: No string twice.
    """

    items: Annotated[list[str], Len(3, 3)]
    min_items: Annotated[list[float], MinLen(3)]
    both: Annotated[list[str], MinLen(3), MaxLen(7)]
    equal: Annotated[list[float], Len(10, 10)]
    unique: set[str]
    frozen: Annotated[frozenset[int], MaxLen(2)]


@llm_application
class CommentTagArrayApplication:
    """Bounded arrays through the three catalogue methods."""

    def insert(self, first: Arrays) -> None:
        """Store one set of arrays.

        Args:
            first: The arrays to store.
        """

    def reduce(self, first: Arrays, second: Arrays | None) -> Arrays:
        """Keep the second set when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Arrays | None, second: Arrays | None, third: Arrays | None = None
    ) -> Arrays | None:
        """The first set given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = CommentTagArrayApplication

SAMPLE = {
    "items": ["a", "b", "c"],
    "min_items": [1, 2, 3.5],
    "both": ["a", "b", "c", "d"],
    "equal": [10] * 10,
    "unique": ["one"],  # one item: a set keeps no order, the round trip compares lists
    "frozen": [1, 2],
}

SPOILERS = [
    (("items",), ["a", "b"], [("$input.items", "Array<string> & MinItems<3> & MaxItems<3>")]),
    (("min_items",), [1, 2], [("$input.min_items", "Array<number> & MinItems<3>")]),
    (("both",), ["a"] * 8, [("$input.both", "Array<string> & MinItems<3> & MaxItems<7>")]),
    (("equal",), [10] * 9, [("$input.equal", "Array<number> & MinItems<10> & MaxItems<10>")]),
    (("unique",), ["one", "one"], [("$input.unique", "Array<string> & UniqueItems<true>")]),
    (
        ("frozen",),
        [1, 2, 3],
        [("$input.frozen", "Array<integer> & MaxItems<2> & UniqueItems<true>")],
    ),
    (("both", 2), 3, [("$input.both[2]", "string")]),
]
