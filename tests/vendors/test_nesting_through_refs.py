"""OpenAI's nesting limit is counted through ``$ref``, as if every definition were inline."""

from __future__ import annotations

from typing import Any

import pytest

from llmapp.vendors import openai
from llmapp.vendors._subset import inline_refs


def _chain(levels: int) -> dict[str, Any]:
    """A parameters object whose property nests ``levels`` objects, each a ``$def``."""
    defs: dict[str, Any] = {}
    inner: dict[str, Any] = {"type": "integer"}
    for level in range(levels):
        name = f"L{level}"
        defs[name] = _object({"x": inner})
        inner = {"$ref": f"#/$defs/{name}"}
    return {**_object({"x": inner}), "$defs": defs}


def _object(properties: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties),
        "additionalProperties": False,
    }


def _deep(problems: list[str]) -> list[str]:
    return [problem for problem in problems if "nest deeper" in problem]


@pytest.mark.parametrize("levels", [1, 9, 10, 11, 15])
def test_references_nest_as_deep_as_their_inline_form(levels: int) -> None:
    schema = _chain(levels)
    inline, recursive = inline_refs(schema)
    assert not recursive and "$defs" not in inline
    assert bool(_deep(openai.problems(schema))) == bool(_deep(openai.problems(inline)))
    assert bool(_deep(openai.problems(schema))) == (levels >= 11)


def test_the_refusal_names_the_definition_and_the_route_to_it() -> None:
    (problem,) = _deep(openai.problems(_chain(15)))
    assert problem.startswith("/$defs/L4: objects nest deeper than 10 levels")
    assert "(at " + ".".join(["x"] * 11) + ", through $ref)" in problem


def test_a_recursive_definition_counts_once() -> None:
    tree = _object(
        {
            "label": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
        }
    )
    schema = {**_object({"root": {"$ref": "#/$defs/Tree"}}), "$defs": {"Tree": tree}}
    assert openai.problems(schema) == []


def test_shared_definitions_are_walked_once_per_depth() -> None:
    # 40 definitions, each using the next twice: 2**40 routes, walked in linear time.
    defs = {
        f"D{i}": _object({"a": {"$ref": f"#/$defs/D{i + 1}"}, "b": {"$ref": f"#/$defs/D{i + 1}"}})
        for i in range(40)
    }
    defs["D40"] = {"type": "integer"}
    schema = {**_object({"d": {"$ref": "#/$defs/D0"}}), "$defs": defs}
    deep = _deep(openai.problems(schema))
    assert deep and all(problem.startswith("/$defs/D10:") for problem in deep)
