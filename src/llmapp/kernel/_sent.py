"""Which parameters the model sent, for a hook that supplies the human side of its call.

A human hook (the MCP server's ``human=``, a toolset's ``human=`` callable) is called
before the model's arguments are checked, with the door's own context, not with the
arguments: it must never act on values the model wrote (they are the model's to choose,
and a hook that trusted them could be steered). What it may need is which parameters the
model sent at all: whether to look a saved card up, or to ask the user for a value only a
given parameter needs. ``sent_parameters()`` answers that inside the hook, names only.

Each door sets it around its call of the hook (``sending``); outside a hook it is empty.
The same in a sync or an async hook: a context variable follows the call into both.

Example::

    def hook(function, context):
        if "card" in llmapp.sent_parameters():
            return {"card": {"number": vault.card_of(context)}}
        return {}
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Final

from llmapp import repair

__all__ = ["sending", "sent_parameters"]

_NONE: Final = frozenset[str]()
_SENT: Final[ContextVar[frozenset[str]]] = ContextVar("llmapp_sent_parameters", default=_NONE)


def sent_parameters() -> frozenset[str]:
    """Inside a human hook: the names of the top-level parameters the model sent in the
    call whose human side is being supplied (never their values); empty elsewhere."""
    return _SENT.get()


@contextmanager
def sending(arguments: Any) -> Iterator[None]:
    """``sent_parameters()`` answers the names of ``arguments`` (the model's text, read
    within ``repair.MAX_LENGTH``, or a mapping) while the block runs."""
    token = _SENT.set(_names(arguments))
    try:
        yield
    finally:
        _SENT.reset(token)


def _names(arguments: Any) -> frozenset[str]:
    if isinstance(arguments, (str, bytes, bytearray)):
        arguments = repair.read_text(arguments)[0]  # what is unreadable names nothing
    if isinstance(arguments, Mapping):
        return frozenset(key for key in arguments if isinstance(key, str))
    return _NONE
