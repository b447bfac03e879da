"""A value has one source: the model gives its side, a human (or the application) the other,
a context value its parameter; none replaces a value of another."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

import pytest

from llmapp import ExecutionError, application, merge_parameters
from llmapp.markers import Context, Human


class User:
    def __init__(self, name: str) -> None:
        self.name = name


@dataclass
class Payee:
    """Who is paid.

    Attributes:
        name: the payee's name, as the model writes it.
        iban: the account, from the application's own records.
    """

    name: str
    iban: Annotated[str, Human()]


class Bank:
    def pay(self, amount: int, user_id: Annotated[str, Human()], limit: int = 10) -> str:
        """Pay from the caller's account."""
        return f"{user_id} paid {amount} (limit {limit})"

    def send(self, amount: int, payee: Payee) -> str:
        """Send to a payee."""
        return f"sent {amount} to {payee.name} at {payee.iban}"

    def note(self, text: str, user: Annotated[User, Context()]) -> str:
        """Note as the calling user."""
        return f"{user.name}: {text}"

    def sign(
        self, text: str, key: Annotated[str, Human()], user: Annotated[User, Context()]
    ) -> str:
        """Sign as the calling user, with a key a human gives."""
        return f"{user.name} signed {text}"


APP = application(Bank)


@pytest.mark.parametrize(
    ("name", "model", "human", "wrong"),
    [
        # the human side gives a value the model gave: it replaced the model's
        ("pay", {"amount": 5}, {"user_id": "alice", "amount": 1}, "$input.amount"),
        # ... or one the model left to its default
        ("pay", {"amount": 5}, {"user_id": "alice", "limit": 10_000}, "$input.limit"),
        # ... inside an object split between the two sides
        (
            "send",
            {"amount": 5, "payee": {"name": "ann"}},
            {"payee": {"iban": "DE00", "name": "mallory"}},
            "$input.payee.name",
        ),
    ],
)
def test_a_human_value_on_the_model_s_side_is_refused(
    name: str, model: dict[str, Any], human: dict[str, Any], wrong: str
) -> None:
    with pytest.raises(ExecutionError) as refused:
        APP.execute(Bank(), name, model, human=human)
    assert str(refused.value) == (
        f"{name}: the human-supplied arguments are wrong: the model's to give {wrong}"
    )


def test_each_side_giving_its_own_runs() -> None:
    done = APP.execute(
        Bank(), "send", {"amount": 5, "payee": {"name": "ann"}}, human={"payee": {"iban": "DE00"}}
    )
    assert done.value == "sent 5 to ann at DE00"


def test_a_model_value_on_the_human_side_is_feedback_and_nothing_runs() -> None:
    result = APP.execute(Bank(), "pay", {"amount": 5, "user_id": "bob"}, human={"user_id": "alice"})
    assert not result.success and result.validation is not None
    assert [issue.path for issue in result.validation.errors] == ["$input.user_id"]


def test_merge_parameters_takes_each_side_from_its_own_source_only() -> None:
    pay = APP.require("pay")
    assert merge_parameters(pay, {"amount": 5}, {"user_id": "alice"}) == {
        "amount": 5,
        "user_id": "alice",
    }
    with pytest.raises(
        ExecutionError, match=r"the model's arguments hold human-side values: \$input.user_id"
    ):
        merge_parameters(pay, {"amount": 5, "user_id": "bob"}, {"user_id": "alice"})
    with pytest.raises(ExecutionError, match=r"the model's to give \$input.amount"):
        merge_parameters(pay, {"amount": 5}, {"user_id": "alice", "amount": 1})


def test_a_context_parameter_takes_its_value_from_the_context_only() -> None:
    ann, mallory = User("ann"), User("mallory")
    with pytest.raises(ExecutionError, match=r"takes no human-supplied arguments, got \['user'\]"):
        APP.execute(Bank(), "note", {"text": "hi"}, human={"user": mallory}, context=ann)
    with pytest.raises(ExecutionError, match=r"unknown \$input.user"):
        APP.execute(
            Bank(), "sign", {"text": "hi"}, human={"key": "k", "user": mallory}, context=ann
        )
    sneaky = APP.execute(Bank(), "note", {"text": "hi", "user": "mallory"}, context=ann)
    assert not sneaky.success and sneaky.validation is not None
    assert APP.execute(Bank(), "note", {"text": "hi"}, context=ann).value == "ann: hi"
    assert APP.execute(Bank(), "sign", {"text": "hi"}, human={"key": "k"}, context=ann).value == (
        "ann signed hi"
    )


def test_a_validation_hook_does_not_let_the_model_give_a_human_value() -> None:
    from llmapp import ValidationSuccess, llm_application

    @llm_application(validate={"pay": lambda arguments: ValidationSuccess(arguments)})
    class Hooked:
        def pay(self, amount: int, user_id: Annotated[str, Human()] = "nobody") -> str:
            """Pay as the calling user; a hook checks the model's side."""
            return f"{user_id} paid {amount}"

    app = application(Hooked)
    for human in (None, {"user_id": "alice"}):
        result = app.execute(Hooked(), "pay", {"amount": 5, "user_id": "bob"}, human=human)
        assert not result.success and result.validation is not None
        assert [(i.path, i.expected) for i in result.validation.errors] == [
            ("$input.user_id", "undefined")
        ]
    assert app.execute(Hooked(), "pay", {"amount": 5}, human={"user_id": "alice"}).value == (
        "alice paid 5"
    )


def test_the_http_door_takes_each_side_from_its_own_source_only() -> None:
    import json

    httpx = pytest.importorskip("httpx")
    from llmapp.http import Connection
    from llmapp.http import application as http_application

    body = {
        "type": "object",
        "required": ["amount", "pin"],
        "properties": {
            "amount": {"type": "number"},
            "pin": {"type": "string", "x-llmapp-human": True},
        },
    }
    operation = {
        "operationId": "transfer",
        "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
        "responses": {"200": {"description": "ok"}},
    }
    document = {
        "openapi": "3.1.0",
        "info": {"title": "bank", "version": "1"},
        "paths": {"/transfer": {"post": operation}},
    }
    sent: list[Any] = []

    def server(request: Any) -> Any:
        sent.append(json.loads(request.content))
        return httpx.Response(200, json={"ok": True})

    app = http_application(document)
    connection = Connection("http://api.test", transport=httpx.MockTransport(server))
    (function,) = app.functions
    with pytest.raises(ExecutionError, match=r"the model's to give \$input.body.amount"):
        app.execute(
            connection,
            function.name,
            {"body": {"amount": 5}},
            human={"body": {"pin": "1", "amount": 1}},
        )
    assert sent == []
    assert app.execute(
        connection, function.name, {"body": {"amount": 5}}, human={"body": {"pin": "1"}}
    ).success
    assert sent == [{"amount": 5, "pin": "1"}]
