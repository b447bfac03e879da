"""compile_converter on hand-built type-model nodes: each kind, identity skipping, unions, errors."""

from __future__ import annotations

import collections
import collections.abc as abc
import enum
import ipaddress
import sys
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple, TypedDict
from uuid import UUID

import pytest

from llmapp.convert import ConversionError, compile_converter
from llmapp.introspect.model import (
    AliasDef,
    AnyNode,
    ArrayNode,
    BooleanNode,
    DictNode,
    EnumDef,
    Field,
    IntegerNode,
    LiteralNode,
    Node,
    NullNode,
    NumberNode,
    ObjectDef,
    RefNode,
    StringNode,
    TupleNode,
    TypeGraph,
    UnionNode,
)

EMPTY = TypeGraph()
UTC = timezone.utc


def obj(cls: Any, kind: str, *fields: Field, additional: Node | None = None) -> ObjectDef:
    return ObjectDef(
        key=cls,
        name=cls.__name__,
        module=cls.__module__,
        qualname=cls.__qualname__,
        cls=cls,
        kind=kind,  # type: ignore[arg-type]
        fields=fields,
        additional=additional,
    )


def enum_def(cls: type[enum.Enum]) -> EnumDef:
    return EnumDef(
        key=cls,
        name=cls.__name__,
        module=cls.__module__,
        qualname=cls.__qualname__,
        cls=cls,
        values=tuple(m.value for m in cls),
    )


def graph(*definitions: Any) -> TypeGraph:
    return TypeGraph(definitions={d.key: d for d in definitions})


def optional(node: Node) -> UnionNode:
    return UnionNode(options=(node, NullNode()))


# -- types used below ----------------------------------------------------------------------


class Color(enum.Enum):
    RED = "red"
    GREEN = "green"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Flagged(enum.Enum):
    YES = True
    ONE = 1


@dataclass
class Point:
    x: float
    y: float


@dataclass
class Event:
    name: str
    at: datetime
    color: Color = Color.RED
    note: str = "none"
    tags: set[str] = field(default_factory=set)


class Pair(NamedTuple):
    left: int
    right: date = date(2000, 1, 1)


class Movie(TypedDict, total=False):
    title: str
    year: int


@dataclass
class Node_:
    value: int
    children: list[Node_] = field(default_factory=list)


@dataclass
class Cat:
    kind: str
    lives: int


@dataclass
class Dog:
    kind: str
    good: bool


@dataclass
class Renamed:
    class_: str


# -- scalars -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("node", "value", "expected"),
    [
        (
            StringNode(python_type=datetime),
            "2024-05-01T12:00:00Z",
            datetime(2024, 5, 1, 12, tzinfo=UTC),
        ),
        (StringNode(python_type=date), "2024-05-01", date(2024, 5, 1)),
        (StringNode(python_type=time), "08:30:00", time(8, 30)),
        (StringNode(python_type=timedelta), "P1DT2H", timedelta(days=1, hours=2)),
        (
            StringNode(python_type=UUID),
            "12345678-1234-5678-1234-567812345678",
            UUID("12345678-1234-5678-1234-567812345678"),
        ),
        (StringNode(python_type=Decimal), "1.50", Decimal("1.50")),
        (NumberNode(python_type=Decimal), 0.1, Decimal("0.1")),
        (IntegerNode(python_type=Decimal), 7, Decimal(7)),
        (
            StringNode(python_type=ipaddress.IPv4Address),
            "10.0.0.1",
            ipaddress.IPv4Address("10.0.0.1"),
        ),
        (StringNode(python_type=ipaddress.IPv6Address), "::1", ipaddress.IPv6Address("::1")),
        (StringNode(python_type=Path), "/tmp/x", Path("/tmp/x")),
        (StringNode(python_type=bytes), "aGVsbG8=", b"hello"),
        (StringNode(python_type=bytearray), "aGVsbG8", bytearray(b"hello")),
        (IntegerNode(python_type=int), 3.0, 3),
        (NumberNode(python_type=float), 3, 3.0),
        (LiteralNode(values=("red",), python_type=Color), "red", Color.RED),
        (IntegerNode(python_type=Level), 2, Level.HIGH),
    ],
)
def test_scalar(node: Node, value: Any, expected: Any) -> None:
    converted = compile_converter(node, EMPTY)(value)
    assert converted == expected
    assert type(converted) is type(expected)


