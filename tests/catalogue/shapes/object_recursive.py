"""ObjectRecursive: a department whose parent is a department (typia ``ObjectRecursive``)."""

from __future__ import annotations

from dataclasses import dataclass

from llmapp import llm_application


@dataclass
class Timestamp:
    """A moment, as seconds and a time-zone offset.

    Attributes:
        time: Seconds since the epoch.
        zone: Offset from UTC in minutes.
    """

    time: float
    zone: int


@dataclass
class Department:
    """A department, inside its parent department.

    Attributes:
        parent: The enclosing department; null at the top.
    """

    parent: Department | None
    id: int
    code: str
    name: str
    sequence: int
    created_at: Timestamp


@llm_application
class ObjectRecursiveApplication:
    """Departments through the three catalogue methods."""

    def insert(self, first: Department) -> None:
        """Store one department.

        Args:
            first: The department to store.
        """

    def reduce(self, first: Department, second: Department | None) -> Department:
        """Keep the second department when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self,
        first: Department | None,
        second: Department | None,
        third: Department | None = None,
    ) -> Department | None:
        """The first department given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = ObjectRecursiveApplication


def _department(depth: int) -> dict[str, object]:
    return {
        "parent": _department(depth - 1) if depth else None,
        "id": depth,
        "code": f"D{depth}",
        "name": f"Level {depth}",
        "sequence": depth * 10,
        "created_at": {"time": 1_700_000_000.5 + depth, "zone": 60},
    }


SAMPLE = _department(3)

SPOILERS = [
    (
        ("parent", "parent", "parent", "created_at", "time"),
        "zone",
        [("$input.parent.parent.parent.created_at.time", "number")],
    ),
    (
        ("parent", "parent", "parent", "parent"),
        {},
        [
            ("$input.parent.parent.parent.parent.parent", "(Department | null)"),
            ("$input.parent.parent.parent.parent.id", "integer"),
            ("$input.parent.parent.parent.parent.code", "string"),
            ("$input.parent.parent.parent.parent.name", "string"),
            ("$input.parent.parent.parent.parent.sequence", "integer"),
            ("$input.parent.parent.parent.parent.created_at", "Timestamp"),
        ],
    ),
    (("id",), "1", [("$input.id", "integer")]),
]
