"""Issue paths in typia's syntax: ``$input.items[3]["content-type"]``.

The one writer (``step``, ``str(path)``) and the one reader (``Path.parse``) of the
syntax every issue, conversion error and feedback text uses.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Union

__all__ = ["REMEMBERED_PATH", "ROOT", "Path", "Segment", "parse_path", "step"]

ROOT = "$input"
"""The name a path starts with: the whole argument object."""

Segment = Union[str, int]  # noqa: UP007 (a runtime alias on Python 3.10)

_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*\Z")
_DECODER = json.JSONDecoder()


def step(segment: object) -> str:
    """One step of a path: ``.name``, ``["content-type"]``, ``[3]``.

    A key that is not an identifier is written as a JSON string; a value that is
    neither a string nor an int (a key of a Python dict) as its ``repr``.
    """
    if isinstance(segment, str):
        # An ASCII Python identifier is one of ``_IDENTIFIER``'s, told by two methods for
        # a fraction of a match's cost; the rest (a ``$``, a subclass's) by the match.
        if type(segment) is str and segment.isidentifier() and segment.isascii():
            return "." + segment
        if _IDENTIFIER.match(segment):
            return "." + segment
        return "[" + json.dumps(segment, ensure_ascii=False) + "]"
    if type(segment) is int:
        return "[" + str(segment) + "]"
    return "[" + _safe_repr(segment) + "]"


def _safe_repr(value: object) -> str:
    try:
        return repr(value)
    except Exception:
        return "<" + type(value).__name__ + ">"


class Path(tuple[Segment, ...]):
    """A location in the arguments: string keys and integer indexes, from the root.

    Example:
        >>> str(Path(("items", 3, "content-type")))
        '$input.items[3]["content-type"]'
        >>> Path.parse('$input.items[3]["content-type"]')
        Path(('items', 3, 'content-type'))
    """

    __slots__ = ()

    def key(self, name: str) -> Path:
        """The path of a property of the value here."""
        return Path((*self, name))

    def item(self, position: int) -> Path:
        """The path of an item of the array here."""
        return Path((*self, position))

    def __str__(self) -> str:
        return ROOT + "".join(step(segment) for segment in self)

    def __repr__(self) -> str:
        return f"Path({tuple(self)!r})"

    @classmethod
    def parse(cls, text: str, root: str = ROOT) -> Path | None:
        """Read a path written by ``str(path)``; None when the text is not one."""
        if not text.startswith(root):
            return None
        segments: list[Segment] = []
        position, end = len(root), len(text)
        while position < end:
            char = text[position]
            if char == ".":
                stop = position + 1
                while stop < end and text[stop] not in ".[":
                    stop += 1
                if stop == position + 1:
                    return None
                segments.append(text[position + 1 : stop])
                position = stop
            elif char == "[" and text.startswith('"', position + 1):
                try:
                    key, stop = _DECODER.raw_decode(text, position + 1)
                except ValueError:
                    return None
                if not isinstance(key, str) or not text.startswith("]", stop):
                    return None
                segments.append(key)
                position = stop + 1
            elif char == "[":
                stop = text.find("]", position)
                digits = text[position + 1 : stop] if stop != -1 else ""
                if not (digits.isascii() and digits.isdigit()):
                    return None
                segments.append(int(digits))
                position = stop + 1
            else:
                return None
        return cls(segments)


REMEMBERED_PATH = 512
"""The longest path a cache keeps (its text, or the characters of its keys): paths name
the model's keys, and a cache must not keep its longest texts alive."""
_parse_remembered = functools.lru_cache(maxsize=1024)(Path.parse)


def parse_path(text: str) -> Path | None:
    """``Path.parse``, remembered for short texts: the wrong calls of a function name the
    same few paths again (the feedback and the repair of a refused call both read every
    issue's path)."""
    return _parse_remembered(text) if len(text) <= REMEMBERED_PATH else Path.parse(text)
