"""Records told apart by a tag convert by the tag alone, with the chooser's answer.

A union of records each with a required field of its own literal strings (``kind``)
converts the tag's branch without running the branches' structural matchers
(``convert._unions._tagged``). The answer must be the chooser's (``_chooser``: each
branch's matcher in order, the first that fits converts): every value here is converted
twice, by the converter as compiled and by one compiled with no tag table (the code
before it), and the two outcomes compared (type, ``repr`` and equality, or the same
exception and message). Values are generated from the type model and kept when llmapp's
validator accepts them, as the converter is only ever given validated values: for the
unions below, and for the parameters of every corpus signature that holds a union.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from typing import Annotated, Any, Literal
from uuid import UUID

import pytest
from annotated_types import Ge
from hypothesis import HealthCheck, assume, given, settings
from pydantic import BaseModel
from tests.support.drawn import drawn
from typing_extensions import NotRequired, TypedDict

from llmapp import application
from llmapp.convert import _to_python, _unions, compile_arguments
from llmapp.introspect._types import TypeBuilder
from llmapp.introspect.model import MethodSpec, ParameterSpec, TypeGraph
from llmapp.schema._emit import SchemaEmitter
from llmapp.validate import validator

from .test_valid_json import JsonFor


class Size(enum.Enum):
    SMALL = "small"
    LARGE = "large"


@dataclass
class Cat:
    kind: Literal["cat"]
    born: date
    chip: UUID
    naps: list[time]
    note: str | None = None


class Dog(TypedDict):
    kind: Literal["dog", "puppy"]
    walked: datetime
    weight: NotRequired[Annotated[Decimal, Ge(0)]]


class Bird(BaseModel):
    kind: Literal["bird"]
    flight: timedelta | None = None
    ring: bytes
    seen: tuple[date, int]


@dataclass
class Tree:
    kind: Literal["tree"]
    planted: date
    children: list[Tree | Leaf]


@dataclass
class Leaf:
    kind: Literal["leaf"]
    fallen: datetime | None


@dataclass
class Boxed:
    size: Size
    at: datetime


@dataclass
class Crate:
    size: Literal["crate"]
    at: date


@dataclass
class Vague:
    kind: Literal["vague"]
    ref: UUID | Decimal  # two branches of one kind, each tried by converting: the long way


@dataclass
class Twin:
    kind: Literal["cat"]  # the same tag as ``Cat``: no table
    born: date


@dataclass
class Wait:
    kind: Literal["wait"]
    n: int
    pause: timedelta  # past timedelta's bound: validated, refused, and its matcher refuses


@dataclass
class Loose:
    kind: Literal["loose"]
    n: int  # its converter takes a ``Wait``'s value too: the chooser's last resort finds it


@dataclass
class Early:
    kind: Literal["early"]
    at: date  # its converter takes a ``Holder``'s value: the chooser's last resort finds it


@dataclass
class Holder:
    kind: Literal["holder"]
    at: date
    inner: Wait | Loose  # records told apart by a tag, inside a record told apart by one


@dataclass
class Keeper:
    kind: Literal["keeper"]
    chip: UUID
    inner: list[Wait | Loose] | None = None


CASES: list[Any] = [
    Cat | Dog | Bird,
    Cat | Dog | Bird | None,
    list[Bird | Cat],
    dict[str, Dog | Cat | None],
    Tree,
    Boxed | Crate,
    Vague | Cat,
    Cat | Dog | Vague,
    Twin | Cat,
    Cat | Dog | date,
    datetime | date | None,
    list[time | timedelta | date | datetime],
    Early | Holder,
    Holder | Keeper | Cat | None,
    list[Keeper | Holder],
]


def _outcome(convert: Any, value: Any) -> tuple[Any, ...]:
    try:
        made = convert(value)
    except Exception as error:
        return ("raised", type(error), str(error))
    return ("made", type(made), repr(made), made)


class _Unshared(_unions.Matchers):
    """Matchers as before they were shared: a new one each time (no branch tried once)."""

    @property  # type: ignore[override]
    def _written(self) -> dict[Any, Any]:
        return {}

    @_written.setter
    def _written(self, value: Any) -> None:
        pass


def _without_tags(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compile as before: no tag table, no matcher shared by a union's branches."""
    monkeypatch.setattr(_unions, "_tags", lambda *args: None)
    monkeypatch.setattr(_to_python, "Matchers", _Unshared)


