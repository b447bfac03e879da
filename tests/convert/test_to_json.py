"""to_json: Python results -> JSON-ready data; never raises, handles cycles and unknown objects."""

from __future__ import annotations

import collections
import collections.abc
import enum
import ipaddress
import json
import math
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from pathlib import Path, PurePosixPath
from typing import Any, NamedTuple, TypedDict
from uuid import UUID

import attrs
import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmapp._limits import MAX_JSON_DEPTH
from llmapp.convert import to_json


class Color(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 2


class Pair(NamedTuple):
    left: int
    right: Color


class Movie(TypedDict):
    title: str
    released: date


@dataclass
class Item:
    sku: str
    price: Decimal
    tags: frozenset[str] = frozenset()


@dataclass
class Order:
    id: UUID
    items: list[Item]
    at: datetime
    wait: timedelta = timedelta(0)
    meta: dict[Any, Any] = field(default_factory=dict)


class Customer(pydantic.BaseModel):
    name: str
    since: date
    nick: str = pydantic.Field(alias="nickName")


@attrs.define
class Box:
    _secret: str
    size: int


UID = UUID("12345678-1234-5678-1234-567812345678")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("text", "text"),
        (3, 3),
        (1.5, 1.5),
        (True, True),
        (None, None),
        (math.nan, None),
        (-math.inf, None),
        (Color.RED, "red"),
        (Level.HIGH, 2),
        (datetime(2024, 5, 1, 12, tzinfo=timezone.utc), "2024-05-01T12:00:00+00:00"),
        (date(2024, 5, 1), "2024-05-01"),
        (time(8, 30), "08:30:00"),
        (timedelta(days=1, minutes=5), "P1DT5M"),
        (UID, "12345678-1234-5678-1234-567812345678"),
        (Decimal("1.50"), "1.50"),
        (ipaddress.IPv4Address("10.0.0.1"), "10.0.0.1"),
        (ipaddress.IPv6Network("::/64"), "::/64"),
        (Path("/tmp/x"), "/tmp/x"),
        (PurePosixPath("a/b"), "a/b"),
        (b"hello", "aGVsbG8="),
        (bytearray(b"hi"), "aGk="),
        ((1, "a"), [1, "a"]),
        ({3, 1, 2}, [1, 2, 3]),
        (frozenset({"b", "a"}), ["a", "b"]),
        (collections.deque([1, 2]), [1, 2]),
        (collections.OrderedDict(a=1), {"a": 1}),
        (Pair(1, Color.RED), {"left": 1, "right": "red"}),
        (
            {"title": "Alien", "released": date(1979, 5, 25)},
            {"title": "Alien", "released": "1979-05-25"},
        ),
        (
            {1: "b", None: "c", 2.5: "d", Color.RED: "e"},
            {"1": "b", "null": "c", "2.5": "d", "red": "e"},
        ),
        (Box("s", 2), {"secret": "s", "size": 2}),
    ],
)
def test_values(value: Any, expected: Any) -> None:
    assert to_json(value) == expected


def test_bool_keys_follow_json_dumps() -> None:
    assert to_json({False: 1}) == {"false": 1}


def test_nested_dataclasses() -> None:
    order = Order(
        UID,
        [Item("a", Decimal("2.5"), frozenset({"y", "x"}))],
        datetime(2024, 1, 1),
        meta={"k": [Color.RED]},
    )
    assert to_json(order) == {
        "id": str(UID),
        "items": [{"sku": "a", "price": "2.5", "tags": ["x", "y"]}],
        "at": "2024-01-01T00:00:00",
        "wait": "PT0S",
        "meta": {"k": ["red"]},
    }


def test_pydantic_model_dumps_by_alias_in_json_mode() -> None:
    customer = Customer(name="Ada", since=date(2020, 1, 2), nickName="ada")
    assert to_json([customer]) == [{"name": "Ada", "since": "2020-01-02", "nickName": "ada"}]


