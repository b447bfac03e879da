"""The public surface of llmapp.http, and what importing it loads."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

import llmapp.http
import llmapp.validate


def test_all_is_sorted_unique_and_resolves() -> None:
    names = llmapp.http.__all__
    assert names == sorted(names) and len(set(names)) == len(names)
    assert all(hasattr(llmapp.http, name) for name in names)


def test_import_loads_neither_httpx_nor_yaml() -> None:
    code = "import sys, llmapp.http; print([m for m in ('httpx', 'yaml') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_building_compiles_each_validator_once_and_calls_reuse_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    compiled: list[object] = []
    built: list[object] = []
    real = llmapp.validate.validator

    def counting(schema: Any, **options: Any) -> Any:
        compiled.append(schema)
        built.append(real(schema, **options))
        return built[-1]

    monkeypatch.setattr(llmapp.validate, "validator", counting)
    document = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/a/{id}": {"get": {"responses": {"200": {"description": "ok"}}}}},
    }
    (function,) = llmapp.http.application(document).functions
    assert compiled == [function.parameters]  # at build: a schema it refuses is an error
    assert function.validate({"id": "x"}).success
    assert function.validate({"id": "y"}).success
    assert len(built) == 2 and built[1] is built[0]  # the first call reuses it (cached)
