"""Per-call context: parameters the caller supplies by type, in no schema."""

from __future__ import annotations

import asyncio
from typing import Annotated

import pytest

from llmapp import ExecutionError, application
from llmapp.markers import Context, Human


class User:
    def __init__(self, name: str) -> None:
        self.name = name


class Session:
    def __init__(self) -> None:
        self.saved: list[str] = []


class Notes:
    def save(
        self,
        text: str,
        user: Annotated[User, Context()],
        session: Annotated[Session, Context()],
    ) -> str:
        """Save a note."""
        session.saved.append(f"{user.name}: {text}")
        return "saved"

    def sign(
        self, text: str, key: Annotated[str, Human()], user: Annotated[User, Context()]
    ) -> str:
        """Sign a note with a key only a human gives."""
        return f"{user.name} signed {text} with {len(key)} characters"

    async def greet(self, user: Annotated[User | None, Context()] = None) -> str:
        """Greet whoever asks."""
        return f"hello {user.name if user else 'stranger'}"


def test_a_context_parameter_is_in_no_schema() -> None:
    app = application(Notes)
    save = app.function("save")
    assert save is not None
    assert save.parameters["properties"].keys() == {"text"}
    assert save.parameters["required"] == ["text"]
    sign = app.function("sign")
    assert sign is not None and sign.separated is not None
    assert sign.llm_parameters["properties"].keys() == {"text"}
    assert sign.separated.human is not None
    assert sign.separated.human["properties"].keys() == {"key"}


def test_context_values_reach_the_method_by_type() -> None:
    app = application(Notes)
    session = Session()
    result = app.execute(Notes(), "save", '{"text": "hi"}', context=(session, User("ann")))
    assert result.value == "saved" and session.saved == ["ann: hi"]


def test_context_composes_with_the_human_side() -> None:
    app = application(Notes)
    result = app.execute(
        Notes(), "sign", '{"text": "t"}', human={"key": "secret"}, context=User("bo")
    )
    assert result.value == "bo signed t with 6 characters"


def test_a_missing_required_context_value_is_the_callers_mistake() -> None:
    with pytest.raises(ExecutionError, match="no context value of type User for user"):
        application(Notes).execute(Notes(), "save", '{"text": "hi"}', context=Session())


def test_a_context_parameter_with_a_default_may_be_left_out() -> None:
    app = application(Notes)
    assert asyncio.run(app.aexecute(Notes(), "greet", "{}")).value == "hello stranger"
    assert asyncio.run(app.aexecute(Notes(), "greet", "{}", context=User("cy"))).value == "hello cy"


def test_the_model_cannot_send_a_context_parameter() -> None:
    result = application(Notes).execute(
        Notes(), "save", '{"text": "hi", "user": "root"}', context=(Session(), User("ann"))
    )
    assert result.validation is not None
    assert [issue.path for issue in result.validation.errors] == ["$input.user"]


def test_a_positional_only_context_parameter_is_a_build_problem() -> None:
    class Broken:
        def run(self, user: Annotated[User, Context()], /) -> None:
            """Run."""

    from llmapp import LlmApplicationError

    with pytest.raises(LlmApplicationError, match=r"Broken\.run\.user: a context parameter"):
        application(Broken)


class Badge:
    def __init__(self, user: str, token: str) -> None:
        self.user, self.token = user, token


class Gate:
    def open(self, door: str, session: Annotated[Badge, Context()]) -> str:
        """Open a door for the session's user."""
        raise PermissionError(f"token {session.token} of {session.user} may not open {door}")


def test_a_context_value_in_the_method_s_error_is_masked_for_the_model(caplog) -> None:  # type: ignore[no-untyped-def]
    # A context value is the application's, as a human-side value is: never the model's.
    caplog.set_level("WARNING", logger="llmapp")
    for result in (
        application(Gate).execute(
            Gate(), "open", '{"door": "east"}', context=Badge("ann", "ctx-TOKEN-9988")
        ),
        asyncio.run(
            application(Gate).aexecute(
                Gate(), "open", {"door": "east"}, context=Badge("ann", "ctx-TOKEN-9988")
            )
        ),
    ):
        assert isinstance(result.error, PermissionError)
        assert (
            result.message()
            == "The function raised PermissionError: token *** of *** may not open east"
        )
    assert "ctx-TOKEN-9988" not in caplog.text
