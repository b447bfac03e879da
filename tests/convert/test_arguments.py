"""compile_arguments: validated JSON arguments -> (args, kwargs) for the Python call."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest

from llmapp.convert import ConversionError, compile_arguments
from llmapp.introspect.model import (
    ArrayNode,
    Field,
    IntegerNode,
    MethodSpec,
    NullNode,
    ObjectDef,
    ParameterSpec,
    RefNode,
    StringNode,
    TypeGraph,
    UnionNode,
)


def method(*parameters: ParameterSpec) -> MethodSpec:
    return MethodSpec(
        name="m", kind="instance", is_async=False, parameters=parameters, returns=None
    )


def param(name: str, node: Any = None, **options: Any) -> ParameterSpec:
    return ParameterSpec(name=name, type=node or StringNode(), **options)


def test_keywords_and_absent_parameters() -> None:
    build = compile_arguments(
        method(param("query"), param("limit", IntegerNode(), required=False, default=10)),
        TypeGraph(),
    )
    assert build({"query": "shoes"}) == ([], {"query": "shoes"})
    assert build({"query": "shoes", "limit": 3}) == ([], {"query": "shoes", "limit": 3})


def test_null_for_an_optional_parameter_that_cannot_be_null_is_left_out() -> None:
    build = compile_arguments(
        method(
            param("limit", IntegerNode(), required=False, default=10),
            param(
                "note", UnionNode(options=(StringNode(), NullNode())), required=False, default="x"
            ),
        ),
        TypeGraph(),
    )
    assert build({"limit": None, "note": None}) == ([], {"note": None})


def test_required_null_stays() -> None:
    build = compile_arguments(method(param("note", NullNode())), TypeGraph())
    assert build({"note": None}) == ([], {"note": None})


def test_positional_only_go_in_order_and_trailing_absent_ones_are_dropped() -> None:
    build = compile_arguments(
        method(
            param("a", positional_only=True),
            param("b", positional_only=True, required=False, default="B"),
            param("c", positional_only=True, required=False, default="C"),
            param("d"),
        ),
        TypeGraph(),
    )
    assert build({"d": "x", "a": "1"}) == (["1"], {"d": "x"})
    assert build({"c": "3", "a": "1"}) == (["1", "B", "3"], {})
    assert build({"b": "2", "a": "1", "c": None}) == (["1", "2"], {})


def test_positional_gap_without_default_is_reported() -> None:
    build = compile_arguments(
        method(param("a", positional_only=True), param("b", positional_only=True)), TypeGraph()
    )
    with pytest.raises(ConversionError) as caught:
        build({"b": "2"})
    assert caught.value.path == "$input.a"


def test_kwargs_spread_from_unpack_and_python_names() -> None:
    build = compile_arguments(
        method(
            param("from", python_name="from_"),
            param("color", from_kwargs=True),
            param("size", IntegerNode(), from_kwargs=True, required=False),
        ),
        TypeGraph(),
    )
    assert build({"from": "a", "color": "red", "size": None}) == (
        [],
        {"from_": "a", "color": "red"},
    )


def test_unknown_keys_are_never_passed_on() -> None:
    build = compile_arguments(method(param("a")), TypeGraph())
    assert build({"a": "1", "__class__": "x"}) == ([], {"a": "1"})


@dataclass
class Line:
    sku: str
    day: date


LINE = ObjectDef(
    key=Line,
    name="Line",
    module=__name__,
    qualname="Line",
    cls=Line,
    kind="dataclass",
    fields=(
        Field(name="sku", type=StringNode()),
        Field(name="day", type=StringNode(python_type=date)),
    ),
)


def test_converted_parameters_and_errors_with_paths() -> None:
    build = compile_arguments(
        method(
            param("lines", ArrayNode(item=RefNode(key=Line))),
            param("day", StringNode(python_type=date)),
        ),
        TypeGraph(definitions={Line: LINE}),
    )
    args, kwargs = build({"lines": [{"sku": "a", "day": "2024-01-02"}], "day": "2024-01-01"})
    assert args == []
    assert kwargs == {"lines": [Line("a", date(2024, 1, 2))], "day": date(2024, 1, 1)}
    with pytest.raises(ConversionError) as caught:
        build({"lines": [{"sku": "a", "day": "2024-02-30"}], "day": "2024-01-01"})
    assert caught.value.path == "$input.lines[0].day"
    assert caught.value.expected == "date"
    with pytest.raises(ConversionError) as caught:
        build({"lines": [], "day": "nope"})
    assert caught.value.path == "$input.day"


def test_the_arguments_are_never_mutated() -> None:
    build = compile_arguments(
        method(param("day", StringNode(python_type=date), required=False)), TypeGraph()
    )
    arguments = {"day": "2024-01-01"}
    build(arguments)
    assert arguments == {"day": "2024-01-01"}


def test_values_that_are_already_python_pass_through() -> None:
    # Human-side values come from the caller as Python objects, not JSON.
    build = compile_arguments(
        method(
            param("file", StringNode(python_type=bytes, content_encoding="base64")),
            param("day", StringNode(python_type=date)),
            param("lines", ArrayNode(item=RefNode(key=Line))),
        ),
        TypeGraph(definitions={Line: LINE}),
    )
    line = Line("a", date(2024, 1, 1))
    _, kwargs = build(
        {
            "file": b"%PDF",
            "day": date(2024, 1, 2),
            "lines": [line, {"sku": "b", "day": "2024-01-03"}],
        }
    )
    assert kwargs == {
        "file": b"%PDF",
        "day": date(2024, 1, 2),
        "lines": [line, Line("b", date(2024, 1, 3))],
    }
    assert kwargs["lines"][0] is line
    _, kwargs = build({"file": "JVBERg==", "day": "2024-01-02", "lines": []})
    assert kwargs["file"] == b"%PDF"


def test_keys_spread_into_kwargs_reach_the_method_in_the_models_order() -> None:
    build = compile_arguments(
        method(param("from", python_name="from_"), param("color", from_kwargs=True)), TypeGraph()
    )
    assert list(build({"color": "red", "from": "a"})[1]) == ["color", "from_"]


@pytest.mark.parametrize(
    "arguments",
    [
        {},
        {"a": 1, "b": 2.0, "c": None, "d": "2024-01-02", "e": 3},
        {"e": 3.0, "d": None, "zzz": 1},
        {"b": None, "a": None},
        {"a": 1, "c": "x"},
    ],
)
def test_the_generated_builder_gives_what_the_walk_over_the_arguments_gives(
    arguments: dict[str, Any],
) -> None:
    build = compile_arguments(
        method(
            param("a", IntegerNode(), positional_only=True),
            param("b", IntegerNode(), positional_only=True, required=False, default=7),
            param("c", UnionNode(options=(StringNode(), NullNode())), required=False),
            param("d", StringNode(python_type=date), required=False),
            param("e", IntegerNode(), python_name="e_", required=False),
        ),
        TypeGraph(),
    )
    assert build.convert != build._walk  # the generated function
    try:
        expected: Any = build._walk(arguments)
    except ConversionError as error:
        expected = (type(error), error.path)
    try:
        found: Any = build(arguments)
    except ConversionError as error:
        found = (type(error), error.path)
    assert found == expected
