"""Text of dates, times, durations and base64: reading, writing, and the format checks.

Three kinds of function, for three jobs:

- ``parse_*`` read leniently what a model writes (what Python's own ``fromisoformat``
  reads, plus ``Z`` offsets, any number of fraction digits, leap seconds on 3.10);
- ``looks_like_*`` are strict, because they decide which branch of a union a string
  belongs to (a date must not pass for a date-time);
- ``is_*`` are the JSON Schema format checks (RFC 3339 ``date-time``, ``date``,
  ``time``, ``duration``, and the OpenAPI format registry's ``date-time-local`` and
  ``time-local``, the same without an offset). The usual text is accepted by
  ``fromisoformat`` and a few tests of its shape, in the check itself; what that does
  not accept (a leap second, say) goes the longer way through RFC 3339's grammar and
  rules, so the verdict is RFC 3339's both ways:
  ``fromisoformat`` reads ``2024-05-01 12:30`` and ``,5`` fractions, RFC 3339 does
  not; RFC 3339 reads ``23:59:60Z``, ``fromisoformat`` does not.

Patterns are compiled on first use (``_regex``): this module is read while building
schemas, which match no text.
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Callable, Collection
from datetime import date, datetime, time, timedelta, timezone
from functools import cache
from itertools import pairwise
from operator import itemgetter
from typing import Any, TypeAlias

__all__ = [
    "DURATION_PATTERN",
    "DurationTexts",
    "UsualTexts",
    "decode_base64",
    "encode_base64",
    "format_duration",
    "is_date",
    "is_date_time",
    "is_date_time_either",
    "is_date_time_local",
    "is_duration",
    "is_time",
    "is_time_either",
    "is_time_local",
    "looks_like_date",
    "looks_like_datetime",
    "looks_like_duration",
    "looks_like_time",
    "parse_date",
    "parse_datetime",
    "parse_duration",
    "parse_time",
]

_regex = cache(re.compile)

# Bound once: ``date.fromisoformat`` looked up binds the class method anew at each call,
# a cost beside the reading itself on every text a check reads.
_read_date = date.fromisoformat
_read_datetime = datetime.fromisoformat
_read_time = time.fromisoformat

# -- lenient readers ----------------------------------------------------------------------

_CLOCK = r"(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?"
_ZONE = r"([Zz]|[+-]\d{2}(?::?\d{2})?)"
_DAY = r"(\d{4})-(\d{2})-(\d{2})"
_DATETIME_TEXT = rf"{_DAY}[Tt ]{_CLOCK}\s*{_ZONE}?\Z"
_TIME_TEXT = rf"{_CLOCK}\s*{_ZONE}?\Z"
_NUMBER = r"(\d+(?:[.,]\d+)?)"
_DURATION_TEXT = (
    rf"([-+])?P(?:{_NUMBER}Y)?(?:{_NUMBER}M)?(?:{_NUMBER}W)?(?:{_NUMBER}D)?"
    rf"(?:T(?:{_NUMBER}H)?(?:{_NUMBER}M)?(?:{_NUMBER}S)?)?\Z"
)
_PLAIN_DURATION = (
    r"P(?:([0-9]{1,9})D)?(?:T(?:([0-9]{1,9})H)?(?:([0-9]{1,9})M)?(?:([0-9]{1,9})S)?)?\Z"
)
"""What ``_DURATION_TEXT`` reads most often: days and a clock in whole ASCII amounts."""
# str(timedelta) and the clock forms people write: "-1 day, 2:03:04.5", "2:30", "12:00:00".
_CLOCK_DURATION = r"([-+])?(?:(\d+) days?,?\s*)?(\d+):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\Z"

_DAYS_PER_YEAR = 365
_DAYS_PER_MONTH = 30
_MOST_WHOLE_DAYS = 999_999_998
"""Below ``timedelta``'s most days, with a day to spare for the clock's remainder."""


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
    """Read an RFC 3339 / ISO 8601 date-time, with or without offset (``2024-05-01T12:30:00Z``)."""
    try:
        return _read_datetime(text)
    except ValueError:
        match = _regex(_DATETIME_TEXT).match(text.strip())
        if match is None:
            raise
    year, month, day, hour, minute, second, fraction, offset = match.groups()
    clock = _clock(hour, minute, second, fraction)
    return datetime(int(year), int(month), int(day), *clock, tzinfo=_tz(offset))


def parse_date(text: str) -> date:
    """Read an ISO 8601 calendar date (``2024-05-01``)."""
    return _read_date(text.strip())


def parse_time(text: str) -> time:
    """Read an RFC 3339 time, with or without an offset (``12:30:00Z``, ``08:00``)."""
    try:
        return _read_time(text)
    except ValueError:
        match = _regex(_TIME_TEXT).match(text.strip())
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
    upper = stripped.upper()
    plain = _regex(_PLAIN_DURATION).match(upper)
    if plain is not None and upper != "P" and not stripped.endswith("T"):
        # The usual ``P3DT4H30M``, in one small match: the whole amounts below.
        days, hours, minutes, seconds = plain.groups()
        whole = int(days) if days else 0
        counted = 3600 * int(hours) if hours else 0
        if minutes:
            counted += 60 * int(minutes)
        if seconds:
            counted += int(seconds)
        if whole + counted // 86_400 < _MOST_WHOLE_DAYS:
            return timedelta(whole, counted)
    match = _regex(_DURATION_TEXT).match(upper)
    if match is not None and upper not in ("P", "-P", "+P") and not stripped.endswith("T"):
        sign, years, months, weeks, days, hours, minutes, seconds = match.groups()
        if len(upper) <= 64 and "." not in upper and "," not in upper:
            # Short whole amounts: the same timedelta from integers, without seven float
            # conversions, below the size where ``timedelta`` would refuse either (and
            # far below the digits ``int`` refuses).
            whole = int(days or 0) + 7 * int(weeks or 0)
            whole += _DAYS_PER_YEAR * int(years or 0) + _DAYS_PER_MONTH * int(months or 0)
            counted = 3600 * int(hours or 0) + 60 * int(minutes or 0) + int(seconds or 0)
            if whole + counted // 86_400 < _MOST_WHOLE_DAYS:
                total = timedelta(whole, counted)
                return -total if sign == "-" else total
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
    clock = _regex(_CLOCK_DURATION).match(stripped)
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
    run = parts[present[0] : present[-1] + 1] if present else []
    clock = "".join(amount + unit for amount, unit in run)
    if not days and not clock:
        return "PT0S"
    return f"{sign}P" + (f"{days}D" if days else "") + (f"T{clock}" if clock else "")


_BASE64_TEXT = r"[A-Za-z0-9+/]*={0,2}\Z"
_URLSAFE = str.maketrans("-_", "+/")


def decode_base64(text: str) -> bytes:
    """Decode standard or URL-safe base64, with or without padding and line breaks."""
    compact = "".join(text.split()).translate(_URLSAFE)
    compact += "=" * (-len(compact) % 4)
    if _regex(_BASE64_TEXT).match(compact) is None:
        raise ValueError(f"not base64: {text[:40]!r}")
    return binascii.a2b_base64(compact)


def encode_base64(value: bytes | bytearray | memoryview) -> str:
    """Standard base64 with padding, on one line."""
    return binascii.b2a_base64(value, newline=False).decode("ascii")


# -- strict look-alikes, for choosing a union branch -------------------------------------

_LOOKS_DATETIME = rf"\d{{4}}-\d{{2}}-\d{{2}}[Tt ]\d{{2}}:\d{{2}}(:\d{{2}}([.,]\d+)?)?{_ZONE}?\Z"
_LOOKS_DATE = r"\d{4}-\d{2}-\d{2}\Z"
_LOOKS_TIME = rf"\d{{2}}:\d{{2}}(:\d{{2}}([.,]\d+)?)?{_ZONE}?\Z"


def looks_like_datetime(text: str) -> bool:
    """Whether ``text`` is written as a date-time (a date, a ``T`` and a clock)."""
    return _regex(_LOOKS_DATETIME).match(text) is not None


def looks_like_date(text: str) -> bool:
    """Whether ``text`` is written as a bare calendar date."""
    return _regex(_LOOKS_DATE).match(text) is not None


def looks_like_time(text: str) -> bool:
    """Whether ``text`` is written as a clock time."""
    return _regex(_LOOKS_TIME).match(text) is not None


def looks_like_duration(text: str) -> bool:
    """Whether ``text`` is written as an ISO 8601 duration."""
    if text.lstrip("+-")[:1] not in ("P", "p"):  # a clock, or no duration: not read
        return False
    try:
        parse_duration(text)
    except (ValueError, OverflowError):
        return False
    return True


# -- format checks (RFC 3339, the OpenAPI format registry) --------------------------------

_FULL_DATE = r"([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
_PARTIAL_TIME = r"([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9]|60)(?:\.[0-9]+)?"
_OFFSET = r"(?:[zZ]|([+-])([01][0-9]|2[0-3]):([0-5][0-9]))"
_TIME = _PARTIAL_TIME + _OFFSET + r"\Z"
_TIME_LOCAL = _PARTIAL_TIME + r"\Z"
_DATE_TIME = _FULL_DATE + "[Tt]" + _PARTIAL_TIME + _OFFSET + r"\Z"
_DATE_TIME_LOCAL = _FULL_DATE + "[Tt]" + _PARTIAL_TIME + r"\Z"
_DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_DURATION_DATE = r"(?:[0-9]+D|[0-9]+M(?:[0-9]+D)?|[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?)"
_DURATION_TIME = r"T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)"
_DURATION = rf"P(?:{_DURATION_DATE}(?:{_DURATION_TIME})?|{_DURATION_TIME}|[0-9]+W)\Z"
DURATION_PATTERN = _DURATION
"""``is_duration`` is one match of this pattern."""


def _is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _day_ok(year: str, month: str, day: str) -> bool:
    if year == "0000":
        return False  # RFC 3339 allows it, but no Python date (nor most parsers) does
    if day <= "28":
        return True
    number = int(month)
    days = 29 if number == 2 and _is_leap(int(year)) else _DAYS_IN_MONTH[number - 1]
    return int(day) <= days


def _leap_second_ok(
    hour: str, minute: str, sign: str | None, off_h: str | None, off_m: str | None
) -> bool:
    """Second 60 is only valid at 23:59 UTC (at 23:59 local time when there is no offset)."""
    offset = (
        0 if sign is None else (int(off_h or 0) * 60 + int(off_m or 0)) * (1 if sign == "+" else -1)
    )
    return (int(hour) * 60 + int(minute) - offset) % (24 * 60) == 23 * 60 + 59


# The usual text is decided by ``fromisoformat`` and a few characters, in the check's own
# frame (no helper called on the way to True); whatever that does not accept goes to
# RFC 3339's grammar (``_date_time``, ``_time``; a date has no text the grammar reads and
# ``fromisoformat`` refuses), so the verdict is the grammar's both ways.
# ``fromisoformat`` checks the ranges (month, day of month, hour, minute, second, offset
# under 24 hours) and that the digits are ASCII digits; what is left to check is where
# the two grammars differ: it also reads basic forms (``20240501``, ``123000``), week
# dates, any separator, missing seconds, ``,`` fractions, anything after a sixth
# fraction digit (``.1234567x``), a space before the offset, ``+05``, ``+0530`` and
# ``+05:30:15`` offsets, minute 60 in an offset and (since 3.12) hour 24. The
# separators (``text[4:17:3]``) and the hour are tested here, the fraction and offset
# after the seconds by ``_tail`` and ``_fraction``: a few characters, where a regular
# expression cost several times ``fromisoformat`` itself.


_OFFSET_SHAPES = frozenset({"--T::+:", "--T::-:"})


def _fraction(text: str, start: int, end: int) -> bool:
    """``text[start:end]`` is empty or RFC 3339's ``.`` and ASCII digits."""
    return start == end or (
        end > start + 1
        and text[start] == "."
        and text[start + 1 : end].isdigit()
        and text[start:end].isascii()
    )


