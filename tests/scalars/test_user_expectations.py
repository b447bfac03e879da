"""What users expect of datetimes, times and Decimals.

A naive ``datetime`` accepts a naive timestamp, a result validates against its own
output schema, the feedback names the forms a value may take, a naive default is shown,
and a ``Decimal`` accepts a JSON number. Only the public API is used.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta, timezone
from decimal import Decimal
from typing import Any

import pytest

import llmapp

# -- a naive datetime ------------------------------------------------------------------


class Calendar:
    def book(self, when: datetime, start: datetime = datetime(2024, 1, 1)) -> datetime:
        """Book a slot.

        Args:
            when: When the slot starts.
            start: The first day that may be booked.
        """
        return when

    def alarm(self, at: time = time(7, 30)) -> time:
        """Set an alarm."""
        return at


def test_a_naive_timestamp_is_accepted_for_a_datetime() -> None:
    result = llmapp.application(Calendar).execute(
        Calendar(), "book", {"when": "2024-05-01T10:00:00"}
    )
    assert result.success, result.feedback
    assert result.value == datetime(2024, 5, 1, 10, 0)
    assert result.value.tzinfo is None


def test_an_aware_timestamp_is_still_accepted_and_keeps_its_offset() -> None:
    result = llmapp.application(Calendar).execute(
        Calendar(), "book", {"when": "2024-05-01T10:00:00+02:00"}
    )
    assert result.value == datetime(2024, 5, 1, 10, 0, tzinfo=timezone(timedelta(hours=2)))


def test_a_naive_result_validates_against_its_own_output_schema() -> None:
    app = llmapp.application(Calendar)
    result = app.execute(Calendar(), "book", {"when": "2024-05-01T10:00:00"})
    assert result.data == "2024-05-01T10:00:00"
    assert llmapp.validator(app.function("book").output)(result.data).success


def test_the_feedback_names_both_forms_a_datetime_may_take() -> None:
    result = llmapp.application(Calendar).execute(Calendar(), "book", {"when": "May 1st, 10am"})
    assert not result.success
    (issue,) = result.validation.errors  # type: ignore[union-attr]
    assert issue.path == "$input.when"
    assert issue.expected == ('(string & Format<"date-time"> | string & Format<"date-time-local">)')
    assert 'Format<\\"date-time-local\\">' in (result.feedback or "")


# -- a naive default is shown ----------------------------------------------------------


def test_naive_defaults_are_shown_and_pass_their_own_schema() -> None:
    app = llmapp.application(Calendar)
    book = app.function("book").parameters
    assert book["properties"]["start"]["default"] == "2024-01-01T00:00:00"
    alarm = app.function("alarm").parameters
    assert alarm["properties"]["at"]["default"] == "07:30:00"
    for schema in (book["properties"]["start"], alarm["properties"]["at"]):
        assert llmapp.validator(schema)(schema["default"]).success


# -- Decimal from a JSON number --------------------------------------------------------


class Till:
    def pay(self, amount: Decimal) -> Decimal:
        """Take a payment."""
        return amount


@pytest.mark.parametrize(
    ("sent", "expected"),
    [
        (1.5, Decimal("1.5")),
        (0.1, Decimal("0.1")),  # the float's shortest text, not its binary expansion
        (3, Decimal(3)),
        ("1.10", Decimal("1.10")),  # text keeps every digit and the trailing zero
        ("123456789012345678901234567890.5", Decimal("123456789012345678901234567890.5")),
    ],
)
def test_a_decimal_accepts_a_json_number_or_a_decimal_string(sent: Any, expected: Decimal) -> None:
    result = llmapp.application(Till).execute(Till(), "pay", {"amount": sent})
    assert result.success, result.feedback
    assert result.value == expected and str(result.value) == str(expected)


def test_a_decimal_refuses_what_is_no_number() -> None:
    result = llmapp.application(Till).execute(Till(), "pay", {"amount": "one euro"})
    assert not result.success
