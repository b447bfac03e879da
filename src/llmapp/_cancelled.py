"""Telling a call's own ``CancelledError`` from the cancellation of the task that runs it.

An async method (or an HTTP client, an MCP session) may await a future its library
cancelled underneath it: a closed pool, a request the client gave up on. The
``CancelledError`` that brings is the call's failure, to answer like any other error; a
cancellation of the task running the call (a timeout, a caller that gave up, a batch
cancelled) must propagate. The task's own count of cancellation requests tells them apart.
A leaf module, so every door and every sink that awaits a call shares it.
"""

from __future__ import annotations

import sys

__all__ = ["cancellation", "own_cancellation"]


def cancellation(error: BaseException) -> bool:
    """Whether ``error`` is a ``CancelledError`` (none can exist before asyncio is loaded)."""
    asyncio = sys.modules.get("asyncio")
    return asyncio is not None and isinstance(error, asyncio.CancelledError)


def own_cancellation(error: BaseException) -> bool:
    """Whether ``error``, caught in the current task, is a ``CancelledError`` nobody asked
    this task for: the awaited code's own failure, not a cancellation to propagate.

    Python 3.10 keeps no count of the requests (``Task.cancelling``): there every
    ``CancelledError`` is taken as a real cancellation, as before.
    """
    import asyncio  # only an async caller gets here, and it has asyncio loaded

    if not isinstance(error, asyncio.CancelledError):
        return False
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no running loop
        return False
    cancelling = getattr(task, "cancelling", None)
    return cancelling is not None and cancelling() == 0