def _tail(text: str, start: int) -> bool:
    """After the seconds ``fromisoformat`` read: a fraction, then ``Z`` or ``+hh:mm``.

    The offset's digits and its hours under 24 are ``fromisoformat``'s checks; RFC 3339
    adds only that its minute is under 60 and that nothing but the fraction is between.
    """
    if text[-1] == "Z":
        return _fraction(text, start, len(text) - 1)
    return (
        text[-6] in "+-"
        and text[-3] == ":"
        and text[-2] <= "5"
        and len(text) - 6 >= start
        and _fraction(text, start, len(text) - 6)
    )


def is_date(text: str) -> bool:
    """RFC 3339 full-date.

    ``fromisoformat`` decides alone: the grammar's every date is ten characters with
    ``-`` fourth and seventh, a text of that shape ``fromisoformat`` reads only as
    ``YYYY-MM-DD`` in ASCII digits, and both refuse the same days (year 0, February 30):
    a refused date is not read a second time by the grammar.
    """
    if len(text) != 10 or text[4] != "-" or text[7] != "-":  # reads cost less than a slice
        return False
    try:
        _read_date(text)
    except ValueError:
        return False
    return True


def is_time(text: str) -> bool:
    """RFC 3339 full-time: an offset is required; second 60 only at 23:59 UTC."""
    if len(text) < 9:
        return False  # shorter than the grammar's shortest, '12:30:00Z'
    if text[-1] not in "Zz" and text[-6] not in "+-":
        return False  # no offset where the grammar ends with one: a local time
    try:
        value = _read_time(text)
    except ValueError:
        return _time(text, True)
    if (
        value.tzinfo is not None
        and text[2:6:3] == "::"
        and text[:2] != "24"
        and (text[8:] == "Z" or _tail(text, 8))
    ):
        return True
    return _time(text, True)