def _method(node: Any) -> MethodSpec:
    parameter = ParameterSpec(name="value", type=node)
    return MethodSpec(
        name="m", kind="static", is_async=False, parameters=(parameter,), returns=None
    )


def _built(annotation: Any) -> tuple[Any, TypeGraph]:
    builder = TypeBuilder()
    node = builder.build(annotation, location="case", globalns=globals())
    assert node is not None, builder.problems
    return node, builder.graph()


@pytest.mark.parametrize("annotation", CASES, ids=[repr(case)[:50] for case in CASES])
def test_tagged_records_convert_as_the_chooser_does(
    annotation: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    node, graph = _built(annotation)
    method = _method(node)
    accepts = validator(SchemaEmitter(graph).parameters(method.parameters))
    fast = compile_arguments(method, graph)
    with monkeypatch.context() as patched:
        _without_tags(patched)
        before = compile_arguments(method, graph)

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(JsonFor(graph, strict=False).of(node))
    def check(data: Any) -> None:
        arguments = {"value": data}
        assume(accepts(arguments).success)
        assert _outcome(fast, arguments) == _outcome(before, arguments), data

    check()


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every record matcher made from now on counts its runs into the returned list."""
    runs = [0]
    made = _unions.Matchers._object

    def counted(self: Any, definition: Any) -> Any:
        fits = made(self, definition)

        def counting(value: Any) -> bool:
            runs[0] += 1
            return fits(value)

        return counting

    monkeypatch.setattr(_unions.Matchers, "_object", counted)
    return runs


def test_the_tag_chooses_without_a_matcher(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = _counting(monkeypatch)
    node, graph = _built(Cat | Dog | Bird | None)
    build = compile_arguments(_method(node), graph)
    ring = "AAEC"
    _, kwargs = build({"value": {"kind": "bird", "ring": ring, "seen": ["2024-05-01", 3]}})
    assert kwargs["value"] == Bird(kind="bird", ring=b"\x00\x01\x02", seen=(date(2024, 5, 1), 3))
    _, kwargs = build({"value": {"kind": "puppy", "walked": "2024-05-01T10:00:00Z"}})
    assert kwargs["value"]["walked"].year == 2024
    assert runs == [0]


def test_a_branch_with_a_union_inside_is_still_chosen_by_its_matcher(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs = _counting(monkeypatch)
    node, graph = _built(Cat | Vague)
    build = compile_arguments(_method(node), graph)
    _, kwargs = build({"value": {"kind": "vague", "ref": "12.50"}})
    assert kwargs["value"] == Vague(kind="vague", ref=Decimal("12.50"))
    assert runs[0] > 0


def test_records_holding_tagged_records_are_chosen_by_their_tag(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs = _counting(monkeypatch)
    node, graph = _built(Early | Holder)
    build = compile_arguments(_method(node), graph)
    inner = {"kind": "wait", "n": 1, "pause": "PT1M"}
    _, kwargs = build({"value": {"kind": "holder", "at": "2024-05-01", "inner": inner}})
    assert kwargs["value"] == Holder(
        "holder", date(2024, 5, 1), Wait("wait", 1, timedelta(minutes=1))
    )
    assert runs == [0]


_FAR = "P1000000000D"
"""A duration the format check takes and ``timedelta`` cannot hold."""

_ASIDE: list[tuple[Any, Any]] = [
    (Early | Holder, {"kind": "holder", "at": "2024-05-01", "inner": {"kind": "wait", "n": 1}}),
    (Holder | Early, {"kind": "holder", "at": "2024-05-01", "inner": {"kind": "loose", "n": 2}}),
    (list[Early | Holder], [{"kind": "early", "at": "2024-05-01"}]),
    (Keeper | Holder | Early, {"kind": "keeper", "chip": str(UUID(int=3)), "inner": []}),
]


@pytest.mark.parametrize("pause", [_FAR, "PT1M", "P1Y", "P999999999D"])
@pytest.mark.parametrize("case", range(len(_ASIDE)))
def test_a_choice_inside_sets_the_tag_branch_aside(
    case: int, pause: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A union inside that asked its chooser (a duration past ``timedelta``'s bound: the
    ``Wait`` branch's matcher and converter refuse it, and the chooser's last resort builds
    a ``Loose``) leaves the outer choice to the outer chooser, whose last resort may take
    another branch (``Early`` from a holder's value): the answer of the code without tags."""
    annotation, shape = _ASIDE[case]
    node, graph = _built(annotation)
    method = _method(node)
    accepts = validator(SchemaEmitter(graph).parameters(method.parameters))
    fast = compile_arguments(method, graph)
    with monkeypatch.context() as patched:
        _without_tags(patched)
        before = compile_arguments(method, graph)
    wait = {"kind": "wait", "n": 1, "pause": pause}
    value = _with_wait(shape, wait)
    arguments = {"value": value}
    assert accepts(arguments).success
    assert _outcome(fast, arguments) == _outcome(before, arguments)
    if pause == _FAR and case == 0:
        assert fast(arguments)[1]["value"] == Early("holder", date(2024, 5, 1))


def _with_wait(shape: Any, wait: dict[str, Any]) -> Any:
    """``shape`` with a ``Wait`` record wherever it holds a record of another kind."""
    if isinstance(shape, list):
        return [*map(_with_wait, shape, [wait] * len(shape)), {**_ASIDE[0][1], "inner": wait}]
    if shape.get("kind") == "holder":
        return {**shape, "inner": wait}
    if shape.get("kind") == "keeper":
        return {**shape, "inner": [{"kind": "loose", "n": 5}, wait]}
    return shape


def test_tags_shared_by_two_records_leave_the_choice_to_the_matchers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    runs = _counting(monkeypatch)
    node, graph = _built(Twin | Cat)
    build = compile_arguments(_method(node), graph)
    value = {"kind": "cat", "born": "2024-05-01", "chip": str(UUID(int=7)), "naps": []}
    _, kwargs = build({"value": value})
    assert type(kwargs["value"]) is Cat
    assert runs[0] > 0


def test_corpus_unions_convert_as_the_chooser_does(monkeypatch: pytest.MonkeyPatch) -> None:
    built, records = drawn(monkeypatch)
    app = application(built.tools)
    compared = 0
    for case in built.cases:
        if "|" not in case.signature:
            continue
        function = app.require(case.name)
        plan = app._plans[case.name]  # type: ignore[attr-defined]
        method, graph = plan.convert.source
        fast = compile_arguments(method, graph)
        with monkeypatch.context() as patched:
            _without_tags(patched)
            before = compile_arguments(method, graph)
        arguments, scale = records[case.name]
        rng = random.Random(case.name)
        for _ in range(12):
            data = arguments.value(rng, min(scale, 4))
            if function.validate(data).success:
                assert _outcome(fast, data) == _outcome(before, data), (case.name, data)
                compared += 1
    assert compared > 1000


def test_a_date_beside_a_date_time_is_told_by_two_looks(monkeypatch: pytest.MonkeyPatch) -> None:
    looks: list[str] = []
    made = _unions.written_as

    def counted(python_type: Any) -> Any:
        found = made(python_type)
        if found is None:
            return None
        shared = counting.setdefault(found, lambda text: looks.append(text) or found(text))
        return shared

    counting: dict[Any, Any] = {}
    monkeypatch.setattr(_unions, "written_as", counted)
    node, graph = _built(datetime | date | None)
    build = compile_arguments(_method(node), graph)
    _, kwargs = build({"value": "2024-05-01"})
    assert kwargs["value"] == date(2024, 5, 1)
    assert len(looks) == 2  # the date-time's written forms looked at once, then the date's
