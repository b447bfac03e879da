"""Issue 33's eighth round: verdicts and results that stay what they were at ac0984b.

``is_date_time_either`` and ``is_time_either`` refuse a usual shape whose hour is past 23
before ``fromisoformat`` (whose exception cost more than the rest of the check); they are compared with ac0984b's (read from git) on
adversarial and generated texts, also with the refusal shortcut off (as on Python 3.10).
The validator builds its ``ValidationSuccess`` without ``__init__``: the object is the one
``ValidationSuccess(value)`` gives (type, data, ``==``, ``hash``, ``repr``, pickling).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import pickle
import types
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support import before
from tests.support.budget import scaled
from tests.validate.test_fast_paths_before import EITHER_MOMENTS, TIME_MOMENTS, _moments

from llmapp._results import ValidationSuccess
from llmapp._scalars import iso8601 as iso
from llmapp.validate import Validator, _runtime
from llmapp.validate._check import CheckWriter

ROUND_EIGHT = "ac0984b"
"""The commit before an hour past 23 was refused ahead of ``fromisoformat``."""


@pytest.fixture(scope="module")
def round_eight_iso() -> types.ModuleType:
    return before.load(ROUND_EIGHT, "llmapp/_scalars/iso8601.py")


_OUT_OF_RANGE_CLOCKS = [
    f"{hour}:{minute}:{second}"
    for hour in ("00", "09", "19", "20", "23", "24", "25", "29", "30", "99")
    for minute in ("00", "59", "60", "61", "99")
    for second in ("00", "59", "60", "61", "99")
]
_TAILS = ["", ".5", ".123456789", "Z", "z", "+00:00", "-05:59", "+05:60", "-23:99", "+24:00"]
_DAYS = [
    f"2024-{month}-{day}"
    for month in ("00", "01", "02", "09", "10", "12", "13", "19", "20", "99")
    for day in ("00", "01", "29", "30", "31", "32", "99")
]

ADVERSARIAL_CLOCKS = [clock + tail for clock in _OUT_OF_RANGE_CLOCKS for tail in _TAILS]
"""Every field at, inside and past its bounds, with every kind of ending."""
ADVERSARIAL_DATE_TIMES = [
    *(day + "T" + clock for day in _DAYS for clock in ("12:30:00", "23:59:60", "25:61:00")),
    *("2024-05-01T" + clock for clock in ADVERSARIAL_CLOCKS),
    *("2024-13-01" + sep + "10:00:00Z" for sep in ("T", "t", " ")),
    "2024-13-01T10:00:00Z",
    "2024-1３-01T10:00:00Z",
    "2024-05-01T2５:00:00Z",
    "2024-05-01T12:30:00+05:6０",
]


def _both(module: types.ModuleType, text: str) -> tuple[bool, bool]:
    return (
        module.is_date_time(text) or module.is_date_time_local(text),
        module.is_time(text) or module.is_time_local(text),
    )


def _today(text: str) -> tuple[bool, bool]:
    return iso.is_date_time_either(text), iso.is_time_either(text)


@pytest.mark.parametrize(
    "text", [*ADVERSARIAL_CLOCKS, *ADVERSARIAL_DATE_TIMES, *EITHER_MOMENTS, *TIME_MOMENTS]
)
def test_either_checks_agree_with_ac0984b(round_eight_iso: types.ModuleType, text: str) -> None:
    assert _today(text) == _both(round_eight_iso, text), text
    assert (iso.is_date_time_either(text), iso.is_time_either(text)) == (
        round_eight_iso.is_date_time_either(text),
        round_eight_iso.is_time_either(text),
    ), text


def test_either_checks_agree_without_the_refusal_shortcut(
    round_eight_iso: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As on Python 3.10, whose ``fromisoformat`` refuses usual shapes the grammar reads:
    the early refusals stay the grammar's own."""
    monkeypatch.setattr(iso, "_READS_USUAL", {})
    monkeypatch.setattr(iso, "_reads_every", lambda read, texts: False)
    for text in (*ADVERSARIAL_CLOCKS, *ADVERSARIAL_DATE_TIMES, *EITHER_MOMENTS, *TIME_MOMENTS):
        assert _today(text) == _both(round_eight_iso, text), text


