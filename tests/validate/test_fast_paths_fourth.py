"""Issue 33's fourth round of per-value fast paths accept and refuse exactly what the old
paths did.

Each old path is either still in the code beside the new one (``numeric_text``, the two
date-time checks) or written here as it was at the commit before the change (``d426259``),
and run beside the new one on generated (hypothesis) and adversarial inputs: base64 read by the strict decoder instead of a pattern, a decimal
string and every numeric keyword beside it judged in one call, and the checks of a text
that may carry an offset or not (``date-time`` or ``date-time-local``) in one call.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import re
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.budget import scaled
from tests.support.texts import decimal_texts

from llmapp._scalars.table import is_decimal
from llmapp.validate import _formats, _runtime, _unions

# -- base64 -------------------------------------------------------------------------------

_OLD_BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\Z")


def old_is_byte(text: str) -> bool:
    """``_formats.is_byte`` at d426259."""
    if _OLD_BASE64.match(text) is None:
        return False
    try:
        binascii.a2b_base64(text.encode("ascii"))
    except (binascii.Error, ValueError):
        return False
    return True


ADVERSARIAL_BASE64 = [
    "",
    "=",
    "==",
    "====",
    "QQ==",
    "QQ=",
    "QQ",
    "QR==",
    "QUI=",
    "QUJD",
    "QUJD=",
    "QUJD==",
    "QUJD====",
    "QUJDQQ==QUJD",
    "=QUJ",
    "Q=Q=",
    "QUJD\n",
    " QUJD",
    "QU JD",
    "QUJ-",
    "QUJ_",
    "QUJé",
    "QUJ\x00",
    "ＱＵＪＤ",
    "QUJD" * 1000,
    "QUJD" * 1000 + "=",
]


@pytest.mark.parametrize("text", ADVERSARIAL_BASE64)
def test_base64_agrees_on_adversarial_texts(text: str) -> None:
    assert _formats.is_byte(text) is old_is_byte(text), text


def test_base64_agrees_on_every_short_text() -> None:
    """Every text of up to eight characters over the alphabet's edges."""
    for length in range(scaled(7, 9)):
        for letters in itertools.product("A/=+-\n", repeat=length):
            text = "".join(letters)
            assert _formats.is_byte(text) is old_is_byte(text), text


@settings(max_examples=scaled(300, 2000), deadline=None)
@given(
    data=st.binary(max_size=64),
    cut=st.integers(0, 3),
    tail=st.sampled_from(["", "=", "==", "===", "A", "\n", "-", "é"]),
)
def test_base64_agrees_on_generated_texts(data: bytes, cut: int, tail: str) -> None:
    text = base64.b64encode(data).decode()
    for variant in (text, text[: len(text) - cut], text.rstrip("=") + tail, text + tail):
        assert _formats.is_byte(variant) is old_is_byte(variant), variant


# -- a decimal string and its numeric keywords, in one call -------------------------------

_BOUNDS = [
    (("minimum", True, 0), ("maximum", True, 100000), ("multipleOf", False, 0.01)),
    (("minimum", True, 0), ("maximum", True, 100000), ("multipleOf", False, 0.5)),
    (("exclusiveMinimum", False, 0.0), ("multipleOf", True, 1)),
    (("exclusiveMaximum", False, 1e300), ("multipleOf", False, 1e-7)),
    (("maximum", False, float("inf")),),
    (("multipleOf", True, 3),),
]


def _one_by_one(bounds: tuple[tuple[str, bool, int | float], ...], text: str) -> bool:
    """What the generated code asked before: the format, then one call per keyword."""
    passes = all(_runtime.numeric_text(text, keyword, bound) for keyword, _, bound in bounds)
    return passes and is_decimal(text)


ADVERSARIAL_DECIMALS = [
    "0",
    "-0",
    "+0.00",
    "0.01",
    "0.015",
    "4.02",
    "100000",
    "100000.00",
    "100000.01",
    "-0.01",
    "1e-999999999",
    "1e999999",
    "1E+3",
    "1e999999999999999999",
    ".5",
    "5.",
    ".",
    "",
    " 1",
    "1_000",
    "NaN",
    "Infinity",
    "١٢",
    "0x10",
    "9" * 60,
    "0." + "0" * 40 + "1",
    "1" + "0" * 39 + ".25",
]


@pytest.mark.parametrize("text", ADVERSARIAL_DECIMALS)
@pytest.mark.parametrize("bounds", _BOUNDS)
def test_decimal_text_agrees_on_adversarial_texts(
    bounds: tuple[tuple[str, bool, int | float], ...], text: str
) -> None:
    assert _runtime.decimal_text(bounds)(text) is _one_by_one(bounds, text)


@settings(max_examples=scaled(200, 1000), deadline=None)
@given(text=decimal_texts(45), bounds=st.sampled_from(_BOUNDS))
def test_decimal_text_agrees_on_generated_texts(
    text: str, bounds: tuple[tuple[str, bool, int | float], ...]
) -> None:
    assert _runtime.decimal_text(bounds)(text) is _one_by_one(bounds, text)


