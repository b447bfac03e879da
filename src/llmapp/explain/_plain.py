"""A value with nothing to annotate or cut, written as the feedback writes it, by the C encoder.

Most of the arguments a failed call shows have no mistake in them: objects and arrays of a
dozen members or fewer, holding short strings, numbers, booleans and nulls. The renderer
writes those one member at a time; ``plain_text`` writes such a value whole with ``json``'s
C encoder (one encoder per indentation level, its item separator ending in that level's
indentation) and indents the nested containers by splitting the encoded text at its
brackets: work per container, not per member.

It is only used where the text is provably the renderer's: every container a plain
``dict`` (string keys) or ``list``/``tuple`` of at most ``_LONG`` members, nested less than
the renderer's depth bound, fewer members than the line budget left; no string, key or
member line longer than the renderer's cut (a text only grows when encoded, so a line that
short holds no string to cut); no bracket inside a string (counted: the encoded text has
exactly one pair per container), so every bracket split on is a container's; a newline is
never inside an encoded string, so every one is an item separator. Anything else (a
number past the digit limit, a set, a cycle) returns None and the renderer writes it.
"""

from __future__ import annotations

import json.encoder
import re
from typing import Any, Final

__all__ = ["plain_text"]

_BRACKETS: Final = re.compile(r"([\[\]{}])")
_LINES: Final = re.compile(r"[\n\[\]{}]")
_OPENING: Final = frozenset("[{")
_make_encoder = getattr(json.encoder, "c_make_encoder", None)

# Compact JSON but for the item separator, which starts each member on a new line: the
# indentation is added afterwards (``_indent``). No cycle markers: ``_count`` bounds the
# value first.
_ENCODE: Final = (
    None
    if _make_encoder is None
    else _make_encoder(
        None, None, json.encoder.encode_basestring, None, ": ", ",\n", False, False, True
    )
)
_NEWLINE: Final = tuple("\n" + "  " * level for level in range(64))


def plain_text(value: Any, level: int, limits: tuple[int, int, int, int]) -> tuple[str, int] | None:
    """``value`` (a container) as the renderer's lines at ``level``, and its member count.

    ``limits`` is (most members of a container, deepest level, line budget left, longest
    line): past any of them, or where the value holds anything but plain JSON, None.
    """
    if _ENCODE is None:
        return None
    longest_container, deepest, budget, longest = limits
    count = _count(value, level, longest_container, deepest, budget)
    if count is None:
        return None
    members, containers = count
    try:
        text: str = "".join(_ENCODE(value, 0))
    except (ValueError, TypeError, RecursionError):  # past the digit limit; not JSON
        return None
    pieces = _BRACKETS.split(text)
    if len(pieces) != 4 * containers + 1 or max(map(len, _LINES.split(text))) > longest:
        return None  # a bracket inside a string, or a line the renderer would cut
    return _indent(pieces, level), members


def _count(
    value: Any, level: int, longest: int, deepest: int, budget: int
) -> tuple[int, int] | None:
    """(members, containers) of a plain value within the bounds, else None."""
    if not (type(value) is dict or type(value) is list or type(value) is tuple):
        return None
    members = containers = 0
    stack = [(value, level)]
    while stack:
        node, depth = stack.pop()
        kind = type(node)
        size = len(node)
        if size > longest or (size and depth >= deepest):
            return None
        containers += 1
        members += size
        if members >= budget:
            return None
        if kind is dict:
            if not _STRINGS.issuperset(map(type, node)):
                return None
            values = node.values()
        else:
            values = node
        if not _LEAVES.issuperset(map(type, values)):
            for item in values:
                nested = type(item)
                if nested is dict or nested is list or nested is tuple:
                    stack.append((item, depth + 1))
                elif nested not in _LEAVES:
                    return None
    return members, containers


def _indent(pieces: list[str], level: int) -> str:
    """The encoded pieces (text, bracket, text, ...) with each container's members on
    their own lines, indented by their level."""
    out = [pieces[0]]
    depth = level
    position, last = 1, len(pieces) - 1
    while position < last:
        bracket, following = pieces[position], pieces[position + 1]
        if bracket in _OPENING:
            if not following and pieces[position + 2] not in _OPENING:  # an empty container
                out.append(bracket + pieces[position + 2])
                out.append(pieces[position + 3].replace("\n", _NEWLINE[depth]))
                position += 4
                continue
            depth += 1
            out.append(bracket + _NEWLINE[depth])
        else:
            depth -= 1
            out.append(_NEWLINE[depth] + bracket)
        out.append(following.replace("\n", _NEWLINE[depth]))
        position += 2
    return "".join(out)


_STRINGS: Final = frozenset({str})
_LEAVES: Final = frozenset({str, int, float, bool, type(None)})
