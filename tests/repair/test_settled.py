"""``End.settled`` says what ``Coercion._unchanged`` would answer for any value.

``_walked`` skips an issue whose end is settled without reading the data there; that is
right only if ``_unchanged`` is true there for every value a JSON text can hold. Over every
place the corpus's schemas name (each property and item down to four levels), and a
handful of hand-made unions, each settled end is asked of one value of every JSON type
(strings that read as numbers, booleans, null and containers too), with and without an
issue that cut its walk short (which matters only past an optional container).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from benchmarks.corpus import generate

from llmapp import application
from llmapp.repair import coercer
from llmapp.repair._coerce import Coercion

_VALUES: list[Any] = [
    None,
    True,
    3,
    -2.5,
    "",
    "word",
    "3",
    "2.5",
    "true",
    "null",
    '{"a": 1}',
    "[1]",
    '"x"',
    {},
    {"wrong": True},
    {"kind": "cash", "n": "3"},
    [],
    ["3", 4],
    [{"kind": "card"}],
]


def _places(coercion: Coercion, path: tuple[Any, ...] = (), depth: int = 0) -> Iterator[Any]:
    """Every path the schema names under ``path``: properties, and an array's item 0."""
    yield path
    if depth == 4:
        return
    index = coercion._index
    schema = coercion.schema
    for segment in path:
        schema = index.resolve(schema)
        if type(segment) is int:
            schema = index.item_schema(schema, segment)
        else:
            schema = index.property_schema(schema, segment)
    resolved = index.resolve(schema)
    branches = index.branches(resolved) or [resolved]
    for branch in branches:
        branch = index.resolve(branch)
        for key in branch.get("properties", {}) if isinstance(branch, dict) else ():
            yield from _places(coercion, (*path, key), depth + 1)
        if isinstance(branch, dict) and ("items" in branch or "prefixItems" in branch):
            yield from _places(coercion, (*path, 0), depth + 1)


def _data(path: tuple[Any, ...], value: Any) -> Any:
    """Data holding ``value`` at ``path``, through plain dicts and lists."""
    for segment in reversed(path):
        value = [value] if type(segment) is int else {segment: value}
    return value


def _checked(coercion: Coercion, path: tuple[Any, ...]) -> int:
    end = coercion._end(path)
    if end is None or not end.settled:
        return 0
    for value in _VALUES:
        for whole in (True, False):
            unchanged = coercion._unchanged(_data(path, value), path, end, whole)
            assert unchanged is (whole or not end.through), (path, value, whole)
    return 1


def test_a_settled_end_is_unchanged_for_every_value_in_the_corpus() -> None:
    built = generate()
    app = application(built.tools)
    settled = 0
    for case in built.cases:
        coercion = coercer(app._plans[case.name].side.schema)
        settled += sum(_checked(coercion, path) for path in _places(coercion) if path)
    assert settled > 500


_TIME = {"type": "string", "format": "time"}
_CASH = {
    "type": "object",
    "properties": {"kind": {"const": "cash"}, "n": {"type": "integer"}},
    "required": ["kind"],
}
_CARD = {
    "type": "object",
    "properties": {"kind": {"const": "card"}, "n": {"type": "string"}},
    "required": ["kind"],
}


@pytest.mark.parametrize(
    ("union", "settled"),
    [
        ({"anyOf": [_TIME, {"type": "string", "format": "date"}]}, True),
        ({"anyOf": [_TIME, {"type": "null"}]}, True),
        ({"anyOf": [_CASH, _CARD]}, False),  # a dict enters by its tag
        ({"anyOf": [_TIME, {"type": "array", "items": {"type": "integer"}}]}, False),
        ({"anyOf": [_CASH, _TIME], "discriminator": {"propertyName": "kind"}}, False),
        ({"anyOf": [{}, _TIME]}, False),  # a branch of any type takes a container
    ],
)
def test_a_union_settles_only_where_it_enters_no_container(
    union: dict[str, Any], settled: bool
) -> None:
    schema = {"type": "object", "properties": {"x": union}, "required": ["x"]}
    coercion = coercer(schema)
    end = coercion._end(("x",))
    assert end is not None and end.settled is settled
    if settled:
        assert _checked(coercion, ("x",)) == 1
