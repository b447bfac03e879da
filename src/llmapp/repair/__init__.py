"""Lenient reading of the model's argument text and schema-driven repair of its data.

The modules load on first use (PEP 562), so the application that imports this stage at
the top of its execution plan pays for it on its first call, not when it is built.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from llmapp.repair._coerce import coerce
    from llmapp.repair._parse import Parsed, parse

MAX_LENGTH = 100_000
"""The default most characters ``parse`` (and an application) reads: it bounds the tolerant
reader (about 1 µs per character) to about a tenth of a second of CPU per call."""

_LAZY = {"Parsed": "._parse", "coerce": "._coerce", "parse": "._parse"}


def __getattr__(name: str) -> Any:
    home = _LAZY.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = ["MAX_LENGTH", "Parsed", "coerce", "parse"]