def is_time_local(text: str) -> bool:
    """RFC 3339 partial-time: a time without an offset (OpenAPI registry ``time-local``)."""
    if len(text) < 8:
        return False  # shorter than the grammar's shortest, '12:30:00'
    try:
        value = _read_time(text)
    except ValueError:
        return _time(text, False)
    if (
        value.tzinfo is None
        and text[2:6:3] == "::"
        and text[:2] != "24"
        and (len(text) == 8 or _fraction(text, 8, len(text)))
    ):
        return True
    return _time(text, False)


def is_date_time(text: str) -> bool:
    """RFC 3339 date-time: an offset is required."""
    if len(text) < 20:
        return False  # shorter than the grammar's shortest, '2024-05-01T12:30:00Z'
    if text[-1] not in "Zz" and text[-6] not in "+-":
        return False  # no offset where the grammar ends with one: a local date-time
    try:
        value = _read_datetime(text)
    except ValueError:
        return _date_time(text, True)
    if text[11] < "2" or text[12] < "4":  # not hour 24, which Python 3.12 reads
        # The most usual of all in one slice: '2024-05-01T12:30:00Z' and
        # '2024-05-01T12:30:00+02:00' (the slice holds the offset's sign and colon).
        shape = text[4::3]
        if shape == "--T::Z" or (len(text) == 25 and shape in _OFFSET_SHAPES and text[23] <= "5"):
            return True
        if (
            len(text) == 24
            and text[23] == "Z"
            and shape[:6] == "--T::."
            and text[20:23].isdigit()
            and text.isascii()
        ):
            return True  # JavaScript's toISOString, '2024-05-01T12:30:00.000Z'
        if value.tzinfo is not None and shape[:5] == "--T::" and _tail(text, 19):
            return True
    return _date_time(text, True)


