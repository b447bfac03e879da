"""A failed validation -> text that shows the model its own mistakes.

``feedback(failure)`` marks each mistake in the model's own arguments; ``unreadable(...)``
says that its text could not be read, or was cut off, and where. Loaded on first use
(PEP 562), like every stage the execution plan imports.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from llmapp.explain._text import feedback
    from llmapp.explain._unread import unreadable

_LAZY = {"feedback": "._text", "unreadable": "._unread"}


def __getattr__(name: str) -> Any:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = ["feedback", "unreadable"]
