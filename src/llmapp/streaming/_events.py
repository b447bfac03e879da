"""What the vendor helpers yield per tool call: its name, its definite mistakes, its result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from llmapp._results import ValidationIssue
from llmapp.kernel import CallResult

__all__ = ["CallFinished", "CallMistake", "CallStarted", "StreamEvent"]


@dataclass(frozen=True, slots=True)
class CallStarted:
    """A tool call began: its name is known (``index``: its place in the response)."""

    index: int
    id: str | None
    name: str


@dataclass(frozen=True, slots=True)
class CallMistake:
    """Mistakes in a call's arguments became definite while the model was writing them.

    Attributes:
        issues: the mistakes that became definite with the last piece of text.
        feedback: text for the model if the caller stops the stream here: its arguments
            as read so far, every mistake seen marked, and how much was read.
    """

    index: int
    id: str | None
    name: str
    issues: list[ValidationIssue]
    feedback: str


@dataclass(frozen=True, slots=True)
class CallFinished:
    """A call's arguments ended: ``result`` is the call's answer (it ran only when its
    arguments were whole and right; a call cut by the token limit never runs)."""

    index: int
    id: str | None
    name: str
    result: CallResult
    cut: bool = False


StreamEvent = Union[CallStarted, CallMistake, CallFinished]  # noqa: UP007 (Python 3.10)
