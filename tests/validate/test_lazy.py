"""Building compiles the checkers only; the walkers, written with them, are compiled on
the first failure, and the generator is not kept until then.

Lazy walkers must not change what anyone sees: every build problem is still raised at
build time, ``source`` shows the whole source, ``linecache`` holds every line that
runs, and concurrent first failures all get the same issues.
"""

from __future__ import annotations

import gc
import json
import linecache
import threading
import traceback
from collections.abc import Iterator
from types import FunctionType
from typing import Any

import pytest
from tests.support.budget import scaled, spread
from tests.support.corpora import CORPORA

from llmapp.validate import SchemaError, Validator, _validator
from llmapp.validate._codegen import Generator

SUITE = CORPORA / "json-schema-test-suite"

ORDER = {
    "title": "Order",
    "type": "object",
    "properties": {
        "id": {"type": "integer", "minimum": 1},
        "items": {"type": "array", "items": {"$ref": "#/$defs/Item"}},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    },
    "required": ["id", "items"],
    "additionalProperties": False,
    "$defs": {
        "Item": {
            "type": "object",
            "properties": {"sku": {"type": "string"}, "quantity": {"type": "integer"}},
            "required": ["sku", "quantity"],
            "additionalProperties": False,
        }
    },
}
INVALID = {"id": 0, "items": [{"sku": 1, "quantity": 2}], "extra": True}
EXPECTED = [
    ("$input.id", "integer & Minimum<1>"),
    ("$input.items[0].sku", "string"),
    ("$input.extra", "undefined"),
]


def _pairs(check: Validator, value: Any) -> list[tuple[str, str]]:
    result = check(value)
    assert not result.success
    return [(issue.path, issue.expected) for issue in result.errors]


def test_building_compiles_only_the_checkers() -> None:
    check = Validator(ORDER)
    compiled = [name for name in check._namespace if name.startswith(("c_", "w_"))]
    assert "c_root" in compiled and not any(name.startswith("w_") for name in compiled)
    assert check({"id": 1, "items": []}).success
    assert "w_root" not in check._namespace
    assert _pairs(check, INVALID) == EXPECTED
    assert "w_root" in check._namespace


def test_a_built_validator_keeps_no_generator() -> None:
    check = Validator(ORDER)
    assert not any(isinstance(found, Generator) for found in gc.get_referents(check))


def test_the_first_failure_writes_the_walkers() -> None:
    check = Validator(ORDER)
    assert _pairs(check, INVALID) == EXPECTED
    registered = "".join(linecache.getlines(check.filename))
    assert "def w_root(" in registered and "def w_Item(" in check.source
    assert check.source.startswith(registered)  # then the definitions it shares, if any
    assert _pairs(check, INVALID) == EXPECTED  # the second failure reuses them


def test_source_shows_checkers_and_walkers_before_any_failure() -> None:
    check = Validator(ORDER)
    source = check.source
    assert source.index("def c_root(") < source.index("def w_root(")
    assert "def c_Item(" in source and "def w_Item(" in source
    assert source.startswith("".join(linecache.getlines(check.filename)))
    assert _pairs(check, INVALID) == EXPECTED


def test_walker_tracebacks_point_at_their_own_lines() -> None:
    class Exploding(dict):  # type: ignore[type-arg]
        def items(self) -> Any:
            raise ValueError("boom")

    check = Validator(ORDER)
    walk = check._walker()
    try:
        walk(Exploding(id=1, items=[], extra=1), "$input", [], 0)
    except ValueError:
        frames = traceback.extract_tb(__import__("sys").exc_info()[2])
    else:
        pytest.fail("the walker did not call items()")
    frame = [f for f in frames if f.filename == check.filename][-1]
    assert frame.name == "w_root"
    assert frame.line == check.source.splitlines()[frame.lineno - 1].strip()
    assert "items()" in (frame.line or "")


