"""The class the production tests serve: identity from a token, prompts, resources, worker pids.

Served by ``llmapp mcp tests/mcp/production.py:Accounts`` in subprocesses, and in-process.
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any

from annotated_types import Ge

from llmapp import llm_application
from llmapp.markers import Human


@dataclass
class Card:
    """A payment card, only ever from the server.

    Attributes:
        number: the card's number.
        holder: whose it is.
    """

    number: str
    holder: str


@llm_application
class Accounts:
    """Accounts of the bank's customers.

    Call balance before moving money.
    """

    def balance(self, currency: str, user_id: Annotated[str, Human()]) -> str:
        """The balance of the calling user.

        Args:
            currency: the currency to show it in.
            user_id: who is calling (from the token, never the model).
        """
        return f"{user_id}: 100 {currency}"

    def transfer(self, amount: Annotated[int, Ge(1)], pin: Annotated[str, Human()]) -> str:
        """Move money; the PIN is asked of the user.

        Args:
            amount: how much.
            pin: the user's PIN.
        """
        if pin != "4321-secret":
            raise PermissionError(f"wrong pin {pin}")
        return f"moved {amount}"

    def pay(self, amount: int, card: Annotated[Card, Human()]) -> str:
        """Pay with a card nobody can ask a form for.

        Args:
            amount: how much.
            card: the card.
        """
        return f"paid {amount} with {card.number[-4:]}"

    def pid(self) -> int:
        """The serving process's id."""
        return os.getpid()

    def echo(self, text: str, times: Annotated[int, Ge(1)] = 1) -> str:
        """Echo a text.

        Args:
            text: what to echo.
            times: how many times.
        """
        return text * times

    def summary(self, topic: str, words: Annotated[int, Ge(10)] = 50) -> str:
        """Ask for a summary of a topic.

        @tag prompt

        Args:
            topic: what to summarise.
            words: about how many words.
        """
        return f"Summarise {topic} in about {words} words."

    def statement(self, month: Annotated[int, Ge(1)]) -> dict[str, Any]:
        """The statement of one month.

        @tag resource bank://statements/{month}

        Args:
            month: the month's number.
        """
        return {"month": month, "lines": []}


def hook(function: Any, context: Any) -> dict[str, Any]:
    """The human side from the request: the bearer token's subject, else ``x-user``."""
    import llmapp.mcp

    token = llmapp.mcp.identity(context)
    if token is not None:
        return {"user_id": token.subject}
    request = getattr(context, "request", None)
    if request is not None and function.name == "transfer" and "x-pin" in request.headers:
        return {"pin": request.headers["x-pin"]}
    if request is not None and "x-user" in request.headers:
        return {"user_id": request.headers["x-user"]}
    return {"user_id": "stdio-user"} if function.name == "balance" else {}


@contextlib.contextmanager
def serving(asgi_app: Any) -> Iterator[str]:
    """Run an ASGI app on uvicorn, on 127.0.0.1 in a thread of this process; its base URL."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(asgi_app, host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise AssertionError("uvicorn did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