class Sku(str):
    pass


def test_integral_floats_become_int_where_python_declared_int() -> None:
    assert type(compile_converter(IntegerNode(), EMPTY)(3.0)) is int
    ints = [1, 2, 3]
    assert compile_converter(ArrayNode(item=IntegerNode()), EMPTY)(ints) is ints
    converted = compile_converter(ArrayNode(item=IntegerNode()), EMPTY)([1, 2.0])
    assert converted == [1, 2] and type(converted[1]) is int
    assert compile_converter(ArrayNode(item=IntegerNode(), python_type=set), EMPTY)([1.0]) == {1}
    counts = {"a": 1}
    assert compile_converter(DictNode(value=IntegerNode()), EMPTY)(counts) is counts
    assert type(compile_converter(DictNode(value=IntegerNode()), EMPTY)({"a": 1.0})["a"]) is int


def test_integral_float_for_int_or_float_stays_a_float() -> None:
    for options in ((IntegerNode(), NumberNode()), (NumberNode(), IntegerNode())):
        convert = compile_converter(UnionNode(options=options), EMPTY)
        assert type(convert(3.0)) is float
        assert type(convert(3)) is int
    assert type(compile_converter(optional(IntegerNode()), EMPTY)(3.0)) is int


def test_scalar_subclasses_are_constructed() -> None:
    assert type(compile_converter(StringNode(python_type=Sku), EMPTY)("a-1")) is Sku


@pytest.mark.parametrize(
    "node",
    [
        StringNode(),
        NumberNode(),
        BooleanNode(),
        NullNode(),
        AnyNode(),
        LiteralNode(values=("a", 1)),
        StringNode(python_type=str),
        ArrayNode(item=IntegerNode()),
        ArrayNode(item=ArrayNode(item=StringNode()), python_type=list),
        ArrayNode(item=AnyNode(), python_type=abc.Sequence),
        DictNode(value=ArrayNode(item=NumberNode()), python_type=dict),
        DictNode(value=AnyNode(), python_type=abc.Mapping),
        UnionNode(options=(StringNode(), IntegerNode(), NullNode())),
    ],
)
def test_nothing_to_convert_returns_the_same_object(node: Node) -> None:
    value: Any = (
        {"a": [1.5]}
        if isinstance(node, DictNode)
        else [[1]]
        if isinstance(node, ArrayNode)
        else "x"
    )
    assert compile_converter(node, EMPTY)(value) is value


# -- containers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("python_type", "expected"),
    [
        (set, {1, 2}),
        (frozenset, frozenset({1, 2})),
        (tuple, (1, 2, 2)),
        (abc.Set, frozenset({1, 2})),
        (abc.MutableSet, {1, 2}),
        (collections.deque, collections.deque([1, 2, 2])),
    ],
)
def test_array_targets(python_type: Any, expected: Any) -> None:
    converted = compile_converter(ArrayNode(item=IntegerNode(), python_type=python_type), EMPTY)(
        [1, 2, 2]
    )
    assert converted == expected
    assert type(converted) is type(expected)


def test_array_of_converted_items_is_a_new_list() -> None:
    value = ["2024-01-01", "2024-01-02"]
    converted = compile_converter(ArrayNode(item=StringNode(python_type=date)), EMPTY)(value)
    assert converted == [date(2024, 1, 1), date(2024, 1, 2)]
    assert value == ["2024-01-01", "2024-01-02"]  # never mutated


