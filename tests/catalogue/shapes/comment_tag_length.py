"""CommentTagLength: string lengths from ``Annotated`` (typia ``CommentTagLength``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from annotated_types import Len, MaxLen, MinLen

from llmapp import llm_application


@dataclass
class Lengths:
    """Strings of bounded length.

    Attributes:
        fixed: Exactly five characters.
    """

    fixed: Annotated[str, Len(5, 5)]
    minimum: Annotated[str, MinLen(3)]
    maximum: Annotated[str, MaxLen(7)]
    minimum_and_maximum: Annotated[str, MinLen(3), MaxLen(7)]
    equal: Annotated[str, Len(10, 19)]


@llm_application
class CommentTagLengthApplication:
    """Strings of bounded length through the three catalogue methods."""

    def insert(self, first: Lengths) -> None:
        """Store one set of strings.

        Args:
            first: The strings to store.
        """

    def reduce(self, first: Lengths, second: Lengths | None) -> Lengths:
        """Keep the second set when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Lengths | None, second: Lengths | None, third: Lengths | None = None
    ) -> Lengths | None:
        """The first set given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = CommentTagLengthApplication

SAMPLE = {
    "fixed": "abcde",
    "minimum": "abc",
    "maximum": "",
    "minimum_and_maximum": "abcdefg",
    "equal": "0123456789",
}

ALSO_VALID = [{**SAMPLE, "fixed": "ñöçàé", "equal": "x" * 19}]

SPOILERS = [
    (("fixed",), "abcd", [("$input.fixed", "string & MinLength<5> & MaxLength<5>")]),
    (("fixed",), "abcdef", [("$input.fixed", "string & MinLength<5> & MaxLength<5>")]),
    (("minimum",), "ab", [("$input.minimum", "string & MinLength<3>")]),
    (("maximum",), "abcdefgh", [("$input.maximum", "string & MaxLength<7>")]),
    (
        ("minimum_and_maximum",),
        "ab",
        [("$input.minimum_and_maximum", "string & MinLength<3> & MaxLength<7>")],
    ),
    (("equal",), "x" * 20, [("$input.equal", "string & MinLength<10> & MaxLength<19>")]),
]
