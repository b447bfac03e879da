"""``paused_collector()``: the cyclic garbage collector off while a build runs.

A build allocates many objects that live as long as the application and makes almost
no garbage cycles. The collector's passes are triggered by
allocation counts and each older-generation pass walks every object alive, so with the
collector on, a large class paid it over and over on what it had already built: about
half of a 5,000-method build. Paused, the objects are still collected, at the first
allocation after the pause, once.

Nesting and threads share one count: the collector is turned back on when the last
build ends, and only if it was on when the first began (a program that disabled it
keeps it disabled).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_collector"]


class _Pause:
    __slots__ = ("depth", "enabled", "lock")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.depth = 0
        self.enabled = False


_PAUSE = _Pause()


@contextmanager
def paused_collector() -> Iterator[None]:
    """The garbage collector disabled inside the block, restored as it was after it."""
    pause = _PAUSE
    with pause.lock:
        if pause.depth == 0:
            pause.enabled = gc.isenabled()
            gc.disable()
        pause.depth += 1
    try:
        yield
    finally:
        with pause.lock:
            pause.depth -= 1
            if pause.depth == 0 and pause.enabled:
                gc.enable()
