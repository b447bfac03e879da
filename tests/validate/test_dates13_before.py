"""Containers of date, time and duration texts known refused at once, against ``1ecdea5``
(issue 33, thirteenth round).

A check's loop over a list of such texts now reads what ``UsualTexts.left``
(``DurationTexts.left``) leaves to judge one by one: nothing when the texts are accepted at
once, the texts themselves when that is not decided, and a stand-in refused at once when
one is known refused (a value not a ``str``; a usual shape ``fromisoformat`` refuses and RFC
3339 too, no leap second possible), where the loop judged every text before it alone. The
walker reads ``left`` in place of ``not every``; ``is_date`` and the other checks read a
``fromisoformat`` bound once. The issues must be ``1ecdea5``'s, in the same order, for every
corpus signature with a container of such texts (its payloads and values made from them,
as ``test_texts12_before`` makes them, with more texts and the refused one at each place, in
lists and tuples) and for the schemas written there; and ``left`` must answer as each
text's own check does, over generated and adversarial texts.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.budget import scaled
from tests.validate.test_resume10_before import judged_alike
from tests.validate.test_texts12_before import _TEXTS, _entries, _put, _text_containers

from llmapp._scalars import iso8601 as iso

BEFORE = "1ecdea5"
"""The commit before this round's changes."""

_MORE: tuple[Any, ...] = (
    "2024-02-30T10:00:00Z",
    "2023-02-29",
    "0000-01-01T00:00:00Z",
    "2024-05-01T12:60:00Z",
    "2024-05-01T12:30:61Z",
    "2024-05-01T25:00:00",
    "2024-05-01T12:30:00+24:00",
    "2024-05-01T23:59:60+00:00",
    "2024-05-01T22:59:60-01:00",
    "2024-05-01T12:30:60Z",
    "2024-05-01 12:30:00Z",
    "2024-05-01T12:30:00,5Z",
    "2024-05-01T12:30:00.5+0530",
    "２０２４-05-01T12:30:00Z",
    "2024-05-01T12:30:0٣Z",
    "12:60:00",
    "12:30:60",
    "23:59:60+00:00",
    "25:00:00Z",
    "12:30:00.1234567z",
    "P1M2W",
    "P１D",
    "-P1D",
    "PT1H\x00PT2H",
    "P1D\ud800",
)
"""Texts beside ``test_texts12_before``'s: out-of-range fields in usual shapes (refused at
once now), leap seconds anywhere (never), other separators and non-ASCII digits."""

_REPLACEMENTS = (*_TEXTS, *_MORE)
_USUAL = ("2024-05-01T12:30:00Z", "2024-05-01T12:30:00", "12:30:00", "2024-05-01", "PT2H")


def _placed(container: list[Any]) -> Iterator[Any]:
    """A list of texts grown to five (its own texts again), each replacement at each
    place, the same as a tuple."""
    grown = [container[index % len(container)] for index in range(5)]
    for index in range(5):
        for text in _REPLACEMENTS:
            changed = _put(grown, {index: text})
            yield changed
            yield tuple(changed)


def _variants(value: Any) -> Iterator[Any]:
    for container, put in _text_containers(value):
        if isinstance(container, list) and container:
            for changed in _placed(container):
                yield put(changed)


def _dates13_entries() -> list[tuple[str, Any, list[Any]]]:
    return [
        (name, schema, [*made, *(v for value in made[:3] for v in _variants(value))])
        for name, schema, made in _entries()
    ]


def test_date_text_containers_issues_are_1ecdea5s() -> None:
    entries = _dates13_entries()
    old = judged_alike(BEFORE, entries)
    checked = sum(len(made) for _, _, made in entries)
    refused = sum(1 for name, _, _ in entries for was in old[name] if not was[0])
    assert checked > 50_000 and refused > checked // 2
    assert sum(name.startswith("tool_") for name, _, _ in entries) >= 10


_FORMATS = [
    ("date-time", "date-time-local"),
    ("time", "time-local"),
    ("date",),
    ("date-time",),
    ("time-local",),
    ("date-time", "date"),
]
_CHECKS = {
    "date": iso.is_date,
    "date-time": iso.is_date_time,
    "date-time-local": iso.is_date_time_local,
    "time": iso.is_time,
    "time-local": iso.is_time_local,
    "duration": iso.is_duration,
}


def _moments() -> st.SearchStrategy[str]:
    """Texts of a usual shape with any digits (refused fields, leap seconds), and others."""
    digits = st.text("0123456789", min_size=2, max_size=2)
    clock = st.tuples(digits, digits, digits).map(":".join)
    fraction = st.sampled_from(["", ".5", ".123456", ".123456789"])
    zone = st.sampled_from(["", "Z", "z", "+05:30", "-00:00", "+24:00", "+05:60"])
    day = st.tuples(st.text("0123456789", min_size=4, max_size=4), digits, digits).map("-".join)
    usual = st.tuples(day, st.sampled_from(["T", "t", " "]), clock, fraction, zone).map("".join)
    return (
        usual
        | st.tuples(clock, fraction, zone).map("".join)
        | day
        | st.sampled_from([*_USUAL, *(t for t in _REPLACEMENTS if isinstance(t, str))])
    )


def _one_by_one(formats: tuple[str, ...], value: Any) -> bool:
    return isinstance(value, str) and any(_CHECKS[format](value) for format in formats)


@settings(max_examples=scaled(300, 1200), deadline=None)
@given(
    formats=st.sampled_from([*_FORMATS, ("duration",)]),
    values=st.lists(_moments() | st.sampled_from([None, 7, {"wrong": True}]), max_size=6),
    as_tuple=st.booleans(),
)
def test_left_answers_as_each_texts_check(
    formats: tuple[str, ...], values: list[Any], as_tuple: bool
) -> None:
    """Nothing left only where every value is accepted alone, the stand-in only where one
    is refused alone, as a list, a tuple or a dict's values."""
    at_once = iso.DurationTexts() if formats == ("duration",) else iso.UsualTexts(formats)
    container = tuple(values) if as_tuple else values
    each = [_one_by_one(formats, value) for value in values]
    for _ in range(2):  # the shape learnt, then remembered
        left = at_once.left(container)
        if left is iso.REFUSED:
            assert not all(each), values
        elif not left:
            assert all(each), values
        else:
            assert left is container, values
        assert at_once.every(container) == (bool(values) and not left)
        as_dict = {f"k{index}": value for index, value in enumerate(values)}
        assert at_once.mapping(as_dict) == (bool(values) and not left)
