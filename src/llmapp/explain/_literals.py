"""The JSON texts the feedback is made of: values shown whole or cut, keys, issue entries.

Each is what ``json.dumps(..., ensure_ascii=False)`` writes, without its per-call cost:
strings by the encoder's own ``encode_basestring``, numbers by their ``repr``, keys and
member heads remembered (a function's calls use the same few names). Each is also
encodable (``llmapp._text.unicode``): a lone surrogate, which only a text can bring, is written
as its escape where the text is written, so the feedback made of them needs no pass over
its whole length to be sent.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Mapping
from typing import Any, Final

from llmapp._limits import cut
from llmapp._results import UNDEFINED, ValidationIssue
from llmapp._text.unicode import encodable

__all__ = [
    "HEAD_ITEMS",
    "MAX_STRING",
    "SHORT_INT",
    "IssueKey",
    "describe",
    "entry_text",
    "head_of",
    "leaf",
    "literal",
    "quoted",
    "remember",
    "string",
    "unplaced",
]

MAX_STRING: Final = 200
_MAX_DESCRIPTION: Final = 300
HEAD_ITEMS: Final = 3
SHORT_INT: Final = 10**18
"""Integers within this bound are written whole by ``leaf``; longer ones by ``literal``."""
_MAX_HEADS: Final = 1024
_MAX_KEPT: Final = MAX_STRING
"""The longest key or path a cache of this package keeps: the model writes them, and a
cache must not hold its longest texts alive."""


def leaf(value: Any) -> str | None:
    """JSON for a string, number, boolean or null that is shown whole, as ``json.dumps``
    writes it; None for anything else (``_Renderer._scalar`` shows it)."""
    kind = type(value)
    if kind is str:
        return string(value) if len(value) <= MAX_STRING else None
    if kind is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    if kind is int:
        return repr(value) if -SHORT_INT < value < SHORT_INT else None
    if kind is float:
        return repr(value) if math.isfinite(value) else None
    return None


def entry_text(issue: ValidationIssue) -> str:
    """``{"path": ..., "expected": ...[, "description": ...]}`` as ``json.dumps`` writes it.

    Written from its strings, not by dumping a dict: the encoder's dict path is most of
    the cost of a mark. Remembered in a plain dict (a hit is one lookup, where an
    ``lru_cache`` of three arguments costs a call): a function's failed calls repeat
    their issues.
    """
    key = (issue._path, issue._expected, issue._description)
    try:
        found = _ENTRIES.get(key)
    except TypeError:  # a text that is no key (an unhashable one): written each time
        return _entry(*key)
    if found is None:
        found = _entry(*key)
        remember(_ENTRIES, key, found)
    return found


IssueKey = tuple[str, str, str | None]
"""An issue's path, expected and description: what its entry and its mark are made of."""
_ENTRIES: dict[IssueKey, str] = {}
_MAX_ENTRIES: Final = 512


def remember(cache: dict[IssueKey, str], key: IssueKey, text: str) -> None:
    """Keep ``text`` under ``key`` in ``cache``, at most ``_MAX_ENTRIES`` texts at once,
    where the key's path is short: a long path is the model's, and a cache must not hold
    its longest texts alive."""
    path = key[0]
    if type(path) is str and len(path) <= _MAX_KEPT:
        if len(cache) >= _MAX_ENTRIES:
            cache.clear()
        cache[key] = text


def _entry(path: str, expected: str, description: str | None) -> str:
    text = f'{{"path": {_text(path)}, "expected": {_text(expected)}'
    if description is not None:
        text += f', "description": {_text(description)}'
    return text + "}"


def _text(text: str) -> str:
    """A text of an issue, cut, as ``json.dumps`` writes it."""
    if type(text) is str:
        return string(cut(text, _MAX_DESCRIPTION))
    return _dumps(cut(text, _MAX_DESCRIPTION))


def literal(value: bool | float | None) -> str:
    """JSON for null, a boolean or a number, as ``json.dumps`` writes it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if type(value) is int:
        return repr(value)  # ValueError past the digit limit, as json.dumps
    return _dumps(value)


def _preview(value: Any, level: int = 0) -> Any:
    """A small copy of a value for the list of unplaced issues: a few members, a few levels."""
    if isinstance(value, str):
        return cut(value, MAX_STRING)
    if isinstance(value, Mapping):
        if level >= 2:
            return "{…}"
        items = list(value.items())
        shown = {cut(str(k), MAX_STRING): _preview(v, level + 1) for k, v in items[:HEAD_ITEMS]}
        if len(items) > HEAD_ITEMS:
            shown["…"] = f"{len(items) - HEAD_ITEMS} more properties"
        return shown
    if isinstance(value, (list, tuple)):
        if level >= 2:
            return "[…]"
        head = [_preview(item, level + 1) for item in value[:HEAD_ITEMS]]
        return head + (
            [f"… {len(value) - HEAD_ITEMS} more items"] if len(value) > HEAD_ITEMS else []
        )
    return value


def unplaced(issue: ValidationIssue) -> str:
    text = entry_text(issue)
    if issue.value is UNDEFINED:
        return text
    try:
        value = json.dumps(_preview(issue.value), ensure_ascii=False, default=describe)
    except (ValueError, TypeError, RecursionError):
        value = _dumps(describe(issue.value))
    return f'{text[:-1]}, "value": {encodable(cut(value, MAX_STRING))}}}'


def _key(key: Any) -> str:
    if type(key) is str:
        return _key_text(key) if len(key) <= _MAX_KEPT else _key_text.__wrapped__(key)
    return string(cut(key if isinstance(key, str) else str(key), MAX_STRING))


@functools.lru_cache(maxsize=1024)
def _key_text(key: str) -> str:
    """A property name as the text shows it: a function's calls use the same few names."""
    return string(cut(key, MAX_STRING))


class _Heads(dict[Any, str]):
    """What a member of an object starts with (``"key": ``) by key, the string keys
    remembered: a function's calls use the same few names, and a hit is one dict lookup."""

    def __missing__(self, key: Any) -> str:
        head = f"{_key(key)}: "
        if type(key) is str and len(key) <= _MAX_KEPT:  # others may equal a string
            # (``1 == True``) yet read otherwise; a long key is not kept alive
            if len(self) >= _MAX_HEADS:
                self.clear()
            self[key] = head
        return head


head_of: Final = _Heads().__getitem__
"""What a member of an object starts with: ``"key": ``."""


def describe(value: Any) -> str:
    """Text for a value JSON cannot show (a set, an object, ...)."""
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ must not break the feedback
        text = f"<{type(value).__name__}>"
    return text[:MAX_STRING]


_ENCODER = json.JSONEncoder(ensure_ascii=False)
quoted: Final = json.encoder.encode_basestring
"""A ``str`` as ``json.dumps(text, ensure_ascii=False)`` writes it, lone surrogates raw:
``string`` is what the feedback writes; its hottest loops call this and do the rest."""


def string(text: str) -> str:
    """A ``str`` as ``json.dumps(text, ensure_ascii=False)`` writes it, without its two
    calls, and encodable: an ASCII text (the usual one, told at once) is not searched."""
    written = quoted(text)
    return written if written.isascii() else encodable(written)


def _dumps(value: Any) -> str:
    # ``json.dumps`` builds a new encoder for every call with an option, and feedback
    # writes several values: one shared encoder is built once.
    return encodable(_ENCODER.encode(value))
