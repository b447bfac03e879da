"""Real annotations -> TypeBuilder -> compile_converter -> real objects, and round trips with to_json."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from ipaddress import IPv4Address
from typing import Annotated, Any, Generic, Literal, NamedTuple, TypeVar, Union
from uuid import UUID

import attrs
import pydantic
import pytest
from annotated_types import Ge
from hypothesis import given
from hypothesis import strategies as st
from typing_extensions import NotRequired, TypedDict

from llmapp.convert import ConversionError, compile_converter, to_json
from llmapp.introspect._types import TypeBuilder

UTC = timezone.utc
T = TypeVar("T")


def converter(annotation: Any) -> Any:
    builder = TypeBuilder()
    node = builder.build(annotation, location="test", globalns=globals())
    assert builder.problems == [], builder.problems
    assert node is not None
    return compile_converter(node, builder.graph())


def round_trip(annotation: Any, value: Any) -> None:
    """to_json(value) converts back to an equal value, whose JSON is the same again."""
    data = to_json(value)
    back = converter(annotation)(data)
    assert back == value
    assert to_json(back) == data


# -- the types -----------------------------------------------------------------------------


class Tier(enum.Enum):
    BASIC = "basic"
    GOLD = "gold"


class Priority(enum.IntEnum):
    LOW = 1
    HIGH = 2


@dataclass(frozen=True)
class Customer:
    name: str
    email: str
    since: date
    tier: Tier = Tier.BASIC


@dataclass(frozen=True)
class Item:
    sku: str
    quantity: Annotated[int, Ge(1)]
    unit_price: Decimal
    tags: frozenset[str] = frozenset()


@dataclass
class Order:
    id: UUID
    customer: Customer
    items: list[Item]
    placed_at: datetime
    priority: Priority = Priority.LOW
    deliver_between: tuple[time, time] | None = None
    note: str | None = None
    gift: bool = False


class Address(TypedDict):
    street: str
    city: str
    zip: NotRequired[str]
    verified_on: NotRequired[date]


class Span(NamedTuple):
    start: datetime
    length: timedelta = timedelta(hours=1)


@dataclass
class Page(Generic[T]):
    items: list[T]
    total: int
    next_cursor: str | None = None


@dataclass
class Category:
    name: str
    children: list[Category] = field(default_factory=list)
    parent: Category | None = None


class Profile(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(strict=True)

    user_id: UUID = pydantic.Field(alias="userId")
    born: date
    address: Address
    level: Literal[Priority.LOW, Priority.HIGH] = Priority.LOW

    @pydantic.field_validator("born")
    @classmethod
    def not_in_future(cls, value: date) -> date:
        if value > date(2100, 1, 1):
            raise ValueError("born in the future")
        return value


@attrs.define
class Server:
    host: IPv4Address
    _port: int = 80


@dataclass
class Cat:
    kind: Literal["cat"]
    lives: int


@dataclass
class Dog:
    kind: Literal["dog"]
    walked_at: datetime | None


Tree = list[Union["Tree", date]]


# -- conversions ---------------------------------------------------------------------------

ORDER_JSON = {
    "id": "12345678-1234-5678-1234-567812345678",
    "customer": {"name": "Ada", "email": "ada@example.com", "since": "2020-01-02", "tier": "gold"},
    "items": [
        {"sku": f"SKU-{i}", "quantity": i + 1, "unit_price": "9.99", "tags": ["x", "y"]}
        for i in range(10)
    ],
    "placed_at": "2024-05-01T12:00:00Z",
    "priority": 2,
    "deliver_between": ["09:00:00", "17:00:00"],
    "note": None,
}


def test_order_with_customer_and_items() -> None:
    order = converter(Order)(ORDER_JSON)
    assert order == Order(
        id=UUID("12345678-1234-5678-1234-567812345678"),
        customer=Customer("Ada", "ada@example.com", date(2020, 1, 2), Tier.GOLD),
        items=[Item(f"SKU-{i}", i + 1, Decimal("9.99"), frozenset({"x", "y"})) for i in range(10)],
        placed_at=datetime(2024, 5, 1, 12, tzinfo=UTC),
        priority=Priority.HIGH,
        deliver_between=(time(9), time(17)),
    )
    assert type(order.priority) is Priority
    with_floats = {**ORDER_JSON, "items": [{**ORDER_JSON["items"][0], "quantity": 2.0}]}
    assert type(converter(Order)(with_floats).items[0].quantity) is int


def test_typeddict_not_required_and_strict_mode_nulls() -> None:
    convert = converter(Address)
    assert convert({"street": "Main", "city": "X"}) == {"street": "Main", "city": "X"}
    assert convert({"street": "Main", "city": "X", "zip": None, "verified_on": "2024-01-01"}) == {
        "street": "Main",
        "city": "X",
        "verified_on": date(2024, 1, 1),
    }


def test_namedtuple() -> None:
    assert converter(Span)({"start": "2024-01-01T00:00:00"}) == Span(datetime(2024, 1, 1))
    assert converter(Span)({"start": "2024-01-01T00:00:00", "length": "PT30M"}) == Span(
        datetime(2024, 1, 1), timedelta(minutes=30)
    )


def test_generic_dataclass() -> None:
    page = converter(Page[Customer])(
        {"items": [{"name": "A", "email": "a@x", "since": "2020-01-01"}], "total": 1}
    )
    assert page == Page([Customer("A", "a@x", date(2020, 1, 1))], 1)


def test_recursive_dataclass() -> None:
    value = {"name": "root", "children": [{"name": "leaf", "parent": {"name": "root"}}]}
    assert converter(Category)(value) == Category(
        "root", [Category("leaf", parent=Category("root"))]
    )


def test_recursive_alias() -> None:
    assert converter(Tree)(["2024-01-01", ["2024-01-02", []]]) == [
        date(2024, 1, 1),
        [date(2024, 1, 2), []],
    ]


def test_pydantic_model_by_alias_strict_with_validators() -> None:
    convert = converter(Profile)
    value = {
        "userId": "12345678-1234-5678-1234-567812345678",
        "born": "1990-05-01",
        "address": {"street": "Main", "city": "X", "zip": None},
        "level": 2,
    }
    profile = convert(value)
    assert profile == Profile(
        userId=UUID("12345678-1234-5678-1234-567812345678"),
        born=date(1990, 5, 1),
        address={"street": "Main", "city": "X"},
        level=Priority.HIGH,
    )
    with pytest.raises(ConversionError) as caught:
        convert({**value, "born": "2200-01-01"})
    assert caught.value.path == "$input"
    assert caught.value.expected == "Profile"
    assert "born in the future" in caught.value.reason


def test_attrs_class_takes_aliases() -> None:
    assert converter(Server)({"host": "10.0.0.1", "port": 8080}) == Server(
        IPv4Address("10.0.0.1"), 8080
    )
    assert to_json(Server(IPv4Address("10.0.0.1"), 8080)) == {"host": "10.0.0.1", "port": 8080}


def test_discriminated_union_of_dataclasses() -> None:
    convert = converter(list[Cat | Dog])
    assert convert(
        [{"kind": "dog", "walked_at": "2024-01-01T08:00:00"}, {"kind": "cat", "lives": 9}]
    ) == [Dog("dog", datetime(2024, 1, 1, 8)), Cat("cat", 9)]


def test_optional_and_sequences() -> None:
    assert converter(datetime | None)(None) is None
    assert converter(Sequence[date])(["2024-01-01"]) == [date(2024, 1, 1)]
    assert converter(set[Tier])(["gold", "basic"]) == {Tier.GOLD, Tier.BASIC}
    assert converter(tuple[int, ...])([1, 2]) == (1, 2)
    assert converter(dict[str, list[UUID]])({"a": []}) == {"a": []}


def test_plain_annotations_are_not_copied() -> None:
    value = {"a": ["x", "y"], "b": [3.5, None]}
    assert converter(dict[str, list[str] | list[float | None]])(value) is value
    ints = [1, 2, 3]
    assert converter(list[int])(ints) is ints


# -- round trips ---------------------------------------------------------------------------

texts = st.text(max_size=8)
dates = st.dates(min_value=date(1, 1, 1))
# Fixed offsets: a local time inside a DST gap (ZoneInfo) names no instant, so it cannot round-trip.
# Whole minutes, as RFC 3339 writes them (3.11's fromisoformat drops sub-second offsets).
offsets = st.integers(-23 * 60, 23 * 60).map(lambda minutes: timezone(timedelta(minutes=minutes)))
datetimes = st.datetimes(timezones=st.none() | st.just(UTC) | offsets)
customers = st.builds(Customer, texts, texts, dates, st.sampled_from(Tier))
items = st.builds(
    Item,
    texts,
    st.integers(min_value=1, max_value=10**6),
    st.decimals(allow_nan=False, allow_infinity=False, places=2),
    st.frozensets(texts, max_size=3),
)
orders = st.builds(
    Order,
    st.uuids(),
    customers,
    st.lists(items, max_size=4),
    datetimes,
    st.sampled_from(Priority),
    st.none() | st.tuples(st.times(), st.times()),
    st.none() | texts,
    st.booleans(),
)


@given(orders)
def test_order_round_trip(order: Order) -> None:
    round_trip(Order, order)


@given(st.builds(Span, datetimes, st.timedeltas()))
def test_span_round_trip(span: Span) -> None:
    round_trip(Span, span)


@given(
    st.recursive(
        st.builds(Category, texts),
        lambda inner: st.builds(Category, texts, st.lists(inner, max_size=3), st.none() | inner),
        max_leaves=8,
    )
)
def test_recursive_round_trip(category: Category) -> None:
    round_trip(Category, category)


@given(st.builds(Page[Customer], st.lists(customers, max_size=3), st.integers(), st.none() | texts))
def test_generic_round_trip(page: Page[Customer]) -> None:
    round_trip(Page[Customer], page)


@given(
    st.lists(
        st.builds(Cat, st.just("cat"), st.integers())
        | st.builds(Dog, st.just("dog"), st.none() | datetimes),
        max_size=4,
    )
)
def test_union_round_trip(pets: list[Cat | Dog]) -> None:
    round_trip(list[Cat | Dog], pets)
