"""Date and time formats read at ``fromisoformat``'s speed keep RFC 3339's verdicts.

Each check accepts what ``fromisoformat`` reads in RFC 3339's shape; whatever that does
not decide goes through RFC 3339's grammar (``_iso8601._date_time``, ``_time``; a date
has no text the grammar reads and ``fromisoformat`` refuses, so its grammar is here,
``_date_grammar``, only to compare with). Both ways are tested: what RFC 3339
refuses but ``fromisoformat`` reads stays refused, what RFC 3339 accepts but
``fromisoformat`` refuses stays accepted, and on generated texts every check agrees
with the grammar alone.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from datetime import date, datetime, time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.budget import scaled

from llmapp import validator
from llmapp._scalars import iso8601 as iso

CHECKS: dict[str, Callable[[str], bool]] = {
    "date-time": iso.is_date_time,
    "date-time-local": iso.is_date_time_local,
    "date": iso.is_date,
    "time": iso.is_time,
    "time-local": iso.is_time_local,
}
_FULL_DATE = re.compile(iso._FULL_DATE + r"\Z")


def _date_grammar(text: str) -> bool:
    """RFC 3339 full-date, by its grammar (what ``is_date`` fell back on before issue 33's
    fifth round)."""
    match = _FULL_DATE.match(text)
    return match is not None and iso._day_ok(*match.groups())


GRAMMARS: dict[str, Callable[[str], bool]] = {
    "date-time": lambda text: iso._date_time(text, True),
    "date-time-local": lambda text: iso._date_time(text, False),
    "date": _date_grammar,
    "time": lambda text: iso._time(text, True),
    "time-local": lambda text: iso._time(text, False),
}
PARSERS: dict[str, Callable[[str], object]] = {
    "date-time": datetime.fromisoformat,
    "date-time-local": datetime.fromisoformat,
    "date": date.fromisoformat,
    "time": time.fromisoformat,
    "time-local": time.fromisoformat,
}

READ_BY_FROMISOFORMAT_ONLY = [
    ("date-time", "2024-05-01 12:30:00Z"),  # a space for the T
    ("date-time", "2024-05-01X12:30:00Z"),  # any separator
    ("date-time", "20240501T123000Z"),  # basic forms
    ("date-time", "2024-05-01T12:30:00,5Z"),  # a comma fraction
    ("date-time", "2024-05-01T12:30:00+05"),  # offsets RFC 3339 does not write
    ("date-time", "2024-05-01T12:30:00+0530"),
    ("date-time", "2024-05-01T12:30:00+05:30:15"),
    ("date-time", "2024-05-01T12:30:00+05:60"),  # read as +06:00
    ("date-time", "2024-05-01T12:30Z"),  # no seconds
    ("date-time", "2024-W18-3T12:30:00Z"),  # a week date
    ("date-time", "2024-05-01T12:30:00.1234567xZ"),  # anything after a sixth digit
    ("date-time", "2024-05-01T12:30:00.123456 Z"),
    ("date-time", "2024-05-01T12:30:00 +05:00"),  # a space before the offset
    ("date-time", "2024-05-01T12:30:00.Z"),  # a point without digits
    ("date-time-local", "2024-05-01T12:30"),
    ("date-time-local", "2024-05-01"),
    ("date", "20240501"),
    ("date", "2024-W18"),
    ("time", "12:30Z"),
    ("time", "123000+05:00"),
    ("time", "12:30:00.1234567xZ"),
    ("time", "12:30:00 +05:00"),
    ("time-local", "12"),
    ("time-local", "12:30:00,25"),
]
RFC_3339_ONLY = [
    ("date-time", "2016-12-31T23:59:60Z"),  # a leap second
    ("date-time", "2016-12-31T18:59:60-05:00"),
    ("time", "23:59:60Z"),
    ("date-time-local", "2016-12-31T23:59:60"),
    ("time-local", "23:59:60"),
]


@pytest.mark.parametrize(("name", "text"), READ_BY_FROMISOFORMAT_ONLY)
def test_what_only_fromisoformat_reads_stays_refused(name: str, text: str) -> None:
    if sys.version_info >= (3, 11):  # 3.10's fromisoformat reads only its own output
        PARSERS[name](text)  # fromisoformat reads it (on this Python)
    assert not CHECKS[name](text)
    assert not validator({"type": "string", "format": name})(text).success


@pytest.mark.parametrize(("name", "text"), RFC_3339_ONLY)
def test_what_only_rfc_3339_reads_stays_accepted(name: str, text: str) -> None:
    with pytest.raises(ValueError):
        PARSERS[name](text)
    assert CHECKS[name](text)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("date-time", "2024-05-01T12:30:00Z"),
        ("date-time", "2024-05-01T12:30:00.123456789Z"),
        ("date-time", "2024-05-01T12:30:00.5-00:00"),
        ("date-time-local", "2024-05-01T12:30:00.25"),
        ("date", "2024-02-29"),
        ("time", "00:00:00+23:59"),
        ("time-local", "23:59:59.999"),
    ],
)
def test_usual_texts_are_read_by_fromisoformat(name: str, text: str) -> None:
    assert CHECKS[name](text)
    if sys.version_info >= (3, 11):  # decided without the grammar
        with pytest.MonkeyPatch.context() as patch:
            for grammar in ("_date_time", "_time"):
                patch.setattr(iso, grammar, lambda *args: False)
            assert CHECKS[name](text)


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("date", "2023-02-29"),
        ("date-time", "2024-04-31T00:00:00Z"),
        ("date-time", "0000-01-01T00:00:00Z"),
        ("date-time", "2024-05-01T24:00:00Z"),
        ("date-time", "2024-05-01T12:30:00"),  # no offset
        ("date-time-local", "2024-05-01T12:30:00Z"),  # an offset
        ("date-time", "２０２４-05-01T12:30:00Z"),  # full-width digits
        ("time", "12:30:00.Z"),
    ],
)
def test_wrong_texts_are_refused(name: str, text: str) -> None:
    assert not CHECKS[name](text)


PIECES = [
    "2024", "0000", "1999", "-", "05", "02", "13", "29", "30", "31", "T", "t", " ", ":",
    "12", "23", "24", "59", "60", "00", ".", ",", "5", "123456", "Z", "z", "+", "-05:00",
    "+23:59", "+05", "0530", "W18", "X",
]  # fmt: skip


def _texts() -> st.SearchStrategy[str]:
    usual = st.builds(
        lambda d, c, f, z: d + c + f + z,
        st.sampled_from(["2024-05-01T", "2016-12-31t", "2023-02-29T", "2024-13-01T", ""]),
        st.sampled_from(["12:30:00", "23:59:60", "24:00:00", "12:30", "123000", "18:59:60"]),
        st.sampled_from(["", ".5", ".123456789", ",5", ".", ".1234567x", ".123456 ", " "]),
        st.sampled_from(["", "Z", "z", "+05:00", "-05:00", "+05", "+0530", "+05:60", "+24:00"]),
    )
    return st.one_of(usual, st.lists(st.sampled_from(PIECES), max_size=9).map("".join))


@pytest.mark.budgeted
@settings(max_examples=scaled(200, 600), deadline=None)
@given(st.sampled_from(sorted(CHECKS)), _texts())
def test_every_check_agrees_with_the_grammar_alone(name: str, text: str) -> None:
    assert CHECKS[name](text) == GRAMMARS[name](text), (name, text)
