"""Text that any UTF-8 writer accepts: lone surrogates written as their JSON escapes.

A lone surrogate (``"\\ud800"`` in JSON text) is a valid Python ``str`` but no UTF-8 text:
``json.dumps(..., ensure_ascii=False)`` keeps it raw, and the next vendor SDK request
that carries it raises ``UnicodeEncodeError``. ``encodable`` writes each one as the six
characters of its escape (``\\ud800``), which is what a JSON string holding it means, so
text meant for the model can always be sent.
"""

from __future__ import annotations

import re
from typing import Final

__all__ = ["encodable", "has_surrogates"]

_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def has_surrogates(text: str) -> bool:
    """Whether ``text`` holds a surrogate code point (an ASCII text never does).

    Asked of UTF-8's encoder, which refuses surrogates and nothing else: it runs through
    a text faster than a search for them does.
    """
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def encodable(text: str) -> str:
    """``text`` with every surrogate code point written as its escape (``\\ud800``).

    Example:
        >>> encodable("a\\ud800b")
        'a\\\\ud800b'
    """
    if not has_surrogates(text):
        return text
    return _SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
