"""ObjectDefault: fields with default values (typia ``CommentTagDefault``)."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal, NamedTuple

from llmapp import llm_application

DATE_TIME = '(string & Format<"date-time"> | string & Format<"date-time-local">)'


class Unit(enum.Enum):
    CM = "cm"
    INCH = "in"


class Margin(NamedTuple):
    """Space around the page.

    Attributes:
        top: Space above, in the page unit.
    """

    top: float = 1.0
    bottom: float = 1.0


@dataclass
class PageSetup:
    """Page settings, every one with a default.

    Attributes:
        copies: How many copies to print.
        duplex: Print on both sides.
    """

    copies: int = 1
    scale: float = 0.5
    title: str = "untitled"
    duplex: bool = False
    orientation: Literal["portrait", "landscape"] = "portrait"
    unit: Unit = Unit.CM
    margin: Margin = Margin()  # noqa: RUF009  (a NamedTuple is immutable: safe to share)
    pages: tuple[int, ...] = (1, 2)
    printed_at: datetime = datetime(2024, 1, 1, 9, 30)
    timeout: timedelta = timedelta(minutes=1, seconds=30)
    note: str | None = None
    tags: list[str] = field(default_factory=list)


@llm_application
class ObjectDefaultApplication:
    """Page settings with defaults through the three catalogue methods."""

    def insert(self, first: PageSetup) -> None:
        """Store one page setup.

        Args:
            first: The setup to store.
        """

    def reduce(self, first: PageSetup, second: PageSetup | None) -> PageSetup:
        """Keep the second setup when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: PageSetup | None, second: PageSetup | None, third: PageSetup | None = None
    ) -> PageSetup | None:
        """The first setup given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = ObjectDefaultApplication

SAMPLE = {
    "copies": 2,
    "scale": 1.25,
    "title": "Report",
    "duplex": True,
    "orientation": "landscape",
    "unit": "in",
    "margin": {"top": 0.5, "bottom": 0.75},
    "pages": [3, 4, 5],
    "printed_at": "2024-05-06T07:08:09+00:00",
    "timeout": "PT5M",
    "note": "draft",
    "tags": ["q2"],
}

ALSO_VALID = [{}, {"margin": {}}]

SPOILERS = [
    (("copies",), "2", [("$input.copies", "integer")]),
    (("unit",), "mm", [("$input.unit", '("cm" | "in" (INCH))')]),
    (("margin", "top"), "1", [("$input.margin.top", "number")]),
    (("pages", 0), 1.5, [("$input.pages[0]", "integer")]),
    (("printed_at",), "yesterday", [("$input.printed_at", DATE_TIME)]),
    (("note",), 1, [("$input.note", "(string | null)")]),
]


def check_python(value: PageSetup) -> None:
    """The sample as the method receives it: real Python values, not JSON."""
    assert value.unit is Unit.INCH
    assert value.margin == Margin(top=0.5, bottom=0.75) and isinstance(value.margin, Margin)
    assert value.pages == (3, 4, 5)
    assert value.printed_at == datetime.fromisoformat("2024-05-06T07:08:09+00:00")
    assert value.timeout == timedelta(minutes=5)
