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


def test_building_checks_each_schema_and_the_first_call_compiles_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    checked: list[object] = []
    compiled: list[object] = []
    built: list[object] = []
    real_check, real = llmapp.validate.check_schema, llmapp.validate.validator

    def checking(schema: Any, **options: Any) -> None:
        checked.append(schema)
        real_check(schema, **options)

    def counting(schema: Any, **options: Any) -> Any:
        compiled.append(schema)
        built.append(real(schema, **options))
        return built[-1]

    monkeypatch.setattr(llmapp.validate, "check_schema", checking)
    monkeypatch.setattr(llmapp.validate, "validator", counting)
    document = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/a/{id}": {"get": {"responses": {"200": {"description": "ok"}}}}},
    }
    (function,) = llmapp.http.application(document).functions
    # at build: a schema no validator compiles from is an error, but nothing is compiled
    assert checked == [function.parameters] and compiled == []
    assert function.validate({"id": "x"}).success
    assert not function.validate({"id": 1}).success
    assert compiled == [function.parameters]  # compiled at the first call, then kept
