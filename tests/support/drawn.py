"""The generated corpus of issue 33 with each signature's arguments record, as drawn.

The differential tests of the converters build arguments of their own from the records
(the record a signature's valid text was written from, and its scale)."""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks import corpus


def drawn(monkeypatch: pytest.MonkeyPatch) -> tuple[Any, dict[str, Any]]:
    """The corpus, and each signature's arguments record with its scale, as drawn."""
    records: dict[str, Any] = {}
    add = corpus._Source.add

    def keep(self: Any, rng: Any, ctx: Any, arguments: Any, scale: int, doc: str) -> None:
        records[arguments.name] = (arguments, scale)
        add(self, rng, ctx, arguments, scale, doc)

    with monkeypatch.context() as patched:
        patched.setattr(corpus._Source, "add", keep)
        built = corpus.generate()
    return built, records
