"""Fast readers for the usual text of a scalar type: the same values as the table's ``parse``.

``scalar_converter`` makes a scalar's converter from its row of ``llmapp._scalars.table``
(the row's ``parse``, behind a test that keeps a value already of the type). For the exact
types below, a reader goes first: it takes the text a model usually writes by the
stdlib's fastest exact path (``fromisoformat``; one small match and integer arithmetic;
the constructor's own number) and hands anything else, unchanged, to that converter
(``general``). What it returns is what ``general`` returns for the same text: where the
reader's path accepts a text, ``general``'s path reads it to the same value
(``tests/convert/test_readers.py`` compares the two on generated and adversarial texts).

Each reader is one Python frame: a converter is called per value, and for a date the
frames around ``fromisoformat`` cost more than it does.
"""

from __future__ import annotations

import binascii
import functools
import re
import sys
import weakref
from collections.abc import Callable
from datetime import timedelta
from typing import Any, NamedTuple

from llmapp._scalars.table import IPV6_GROUPS

__all__ = ["PURE", "TEXT_READS", "reader"]

Converter = Callable[[Any], Any]
Reader = Callable[[type, Converter], Converter]

_MOST_WHOLE_DAYS = 999_999_998
"""``iso8601.parse_duration``'s bound on the whole amounts it reads by integers."""

_PLAIN_DURATION = re.compile(
    r"P(?!\Z)(?:([0-9]{1,9})D)?(?:T(?=[0-9])(?:([0-9]{1,9})H)?(?:([0-9]{1,9})M)?(?:([0-9]{1,9})S)?)?\Z"
)
"""``iso8601._PLAIN_DURATION`` without the texts ``parse_duration`` leaves to its other
branches (``P``, a ``T`` with nothing after it): a text it matches as written has no
space to strip and no lower-case letter to raise, so ``parse_duration`` reads it by the
same arithmetic."""

_SECOND = timedelta(seconds=1)

_IPV4 = re.compile(
    r"(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}"
    r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\Z"
)
"""Dotted decimal, four ASCII numbers up to 255 without a leading zero: exactly the texts
``IPv4Address`` reads to the number of their four octets (it refuses every other form)."""

_IPV6 = re.compile(IPV6_GROUPS)
"""IPv6 text of hex groups alone: eight, or some around one ``::`` (their count is
checked beside the match)."""


def _clock(cls: type, general: Converter) -> Converter:
    """``datetime``, ``date`` and ``time``: ``iso8601.parse_datetime`` and ``parse_time``
    try ``fromisoformat`` on the text as written first and keep what it reads;
    ``parse_date`` strips the text first, but ``fromisoformat`` refuses a text with a
    space around it, so a text it reads as written strips to itself."""
    read = cls.fromisoformat  # type: ignore[attr-defined]

    def convert(value: Any) -> Any:
        if type(value) is str:
            try:
                return read(value)
            except ValueError:
                pass
        return general(value)

    return convert


def _duration(cls: type, general: Converter) -> Converter:
    """``P3DT4H30M``: ``parse_duration``'s first branch, on the text as written (a clock
    alone as a multiple of a second, the same ``timedelta`` as ``timedelta(0, seconds)``).

    The amounts a model mostly writes are looked up, not counted (``_Durations``): a text
    of one amount below ``_LISTED`` (``PT30M``, ``P7D``) is a key of one table; days and a
    clock of one or two amounts (``P8DT3H``, ``PT3H25M``) are the parts around its first
    ``T`` and the clock's first ``H``, each a key of its own table, a clock of hours and
    minutes under a day (``3H25M``) a key of the clocks' table whole (no key holds a
    ``T``, the keys after an ``H`` no ``H``, a clock's key is the pattern's hours and
    minutes in their order, so the parts found are the pattern's groups); other
    texts are matched, their amounts looked up by their digits or, past the tables or
    written with a leading zero, counted as before. ``timedelta``'s sum of its parts is
    the one ``timedelta(days, seconds)`` makes."""
    match = _PLAIN_DURATION.match
    tables = _durations()
    texts, heads, clocks, after_hours = tables.texts, tables.heads, tables.clocks, tables.after
    days_of, hours_of, minutes_of, seconds_of = tables.amounts

    def convert(value: Any) -> Any:
        if type(value) is str:
            listed = texts.get(value)
            if listed is not None:
                return listed
            head, t, clock = value.partition("T")
            if t and (day := heads.get(head)) is not None:
                one = clocks.get(clock)
                if one is not None:
                    return day + one
                hours, h, rest = clock.partition("H")
                if h and (first := hours_of.get(hours)) is not None:
                    second = after_hours.get(rest)
                    if second is not None:
                        return day + first + second
            plain = match(value)
            if plain is not None:
                days, hours, minutes, seconds = plain.groups()
                try:
                    return (
                        days_of[days] + hours_of[hours] + minutes_of[minutes] + seconds_of[seconds]
                    )
                except KeyError:
                    pass
                counted = 3600 * int(hours) if hours else 0
                if minutes:
                    counted += 60 * int(minutes)
                if seconds:
                    counted += int(seconds)
                if days is None:  # three nine-digit clock amounts stay far below the bound
                    return _SECOND * counted
                whole = int(days)
                if whole + counted // 86_400 < _MOST_WHOLE_DAYS:
                    return timedelta(whole, counted)
        return general(value)

    return convert


