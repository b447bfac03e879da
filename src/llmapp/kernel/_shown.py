"""What a door shows the model of a server's answer: masked, bytes described, cut to a limit.

The HTTP door (a response body) and the MCP door (a tool's result) hand a server's
answer to the model; both go through ``for_model``, so what the model reads of an
answer is bounded and never holds a human-side value or a connection's secret.
"""

from __future__ import annotations

import json
from typing import Any, Final

from llmapp._text.body import shown
from llmapp._text.unicode import encodable
from llmapp.kernel._mask import FORM_REACH, Masker

__all__ = ["MAX_MESSAGE", "for_model"]

MAX_MESSAGE: Final = 50_000
"""Most characters of an answer shown to the model unless a door is told otherwise."""


def for_model(body: Any, content_type: str, hidden: Masker, limit: int, setting: str) -> Any:
    """An answer as the model may see it: masked, bytes described, cut past ``limit`` characters.

    Args:
        body: the decoded answer: JSON data, text, bytes or None.
        content_type: its media type (names the kind of bytes described).
        hidden: the values the model must not read.
        limit: most characters shown; a longer answer becomes its cut text.
        setting: where the limit is set, named in the cut text.

    Raises:
        RecursionError: the body is nested too deeply to write as JSON.
    """
    if body is None:
        return None
    if isinstance(body, (bytes, bytearray)):
        return shown(body, content_type)
    text = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
    if len(text) > limit:
        # The model reads the first ``limit`` characters: only those are masked (and enough
        # past them that a form crossing the cut is masked whole), since masking a long
        # value walks every character it is given.
        masked = encodable(hidden.mask(text[: limit + FORM_REACH]))
        return masked[:limit] + f"… (cut: {len(text):,} characters in all, {setting})"
    masked = encodable(hidden.mask(text))
    if len(masked) > limit:
        return masked[:limit] + f"… (cut: {len(masked):,} characters in all, {setting})"
    if masked == text:
        return body
    if isinstance(body, str):
        return masked
    try:
        return json.loads(masked)
    except ValueError:  # a secret spanning JSON tokens: the masked text then
        return masked