def test_set_of_dates() -> None:
    node = ArrayNode(item=StringNode(python_type=date), python_type=frozenset, unique_items=True)
    assert compile_converter(node, EMPTY)(["2024-01-01"]) == frozenset({date(2024, 1, 1)})


def test_tuple() -> None:
    plain = TupleNode(items=(IntegerNode(), StringNode()), python_type=tuple)
    assert compile_converter(plain, EMPTY)([1, "a"]) == (1, "a")
    mixed = TupleNode(items=(IntegerNode(), StringNode(python_type=date)), python_type=tuple)
    assert compile_converter(mixed, EMPTY)([1, "2024-01-01"]) == (1, date(2024, 1, 1))


def test_dict_values() -> None:
    node = DictNode(value=StringNode(python_type=UUID), python_type=dict)
    uid = "12345678-1234-5678-1234-567812345678"
    assert compile_converter(node, EMPTY)({"a": uid}) == {"a": UUID(uid)}


# -- objects -------------------------------------------------------------------------------

EVENT = obj(
    Event,
    "dataclass",
    Field(name="name", type=StringNode()),
    Field(name="at", type=StringNode(python_type=datetime)),
    Field(name="color", type=RefNode(key=Color), required=False, default=Color.RED),
    Field(name="note", type=StringNode(), required=False, default="none"),
    Field(name="tags", type=ArrayNode(item=StringNode(), python_type=set), required=False),
)
EVENTS = graph(EVENT, enum_def(Color))


def test_dataclass_with_defaults_left_to_python() -> None:
    convert = compile_converter(RefNode(key=Event), EVENTS)
    assert convert({"name": "a", "at": "2024-05-01T00:00:00Z"}) == Event(
        "a", datetime(2024, 5, 1, tzinfo=UTC)
    )
    assert convert(
        {"name": "a", "at": "2024-05-01T00:00:00Z", "color": "green", "tags": ["x", "x"]}
    ) == Event("a", datetime(2024, 5, 1, tzinfo=UTC), Color.GREEN, tags={"x"})


def test_null_for_an_optional_field_that_cannot_be_null_means_not_given() -> None:
    convert = compile_converter(RefNode(key=Event), EVENTS)
    event = convert(
        {"name": "a", "at": "2024-05-01T00:00:00Z", "color": None, "note": None, "tags": None}
    )
    assert event == Event("a", datetime(2024, 5, 1, tzinfo=UTC))


def test_null_is_kept_where_the_type_accepts_it() -> None:
    @dataclass
    class Memo:
        text: str | None = "default"

    memo = obj(Memo, "dataclass", Field(name="text", type=optional(StringNode()), required=False))
    assert compile_converter(RefNode(key=Memo), graph(memo))({"text": None}) == Memo(None)


def test_namedtuple() -> None:
    pair = obj(
        Pair,
        "namedtuple",
        Field(name="left", type=IntegerNode()),
        Field(name="right", type=StringNode(python_type=date), required=False),
    )
    convert = compile_converter(RefNode(key=Pair), graph(pair))
    assert convert({"left": 1}) == Pair(1)
    assert convert({"left": 1, "right": "2024-02-03"}) == Pair(1, date(2024, 2, 3))


def _built_by(cls: type, *fields: Field) -> Any:
    return compile_converter(RefNode(key=cls), graph(obj(cls, "class", *fields)))


_AB = (Field(name="a", type=IntegerNode()), Field(name="b", type=StringNode(python_type=date)))


def test_a_constructor_gets_what_its_own_signature_takes_by_position_and_the_rest_by_name() -> None:
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []

    class Spy:
        def __init__(self, a: int, b: date, *, c: str = "") -> None:
            calls.append(((a, b), {"c": c}))

    convert = _built_by(Spy, *_AB, Field(name="c", type=StringNode(), required=False))
    convert({"a": 1.0, "b": "2024-02-03", "c": "x"})
    assert calls == [((1, date(2024, 2, 3)), {"c": "x"})]


