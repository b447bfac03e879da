"""Issue 33's seventh round: what the checkers no longer ask, and verdicts that stay.

A union with ``null`` asks ``v is None`` before its other branches' calls, in checkers and
walkers (where no branch can stop on the depth limit), and a tuple's positions that ``minItems`` has required are
read without a length test. Verdicts are compared with the ``jsonschema`` library
(Draft 2020-12) on adversarial and generated values. (The date-time paths of this round
are compared with the code before them in ``test_fast_paths_before.py``.)
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.budget import scaled

from llmapp.validate import Validator

_RECORD = {
    "type": "object",
    "properties": {"n": {"type": "integer"}},
    "required": ["n"],
    "additionalProperties": False,
}
_TUPLE = {
    "type": "array",
    "prefixItems": [
        {"type": "string", "maxLength": 3},
        {"type": "integer", "minimum": 0},
        {"type": "boolean"},
    ],
    "items": False,
}
SCHEMAS: list[dict[str, Any]] = [
    {"anyOf": [_RECORD, {"type": "null"}]},
    {"anyOf": [{"type": "array", "items": _RECORD}, {"type": "null"}]},
    {"anyOf": [{"type": "null"}, {"type": "string", "minLength": 2}]},
    {**_TUPLE, "minItems": 3},
    {**_TUPLE, "minItems": 1},
    {**_TUPLE, "minItems": 2, "type": ["array", "string"]},
    {"type": "array", "items": {**_TUPLE, "minItems": 3, "maxItems": 3}, "minItems": 1},
    {
        "type": "object",
        "properties": {"t": {"anyOf": [{**_TUPLE, "minItems": 3}, {"type": "null"}]}},
    },
]
VALUES: list[Any] = [
    None,
    {"n": 1},
    {"n": "1"},
    {},
    [],
    [{"n": 1}],
    [{"n": 1}, None],
    "ab",
    "a",
    ["abc", 1, True],
    ["abc", 1],
    ["abc"],
    ["abcd", 1, True],
    ["abc", -1, True],
    ["abc", 1, True, None],
    [["abc", 1, True]],
    [["abc", 1]],
    {"t": ["abc", 1, True]},
    {"t": None},
    {"t": ["abc"]},
    ("abc", 1, True),
]


def _reference(schema: dict[str, Any], value: Any) -> bool:
    value = list(value) if isinstance(value, tuple) else value
    return jsonschema.Draft202012Validator(schema).is_valid(value)


@pytest.mark.parametrize("schema", SCHEMAS)
def test_verdicts_are_the_reference_ones(schema: dict[str, Any]) -> None:
    check = Validator(schema)
    for value in VALUES:
        expected = _reference(schema, value)
        assert check.is_valid(value) == expected, (schema, value)
        assert check(value).success == expected, (schema, value)


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 2) | st.sampled_from(["", "a", "abc", "abcd"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from("nt"), inner),
    max_leaves=8,
)


@settings(max_examples=scaled(150, 600), deadline=None)
@given(schema=st.sampled_from(SCHEMAS), value=_JSON)
def test_verdicts_agree_on_generated_values(schema: dict[str, Any], value: Any) -> None:
    assert Validator(schema).is_valid(value) == _reference(schema, value), (schema, value)


def test_null_is_asked_before_a_call() -> None:
    source = Validator({"anyOf": [_RECORD, {"type": "null"}]}).source
    checker = source[source.index("def c_root") : source.index("def w_root")]
    assert checker.index("v is None") < checker.index("c_anyOf_0(v, d)")
    walker = source[source.index("def w_root") :]
    assert walker.index("v is None") < walker.index("c_anyOf_0(v, d)")


def test_a_recursive_branch_keeps_its_place() -> None:
    """A branch that may stop on the depth limit is asked first, as written: moving
    ``None`` before it would skip the exception that stop raises."""
    tree = {
        "$defs": {
            "node": {
                "type": "object",
                "properties": {"next": {"anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}]}},
            }
        },
        "$ref": "#/$defs/node",
    }
    source = Validator(tree).source
    tests = [line for line in source.splitlines() if "is None" in line and " or " in line]
    assert tests and all(line.index(" or ") < line.index("is None") for line in tests), tests


def test_required_positions_are_read_without_a_length_test() -> None:
    source = Validator({**_TUPLE, "minItems": 2}).source
    checker = source[source.index("def c_root") : source.index("def w_root")]
    assert "if len(v) > 0:" not in checker and "if len(v) > 1:" not in checker
    assert "if len(v) > 2:" in checker  # past minItems: asked as before
    walker = source[source.index("def w_root") :]
    assert "if len(v) > 0:" in walker  # a walker goes on after a short array's issue
