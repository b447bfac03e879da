"""Issue 33's tenth round: verdicts and issues that stay what they were at ceb4ff8.

``is_time_either`` and ``is_date_time_either`` look the usual shape up in one set (the
signed shapes apart) with no length test first, and ``is_date`` reads two characters
where it sliced: each is compared with ceb4ff8's (read from git) on adversarial and
generated texts, also with the refusal shortcut off (as on Python 3.10). A number with a
finite lower and upper bound is type-tested without a float's finiteness test (its
bounds refuse NaN and the infinities): checkers written so are compared with checkers
written as at ceb4ff8 (``finite_bounds`` off), verdicts and issues, on adversarial and
generated values, and with the ``jsonschema`` library's verdict. ``is_duration`` remembers
its answer by shape, as ``DurationTexts`` does a container's: against ceb4ff8's.
"""

from __future__ import annotations

import itertools
import math
import types
from decimal import Decimal
from enum import IntEnum
from fractions import Fraction
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support import before
from tests.support.budget import scaled
from tests.validate.test_fast_paths_before import (
    ADVERSARIAL_DURATIONS,
    ADVERSARIAL_MOMENTS,
    EITHER_MOMENTS,
    _moments,
)
from tests.validate.test_fast_paths_eighth import ADVERSARIAL_CLOCKS, ADVERSARIAL_DATE_TIMES

from llmapp._scalars import iso8601 as iso
from llmapp.validate import Validator, _check

ROUND_TEN = "ceb4ff8"
"""The commit before this round's changes."""


@pytest.fixture(scope="module")
def round_ten_iso() -> types.ModuleType:
    return before.load(ROUND_TEN, "llmapp/_scalars/iso8601.py")


class _Text(str):
    """An honest ``str`` subclass: the checks accept what they accept of its text."""


_DAYS = [
    f"{year}-{month}-{day}"
    for year in ("0000", "0001", "1900", "2000", "2023", "2024", "9999")
    for month in ("00", "01", "02", "04", "12", "13", "1٣")
    for day in ("00", "01", "28", "29", "30", "31", "32")
]
_SHORT = [
    "",
    "1",
    "12",
    "12:",
    "12:30",
    "12:30:0",
    "2024-05-01",
    "2024-05-01T12:30:0",
    "\ud800",
    "12:30:0\ud800",
    "2024-05-01T12:30:00\ud800",
]
ADVERSARIAL = [
    *ADVERSARIAL_CLOCKS,
    *ADVERSARIAL_DATE_TIMES,
    *ADVERSARIAL_MOMENTS,
    *EITHER_MOMENTS,
    *_SHORT,
    *_DAYS,
    *(day + "T12:30:00" + tail for day in _DAYS for tail in ("", "Z", "+05:00", ".5Z")),
    *(day.replace("-", sep) for day in _DAYS[::5] for sep in ("/", "", "W", "\x00")),
    "2024-W18-3",
    "2024W183",
    "20240501",
    "2024-123",
    "2024-05-01T12:30:00+05:30:15",
    "2024-05-01T12:30:00.1234567Z",
    "12:30:00.1234567x",
]
"""Clocks and days at and past every bound, each ending, the short and the odd forms."""

_CHECKS = ("is_date", "is_date_time_either", "is_time_either")


def _verdicts(module: types.ModuleType, text: str) -> tuple[bool, ...]:
    return tuple(getattr(module, name)(text) for name in _CHECKS)


def _grammar(module: types.ModuleType, text: str) -> tuple[bool, bool]:
    return (
        module.is_date_time(text) or module.is_date_time_local(text),
        module.is_time(text) or module.is_time_local(text),
    )


@pytest.mark.parametrize("text", ADVERSARIAL)
def test_date_checks_agree_with_ceb4ff8(round_ten_iso: types.ModuleType, text: str) -> None:
    assert _verdicts(iso, text) == _verdicts(round_ten_iso, text), text
    assert _verdicts(iso, _Text(text)) == _verdicts(round_ten_iso, _Text(text)), text
    assert _verdicts(iso, text)[1:] == _grammar(round_ten_iso, text), text


