"""A class for the toolsets to call: it records what each method received, as Python values.

``WRONG`` has three mistakes (a number as words, a missing key, an extra key); ``RIGHT`` is
the corrected call. ``sign`` has a human-side parameter that must never reach a framework.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Any

import pytest
from annotated_types import Ge, Le

from llmapp import application, llm_application
from llmapp.markers import Human

WRONG = {"room": "blue", "seats": "four", "extra": 1}
"""Three mistakes: ``seats`` is not an integer, ``day`` is missing, ``extra`` is unknown."""
RIGHT = {"room": "blue", "seats": 4, "day": "2026-12-24"}


@dataclass
class Booking:
    """A booked room.

    Attributes:
        room: The room's name.
        seats: How many seats.
    """

    room: str
    seats: int


@llm_application
class Desk:
    """Books meeting rooms for the office."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, tuple[Any, ...]]] = []

    def book(self, room: str, seats: Annotated[int, Ge(1), Le(10)], day: date) -> Booking:
        """Book a room.

        Args:
            room: The room's name.
            seats: How many seats.
            day: The day of the meeting.
        """
        self.seen.append(("book", (room, seats, day)))
        return Booking(room, seats)

    def sign(self, booking: str, signature: Annotated[str, Human()]) -> str:
        """Sign a booking; the signature comes from the user.

        Args:
            booking: The booked room.
            signature: The user's signature.
        """
        self.seen.append(("sign", (booking, signature)))
        return f"{booking} signed"

    def cancel(self, room: str, reason: str = "") -> str:
        """Cancel a room's bookings (always fails: the room is locked).

        Args:
            room: The room's name.
            reason: Why.
        """
        raise PermissionError(f"{room} is locked")


SECRET = "s3cr3t-signature"


@pytest.fixture
def desk() -> Desk:
    return Desk()


@pytest.fixture
def app() -> Any:
    return application(Desk)


def text(arguments: dict[str, Any]) -> str:
    return json.dumps(arguments)
