"""Text <-> datetime/duration/base64: the parsers, the strict look-alike checks, the duration writer."""

from __future__ import annotations

import base64
from datetime import date, datetime, time, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmapp._scalars.iso8601 import (
    decode_base64,
    format_duration,
    looks_like_date,
    looks_like_datetime,
    looks_like_duration,
    looks_like_time,
    parse_date,
    parse_datetime,
    parse_duration,
    parse_time,
)

UTC = timezone.utc


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024-05-01T12:30:00Z", datetime(2024, 5, 1, 12, 30, tzinfo=UTC)),
        ("2024-05-01t12:30:00z", datetime(2024, 5, 1, 12, 30, tzinfo=UTC)),
        ("2024-05-01 12:30:00", datetime(2024, 5, 1, 12, 30)),
        ("2024-05-01T12:30", datetime(2024, 5, 1, 12, 30)),
        (
            "2024-05-01T12:30:00.123456789+05:30",
            datetime(
                2024, 5, 1, 12, 30, 0, 123456, tzinfo=timezone(timedelta(hours=5, minutes=30))
            ),
        ),
        (
            "2024-05-01T12:30:00.5-02:00",
            datetime(2024, 5, 1, 12, 30, 0, 500000, tzinfo=timezone(timedelta(hours=-2))),
        ),
        ("2024-05-01T12:30:00,25Z", datetime(2024, 5, 1, 12, 30, 0, 250000, tzinfo=UTC)),
        (
            "2016-12-31T23:59:60Z",
            datetime(2016, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),
        ),  # leap second
        ("2024-05-01T12:30:00-00:00", datetime(2024, 5, 1, 12, 30, tzinfo=UTC)),
    ],
)
def test_parse_datetime(text: str, expected: datetime) -> None:
    assert parse_datetime(text) == expected
    assert parse_datetime(text).utcoffset() == expected.utcoffset()


@pytest.mark.parametrize("text", ["yesterday", "2024-13-01T00:00:00Z", "0000-01-01T00:00:00Z", ""])
def test_parse_datetime_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_datetime(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12:30:00Z", time(12, 30, tzinfo=UTC)),
        ("12:30:00.5+01:00", time(12, 30, 0, 500000, tzinfo=timezone(timedelta(hours=1)))),
        ("08:00", time(8, 0)),
        ("23:59:60Z", time(23, 59, 59, 999999, tzinfo=UTC)),
        ("12:30:00.1234567", time(12, 30, 0, 123456)),
    ],
)
def test_parse_time(text: str, expected: time) -> None:
    assert parse_time(text) == expected
    assert parse_time(text).tzinfo == expected.tzinfo


def test_parse_date() -> None:
    assert parse_date("2024-02-29") == date(2024, 2, 29)
    with pytest.raises(ValueError):
        parse_date("2023-02-29")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("P1DT2H", timedelta(days=1, hours=2)),
        ("PT30M", timedelta(minutes=30)),
        ("-P3D", timedelta(days=-3)),
        ("+PT1S", timedelta(seconds=1)),
        ("P2W", timedelta(weeks=2)),
        ("PT0.5S", timedelta(milliseconds=500)),
        ("PT1,5H", timedelta(hours=1, minutes=30)),
        ("P1Y", timedelta(days=365)),
        ("P1M", timedelta(days=30)),
        ("P1Y2M3DT4H5M6S", timedelta(days=365 + 60 + 3, hours=4, minutes=5, seconds=6)),
        ("pt10m", timedelta(minutes=10)),
        ("PT0S", timedelta(0)),
        ("1:30:00", timedelta(hours=1, minutes=30)),
        ("12:00", timedelta(hours=12)),
        ("-0:00:01.5", -timedelta(seconds=1.5)),
        ("1 day, 2:03:04", timedelta(days=1, hours=2, minutes=3, seconds=4)),
        ("3 days 00:00:00.000001", timedelta(days=3, microseconds=1)),
    ],
)
def test_parse_duration(text: str, expected: timedelta) -> None:
    assert parse_duration(text) == expected


@pytest.mark.parametrize("text", ["P", "PT", "P1DT", "1D", "P1H", "soon", "", "-P"])
def test_parse_duration_refuses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_duration(text)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (timedelta(0), "PT0S"),
        (timedelta(days=1, hours=2), "P1DT2H"),
        (timedelta(minutes=30), "PT30M"),
        (timedelta(days=-3), "-P3D"),
        (timedelta(seconds=-0.5), "-PT0.5S"),
        (timedelta(days=2, seconds=1, microseconds=10), "P2DT1.00001S"),
        (timedelta(hours=25), "P1DT1H"),
        (timedelta(hours=1, seconds=5), "PT1H0M5S"),
        (timedelta(days=1, hours=2, seconds=1), "P1DT2H0M1S"),
        (timedelta(minutes=1, seconds=1), "PT1M1S"),
    ],
)
def test_format_duration(value: timedelta, text: str) -> None:
    assert format_duration(value) == text


@given(st.timedeltas())
def test_duration_round_trip(value: timedelta) -> None:
    assert parse_duration(format_duration(value)) == value


@given(st.binary())
def test_base64_round_trip_standard_and_urlsafe(data: bytes) -> None:
    assert decode_base64(base64.b64encode(data).decode()) == data
    assert decode_base64(base64.urlsafe_b64encode(data).decode().rstrip("=")) == data


def test_base64_tolerates_line_breaks_and_refuses_garbage() -> None:
    assert decode_base64("aGVs\nbG8=") == b"hello"
    with pytest.raises(ValueError):
        decode_base64("not base64!")


@pytest.mark.parametrize(
    ("text", "datetime_", "date_", "time_", "duration"),
    [
        ("2024-05-01T12:00:00Z", True, False, False, False),
        ("2024-05-01", False, True, False, False),
        ("12:00:00", False, False, True, False),
        ("P1D", False, False, False, True),
        ("12:00", False, False, True, False),
        ("hello", False, False, False, False),
    ],
)
def test_looks_like(text: str, datetime_: bool, date_: bool, time_: bool, duration: bool) -> None:
    assert (
        looks_like_datetime(text),
        looks_like_date(text),
        looks_like_time(text),
        looks_like_duration(text),
    ) == (datetime_, date_, time_, duration)
