"""The garbage collector paused while an application is built (a class, a document).

A build allocates many objects that live on (schemas, checkers) and few cycles; with the
collector running, each collection walks everything built so far, so a large build pays
for its size once per collection (about half of a large class's build). Paused, the
objects are still collected, at the first allocation after the pause, once.
``paused_collection`` turns it off for the build and restores the state it found when the
outermost build ends: nested and concurrent builds share one pause, and a collector the
caller had disabled stays disabled.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_collection"]

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def paused_collection() -> Iterator[None]:
    """Run the body with the garbage collector off; restore it when the last one leaves."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
