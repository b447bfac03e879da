"""What a model or a hostile input must not be able to do through ``execute``.

Each test is a reproducer that failed before the fix. Cost tests compare a bad case with
one an order of magnitude smaller (never a wall-clock threshold).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import pytest

import llmapp
from llmapp import ExecutionError, application
from llmapp._results import ValidationFailure, ValidationIssue
from llmapp.markers import Human

# --- human-side values never go back to the model ------------------------------------------


@dataclass
class Login:
    user: str
    password: Annotated[str, Human()]

    def __post_init__(self) -> None:
        if len(self.user) < 3:
            raise ValueError(f"user too short for {self.user}:{self.password}")


class Auth:
    def login(self, creds: Login) -> str:
        """Log in."""
        return creds.user

    def fail(self, creds: Login) -> str:
        """Always fails, naming the secret."""
        raise PermissionError(f"wrong password {creds.password!r}")


def test_a_refused_value_is_reported_from_the_model_s_arguments_only():
    result = application(Auth).execute(
        Auth(), "login", {"creds": {"user": "ab"}}, human={"creds": {"password": "hunter2"}}
    )
    assert not result.success
    assert "hunter2" not in result.message()
    assert "hunter2" not in repr(result.validation)
    assert "user too short" in result.message()
    assert result.validation is not None
    assert result.validation.data == {"creds": {"user": "ab"}}


def test_a_method_error_does_not_echo_a_human_value():
    result = application(Auth).execute(
        Auth(), "fail", {"creds": {"user": "abc"}}, human={"creds": {"password": "hunter2"}}
    )
    assert isinstance(result.error, PermissionError)
    assert "hunter2" not in result.message()
    assert "wrong password" in result.message()


@dataclass
class Upload:
    name: str
    data: Annotated[bytes, Human()]


class Drive:
    def store(self, files: list[Upload]) -> int:
        """Store files."""
        return len(files)


def test_a_human_list_shorter_than_the_model_s_is_the_caller_s_error():
    app = application(Drive)
    model = {"files": [{"name": "a"}, {"name": "b"}]}
    with pytest.raises(ExecutionError, match=r"missing \$input\.files\[1\]\.data") as raised:
        app.execute(Drive(), "store", model, human={"files": [{"data": b"secret-bytes"}]})
    assert "secret-bytes" not in str(raised.value)
    both = {"files": [{"data": b"x"}, {"data": b"y"}]}
    assert app.execute(Drive(), "store", model, human=both).value == 2


# --- truncated or unreadable text never runs a method --------------------------------------


class Desk:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def send_reply(self, ticket_id: int, body: str) -> str:
        """Send a reply to a ticket."""
        self.sent.append(body)
        return "sent"


def test_cut_off_text_is_not_called_and_the_model_is_told_where():
    desk = Desk()
    text = '{"ticket_id": 1, "body": "Dear customer, we will refund you the full amou'
    result = application(Desk).execute(desk, "send_reply", text)
    assert not result.success and desk.sent == []
    assert "cut off" in result.message()
    assert "$input.body" in result.message()
    assert "closed an unterminated string" in result.repairs


def test_text_with_no_complete_json_is_unreadable_not_a_missing_key():
    desk = Desk()
    result = application(Desk).execute(desk, "send_reply", "not json at all {")
    assert not result.success and desk.sent == []
    message = result.message()
    assert "$input, after 17 characters" in message
    assert "skipped text before the JSON" in message
    assert "undefined" not in message  # not "you left out ticket_id"


def test_repairs_of_whole_text_are_exposed_and_the_call_runs():
    desk = Desk()
    result = application(Desk).execute(desk, "send_reply", "{'ticket_id': 1, 'body': 'hi',}")
    assert result.success and desk.sent == ["hi"]
    assert result.repairs == ("read 3 single-quoted strings", "removed a trailing comma")


def test_bytes_and_bytearray_arguments_are_read_alike():
    app = application(Desk)
    text = b'{"ticket_id": 1, "body": "hi"}'
    assert app.execute(Desk(), "send_reply", text).success
    assert app.execute(Desk(), "send_reply", bytearray(text)).success


# --- bounded cost on any input -------------------------------------------------------------


def _cpu(work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return max(best, 1e-4)


def _failure(count: int) -> ValidationFailure:
    data = {"items": ["x"] * count}
    issues = [ValidationIssue(f"$input.items[{i}]", "integer", "x") for i in range(count)]
    return ValidationFailure(data, issues)


def test_feedback_is_linear_and_bounded_in_the_number_of_issues():
    small, large = _failure(4_000), _failure(40_000)
    small_text, large_text = llmapp.feedback(small), llmapp.feedback(large)
    assert len(large_text) < 10_000
    assert len(large_text) < 1.1 * len(small_text)
    assert "39,950 more are not" in large_text
    # Ten times the issues: linear work is ~10x, the old quadratic one was ~55x.
    assert _cpu(lambda: llmapp.feedback(large)) < 25 * _cpu(lambda: llmapp.feedback(small))


def test_feedback_shortens_long_objects_and_deep_containers():
    wide = {f"key{i}": i for i in range(10_000)}
    text = llmapp.feedback(
        ValidationFailure(wide, [ValidationIssue("$input.key5000", "string", 5000)])
    )
    assert '"key5000": 5000, // ❌' in text
    assert "properties without errors" in text
    assert len(text) < 2_000
    nested: Any = "leaf"
    for _ in range(12):
        nested = [nested] * 12
    text = llmapp.feedback(
        ValidationFailure({"a": nested, "b": 1}, [ValidationIssue("$input.b", "string", 1)])
    )
    assert len(text.splitlines()) < 1_000


def test_an_unknown_function_name_is_cut():
    result = application(Desk).execute(Desk(), "x" * 1_000_000, {})
    assert not result.success
    assert len(result.message()) < 1_000
    assert len(result.name) < 1_000


class _Loud(Exception):
    def __str__(self) -> str:
        return "y" * 1_000_000


class _Broken(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no text")


class Thrower:
    def __init__(self, error: Exception) -> None:
        self.error = error

    def go(self) -> None:
        """Raise."""
        raise self.error


@pytest.mark.parametrize("error", [_Loud(), _Broken()])
def test_message_is_bounded_and_never_raises(error: Exception):
    result = application(Thrower).execute(Thrower(error), "go", {})
    assert result.error is error
    message = result.message()
    assert message.startswith(f"The function raised {type(error).__name__}")
    assert len(message) < 2_000


def test_text_over_max_length_is_refused_with_feedback_and_the_bound_is_configurable():
    body = "z" * 200_000
    text = f'{{"ticket_id": 1, "body": "{body}"}}'
    desk = Desk()
    refused = application(Desk).execute(desk, "send_reply", text)
    assert not refused.success and desk.sent == []
    assert "more than the 100,000 accepted" in refused.message()
    assert len(refused.message()) < 2_000
    roomy = application(Desk, max_length=1_000_000)
    assert roomy.config.max_length == 1_000_000
    assert roomy.execute(desk, "send_reply", text).success


# --- contracts: one text to send back, results as declared ---------------------------------


def test_a_method_error_gives_feedback_to_send_back():
    result = application(Thrower).execute(Thrower(ValueError("out of stock")), "go", {})
    assert result.feedback == "The function raised ValueError: out of stock"
    assert result.message() == result.feedback


class Numbers:
    def evens(self, n: int) -> list[int]:
        """Even numbers below n."""
        return (i for i in range(n) if i % 2 == 0)  # type: ignore[return-value]

    async def odds(self, n: int) -> list[int]:
        """Odd numbers below n."""
        return iter([i for i in range(n) if i % 2])  # type: ignore[return-value]


def test_a_generator_returned_for_a_list_is_materialised():
    result = application(Numbers).execute(Numbers(), "evens", {"n": 5})
    assert result.success and result.value == [0, 2, 4] and result.data == [0, 2, 4]


def test_sync_and_async_execute_give_the_same_result():
    import asyncio

    app = application(Numbers)
    sync = app.execute(Numbers(), "odds", {"n": 5})
    asynchronous = asyncio.run(app.aexecute(Numbers(), "odds", {"n": 5}))
    assert sync.data == asynchronous.data == [1, 3]


class Raiser:
    def go(self) -> None:
        """Raise an ExecutionError of the method's own."""
        raise ExecutionError("the method's own")