def test_either_checks_agree_without_the_refusal_shortcut(
    round_ten_iso: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As on Python 3.10, whose ``fromisoformat`` refuses usual shapes the grammar reads."""
    monkeypatch.setattr(iso, "_READS_USUAL", {})
    monkeypatch.setattr(iso, "_reads_every", lambda read, texts: False)
    for text in ADVERSARIAL:
        assert _verdicts(iso, text)[1:] == _grammar(round_ten_iso, text), text


_FIELD = st.sampled_from(["00", "05", "12", "13", "23", "24", "25", "29", "31", "59", "60", "99"])


@settings(max_examples=scaled(400, 2000), deadline=None)
@given(
    text=_moments()
    | st.builds(
        lambda y, mo, d, h, mi, s, tail, date: (
            (f"{y}-{mo}-{d}T" if date else "") + f"{h}:{mi}:{s}{tail}"
        ),
        st.sampled_from(["0000", "2000", "2023", "2024"]),
        _FIELD,
        _FIELD,
        _FIELD,
        _FIELD,
        _FIELD,
        st.sampled_from(["", ".5", ".123456789", "Z", "z", "+00:00", "-05:59", "+05:60"]),
        st.booleans(),
    )
)
def test_date_checks_agree_on_generated_texts(round_ten_iso: types.ModuleType, text: str) -> None:
    for piece in (text, text[:10], text[11:]):
        assert _verdicts(iso, piece) == _verdicts(round_ten_iso, piece), piece


# -- numbers between two finite bounds ------------------------------------------------------


class _Small(IntEnum):
    ONE = 1


class _Float(float):
    pass


class _Int(int):
    pass


_BOUNDED = [
    {"type": "number", "minimum": 0.5, "maximum": 100.5},
    {"type": "number", "exclusiveMinimum": 0.5, "maximum": 100.5},
    {"type": "number", "minimum": -1, "exclusiveMaximum": 10**30},
    {"type": "number", "minimum": 0, "maximum": 0},
    {"type": "number", "minimum": 1, "maximum": 100, "multipleOf": 0.5},
    {"type": "number", "minimum": 0, "maximum": 10, "enum": [1, 2.5, 3]},
    {"type": "number", "minimum": 0, "maximum": 10, "const": 2.5},
    {"type": "number", "minimum": -1e308, "maximum": 1e308},
    {"type": ["integer", "number"], "minimum": 0, "maximum": 10},
    {"type": "integer", "minimum": 0, "maximum": 10},
    {"type": "number", "minimum": 0, "maximum": 10, "nullable": True},
    {"type": "number", "minimum": 0, "maximum": 10, "exclusiveMinimum": True},
    {"type": ["number", "string"], "minimum": 0, "maximum": 10},
    {"type": ["number", "null"], "minimum": 0, "maximum": 10},
    {"type": "number", "minimum": 0},
    {"type": "number", "maximum": 10},
    {"minimum": 0, "maximum": 10},
    {"type": "number", "minimum": 0, "maximum": 10, "format": "int32"},
]
"""Both bounds finite (inclusive, exclusive, draft 4's modifier, int and float bounds,
beside ``multipleOf``, ``enum``, ``const``, ``nullable``, a format), and the cases kept
as they were: one bound, no type, a type beside ``number``."""
SCHEMAS = [
    *_BOUNDED,
    *({"type": "array", "items": schema} for schema in _BOUNDED[:6]),
    *({"type": "object", "additionalProperties": schema} for schema in _BOUNDED[:6]),
    {
        "type": "object",
        "properties": {"a": _BOUNDED[0], "b": {"type": "array", "items": _BOUNDED[1]}},
        "required": ["a"],
        "additionalProperties": False,
    },
]

_NUMBERS = [
    math.nan,
    -math.nan,
    math.inf,
    -math.inf,
    0,
    0.0,
    -0.0,
    0.5,
    0.5000000000000001,
    1,
    2.5,
    3,
    10,
    10.0,
    100.5,
    100.50000000000001,
    1e308,
    -1e308,
    1.7976931348623157e308,
    10**30,
    10**30 - 1,
    10**400,
    -(10**400),
    True,
    False,
    None,
    "5",
    _Small.ONE,
    _Float(2.5),
    _Float(math.nan),
    _Float(math.inf),
    _Int(3),
    Decimal("2.5"),
    Decimal("NaN"),
    Fraction(5, 2),
    [5],
    {"a": 5},
]
"""NaN, the infinities, the bounds and their neighbours, huge ints, bools, subclasses,
numbers of other types, and values of no number type."""
_ANY_NUMBER = st.sampled_from(_NUMBERS) | st.floats() | st.integers() | st.booleans()


def _verdict(validator: Validator, value: Any) -> tuple[bool, list[tuple[str, str, str]]]:
    result = validator(value)
    issues = [] if result.success else [(i.path, i.expected, repr(i.value)) for i in result.errors]
    return result.success, issues


def _both(schema: dict[str, Any]) -> tuple[Validator, Validator]:
    today = Validator(schema)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_check, "finite_bounds", lambda schema: False)
        before_ = Validator(schema)
    return today, before_


def _in_place(schema: dict[str, Any], value: Any) -> Any:
    """``value`` where ``schema`` holds its number (an array's item, an object's value)."""
    if schema.get("type") == "array":
        return [value, 0.75]
    if "additionalProperties" in schema and "properties" not in schema:
        return {"x": value, "y": 5}
    if "properties" in schema:
        return {"a": value, "b": [value, 5]}
    return value


@pytest.mark.parametrize("schema", SCHEMAS, ids=range(len(SCHEMAS)))
def test_bounded_numbers_keep_verdicts_and_issues(schema: dict[str, Any]) -> None:
    today, before_ = _both(schema)
    for value in _NUMBERS:
        placed = _in_place(schema, value)
        assert _verdict(today, placed) == _verdict(before_, placed), (schema, value)


@pytest.mark.parametrize("schema", SCHEMAS, ids=range(len(SCHEMAS)))
@settings(max_examples=scaled(60, 300), deadline=None)
@given(values=st.lists(_ANY_NUMBER, max_size=4))
def test_bounded_numbers_keep_verdicts_on_generated_values(
    schema: dict[str, Any], values: list[Any]
) -> None:
    today, before_ = _both(schema)
    for value in itertools.chain(values, [values]):
        placed = _in_place(schema, value)
        assert _verdict(today, placed) == _verdict(before_, placed), (schema, value)
        if _json(placed) and "nullable" not in schema and "format" not in schema:
            library = jsonschema.Draft202012Validator(schema).is_valid(placed)
            if schema.get("exclusiveMinimum") is not True:  # draft 4's modifier
                assert today(placed).success == library, (schema, value)


def _json(value: Any) -> bool:
    """Whether ``value`` is made of JSON's own values (finite numbers, no subclasses)."""
    if type(value) in (list, dict):
        items = value.values() if type(value) is dict else value
        return all(_json(item) for item in items)
    if type(value) is float:
        return math.isfinite(value)
    return type(value) in (int, bool, str) or value is None


def test_the_finiteness_test_is_left_out_only_between_finite_bounds() -> None:
    def writes(schema: dict[str, Any]) -> bool:
        return " - " in Validator(schema).source.split("# w_")[0]

    assert [writes(schema) for schema in _BOUNDED] == [
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        False,
        True,
        True,
        True,
        True,
        False,
        False,
    ]


# -- a lone duration --------------------------------------------------------------------------

_DURATION_TEXTS = [
    *ADVERSARIAL_DURATIONS,
    "P1D\x00",
    "P1D\x00P1D",
    "\x00",
    "P\ud800D",
    "PT\u0661H",
    "P1W",
    "P1Y2M3D",
    "P1Y2M3DT4H5M6S",
    "P1M",
    "PT1H0M5S",
    "PT1H5S",
    "P1DT1H\n",
    "P1D\nT1H",
]


@pytest.mark.parametrize("text", _DURATION_TEXTS)
def test_is_duration_agrees_with_ceb4ff8(round_ten_iso: types.ModuleType, text: str) -> None:
    for _ in range(2):  # learnt, then remembered
        assert iso.is_duration(text) == round_ten_iso.is_duration(text), text
        assert iso.is_duration(_Text(text)) == round_ten_iso.is_duration(text), text


def test_is_duration_past_the_shapes_it_remembers(
    round_ten_iso: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With its memory full, a new shape is matched each time, and answered alike."""
    monkeypatch.setattr(iso, "_DURATIONS", iso.DurationTexts())
    texts = [f"P{'1' * count}DT{'2' * (count % 7)}H" for count in range(1, 400)]
    for text in [*texts, *texts, *_DURATION_TEXTS]:
        assert iso.is_duration(text) == round_ten_iso.is_duration(text), text


_DURATION_PIECES = st.sampled_from(
    ["P", "T", "1", "12", "0", "Y", "M", "W", "D", "H", "S", ".", ",", "-", "+", " ", "p", "٣"]
)


@settings(max_examples=scaled(400, 2000), deadline=None)
@given(text=st.lists(_DURATION_PIECES, max_size=10).map("".join) | st.text(max_size=8))
def test_is_duration_agrees_on_generated_texts(round_ten_iso: types.ModuleType, text: str) -> None:
    assert iso.is_duration(text) == round_ten_iso.is_duration(text), text


def test_validators_call_is_duration() -> None:
    """Where they matched ``DURATION_PATTERN`` themselves (``is_duration`` was one match)."""
    check = Validator({"type": "array", "items": {"type": "string", "format": "duration"}})
    assert check(["P3DT4H30M"]).success
    refused = check(["P3DT4H30M", "P3D4H"])
    assert not refused.success and [issue.path for issue in refused.errors] == ["$input[1]"]
    assert "is_duration(item)" in check.source and "DURATION.match" not in check.source
