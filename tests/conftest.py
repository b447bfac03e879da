"""Shared fixtures: where the conformance corpora live (skipping when they are absent), and
modules written to disk for a test."""

from __future__ import annotations

import gc
import importlib.util
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings
from tests.support.corpora import CORPORA

# Tests never assert timings: hypothesis's per-example deadline would fail a property
# test on a busy machine for being slow, not wrong.
settings.register_profile("llmapp", deadline=None)
settings.load_profile("llmapp")

# A worker's heap holds every SDK a test imported (their pydantic models), corpora and
# compiled validators, all long-lived: at the default thresholds the collector walks it
# over and over, a large share of the suite's time. Collections are rarer, not off:
# tests that need one call gc.collect().
gc.set_threshold(50_000, 20, 10)


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


@pytest.fixture(scope="session")
def stripe(corpus: Callable[..., Path]) -> Any:
    """Stripe's API (the corpus's largest document) as ``llmapp.http.application`` builds it
    by default: built once per worker for the tests that read it (it is immutable)."""
    from llmapp import http

    return http.application(corpus("openapi", "real-apis", "stripe", "spec3.json"))


@pytest.fixture
def load(tmp_path: Path) -> Iterator[Callable[[str, str], Any]]:
    """Write a module to disk and import it under a given (possibly dotted) name."""
    loaded: list[str] = []

    def load(name: str, source: str) -> Any:
        path = tmp_path / f"{name.replace('.', '_')}.py"
        path.write_text(textwrap.dedent(source))
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        loaded.append(name)
        spec.loader.exec_module(module)
        return module

    yield load
    for name in loaded:
        sys.modules.pop(name, None)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The modules holding a ``budgeted`` test first, in their order, then the others.

    pytest-xdist hands whole modules out in this order (``--dist loadscope``): the longest
    first, so that no worker is left running one of them alone at the end."""
    heavy = {
        item.nodeid.partition("::")[0] for item in items if item.get_closest_marker("budgeted")
    }
    items.sort(key=lambda item: item.nodeid.partition("::")[0] not in heavy)
