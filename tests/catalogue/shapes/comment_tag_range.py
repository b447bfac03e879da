"""CommentTagRange: numeric bounds from ``Annotated`` (typia ``CommentTagRange``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from annotated_types import Ge, Gt, Interval, Le, Lt, MultipleOf

from llmapp import llm_application


@dataclass
class Range:
    """Integers and numbers between bounds.

    Attributes:
        greater: More than 3.
        equal: Exactly 10.
    """

    greater: Annotated[int, Gt(3)]
    greater_equal: Annotated[int, Ge(3)]
    less: Annotated[int, Lt(7)]
    less_equal: Annotated[int, Le(7)]
    greater_less: Annotated[int, Gt(3), Lt(7)]
    greater_equal_less: Annotated[float, Interval(ge=3, lt=7)]
    greater_less_equal: Annotated[float, Interval(gt=3, le=7)]
    greater_equal_less_equal: Annotated[float, Ge(3), Le(7)]
    equal: Annotated[int, Ge(10), Le(10)]
    step: Annotated[float, MultipleOf(0.5)]


@llm_application
class CommentTagRangeApplication:
    """Bounded numbers through the three catalogue methods."""

    def insert(self, first: Range) -> None:
        """Store one set of bounded numbers.

        Args:
            first: The numbers to store.
        """

    def reduce(self, first: Range, second: Range | None) -> Range:
        """Keep the second set when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Range | None, second: Range | None, third: Range | None = None
    ) -> Range | None:
        """The first set given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = CommentTagRangeApplication

SAMPLE = {
    "greater": 4,
    "greater_equal": 3,
    "less": 6,
    "less_equal": 7,
    "greater_less": 5,
    "greater_equal_less": 3,
    "greater_less_equal": 7,
    "greater_equal_less_equal": 5.5,
    "equal": 10,
    "step": -1.5,
}

SPOILERS = [
    (("greater",), 3, [("$input.greater", "integer & ExclusiveMinimum<3>")]),
    (("greater_equal",), 2, [("$input.greater_equal", "integer & Minimum<3>")]),
    (("less",), 7, [("$input.less", "integer & ExclusiveMaximum<7>")]),
    (("less_equal",), 8, [("$input.less_equal", "integer & Maximum<7>")]),
    (
        ("greater_less",),
        7,
        [("$input.greater_less", "integer & ExclusiveMinimum<3> & ExclusiveMaximum<7>")],
    ),
    (
        ("greater_equal_less",),
        7.0,
        [("$input.greater_equal_less", "number & Minimum<3> & ExclusiveMaximum<7>")],
    ),
    (
        ("greater_less_equal",),
        3,
        [("$input.greater_less_equal", "number & ExclusiveMinimum<3> & Maximum<7>")],
    ),
    (("equal",), 11, [("$input.equal", "integer & Minimum<10> & Maximum<10>")]),
    (("step",), 0.25, [("$input.step", "number & MultipleOf<0.5>")]),
    (("equal",), 10.5, [("$input.equal", "integer & Minimum<10> & Maximum<10>")]),
]
