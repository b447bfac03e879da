"""The one approval question: every argument that will run, in the schema's order, the
decisive ones first and whole, the rest cut with a mark that says how much."""

from __future__ import annotations

import enum
import re
from typing import Annotated, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typing_extensions import TypedDict, Unpack

from llmapp import application, controls
from llmapp.kernel._question import BUDGET, approval_question
from llmapp.markers import Human


class Currency(enum.Enum):
    EUR = "EUR"
    USD = "USD"


class Bank:
    def transfer(self, note: str, to: str, amount: int, currency: Currency = Currency.EUR) -> str:
        """Move money.

        @approval
        """
        return f"sent {amount} to {to}"

    @controls(approval=True, decisive=("to", "amount"))
    def send(self, note: str, tags: list[str], to: str, amount: int) -> str:
        """Move money, the recipient and the amount declared decisive."""
        return f"sent {amount} to {to}"

    @controls(approval=True)
    def pay(self, items: list[str], amount: int, user_id: Annotated[str, Human()]) -> str:
        """Pay as the calling user."""
        return f"{user_id} paid {amount}"


APP = application(Bank)


def asked(name: str, arguments: dict[str, Any], **human: Any) -> Any:
    result = APP.execute(Bank(), name, arguments, human=human or None)
    assert result.approval is not None and not result.success
    return result.approval


def test_the_schema_s_order_not_the_model_s_and_defaults_shown() -> None:
    approval = asked("transfer", {"amount": 9, "to": "ann", "note": "rent"})
    assert approval.question == (
        "Approve the call of transfer?\n"
        'note: "rent"\n'
        'to: "ann"\n'
        "amount: 9\n"
        'currency: "EUR" (default)'
    )
    assert list(approval.arguments) == ["note", "to", "amount"]


def test_every_scalar_is_decisive_by_default_and_never_cut() -> None:
    note = "Monthly rent, as agreed with the landlord. " * 200
    approval = asked("transfer", {"note": note, "to": "IBAN-OF-ATTACKER", "amount": 990000})
    assert f'note: "{note}"' in approval.question  # whole, however long
    assert approval.question.endswith(
        'to: "IBAN-OF-ATTACKER"\namount: 990000\ncurrency: "EUR" (default)'
    )


def test_declared_decisive_arguments_come_first_and_the_rest_is_cut_with_a_mark() -> None:
    note = "x" * (BUDGET + 500)
    tags = ["t"] * 10
    approval = asked("send", {"tags": tags, "note": note, "amount": 5, "to": "ann"})
    lines = approval.question.split("\n")
    assert lines[:3] == ["Approve the call of send?", 'to: "ann"', "amount: 5"]
    shown = f'"{"x" * (BUDGET - 1)}'
    assert lines[3] == f"note: {shown}… [cut: 502 of {BUDGET + 502:,} characters not shown]"
    assert lines[4] == "tags: … [not shown: 50 characters]"


def test_human_side_parameters_are_named_never_shown() -> None:
    approval = asked("pay", {"items": ["a"], "amount": 3}, user_id="alice-secret")
    assert "alice-secret" not in approval.question
    assert approval.question == (
        "Approve the call of pay?\n"
        "amount: 3\n"
        'items: ["a"]\n'
        "Also supplied by the application (not shown): user_id."
    )


def test_characters_that_disguise_a_value_are_escaped() -> None:
    to = "ann\u202e\u2028\u200bevil\nline\x7f"
    approval = asked("transfer", {"note": "n", "to": to, "amount": 1})
    line = approval.question.split("\n")[2]
    assert line == 'to: "ann\\u202e\\u2028\\u200bevil\\nline\\u007f"'
    assert "été" in approval_question("f", {"a": "été"}, {"properties": {"a": {"type": "string"}}})


def test_scalars_through_references_unions_and_enums() -> None:
    schema = {
        "properties": {
            "blob": {"type": "object"},
            "mode": {"$ref": "#/$defs/Mode"},
            "maybe": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "pair": {"type": ["string", "null"]},
            "rows": {"type": "array"},
        },
        "$defs": {"Mode": {"enum": ["a", "b"]}},
    }
    arguments = {"rows": [1], "blob": {}, "pair": None, "maybe": 2, "mode": "a"}
    question = approval_question("f", arguments, schema)
    assert question.split("\n")[1:] == [
        'mode: "a"',
        "maybe: 2",
        "pair: null",
        "blob: {}",
        "rows: [1]",
    ]


def test_references_are_followed_as_every_stage_follows_them() -> None:
    # A name escaped in its pointer (``normalise`` writes ``/`` as ``~1``) and a
    # reference into another part of the schema lead to a scalar too (``Resolver.chase``).
    schema = {
        "properties": {
            "rows": {"type": "array"},
            "rate": {"$ref": "#/$defs/Rate~1Usd"},
            "code": {"$ref": "#/properties/rate"},
            "loop": {"$ref": "#/$defs/Loop"},
        },
        "$defs": {"Rate/Usd": {"type": "number"}, "Loop": {"$ref": "#/$defs/Loop"}},
    }
    arguments = {"rows": [1], "rate": 1.5, "code": 2, "loop": 3}
    question = approval_question("f", arguments, schema)
    assert question.split("\n")[1:] == ["rate: 1.5", "code: 2", "rows: [1]", "loop: 3"]


def test_a_decisive_name_must_be_a_parameter() -> None:
    with pytest.raises(ValueError, match="decisive names 'recipient': not parameters"):

        @controls(approval=True, decisive=("recipient",))
        def transfer(to: str) -> None: ...

    with pytest.raises(ValueError, match="decisive takes parameter names"):
        controls(decisive="to")


values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=300),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(
    st.dictionaries(st.sampled_from("abcdefgh"), values, max_size=8),
    st.lists(st.sampled_from("abcdefgh"), unique=True),
)
def test_every_argument_is_listed_and_every_cut_says_how_much(
    arguments: dict[str, Any], decisive: list[str]
) -> None:
    schema = {"properties": {key: {} for key in "hgfedcba"}}
    question = approval_question("f", arguments, schema, decisive=decisive)
    lines = question.split("\n")[1:]
    assert sorted(line.split(":", 1)[0] for line in lines) == sorted(arguments)
    for line in lines:
        key, shown = line.split(": ", 1)
        whole = approval_question("f", {key: arguments[key]}, schema, decisive=[key]).split("\n")[1]
        if key in decisive or shown == whole.split(": ", 1)[1]:
            assert line == whole
        else:
            mark = re.search(r"… \[(cut: [\d,]+ of|not shown:) ([\d,]+) characters", shown)
            assert mark is not None
    order = [line.split(":", 1)[0] for line in lines]
    firsts = [key for key in order if key in decisive]
    assert order[: len(firsts)] == [
        key for key in "hgfedcba" if key in decisive and key in arguments
    ]


class Order(TypedDict):
    note: str
    to: str


class Shop:
    @controls(approval=True, decisive=("to",))
    def order(self, **order: Unpack[Order]) -> str:
        """Order."""
        return order["to"]


def test_a_decisive_name_may_be_a_key_of_unpacked_kwargs() -> None:
    waiting = application(Shop).execute(Shop(), "order", {"note": "n" * 3_000, "to": "ann"})
    assert waiting.approval is not None
    assert waiting.approval.question.split("\n")[1] == 'to: "ann"'
    assert "[cut: 1,002 of 3,002 characters not shown]" in waiting.approval.question
