"""``async_items``: one ``async for`` over an iterable of either kind, sync or async.

The stream readers take an SDK's stream as the SDK gives it: an async iterator from the
async clients, a plain iterator from the sync ones and from recorded events."""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Iterable
from typing import Any

__all__ = ["async_items"]


async def async_items(events: AsyncIterable[Any] | Iterable[Any]) -> AsyncIterator[Any]:
    """The items of ``events``, awaited in turn when it is an async iterable."""
    if isinstance(events, AsyncIterable):
        async for event in events:
            yield event
    else:
        for event in events:
            yield event
