"""Text from documents and tool lists: the characters that must not reach a model or a
terminal as they are.

An OpenAPI document or an MCP server is a third party. Its descriptions are shown to the
model and printed in logs and terminals, where control characters (an escape sequence
that clears the screen, a NUL, a carriage return that overwrites a line) and the
bidirectional-formatting characters (U+202E makes ``txet`` read as ``text``: "trojan
source") hide what the text says. ``clean_text`` drops them from descriptions; a name
(a parameter, a property, a function) that holds one is refused instead, since a name
changed silently would no longer be the one the server knows.

Dropped: C0 controls but tab and newline (``\\r\\n`` becomes ``\\n``), DEL and the C1
controls, the bidirectional marks, embeddings, overrides and isolates (U+061C,
U+200E-U+200F, U+202A-U+202E, U+2066-U+2069), and the invisible U+200B (zero-width
space), U+2060-U+2064 and U+FEFF. The zero-width (non-)joiners U+200C and U+200D stay:
Persian and emoji sequences need them.
"""

from __future__ import annotations

import re

__all__ = ["clean_text", "unsafe_character"]

_FORMATTING = "\x7f-\x9f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff"
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f{_FORMATTING}]")
_UNSAFE_IN_NAMES = re.compile(f"[\x00-\x1f{_FORMATTING}]")  # tab and newline too


def clean_text(text: str) -> str:
    """``text`` without control and bidirectional-formatting characters (see above)."""
    if _UNSAFE.search(text) is None:
        return text
    return _UNSAFE.sub("", text.replace("\r\n", "\n"))


def unsafe_character(name: str) -> str | None:
    """The first control (tab and newline included) or bidirectional-formatting
    character of a name (as ``U+202E``), or None."""
    found = _UNSAFE_IN_NAMES.search(name)
    return None if found is None else f"U+{ord(found.group()):04X}"
