"""The optional SDKs the tests drive, found and checked without importing them at collection.

Every xdist worker imports every test module, so a module that imports an SDK at its top
makes every worker pay for that SDK whether or not it runs one of its tests. A module marks
what it needs with ``pytestmark = needs(...)`` instead of ``pytest.importorskip`` and imports
the SDK inside its tests and fixtures.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from typing import Any

import pytest
from pydantic import TypeAdapter


def installed(name: str) -> bool:
    """Whether ``name`` (dotted or not) can be imported, without importing it or its parents
    (``importlib.util.find_spec`` imports the parents of a dotted name)."""
    if name in sys.modules:
        return True
    top, *rest = name.split(".")
    spec = importlib.util.find_spec(top)
    for depth in range(1, len(rest) + 1):
        if spec is None or spec.submodule_search_locations is None:
            return False
        dotted = ".".join([top, *rest[:depth]])
        spec = importlib.machinery.PathFinder.find_spec(
            dotted, list(spec.submodule_search_locations)
        )
    return spec is not None


def needs(*names: str, reason: str | None = None) -> pytest.MarkDecorator:
    """Skips the marked tests unless every one of ``names`` is installed."""
    missing = [name for name in names if not installed(name)]
    return pytest.mark.skipif(
        bool(missing), reason=reason or f"{', '.join(missing) or 'nothing'} is not installed"
    )


def sdk_accepts(vendor: str, entries: list[dict[str, Any]]) -> None:
    """The SDK's own type validates every entry, keeping every key (nothing ignored)."""
    if vendor.startswith("gemini"):
        from google.genai import types

        for entry in entries:  # extra="forbid": an unknown key anywhere fails
            types.FunctionDeclaration.model_validate(entry)
        return
    if vendor == "anthropic":
        from anthropic.types import ToolParam as Param
    elif vendor == "openai":
        from openai.types.chat import ChatCompletionToolParam as Param  # type: ignore[assignment]
    else:
        from openai.types.responses import FunctionToolParam as Param  # type: ignore[assignment]
    adapter: TypeAdapter[Any] = TypeAdapter(Param)
    for entry in entries:
        assert adapter.validate_python(entry) == entry
