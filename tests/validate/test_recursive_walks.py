"""Walking an invalid recursive value checks each node a bounded number of times.

The checkers of recursive definitions note the values they refuse, and the walkers
walk those straight away (``_runtime.FailedValues``). Without that, each level of
an invalid chain checked the whole rest of the chain again. These tests count
checker calls (never time), and check that the notes never change a result.
"""

from __future__ import annotations

import threading
from typing import Any

from tests.validate.test_depth import TREE

from llmapp.validate import Validator

CHAIN = {
    "$defs": {
        "N": {
            "type": "object",
            "properties": {
                "v": {"type": "integer"},
                "next": {"anyOf": [{"$ref": "#/$defs/N"}, {"type": "null"}]},
            },
            "required": ["v", "next"],
            "additionalProperties": False,
        }
    },
    "$ref": "#/$defs/N",
}


def chain(length: int, bad_at: int | None) -> dict[str, Any] | None:
    node: dict[str, Any] | None = None
    for index in reversed(range(length)):
        node = {"v": "x" if index == bad_at else index, "next": node}
    return node


def counting(check: Validator, name: str) -> list[int]:
    """Count the calls of one generated checker (recursive calls included)."""
    check._walker()  # write the walkers first: they look the checker up by name too
    namespace = check._namespace
    original = namespace[name]
    calls = [0]

    def counted(value: Any, depth: int) -> bool:
        calls[0] += 1
        return bool(original(value, depth))

    namespace[name] = counted
    return calls


def test_an_invalid_chain_is_checked_a_linear_number_of_times() -> None:
    check = Validator(CHAIN)
    calls = counting(check, "c_N")
    length = 300
    result = check(chain(length, bad_at=length - 1))
    assert not result.success
    [issue] = result.errors
    assert issue.path == "$input" + ".next" * (length - 1) + ".v"
    assert calls[0] <= 2 * length  # it was length * (length + 1) / 2 before


def test_a_tree_with_mistakes_checks_each_node_about_once() -> None:
    nodes: list[dict[str, Any]] = [{"name": f"n{i}", "children": []} for i in range(200)]
    paths = ["$input"]
    for i in range(1, 200):
        parent = nodes[(i - 1) // 4]
        paths.append(f"{paths[(i - 1) // 4]}.children[{len(parent['children'])}]")
        parent["children"].append(nodes[i])
    nodes[30]["name"] = 5
    nodes[110]["extra"] = True
    nodes[190]["children"] = "none"
    check = Validator(TREE)
    calls = counting(check, "c_Node")
    result = check(nodes[0])
    assert sorted(issue.path for issue in result.errors) == sorted(
        [paths[30] + ".name", paths[110] + ".extra", paths[190] + ".children"]
    )
    assert calls[0] <= 1.5 * len(nodes)


def test_notes_from_a_union_branch_do_not_leak_into_the_next_validation() -> None:
    # A refuses every B value (and notes it); B values are valid. A later invalid value
    # must be reported exactly as a fresh validator reports it.
    schema = {
        "$defs": {
            "A": {
                "type": "object",
                "properties": {"a": {"type": "integer"}, "sub": {"$ref": "#/$defs/A"}},
                "required": ["a"],
                "additionalProperties": False,
            },
            "B": {
                "type": "object",
                "properties": {"b": {"type": "string"}, "sub": {"$ref": "#/$defs/B"}},
                "required": ["b"],
                "additionalProperties": False,
            },
        },
        "anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/B"}],
    }
    shared = Validator(schema)
    valid_b = {"b": "x", "sub": {"b": "y"}}
    invalid = {"a": 1, "sub": {"a": "two", "sub": {"a": 3}}}
    expected = [(e.path, e.expected) for e in Validator(schema)(invalid).errors]
    for _ in range(3):
        assert shared(valid_b).success
        assert shared.is_valid(valid_b)
        assert [(e.path, e.expected) for e in shared(invalid).errors] == expected


def test_threads_sharing_a_recursive_validator_get_the_same_issues() -> None:
    check = Validator(CHAIN)
    bad = [chain(60, bad_at=position) for position in (5, 30, 59)]
    expected = [[(e.path, e.expected) for e in Validator(CHAIN)(value).errors] for value in bad]
    assert all(expected)
    found: list[bool] = []

    def run() -> None:
        for _ in range(200):
            for value, wanted in zip(bad, expected, strict=True):
                result = check(value)
                found.append([(e.path, e.expected) for e in result.errors] == wanted)
                found.append(check(chain(20, None)).success)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found and all(found)


def test_a_cyclic_value_is_walked_unchecked_after_its_first_depth_overflow() -> None:
    schema = {
        "$defs": {
            "T": {
                "type": "object",
                "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/T"}}},
                "required": ["kids"],
            }
        },
        "$ref": "#/$defs/T",
    }
    check = Validator(schema, max_depth=100)  # the counting wrapper doubles each frame
    calls = counting(check, "c_T")
    cyclic: dict[str, Any] = {"kids": []}
    cyclic["kids"].extend([cyclic, cyclic])
    result = check(cyclic)
    [issue] = result.errors
    assert issue.description == "nested deeper than 100 levels"
    assert calls[0] <= 4 * 100  # one overflowing check, then walks (was ~100 * 100 / 2)


def test_is_valid_of_a_recursive_schema_without_searches_takes_no_pattern_budget(
    monkeypatch: Any,
) -> None:
    # A budget is for searches that may run on the time-limited engine; the notes of
    # recursive checkers steer walks, and is_valid walks nothing.
    from llmapp._patterns import matching as _patterns

    entered = []
    enter = _patterns.PatternBudget.__enter__

    def noted(self: Any) -> None:
        entered.append(self)
        enter(self)

    monkeypatch.setattr(_patterns.PatternBudget, "__enter__", noted)
    validator = Validator(CHAIN)
    assert validator.bounded
    assert validator.is_valid({"v": 1, "next": {"v": 2, "next": None}})
    assert not validator.is_valid({"v": 1, "next": {"v": "2", "next": None}})
    assert entered == []
    assert not validator({"v": 1, "next": {"v": "2", "next": None}}).success  # guarded


def test_valid_is_is_valid_without_its_call_where_it_needs_no_guard() -> None:
    # The streaming reader keeps ``valid`` per place and calls it per value.
    validator = Validator(CHAIN)
    check = validator.valid
    assert check != validator.is_valid  # the checker itself: no budget, no memo to clear
    assert check({"v": 1, "next": {"v": 2, "next": None}})
    assert not check({"v": 1, "next": {"v": "2", "next": None}})
    assert not check(object())  # a value the checker fails on is not valid, never raises
    searching = Validator({"type": "string", "pattern": "^(a+)+$"})
    assert not searching.bounded  # a search that may run on the time-limited engine
    # inside its budget: ``is_valid``'s checks, answering the checker's own refusal
    assert searching.valid == searching._guarded_checks
