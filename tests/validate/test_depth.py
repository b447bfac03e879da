"""Deep and cyclic inputs: one issue past the depth limit, never a RecursionError, never a hang."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest

TREE = {
    "$ref": "#/$defs/Node",
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
            },
            "required": ["name", "children"],
            "additionalProperties": False,
        }
    },
}
NESTED_LISTS = {
    "$ref": "#/$defs/L",
    "$defs": {"L": {"type": "array", "items": {"$ref": "#/$defs/L"}}},
}


def chain(depth: int) -> dict[str, Any]:
    node: dict[str, Any] = {"name": "leaf", "children": []}
    for level in range(depth):
        node = {"name": f"n{level}", "children": [node]}
    return node


def test_a_deep_valid_tree_within_the_limit(compile: Callable[..., Any]) -> None:
    assert compile(TREE)(chain(300)).success


def test_past_the_limit_one_issue_at_the_place(compile: Callable[..., Any]) -> None:
    check = compile(TREE, max_depth=20)
    assert check(chain(15)).success
    result = check(chain(40))
    assert len(result.errors) == 1
    issue = result.errors[0]
    assert issue.path.startswith("$input.children[0].children[0]")
    assert issue.expected == "Node"
    assert issue.description == "nested deeper than 20 levels"
    assert not check.is_valid(chain(40))


def test_a_list_containing_itself(compile: Callable[..., Any]) -> None:
    looped: list[Any] = []
    looped.append(looped)
    check = compile(NESTED_LISTS)
    result = check(looped)
    assert not result.success
    assert len(result.errors) == 1
    assert result.errors[0].description == "nested deeper than 512 levels"
    assert check.is_valid(looped) is False


def test_a_dict_containing_itself_twice_does_not_explode(compile: Callable[..., Any]) -> None:
    looped: dict[str, Any] = {}
    looped["l"] = looped
    looped["r"] = looped
    branch = {
        "type": "object",
        "properties": {"l": {"$ref": "#/$defs/T"}, "r": {"$ref": "#/$defs/T"}},
    }
    other = {"type": "object", "properties": {"l": {"$ref": "#/$defs/T"}, "x": {"type": "integer"}}}
    schema = {"$ref": "#/$defs/T", "$defs": {"T": {"anyOf": [branch, other]}}}
    started = time.perf_counter()
    result = compile(schema, max_depth=64)(looped)
    assert time.perf_counter() - started < 5
    assert len(result.errors) == 1 and "nested deeper" in (result.errors[0].description or "")


@pytest.mark.parametrize(
    "schema",
    [
        {},
        {"type": "array"},
        {"type": "array", "uniqueItems": True},
        {"const": [[1]]},
        {"enum": [[], [[]]]},
    ],
)
def test_cycles_under_non_recursive_schemas(compile: Callable[..., Any], schema: Any) -> None:
    looped: list[Any] = []
    looped.append(looped)
    twice = [looped, looped]
    check = compile(schema)
    for value in (looped, twice):
        result = check(value)  # must return, whatever the verdict
        assert result.success in (True, False)


def test_deep_plain_data_under_a_non_recursive_schema(compile: Callable[..., Any]) -> None:
    deep: list[Any] = []
    for _ in range(5000):
        deep = [deep]
    check = compile({"type": "array", "uniqueItems": True})
    assert check([deep, [1]]).success
    assert not check([deep, deep]).success


def test_unique_items_deeper_than_equality_looks_cost_no_pairwise_comparison(
    compile: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Items nested past the depth equality reads were compared pair by pair: a hundred of
    # them (52 KB of text) took seconds. Past that depth a value is itself (identity), as
    # json_equal reads it, so the items are still told apart in one pass.
    from llmapp.validate import _runtime

    def pairwise(*args: Any) -> bool:
        raise AssertionError("compared pair by pair")

    monkeypatch.setattr(_runtime, "json_equal", pairwise)
    check = compile({"type": "array", "uniqueItems": True})
    items: list[Any] = []
    for number in range(100):
        item: Any = number
        for _ in range(_runtime.MAX_EQUALITY_DEPTH + 2):
            item = [item]
        items.append(item)
    assert check(items).success
    assert not check([items[0], items[1], items[0]]).success


RECURSIVE_ELSEWHERE = [
    pytest.param(
        {
            "$ref": "#/components/schemas/Node",
            "components": {
                "schemas": {
                    "Node": {
                        "type": "object",
                        "properties": {"next": {"$ref": "#/components/schemas/Node"}},
                    }
                }
            },
        },
        id="OpenAPI components (not a subschema keyword)",
    ),
    pytest.param(
        {
            "$ref": "#/$defs/A",
            "$defs": {
                "A": {"type": "object", "properties": {"next": {"$ref": "#/$defs/B"}}},
                "B": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/A"}]},
            },
        },
        id="a cycle through two definitions and a union",
    ),
]


@pytest.mark.parametrize("schema", RECURSIVE_ELSEWHERE)
def test_recursion_is_found_wherever_the_definitions_live(
    compile: Callable[..., Any], schema: Any
) -> None:
    check = compile(schema, max_depth=20)
    deep: dict[str, Any] = {}
    for _ in range(60):
        deep = {"next": deep}
    result = check(deep)
    assert not result.success
    assert [issue.description for issue in result.errors] == ["nested deeper than 20 levels"]
    looped: dict[str, Any] = {}
    looped["next"] = looped
    assert [issue.description for issue in check(looped).errors] == ["nested deeper than 20 levels"]
    shallow: dict[str, Any] = {}
    for _ in range(8):
        shallow = {"next": shallow}
    assert check(shallow).success  # the limit counts recursive calls, not every level
