"""Lenient reading of the model's argument text and schema-driven repair of its data.

``lone_surrogates(data)`` finds what no repair can mend: text holding half of a UTF-16
surrogate pair, each an issue at its path (the call step refuses such arguments).
``written_twice(text)`` finds where a stringified object writes a key twice, which the
repair step leaves unread (the call step names it in its refusal).

The modules load on first use (PEP 562), so the application that imports this stage at
the top of its execution plan pays for it on its first call, not when it is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmapp._lazy import lazy_names as _lazy_names
from llmapp._limits import MAX_DEPTH, MAX_LENGTH

if TYPE_CHECKING:
    from llmapp.repair._coerce import Coercion, coerce, coercer
    from llmapp.repair._parse import Parsed, parse, read_strict, read_text, written_twice
    from llmapp.repair._surrogates import lone_surrogates, may_hold_surrogates

_LAZY = {
    "Coercion": "._coerce",
    "Parsed": "._parse",
    "coerce": "._coerce",
    "coercer": "._coerce",
    "lone_surrogates": "._surrogates",
    "may_hold_surrogates": "._surrogates",
    "parse": "._parse",
    "read_strict": "._parse",
    "read_text": "._parse",
    "written_twice": "._parse",
}

if not TYPE_CHECKING:  # a misspelled name stays an error for type checkers
    __getattr__, __dir__ = _lazy_names(__name__, _LAZY)


__all__ = [
    "MAX_DEPTH",
    "MAX_LENGTH",
    "Coercion",
    "Parsed",
    "coerce",
    "coercer",
    "lone_surrogates",
    "may_hold_surrogates",
    "parse",
    "read_strict",
    "read_text",
    "written_twice",
]
