"""coerce never raises, whatever the value or the schema.

It raised on dict and list subclasses whose ``items``/``__iter__`` raise (3,714 of
68,709 fuzz calls). Hostile containers are hidden at random places in JSON data and
coerced against schemas that make coerce look inside them.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.budget import scaled

from llmapp.repair import coerce


class Broken(Exception):
    """What every hostile method raises."""


def _raise(*args: Any, **kwargs: Any) -> Any:
    raise Broken


def _hostile_dict(method: str) -> type[dict[str, Any]]:
    return type(f"Dict_{method}", (dict,), {method: _raise})


def _hostile_list(method: str) -> type[list[Any]]:
    return type(f"List_{method}", (list,), {method: _raise})


DICT_METHODS = ["items", "__iter__", "get", "__getitem__", "__contains__", "__len__", "keys"]
LIST_METHODS = ["__iter__", "__getitem__", "__len__"]
HOSTILE_DICTS = [_hostile_dict(method) for method in DICT_METHODS]
HOSTILE_LISTS = [_hostile_list(method) for method in LIST_METHODS]


class BadKey(str):
    """A key whose comparison raises (found while matching properties and tags)."""

    def __eq__(self, other: object) -> bool:
        raise Broken

    def __hash__(self) -> int:
        return str.__hash__(self)


class BadMapping(Mapping[str, Any]):
    """A Mapping (not a dict) that fails on every read."""

    def __getitem__(self, key: str) -> Any:
        raise Broken

    def __iter__(self) -> Iterator[str]:
        raise Broken

    def __len__(self) -> int:
        raise Broken


SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False),
    st.sampled_from(["3", "2.5", "true", "null", '{"a": "1"}', '["1"]', "x"]),
)
KEYS = st.sampled_from(["a", "n", "kind", "tags", "12", "١٢", "x-1"])


def _containers(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    plain_dicts = st.dictionaries(KEYS, children, max_size=4)
    plain_lists = st.lists(children, max_size=4)
    hostile_dicts = st.builds(
        lambda cls, items: cls(items), st.sampled_from(HOSTILE_DICTS), plain_dicts
    )
    hostile_lists = st.builds(
        lambda cls, items: cls(items), st.sampled_from(HOSTILE_LISTS), plain_lists
    )
    odd = st.sampled_from([BadMapping(), {BadKey("kind"): "circle"}, {BadKey("n"): "3"}])
    return st.one_of(plain_dicts, plain_lists, hostile_dicts, hostile_lists, odd)


VALUES = st.recursive(SCALARS, _containers, max_leaves=12)

ITEM = {
    "type": "object",
    "properties": {"n": {"type": "integer"}, "kind": {"enum": ["circle", "square"]}},
    "patternProperties": {"^\\d+$": {"type": "number"}},
    "additionalProperties": {"type": "boolean"},
}
SCHEMAS: list[Any] = [
    {"type": "object", "properties": {"a": ITEM, "tags": {"type": "array", "items": ITEM}}},
    {"type": "array", "items": {"anyOf": [ITEM, {"type": "array", "items": {"type": "integer"}}]}},
    {
        "oneOf": [
            {"$ref": "#/$defs/Circle"},
            {"$ref": "#/$defs/Square"},
        ],
        "discriminator": {"propertyName": "kind"},
        "$defs": {
            "Circle": {"type": "object", "properties": {"kind": {"const": "circle"}, "n": ITEM}},
            "Square": {"type": "object", "properties": {"kind": {"const": "square"}}},
        },
    },
    {
        "type": "object",
        "additionalProperties": {"$ref": "#"},
        "properties": {"n": {"type": "number"}},
    },
    {"allOf": [ITEM, {"type": "object", "required": ["n"]}]},
    {"type": ["object", "array", "null", "integer"], "items": ITEM, "properties": {"a": ITEM}},
]


@pytest.mark.budgeted
@settings(max_examples=scaled(150, 400), deadline=None, suppress_health_check=list(HealthCheck))
@given(VALUES, st.sampled_from(SCHEMAS))
def test_coerce_never_raises_on_hostile_containers(value: Any, schema: Any) -> None:
    coerce(value, schema)
    coerce({"a": value, "tags": [value]}, schema)
    coerce([value], schema)


@settings(max_examples=100, deadline=None)
@given(st.recursive(SCALARS, lambda c: st.one_of(st.lists(c), st.dictionaries(KEYS, c))))
def test_coerce_never_mutates_plain_data(value: Any) -> None:
    for schema in SCHEMAS:
        before = copy.deepcopy(value)
        coerce(value, schema)
        assert value == before


def test_the_fuzz_reproducers() -> None:
    """Each hostile container, alone and nested, against a schema that reads it."""
    schema = SCHEMAS[0]
    for cls in HOSTILE_DICTS:
        data = cls({"n": "3"})
        # the data unrepaired when coerce met the hostile method, else repaired
        assert coerce(data, ITEM) in (data, {"n": 3})
        assert coerce({"a": data}, schema) in ({"a": data}, {"a": {"n": 3}})
    for cls in HOSTILE_LISTS:
        data = cls(["3"])
        assert coerce(data, {"type": "array", "items": {"type": "integer"}}) in (data, [3])
    assert coerce({"a": {"n": "3"}}, schema) == {"a": {"n": 3}}


def test_hostile_schemas() -> None:
    assert coerce({"n": "3"}, BadMapping()) == {"n": "3"}
    assert coerce({"n": "3"}, {"properties": BadMapping()}) == {"n": "3"}
    assert coerce("3", {"type": "integer", "anyOf": BadMapping()}) in ("3", 3)
    deep: dict[str, Any] = {"type": "integer"}
    for _ in range(10_000):
        deep = {"anyOf": [deep, {"type": "null"}], "allOf": [{}]}
    assert coerce("3", deep) in ("3", 3)
    cyclic: dict[str, Any] = {"type": "object"}
    cyclic["properties"] = {"a": cyclic}
    assert coerce({"a": {"a": "1"}}, cyclic) == {"a": {"a": "1"}}


def test_repair_remembers_no_long_key_of_the_model() -> None:
    """What repair remembers per issue path (the path read, what the schema says at its
    end) is kept only for short paths: a model's long keys do not stay alive after a call."""
    from llmapp import validator
    from llmapp.jsonschema import _path
    from llmapp.repair import coercer

    long_key = "k" * 50_000
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer"}},
        "additionalProperties": {"type": "integer"},
    }
    data = {"n": "3", long_key: "4"}
    coercion = coercer(schema)
    failure = validator(schema)(data)
    assert not failure.success
    _path._parse_remembered.cache_clear()
    assert coercion.repair(data, failure.errors) == {"n": 3, long_key: 4}
    assert _path._parse_remembered.cache_info().currsize == 1  # "$input.n" only
    assert all(long_key not in path for path in coercion._ends)
