"""Validation hooks: replacement semantics, the decorator form, types-then-rules, and raising hooks."""

from __future__ import annotations

import pytest

from llmapp import (
    LlmApplicationError,
    ValidationFailure,
    ValidationIssue,
    ValidationSuccess,
    after_types,
    application,
    llm_application,
    validates,
)


class Bank:
    """Moves money."""

    def transfer(self, amount: float, to: str) -> str:
        """Send money.

        Args:
            amount: How much.
            to: The recipient's account.
        """
        return f"{amount} to {to}"

    def balance(self) -> float:
        """The current balance."""
        return 100.0


def only_small(arguments):
    if isinstance(arguments, dict) and arguments.get("amount", 0) > 1000:
        return ValidationFailure(
            arguments,
            [ValidationIssue("$input.amount", "number & Maximum<1000>", arguments["amount"])],
        )
    return ValidationSuccess(arguments)


def test_hook_replaces_generated_validation():
    app = application(Bank, validate={"transfer": only_small})
    function = app.function("transfer")
    # The generated validation would reject a missing "to"; the hook alone decides.
    assert function.validate({"amount": 5}).success
    failure = function.validate({"amount": 5000, "to": "x"})
    assert [(i.path, i.expected) for i in failure.errors] == [
        ("$input.amount", "number & Maximum<1000>")
    ]
    assert not function.validate_types({"amount": 5}).success
    result = app.execute(Bank(), "transfer", {"amount": 5000, "to": "DE01"})
    assert not result.success and "Maximum<1000>" in result.feedback
    assert app.execute(Bank(), "transfer", {"amount": 50, "to": "DE01"}).value == "50 to DE01"


def test_after_types_runs_generated_validation_first():
    def positive(arguments):
        return (
            []
            if arguments["amount"] > 0
            else [
                ValidationIssue(
                    "$input.amount", "number & ExclusiveMinimum<0>", arguments["amount"]
                )
            ]
        )

    app = application(Bank, validate={"transfer": after_types(positive)})
    function = app.function("transfer")
    typed = function.validate({"amount": "lots"})
    assert {i.path for i in typed.errors} == {"$input.amount", "$input.to"}
    rule = function.validate({"amount": -1, "to": "x"})
    assert [i.expected for i in rule.errors] == ["number & ExclusiveMinimum<0>"]
    assert function.validate({"amount": 1, "to": "x"}).success


def test_raising_hook_becomes_a_failed_validation():
    def broken(arguments):
        raise RuntimeError("database is down")

    app = application(Bank, validate={"transfer": broken})
    validation = app.function("transfer").validate({"amount": 1, "to": "x"})
    assert not validation.success
    assert "RuntimeError: database is down" in validation.errors[0].description
    result = app.execute(Bank(), "transfer", {"amount": 1, "to": "x"})
    assert not result.success and result.error is None


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text")


def test_a_hook_raising_an_exception_that_cannot_be_printed_is_a_failed_validation():
    def broken(arguments):
        raise _Unprintable()

    app = application(Bank, validate={"transfer": broken})
    validation = app.function("transfer").validate({"amount": 1, "to": "x"})
    assert not validation.success
    assert validation.errors[0].description == "validation hook raised _Unprintable"
    result = app.execute(Bank(), "transfer", {"amount": 1, "to": "x"})
    assert not result.success and "_Unprintable" in result.message()


def test_hook_returning_garbage_is_a_failed_validation():
    app = application(Bank, validate={"transfer": lambda arguments: True})
    validation = app.function("transfer").validate({"amount": 1, "to": "x"})
    assert not validation.success and "not a Validation" in validation.errors[0].description


def test_hook_for_unknown_method_is_a_build_error():
    with pytest.raises(LlmApplicationError) as caught:
        application(Bank, validate={"withdraw": only_small, "transfre": only_small})
    message = str(caught.value)
    assert "Bank.withdraw: a validation hook names a method that is not a function" in message
    assert "Bank.transfre" in message


@llm_application
class Booking:
    """Books rooms."""

    def book(self, day: str, nights: int) -> str:
        """Book a room.

        Args:
            day: Weekday of arrival.
            nights: How many nights.
        """
        return f"{nights} from {day}"

    @validates("book", after_types=True)
    def weekdays_only(arguments: dict[str, object]) -> list[ValidationIssue]:
        day = arguments["day"]
        if day in ("sat", "sun"):
            return [ValidationIssue("$input.day", '("mon" | "tue" | "wed" | "thu" | "fri")', day)]
        return []


def test_decorator_form_declares_a_hook_that_is_not_a_function():
    app = application(Booking)
    assert [function.name for function in app.functions] == ["book"]
    function = app.function("book")
    assert [i.path for i in function.validate({"day": "sat", "nights": 1}).errors] == ["$input.day"]
    assert [i.path for i in function.validate({"day": "mon", "nights": "x"}).errors] == [
        "$input.nights"
    ]
    assert app.execute(Booking(), "book", {"day": "mon", "nights": 2}).value == "2 from mon"


def test_configured_hook_overrides_declared_one():
    app = application(Booking, validate={"book": lambda arguments: ValidationSuccess(arguments)})
    assert app.function("book").validate({"day": "sat"}).success