def test_an_hour_past_23_is_refused_before_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """A usual shape whose hour is past 23 is not read by the grammar: refused before
    reading where ``fromisoformat`` reads hour 24 (``_reads_every`` never asked), by
    ``fromisoformat`` itself where it does not (eleventh round)."""
    asked: list[str] = []
    monkeypatch.setattr(iso, "_READS_USUAL", {})
    monkeypatch.setattr(iso, "_reads_every", lambda read, texts: asked.append("reads") or True)
    monkeypatch.setattr(iso, "_date_time", lambda text, offset: asked.append(text) or False)
    monkeypatch.setattr(iso, "_time", lambda text, offset: asked.append(text) or False)
    for text in ("2024-05-01T25:00:00", "2024-05-01T24:00:00+01:00", "2024-05-01T99:00:00Z"):
        assert not iso.is_date_time_either(text) and set(asked) <= {"reads"}, text
    for text in ("25:61:00", "24:00:00Z", "30:30:00+05:30", "99:00:00.5-00:00"):
        assert not iso.is_time_either(text) and set(asked) <= {"reads"}, text


_FIELD = st.sampled_from(["00", "05", "12", "13", "23", "24", "25", "29", "31", "59", "60", "99"])


@settings(max_examples=scaled(400, 2000), deadline=None)
@given(
    text=_moments()
    | st.builds(
        lambda mo, h, mi, s, tail, date: (f"2024-{mo}-01T" if date else "") + f"{h}:{mi}:{s}{tail}",
        _FIELD,
        _FIELD,
        _FIELD,
        _FIELD,
        st.sampled_from(_TAILS),
        st.booleans(),
    )
)
def test_either_checks_agree_on_generated_texts(
    round_eight_iso: types.ModuleType, text: str
) -> None:
    for piece in (text, text[11:]):
        assert _today(piece) == _both(round_eight_iso, piece), piece


# -- the success the validator builds -------------------------------------------------------------

_SCHEMA = {
    "type": "object",
    "properties": {"n": {"type": "integer"}, "at": {"type": "string", "format": "date"}},
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    "value", [{}, {"n": 1}, {"n": 2, "at": "2024-02-29"}, {"n": [1]}, {"at": "2023-02-29"}]
)
@pytest.mark.parametrize("guarded", [False, True])
def test_the_validators_success_is_the_constructed_one(value: Any, guarded: bool) -> None:
    """``__call__`` (and ``_guarded_call``, its guarded form) give the very object
    ``ValidationSuccess(value)`` would: its data is the value itself."""
    schema: dict[str, Any] = dict(_SCHEMA)
    if guarded:  # a pattern the time-limited engine may search: the guarded call
        schema["properties"] = {
            **schema["properties"],
            "s": {"type": "string", "pattern": "(a+)+$"},
        }
    validator = Validator(schema)
    assert validator._guarded is guarded
    result = validator(value)
    if not result.success:
        assert value in ({"n": [1]}, {"at": "2023-02-29"})
        return
    made = ValidationSuccess(value)
    assert type(result) is ValidationSuccess
    assert result.data is value and result.success is True
    assert result == made and repr(result) == repr(made)
    assert pickle.loads(pickle.dumps(result)) == made
    assert dataclasses.asdict(result) == dataclasses.asdict(made)  # type: ignore[call-overload]
    assert dataclasses.replace(result, data=1) == ValidationSuccess(1)  # type: ignore[type-var]
    match result:
        case ValidationSuccess(data):
            assert data is value


@pytest.mark.parametrize("value", ["a", "", "2024-02-29"])
def test_the_validators_success_hashes_as_the_constructed_one(value: str) -> None:
    result = Validator({"type": "string"})(value)
    assert hash(result) == hash(ValidationSuccess(value)) and result.data is value


# -- uniqueItems of strings, and key loops with no property -----------------------------------------


class _Unhashable(str):
    __hash__ = None  # type: ignore[assignment]


class _Loud(str):
    def __eq__(self, other: object) -> bool:
        return isinstance(other, str)

    __hash__ = str.__hash__


_TEXTS = st.lists(
    st.sampled_from(["", "a", "b", "A", "ab", "é", "e\u0301", "1", "\x00"]), max_size=6
)


