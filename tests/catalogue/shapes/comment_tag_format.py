"""CommentTagFormat: string formats, from markers and from Python types (typia ``CommentTagFormat``)."""

from __future__ import annotations

import ipaddress
import uuid
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Annotated

from llmapp import llm_application
from llmapp.markers import URL, Email, Format

DATE_TIME = '(string & Format<"date-time"> | string & Format<"date-time-local">)'


@dataclass
class Formats:
    """Strings with a JSON Schema format.

    Attributes:
        email: An e-mail address.
        created_at: When it was made.
    """

    email: Email
    url: URL
    hostname: Annotated[str, Format("hostname")]
    password: Annotated[str, Format("password")]
    uuid: uuid.UUID
    ipv4: ipaddress.IPv4Address
    ipv6: ipaddress.IPv6Address
    created_at: datetime
    day: date
    hour: time
    duration: timedelta
    photo: bytes


@llm_application
class CommentTagFormatApplication:
    """Formatted strings through the three catalogue methods."""

    def insert(self, first: Formats) -> None:
        """Store one set of formatted strings.

        Args:
            first: The strings to store.
        """

    def reduce(self, first: Formats, second: Formats | None) -> Formats:
        """Keep the second set when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Formats | None, second: Formats | None, third: Formats | None = None
    ) -> Formats | None:
        """The first set given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = CommentTagFormatApplication

SAMPLE = {
    "email": "someone@example.com",
    "url": "https://example.com/a?b=c",
    "hostname": "example.com",
    "password": "hunter2",
    "uuid": "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
    "ipv4": "192.168.0.1",
    "ipv6": "::1",
    "created_at": "2024-05-06T07:08:09+02:00",
    "day": "2024-05-06",
    "hour": "07:08:09+00:00",
    "duration": "P1DT2H",
    "photo": "aGVsbG8=",
}

SPOILERS = [
    (("email",), "someone", [("$input.email", 'string & Format<"email">')]),
    (("url",), "not a url", [("$input.url", 'string & Format<"uri">')]),
    (("uuid",), "3f2504e0", [("$input.uuid", 'string & Format<"uuid">')]),
    (("ipv4",), "1.2.3", [("$input.ipv4", 'string & Format<"ipv4">')]),
    (("ipv6",), "1.2.3.4", [("$input.ipv6", 'string & Format<"ipv6">')]),
    (("created_at",), "2024-05-06", [("$input.created_at", DATE_TIME)]),
    (("day",), "06/05/2024", [("$input.day", 'string & Format<"date">')]),
    (("duration",), "2 hours", [("$input.duration", 'string & Format<"duration">')]),
    (("hostname",), "-bad-", [("$input.hostname", 'string & Format<"hostname">')]),
]


def check_python(value: Formats) -> None:
    """The sample as the method receives it: real Python values, not JSON."""
    assert value.uuid == uuid.UUID("3f2504e0-4f89-11d3-9a0c-0305e82c3301")
    assert value.ipv4 == ipaddress.IPv4Address("192.168.0.1")
    assert value.ipv6 == ipaddress.IPv6Address("::1")
    assert value.created_at.utcoffset() == timedelta(hours=2)
    assert value.day == date(2024, 5, 6)
    assert value.hour.isoformat() == "07:08:09+00:00"
    assert value.duration == timedelta(days=1, hours=2)
    assert value.photo == b"hello"
