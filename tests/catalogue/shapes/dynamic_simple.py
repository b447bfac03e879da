"""DynamicSimple: an object with free keys, ``dict[str, float]`` (typia ``DynamicSimple``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from llmapp import llm_application


@dataclass
class Dynamic:
    """Measurements under names the caller chooses.

    Attributes:
        value: Reading per sensor name.
    """

    value: dict[str, float]
    labels: Mapping[str, str]
    extra: dict[str, Any]


@llm_application
class DynamicSimpleApplication:
    """Objects with free keys through the three catalogue methods."""

    def insert(self, first: Dynamic) -> None:
        """Store one set of readings.

        Args:
            first: The readings to store.
        """

    def reduce(self, first: Dynamic, second: Dynamic | None) -> Dynamic:
        """Keep the second set when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Dynamic | None, second: Dynamic | None, third: Dynamic | None = None
    ) -> Dynamic | None:
        """The first set given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = DynamicSimpleApplication

SAMPLE = {
    "value": {"kitchen": 21.5, "content-type": 1, "0": -3},
    "labels": {"kitchen": "Kitchen"},
    "extra": {"anything": [1, {"goes": None}]},
}

ALSO_VALID = [{"value": {}, "labels": {}, "extra": {}}]

SPOILERS = [
    (("value", "content-type"), "1", [('$input.value["content-type"]', "number")]),
    (("value", "kitchen"), None, [("$input.value.kitchen", "number")]),
    (("labels", "0"), 0, [('$input.labels["0"]', "string")]),
    (("value",), [], [("$input.value", "Record<string, number>")]),
]
