"""Text <-> Python values for the string formats: RFC 3339 times, ISO 8601 durations, base64.

The parsers are lenient (they read what Python's own ``fromisoformat`` reads, plus
``Z`` offsets, any number of fraction digits and leap seconds on Python 3.10);
the ``looks_like_*`` predicates are strict, because they decide which branch of a
union a string belongs to (a date must not pass for a date-time).
"""

from __future__ import annotations

import base64
import re
from datetime import date, datetime, time, timedelta, timezone

__all__ = [
    "decode_base64",
    "format_duration",
    "looks_like_date",
    "looks_like_datetime",
    "looks_like_duration",
    "looks_like_time",
    "parse_date",
    "parse_datetime",
    "parse_duration",
    "parse_time",
]

_TIME = r"(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?"
_OFFSET = r"([Zz]|[+-]\d{2}(?::?\d{2})?)"
_DATE = r"(\d{4})-(\d{2})-(\d{2})"
_DATETIME_RE = re.compile(rf"{_DATE}[Tt ]{_TIME}\s*{_OFFSET}?\Z")
_TIME_RE = re.compile(rf"{_TIME}\s*{_OFFSET}?\Z")

_STRICT_DATETIME_RE = re.compile(
    rf"\d{{4}}-\d{{2}}-\d{{2}}[Tt ]\d{{2}}:\d{{2}}(:\d{{2}}([.,]\d+)?)?{_OFFSET}?\Z"
)
_STRICT_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")
_STRICT_TIME_RE = re.compile(rf"\d{{2}}:\d{{2}}(:\d{{2}}([.,]\d+)?)?{_OFFSET}?\Z")

_NUMBER = r"(\d+(?:[.,]\d+)?)"
_DURATION_RE = re.compile(
    rf"([-+])?P(?:{_NUMBER}Y)?(?:{_NUMBER}M)?(?:{_NUMBER}W)?(?:{_NUMBER}D)?"
    rf"(?:T(?:{_NUMBER}H)?(?:{_NUMBER}M)?(?:{_NUMBER}S)?)?\Z"
)
# str(timedelta) and the clock forms people write: "-1 day, 2:03:04.5", "2:30", "12:00:00".
_CLOCK_RE = re.compile(r"([-+])?(?:(\d+) days?,?\s*)?(\d+):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\Z")

_DAYS_PER_YEAR = 365
_DAYS_PER_MONTH = 30


def _tz(text: str | None) -> timezone | None:
    if text is None:
        return None
    if text in ("Z", "z"):
        return timezone.utc
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    hours, minutes = int(digits[:2]), int(digits[2:4] or 0)
    return timezone(sign * timedelta(hours=hours, minutes=minutes))


def _clock(
    hour: str, minute: str, second: str | None, fraction: str | None
) -> tuple[int, int, int, int]:
    seconds = int(second or 0)
    micro = int((fraction or "")[:6].ljust(6, "0"))
    if seconds == 60:  # a leap second: the last representable instant of that minute
        seconds, micro = 59, 999_999
    return int(hour), int(minute), seconds, micro


def parse_datetime(text: str) -> datetime:
    """Read an RFC 3339 / ISO 8601 date-time (``2024-05-01T12:30:00Z``)."""
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        match = _DATETIME_RE.match(text.strip())
        if match is None:
            raise
    year, month, day, hour, minute, second, fraction, offset = match.groups()
    clock = _clock(hour, minute, second, fraction)
    return datetime(int(year), int(month), int(day), *clock, tzinfo=_tz(offset))


def parse_date(text: str) -> date:
    """Read an ISO 8601 calendar date (``2024-05-01``)."""
    return date.fromisoformat(text.strip())


def parse_time(text: str) -> time:
    """Read an RFC 3339 time, with or without an offset (``12:30:00Z``, ``08:00``)."""
    try:
        return time.fromisoformat(text)
    except ValueError:
        match = _TIME_RE.match(text.strip())
        if match is None:
            raise
    hour, minute, second, fraction, offset = match.groups()
    return time(*_clock(hour, minute, second, fraction), tzinfo=_tz(offset))


