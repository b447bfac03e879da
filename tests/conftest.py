"""Shared fixtures: where the conformance corpora live, and skipping when they are absent."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"


@pytest.fixture(scope="session")
def corpus() -> Callable[..., Path]:
    """Return a function giving a path under ../shared/corpora, skipping the test when absent."""

    def locate(*parts: str) -> Path:
        path = CORPORA.joinpath(*parts)
        if not path.exists():
            pytest.skip(
                f"corpus not found at {path}: the shared corpora are absent on this machine"
            )
        return path

    return locate
