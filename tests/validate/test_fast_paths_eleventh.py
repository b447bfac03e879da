"""Issue 33's eleventh round: date, time and date-time verdicts that stay ea07c65's.

``UsualTexts`` reads the first digit of each signed offset's minute at its place (the
places learnt with the joined shape) where it searched the joined text for ``:6`` to
``:9``, and searches for hour 24 only where this Python's ``fromisoformat`` reads it.
Its verdicts on lists and dicts, and the lone checks', are compared with ea07c65's
(read from git) on adversarial and generated texts: leap days, hour 24, leap seconds,
offsets at and past their bounds, lower-case ``t`` and ``z``, fractions of one to nine
digits, non-ASCII digits, lone surrogates, the separator inside a text.
"""

from __future__ import annotations

import itertools
import types
from datetime import datetime, time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support import before
from tests.support.budget import scaled
from tests.validate.test_fast_paths_before import CONTAINER_MOMENTS, EITHER_MOMENTS, _moments
from tests.validate.test_fast_paths_tenth import ADVERSARIAL as TENTH

from llmapp._scalars import iso8601 as iso

ROUND_ELEVEN = "ea07c65"
"""The commit before this round's changes."""

FORMATS = [
    ("date-time", "date-time-local"),
    ("date-time",),
    ("date-time-local",),
    ("time", "time-local"),
    ("time",),
    ("time-local",),
    ("date",),
]
"""Every set of formats ``UsualTexts`` is built for."""


@pytest.fixture(scope="module")
def old_iso() -> types.ModuleType:
    return before.load(ROUND_ELEVEN, "llmapp/_scalars/iso8601.py")


_DAYS = ["2024-02-29", "2023-02-29", "2000-02-29", "1900-02-29", "0000-01-01", "9999-12-31"]
_CLOCKS = ["00:00:00", "23:59:59", "23:59:60", "24:00:00", "12:60:00", "12:30:60", "18:59:60"]
_FRACTIONS = ["", *("." + "123456789"[:count] for count in range(1, 10)), ".", ",5", ".1٢"]
_ZONES = [
    "",
    "Z",
    "z",
    "+00:00",
    "-00:00",
    "+23:59",
    "-23:59",
    "+24:00",
    "-24:00",
    "+05:60",
    "+05:69",
    "-05:99",
    "+0530",
    "+05",
    "+0٥:30",
    "+05:3٠",
]
CLOCKS = [c + f + z for c in _CLOCKS for f in _FRACTIONS for z in _ZONES]
"""Every clock at and past its bounds with every fraction and every ending."""
MOMENTS = [
    *CLOCKS,
    *(day + sep + clock for day in _DAYS for sep in "Tt " for clock in CLOCKS[::5]),
    *_DAYS,
    *TENTH,
    *EITHER_MOMENTS,
    *CONTAINER_MOMENTS,
    "2024-05-01T12:30:00\x00",
    "12:30:00Z\x0012:30:00Z",
    "2024-05-01T12:30:00+05:30\x002024-05-01T12:30:00+05:30",
    "2024-05-01\x002024-05-01",
    "2024-05-01T12:30:00+05:30\ud800",
    "\ud80012:30:00",
]
"""The texts compared one by one, and in lists and dicts of them."""


def _pairs(texts: list[str]) -> list[list[str]]:
    """Each text alone, some beside a usual one of each kind (before and after), and in threes."""
    usual = ["2024-05-01T12:30:00+05:30", "2024-05-01T12:30:00Z", "12:30:00-01:00", "2024-05-01"]
    lists = [[text] for text in texts]
    lists += [[good, text] for good in usual for text in texts[::5]]
    lists += [[text, good] for good in usual for text in texts[::11]]
    lists += [list(three) for three in itertools.combinations(texts[::701], 3)]
    return lists


def _verdicts(module: types.ModuleType, formats: tuple[str, ...], values: list[Any]) -> Any:
    at_once = module.UsualTexts(formats)
    mapping = {f"k{index}": value for index, value in enumerate(values)}
    # Twice: the shape learnt, then remembered.
    return [
        (at_once.every(values), at_once.every(tuple(values)), at_once.mapping(mapping))
        for _ in range(2)
    ]


@pytest.mark.parametrize("formats", FORMATS)
def test_usual_texts_agree_with_ea07c65(
    old_iso: types.ModuleType, formats: tuple[str, ...]
) -> None:
    for values in _pairs(MOMENTS):
        assert _verdicts(iso, formats, values) == _verdicts(old_iso, formats, values), values