def test_a_wrapped_constructor_that_takes_keywords_only_gets_keywords() -> None:
    import functools

    class Wrapped:
        def __init__(self, a: int, b: date) -> None:
            self.pair = (a, b)

        original = __init__

        @functools.wraps(original)
        def __init__(self, **kwargs: Any) -> None:  # type: ignore[no-redef]
            Wrapped.original(self, **kwargs)

    assert _built_by(Wrapped, *_AB)({"a": 1, "b": "2024-02-03"}).pair == (1, date(2024, 2, 3))


def test_positional_only_parameters_are_refused_as_before() -> None:
    class Positional:
        def __init__(self, a: int, /, b: date) -> None: ...

    with pytest.raises(ConversionError):
        _built_by(Positional, *_AB)({"a": 1, "b": "2024-02-03"})


def test_fields_out_of_the_constructors_order_go_by_name() -> None:
    class Swapped:
        def __init__(self, b: date, a: int) -> None:
            self.pair = (a, b)

    assert _built_by(Swapped, *_AB)({"a": 1, "b": "2024-02-03"}).pair == (1, date(2024, 2, 3))


def test_typeddict_of_plain_fields_is_the_same_dict() -> None:
    movie = obj(
        Movie,
        "typeddict",
        Field(name="title", type=StringNode()),
        Field(name="year", type=optional(NumberNode()), required=False),
    )
    value = {"title": "Alien", "year": None}
    assert compile_converter(RefNode(key=Movie), graph(movie))(value) is value


def test_typeddict_drops_strict_mode_nulls_into_a_new_dict() -> None:
    movie = obj(
        Movie,
        "typeddict",
        Field(name="title", type=StringNode()),
        Field(name="year", type=IntegerNode(), required=False),
    )
    value = {"title": "Alien", "year": None}
    assert compile_converter(RefNode(key=Movie), graph(movie))(value) == {"title": "Alien"}
    assert value == {"title": "Alien", "year": None}


def test_python_name_is_used_for_keywords() -> None:
    renamed = obj(
        Renamed, "dataclass", Field(name="class", type=StringNode(), python_name="class_")
    )
    assert compile_converter(RefNode(key=Renamed), graph(renamed))({"class": "x"}) == Renamed("x")


def test_typeddict_with_extra_keys_keeps_them_converted() -> None:
    class Open(TypedDict):
        id: int

    open_ = obj(
        Open,
        "typeddict",
        Field(name="id", type=IntegerNode()),
        additional=StringNode(python_type=date),
    )
    converted = compile_converter(RefNode(key=Open), graph(open_))({"id": 1, "when": "2024-01-01"})
    assert converted == {"id": 1, "when": date(2024, 1, 1)}


def test_enum_lookup_keeps_true_and_1_apart() -> None:
    convert = compile_converter(RefNode(key=Flagged), graph(enum_def(Flagged)))
    assert convert(True) is Flagged.YES
    assert convert(1) is Flagged.ONE
    assert convert(1.0) is Flagged.ONE


@dataclass
class Painted:
    color: Color
    level: Level


def test_an_object_field_of_a_string_enum_is_looked_up_inline_and_falls_back_to_the_converter() -> (
    None
):
    painted = obj(
        Painted,
        "dataclass",
        Field(name="color", type=RefNode(key=Color)),
        Field(name="level", type=RefNode(key=Level)),
    )
    convert = compile_converter(
        RefNode(key=Painted), graph(painted, enum_def(Color), enum_def(Level))
    )
    assert convert({"color": "green", "level": 2}) == Painted(Color.GREEN, Level.HIGH)
    assert convert({"color": Color.RED, "level": Level.LOW}) == Painted(Color.RED, Level.LOW)
    with pytest.raises(ConversionError) as raised:  # not a member: the converter says why
        convert({"color": "blue", "level": 1})
    assert str(raised.value).startswith("$input.color: cannot become Color")


