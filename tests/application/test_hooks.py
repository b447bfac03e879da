"""Validation hooks: replacement semantics, the decorator form, types-then-rules, and raising hooks."""

from __future__ import annotations

import logging

import pytest

from llmapp import (
    FeedbackError,
    LlmApplicationError,
    ValidationFailure,
    ValidationIssue,
    ValidationSuccess,
    after_types,
    application,
    llm_application,
    validates,
)
from llmapp._errors import MAX_FEEDBACK


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


def test_raising_hook_becomes_a_failed_validation_without_its_text(caplog):
    def broken(arguments):
        raise RuntimeError("postgres://admin:DB-PASSWORD@db/accounts is down")

    app = application(Bank, validate={"transfer": broken})
    validation = app.function("transfer").validate({"amount": 1, "to": "x"})
    assert not validation.success
    assert validation.errors[0].description == (
        "the arguments could not be checked (the validation hook failed: RuntimeError)"
    )
    with caplog.at_level(logging.WARNING, logger="llmapp.app"):
        result = app.execute(Bank(), "transfer", {"amount": 1, "to": "x"})
    assert not result.success and result.error is None
    assert "DB-PASSWORD" not in result.message()
    # The developer reads the whole exception in the log, with the function named.
    assert "call transfer: the validation hook raised" in caplog.text
    assert "DB-PASSWORD" in caplog.text


def test_a_feedback_error_is_the_hook_speaking_to_the_model():
    def known(arguments):
        if arguments["to"] != "alice":
            raise FeedbackError(
                "no account of that name; list_accounts() names them",
                path="$input.to",
                expected="an existing account",
            )

    app = application(Bank, validate={"transfer": after_types(known)})
    result = app.execute(Bank(), "transfer", {"amount": 1, "to": "bob"})
    (issue,) = result.validation.errors
    assert (issue.path, issue.expected) == ("$input.to", "an existing account")
    assert issue.description == "no account of that name; list_accounts() names them"
    assert '"to": "bob" // ❌' in result.message()
    assert "list_accounts() names them" in result.message()
    assert app.execute(Bank(), "transfer", {"amount": 1, "to": "alice"}).success


def test_a_feedback_error_s_message_is_bounded_and_its_defaults_place_it_at_the_root():
    def chatty(arguments):
        raise FeedbackError("x" * 50_000)

    validation = application(Bank, validate={"transfer": chatty}).function("transfer").validate({})
    (issue,) = validation.errors
    assert (issue.path, issue.expected) == ("$input", "valid arguments")
    assert len(issue.description) == MAX_FEEDBACK + 1 and issue.description.endswith("…")


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text")


def test_a_hook_raising_an_exception_that_cannot_be_printed_is_a_failed_validation():
    def broken(arguments):
        raise _Unprintable()

    app = application(Bank, validate={"transfer": broken})
    validation = app.function("transfer").validate({"amount": 1, "to": "x"})
    assert not validation.success
    assert validation.errors[0].description == (
        "the arguments could not be checked (the validation hook failed: _Unprintable)"
    )
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
