"""The class the MCP tests serve: sync, async, slow, raising and human-side methods.

Served in a subprocess by ``python -m llmapp mcp tests/mcp/served.py:Desk`` (stdio and
streamable HTTP), and in-process by the other tests.
"""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass
from typing import Annotated, Literal

from annotated_types import Ge, Le, MinLen

from llmapp import llm_application
from llmapp.markers import Human


@dataclass
class Order:
    """An order the desk placed.

    Attributes:
        number: the order's number.
        sku: what was ordered.
        quantity: how many.
        speed: how fast it ships.
    """

    number: int
    sku: str
    quantity: int
    speed: Literal["standard", "express"]


@dataclass
class Span:
    """When a call ran, on the server's monotonic clock.

    Attributes:
        start: when it started.
        end: when it ended.
    """

    start: float
    end: float


@llm_application
class Desk:
    """An order desk."""

    def __init__(self) -> None:
        self.orders: list[Order] = []
        self._lock = threading.Lock()

    def place_order(
        self,
        sku: Annotated[str, MinLen(3)],
        quantity: Annotated[int, Ge(1), Le(10)],
        speed: Literal["standard", "express"] = "standard",
    ) -> Order:
        """Place an order.

        @tag additive

        Args:
            sku: the product's stock-keeping unit.
            quantity: how many to order.
            speed: how fast it ships.
        """
        with self._lock:
            order = Order(len(self.orders) + 1, sku, quantity, speed)
            self.orders.append(order)
        return order

    def count(self) -> int:
        """How many orders were placed so far.

        @tag readOnly
        @tag idempotent
        """
        return len(self.orders)

    def explode(self, reason: str) -> str:
        """Fail on purpose.

        Args:
            reason: the message of the error.
        """
        raise ValueError(reason)

    async def shout(self, text: str) -> str:
        """Answer in capitals, from a coroutine.

        Args:
            text: what to shout.
        """
        await asyncio.sleep(0)
        return text.upper()

    def nap(self, seconds: Annotated[float, Ge(0), Le(1)] = 0.2) -> Span:
        """Sleep, blocking the thread, and say when.

        Args:
            seconds: how long to sleep.
        """
        start = time.monotonic()
        time.sleep(seconds)
        return Span(start, time.monotonic())

    def whoami(self, greeting: str, user: Annotated[str, Human()]) -> str:
        """Greet the user the server says is calling.

        Args:
            greeting: how to greet.
            user: who is calling (from the server, never the model).
        """
        return f"{greeting}, {user}"


def busy_desk() -> Desk:
    """A desk that already took three orders (``llmapp mcp ... --factory busy_desk``)."""
    desk = Desk()
    for _ in range(3):
        desk.place_order("SKU-0", 1)
    return desk