def is_date_time_local(text: str) -> bool:
    """RFC 3339 date-time without an offset (OpenAPI registry ``date-time-local``)."""
    if len(text) < 19:
        return False  # shorter than the grammar's shortest, '2024-05-01T12:30:00'
    try:
        value = _read_datetime(text)
    except ValueError:
        return _date_time(text, False)
    if (
        value.tzinfo is None
        and text[4:17:3] == "--T::"
        and text[11:13] != "24"
        and (len(text) == 19 or _fraction(text, 19, len(text)))
    ):
        return True
    return _date_time(text, False)


def _time(text: str, offset: bool) -> bool:
    """RFC 3339 full-time (``offset``) or partial-time, by its grammar."""
    if not offset:
        match = _regex(_TIME_LOCAL).match(text)
        if match is None:
            return False
        hour, minute, second = match.groups()
        return second != "60" or _leap_second_ok(hour, minute, None, None, None)
    match = _regex(_TIME).match(text)
    if match is None:
        return False
    hour, minute, second, sign, off_h, off_m = match.groups()
    return second != "60" or _leap_second_ok(hour, minute, sign, off_h, off_m)


def _date_time(text: str, offset: bool) -> bool:
    """RFC 3339 date-time, with (``offset``) or without an offset, by its grammar."""
    if len(text) < (20 if offset else 19) or text[10] not in "Tt":
        return False  # the grammar's shortest date-time, its T: refused without it
    match = _regex(_DATE_TIME if offset else _DATE_TIME_LOCAL).match(text)
    if match is None:
        return False
    year, month, day, hour, minute, second, *zone = match.groups()
    if not _day_ok(year, month, day):
        return False
    sign, off_h, off_m = zone or (None, None, None)
    return second != "60" or _leap_second_ok(hour, minute, sign, off_h, off_m)