def test_concurrent_first_failures_agree() -> None:
    check = Validator(ORDER)
    barrier = threading.Barrier(8)
    found: list[list[tuple[str, str]]] = []

    def run() -> None:
        barrier.wait()
        found.append(_pairs(check, INVALID))

    threads = [threading.Thread(target=run) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == [EXPECTED] * 8
    assert "".join(linecache.getlines(check.filename)).count("def w_root(") == 1


def test_a_checker_that_cannot_finish_still_reports() -> None:
    check = Validator(
        {"$ref": "#/$defs/T", "$defs": {"T": {"type": "array", "items": {"$ref": "#/$defs/T"}}}},
        max_depth=5,
    )
    value: Any = []
    for _ in range(20):
        value = [value]
    result = check(value)
    assert not result.success
    assert "nested deeper than 5 levels" in (result.errors[0].description or "")


# -- every build problem is found before the walkers are written ----------------------


def _suite_schemas() -> Iterator[Any]:
    for draft in ("draft2020-12", "draft4"):
        folder = SUITE / "tests" / draft
        for path in sorted(folder.rglob("*.json")) if folder.exists() else ():
            for group in json.loads(path.read_text(encoding="utf-8")):
                yield group["schema"]


_BAD_VALUES: dict[str, Any] = {
    "properties": 3,
    "patternProperties": {"(?<x": {}},
    "additionalProperties": 3,
    "items": "x",
    "prefixItems": 3,
    "contains": 3,
    "required": "a",
    "minimum": "1",
    "maxLength": -1,
    "pattern": "(?<x",
    "multipleOf": 0,
    "enum": 3,
    "anyOf": [],
    "oneOf": 3,
    "allOf": [],
    "not": 3,
    "type": "strng",
    "$ref": "#/nowhere",
    "dependentSchemas": 3,
    "propertyNames": 3,
    "if": 3,
    "then": 3,
}


def _mutants(schema: Any) -> Iterator[Any]:
    """``schema`` with one keyword's value made malformed, at the root and one level down."""
    if not isinstance(schema, dict):
        return
    for keyword, bad in _BAD_VALUES.items():
        yield {**schema, keyword: bad}
    for keyword in ("properties", "$defs"):
        children = schema.get(keyword)
        if isinstance(children, dict):
            for name, child in list(children.items())[:2]:
                if isinstance(child, dict):
                    for bad_keyword in ("type", "items", "$ref", "anyOf", "minimum"):
                        mutated = {**child, bad_keyword: _BAD_VALUES[bad_keyword]}
                        yield {**schema, keyword: {**children, name: mutated}}


def _problems_before_and_after_walkers(schema: Any) -> tuple[set[str], set[str]]:
    generator = Generator(schema, 512)
    try:
        generator.checker()
    except SchemaError:
        pass
    before = set(generator.analysis.problems)
    generator.walker()
    return before, set(generator.analysis.problems)


@pytest.mark.budgeted
def test_walkers_find_no_problem_the_checkers_missed() -> None:
    schemas = list(_suite_schemas())
    if not schemas:
        pytest.skip("JSON-Schema-Test-Suite not found")
    checked = 0
    for schema in schemas:
        for candidate in spread([schema, *_mutants(schema)], 2):
            before, after = _problems_before_and_after_walkers(candidate)
            assert after == before, candidate
            checked += 1
    assert checked > scaled(2500, 5000)


def _corpus_problems_agree(step: int) -> None:
    from tests.support.corpora import schemas as corpora

    entries = corpora.corpus_schemas()
    if not entries:
        pytest.skip("no corpus schemas found")
    for entry in entries[::step]:
        for candidate in [entry.schema, *list(_mutants(entry.schema))[::step]]:
            before, after = _problems_before_and_after_walkers(candidate)
            assert after == before, entry.id


def test_walkers_find_no_problem_the_checkers_missed_in_the_corpora() -> None:
    _corpus_problems_agree(step=9)


@pytest.mark.slow
def test_walkers_find_no_problem_the_checkers_missed_in_every_corpus_schema() -> None:
    _corpus_problems_agree(step=1)


# Walkers of validators refused long ago go cold (``_validator._cool``): dropped, compiled
# again at the next refusal, the answers unchanged.


def _warm_at_most(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    monkeypatch.setattr(_validator, "_WARM_SIZE", size)
    monkeypatch.setattr(_validator, "_warm", type(_validator._warm)())


def test_the_walkers_of_validators_refused_long_ago_go_cold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _warm_at_most(monkeypatch, 2)
    checks = [Validator({**ORDER, "title": f"Order{index}"}) for index in range(4)]
    for check in checks:
        assert _pairs(check, INVALID) == EXPECTED
    cold = [check for check in checks if check._walk is None]
    assert cold == checks[:2]
    for check in cold:  # the root walker's name is bound to a stand-in
        assert not isinstance(check._namespace["w_root"], FunctionType)
    for check in checks:  # the cold ones compile theirs again, and answer the same
        assert _pairs(check, INVALID) == EXPECTED
        assert _pairs(check, INVALID) == EXPECTED
    assert sum(check._walk is not None for check in checks) == 2


class _Cooling(dict[str, Any]):
    """An object whose first read turns its validator's walkers cold, as another thread's
    refusals would while this walk runs."""

    check: Validator | None = None

    def get(self, key: str, default: Any = None) -> Any:
        if self.check is not None:
            self.check._cool()
            self.check = None
        return super().get(key, default)


PERSON = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "home": {"$ref": "#/$defs/Home"}},
    "$defs": {
        "Home": {
            "type": "object",
            "properties": {"street": {"type": "string"}, "city": {"type": "string"}},
            "required": ["street", "city"],
        }
    },
}
PERSON_WRONG = {"name": 1, "home": {"street": 2}}
PERSON_EXPECTED = [
    ("$input.name", "string"),
    ("$input.home.street", "string"),
    ("$input.home.city", "string"),
]


def test_a_walk_running_while_its_walkers_go_cold_reports_every_issue() -> None:
    check = Validator({**PERSON, "title": "cooling"})
    assert _pairs(check, PERSON_WRONG) == PERSON_EXPECTED  # the walkers compiled
    value = _Cooling(PERSON_WRONG)
    value.check = check
    # ``w_root`` reads ``name`` (and the walkers go cold), then calls ``w_Home``.
    assert _pairs(check, value) == PERSON_EXPECTED
    assert check._walk is not None  # the stand-in compiled them again
    assert _pairs(check, PERSON_WRONG) == PERSON_EXPECTED


def test_remembered_walkers_answer_the_same_once_cold_and_compiled_again() -> None:
    recursive = {
        "$defs": {
            "D": {
                "type": "object",
                "properties": {
                    "x": {"type": "string"},
                    "b": {"allOf": [{"$ref": "#/$defs/D"}, {"allOf": [{"$ref": "#/$defs/D"}]}]},
                },
            }
        },
        "$ref": "#/$defs/D",
    }
    check = Validator(recursive)
    assert check._memo is not None
    value: Any = {"x": 5}
    for _ in range(30):
        value = {"b": value}
    first = _pairs(check, value)
    check._cool()
    assert _pairs(check, value) == first
    assert _pairs(check, value) == first
