"""ArrayRecursive: a category tree through a list of children (typia ``ArrayRecursive``).

Also a recursive alias (``TypeAliasType``): nested lists of labels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from typing_extensions import TypeAliasType

from llmapp import llm_application

Labels = TypeAliasType("Labels", list[Union[str, "Labels"]])


@dataclass
class Timestamp:
    """A moment, as seconds and a time-zone offset."""

    time: float
    zone: int


@dataclass
class Category:
    """A category and its sub-categories.

    Attributes:
        children: Sub-categories, possibly none.
        labels: Labels, grouped in nested lists.
    """

    children: list[Category]
    id: int
    code: str
    sequence: int
    created_at: Timestamp
    labels: Labels


@llm_application
class ArrayRecursiveApplication:
    """Category trees through the three catalogue methods."""

    def insert(self, first: Category) -> None:
        """Store one category tree.

        Args:
            first: The tree to store.
        """

    def reduce(self, first: Category, second: Category | None) -> Category:
        """Keep the second tree when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Category | None, second: Category | None, third: Category | None = None
    ) -> Category | None:
        """The first tree given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = ArrayRecursiveApplication


def _category(depth: int, index: int = 0) -> dict[str, object]:
    return {
        "children": [_category(depth - 1, i) for i in range(2)] if depth else [],
        "id": depth * 10 + index,
        "code": f"C{depth}.{index}",
        "sequence": index,
        "created_at": {"time": 1_700_000_000.0, "zone": -300},
        "labels": ["a", ["b", ["c"]], []],
    }


SAMPLE = _category(2)

SPOILERS = [
    (("id",), None, [("$input.id", "integer")]),
    (("code",), 3, [("$input.code", "string")]),
    (
        ("created_at",),
        {},
        [("$input.created_at.time", "number"), ("$input.created_at.zone", "integer")],
    ),
    (
        ("children", 0, "children", 1, "sequence"),
        "number",
        [("$input.children[0].children[1].sequence", "integer")],
    ),
    (("labels", 1, 1, 0), 7, [("$input.labels[1][1][0]", "(string | Labels)")]),
    (("children", 1), [], [("$input.children[1]", "Category")]),
]