def test_cycles_become_a_marker() -> None:
    loop: list[Any] = [1]
    loop.append(loop)
    assert to_json(loop) == [1, "<cycle: list>"]

    @dataclass
    class Link:
        name: str
        next: Any = None

    a = Link("a")
    a.next = Link("b", a)
    assert to_json(a) == {"name": "a", "next": {"name": "b", "next": "<cycle: Link>"}}


def test_shared_objects_that_are_not_cycles_are_repeated() -> None:
    shared = [1]
    assert to_json({"a": shared, "b": shared}) == {"a": [1], "b": [1]}


def test_unknown_objects_become_their_repr() -> None:
    class Connection:
        def __repr__(self) -> str:
            return "<Connection db>"

    assert to_json({"c": Connection()}) == {"c": "<Connection db>"}
    assert to_json(x for x in ()).startswith("<generator object")


def test_failures_inside_never_raise() -> None:
    class BadRepr:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    class Broken(collections.abc.Mapping):  # type: ignore[type-arg]
        def __getitem__(self, key: Any) -> Any:
            raise KeyError(key)

        def __iter__(self) -> Any:
            raise RuntimeError("no")

        def __len__(self) -> int:
            return 1

        def __repr__(self) -> str:
            return "<Broken>"

    assert to_json([BadRepr()]) == ["<BadRepr object>"]
    assert to_json({"b": Broken()}) == {"b": "<Broken>"}
    assert to_json(datetime).startswith("<class")


def test_too_deep_is_cut_short() -> None:
    deep: list[Any] = []
    current = deep
    for _ in range(MAX_JSON_DEPTH + 50):
        inner: list[Any] = []
        current.append(inner)
        current = inner
    encoded = to_json(deep)
    depth = 0
    while isinstance(encoded, list):
        encoded = encoded[0]
        depth += 1
    assert depth == MAX_JSON_DEPTH
    assert encoded == "<too deep: list>"


def test_unorderable_set_keeps_its_own_order() -> None:
    assert sorted(to_json({1, "a"}), key=str) == [1, "a"]


def test_input_is_not_mutated() -> None:
    value = {"a": {1, 2}, "b": (date(2024, 1, 1),)}
    to_json(value)
    assert value == {"a": {1, 2}, "b": (date(2024, 1, 1),)}


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_json_values_are_unchanged(value: Any) -> None:
    assert to_json(value) == value


python_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text()
    | st.binary()
    | st.datetimes(timezones=st.none() | st.timezones())
    | st.dates()
    | st.times()
    | st.timedeltas()
    | st.uuids()
    | st.decimals()
    | st.ip_addresses()
    | st.sampled_from(Color),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.frozensets(st.integers() | st.text(), max_size=3)
        | st.dictionaries(st.text() | st.integers() | st.booleans(), inner, max_size=3)
        | st.builds(Pair, st.integers(), st.sampled_from(Color))
    ),
    max_leaves=15,
)


@given(python_values)
def test_anything_becomes_something_json_dumps_takes(value: Any) -> None:
    encoded = to_json(value)
    assert json.loads(json.dumps(encoded, allow_nan=False)) == encoded


def test_runaway_immutable_nesting_ends_in_a_marker_not_an_error() -> None:
    @dataclass(frozen=True)
    class Frozen:
        inner: Any

    chain: Any = None
    for _ in range(5000):
        chain = Frozen((chain,))
    encoded = to_json(chain)
    depth = 0
    while isinstance(encoded, dict):
        encoded = encoded["inner"]
        encoded = encoded[0] if isinstance(encoded, list) else encoded
        depth += 1
    assert isinstance(encoded, str)  # a marker or a repr, where the stack ran out
    assert 10 < depth < 5000


def test_cycle_through_a_tuple_is_caught_at_the_list() -> None:
    box: list[Any] = []
    pair = (1, box)
    box.append(pair)
    assert to_json(pair) == [1, [[1, "<cycle: list>"]]]
