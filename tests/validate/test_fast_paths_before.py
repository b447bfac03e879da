"""The call step's faster paths (issue 33) accept and refuse exactly what the old ones did.

Each old path is read from git at the commit before the change (``tests/support/before``)
and run beside today's on generated (hypothesis) and adversarial inputs: ``multipleOf``
on floats and on decimal strings (read with ``Decimal`` arithmetic instead of
``Fraction``), the date and date-time readers, and the patterns ``re`` now runs.
"""

from __future__ import annotations

import math
import types
from decimal import Decimal

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tests.support import before

from llmapp import _scalar_types
from llmapp.validate import _runtime

BEFORE = "2627079"
"""The commit before issue 33's fast paths."""


@pytest.fixture(scope="module")
def old_scalars() -> types.ModuleType:
    return before.load(BEFORE, "llmapp/_scalar_types.py")


@pytest.fixture(scope="module")
def old_runtime(old_scalars: types.ModuleType) -> types.ModuleType:
    scalars = old_scalars
    runtime = before.load(BEFORE, "llmapp/validate/_runtime.py")
    # The old runtime imported today's ``decimal_multiple``: give it its own.
    runtime._NUMERIC_TESTS["multipleOf"] = scalars.decimal_multiple
    runtime.decimal_multiple = scalars.decimal_multiple
    return runtime


def _outcome(check: object, *args: object) -> object:
    """The answer, or the kind of exception raised (both paths must raise alike)."""
    try:
        return check(*args)  # type: ignore[operator]
    except Exception as error:  # the kind is what is compared
        return type(error)


ADVERSARIAL_FLOATS = [
    0.0,
    -0.0,
    5e-324,
    1.7976931348623157e308,
    -1.7976931348623157e308,
    0.1,
    0.3,
    0.0075,
    0.0001,
    1e-300,
    1e300,
    123456789.01,
    2.5,
    3,
    10**40,
    -(10**30),
    10**800,
    True,
    math.inf,
    -math.inf,
    math.nan,
]


@pytest.mark.parametrize("value", ADVERSARIAL_FLOATS)
@pytest.mark.parametrize("divisor", [0.01, 0.1, 0.3, 5e-324, 1e300, 2.5, 7, 10**30, 1e-7])
def test_float_multiple_of_agrees_on_adversarial_numbers(
    old_runtime: types.ModuleType, value: float, divisor: float
) -> None:
    assert _outcome(_runtime.multiple_of, value, divisor) == _outcome(
        old_runtime.multiple_of, value, divisor
    )


@settings(max_examples=400, deadline=None)
@given(
    value=st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers()),
    divisor=st.one_of(
        st.floats(min_value=1e-320, max_value=1e308),
        st.sampled_from([0.01, 0.05, 0.1, 0.25, 0.5, 1.5, 1e-10]),
        st.integers(min_value=1, max_value=10**20),
    ),
)
@example(value=4.02, divisor=0.01)
@example(value=0.07, divisor=0.01)
def test_float_multiple_of_agrees_on_generated_numbers(
    old_runtime: types.ModuleType, value: float, divisor: float
) -> None:
    assert _outcome(_runtime.multiple_of, value, divisor) == _outcome(
        old_runtime.multiple_of, value, divisor
    )


ADVERSARIAL_TEXTS = [
    "0",
    "-0",
    "0.00",
    "12.34",
    "12.345",
    "1e-999999999",
    "-1e-999999999",
    "1e999999",
    "1e-999999",
    "9" * 27 + ".99",
    "9" * 28 + ".99",
    "9" * 29 + ".00",
    "1.00000000000000000000000000000000000",
    "1.000000000000000000000000000000000001",
    "0." + "0" * 40 + "1",
    "1E+27",
    "1E+28",
    "1E+29",
    ".5",
    "5.",
    "+3.0",
    "12.3e1",
    "NaN",
    "Infinity",
    "1_000",
    "١٢",
    " 1",
]


@pytest.mark.parametrize("text", ADVERSARIAL_TEXTS)
@pytest.mark.parametrize(
    ("keyword", "bound"),
    [
        ("multipleOf", 0.01),
        ("multipleOf", 0.5),
        ("multipleOf", 1),
        ("multipleOf", 3),
        ("multipleOf", 1e-7),
        ("multipleOf", 1e300),
        ("minimum", 0),
        ("maximum", 100000),
        ("exclusiveMinimum", 0.0),
        ("exclusiveMaximum", 1e300),
    ],
)
def test_decimal_text_agrees_on_adversarial_texts(
    old_runtime: types.ModuleType, text: str, keyword: str, bound: float
) -> None:
    assert _outcome(_runtime.numeric_text, text, keyword, bound) == _outcome(
        old_runtime.numeric_text, text, keyword, bound
    )


_DIGITS = st.text(alphabet="0123456789", min_size=1, max_size=40)


@settings(max_examples=400, deadline=None)
@given(
    whole=_DIGITS,
    fraction=st.one_of(st.just(""), _DIGITS),
    exponent=st.one_of(st.just(""), st.integers(-(10**10), 10**10).map(lambda e: f"e{e}")),
    sign=st.sampled_from(["", "-", "+"]),
    bound=st.sampled_from([0.01, 0.05, 0.5, 1, 7, 1e-12, 1e20, 0.3]),
)
def test_decimal_text_multiple_of_agrees_on_generated_texts(
    old_runtime: types.ModuleType, whole: str, fraction: str, exponent: str, sign: str, bound: float
) -> None:
    text = f"{sign}{whole}{'.' + fraction if fraction else ''}{exponent}"
    assert _outcome(_runtime.numeric_text, text, "multipleOf", bound) == _outcome(
        old_runtime.numeric_text, text, "multipleOf", bound
    )


@settings(max_examples=300, deadline=None)
@given(
    value=st.decimals(allow_nan=False, allow_infinity=False),
    bound=st.decimals(min_value=Decimal("1e-30"), max_value=Decimal("1e30"), places=None),
)
def test_decimal_multiple_agrees_on_generated_decimals(
    old_scalars: types.ModuleType, value: Decimal, bound: Decimal
) -> None:
    old = old_scalars.decimal_multiple
    assert _outcome(_scalar_types.decimal_multiple, value, bound) == _outcome(old, value, bound)


def test_a_tiny_decimal_is_still_not_a_multiple_of_a_cent() -> None:
    assert _runtime.numeric_text("1e-999999999", "multipleOf", 0.01) is False
    assert _runtime.numeric_text("4.02", "multipleOf", 0.01) is True
    assert _runtime.multiple_of(4.02, 0.01) is True
    assert _runtime.multiple_of(1e-300, 0.01) is False
