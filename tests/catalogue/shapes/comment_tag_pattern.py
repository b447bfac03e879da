"""CommentTagPattern: strings that must match a regular expression (typia ``CommentTagPattern``)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated

from llmapp import llm_application
from llmapp.markers import Pattern

UUID_PATTERN = (
    r"^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-4[0-9A-Fa-f]{3}-[89ABab][0-9A-Fa-f]{3}-[0-9A-Fa-f]{12}$"
)
EMAIL_PATTERN = r"^[a-z0-9._%+-]+@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$"
IPV4_PATTERN = (
    r"^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)$"
)


@dataclass
class Patterns:
    """Strings checked by regular expressions.

    Attributes:
        uuid: A version-4 UUID.
        code: Three capitals anywhere in the text (the pattern is not anchored).
    """

    uuid: Annotated[str, Pattern(UUID_PATTERN)]
    email: Annotated[str, Pattern(EMAIL_PATTERN)]
    ipv4: Annotated[str, Pattern(IPV4_PATTERN)]
    code: Annotated[str, Pattern("[A-Z]{3}")]


@llm_application
class CommentTagPatternApplication:
    """Patterned strings through the three catalogue methods."""

    def insert(self, first: Patterns) -> None:
        """Store one set of patterned strings.

        Args:
            first: The strings to store.
        """

    def reduce(self, first: Patterns, second: Patterns | None) -> Patterns:
        """Keep the second set when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Patterns | None, second: Patterns | None, third: Patterns | None = None
    ) -> Patterns | None:
        """The first set given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = CommentTagPatternApplication

SAMPLE = {
    "uuid": "3f2504e0-4f89-41d3-9a0c-0305e82c3301",
    "email": "samchon.github@example.com",
    "ipv4": "127.0.0.1",
    "code": "order ABC-1",
}


def _expected(pattern: str) -> str:
    return f"string & Pattern<{json.dumps(pattern)}>"  # the pattern as a JSON string literal


SPOILERS = [
    (("uuid",), "invalid uuid", [("$input.uuid", _expected(UUID_PATTERN))]),
    (("email",), "invalid email", [("$input.email", _expected(EMAIL_PATTERN))]),
    (("ipv4",), "256.0.0.1", [("$input.ipv4", _expected(IPV4_PATTERN))]),
    (("code",), "abc", [("$input.code", 'string & Pattern<"[A-Z]{3}">')]),
]