# -- every text of a container at once ------------------------------------------------------

_SEPARATOR = "\x00"
_DIGITS = bytes.maketrans(b"0123456789", b"0000000000")
_FRACTIONS = ("", *("." + "0" * count for count in range(1, 10)))
_CLOCKS = tuple("00:00:00" + fraction for fraction in _FRACTIONS)
_ZONES = ("Z", "+00:00", "-00:00")
_DAY_SHAPE = "0000-00-00"
_READERS: dict[str, Any] = {
    "date": _read_datetime,  # a lone day as its midnight: it refuses the days
    "date-time": _read_datetime,  # ``date.fromisoformat`` refuses
    "date-time-local": _read_datetime,
    "time": _read_time,
    "time-local": _read_time,
}
USUAL_FORMATS = frozenset(_READERS)
"""The formats ``UsualTexts`` reads: those whose check is the ``is_*`` of the same name."""
_STR = frozenset({str})


def _shapes(format: str) -> tuple[str, ...]:
    """The usual texts of ``format`` with every digit written ``0``: seconds always,
    a ``.`` fraction of up to nine digits, an upper-case ``T`` and ``Z``."""
    if format == "date":
        return (_DAY_SHAPE,)
    clocks = _CLOCKS if format.startswith("time") else tuple(_DAY_SHAPE + "T" + c for c in _CLOCKS)
    if format.endswith("-local"):
        return clocks
    return tuple(clock + zone for clock in clocks for zone in _ZONES)


_KNOWN_SHAPES = 256
"""How many joined shapes a ``UsualTexts`` remembers: a field's containers come in a few."""
_KNOWN_LENGTH = 2048
"""The longest joined shape remembered; a longer one is split each time (its cost is the
texts', not the lookup's)."""


class _AtOnce:
    """A container's texts judged at once: ``left`` (what is still to judge one by one),
    ``every`` (also the object's call); a dict's by ``mapping``. Validators call the
    methods: calling the object itself costs a lookup of ``__call__`` more."""

    __slots__ = ()

    def __call__(self, values: Collection[Any]) -> bool:
        return self.every(values)

    def left(self, values: Collection[Any]) -> Collection[Any] | bool:
        raise NotImplementedError

    def every(self, values: Collection[Any]) -> bool:
        """Every one of ``values`` (a list, a tuple, a dict's values) accepted at once; an
        empty container is not (nothing is left to judge in it either)."""
        return bool(values) and not self.left(values)

    def mapping(self, value: dict[Any, Any]) -> bool:
        """Every key of the dict ``value`` a ``str`` and every value accepted. The values
        first: a refused one (the usual mistake) is answered without joining the keys."""
        if not value or self.left(value.values()):
            return False
        try:
            _SEPARATOR.join(value)
        except TypeError:
            return False
        return True


REFUSED: tuple[None] = (None,)
"""What ``left`` answers for a container it knows refused: one stand-in item that the check
of a text refuses (not a ``str``), so the caller's loop over the items left refuses at once
instead of judging each text alone. The texts ``left`` judged are the ones the caller's
loop reads: ``str.join`` reads a list or a tuple as it is, anything else by its iterator,
as the loop does; the answer that all are accepted (the loop skipped) trusts the same."""