def test_a_decimal_field_is_checked_by_one_call() -> None:
    """The generated check of a bounded ``Decimal`` string calls one helper, not one per
    keyword, and refuses what the keywords refuse."""
    from llmapp.validate import validator

    schema = {
        "type": "string",
        "format": "decimal",
        "minimum": 0,
        "maximum": 100,
        "multipleOf": 0.01,
    }
    check = validator(schema)
    assert "_numeric_text(" not in check.source
    assert [check(text).success for text in ("4.02", "4.015", "-1", "100.01", "x")] == [
        True,
        False,
        False,
        False,
        False,
    ]
    assert check("4.015").errors[0].expected == check("x").errors[0].expected


def test_a_decimal_field_with_a_pattern_keeps_its_order() -> None:
    """Beside a pattern (whose search may be time-limited) the keywords stay one by one,
    in the order they were checked before."""
    from llmapp.validate import validator

    schema = {"type": "string", "format": "decimal", "minimum": 0, "pattern": "^[0-9.]+$"}
    check = validator(schema)
    assert "_numeric_text(" in check.source
    assert [check(text).success for text in ("4.02", "-1", "1e3")] == [True, False, False]


# -- multipleOf with the divisor read once ------------------------------------------------


def _outcome(check: Callable[..., bool], *args: object) -> object:
    """The answer, or the kind of exception raised (infinities: both raise alike; the
    generated code tests a number's finiteness first)."""
    try:
        return check(*args)
    except Exception as error:  # the kind is what is compared
        return type(error)


_DIVISORS = [0.5, 0.01, 0.05, 0.1, 0.3, 1e-7, 5e-324, 2.5, 1e300, 1, 5, 7, 10**40, 10**800]

ADVERSARIAL_NUMBERS = [
    0.0,
    -0.0,
    0.5,
    75585.5,
    16943.0,
    0.1,
    0.3,
    4.02,
    1e-300,
    5e-324,
    1e300,
    1.7976931348623157e308,
    2.0**53,
    2.0**53 + 2,
    9007199254740993,
    10**40,
    10**800,
    3,
    float("inf"),
    float("-inf"),
    float("nan"),
]


@pytest.mark.parametrize("value", ADVERSARIAL_NUMBERS)
@pytest.mark.parametrize("divisor", _DIVISORS)
def test_multiple_check_agrees_on_adversarial_numbers(value: float, divisor: float) -> None:
    new = _outcome(_runtime.multiple_check(divisor), value)
    assert new == _outcome(_runtime.multiple_of, value, divisor)


@settings(max_examples=scaled(300, 2000), deadline=None)
@given(
    value=st.one_of(
        st.floats(allow_nan=False, allow_infinity=False),
        st.integers(-(10**6), 10**6).map(lambda n: n / 2),
        st.integers(-(10**9), 10**9).map(lambda n: n / 100),
        st.integers(-(2**60), 2**60).map(float),
    ),
    divisor=st.one_of(st.sampled_from(_DIVISORS), st.floats(min_value=1e-300, max_value=1e300)),
)
def test_multiple_check_agrees_on_generated_numbers(value: float, divisor: float) -> None:
    assert _runtime.multiple_check(divisor)(value) is _runtime.multiple_of(value, divisor)


# -- a union's branches by JSON type, found once -------------------------------------------

_KINDS = (None, "null", "boolean", "integer", "number", "string", "array", "object")
_BRANCH_TYPES = st.one_of(
    st.none(), st.frozensets(st.sampled_from(_KINDS[1:]), min_size=1, max_size=3)
)


@settings(max_examples=scaled(100, 500), deadline=None)
@given(types=st.lists(_BRANCH_TYPES, min_size=1, max_size=6), literal=st.booleans())
def test_union_branches_by_kind_are_the_branches_that_accept_it(
    types: list[frozenset[str] | None], literal: bool
) -> None:
    """``UnionInfo.accepting`` (a table filled as kinds are met) answers what asking
    every branch did before; twice, so the table's answer is checked too."""
    branches = tuple(_unions.Branch(kinds, literal=literal) for kinds in types)
    info = _unions.UnionInfo("expected", branches)
    for _ in range(2):
        for kind in _KINDS:
            asked = [index for index, branch in enumerate(branches) if branch.accepts(kind)]
            assert list(info.accepting(kind)) == asked


_ANY = '(object | string & Format<"date"> | integer & Minimum<10> | 1 | 2)'
_UNION_REFUSALS = [
    (None, [("$input", _ANY)]),
    (True, [("$input", _ANY)]),
    (3, [("$input", _ANY)]),
    (2.5, [("$input", _ANY)]),
    ("text", [("$input", 'string & Format<"date">')]),
    ([1], [("$input", _ANY)]),
    ({"a": "x"}, [("$input.a", "integer")]),
    ({"kind": "b"}, [("$input.kind", '"a"')]),
    ({}, [("$input.a", "integer")]),
    (float("nan"), [("$input", _ANY)]),
    (object(), [("$input", _ANY)]),
]
"""What d426259's validator reported for each value (the branch ``pick`` chose)."""


@pytest.mark.parametrize(("value", "issues"), _UNION_REFUSALS)
def test_a_refused_union_is_reported_as_before(value: object, issues: list[object]) -> None:
    from llmapp.validate import validator

    schema = {
        "anyOf": [
            {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
            {"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
            {"type": "string", "format": "date"},
            {"type": "integer", "minimum": 10},
            {"enum": [1, 2]},
        ]
    }
    result = validator(schema)(value)
    assert not result.success
    assert [(issue.path, issue.expected) for issue in result.errors] == issues