_LISTED = 100
"""Amounts from 0 to 99 of each unit are read from ``_durations()``' tables."""


class _Durations(NamedTuple):
    """Durations of small amounts by their text; each made once, shared by the tables."""

    texts: dict[str, timedelta]
    """One amount, the whole text: ``PT30M``, ``P7D``."""
    heads: dict[str, timedelta]
    """The text before a ``T``: ``P`` (no days) or ``P7D``."""
    clocks: dict[str, timedelta]
    """A clock after the ``T``: one amount (``3H``, ``25M``, ``10S``), or hours from 1 to
    23 and minutes from 1 to 59 (``3H25M``), what a clock under a day mostly is."""
    after: dict[str, timedelta]
    """The minutes or seconds after a clock's hours: ``25M``, ``10S``."""
    amounts: tuple[dict[str | None, timedelta], ...]
    """Days, hours, minutes and seconds by their digits, an absent unit (None) zero."""


@functools.cache
def _durations() -> _Durations:
    """The tables, made by the first converter of a ``timedelta``."""
    zero = timedelta(0)
    tables = _Durations({}, {"P": zero}, {}, {}, ({}, {}, {}, {}))
    units = zip("DHMS", (86_400, 3600, 60, 1), tables.amounts, strict=True)
    for letter, seconds, amounts in units:
        amounts[None] = zero
        for amount in range(_LISTED):
            made = amounts[str(amount)] = timedelta(0, seconds * amount)
            if letter == "D":
                tables.texts[f"P{amount}D"] = tables.heads[f"P{amount}D"] = made
                continue
            tables.texts[f"PT{amount}{letter}"] = tables.clocks[f"{amount}{letter}"] = made
            if letter != "H":
                tables.after[f"{amount}{letter}"] = made
    _, hours, minutes, _ = tables.amounts
    for hour in range(1, 24):  # a clock under a day, hours and minutes written: one key
        whole = hours[str(hour)]
        for minute in range(1, 60):
            tables.clocks[f"{hour}H{minute}M"] = whole + minutes[str(minute)]
    return tables


def _uuid(cls: type, general: Converter) -> Converter:
    """``UUID(text)`` reads ``int(text's hex digits, 16)`` once braces, ``urn:`` and
    hyphens are dropped; a text whose 32 characters without hyphens that reads (no brace,
    no ``u``) is the same number, set on the instance as ``__init__`` sets it (by the
    slots' own descriptors, which ``object.__setattr__`` looks up and calls)."""
    new = object.__new__
    set_number, set_safety = cls.int.__set__, cls.is_safe.__set__  # type: ignore[attr-defined]
    unknown = sys.modules["uuid"].SafeUUID.unknown

    def convert(value: Any) -> Any:
        if type(value) is str:
            digits = value.replace("-", "")
            if len(digits) == 32:
                try:
                    number = int(digits, 16)
                except ValueError:
                    return general(value)
                made: Any = new(cls)
                set_number(made, number)
                set_safety(made, unknown)
                return made
        return general(value)

    return convert