class UsualTexts(_AtOnce):
    """Whether every text of a container is in the usual form of one of some formats,
    judged at once: ``True`` is the format checks' own verdict, ``False`` only says "not
    decided here" (the caller checks each value as before).

    A value checked alone pays a Python call or two beside ``fromisoformat``; here the
    texts are joined, their shapes read by one translation (every ASCII digit made
    ``0``) and looked up, and ``fromisoformat`` mapped over them in C. A usual shape is
    a case of RFC 3339's grammar: ASCII digits in fixed places, ``-``, ``T``, ``:``,
    ``.`` and the offset's sign where the grammar puts them. ``fromisoformat`` then
    checks every range the grammar and the calendar ask (month, day of the month, year
    0, hour, minute, second, the offset's hours) but two: hour 24 (searched for in the
    joined text where this Python's ``fromisoformat`` reads it) and an offset's minute
    past 59 (its first digit read at its place). A leap second, a lower-case ``t`` or
    ``z``, a space or any other text is left to the checks.

    The joined shape's answer (how many texts, and the places of the signed offsets'
    minutes) is remembered, a few hundred short shapes at most: the same field sends the
    same shapes again, and a dict lookup costs less than splitting the shape and looking
    up each piece.
    """

    __slots__ = ("_formats", "_hour_24", "_known", "_read", "_shapes", "_signed")

    def __init__(self, formats: tuple[str, ...]) -> None:
        readers = {_READERS[format] for format in formats}
        if len(readers) != 1:
            raise ValueError(f"formats read by different readers: {formats}")
        self._formats = formats
        self._read = readers.pop()
        self._shapes = frozenset(shape.encode() for format in formats for shape in _shapes(format))
        self._signed = frozenset(s for s in self._shapes if s.endswith((b"+00:00", b"-00:00")))
        self._hour_24 = _hour_24(self._read, self._read is _read_time)
        self._known: dict[bytes, tuple[int, _Minutes | None]] = {}

    def __repr__(self) -> str:
        return f"UsualTexts({self._formats!r})"

    def _learn(self, shape: bytes) -> tuple[int, _Minutes | None]:
        """How many usual texts ``shape`` joins (-1 when a piece is not a usual shape)
        and what reads the first digit of each signed offset's minute in the joined text
        (``None`` when no text has a signed offset)."""
        pieces = shape.split(b"\x00")
        answer: tuple[int, _Minutes | None] = -1, None
        if self._shapes.issuperset(pieces):
            places, end = [], -1
            for piece in pieces:
                end += len(piece) + 1  # where the separator after ``piece`` is
                if piece in self._signed:
                    places.append(end - 2)  # '+hh:Mm': the M
            answer = len(pieces), _places(places)
        if len(self._known) < _KNOWN_SHAPES and len(shape) <= _KNOWN_LENGTH:
            self._known[shape] = answer
        return answer

    def left(self, values: Collection[Any]) -> Collection[Any] | bool:
        """What of ``values`` (a list, a tuple, a dict's values) is left to judge one by
        one: nothing (``False``: a test of it costs least) when every one is a usual
        text, ``REFUSED`` when one is known refused (a value not a ``str``; a usual shape
        that ``fromisoformat`` refuses and RFC 3339 too, ``_final``), else ``values``
        themselves."""
        try:
            joined = _SEPARATOR.join(values)  # TypeError on a value not a str
            shape = joined.encode().translate(_DIGITS)  # ValueError on a lone surrogate
            known = self._known.get(shape)
            if known is None:
                known = self._learn(shape)
            # A text holding the separator splits in two: the count tells it apart.
            count, minutes = known
            if count != len(values) or (self._hour_24 is not None and self._hour_24(joined)):
                return values
            # Read in C; a date-time or a time is never false, so ``all`` reads every one.
            all(map(self._read, values))
        except TypeError:  # a value not a str: the check of a text refuses it
            return REFUSED
        except UnicodeEncodeError:
            return values
        except ValueError:  # ``fromisoformat`` refused a text
            return REFUSED if self._final(joined) else values
        # Read, every offset's hours are under 24, but its minute may be past 59. A
        # usual shape is ASCII: its places in the shape are its places in the text.
        if minutes is None:
            return False
        if type(minutes) is slice:  # one slice is cheaper than reading each place
            return values if joined[minutes].strip(_UNDER_6) else False
        return False if _UNDER_6_SET.issuperset(minutes(joined)) else values

    def _final(self, joined: str) -> bool:
        """Whether ``fromisoformat`` refusing one of the usual texts ``joined`` means RFC
        3339 refuses it too: in a usual shape the grammar reads nothing this Python's
        ``fromisoformat`` refuses but a leap second (where it reads every usual shape at
        all: 3.10 reads neither ``Z`` nor most fractions), and a second is written
        after a ``:`` (so is a minute: one of 60 is left to the checks too)."""
        if ":60" in joined:
            return False
        reads = _READS_USUAL.get(self)
        if reads is None:
            samples = (
                "2000-01-01" + shape[10:] if shape.startswith(_DAY_SHAPE) else shape
                for shape in map(bytes.decode, self._shapes)
            )
            reads = _READS_USUAL[self] = _reads_every(self._read, tuple(samples))
        return reads


