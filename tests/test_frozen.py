"""``quick_init``: a frozen dataclass keeps everything a dataclass offers but its slow ``__init__``."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from llmapp import CallResult
from llmapp._records.frozen import quick_init
from llmapp.kernel import Call


@dataclasses.dataclass(frozen=True)
class _Plain:
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()


@quick_init
@dataclasses.dataclass(frozen=True)
class _Quick:
    x: int
    y: int = 0
    tags: tuple[str, ...] = ()


def test_the_signature_is_the_dataclass_one() -> None:
    plain = inspect.signature(_Plain.__init__)
    quick = inspect.signature(_Quick.__init__)
    assert [(p.name, p.default, p.kind) for p in plain.parameters.values()] == [
        (p.name, p.default, p.kind) for p in quick.parameters.values()
    ]


@pytest.mark.parametrize("cls", [CallResult, Call])
def test_the_call_steps_records_take_every_field_with_its_default(cls: type) -> None:
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in parameters] == [f.name for f in fields]
    assert [p.default for p in parameters] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default for f in fields
    ]


def test_it_behaves_as_the_frozen_dataclass() -> None:
    made = _Quick(1, tags=("a",))
    assert (made.x, made.y, made.tags) == (1, 0, ("a",))
    assert made == _Quick(x=1, y=0, tags=("a",)) and hash(made) == hash(_Quick(1, 0, ("a",)))
    assert repr(made) == "_Quick(x=1, y=0, tags=('a',))"
    assert dataclasses.replace(made, y=5) == _Quick(1, 5, ("a",))
    assert dataclasses.asdict(made) == {"x": 1, "y": 0, "tags": ("a",)}
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.x = 2  # type: ignore[misc]
    with pytest.raises(TypeError):
        _Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        _Quick(1, z=2)  # type: ignore[call-arg]


def test_a_result_built_quickly_equals_one_built_by_dataclasses() -> None:
    result = CallResult(name="search", success=True, value=[1], data=[1], repairs=("fence",))
    assert dataclasses.replace(result, success=False) == CallResult(
        "search", False, [1], [1], None, None, None, False, ("fence",), None
    )


@pytest.mark.parametrize(
    "field",
    [
        dataclasses.field(default_factory=list),
        dataclasses.field(default=0, init=False),
        dataclasses.field(default=0, kw_only=True),
    ],
)
def test_what_it_cannot_build_is_refused(field: object) -> None:
    @dataclasses.dataclass(frozen=True)
    class Odd:
        x: int = field  # type: ignore[assignment]

    with pytest.raises(TypeError, match="quick_init cannot build"):
        quick_init(Odd)


def test_post_init_and_slots_are_refused() -> None:
    @dataclasses.dataclass(frozen=True)
    class Checked:
        x: int

        def __post_init__(self) -> None: ...

    @dataclasses.dataclass(frozen=True, slots=True)
    class Slotted:
        x: int

    for cls in (Checked, Slotted):
        with pytest.raises(TypeError, match="quick_init cannot build"):
            quick_init(cls)
