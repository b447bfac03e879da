"""AtomicUnion: a value that is one of several scalar types (typia ``AtomicUnion``, ``TypeTagAtomicUnion``)."""

from __future__ import annotations

from typing import Union

from llmapp import llm_application

Atomic = Union[str, int, float, bool]  # noqa: UP007


@llm_application
class AtomicUnionApplication:
    """Scalars of several types through the three catalogue methods."""

    def insert(self, first: Atomic) -> None:
        """Store one scalar.

        Args:
            first: The scalar to store.
        """

    def reduce(self, first: Atomic, second: Atomic | None) -> Atomic:
        """Keep the second scalar when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Atomic | None, second: Atomic | None, third: Atomic | None = None
    ) -> Atomic | None:
        """The first scalar given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = AtomicUnionApplication

SAMPLE = "three"

ALSO_VALID = [3, 3.5, True, False, ""]

SPOILERS = [
    ((), [], [("$input", "(string | integer | number | boolean)")]),
    ((), {"value": 1}, [("$input", "(string | integer | number | boolean)")]),
]
