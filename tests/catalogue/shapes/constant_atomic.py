"""ConstantAtomicSimple: fields that can hold only one value (typia ``ConstantAtomicSimple``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from llmapp import llm_application


@dataclass
class Constants:
    """Each field has exactly one allowed value.

    Attributes:
        off: Always false.
        on: Always true.
    """

    off: Literal[False]
    on: Literal[True]
    two: Literal[2]
    three: Literal["three"]
    nothing: None


@llm_application
class ConstantAtomicApplication:
    """Constants through the three catalogue methods."""

    def insert(self, first: Constants) -> None:
        """Store one set of constants.

        Args:
            first: The constants to store.
        """

    def reduce(self, first: Constants, second: Constants | None) -> Constants:
        """Keep the second set when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Constants | None, second: Constants | None, third: Constants | None = None
    ) -> Constants | None:
        """The first set given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = ConstantAtomicApplication

SAMPLE = {"off": False, "on": True, "two": 2, "three": "three", "nothing": None}

SPOILERS = [
    (("off",), True, [("$input.off", "false")]),
    (("on",), 1, [("$input.on", "true")]),
    (("two",), 2.5, [("$input.two", "2")]),
    (("three",), "Three", [("$input.three", '"three"')]),
    (("nothing",), 0, [("$input.nothing", "null")]),
]
