"""A bounded ``Decimal`` is bounded whichever JSON form the model writes it in."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated

import pytest
from annotated_types import Ge, Gt, Le, MultipleOf

from llmapp import application, llm_application
from llmapp.convert import ConversionError, compile_converter
from llmapp.introspect._types import TypeBuilder

Amount = Annotated[Decimal, Gt(0), Le(10000)]
Price = Annotated[Decimal, Ge(Decimal("1")), MultipleOf(Decimal("0.01"))]


@llm_application
class Bank:
    def transfer(self, amount: Amount) -> str:
        """Move money."""
        return f"moved {amount}"

    def pay(self, price: Price, tips: list[Amount] | None = None) -> str:
        """Pay."""
        return f"paid {price}"


@pytest.fixture(scope="module")
def app():  # type: ignore[no-untyped-def]
    return application(Bank)


@pytest.mark.parametrize("written", ['"-5"', '"0"', '"99999"', '"10000.0000000000000001"', "-5"])
def test_a_value_outside_the_bounds_is_refused_in_either_form(app, written):  # type: ignore[no-untyped-def]
    result = app.execute(Bank(), "transfer", f'{{"amount": {written}}}')
    assert not result.success and result.error is None and result.value is None
    (issue,) = result.validation.errors
    assert issue.path == "$input.amount"
    assert "ExclusiveMinimum<0> & Maximum<10000>" in issue.expected
    assert "$input.amount" in result.message()


@pytest.mark.parametrize("written", ['"0.01"', '"10000"', '"9999.99"', "5", "0.5"])
def test_a_value_inside_the_bounds_runs(app, written):  # type: ignore[no-untyped-def]
    result = app.execute(Bank(), "transfer", f'{{"amount": {written}}}')
    assert result.success, result.message()


@pytest.mark.parametrize("written", ['"0.99"', '"2.505"', '"1e999999"'])
def test_a_decimal_bound_is_checked_exactly_on_text(app, written):  # type: ignore[no-untyped-def]
    # Validation refuses it now (the bounds sit on the decimal string's schema too), so
    # the issue is the validator's: the whole expected text at the value's path.
    result = app.execute(Bank(), "pay", f'{{"price": {written}}}')
    assert not result.success
    (issue,) = result.validation.errors
    assert issue.path == "$input.price"
    assert issue.expected == 'string & Format<"decimal"> & Minimum<1> & MultipleOf<0.01>'


def test_bounds_hold_inside_containers_with_the_items_path(app):  # type: ignore[no-untyped-def]
    result = app.execute(Bank(), "pay", '{"price": "2.50", "tips": ["1", "-1"]}')
    assert not result.success
    assert [issue.path for issue in result.validation.errors] == ["$input.tips[1]"]
    assert app.execute(Bank(), "pay", '{"price": "2.50", "tips": ["1", 2]}').success


class Till:
    def round(self, step: Annotated[Decimal, MultipleOf(Decimal("0.01"))]) -> str:
        """Round."""
        return f"{step}"


@pytest.mark.parametrize("written", ["1e-999999999", "-3e-425000000"])
def test_a_decimal_too_small_for_the_default_context_is_no_multiple(written: str) -> None:
    # The default decimal context rounds 1e-999999999 % 0.01 to 0, a multiple.
    result = application(Till).execute(Till(), "round", {"step": written})
    assert not result.success and result.validation is not None
    # Conversion checks the bounds too (for data that skipped the validator).
    builder = TypeBuilder()
    node = builder.build(Annotated[Decimal, MultipleOf(Decimal("0.01"))], location="test")
    assert node is not None
    with pytest.raises(ConversionError):
        compile_converter(node, builder.graph())(written)
    assert application(Till).execute(Till(), "round", {"step": "0.05"}).value == "0.05"
