"""Every function of the test catalogue and of ``examples/``, exported for every vendor,
is accepted by that vendor's own SDK types; strict exports pass our checkers and an
independent one (openai-agents' ``ensure_strict_json_schema`` leaves them unchanged).

Shapes a vendor's strict mode cannot express are listed in ``REFUSED`` with the reason
the build error must give.
"""

from __future__ import annotations

import copy
import enum
import functools
import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from tests.support.sdk import needs, sdk_accepts

import llmapp
from llmapp import LlmApplication, LlmApplicationError
from llmapp.vendors import anthropic, gemini, mcp, openai
from llmapp.vendors._source import model_parameters, without_enum_names

pytestmark = needs(
    "openai", "anthropic", "google.genai", reason="the vendors' SDKs are in the dev extra"
)

ROOT = Path(__file__).resolve().parents[2]
SHAPES = ROOT / "tests" / "catalogue" / "shapes"


def _module(name: str, path: Path) -> ModuleType:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and annotations resolve through it
    spec.loader.exec_module(module)
    return module


SHOP = "examples.shop"
# The names parametrize the tests at collection; the classes load when a test runs.
SHAPE_NAMES = sorted(
    [path.stem for path in SHAPES.glob("*.py") if not path.stem.startswith("_")] + [SHOP]
)


@functools.cache
def shape_class(name: str) -> type:
    if name == SHOP:
        shop: type = _module("llmapp_examples_shop", ROOT / "examples" / "shop.py").Shop
        return shop
    found: type = _module(f"llmapp_catalogue_{name}", SHAPES / f"{name}.py").APPLICATION
    return found


# (vendor export, shape) -> a reason the build error must give.
FREE_KEYS = "free-form keys"
RECURSIVE = "recursive schemas are not supported"
GEMINI_CYCLE = "a recursive reference in a required property"
NO_REF = "a recursive type needs `$ref`"
REFUSED: dict[tuple[str, str], str] = {
    ("openai", "dynamic_simple"): FREE_KEYS,
    ("openai", "dynamic_tree"): FREE_KEYS,
    ("anthropic", "dynamic_simple"): FREE_KEYS,
    ("anthropic", "dynamic_tree"): RECURSIVE,
    ("anthropic", "array_recursive"): RECURSIVE,
    ("anthropic", "object_recursive"): RECURSIVE,
    ("anthropic", "object_default"): "optional properties in one request",
    ("anthropic", "object_union_implicit"): "schemas with anyOf or a list of types in one request",
    ("gemini", "array_recursive"): GEMINI_CYCLE,
    ("gemini", "object_recursive"): GEMINI_CYCLE,
    ("gemini-openapi", "array_recursive"): NO_REF,
    ("gemini-openapi", "object_recursive"): NO_REF,
    ("gemini-openapi", "dynamic_tree"): NO_REF,
}


def export(vendor: str, app: LlmApplication, strict: bool) -> list[dict[str, Any]]:
    exporters = {
        "openai": lambda: openai.tools(app, strict=strict),
        "openai-responses": lambda: openai.tools(app, strict=strict, api="responses"),
        "anthropic": lambda: anthropic.tools(app, strict=strict),
        "gemini": lambda: gemini.tools(app, strict=strict),
        "gemini-openapi": lambda: gemini.tools(app, strict=strict, schema="openapi"),
    }
    return exporters[vendor]()


VENDORS = ["openai", "openai-responses", "anthropic", "gemini", "gemini-openapi"]


@pytest.mark.parametrize("vendor", VENDORS)
@pytest.mark.parametrize("shape", SHAPE_NAMES)
def test_default_export_is_accepted_by_the_sdk(shape: str, vendor: str) -> None:
    app = llmapp.application(shape_class(shape))
    refused = REFUSED.get((vendor, shape)) if vendor == "gemini-openapi" else None
    if refused is not None:
        with pytest.raises(LlmApplicationError, match=re.escape(refused)):
            export(vendor, app, strict=False)
        return
    entries = export(vendor, app, strict=False)
    assert [entry_name(entry) for entry in entries] == [f.name for f in app.functions]
    sdk_accepts(vendor, entries)
    if vendor == "gemini-openapi":
        assert all(gemini.openapi_problems(entry["parameters"]) == [] for entry in entries)


