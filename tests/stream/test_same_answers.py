"""The stream's answers are the call step's: for any schema, value and split of the text,
every mistake ``feed`` reports is one ``finish`` reports (same path, same expected text),
whatever the split, and ``finish`` is the call step's answer for the whole text."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.budget import scaled

from llmapp import LlmFunction, ValidationFailure
from llmapp.kernel import CallResult, check_arguments, model_side
from llmapp.streaming import stream

KEYS = ["a", "b", "c", "d-e", 'q"é']

SCALARS = [
    {"type": "string"},
    {"type": "string", "minLength": 2, "maxLength": 4},
    {"type": "string", "pattern": "^[a-c]+$"},
    {"type": "string", "format": "email"},
    {"type": "string", "enum": ["sent", "held"]},
    {"type": "integer", "minimum": 1, "maximum": 10},
    {"type": "number", "exclusiveMaximum": 5},
    {"type": "boolean"},
    {"type": "null"},
    {"anyOf": [{"type": "string"}, {"type": "null"}]},
    {"type": ["integer", "null"]},
    {},
    {"const": 3},
    {"$ref": "#/$defs/Status"},
    {"$ref": "#/$defs/Item"},
]

DEFS = {
    "Status": {"type": "string", "enum": ["new", "done"]},
    "Item": {
        "type": "object",
        "properties": {"sku": {"type": "string"}, "n": {"type": "integer", "minimum": 1}},
        "required": ["sku"],
        "additionalProperties": False,
    },
}


def objects(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    def build(properties: dict[str, Any], required: list[str], extra: Any) -> Any:
        return {
            "type": "object",
            "properties": properties,
            "required": [k for k in required if k in properties or k == "c"],
            "additionalProperties": extra,
        }

    return st.builds(
        build,
        st.dictionaries(st.sampled_from(KEYS), children, max_size=3),
        st.lists(st.sampled_from(KEYS), max_size=3, unique=True),
        st.sampled_from([False, True, {"type": "integer"}]),
    )


def arrays(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    def build(items: Any, bounds: tuple[int | None, int | None]) -> Any:
        schema = {"type": "array", "items": items}
        low, high = bounds
        if low is not None:
            schema["minItems"] = low
        if high is not None:
            schema["maxItems"] = high
        return schema

    bounds = st.tuples(st.none() | st.integers(0, 2), st.none() | st.integers(0, 3))
    return st.builds(build, children, bounds)


SCHEMAS = st.recursive(
    st.sampled_from(SCALARS),
    lambda children: st.one_of(
        objects(children),
        arrays(children),
        st.builds(lambda a, b: {"anyOf": [a, b]}, children, children),
        st.builds(lambda a: {"type": ["object", "null"], "properties": {"a": a}}, children),
        st.builds(lambda a: {"oneOf": [a, {"type": "null"}]}, children),
        st.builds(lambda a: {"anyOf": [{"type": "null", "title": "none"}, a]}, children),
    ),
    max_leaves=8,
)

SCALAR_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 12),
    st.floats(-10, 10, allow_nan=False).map(lambda x: round(x, 2)),
    st.sampled_from(["", "sent", "held", "new", "abc", "a@b.co", "3", "true", "null", '{"a": 1}',
                     '["x"]', "é\u2028", "zzzzzz"]),
)  # fmt: skip


def value_for(data: st.DataObject, schema: Any, depth: int = 0) -> Any:
    """A value near ``schema``: right in shape mostly, wrong here and there."""
    if depth > 4 or data.draw(st.integers(0, 9)) == 0:
        return data.draw(SCALAR_VALUES)
    if isinstance(schema, dict) and "$ref" in schema:
        schema = DEFS[schema["$ref"].rsplit("/", 1)[1]]
    if not isinstance(schema, dict):
        return data.draw(SCALAR_VALUES)
    for keyword in ("anyOf", "oneOf"):
        if keyword in schema:
            return value_for(data, data.draw(st.sampled_from(schema[keyword])), depth + 1)
    if schema.get("type") == "array":
        count = data.draw(st.integers(0, 4))
        return [value_for(data, schema["items"], depth + 1) for _ in range(count)]
    if "properties" in schema:
        keys = data.draw(st.lists(st.sampled_from([*schema["properties"], *KEYS]), unique=True))
        return {key: value_for(data, schema["properties"].get(key, {}), depth + 1) for key in keys}
    return data.draw(SCALAR_VALUES)


def kernel(function: LlmFunction, text: str) -> Any:
    return check_arguments(function, text, model_side(function))


def summary(answer: Any) -> Any:
    if isinstance(answer, CallResult):
        failure = answer.validation
        assert isinstance(failure, ValidationFailure)
        issues = [(i.path, i.expected, repr(i.value)) for i in failure.errors]
        return ("refused", issues, answer.feedback, answer.repairs)
    return ("checked", answer.data, answer.repairs)


@pytest.mark.budgeted
@settings(
    max_examples=scaled(100, 400), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(st.data())
def test_feed_reports_what_finish_reports(data: st.DataObject) -> None:
    properties = data.draw(objects(SCHEMAS))
    schema = {**properties, "$defs": DEFS}
    function = LlmFunction("f", None, schema)
    value = value_for(data, schema)
    if not isinstance(value, dict):
        value = {"a": value}
    indent = data.draw(st.sampled_from([None, 1]))
    text = json.dumps(value, indent=indent, ensure_ascii=data.draw(st.booleans()))
    expected = summary(kernel(function, text))
    seen = None
    for _ in range(3):
        cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=12)))
        pieces = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]
        arguments = stream(function)
        reported = []
        for piece in pieces:
            reported.extend((i.path, i.expected) for i in arguments.feed(piece))
        assert arguments.stopped is None, arguments.stopped
        answer = arguments.finish()
        assert summary(answer) == expected
        final = (
            {(path, wanted) for path, wanted, _ in expected[1]}
            if expected[0] == "refused"
            else set()
        )
        assert set(reported) <= final, (text, reported, expected)
        assert seen is None or sorted(seen) == sorted(reported)  # the split changes nothing
        seen = reported
        assert arguments.partial == value


@pytest.mark.budgeted
@settings(max_examples=scaled(80, 200), deadline=None)
@given(st.data())
def test_a_cut_text_never_checks_and_feed_never_raises(data: st.DataObject) -> None:
    schema = {**data.draw(objects(SCHEMAS)), "$defs": DEFS}
    function = LlmFunction("f", None, schema)
    value = value_for(data, schema)
    text = json.dumps(value if isinstance(value, dict) else {"a": value})
    cut = data.draw(st.integers(0, len(text) - 1))
    arguments = stream(function)
    arguments.feed(text[:cut])
    answer = arguments.finish()
    assert isinstance(answer, CallResult) and not answer.success
    assert summary(answer) == summary(kernel(function, text[:cut]))


def objects_in(value: Any) -> list[dict[str, Any]]:
    """Every object in ``value`` that has a member, outermost first."""
    if isinstance(value, list):
        return [found for item in value for found in objects_in(item)]
    if not isinstance(value, dict):
        return []
    inner = [found for member in value.values() for found in objects_in(member)]
    return [value, *inner] if value else inner


def written(value: Any, twice: dict[str, Any], key: str, second: Any) -> str:
    """``value`` as JSON text, the object ``twice`` writing ``key`` again (``second``) at
    its end."""
    if isinstance(value, list):
        return "[" + ", ".join(written(item, twice, key, second) for item in value) + "]"
    if not isinstance(value, dict):
        return json.dumps(value)
    members = [(k, written(v, twice, key, second)) for k, v in value.items()]
    if value is twice:
        members.append((key, json.dumps(second)))
    return "{" + ", ".join(f"{json.dumps(k)}: {v}" for k, v in members) + "}"


@pytest.mark.budgeted
@settings(max_examples=scaled(80, 200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_a_key_written_twice_finish_and_execute_refuse_alike(data: st.DataObject) -> None:
    schema = {**data.draw(objects(SCHEMAS)), "$defs": DEFS}
    function = LlmFunction("f", None, schema)
    value = value_for(data, schema)
    if not isinstance(value, dict) or not value:
        value = {"a": value}
    twice = data.draw(st.sampled_from(objects_in(value)))
    key = data.draw(st.sampled_from(sorted(twice)))
    text = written(value, twice, key, data.draw(SCALAR_VALUES))
    expected = kernel(function, text)
    assert isinstance(expected, CallResult) and not expected.success
    assert expected.feedback is not None and "written a second time" in expected.feedback
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=6)))
    arguments = stream(function)
    for a, b in zip([0, *cuts], [*cuts, len(text)]):
        arguments.feed(text[a:b])
    assert arguments.duplicates
    assert summary(arguments.finish()) == summary(expected)


NULL_KEPT = (
    {"oneOf": [{"type": "null"}, {"type": "null"}]},  # takes null twice: refused
    {"type": ["null", "string"], "not": {"type": "null"}},  # takes null by type, not whole
    {"oneOf": [{"type": "string"}, {"type": "null"}]},  # takes null: valid
    {"type": "string"},  # cannot be null: the call step drops it
)


@pytest.mark.parametrize("inner", NULL_KEPT)
@pytest.mark.parametrize("indent", [None, 1])
def test_a_null_for_an_optional_key_is_judged_as_the_call_step_judges_it(
    inner: Any, indent: int | None
) -> None:
    # A null for an optional key is "not given" only where the property cannot be null
    # (repair drops it); elsewhere the call step judges it, so the feed must too, read at
    # once or member by member, whatever the cuts.
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": {"b": {"type": "string"}, "c": inner}}
        },
    }
    function = LlmFunction("f", None, schema)
    text = json.dumps({"a": {"b": "x", "c": None}}, indent=indent)
    expected = summary(kernel(function, text))
    final = (
        {(path, wanted) for path, wanted, _ in expected[1]} if expected[0] == "refused" else set()
    )
    for cut in range(len(text) + 1):
        arguments = stream(function)
        reported = [
            (i.path, i.expected)
            for piece in (text[:cut], text[cut:])
            for i in arguments.feed(piece)
        ]
        assert summary(arguments.finish()) == expected
        assert sorted(reported) == sorted(final), (cut, reported, expected)
