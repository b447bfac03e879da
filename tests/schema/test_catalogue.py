"""Snapshot catalogue: the schemas of three methods over each shape of type.

For each shape ``T`` the functions are::

    insert(first: T) -> None
    reduce(first: T, second: T | None) -> T
    coalesce(first: T | None, second: T | None, third: T | None = None) -> T | None

built through TypeBuilder + SchemaEmitter and compared, byte for byte, with
``snapshots/<shape>.json``. Regenerate with ``LLMAPP_UPDATE_SNAPSHOTS=1`` and
review the diff before committing it.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
import uuid
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Annotated, Any, Generic, Literal, Optional, TypeVar, Union

import pytest
import typing_extensions as te
from annotated_types import Ge, Gt, Le, Len, Lt, MaxLen, MinLen, MultipleOf

from llmapp.introspect._types import TypeBuilder
from llmapp.introspect.model import NO_DEFAULT, ParameterSpec
from llmapp.markers import URL, Email, Pattern
from llmapp.schema._emit import SchemaEmitter

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("LLMAPP_UPDATE_SNAPSHOTS") == "1"

T = TypeVar("T")


@dataclasses.dataclass
class SimpleObject:
    """A product in the catalogue.

    Attributes:
        id: Stable identifier.
        name: Display name.
    """

    id: uuid.UUID
    name: str
    price: float
    quantity: int
    available: bool
    created_at: datetime


@dataclasses.dataclass
class NullableObject:
    name: Optional[str]  # noqa: UP045  (the typing spelling is part of what is covered)
    count: int | None
    product: SimpleObject | None
    tags: list[str] | None


class OptionalObject(te.TypedDict, total=False):
    """A TypedDict with some keys left out."""

    title: te.Required[str]
    subtitle: str
    rating: te.NotRequired[float]
    reviewed: te.Required[bool]


@dataclasses.dataclass
class Category:
    id: int
    name: str
    children: list[Category]
    parent: Category | None = None


Nested = list[Union[int, "Nested"]]  # a string forward reference inside


@dataclasses.dataclass
class Circle:
    kind: Literal["circle"]
    radius: float


@dataclasses.dataclass
class Square:
    kind: Literal["square"]
    side: float


@dataclasses.dataclass
class Rectangle:
    kind: Literal["rectangle"]
    width: float
    height: float


class Priority(enum.Enum):
    """How soon it must be done."""

    LOW = "low"
    NORMAL = "normal"
    HIGH = "high"


class Level(enum.IntEnum):
    ONE = 1
    TWO = 2


@dataclasses.dataclass
class Choices:
    priority: Priority
    level: Level
    mode: Literal["fast", "slow"]
    flag: Literal[1, "one", True, None]


@dataclasses.dataclass
class Constant:
    kind: Literal["constant"]
    version: Literal[1]
    enabled: Literal[True]
    nothing: None


@dataclasses.dataclass
class Dictionary:
    scores: dict[str, int]
    products: dict[str, SimpleObject]
    nested: dict[str, dict[str, str]]
    anything: dict[str, Any]


Matrix = list[list[float]]


@dataclasses.dataclass
class Defaults:
    count: int = 10
    ratio: float = 0.5
    name: str = "unnamed"
    enabled: bool = True
    priority: Priority = Priority.NORMAL
    tags: tuple[str, ...] = ("a", "b")
    when: datetime = datetime(2024, 1, 1, 9, 30)
    every: timedelta = timedelta(hours=1, minutes=30)
    nothing: int | None = None
    items: list[int] = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Constraints:
    """Every kind of constraint.

    Attributes:
        percent: A whole percentage.
    """

    percent: Annotated[int, Ge(0), Le(100)]
    ratio: Annotated[float, Gt(0), Lt(1), MultipleOf(0.25)]
    code: Annotated[str, Len(3, 3), Pattern("^[A-Z]+$")]
    name: Annotated[str, MinLen(1), MaxLen(80), te.Doc("A display name.")]
    email: Email
    homepage: URL
    birthday: date
    photo: bytes
    tags: Annotated[list[str], MinLen(1), MaxLen(5)]
    ids: Annotated[set[int], MaxLen(3)]
    point: tuple[float, float]


@dataclasses.dataclass
class Page(Generic[T]):
    """One page of results."""

    items: list[T]
    total: int
    next: Page[T] | None = None


SHAPES: dict[str, Any] = {
    "simple_object": SimpleObject,
    "nullable": NullableObject,
    "optional": OptionalObject,
    "recursive_object": Category,
    "recursive_array": "Nested",
    "union_of_objects": Union[Circle, Square, Rectangle],  # noqa: UP007
    "union_of_atomics": Union[int, float, str, bool],  # noqa: UP007
    "literal_enum": Choices,
    "constant": Constant,
    "dynamic_keys": Dictionary,
    "matrix": Matrix,
    "default_values": Defaults,
    "constraints": Constraints,
    "generic_alias": Page[SimpleObject],
}


def _nullable(shape: Any) -> Any:
    return f"Optional[{shape}]" if isinstance(shape, str) else Optional[shape]  # noqa: UP045


def catalogue(shape: Any) -> dict[str, Any]:
    """The three functions over one shape, as one application would emit them."""
    builder = TypeBuilder()
    namespace = {**globals(), "Optional": Optional}

    def param(method: str, name: str, annotation: Any, default: Any = NO_DEFAULT) -> ParameterSpec:
        node = builder.build(annotation, location=f"Catalogue.{method}.{name}", globalns=namespace)
        assert node is not None, builder.problems
        return ParameterSpec(name=name, type=node, required=default is NO_DEFAULT, default=default)

    nullable = _nullable(shape)
    methods = {
        "insert": ([param("insert", "first", shape)], None),
        "reduce": (
            [param("reduce", "first", shape), param("reduce", "second", nullable)],
            builder.build(shape, location="Catalogue.reduce", globalns=namespace),
        ),
        "coalesce": (
            [
                param("coalesce", "first", nullable),
                param("coalesce", "second", nullable),
                param("coalesce", "third", nullable, None),
            ],
            builder.build(nullable, location="Catalogue.coalesce", globalns=namespace),
        ),
    }
    assert builder.problems == []
    emitter = SchemaEmitter(builder.graph())
    return {
        name: {"parameters": emitter.parameters(params), "output": emitter.output(returns)}
        for name, (params, returns) in methods.items()
    }


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_catalogue_snapshot(shape: str) -> None:
    actual = catalogue(SHAPES[shape])
    text = json.dumps(actual, indent=2, ensure_ascii=False) + "\n"
    path = SNAPSHOTS / f"{shape}.json"
    if UPDATE:
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), (
        f"no snapshot {path.name}: run with LLMAPP_UPDATE_SNAPSHOTS=1 and review it"
    )
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert actual == expected
    assert text == path.read_text(encoding="utf-8")  # key order too: byte-identical JSON


def test_every_snapshot_has_a_shape() -> None:
    assert sorted(p.stem for p in SNAPSHOTS.glob("*.json")) == sorted(SHAPES)


def _strict_parameters(shape: Any) -> tuple[dict[str, Any], list[str]]:
    builder = TypeBuilder()
    namespace = {**globals(), "Optional": Optional}
    first = builder.build(shape, location="Catalogue.m.first", globalns=namespace)
    third = builder.build(_nullable(shape), location="Catalogue.m.third", globalns=namespace)
    assert first is not None and third is not None
    params = [
        ParameterSpec(name="first", type=first),
        ParameterSpec(name="third", type=third, required=False, default=None),
    ]
    emitter = SchemaEmitter(builder.graph(), strict=True)
    schema = emitter.parameters(params, location="Catalogue.m")
    return schema, [str(problem) for problem in emitter.problems]


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_catalogue_schemas_are_valid_draft_2020_12(shape: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    for function in catalogue(SHAPES[shape]).values():
        jsonschema.Draft202012Validator.check_schema(function["parameters"])
        if function["output"] is not None:
            jsonschema.Draft202012Validator.check_schema(function["output"])
    jsonschema.Draft202012Validator.check_schema(_strict_parameters(SHAPES[shape])[0])


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_strict_schemas_are_already_what_openai_agents_would_make_them(shape: str) -> None:
    """The Agents SDK's own strict conversion leaves llmapp's strict schemas unchanged."""
    strict_schema = pytest.importorskip("agents.strict_schema")
    schema, problems = _strict_parameters(SHAPES[shape])
    if shape == "dynamic_keys":  # the one shape strict mode cannot express: both say so
        assert len(problems) == 4
        with pytest.raises(Exception, match="additionalProperties"):
            strict_schema.ensure_strict_json_schema(json.loads(json.dumps(schema)))
        return
    assert problems == (
        [
            "Catalogue.m: Constraints.point: a fixed-length tuple (prefixItems) is not supported in strict mode"
        ]
        if shape == "constraints"
        else []
    )
    assert strict_schema.ensure_strict_json_schema(json.loads(json.dumps(schema))) == schema