_Minutes: TypeAlias = "slice | Callable[[str], tuple[str, ...]]"
"""The places of the offsets' minutes in a joined text: a slice where they are evenly
spaced (one, or texts of one length), else an ``itemgetter`` of them."""
_UNDER_6 = "012345"
"""The first digit of a minute under 60."""
_UNDER_6_SET = frozenset(_UNDER_6)


def _places(places: list[int]) -> _Minutes | None:
    """``_Minutes`` of the offsets' minutes at ``places`` (ascending), if there are any."""
    if not places:
        return None
    steps = {later - earlier for earlier, later in pairwise(places)}
    if len(steps) <= 1:
        return slice(places[0], places[-1] + 1, steps.pop() if steps else 1)
    return itemgetter(*places)  # a tuple: two places at least


def _hour_24(read: Callable[[str], object], clock: bool) -> Callable[[str], bool] | None:
    """Whether a joined text has an hour 24 (where an hour begins: at the start of a
    lone time (``clock``), after a date's ``T``), when ``read`` reads hour 24 (a Python
    from 3.12 may: RFC 3339 does not); ``None`` when ``read`` refuses it, so no text
    need be searched for it."""
    for text in ("24:00:00", "24:00:00.0", "24:00:00+00:00", "24:00:00Z"):
        try:
            read(text if clock else "2000-01-01T" + text)
        except ValueError:
            continue
        if clock:
            return lambda joined: "\x0024:" in _SEPARATOR + joined
        return lambda joined: "T24:" in joined
    return None


class DurationTexts(_AtOnce):
    """Whether every text of a container is an RFC 3339 duration, judged at once, as
    ``UsualTexts`` judges date and time texts: ``True`` is ``is_duration``'s verdict on
    each, ``False`` only says "not decided here".

    A duration's grammar asks nothing of its digits but that they are ASCII digits, so
    its verdict is its shape's (every ASCII digit made ``0``): the joined shape's answer
    is remembered (a few hundred short shapes at most), and a container of the shapes
    a field sends again costs one translation and one lookup, not a match per text.
    """

    __slots__ = ("_known",)

    def __init__(self) -> None:
        self._known: dict[bytes, int] = {}

    def __repr__(self) -> str:
        return "DurationTexts()"

    def _learn(self, shape: bytes) -> int:
        """How many durations ``shape`` joins, or -1 when a piece is not one."""
        pieces = shape.split(b"\x00")
        match = _regex(_DURATION).match
        answer = len(pieces) if all(match(piece.decode()) for piece in pieces) else -1
        if len(self._known) < _KNOWN_SHAPES and len(shape) <= _KNOWN_LENGTH:
            self._known[shape] = answer
        return answer

    def left(self, values: Collection[Any]) -> Collection[Any] | bool:
        """What of ``values`` (a list, a tuple, a dict's values) is left to judge one by
        one: nothing (``False``) when every one is a duration, ``REFUSED`` when one is known not to
        be (a value not a ``str``, or a shape the grammar refuses: a text holding the
        separator is none either), else ``values`` themselves."""
        try:
            # ValueError on a lone surrogate (or on a piece that is not UTF-8 alone).
            shape = _SEPARATOR.join(values).encode().translate(_DIGITS)
            known = self._known.get(shape)
            # A text holding the separator splits in two: the count tells it apart.
            if (self._learn(shape) if known is None else known) == len(values):
                return False
        except TypeError:  # a value not a str: no duration
            pass
        except ValueError:
            return values
        # An empty container joins to no duration, and is accepted: left as it is.
        return REFUSED if values else values


_DURATIONS = DurationTexts()
"""``is_duration``'s shapes."""