@pytest.mark.parametrize("formats", FORMATS)
def test_usual_texts_agree_past_the_shapes_they_remember(
    old_iso: types.ModuleType, formats: tuple[str, ...]
) -> None:
    """With its memory full, a new shape is split each time, and answered alike."""
    new, old = iso.UsualTexts(formats), old_iso.UsualTexts(formats)
    lists = [list(pair) for pair in itertools.product(CLOCKS[::3], ["2024-05-01T00:00:00+05:60"])]
    lists += [[f"2024-05-01T12:30:0{n % 10}+05:{n % 100:02}"] * (n % 5 + 1) for n in range(600)]
    for values in [*lists, *lists]:
        assert new.every(values) == old.every(values), values


_LISTS = st.lists(
    _moments()
    | st.sampled_from(MOMENTS)
    | st.builds(
        lambda day, clock, zone: day + "T" + clock + zone,
        st.sampled_from(_DAYS),
        st.sampled_from(_CLOCKS),
        st.sampled_from(_ZONES),
    ),
    max_size=7,
)


@settings(max_examples=scaled(300, 1500), deadline=None)
@given(formats=st.sampled_from(FORMATS), values=_LISTS)
def test_usual_texts_agree_on_generated_lists(
    old_iso: types.ModuleType, formats: tuple[str, ...], values: list[str]
) -> None:
    assert _verdicts(iso, formats, values) == _verdicts(old_iso, formats, values), values


def test_usual_texts_refuse_what_is_not_a_text(old_iso: types.ModuleType) -> None:
    for values in ([None], [b"12:30:00Z"], [1, "12:30:00Z"], [], [""], ["12:30:00Z", 7]):
        for formats in FORMATS:
            assert _verdicts(iso, formats, values) == _verdicts(old_iso, formats, values)
    refused = iso.UsualTexts(("time",))
    assert not refused.mapping({1: "12:30:00Z"})
    assert not old_iso.UsualTexts(("time",)).mapping({1: "12:30:00Z"})


_CHECKS = (
    "is_date",
    "is_date_time",
    "is_date_time_local",
    "is_date_time_either",
    "is_time",
    "is_time_local",
    "is_time_either",
)


@pytest.mark.parametrize("text", MOMENTS)
def test_lone_checks_agree_with_ea07c65(old_iso: types.ModuleType, text: str) -> None:
    for name in _CHECKS:
        assert getattr(iso, name)(text) == getattr(old_iso, name)(text), (name, text)


def _reads_hour_24(read: Any) -> Any:
    """``read`` as a Python that reads hour 24 reads it: as midnight of the next day."""

    def reading(text: str) -> object:
        return read(text.replace("T24:", "T00:") if text[:2] != "24" else "00" + text[2:])

    return reading


@pytest.mark.parametrize("read", [datetime.fromisoformat, time.fromisoformat])
def test_hour_24_is_searched_for_where_it_is_read(read: Any) -> None:
    clock = read == time.fromisoformat
    try:
        read("24:00:00" if clock else "2000-01-01T24:00:00")
    except ValueError:
        assert iso._hour_24(read, clock) is None
    found = iso._hour_24(_reads_hour_24(read), clock)
    assert found is not None
    assert found("24:00:00Z\x0012:30:00Z") == clock
    assert found("12:30:00Z\x0024:00:00Z") == clock
    assert found("2024-05-01T12:30:00Z\x002024-05-01T24:00:00Z") != clock
    assert not found("12:30:00Z\x002024-05-01T12:24:00Z")


_SIGNED = ["2024-05-01T12:30:00+05:30", "2024-05-01T12:30:00.5-01:00", "12:30:00+05:30"]


@pytest.mark.parametrize("formats", FORMATS)
def test_each_offset_minute_is_read(old_iso: types.ModuleType, formats: tuple[str, ...]) -> None:
    """A minute past 59 at each place: evenly spaced (texts of one length, read by one
    slice) and not (read one by one), beside ``Z`` and local texts."""
    for good in _SIGNED:
        for count in range(1, 6):
            for wrong in range(count):
                for minute in ("59", "60", "99"):
                    values = [good] * count
                    values[wrong] = good[:-2] + minute
                    for extra in ([], ["2024-05-01T12:30:00Z"], ["12:30:00.25-05:00"]):
                        for listed in (values + extra, extra + values):
                            new = _verdicts(iso, formats, listed)
                            assert new == _verdicts(old_iso, formats, listed), listed