@pytest.mark.parametrize("vendor", VENDORS)
@pytest.mark.parametrize("shape", SHAPE_NAMES)
def test_strict_export(shape: str, vendor: str) -> None:
    app = llmapp.application(shape_class(shape))
    refused = REFUSED.get((vendor.removesuffix("-responses"), shape))
    if refused is not None:
        with pytest.raises(LlmApplicationError, match=re.escape(refused)) as error:
            export(vendor, app, strict=True)
        assert all(
            p.location.startswith(shape_class(shape).__qualname__) for p in error.value.problems
        )
        return
    entries = export(vendor, app, strict=True)
    sdk_accepts(vendor, entries)
    for entry in entries:
        schema = entry_schema(entry)
        assert CHECKERS[vendor](schema) == []
        if vendor.startswith("openai"):
            from agents.strict_schema import ensure_strict_json_schema

            assert ensure_strict_json_schema(copy.deepcopy(schema)) == schema


@pytest.mark.parametrize("shape", SHAPE_NAMES)
def test_strict_openai_export_equals_a_strict_application(shape: str) -> None:
    """tools(strict=True) reuses the core's strict rules: same schema as application(strict=True),
    less the names of enum members, which no vendor export sends."""
    if ("openai", shape) in REFUSED:
        return
    strict_app = llmapp.application(shape_class(shape), strict=True)
    exported = openai.tools(llmapp.application(shape_class(shape)), strict=True)
    assert [entry["function"]["parameters"] for entry in exported] == [
        without_enum_names(model_parameters(f)) for f in strict_app.functions
    ]


CHECKERS = {
    "openai": openai.problems,
    "openai-responses": openai.problems,
    "anthropic": anthropic.problems,
    "gemini": gemini.problems,
    "gemini-openapi": gemini.openapi_problems,
}


def entry_name(entry: dict[str, Any]) -> str:
    name: str = entry["function"]["name"] if "function" in entry else entry["name"]
    return name


def entry_schema(entry: dict[str, Any]) -> dict[str, Any]:
    if "function" in entry:
        entry = entry["function"]
    for key in ("parameters", "input_schema", "parameters_json_schema"):
        if key in entry:
            schema: dict[str, Any] = entry[key]
            return schema
    raise AssertionError(f"no schema in {entry}")


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 3


@llmapp.llm_application
class Leveled:
    def level(self, level: Level, levels: list[Level]) -> str:
        """Set a level."""
        return level.name


def test_enum_names_stay_in_the_mcp_export_only() -> None:
    """The names are llmapp's reading aid: the vendors' strict subsets refuse the keyword,
    so their exports leave it out; MCP's inputSchema is JSON Schema and keeps it."""
    app = llmapp.application(Leveled)
    named = {"type": "integer", "enum": [1, 3], "x-enum-varnames": ["LOW", "HIGH"]}
    assert app.functions[0].parameters["$defs"]["Level"] == named
    assert mcp.tools(app)[0]["inputSchema"]["$defs"]["Level"] == named
    exports = [
        *openai.tools(app),
        *openai.tools(app, strict=True),
        *anthropic.tools(app),
        *anthropic.tools(app, strict=True),
        *gemini.tools(app),
        *mcp.tools(app, strict=True),
    ]
    for entry in exports:
        assert "x-enum-varnames" not in json.dumps(entry)
        assert "LOW" not in json.dumps(entry)
    assert openai.problems(entry_schema(openai.tools(app, strict=True)[0])) == []


def test_without_enum_names_copies_only_what_it_changes() -> None:
    plain = {"type": "object", "properties": {"x-enum-varnames": {"type": "string"}}}
    assert without_enum_names(plain) is plain  # a property of that name is no keyword
    named = {"anyOf": [{"enum": ["a"], "x-enumNames": ["A"]}, {"type": "null"}]}
    assert without_enum_names(named) == {"anyOf": [{"enum": ["a"]}, {"type": "null"}]}
    assert named["anyOf"][0]["x-enumNames"] == ["A"]  # the input is not changed
