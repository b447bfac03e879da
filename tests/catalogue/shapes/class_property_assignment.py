"""ClassPropertyAssignment: class attributes with values (typia ``ClassPropertyAssignment``).

Fields with defaults become optional properties with ``default``; ``ClassVar``
constants belong to the class and never become properties.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from llmapp import llm_application


@dataclass
class Assignment:
    """A record whose fields are assigned in the class body.

    Attributes:
        id: The record's number.
        editable: Always false: the record is read-only.
    """

    KIND: ClassVar[str] = "assignment"
    registry: ClassVar[dict[str, int]] = {}

    id: int = 1
    name: Literal["Jeongho Nam"] = "Jeongho Nam"
    note: str = "assignment"
    editable: Literal[False] = False
    incremental: bool = True


@llm_application
class ClassPropertyAssignmentApplication:
    """Assigned records through the three catalogue methods."""

    def insert(self, first: Assignment) -> None:
        """Store one record.

        Args:
            first: The record to store.
        """

    def reduce(self, first: Assignment, second: Assignment | None) -> Assignment:
        """Keep the second record when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self,
        first: Assignment | None,
        second: Assignment | None,
        third: Assignment | None = None,
    ) -> Assignment | None:
        """The first record given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = ClassPropertyAssignmentApplication

SAMPLE = {
    "id": 2,
    "name": "Jeongho Nam",
    "note": "changed",
    "editable": False,
    "incremental": False,
}

ALSO_VALID = [{}]

HIDDEN = {"Assignment": ["KIND", "registry"]}

SPOILERS = [
    (("KIND",), "other", [("$input.KIND", "undefined")]),
    (("name",), "Samchon", [("$input.name", '"Jeongho Nam"')]),
    (("editable",), True, [("$input.editable", "false")]),
    (("id",), 1.5, [("$input.id", "integer")]),
]
