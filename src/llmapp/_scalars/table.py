"""The one table of scalar types: each Python type a JSON scalar can become, and how.

Every stage reads its rows and nothing else about these types: ``introspect`` builds
a type's node from its JSON forms, ``schema`` shows a default through ``dump`` (and
only when the dumped value passes its own forms), ``strict`` keeps the formats OpenAI
enforces, ``validate`` asserts the forms' checks, ``convert`` reads values with
``parse``, picks union branches with ``looks_like`` and writes results with ``dump``.

A row names its type by module and name and is matched along a class's MRO
(``scalar_of``), so a subclass finds its nearest base (``bool`` before ``int``,
``datetime`` before ``date``) and a module such as ``uuid`` or ``decimal`` is never
imported here: until the user's code has imported it, no annotation or value can
be of its types. Adding a type is adding a row.

Decisions:

- ``datetime`` and ``time`` accept text with or without an offset (``date-time`` or
  ``date-time-local``, ``time`` or ``time-local``, the OpenAPI format registry's
  names), as Python's types do: a naive value round-trips as naive text.
- ``Decimal`` accepts a decimal string (read exactly) or a JSON number, which the JSON
  reader holds as a float and which becomes the ``Decimal`` of its shortest
  round-tripping text (``0.1`` -> ``Decimal("0.1")``): up to 15 significant digits
  are kept for certain, 17 at most; more digits need the string form.
- A bound on a ``Decimal`` (``Gt(0)``) holds on both forms: the schema writes it on the
  number and on the ``decimal`` string too, where llmapp's validator judges the number
  the string writes (``NUMERIC_TEXT_FORMATS``; JSON Schema's numeric keywords judge
  numbers only, so a validator that does not know the format ignores them there).
- IP networks and interfaces use pydantic's format names (``ipv4network``, ...).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from functools import cache
from typing import Any, NamedTuple

from llmapp._scalars import iso8601 as iso

__all__ = [
    "DECIMAL_DIGITS",
    "DECIMAL_PATTERN",
    "NUMERIC_TEXT_FORMATS",
    "SCALARS",
    "Form",
    "Scalar",
    "decimal_multiple",
    "exact_context",
    "format_checks",
    "scalar_of",
    "strict_formats",
]

Check = Callable[[str], bool]

NUMERIC_TEXT_FORMATS = frozenset({"decimal"})
"""String formats that write a number: numeric keywords (``minimum``, ``multipleOf``, ...)
beside one of them judge the number the string writes, as they judge a JSON number."""


class Form(NamedTuple):
    """One way a value of the type is written in JSON."""

    json_type: str
    """``string``, ``number``, ``integer`` or ``boolean``."""
    format: str | None = None
    check: Check | None = None
    """Whether a string is in ``format`` (the validator's check of that format)."""
    content_encoding: str | None = None
    strict: bool = False
    """OpenAI's structured outputs keep this format in strict mode."""


class Scalar(NamedTuple):
    """One Python type: where it lives, its JSON forms, and its conversions."""

    module: str
    name: str
    forms: tuple[Form, ...]
    parse: Callable[[type], Callable[[Any], Any]]
    """Given the target class (the type or a subclass): JSON value -> instance."""
    dump: Callable[[Any], Any]
    """Instance -> its JSON value."""
    looks_like: Check | None = None
    """Whether a string is written as this type (strict; picks a branch of a union)."""
    native: bool = False
    """One of JSON's own types (str, int, float, bool): the exact type needs no conversion."""


# -- conversions ------------------------------------------------------------------------------


def to_int(value: Any) -> Any:
    # JSON Schema counts 3.0 as an integer; Python code declared ``int`` wants 3.
    return value if type(value) is int else int(value)


def _to_float(value: Any) -> Any:
    return value if type(value) is float else float(value)


def _finite(value: float) -> float | None:
    return float(value) if value - value == 0.0 else None  # NaN and infinities are not JSON


def _from_text(cls: type) -> Callable[[Any], Any]:
    return cls


def _isoformat(value: Any) -> str:
    return str(value.isoformat())


def _clock_reader(exact: type, parse: Callable[[str], Any]) -> Callable[[type], Any]:
    """``parse`` for the type itself; a subclass reads with its own ``fromisoformat``."""
    return lambda cls: parse if cls is exact else cls.fromisoformat  # type: ignore[attr-defined]


def _to_timedelta(value: Any) -> timedelta:
    return iso.parse_duration(value) if isinstance(value, str) else timedelta(seconds=value)


def _to_decimal(cls: type) -> Callable[[Any], Any]:
    # repr() of a float is its shortest round-tripping text: 0.1 -> Decimal("0.1").
    def convert(value: Any) -> Any:
        return cls(value if isinstance(value, (str, int)) else repr(value))

    return convert


def _from_base64(cls: type) -> Callable[[Any], Any]:
    return iso.decode_base64 if cls is bytes else lambda value: cls(iso.decode_base64(value))


# -- format checks ------------------------------------------------------------------------------

_regex = cache(re.compile)
_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\Z"
_IPV4 = (
    r"(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}"
    r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\Z"
)
_HEX = "[0-9a-fA-F]{1,4}"
IPV6_GROUPS = (
    rf"(?:{_HEX}(?::{_HEX}){{7}}|(?:{_HEX}(?::{_HEX}){{0,6}})?::(?:{_HEX}(?::{_HEX}){{0,6}})?)\Z"
)
"""IPv6 text of hex groups alone: eight, or some around one ``::`` (at most seven of them,
a count the pattern does not bound: ``ipv6_groups_fit``). ``IPv6Address`` reads every
such text; it is what models write."""


def ipv6_groups_fit(text: str) -> bool:
    """Whether a text ``IPV6_GROUPS`` matches writes at most seven groups around its ``::``."""
    head, double, tail = text.partition("::")
    return not double or (head.count(":") + bool(head)) + (tail.count(":") + bool(tail)) <= 7


DECIMAL_PATTERN = r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z"
"""A decimal numeral (``is_decimal``), for checks that match it themselves."""


def is_uuid(text: str) -> bool:
    return _regex(_UUID).match(text) is not None


def is_ipv4(text: str) -> bool:
    """Dotted decimal, no leading zeros (RFC 2673 as JSON Schema reads it)."""
    return _regex(_IPV4).match(text) is not None


def is_ipv6(text: str) -> bool:
    """RFC 4291 text, without a zone or prefix; an embedded IPv4 tail is dotted decimal."""
    if _regex(IPV6_GROUPS).match(text) is not None and ipv6_groups_fit(text):
        return True  # hex groups alone, which the constructor reads: not built
    # Hex groups alone are read by the constructor only as the pattern reads them: without
    # an IPv4 tail's dot it would refuse them too (raising costs more than the read).
    if "." not in text or not text.isascii() or "%" in text or "/" in text:
        return False
    if not _constructs("ipaddress", "IPv6Address")(text):
        return False
    tail = text.rsplit(":", 1)[-1]
    return "." not in tail or is_ipv4(tail)


def is_decimal(text: str) -> bool:
    """A decimal numeral (no NaN or Infinity)."""
    return _regex(DECIMAL_PATTERN).match(text) is not None


MATCHED_FORMATS: dict[Check, str] = {
    is_uuid: _UUID,
    is_ipv4: _IPV4,
    is_decimal: DECIMAL_PATTERN,
}
"""Format checks that are one match of a pattern and nothing else: generated validators
match the pattern themselves, without the check's frame around it."""


def decimal_multiple(value: Any, bound: Any) -> bool:
    """Whether the ``Decimal`` ``value`` is a multiple of ``bound``, exactly.

    Every exponent a text can write is kept and any rounding is an error: the default
    context rounds ``1e-999999999 % 0.01`` to 0, as if it were a multiple. The quotient
    holds the default precision's 28 digits.

    Raises:
        ArithmeticError: the two are too far apart to tell (``1e999999 % 0.01``).
    """
    return bool(exact_context(DECIMAL_DIGITS).remainder(value, bound) == 0)


DECIMAL_DIGITS = 28
"""The precision ``decimal_multiple``'s quotient holds (the default context's)."""


@cache
def exact_context(precision: int) -> Any:
    """A decimal context that keeps every exponent and refuses to round (``Inexact``).

    Built once and passed to its own methods, rather than entered with ``localcontext``
    for each value (what a decimal ``multipleOf`` cost most).
    """
    import decimal  # a Decimal is being judged: the module is loaded already

    return decimal.Context(
        prec=precision,
        Emin=decimal.MIN_EMIN,
        Emax=decimal.MAX_EMAX,
        traps=[
            decimal.InvalidOperation,
            decimal.DivisionByZero,
            decimal.Overflow,
            decimal.Inexact,
        ],
    )


def _anything(text: str) -> bool:
    return True


@cache
def _constructs(module: str, name: str) -> Check:
    """Whether ``module.name(text)`` accepts ``text`` (the module is imported on first check)."""

    def check(text: str) -> bool:
        __import__(module)
        try:
            getattr(sys.modules[module], name)(text)
        except ValueError:
            return False
        return True

    return check


# -- the table ------------------------------------------------------------------------------------


def _text_type(module: str, name: str, fmt: str, check: Check, *, strict: bool = False) -> Scalar:
    """A type written as ``str(value)`` and read back by its constructor."""
    return Scalar(module, name, (Form("string", fmt, check, strict=strict),), _from_text, str)


_BASE64 = Form("string", content_encoding="base64")

SCALARS: tuple[Scalar, ...] = (
    Scalar("builtins", "bool", (Form("boolean"),), lambda cls: cls, bool, native=True),
    Scalar(
        "builtins",
        "int",
        (Form("integer"),),
        lambda cls: to_int if cls is int else cls,
        int,
        native=True,
    ),
    Scalar(
        "builtins",
        "float",
        (Form("number"),),
        lambda cls: _to_float if cls is float else cls,
        _finite,
        native=True,
    ),
    Scalar("builtins", "str", (Form("string"),), _from_text, str, native=True),
    Scalar("builtins", "bytes", (_BASE64,), _from_base64, iso.encode_base64),
    Scalar("builtins", "bytearray", (_BASE64,), _from_base64, iso.encode_base64),
    Scalar(
        "datetime",
        "datetime",
        (
            Form("string", "date-time", iso.is_date_time, strict=True),
            Form("string", "date-time-local", iso.is_date_time_local),
        ),
        _clock_reader(datetime, iso.parse_datetime),
        _isoformat,
        iso.looks_like_datetime,
    ),
    Scalar(
        "datetime",
        "date",
        (Form("string", "date", iso.is_date, strict=True),),
        _clock_reader(date, iso.parse_date),
        _isoformat,
        iso.looks_like_date,
    ),
    Scalar(
        "datetime",
        "time",
        (
            Form("string", "time", iso.is_time, strict=True),
            Form("string", "time-local", iso.is_time_local),
        ),
        _clock_reader(time, iso.parse_time),
        _isoformat,
        iso.looks_like_time,
    ),
    Scalar(
        "datetime",
        "timedelta",
        (Form("string", "duration", iso.is_duration, strict=True),),
        lambda cls: _to_timedelta,
        iso.format_duration,
        iso.looks_like_duration,
    ),
    _text_type("uuid", "UUID", "uuid", is_uuid, strict=True),
    Scalar(
        "decimal",
        "Decimal",
        (Form("string", "decimal", is_decimal), Form("number")),
        _to_decimal,
        str,
    ),
    _text_type("pathlib", "PurePath", "path", _anything),
    _text_type("ipaddress", "IPv4Address", "ipv4", is_ipv4, strict=True),
    _text_type("ipaddress", "IPv6Address", "ipv6", is_ipv6, strict=True),
    _text_type("ipaddress", "IPv4Network", "ipv4network", _constructs("ipaddress", "IPv4Network")),
    _text_type("ipaddress", "IPv6Network", "ipv6network", _constructs("ipaddress", "IPv6Network")),
    _text_type(
        "ipaddress", "IPv4Interface", "ipv4interface", _constructs("ipaddress", "IPv4Interface")
    ),
    _text_type(
        "ipaddress", "IPv6Interface", "ipv6interface", _constructs("ipaddress", "IPv6Interface")
    ),
)
"""Every scalar type; the order does not matter (a class's MRO decides)."""

_BY_NAME: dict[str, Scalar] = {f"{row.module}.{row.name}": row for row in SCALARS}


def scalar_of(cls: Any) -> tuple[Scalar, type] | None:
    """The row of ``cls`` or of its nearest base in the table, with that base; else ``None``."""
    mro: tuple[type, ...] = getattr(cls, "__mro__", ())
    for base in mro:
        # The public module is the top package: Python 3.13 defines pathlib's classes
        # in ``pathlib._local``; the identity check below keeps the lookup exact.
        module = base.__module__.partition(".")[0]
        row = _BY_NAME.get(f"{module}.{base.__qualname__}")
        if row is not None and getattr(sys.modules.get(row.module), row.name, None) is base:
            return row, base
    return None


def format_checks() -> dict[str, Check]:
    """Format name -> check, for every format of the table."""
    return {
        form.format: form.check
        for row in SCALARS
        for form in row.forms
        if form.format is not None and form.check is not None
    }


def strict_formats() -> frozenset[str]:
    """The table's formats that OpenAI's structured outputs enforce (kept in strict mode)."""
    return frozenset(
        form.format for row in SCALARS for form in row.forms if form.strict and form.format
    )
