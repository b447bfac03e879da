"""ConstantEnumeration: Enum, IntEnum and Literal choices (typia ``ConstantEnumeration``, ``TypeTagLiteral``)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Literal

from llmapp import llm_application


class Priority(enum.Enum):
    """How soon it must be done."""

    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


class Level(enum.IntEnum):
    ONE = 1
    TWO = 2
    FOUR = 4


@dataclass
class Choices:
    """Values picked from fixed sets.

    Attributes:
        priority: The task's priority.
        mode: How to run it.
        mixed: A literal of several JSON types.
    """

    priority: Priority
    level: Level
    mode: Literal["fast", "slow"]
    mixed: Literal[1, "one", True, None]
    levels: list[Level]


@llm_application
class ConstantEnumerationApplication:
    """Choices through the three catalogue methods."""

    def insert(self, first: Choices) -> None:
        """Store one set of choices.

        Args:
            first: The choices to store.
        """

    def reduce(self, first: Choices, second: Choices | None) -> Choices:
        """Keep the second set when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Choices | None, second: Choices | None, third: Choices | None = None
    ) -> Choices | None:
        """The first set given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = ConstantEnumerationApplication

SAMPLE = {"priority": "high", "level": 2, "mode": "slow", "mixed": "one", "levels": [1, 4]}

ALSO_VALID = [
    {**SAMPLE, "mixed": 1},
    {**SAMPLE, "mixed": True},
    {**SAMPLE, "mixed": None},
]

SPOILERS = [
    (("priority",), "HIGH", [("$input.priority", '("low" | "normal" | "high")')]),
    (("level",), 3, [("$input.level", "(1 (ONE) | 2 (TWO) | 4 (FOUR))")]),
    (("mode",), "medium", [("$input.mode", '("fast" | "slow")')]),
    # An integer meets the integer branch, so only that branch's value is named.
    (("mixed",), 2, [("$input.mixed", '(1 | "one" | true | null)')]),
    (("mixed",), 1.5, [("$input.mixed", '(1 | "one" | true | null)')]),
    (("levels", 1), "4", [("$input.levels[1]", "(1 (ONE) | 2 (TWO) | 4 (FOUR))")]),
]


def check_python(value: Choices) -> None:
    """The sample as the method receives it: Enum members, not their values."""
    assert value.priority is Priority.HIGH
    assert value.level is Level.TWO
    assert value.levels == [Level.ONE, Level.FOUR]
    assert all(isinstance(level, Level) for level in value.levels)