def _amount(text: str | None) -> float:
    return float(text.replace(",", ".")) if text else 0.0


def parse_duration(text: str) -> timedelta:
    """Read an ISO 8601 duration (``P1DT2H``, ``PT30M``, ``-P3D``) or a clock (``1:30:00``).

    A year counts as 365 days and a month as 30, since ``timedelta`` has no calendar.
    """
    stripped = text.strip()
    match = _DURATION_RE.match(stripped.upper())
    if (
        match is not None
        and stripped.upper() not in ("P", "-P", "+P")
        and not stripped.endswith("T")
    ):
        sign, years, months, weeks, days, hours, minutes, seconds = match.groups()
        total = timedelta(
            weeks=_amount(weeks),
            days=_amount(days)
            + _DAYS_PER_YEAR * _amount(years)
            + _DAYS_PER_MONTH * _amount(months),
            hours=_amount(hours),
            minutes=_amount(minutes),
            seconds=_amount(seconds),
        )
        return -total if sign == "-" else total
    clock = _CLOCK_RE.match(stripped)
    if clock is None:
        raise ValueError(f"not an ISO 8601 duration: {text!r}")
    sign, days, hours, minutes, seconds, fraction = clock.groups()
    total = timedelta(
        days=int(days or 0),
        hours=int(hours),
        minutes=int(minutes),
        seconds=int(seconds or 0),
        microseconds=int((fraction or "")[:6].ljust(6, "0")),
    )
    return -total if sign == "-" else total


def format_duration(value: timedelta) -> str:
    """Write a ``timedelta`` as an ISO 8601 duration: ``P1DT2H30M``, ``PT1H0M5S``, ``PT0S``.

    The clock units are written in a row as RFC 3339's grammar wants (``PT1H0M5S``).
    RFC 3339 has no sign and no fractions; a negative or sub-second ``timedelta``
    still needs them (``-PT0.5S``), as ISO 8601 and pydantic write it.
    """
    micro = (value.days * 86_400 + value.seconds) * 1_000_000 + value.microseconds
    sign = "-" if micro < 0 else ""
    seconds, micro = divmod(abs(micro), 1_000_000)
    days, seconds = divmod(seconds, 86_400)
    hours, seconds = divmod(seconds, 3_600)
    minutes, seconds = divmod(seconds, 60)
    second = f"{seconds}.{micro:06d}".rstrip("0").rstrip(".")
    parts = [(str(hours), "H"), (str(minutes), "M"), (second, "S")]
    present = [index for index, (amount, _) in enumerate(parts) if amount != "0"]
    # RFC 3339 writes the clock units in a row: PT1H0M5S, never PT1H5S.
    run = parts[present[0] : present[-1] + 1] if present else []
    clock = "".join(amount + unit for amount, unit in run)
    if not days and not clock:
        return "PT0S"
    return f"{sign}P" + (f"{days}D" if days else "") + (f"T{clock}" if clock else "")


def decode_base64(text: str) -> bytes:
    """Decode standard or URL-safe base64, with or without padding and line breaks."""
    compact = "".join(text.split()).translate(_URLSAFE)
    return base64.b64decode(compact + "=" * (-len(compact) % 4), validate=True)


_URLSAFE = str.maketrans("-_", "+/")


def looks_like_datetime(text: str) -> bool:
    """Whether ``text`` is written as a date-time (a date, a ``T`` and a clock)."""
    return _STRICT_DATETIME_RE.match(text) is not None


def looks_like_date(text: str) -> bool:
    """Whether ``text`` is written as a bare calendar date."""
    return _STRICT_DATE_RE.match(text) is not None


def looks_like_time(text: str) -> bool:
    """Whether ``text`` is written as a clock time."""
    return _STRICT_TIME_RE.match(text) is not None


def looks_like_duration(text: str) -> bool:
    """Whether ``text`` is written as an ISO 8601 duration."""
    try:
        parse_duration(text)
    except (ValueError, OverflowError):
        return False
    return text.lstrip("+-")[:1] in ("P", "p")
