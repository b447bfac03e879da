"""The validator's keywords come from the one keyword table, and a new row is enforced.

Every assertion of ``llmapp.jsonschema.KEYWORDS`` is either a per-value condition with a
builder (``_conditions.BUILDERS``) or one the writers write (``_vocabulary.WRITTEN``);
adding a row and a builder is all a new keyword needs, alone or beside ``type``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from llmapp.jsonschema import KEYWORDS, accepts_anything
from llmapp.schema import is_unknown
from llmapp.validate import validator
from llmapp.validate._check import CheckWriter
from llmapp.validate._conditions import BUILDERS
from llmapp.validate._vocabulary import (
    APPLICATORS,
    CONDITION_KEYWORDS,
    IGNORED,
    VALIDATING,
    WRITTEN,
    is_trivial,
)
from llmapp.validate._walk import WalkWriter

ASSERTIONS = {name for name, row in KEYWORDS.items() if row.kind == "assertion"}


def test_every_assertion_has_a_builder_or_a_writer_and_every_builder_a_row() -> None:
    assert set(BUILDERS) == ASSERTIONS - WRITTEN
    assert set(BUILDERS) == set(CONDITION_KEYWORDS)
    assert WRITTEN <= ASSERTIONS


@pytest.mark.parametrize("writer", [CheckWriter, WalkWriter])
def test_every_applicator_of_the_table_has_a_method_in_each_writer(writer: type) -> None:
    assert set(writer.APPLICATOR_WRITERS) == set(APPLICATORS)
    assert all(callable(write) for write in writer.APPLICATOR_WRITERS.values())


@pytest.mark.parametrize("name", sorted(KEYWORDS))
def test_the_validator_reads_every_keyword_that_can_refuse_a_value(name: str) -> None:
    row = KEYWORDS[name]
    read = name in VALIDATING or name in IGNORED or name in WRITTEN or name in ("then", "else")
    assert read == row.validates or (name in ("minContains", "maxContains", "nullable"))


@pytest.mark.parametrize(
    "schema",
    [{}, True, {"title": "x"}, {"minLength": 3}, {"$ref": "#"}, {"not": {}}, {"x-y": 1}],
)
def test_accepting_anything_is_one_rule(schema: object) -> None:
    assert is_unknown(schema) == accepts_anything(schema)  # type: ignore[arg-type]
    assert is_trivial(schema) == accepts_anything(schema)


def test_a_constraint_alone_is_enforced() -> None:
    assert not validator({"minLength": 3})("ab").success
    assert validator({"minLength": 3})(12).success  # other types pass a string constraint
    assert not is_unknown({"minLength": 3})


_NEW_KEYWORD = textwrap.dedent(
    """
    import importlib, json, sys
    import llmapp.jsonschema as leaf
    from llmapp.jsonschema import _keywords, _types

    row = _keywords.Keyword("maxDecimals", "assertion", "number", label="MaxDecimals")
    _keywords.KEYWORDS = {**_keywords.KEYWORDS, row.name: row}
    importlib.reload(_types)
    importlib.reload(leaf)

    from llmapp.validate import _conditions, validator

    def max_decimals(conditions, schema, value, v):
        return f"round({v}, {int(value)}) == {v}"

    _conditions.BUILDERS["maxDecimals"] = max_decimals
    report = {}
    for label, schema in [
        ("alone", {"maxDecimals": 1}),
        ("typed", {"type": "number", "maxDecimals": 1}),
        ("property", {"type": "object", "properties": {"x": {"maxDecimals": 1}}}),
    ]:
        check = validator(schema)
        value = {"x": 1.234} if label == "property" else 1.234
        good = {"x": 1.2} if label == "property" else 1.2
        result = check(value)
        report[label] = [
            check(good).success,
            result.success,
            [(issue.path, issue.expected) for issue in getattr(result, "errors", [])],
            check("text").success if label == "alone" else None,
        ]
    report["unknown"] = leaf.accepts_anything({"maxDecimals": 1})
    json.dump(report, sys.stdout)
    """
)


def test_a_new_keyword_row_with_a_builder_is_enforced_alone_and_beside_type() -> None:
    run = subprocess.run(
        [sys.executable, "-c", _NEW_KEYWORD], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr

    report = json.loads(run.stdout)
    assert report["alone"] == [True, False, [["$input", "number & MaxDecimals<1>"]], True]
    assert report["typed"] == [True, False, [["$input", "number & MaxDecimals<1>"]], None]
    assert report["property"] == [True, False, [["$input.x", "number & MaxDecimals<1>"]], None]
    assert report["unknown"] is False
