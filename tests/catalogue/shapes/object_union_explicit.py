"""ObjectUnionExplicit: a union of objects told apart by a ``type`` tag (typia ``ObjectUnionExplicit``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Union

from llmapp import llm_application


@dataclass
class Point:
    """A point on the plane."""

    type: Literal["point"]
    x: float
    y: float


@dataclass
class Line:
    """A segment between two points."""

    type: Literal["line"]
    p1: Point
    p2: Point


@dataclass
class Circle:
    """A circle.

    Attributes:
        radius: Its radius, in the plane's units.
    """

    type: Literal["circle"]
    centroid: Point
    radius: float


@dataclass
class Polygon:
    """A closed polygon."""

    type: Literal["polygon"]
    outer: list[Point]


Shape = Union[Point, Line, Circle, Polygon]  # noqa: UP007


@llm_application
class ObjectUnionExplicitApplication:
    """Tagged shapes through the three catalogue methods."""

    def insert(self, first: Shape) -> None:
        """Store one shape.

        Args:
            first: The shape to store.
        """

    def reduce(self, first: Shape, second: Shape | None) -> Shape:
        """Keep the second shape when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Shape | None, second: Shape | None, third: Shape | None = None
    ) -> Shape | None:
        """The first shape given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = ObjectUnionExplicitApplication

SAMPLE = {
    "type": "circle",
    "centroid": {"type": "point", "x": 1.5, "y": -2},
    "radius": 3,
}

ALSO_VALID = [
    {"type": "point", "x": 0, "y": 0},
    {
        "type": "line",
        "p1": {"type": "point", "x": 0, "y": 0},
        "p2": {"type": "point", "x": 1, "y": 1},
    },
    {"type": "polygon", "outer": [{"type": "point", "x": 0, "y": 0}]},
]

SPOILERS = [
    (("radius",), "3", [("$input.radius", "number")]),
    (("centroid", "y"), None, [("$input.centroid.y", "number")]),
    (("centroid", "type"), "line", [("$input.centroid.type", '"point"')]),
    # An unknown tag: the branch whose keys match best is named.
    (("type",), "oval", [("$input.type", '("point" | "line" | "circle" | "polygon")')]),
    ((), [], [("$input", "(Point | Line | Circle | Polygon)")]),
]


def check_python(value: Shape) -> None:
    """The tag chose the class."""
    assert isinstance(value, Circle) and isinstance(value.centroid, Point)
