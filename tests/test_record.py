"""Records (the type model's base class) behave as frozen keyword-only dataclasses."""

from __future__ import annotations

import dataclasses

import pytest

from llmapp._record import Record, replace


class _Point(Record):
    x: int
    y: int = 0
    label: str | None = None


class _Labelled(_Point):
    colour: str = "red"


def test_defaults_fill_what_is_not_given() -> None:
    assert _Point(x=1).__dict__ == {"x": 1, "y": 0, "label": None}


def test_a_missing_required_field_is_named() -> None:
    with pytest.raises(TypeError, match=r"_Point\(\) missing keyword arguments: x"):
        _Point(y=2)


def test_an_unknown_field_is_named() -> None:
    with pytest.raises(TypeError, match="unexpected keyword arguments: z"):
        _Point(x=1, z=3)


def test_an_unknown_field_is_named_even_beside_every_known_one() -> None:
    with pytest.raises(TypeError, match="unexpected keyword arguments: extra"):
        _Labelled(x=1, y=2, label="a", colour="blue", extra=True)


def test_a_subclass_adds_its_fields_after_its_bases() -> None:
    assert list(_Labelled(x=1).__dict__) == ["x", "y", "label", "colour"]


def test_records_are_frozen() -> None:
    point = _Point(x=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        point.x = 2  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del point.y


def test_equality_and_hash_follow_type_and_fields() -> None:
    assert _Point(x=1) == _Point(x=1, y=0)
    assert hash(_Point(x=1)) == hash(_Point(x=1, y=0))
    assert _Point(x=1) != _Point(x=2)
    assert _Point(x=1) != _Labelled(x=1)


def test_replace_copies_with_changes_and_refuses_unknown_fields() -> None:
    point = _Point(x=1, label="a")
    assert replace(point, y=5) == _Point(x=1, y=5, label="a")
    assert point.y == 0
    with pytest.raises(TypeError, match="has no fields z"):
        replace(point, z=1)
