"""Text for arguments that could not be read, or were cut off, so nothing was called."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Final

from llmapp._limits import cut
from llmapp._text.unicode import encodable

__all__ = ["unreadable"]

_MAX_TEXT: Final = 300
_QUOTED: Final = 80


def unreadable(
    reason: str,
    repairs: Sequence[str] = (),
    *,
    truncated: bool = False,
    partial: bool = False,
    text: str = "",
) -> str:
    """Tell the model its arguments could not be read (cut off, or read only in part), and where.

    Args:
        reason: why, with where (``parse``'s ``error``, ``truncated`` or ``unread``).
        repairs: what the lenient reader repaired on the way, listed for the model.
        truncated: the text ended inside a value: the model's output was cut off.
        partial: a value was read, but it does not hold all the text as written (text
            after it, a bracket closed by another kind...): ``reason`` says what and where.
        text: the model's text, of which the start (and, when cut off, the end) is quoted.

    Example:
        >>> unreadable("the text ends inside a string that was never closed at $input.body",
        ...            truncated=True).splitlines()[0]
        'Your arguments were cut off before they were complete, so the function was not called.'
    """
    if truncated:
        first = (
            "Your arguments were cut off before they were complete, so the function was not called."
        )
        advice = "Send the whole JSON object again, shorter if you can."
    elif partial:
        first = (
            "Your arguments could be read only in part, so the function was not called: "
            "part of what you sent would have been dropped or changed."
        )
        advice = "Send the arguments again as one JSON object, with nothing before or after it."
    else:
        first = "Your arguments could not be read, so the function was not called."
        advice = "Send the arguments again as one JSON object."
    lines = [first, f"Where: {cut(reason, _MAX_TEXT)}."]
    if text:
        lines.append(f"It begins: {cut(text, _QUOTED, quote=_quote)}")
        if truncated and len(text) > _QUOTED:
            lines.append(f"It ends: …{_quote(text[-_QUOTED:])}")
    if repairs:
        lines.append(
            "Repairs made while reading: "
            + "; ".join(cut(r, _MAX_TEXT) for r in repairs[:10])
            + "."
        )
    lines.append(advice)
    return encodable("\n".join(lines))


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)
