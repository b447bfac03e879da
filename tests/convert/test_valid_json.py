"""Any JSON valid for a type converts without error, and its result's to_json is valid again.

The JSON is generated from the type model itself, in every form a model may
write it and the validator accepts: ``3.0`` for an integer, ``null`` for an
optional field (OpenAI strict mode), ``Z``/offsets/lower-case ``t`` in date-times,
leap seconds, durations with years and weeks. The
generated data is checked against llmapp's own validator first (strict
parameters schema), and the result's ``to_json`` against the output schema.
"""

from __future__ import annotations

import base64
from datetime import datetime, timedelta
from decimal import Decimal
from ipaddress import IPv4Address, IPv6Address
from pathlib import PurePath
from typing import Any
from uuid import UUID

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llmapp._scalars.iso8601 import format_duration
from llmapp.convert import compile_arguments, to_json
from llmapp.introspect._types import TypeBuilder
from llmapp.introspect.model import (
    AliasDef,
    AnyNode,
    ArrayNode,
    BooleanNode,
    DictNode,
    EnumDef,
    IntegerNode,
    LiteralNode,
    MethodSpec,
    Node,
    NullNode,
    NumberNode,
    ParameterSpec,
    RefNode,
    StringNode,
    TupleNode,
    TypeGraph,
    UnionNode,
)
from llmapp.schema._emit import SchemaEmitter
from llmapp.validate import validator

from . import test_from_annotations as types

Strategy = st.SearchStrategy[Any]
text = st.text(max_size=6)
offsets = st.sampled_from(["Z", "z", "+00:00", "-05:30", "+14:00", ""])


def _datetime() -> Strategy:
    def write(parts: tuple[Any, str, str]) -> str:
        moment, separator, offset = parts
        clock = moment.strftime("%H:%M:%S")
        if moment.microsecond:
            clock += f".{moment.microsecond:06d}"
        return f"{moment.date().isoformat()}{separator}{clock}{offset}"

    # RFC 3339 years have four digits: start at year 1000 (a replaced year can lose Feb 29).
    moments = st.datetimes(min_value=datetime(1000, 1, 1))
    written = st.tuples(moments, st.sampled_from(["T", "t"]), offsets.filter(bool)).map(write)
    return written | st.just("2016-12-31T23:59:60Z")


def _time() -> Strategy:
    clock = st.times().map(lambda t: t.isoformat())  # RFC 3339 full-time: the offset is required
    return st.tuples(clock, offsets.filter(bool)).map("".join) | st.just("23:59:60Z")


def _duration() -> Strategy:
    # RFC 3339 durations have no sign and whole numbers only (the validator follows its grammar).
    whole = st.integers(0, 10**10).map(lambda seconds: timedelta(seconds=seconds))
    return whole.map(format_duration) | st.sampled_from(["P1Y2M3DT4H5M6S", "P2W", "PT36H"])


def _base64() -> Strategy:
    return st.binary(max_size=12).map(lambda b: base64.b64encode(b).decode())


_FORMATTED: dict[Any, Strategy] = {
    types.datetime: _datetime(),
    types.date: st.dates(min_value=types.date(1000, 1, 1)).map(lambda d: d.isoformat()),
    types.time: _time(),
    timedelta: _duration(),
    UUID: st.uuids().map(str) | st.uuids().map(lambda u: str(u).upper()),
    Decimal: st.decimals(allow_nan=False, allow_infinity=False).map(str),
    IPv4Address: st.ip_addresses(v=4).map(str),
    IPv6Address: st.ip_addresses(v=6).map(str),
    PurePath: text,
    bytes: _base64(),
    bytearray: _base64(),
}

_ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | text,
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(text, inner, max_size=2),
    max_leaves=4,
)


class JsonFor:
    """A hypothesis strategy for JSON that is valid for a node of the type model."""

    def __init__(self, graph: TypeGraph, *, strict: bool) -> None:
        self.graph = graph
        self.strict = strict
        self._definitions: dict[Any, Strategy] = {}

    def of(self, node: Node) -> Strategy:
        if isinstance(node, RefNode):
            return self._ref(node.key)
        if isinstance(node, StringNode):
            for cls in getattr(node.python_type, "__mro__", ()):
                if cls in _FORMATTED:
                    return _FORMATTED[cls]
            return text
        if isinstance(node, IntegerNode):
            low = int(node.ge) if node.ge is not None else None
            ints = st.integers(min_value=low, max_value=10**9)
            return ints | ints.map(float)
        if isinstance(node, NumberNode):
            return st.floats(allow_nan=False, allow_infinity=False) | st.integers()
        if isinstance(node, BooleanNode):
            return st.booleans()
        if isinstance(node, NullNode):
            return st.none()
        if isinstance(node, AnyNode):
            return _ANY_JSON
        if isinstance(node, LiteralNode):
            return st.sampled_from(node.values)
        if isinstance(node, ArrayNode):
            unique = node.unique_items
            return st.lists(self.of(node.item), max_size=3, unique_by=repr if unique else None)
        if isinstance(node, TupleNode):
            return st.tuples(*(self.of(item) for item in node.items)).map(list)
        if isinstance(node, DictNode):
            return st.dictionaries(text, self.of(node.value), max_size=3)
        if isinstance(node, UnionNode):
            return st.one_of([self.of(option) for option in node.options])
        raise AssertionError(f"no strategy for {node!r}")

    def _ref(self, key: Any) -> Strategy:
        if key not in self._definitions:
            self._definitions[key] = st.deferred(lambda: self._definition(key))
        return self._definitions[key]

    def _definition(self, key: Any) -> Strategy:
        definition = self.graph.definitions[key]
        if isinstance(definition, EnumDef):
            return st.sampled_from(definition.values)
        if isinstance(definition, AliasDef):
            return self.of(definition.type)
        required = {f.name: self.of(f.type) for f in definition.fields if f.required}
        optional = {f.name: self.of(f.type) for f in definition.fields if not f.required}
        if self.strict:  # every key is there; null says "not given"
            required.update({name: st.none() | value for name, value in optional.items()})
            return st.fixed_dictionaries(required)
        return st.fixed_dictionaries(required, optional=optional)


CASES = [
    types.Order,
    types.Address,
    types.Span,
    types.Page[types.Customer],
    types.Category,
    types.Tree,
    list[types.Cat | types.Dog],
    types.Server,
    dict[str, tuple[int, types.Tier | None]],
    set[types.Priority] | bytes | None,
]


@pytest.mark.parametrize("strict", [False, True], ids=["loose", "strict"])
@pytest.mark.parametrize("annotation", CASES, ids=[repr(case)[:40] for case in CASES])
def test_valid_json_always_converts_and_comes_back_valid(annotation: Any, strict: bool) -> None:
    builder = TypeBuilder()
    node = builder.build(annotation, location="case", globalns=vars(types))
    assert node is not None, builder.problems
    graph = builder.graph()
    parameter = ParameterSpec(name="value", type=node)
    method = MethodSpec(
        name="m", kind="static", is_async=False, parameters=(parameter,), returns=node
    )
    accepts = validator(SchemaEmitter(graph, strict=strict).parameters(method.parameters))
    output = validator(SchemaEmitter(graph).output(node))
    build = compile_arguments(method, graph)

    @settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
    @given(JsonFor(graph, strict=strict).of(node))
    def check(data: Any) -> None:
        validation = accepts({"value": data})
        assert validation.success, (data, validation)
        _, kwargs = build({"value": data})
        encoded = to_json(kwargs["value"])
        assert output(encoded).success, (data, encoded, output(encoded))

    check()
