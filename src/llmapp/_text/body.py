"""How a response body is written into a message: JSON, the text, or bytes described.

A leaf module: the HTTP door's answers and ``HttpError``'s message both use it.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["shown"]


def shown(body: Any, content_type: str) -> str:
    """A body as text for a message: JSON, the text itself, or a description of bytes."""
    if body is None:
        return ""
    if isinstance(body, (bytes, bytearray)):
        kind = content_type.split(";", 1)[0].strip() or "binary data"
        return f"({len(body):,} bytes of {kind}, not shown)"
    if isinstance(body, str):
        return body
    try:
        return json.dumps(body, ensure_ascii=False, default=str)
    except (ValueError, RecursionError):
        return "(a body that cannot be shown as JSON)"
