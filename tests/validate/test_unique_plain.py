"""``unique`` on items of plain types (strings, numbers, nulls) answers as the freezing
path does, which stays the answer for everything else (booleans, containers)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from llmapp.validate import _runtime

PLAIN = st.one_of(
    st.none(),
    st.integers(-3, 3),
    st.floats(-3, 3, allow_nan=False).map(lambda f: round(f, 1)),
    st.sampled_from(["", "a", "1", "1.0", "true", "null"]),
)
ANY = st.one_of(PLAIN, st.booleans(), st.lists(PLAIN, max_size=2))


def _frozen(items: list[Any]) -> bool:
    """``unique`` as it was: every item frozen to its JSON-equality key."""
    frozen = [_runtime._freeze(item, 0) for item in items]
    return len(set(frozen)) == len(frozen)


@given(st.lists(PLAIN, max_size=8))
def test_plain_items_are_unique_as_their_frozen_keys_are(items: list[Any]) -> None:
    assert _runtime.unique(items) == _frozen(items)
    assert _runtime.unique(tuple(items)) == _frozen(items)


@given(st.lists(ANY, max_size=8))
def test_any_items_are_unique_as_their_frozen_keys_are(items: list[Any]) -> None:
    assert _runtime.unique(items) == _frozen(items)


def test_numbers_equal_in_json_are_not_unique_and_booleans_are_not_numbers() -> None:
    assert not _runtime.unique([1, 1.0])
    assert not _runtime.unique([0.0, -0.0])
    assert _runtime.unique([1, True]) and _runtime.unique([0, False, None, "0"])
    assert not _runtime.unique([True, True]) and not _runtime.unique(["a", "a"])