@settings(max_examples=scaled(300, 1500), deadline=None)
@given(texts=_TEXTS, kind=st.sampled_from([str, _Unhashable, _Loud]), as_tuple=st.booleans())
def test_unique_plain_is_unique_on_strings(texts: list[str], kind: type, as_tuple: bool) -> None:
    items: Any = [kind(text) for text in texts]
    if as_tuple:
        items = tuple(items)
    assert _runtime.unique_plain(items) == _runtime.unique(items), items


class _Level(enum.IntEnum):
    ONE = 1
    TWO = 2


_NUMBERS = st.lists(
    st.sampled_from([0, 1, 2, -1, 0.0, -0.0, 1.0, 1.5, 2.0, 10**20, 1e20, _Level.ONE, _Level.TWO]),
    max_size=6,
)


@settings(max_examples=scaled(300, 1500), deadline=None)
@given(numbers=_NUMBERS, texts=_TEXTS, as_tuple=st.booleans())
def test_unique_plain_is_unique_on_numbers_and_strings(
    numbers: list[Any], texts: list[str], as_tuple: bool
) -> None:
    items: Any = numbers + texts
    if as_tuple:
        items = tuple(items)
    assert _runtime.unique_plain(items) == _runtime.unique(items), items


_STRING_ITEMS: list[dict[str, Any]] = [
    {"type": "string"},
    {"type": ["string"]},
    {"type": "string", "minLength": 1},
    {"type": "string", "enum": ["a", "b", "c"]},
    {"type": "string", "format": "date"},
    {"type": "string", "nullable": True},
    {"enum": ["a", "b", 1, True]},
    {"type": ["string", "integer"]},
    {"type": "integer"},
    {"type": "number", "minimum": 0},
]
_ARRAYS: list[dict[str, Any]] = [
    *({"type": "array", "items": items, "uniqueItems": True} for items in _STRING_ITEMS),
    {"type": ["array", "null"], "items": {"type": "string"}, "uniqueItems": True},
    {"type": "array", "prefixItems": [{"type": "integer"}], "items": {"type": "string"},
     "uniqueItems": True},
    {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"},
     "uniqueItems": True, "minItems": 1}},
    {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
    {"type": "object", "patternProperties": {"^x": {"type": "string"}},
     "additionalProperties": {"type": "integer"}},
    {"type": "object", "propertyNames": {"maxLength": 2}, "additionalProperties": {"type": "string"}},
]  # fmt: skip
_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-2, 2)
    | st.sampled_from(["a", "b", "c", "2024-02-29", "xyz"]),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["a", "xb", "ccc"]), inner, max_size=3)
    ),
    max_leaves=8,
)


def _verdict(validator: Validator, value: Any) -> tuple[bool, list[tuple[str, str, str]]]:
    result = validator(value)
    issues = [] if result.success else [(i.path, i.expected, repr(i.value)) for i in result.errors]
    return result.success, issues


@pytest.mark.parametrize("schema", _ARRAYS, ids=range(len(_ARRAYS)))
@settings(max_examples=scaled(60, 300), deadline=None)
@given(value=_VALUES)
def test_checkers_keep_verdicts_and_issues(schema: dict[str, Any], value: Any) -> None:
    """The checker that asks ``unique_plain`` gives the verdict and issues of the one
    written without it; that one and those asking no ``key in PROPERTIES`` give the
    ``jsonschema`` library's verdict (which asserts no format, and knows no OpenAPI ``nullable``)."""
    today = Validator(schema)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(CheckWriter, "_plain_items", lambda self, node: False)
        before_ = Validator(schema)
    assert _verdict(today, value) == _verdict(before_, value)
    if not {"nullable", "format"} & set(json.dumps(schema).replace('"', " ").split()):
        assert today(value).success == jsonschema.Draft202012Validator(schema).is_valid(value)


def test_unique_plain_is_asked_only_of_strings() -> None:
    asks = [
        "unique_plain(" in Validator(schema).source.split("# w_")[0]
        for schema in _ARRAYS[:9] + _ARRAYS[10:12]
    ]
    assert asks == [True, True, True, True, True, False, False, True, True, True, False]
    assert "unique_plain(" in Validator(_ARRAYS[9]).source.split("# w_")[0]
    assert "PROPERTIES" not in Validator(_ARRAYS[13]).source.split("# w_")[0]