def test_the_method_s_own_execution_error_is_captured_in_sync_and_async():
    import asyncio

    app = application(Raiser)
    for result in (
        app.execute(Raiser(), "go", {}),
        asyncio.run(app.aexecute(Raiser(), "go", {})),
    ):
        assert isinstance(result.error, ExecutionError)


def test_functions_are_immutable_once_built():
    function = application(Desk).functions[0]
    with pytest.raises(AttributeError):
        function.parameters = {}  # type: ignore[misc]


class Maybe:
    def squares(self, n: int) -> list[int] | None:
        """Squares below n, or nothing."""
        return (i * i for i in range(n)) if n else None  # type: ignore[return-value]


def test_a_generator_returned_for_an_optional_list_is_materialised():
    app = application(Maybe)
    assert app.execute(Maybe(), "squares", {"n": 3}).data == [0, 1, 4]
    assert app.execute(Maybe(), "squares", {"n": 0}).data is None


class Vault:
    def keep(self, note: Any, key: Annotated[str, Human()]) -> int:
        """Keep a note under the human's key."""
        return 1


@pytest.mark.parametrize("depth", [500, 2_000])
def test_arguments_nested_as_deep_as_the_reader_allows_merge_with_the_human_side(depth: int):
    # Text is read to 512 levels; a framework hands over data as deep as its own parser
    # allows. Joining the human values must not exhaust Python's stack on either.
    app = application(Vault)
    text = '{"note": ' + "[" * 500 + "]" * 500 + "}"
    nested: Any = []
    for _ in range(depth):
        nested = [nested]
    for arguments in (text, {"note": nested}):
        assert app.execute(Vault(), "keep", arguments, human={"key": "k-1"}).value == 1
