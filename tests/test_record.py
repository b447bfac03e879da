"""Records (the type model's base class) behave as frozen keyword-only dataclasses."""

from __future__ import annotations

import dataclasses
import gc
import sys

import pytest

from llmapp._records.record import _COMPILE_AFTER, Record, replace


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


def _classes() -> tuple[type[Record], type[Record], type[Record], type[Record]]:
    """A base, a subclass with a field more, its subclass with none, and a class with an
    ``__init__`` of its own: new classes, so none has made a record yet."""

    class Base(Record):
        a: int
        b: tuple[int, ...] = (1, 2)

    class Child(Base):
        c: str

    class Grandchild(Child):
        pass

    class Positional(Base):
        def __init__(self, a: int) -> None:
            super().__init__(a=a)

    return Base, Child, Grandchild, Positional


@pytest.mark.parametrize("order", [(0, 1, 2, 3), (3, 2, 1, 0), (1, 0, 3, 2), (2, 3, 0, 1)])
def test_each_class_compiles_its_own_init_whichever_makes_a_record_first(
    order: tuple[int, ...],
) -> None:
    """A class of many records compiles its ``__init__``: a subclass compiled before or
    after still takes its own fields, and a class with an ``__init__`` of its own keeps it;
    the compiled and the general ``__init__`` make the same records and refusals."""
    base, child, grandchild, positional = _classes()
    made = {
        0: lambda: base(a=1),
        1: lambda: child(a=1, c="x"),
        2: lambda: grandchild(a=2, c="y"),
        3: lambda: positional(3),
    }
    # Past the count at which a class compiles its own ``__init__``, class by class.
    records = {index: [made[index]() for _ in range(2 * _COMPILE_AFTER)][-1] for index in order}
    assert hasattr(grandchild.__init__, "_record_fields")
    assert not hasattr(positional.__init__, "_record_fields")
    assert records[0].__dict__ == {"a": 1, "b": (1, 2)}
    assert records[1].__dict__ == {"a": 1, "b": (1, 2), "c": "x"}
    assert records[2].__dict__ == {"a": 2, "b": (1, 2), "c": "y"}
    assert type(records[3]) is positional and records[3].__dict__ == {"a": 3, "b": (1, 2)}
    assert records[0].b is records[1].b  # the default itself, as before
    with pytest.raises(TypeError, match=r"Child\(\) missing keyword arguments: c"):
        child(a=1)
    with pytest.raises(TypeError, match="Grandchild\\(\\) got unexpected keyword arguments: z"):
        grandchild(a=1, c="x", z=0)
    with pytest.raises(TypeError):
        base(1)


def test_a_record_without_fields_compiles_too() -> None:
    class Empty(Record):
        pass

    for _ in range(2 * _COMPILE_AFTER):
        assert Empty() == Empty() and Empty().__dict__ == {}
    with pytest.raises(TypeError, match="unexpected keyword arguments: x"):
        Empty(x=1)


@pytest.mark.skipif(
    sys.version_info < (3, 11),
    reason="Python 3.10 keeps every instance's attributes in a dict (a split one, its keys "
    "shared per class); the values array without a dict came with 3.11",
)
def test_records_keep_their_fields_without_a_dict_of_their_own() -> None:
    # A ``__dict__`` written to holds a table of keys per record; attributes share the
    # class's. Both ``__init__``s (the general one, then the compiled one) store so.
    class Kept(Record):
        a: int
        b: str = "b"

    records = [Kept(a=index) for index in range(_COMPILE_AFTER + 2)]
    assert hasattr(Kept.__init__, "_record_fields")  # the last ones by the compiled init
    for record in (records[0], records[-1], replace(records[0], b="c")):
        assert not any(type(held) is dict for held in gc.get_referents(record))
    assert replace(records[0], b="c") == Kept(a=0, b="c")
    assert repr(records[1]) == "Kept(a=1, b='b')"


def test_equality_takes_a_field_for_itself_as_a_dict_did() -> None:
    nan = float("nan")
    assert _Point(x=nan) == _Point(x=nan)  # type: ignore[arg-type]
    assert _Point(x=nan) != _Point(x=float("nan"))  # type: ignore[arg-type]
