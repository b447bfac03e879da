"""A failed validation -> text that shows the model its own mistakes.

``feedback(failure)`` marks each mistake in the model's own arguments; ``unreadable(...)``
says that its text could not be read, or was cut off, and where. Loaded on first use
(PEP 562), like every stage the execution plan imports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmapp._lazy import lazy_names as _lazy_names

if TYPE_CHECKING:
    from llmapp.explain._text import feedback
    from llmapp.explain._unread import unreadable

_LAZY = {"feedback": "._text", "unreadable": "._unread"}

if not TYPE_CHECKING:  # a misspelled name stays an error for type checkers
    __getattr__, __dir__ = _lazy_names(__name__, _LAZY)


__all__ = ["feedback", "unreadable"]
