"""Lone surrogates in the model's arguments: found, each an issue at its path.

JSON text may write ``"\\ud800"``: half of a UTF-16 surrogate pair with no other half.
Python reads it into a ``str``, but it is no character: UTF-8 cannot encode it, so the
request an HTTP function sends, and the next vendor SDK request that echoes it, raise
``UnicodeEncodeError``. A repair cannot know which character was meant (replacing it
with U+FFFD would run the method with text the model never wrote), so the call step
refuses such arguments, telling the model where each one is and how to write it; the
model fixes them on its next try. A pair written in full (``"\\ud83d\\ude00"``) is one
character and is read as such.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from llmapp._results import ValidationIssue
from llmapp._text.unicode import encodable, has_surrogates
from llmapp.jsonschema import Path

__all__ = ["MAX_REPORTED", "lone_surrogates", "may_hold_surrogates"]

MAX_REPORTED: Final = 50
"""Most issues reported (the feedback shows as many)."""

_HOW = (
    "half of a UTF-16 surrogate pair without its other half, which is no character: "
    "write the character itself, or both halves of its pair"
)


def may_hold_surrogates(text: str | bytes | bytearray) -> bool:
    """A fast bound: text without ``\\u`` escapes or raw surrogates reads into none."""
    if isinstance(text, (bytes, bytearray)):
        return b"\\u" in text  # strict UTF-8 decoding never yields a surrogate
    return "\\u" in text or (not text.isascii() and has_surrogates(text))


def lone_surrogates(data: Any) -> list[ValidationIssue]:
    """An issue for each string (value or key) of ``data`` holding a lone surrogate.

    Args:
        data: the model's arguments as read (JSON-shaped: dicts, lists, scalars).

    Returns:
        At most ``MAX_REPORTED`` issues, in document order; empty when there is none.
    """
    if not _holds_surrogates(data):  # the common case, without building a path
        return []
    issues: list[ValidationIssue] = []
    # (value, its path, whether its key holds one): a stack, so members go in reversed.
    pending: list[tuple[Any, tuple[str | int, ...], bool]] = [(data, (), False)]
    while pending and len(issues) < MAX_REPORTED:
        value, segments, bad_key = pending.pop()
        if bad_key:
            issues.append(_issue(segments, value, in_key=True))
        elif isinstance(value, str):
            if has_surrogates(value):
                issues.append(_issue(segments, value, in_key=False))
        elif isinstance(value, Mapping):
            for key, member in reversed(list(value.items())):
                odd = isinstance(key, str) and has_surrogates(key)
                pending.append((member, (*segments, key), odd))
        elif isinstance(value, (list, tuple)):
            items = list(enumerate(value))
            pending.extend((item, (*segments, index), False) for index, item in reversed(items))
    return issues[:MAX_REPORTED]


def _holds_surrogates(data: Any) -> bool:
    """Whether any string of ``data`` (key or value) holds a surrogate: one pass, no paths."""
    pending = [data]
    while pending:
        value = pending.pop()
        kind = type(value)
        if kind is str:
            if not value.isascii() and has_surrogates(value):
                return True
        elif kind in _ATOMS:
            continue
        elif kind is dict or isinstance(value, Mapping):
            for key in value:
                if type(key) is str and not key.isascii() and has_surrogates(key):
                    return True
            pending.extend(value.values())
        elif kind is list or isinstance(value, (list, tuple)):
            pending.extend(value)
        elif isinstance(value, str) and has_surrogates(value):
            return True
    return False


_ATOMS = frozenset({int, float, bool, type(None)})


def _issue(segments: tuple[str | int, ...], value: Any, *, in_key: bool) -> ValidationIssue:
    text = str(segments[-1]) if in_key else str(value)
    code = next(ord(char) for char in text if "\ud800" <= char <= "\udfff")
    where = "its key" if in_key else "the text"
    description = f"{where} holds \\u{code:04x}, " + _HOW
    # A key as written cannot stay: "undefined", the expected text of a key to remove.
    expected = "undefined" if in_key else "string"
    # The path is written encodable too: ``["\\ud800"]`` reads back as the same key.
    return ValidationIssue(encodable(str(Path(segments))), expected, value, description)
