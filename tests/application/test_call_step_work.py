"""The call step does only the work a call needs, and gives the same result as before.

Valid argument text is validated without a repair walk; refused text is repaired only
along the issues; data handed over as a mapping is still repaired (copied) whole, so the
method never holds the caller's own containers; a validation hook sees repaired data.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any

import pytest
from annotated_types import Ge

from llmapp import application, repair
from llmapp.repair import _coerce


@dataclass
class Line:
    sku: str
    quantity: Annotated[int, Ge(1)]


class Desk:
    def order(self, lines: list[Line], note: str | None = None) -> int:
        """Order lines."""
        return sum(line.quantity for line in lines)

    def tag(self, tags: list[str]) -> list[str]:
        """Tag something."""
        tags.append("seen")
        return tags


@pytest.fixture
def visits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every value the repair walk visits, in order."""
    seen: list[Any] = []
    value = _coerce._Walk.value

    def counted(self: Any, item: Any, schema: Any, depth: int) -> Any:
        seen.append(item)
        return value(self, item, schema, depth)

    monkeypatch.setattr(_coerce._Walk, "value", counted)
    yield seen


def test_valid_text_is_not_walked_for_repairs(visits: list[Any]) -> None:
    app = application(Desk)
    result = app.execute(Desk(), "order", '{"lines": [{"sku": "a", "quantity": 2}]}')
    assert result.success and result.value == 2
    assert visits == []


def test_refused_text_is_repaired_along_its_issues_only(visits: list[Any]) -> None:
    app = application(Desk)
    lines = ", ".join(f'{{"sku": "s{i}", "quantity": 1}}' for i in range(20))
    text = f'{{"lines": [{lines}, {{"sku": "x", "quantity": "3"}}]}}'
    result = app.execute(Desk(), "order", text)
    assert result.success and result.value == 23  # "3" repaired to 3
    assert visits == ["3"]


def test_a_refusal_nothing_repairs_is_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    app = application(Desk)
    plan = app._plans["order"]
    calls: list[Any] = []
    check = plan.side.check

    def counted(data: Any) -> Any:
        calls.append(data)
        return check(data)

    coercion = repair.coercer(plan.side.schema)
    validation = coercion.checked({"lines": [{"sku": "a", "quantity": 0}]}, counted)
    assert not validation.success and len(calls) == 1
    assert validation.errors[0].path == "$input.lines[0].quantity"


def test_arguments_given_as_a_mapping_are_repaired_into_a_copy() -> None:
    app = application(Desk)
    given = {"tags": ["a"]}
    result = app.execute(Desk(), "tag", given)
    assert result.value == ["a", "seen"]
    assert given == {"tags": ["a"]}  # the method appended to a copy


def test_a_hook_sees_repaired_data() -> None:
    seen: list[Any] = []

    def hook(arguments: Any) -> Any:
        seen.append(arguments)
        return application(Desk).function("order").validate_types(arguments)  # type: ignore[union-attr]

    app = application(Desk, validate={"order": hook})
    result = app.execute(Desk(), "order", '{"lines": [{"sku": "a", "quantity": "2"}]}')
    assert result.success and seen == [{"lines": [{"sku": "a", "quantity": 2}]}]


def test_a_schema_is_prepared_once() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    assert repair.coercer(schema) is repair.coercer(schema)
    assert repair.coerce({"n": "3"}, schema) == {"n": 3}
    assert repair.coercer(dict(schema)) is not repair.coercer(schema)


class Ledger:
    def book(self, entry: tuple[Annotated[int, Ge(1)], str] | None = None) -> int:
        """Book an entry."""
        return 0 if entry is None else entry[0]


def test_a_refusal_inside_a_union_nothing_repairs_is_checked_once() -> None:
    """The walk enters the union whole, and keeps what it did not repair: the first
    check's failure is the answer, not a second validation of an equal copy."""
    app = application(Ledger)
    plan = app._plans["book"]
    calls: list[Any] = []
    check = plan.side.checker

    def counted(data: Any) -> Any:
        calls.append(data)
        return check(data)

    coercion = repair.coercer(plan.side.schema)
    data = {"entry": [{"wrong": True}, "memo"]}
    validation = coercion.checked(data, counted)
    assert not validation.success and len(calls) == 1
    assert coercion.repair(data, validation.errors) is data
    repaired = coercion.checked({"entry": ["3", "memo"]}, counted)  # "3" is repaired
    assert repaired.success and repaired.data == {"entry": [3, "memo"]}
    assert len(calls) == 3


def test_coerce_still_copies_what_it_keeps() -> None:
    data = {"entry": [1, "memo"]}
    copied = repair.coercer(application(Ledger)._plans["book"].side.schema)(data)
    assert copied == data and copied is not data and copied["entry"] is not data["entry"]
