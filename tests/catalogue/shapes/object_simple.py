"""ObjectSimple: a box of four 3D points, plain nested objects (typia ``ObjectSimple``)."""

from __future__ import annotations

from dataclasses import dataclass

from llmapp import llm_application


@dataclass
class Point3D:
    """A point in space.

    Attributes:
        x: Distance along the x axis.
        y: Distance along the y axis.
        z: Distance along the z axis.
    """

    x: float
    y: float
    z: float


@dataclass
class Box3D:
    """A box placed in a 3D scene.

    Attributes:
        scale: Size along each axis.
        position: Where its centre is.
    """

    scale: Point3D
    position: Point3D
    rotate: Point3D
    pivot: Point3D


@llm_application
class ObjectSimpleApplication:
    """Boxes through the three catalogue methods."""

    def __init__(self) -> None:
        self.stored: list[Box3D] = []

    def insert(self, first: Box3D) -> None:
        """Store one box.

        Args:
            first: The box to store.
        """
        self.stored.append(first)

    def reduce(self, first: Box3D, second: Box3D | None) -> Box3D:
        """Keep the second box when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Box3D | None, second: Box3D | None, third: Box3D | None = None
    ) -> Box3D | None:
        """The first box given, if any."""
        return next((box for box in (first, second, third) if box is not None), None)


APPLICATION = ObjectSimpleApplication


def _point(x: float) -> dict[str, float]:
    return {"x": x, "y": x + 1, "z": x + 2.5}


SAMPLE = {"scale": _point(1), "position": _point(2), "rotate": _point(3), "pivot": _point(-4)}

SPOILERS = [
    (("scale", "x"), "number", [("$input.scale.x", "number")]),
    (
        ("position",),
        {},
        [
            ("$input.position.x", "number"),
            ("$input.position.y", "number"),
            ("$input.position.z", "number"),
        ],
    ),
    (("rotate",), ..., [("$input.rotate", "Point3D")]),
    (("pivot",), None, [("$input.pivot", "Point3D")]),
    (("pivot", "w"), 1, [("$input.pivot.w", "undefined")]),
]