def _either(
    formats: tuple[str, str], checks: tuple[Callable[[str], bool], Callable[[str], bool]]
) -> Callable[[str], bool]:
    """``checks[0](text) or checks[1](text)`` in one call, for a union of two formats one
    ``fromisoformat`` reads (``datetime``'s ``date-time`` and ``date-time-local``,
    ``time``'s ``time`` and ``time-local``).

    The usual text is decided as ``UsualTexts`` decides a container's: its shape (every
    ASCII digit made ``0``) looked up, then ``fromisoformat`` for the ranges, hour 24 and
    an offset's minute looked at. In a usual shape the grammar reads nothing
    ``fromisoformat`` refuses but a leap second (where this Python reads every usual
    shape at all: 3.10 reads neither ``Z`` nor most fractions), so such a refusal is
    final. Anything else is left to the two checks.
    """
    first, second = checks
    clock = formats[0].startswith("time")
    read = _read_time if clock else _read_datetime
    hour = 0 if clock else 11  # where the hour begins: a lone time's start, after the T
    hours, seconds = slice(hour, hour + 2), slice(hour + 6, hour + 8)
    reads_24 = _hour_24(read, clock) is not None
    usual = [shape.encode() for format in formats for shape in _shapes(format)]
    # Apart, so the most usual (no offset, or ``Z``) is one set lookup.
    signed = frozenset(shape for shape in usual if shape.endswith((b"+00:00", b"-00:00")))
    plain = frozenset(usual) - signed
    samples = tuple(
        shape if clock else "2000-01-01" + shape[10:] for shape in map(bytes.decode, usual)
    )

    def refused(text: str) -> bool:
        """The verdict on a usual shape ``read`` refuses."""
        if text[seconds] != "60":
            reads = _READS_USUAL.get(read)
            if reads is None:
                reads = _READS_USUAL[read] = _reads_every(read, samples)
            if reads:
                return False
        return first(text) or second(text)

    def either(text: str) -> bool:
        try:
            shape = text.encode().translate(_DIGITS)
        except UnicodeEncodeError:  # a lone surrogate: no usual shape
            return first(text) or second(text)
        # A text shorter than either grammar's shortest (a date, say) has no usual shape:
        # the checks refuse it.
        if shape in plain or (shape in signed and text[-2] <= "5"):
            # ASCII digits there: an hour past 23 is refused by both grammars, and by
            # ``fromisoformat`` but 24 where it reads it (from 3.12), refused here. A lone
            # time's hour begins the text, which compares whole; a date-time's is sliced
            # only from 20 on (a character read costs less than a slice).
            if reads_24 and (
                (text >= "24") if clock else (text[hour] > "1" and text[hours] > "23")
            ):
                return False
            try:
                read(text)
            except ValueError:
                return refused(text)
            return True
        return first(text) or second(text)

    return either


_READS_USUAL: dict[object, bool] = {}
"""Whether each ``fromisoformat`` (an ``either``'s reader, a ``UsualTexts``) reads every
usual shape, found on its first refusal."""


def _reads_every(read: Callable[[str], object], texts: tuple[str, ...]) -> bool:
    """Whether ``read`` (this Python's ``fromisoformat``) reads every one of ``texts``."""
    for text in texts:
        try:
            read(text)
        except ValueError:
            return False
    return True


is_date_time_either = _either(("date-time", "date-time-local"), (is_date_time, is_date_time_local))
is_date_time_either.__doc__ = """RFC 3339 date-time with or without an offset: ``is_date_time(text)
or is_date_time_local(text)`` in one call, for ``datetime``'s union of the two."""
is_time_either = _either(("time", "time-local"), (is_time, is_time_local))
is_time_either.__doc__ = """RFC 3339 time with or without an offset: ``is_time(text) or
is_time_local(text)`` in one call, for ``time``'s union of the two."""
for _check, _name in (
    (is_date_time_either, "is_date_time_either"),
    (is_time_either, "is_time_either"),
):
    _check.__name__ = _check.__qualname__ = _name
del _check, _name


def is_duration(text: str) -> bool:
    """RFC 3339 appendix A duration (``P1DT2H``, ``PT1H0M5S``, ``P2W``): ``DURATION_PATTERN``
    matched, its answer remembered by shape as ``DurationTexts`` remembers a container's
    (a lone text is a container of one), in this frame: a method called costs a frame more."""
    try:
        shape = text.encode().translate(_DIGITS)
    except UnicodeEncodeError:  # a lone surrogate: no duration
        return False
    known = _DURATIONS._known.get(shape)
    return (_DURATIONS._learn(shape) if known is None else known) == 1
