"""``check_schema`` refuses exactly what ``validator`` refuses, with the same problems, and
compiles nothing (a door checks every function at build; each compiles at its first call)."""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from tests.validate.test_fuzz import QUICK, schemas

from llmapp.validate import Proofs, SchemaError, check_schema, validator


def _outcome(build: Callable[..., Any], schema: Any, **options: Any) -> list[str] | None:
    """The problems ``build`` raises for ``schema`` (as text, in order), or None."""
    try:
        build(schema, **options)
    except SchemaError as error:
        return [str(problem) for problem in error.problems]
    return None


def _alike(schema: Any, proofs: Proofs | None = None) -> list[str] | None:
    found = _outcome(check_schema, schema, proofs=proofs)
    assert found == _outcome(validator, schema)
    return found


_REF_D = {"$ref": "#/$defs/D"}

REFUSED: list[Any] = [
    {"properties": {"a": {"pattern": "(?P<x>a)"}, "b": {"pattern": "["}}},
    {"type": "strung", "minimum": "1", "required": "a"},
    {"$ref": "#/$defs/Missing"},
    {"$ref": "http://localhost:1234/draft2020-12/integer.json"},
    {"properties": {"a": {"$ref": "#/$defs/D"}}, "$defs": {"D": {"enum": 3}}},
    {"allOf": [{"pattern": "(a"}, {"items": {"multipleOf": -1}}]},
    # nested past the depth limit, and a definition unfolded past the bound
    {"items": json.loads('{"items": ' * 120 + "{}" + "}" * 120)},
    {
        "$ref": "#/$defs/D0",
        "$defs": {
            f"D{i}": {
                "allOf": [{"$ref": f"#/$defs/D{i + 1}"}, {"allOf": [{"$ref": f"#/$defs/D{i + 1}"}]}]
            }
            for i in range(22)
        }
        | {"D22": {"type": "string"}},
    },
]


@pytest.mark.parametrize("schema", REFUSED, ids=range(len(REFUSED)))
def test_refused_schemas_are_refused_alike(schema: Any) -> None:
    assert _alike(schema)


def test_every_suite_schema_is_judged_alike(corpus: Callable[..., Path]) -> None:
    folder = corpus("json-schema-test-suite", "tests")
    judged = refused = 0
    for path in sorted(folder.rglob("*.json")):
        for group in json.loads(path.read_text(encoding="utf-8")):
            found = _alike(group["schema"])
            judged += 1
            refused += found is not None
    assert judged > 600 and refused > 0


@QUICK
@given(schema=schemas())
def test_generated_schemas_are_judged_alike(schema: Any) -> None:
    _alike(schema)


def test_nothing_is_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    check_schema({"type": "integer"})  # the modules it imports
    compiled: list[object] = []
    real = builtins.compile
    monkeypatch.setattr(builtins, "compile", lambda *a, **k: compiled.append(a) or real(*a, **k))
    check_schema({"properties": {"a": {"pattern": "^x+$"}, "b": _REF_D}, "$defs": {"D": {}}})
    assert compiled == []


def _holding(definitions: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": root, "$defs": definitions}


def test_a_closure_proven_once_is_not_written_again_and_problems_stay_alike() -> None:
    good = {
        "Leaf": {"properties": {"name": {"type": "string", "pattern": "^a"}}},
        "D": {"properties": {"leaf": {"$ref": "#/$defs/Leaf"}}},
    }
    bad = {"Bad": {"type": "string", "pattern": "(a"}}
    proofs = Proofs()
    assert _alike(_holding(good, {"a": _REF_D}), proofs) is None
    proven = set(proofs.keys)
    assert len(proven) == 2  # D and the Leaf it reaches
    # The next schemas bind them: still judged by their own parts alone.
    assert _alike(_holding(good, {"b": _REF_D, "n": {"minimum": "x"}}), proofs)
    assert _alike(_holding(good | bad, {"c": _REF_D, "z": {"$ref": "#/$defs/Bad"}}), proofs)
    assert _alike(_holding(good | bad, {"z": {"$ref": "#/$defs/Bad"}}), proofs)
    assert proofs.keys == proven  # a refused schema proves nothing
