"""ObjectUnionImplicit: a list of shapes without a tag, told apart by their keys.

Mirrors typia ``ObjectUnionImplicit``; optional fields are ``float | None = None``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from llmapp import llm_application


@dataclass
class Point:
    x: float
    y: float
    slope: float | None = None


@dataclass
class Line:
    p1: Point
    p2: Point
    width: float | None = None
    distance: float | None = None


@dataclass
class Triangle:
    p1: Point
    p2: Point
    p3: Point
    area: float | None = None


@dataclass
class Polyline:
    """An open path through points."""

    points: list[Point]
    length: float | None = None


@dataclass
class Circle:
    radius: float
    centroid: Point | None = None
    area: float | None = None


Drawing = list[Union[Point, Line, Triangle, Polyline, Circle]]  # noqa: UP007


@llm_application
class ObjectUnionImplicitApplication:
    """Drawings of untagged shapes through the three catalogue methods."""

    def insert(self, first: Drawing) -> None:
        """Store one drawing.

        Args:
            first: The drawing to store.
        """

    def reduce(self, first: Drawing, second: Drawing | None) -> Drawing:
        """Keep the second drawing when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Drawing | None, second: Drawing | None, third: Drawing | None = None
    ) -> Drawing | None:
        """The first drawing given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = ObjectUnionImplicitApplication


def _point(x: float) -> dict[str, float | None]:
    return {"x": x, "y": -x, "slope": None}


SAMPLE = [
    _point(1),
    {"p1": _point(0), "p2": _point(2), "width": 0.5, "distance": None},
    {"p1": _point(0), "p2": _point(1), "p3": _point(2), "area": 1.5},
    {"points": [_point(0), _point(1)], "length": 2},
    {"radius": 4, "centroid": _point(0), "area": None},
]

ALSO_VALID = [[], [{"x": 1, "y": 2}, {"radius": 1}]]

SPOILERS = [
    ((0, "x"), {}, [("$input[0].x", "number")]),
    ((1, "p2"), None, [("$input[1].p2", "Point")]),
    ((2, "p3", "y"), "1", [("$input[2].p3.y", "number")]),
    ((3, "points"), 3, [("$input[3].points", "Array<Point>")]),
    ((4, "radius"), "four", [("$input[4].radius", "number")]),
    # No branch fits: one branch is chosen and its mistakes are listed.
    (
        (4,),
        {"colour": "red"},
        [("$input[4].points", "Array<Point>"), ("$input[4].colour", "undefined")],
    ),
    ((4,), "circle", [("$input[4]", "(Point | Line | Triangle | Polyline | Circle)")]),
]


def check_python(value: Drawing) -> None:
    """The keys chose each item's class."""
    assert [type(item) for item in value] == [Point, Line, Triangle, Polyline, Circle]