def _ipv4(cls: type, general: Converter) -> Converter:
    """``IPv4Address(text)`` of dotted decimal is ``IPv4Address`` of its number."""
    match = _IPV4.match

    def convert(value: Any) -> Any:
        if type(value) is str and match(value) is not None:
            a, b, c, d = value.split(".")
            return cls((int(a) << 24) | (int(b) << 16) | (int(c) << 8) | int(d))
        return general(value)

    return convert


def _ipv6(cls: type, general: Converter) -> Converter:
    """``IPv6Address(text)`` of hex groups (no embedded IPv4 address, no zone, no prefix):
    eight groups, or at most seven around one ``::`` that stands for the zero groups
    missing, which ``IPv6Address`` reads to the number the groups write in a row."""
    match = _IPV6.match

    def convert(value: Any) -> Any:
        if type(value) is str and match(value) is not None:
            head, double, tail = value.partition("::")
            groups = head.split(":") if head else []
            if double:
                after = tail.split(":") if tail else []
                if len(groups) + len(after) > 7:
                    return general(value)
                groups += ["0"] * (8 - len(groups) - len(after)) + after
            return cls(int("".join([group.zfill(4) for group in groups]), 16))
        return general(value)

    return convert


def _decimal(cls: type, general: Converter) -> Converter:
    """A decimal string: ``Decimal(text)``, as the row's ``parse`` reads it."""

    def convert(value: Any) -> Any:
        return cls(value) if type(value) is str else general(value)

    TEXT_READS[convert] = cls
    return convert


if sys.version_info >= (3, 11):

    def _bytes(cls: type, general: Converter) -> Converter:
        """Padded standard base64 on one line: ``decode_base64`` changes nothing of it. The
        strict decoder in C is the test (the format check's own): a text it reads, of whole
        groups and not ending in ``===``, is one of ``iso8601._BASE64_TEXT``, so the lenient
        decoder the general path calls reads it to the same bytes; any other text goes that
        path."""
        decode, error = binascii.a2b_base64, binascii.Error

        def convert(value: Any) -> Any:
            if type(value) is str and not len(value) & 3 and value[-3:] != "===":
                try:
                    return decode(value, strict_mode=True)
                except (error, ValueError):  # ValueError: a character past ASCII
                    pass
            return general(value)

        return convert

else:  # no strict decoder before Python 3.11
    _BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}\Z")
    """``iso8601._BASE64_TEXT``: a text it matches, padded to a multiple of four
    characters, is what ``decode_base64`` hands ``a2b_base64`` unchanged."""

    def _bytes(cls: type, general: Converter) -> Converter:
        """Padded standard base64 on one line: ``decode_base64`` changes nothing of it."""
        match, decode = _BASE64.match, binascii.a2b_base64

        def convert(value: Any) -> Any:
            if type(value) is str and not len(value) % 4 and match(value) is not None:
                return decode(value)
            return general(value)

        return convert


_READERS: dict[str, Reader] = {
    "datetime.datetime": _clock,
    "datetime.time": _clock,
    "datetime.date": _clock,
    "datetime.timedelta": _duration,
    "uuid.UUID": _uuid,
    "ipaddress.IPv4Address": _ipv4,
    "ipaddress.IPv6Address": _ipv6,
    "builtins.bytes": _bytes,
    "decimal.Decimal": _decimal,
}
"""The types with a reader, by their row's module and name; each for that exact class
(a subclass may read otherwise, so it keeps its row's ``parse``)."""

TEXT_READS: weakref.WeakKeyDictionary[Converter, Converter] = weakref.WeakKeyDictionary()
"""Readers that read any ``str`` by one call (the ``Decimal`` reader: ``Decimal(text)``):
generated code may make that call itself, without the reader's frame between."""

PURE: weakref.WeakSet[Converter] = weakref.WeakSet()
"""The readers made: each a function of its value alone, so a container of them may be
converted again, item by item, to find which item a refusal came from."""


def reader(name: str, cls: type, general: Converter) -> Converter:
    """The converter of ``cls`` (the exact type of the row ``name``): its reader in front
    of ``general``, or ``general`` where it has none."""
    made = _READERS.get(name)
    if made is None:
        return general
    converter = made(cls, general)
    PURE.add(converter)
    return converter