def test_recursive_dataclass() -> None:
    tree = obj(
        Node_,
        "dataclass",
        Field(name="value", type=IntegerNode()),
        Field(name="children", type=ArrayNode(item=RefNode(key=Node_)), required=False),
    )
    value = {"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}, {"value": 4}]}
    assert compile_converter(RefNode(key=Node_), graph(tree))(value) == Node_(
        1, [Node_(2, [Node_(3)]), Node_(4)]
    )


def test_recursive_typeddict_of_plain_fields_is_identity() -> None:
    class Tree(TypedDict):
        name: str
        children: list[Tree]

    tree = obj(
        Tree,
        "typeddict",
        Field(name="name", type=StringNode()),
        Field(name="children", type=ArrayNode(item=RefNode(key=Tree))),
    )
    value = {"name": "a", "children": [{"name": "b", "children": []}]}
    assert compile_converter(RefNode(key=Tree), graph(tree))(value) is value


def test_recursive_typeddict_that_converts_deep_down() -> None:
    class Tree(TypedDict):
        at: date
        children: list[Tree]

    tree = obj(
        Tree,
        "typeddict",
        Field(name="at", type=StringNode(python_type=date)),
        Field(name="children", type=ArrayNode(item=RefNode(key=Tree))),
    )
    value = {"at": "2024-01-01", "children": [{"at": "2024-01-02", "children": []}]}
    assert compile_converter(RefNode(key=Tree), graph(tree))(value) == {
        "at": date(2024, 1, 1),
        "children": [{"at": date(2024, 1, 2), "children": []}],
    }


def test_mutually_recursive_definitions_solve_needs_as_a_fixed_point() -> None:
    # A (TypedDict) -> B (TypedDict) -> A, and B also holds a date: both need converting.
    class A(TypedDict):
        b: list[B]

    class B(TypedDict):
        a: list[A]
        at: date

    a = obj(A, "typeddict", Field(name="b", type=ArrayNode(item=RefNode(key=B))))
    b = obj(
        B,
        "typeddict",
        Field(name="a", type=ArrayNode(item=RefNode(key=A))),
        Field(name="at", type=StringNode(python_type=date)),
    )
    value = {"b": [{"a": [{"b": []}], "at": "2024-01-01"}]}
    assert compile_converter(RefNode(key=A), graph(a, b))(value) == {
        "b": [{"a": [{"b": []}], "at": date(2024, 1, 1)}]
    }


def test_recursive_alias() -> None:
    key = "Json"
    alias = AliasDef(
        key=key,
        name="Json",
        module="m",
        qualname="Json",
        cls=key,
        type=UnionNode(
            options=(StringNode(python_type=date), ArrayNode(item=RefNode(key=key)), NullNode())
        ),
    )
    convert = compile_converter(RefNode(key=key), TypeGraph(definitions={key: alias}))
    assert convert(["2024-01-01", [None, "2024-01-02"]]) == [
        date(2024, 1, 1),
        [None, date(2024, 1, 2)],
    ]


# -- unions --------------------------------------------------------------------------------


def test_optional_datetime() -> None:
    convert = compile_converter(optional(StringNode(python_type=datetime)), EMPTY)
    assert convert(None) is None
    assert convert("2024-01-01T00:00:00") == datetime(2024, 1, 1)


def test_datetime_or_date_decided_by_the_written_form() -> None:
    node = UnionNode(options=(StringNode(python_type=datetime), StringNode(python_type=date)))
    convert = compile_converter(node, EMPTY)
    assert type(convert("2024-01-01")) is date
    assert type(convert("2024-01-01T10:00:00Z")) is datetime


def test_str_first_wins_over_later_conversions() -> None:
    node = UnionNode(options=(StringNode(), StringNode(python_type=date)))
    assert compile_converter(node, EMPTY)("2024-01-01") == "2024-01-01"


def test_uuid_or_plain_string() -> None:
    node = UnionNode(options=(StringNode(python_type=UUID), StringNode()))
    convert = compile_converter(node, EMPTY)
    assert convert("not-a-uuid") == "not-a-uuid"
    assert isinstance(convert("12345678-1234-5678-1234-567812345678"), UUID)


CATS_AND_DOGS = graph(
    obj(
        Cat,
        "dataclass",
        Field(name="kind", type=LiteralNode(values=("cat",))),
        Field(name="lives", type=IntegerNode()),
    ),
    obj(
        Dog,
        "dataclass",
        Field(name="kind", type=LiteralNode(values=("dog",))),
        Field(name="good", type=BooleanNode()),
    ),
)


def test_union_of_dataclasses_by_keys_and_literals() -> None:
    node = ArrayNode(item=UnionNode(options=(RefNode(key=Cat), RefNode(key=Dog))))
    convert = compile_converter(node, CATS_AND_DOGS)
    assert convert([{"kind": "dog", "good": True}, {"kind": "cat", "lives": 9}]) == [
        Dog("dog", True),
        Cat("cat", 9),
    ]


def test_union_of_dataclasses_by_field_kinds() -> None:
    @dataclass
    class ById:
        key: int

    @dataclass
    class ByName:
        key: str

    g = graph(
        obj(ById, "dataclass", Field(name="key", type=IntegerNode())),
        obj(ByName, "dataclass", Field(name="key", type=StringNode())),
    )
    convert = compile_converter(UnionNode(options=(RefNode(key=ById), RefNode(key=ByName))), g)
    assert convert({"key": "x"}) == ByName("x")
    assert convert({"key": 3}) == ById(3)


def test_union_of_object_and_list_and_null_dispatches_by_kind() -> None:
    point = obj(
        Point, "dataclass", Field(name="x", type=NumberNode()), Field(name="y", type=NumberNode())
    )
    node = UnionNode(options=(RefNode(key=Point), ArrayNode(item=RefNode(key=Point)), NullNode()))
    convert = compile_converter(node, graph(point))
    assert convert({"x": 1, "y": 2}) == Point(1, 2)
    assert convert([{"x": 1, "y": 2}]) == [Point(1, 2)]
    assert convert(None) is None


def test_union_of_enum_and_dataclass() -> None:
    point = obj(
        Point, "dataclass", Field(name="x", type=NumberNode()), Field(name="y", type=NumberNode())
    )
    node = UnionNode(options=(RefNode(key=Color), RefNode(key=Point)))
    convert = compile_converter(node, graph(point, enum_def(Color)))
    assert convert("red") is Color.RED
    assert convert({"x": 0, "y": 0}) == Point(0, 0)


def test_union_of_tuples_by_length() -> None:
    node = UnionNode(
        options=(
            TupleNode(items=(IntegerNode(),), python_type=tuple),
            TupleNode(items=(IntegerNode(), StringNode(python_type=date)), python_type=tuple),
        )
    )
    convert = compile_converter(node, EMPTY)
    assert convert([1]) == (1,)
    assert convert([1, "2024-01-01"]) == (1, date(2024, 1, 1))


def test_union_branch_that_refuses_falls_through_to_the_next_that_fits() -> None:
    @dataclass
    class Positive:
        n: int

        def __post_init__(self) -> None:
            if self.n <= 0:
                raise ValueError("must be positive")

    @dataclass
    class Anything:
        n: int

    g = graph(
        obj(Positive, "dataclass", Field(name="n", type=IntegerNode())),
        obj(Anything, "dataclass", Field(name="n", type=IntegerNode())),
    )
    convert = compile_converter(
        UnionNode(options=(RefNode(key=Positive), RefNode(key=Anything))), g
    )
    assert convert({"n": 2}) == Positive(2)
    assert convert({"n": -2}) == Anything(-2)


@pytest.mark.skipif(
    sys.version_info < (3, 11), reason="fromisoformat reads basic ISO format from 3.11"
)
def test_union_value_no_matcher_accepts_falls_back_to_a_converter_that_works() -> None:
    # The basic ISO form "20240501T120000Z" is no matcher's form, but Python reads it.
    node = UnionNode(options=(StringNode(python_type=UUID), StringNode(python_type=datetime)))
    assert compile_converter(node, EMPTY)("20240501T120000Z") == datetime(
        2024, 5, 1, 12, tzinfo=UTC
    )


def test_union_value_no_branch_can_take_is_returned_as_is() -> None:
    node = UnionNode(options=(StringNode(python_type=UUID), StringNode(python_type=date)))
    assert compile_converter(node, EMPTY)("neither") == "neither"


# -- errors --------------------------------------------------------------------------------


def test_conversion_error_has_the_path_from_input() -> None:
    node = DictNode(value=ArrayNode(item=RefNode(key=Event)))
    convert = compile_converter(node, EVENTS)
    good = {"name": "a", "at": "2024-01-01T00:00:00Z"}
    bad = {"name": "b", "at": "0000-01-01T00:00:00Z"}
    with pytest.raises(ConversionError) as caught:
        convert({"content-type": [good, bad]})
    error = caught.value
    assert error.path == '$input["content-type"][1].at'
    assert error.expected == "datetime"
    assert error.value == "0000-01-01T00:00:00Z"
    assert isinstance(error.cause, ValueError)
    assert str(error).startswith(
        '$input["content-type"][1].at: cannot become datetime (ValueError:'
    )


def test_constructor_refusal_is_reported_at_the_object() -> None:
    @dataclass
    class Range:
        low: int
        high: int

        def __post_init__(self) -> None:
            if self.low > self.high:
                raise ValueError("low > high")

    g = graph(
        obj(
            Range,
            "dataclass",
            Field(name="low", type=IntegerNode()),
            Field(name="high", type=IntegerNode()),
        )
    )
    convert = compile_converter(ArrayNode(item=RefNode(key=Range)), g)
    with pytest.raises(ConversionError) as caught:
        convert([{"low": 1, "high": 2}, {"low": 3, "high": 2}])
    assert caught.value.path == "$input[1]"
    assert caught.value.expected == "Range"
    assert caught.value.reason == "ValueError: low > high"


def test_top_level_scalar_error() -> None:
    with pytest.raises(ConversionError) as caught:
        compile_converter(StringNode(python_type=date), EMPTY)("2023-02-30")
    assert caught.value.path == "$input"
    assert caught.value.expected == "date"


def test_undefined_reference_is_a_build_time_lookup_error() -> None:
    with pytest.raises(LookupError):
        compile_converter(RefNode(key="Missing"), EMPTY)


def test_generated_object_converter_shows_its_source_in_tracebacks() -> None:
    import linecache
    import traceback

    from llmapp.convert._to_python import Compiler

    convert = Compiler(EVENTS).compile(RefNode(key=Event))
    assert convert is not None
    source = convert.__llmapp_source__
    assert source.startswith("def convert_Event(value):")
    assert "a1 = c1(value['at'])" in source
    try:
        convert({"name": "a", "at": "not a date"})
    except ConversionError as error:
        frames = traceback.extract_tb(error.__traceback__)
    filename = frames[-1].filename
    assert filename.startswith("<llmapp.convert convert_Event ")
    assert linecache.getline(filename, 1) == "def convert_Event(value):\n"


def test_attrs_like_class_never_gets_extra_keys() -> None:
    @dataclass
    class Closed:
        a: date

    closed = obj(
        Closed, "class", Field(name="a", type=StringNode(python_type=date)), additional=AnyNode()
    )
    convert = compile_converter(RefNode(key=Closed), graph(closed))
    assert convert({"a": "2024-01-01", "b": 1}) == Closed(date(2024, 1, 1))
