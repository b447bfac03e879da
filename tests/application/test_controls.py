"""Per-tool controls declared on the class: enabled per call, approval, timeout."""

from __future__ import annotations

import asyncio
import threading

import pytest

from llmapp import CallContext, LlmApplicationError, application, controls


class User:
    def __init__(self, name: str, admin: bool = False) -> None:
        self.name = name
        self.admin = admin


def _is_admin(context: CallContext) -> bool:
    user = context.get(User)
    return user is not None and user.admin


class Bank:
    """A bank."""

    def __init__(self) -> None:
        self.moved: list[float] = []
        self.release = threading.Event()

    @controls(enabled=_is_admin)
    def audit(self) -> str:
        """Audit every account."""
        return "audited"

    def balance(self) -> float:
        """The balance."""
        return 10.0

    def transfer(self, amount: float) -> str:
        """Move money.

        @tag destructive
        """
        self.moved.append(amount)
        return f"moved {amount}"

    @controls(approval=lambda arguments, context: arguments["amount"] > 100)
    def pay(self, amount: float) -> float:
        """Pay someone."""
        self.moved.append(amount)
        return amount

    def close(self) -> None:
        """Close the account.

        @approval
        """
        self.moved.append(-1)

    def hang(self) -> str:
        """Wait for a release that never comes.

        @timeout 0.2
        """
        self.release.wait(30)
        return "released"

    async def ahang(self) -> str:
        """The same, async.

        @timeout 0.2
        """
        await asyncio.sleep(30)
        return "released"


def test_a_hidden_function_is_neither_listed_nor_callable_for_that_context() -> None:
    app = application(Bank)
    bank = Bank()
    assert "audit" not in [f.name for f in app.visible(User("ann"))]
    assert "audit" in [f.name for f in app.visible(User("root", admin=True))]
    refused = app.execute(bank, "audit", "{}", context=User("ann"))
    assert not refused.success
    assert refused.feedback is not None and "no function named 'audit'" in refused.feedback
    assert "'audit'" not in refused.feedback.split("The functions are:")[1]
    assert app.execute(bank, "audit", "{}", context=User("root", admin=True)).value == "audited"
    hidden = asyncio.run(app.aexecute(bank, "audit", "{}"))
    assert hidden.validation is not None and hidden.validation.errors[0].path == "$name"


def test_a_wrong_name_is_answered_with_the_functions_of_that_context_only() -> None:
    app = application(Bank)
    for told in (
        app.execute(Bank(), "audits", "{}", context=User("ann")),
        asyncio.run(app.aexecute(Bank(), "audits", "{}", context=User("ann"))),
    ):
        assert told.feedback is not None and "no function named 'audits'" in told.feedback
        assert "audit'" not in told.feedback and "'balance'" in told.feedback


def test_an_enabled_predicate_that_raises_hides_the_function() -> None:
    class Careless:
        @controls(enabled=lambda context: context.get(User).admin)  # no user: raises
        def audit(self) -> str:
            """Audit."""
            return "audited"

    app = application(Careless)
    assert app.visible() == []
    assert app.execute(Careless(), "audit", "{}").success is False
    assert app.execute(Careless(), "audit", "{}", context=User("r", True)).success


def test_a_destructive_function_waits_for_approval_and_runs_once_approved() -> None:
    app = application(Bank)
    bank = Bank()
    waiting = app.execute(bank, "transfer", '{"amount": 5}')
    assert not waiting.success and bank.moved == []
    assert waiting.approval is not None
    assert waiting.approval.name == "transfer"
    assert waiting.approval.arguments == {"amount": 5}
    assert "approval" in waiting.message()
    done = app.execute(bank, "transfer", '{"amount": 5}', approved=True)
    assert done.success and bank.moved == [5]


def test_wrong_arguments_are_answered_before_any_approval_is_asked() -> None:
    result = application(Bank).execute(Bank(), "transfer", '{"amount": "lots"}')
    assert result.approval is None and result.validation is not None


def test_an_approval_predicate_reads_the_models_arguments() -> None:
    app = application(Bank)
    bank = Bank()
    assert app.execute(bank, "pay", '{"amount": 5}').value == 5
    big = app.execute(bank, "pay", '{"amount": 500}')
    assert big.approval is not None and bank.moved == [5]
    assert asyncio.run(app.aexecute(bank, "pay", '{"amount": 500}')).approval is not None
    assert asyncio.run(app.aexecute(bank, "pay", '{"amount": 500}', approved=True)).value == 500


def test_the_approval_tag_needs_approval_too() -> None:
    app = application(Bank)
    assert app.execute(Bank(), "close", "{}").approval is not None
    function = app.function("close")
    assert function is not None and function.description == "Close the account."


@pytest.mark.parametrize("name", ["hang", "ahang"])
def test_a_function_past_its_own_timeout_is_answered_with_a_bounded_error(name: str) -> None:
    app = application(Bank)
    bank = Bank()
    try:
        for result in (
            app.execute(bank, name, "{}"),
            asyncio.run(app.aexecute(bank, name, "{}")),
        ):
            assert not result.success
            assert isinstance(result.error, TimeoutError)
            assert (
                result.message()
                == f"The function raised TimeoutError: {name} did not finish within 0.2 s"
            )
    finally:
        bank.release.set()


def test_a_timeout_inside_a_running_loop_still_answers() -> None:
    app = application(Bank)
    bank = Bank()

    async def inside() -> object:
        return app.execute(bank, "hang", "{}")

    try:
        result = asyncio.run(inside())
    finally:
        bank.release.set()
    assert isinstance(getattr(result, "error", None), TimeoutError)


def test_a_timeout_tag_that_is_not_a_number_is_a_build_problem() -> None:
    class Broken:
        def run(self) -> None:
            """Run.

            @timeout soon
            """

    with pytest.raises(LlmApplicationError, match=r"Broken\.run: @timeout 'soon'"):
        application(Broken)


def test_the_decorator_refuses_a_timeout_that_is_not_positive() -> None:
    with pytest.raises(ValueError, match="positive"):
        controls(timeout=0)


def test_controls_apply_to_static_and_class_methods() -> None:
    class Tools:
        @staticmethod
        @controls(approval=True)
        def erase() -> str:
            """Erase."""
            return "erased"

        @controls(enabled=lambda context: False)
        @classmethod
        def secret(cls) -> str:
            """Never shown."""
            return "secret"

    app = application(Tools)
    assert app.execute(Tools, "erase", "{}").approval is not None
    assert app.execute(Tools, "erase", "{}", approved=True).value == "erased"
    assert [function.name for function in app.visible()] == ["erase"]


class SafeBank(Bank):
    """Overrides every controlled method, each without a declaration of its own."""

    def audit(self) -> str:
        """Audit every account, in the new format."""
        return "audited again"

    def transfer(self, amount: float) -> str:
        """Move money, with a receipt."""
        self.moved.append(amount)
        return f"moved {amount}, receipt sent"

    def pay(self, amount: float) -> float:
        """Pay someone, faster."""
        self.moved.append(amount)
        return amount

    def close(self) -> None:
        self.moved.append(-2)

    def hang(self) -> str:
        """Wait, differently."""
        self.release.wait(30)
        return "released"


class TrustingBank(Bank):
    """Overrides that declare their own controls: those replace the inherited ones."""

    @controls(approval=False, timeout=5)
    def transfer(self, amount: float) -> str:
        """Move money, approved elsewhere."""
        self.moved.append(amount)
        return f"moved {amount}"

    def hang(self) -> str:
        """Wait, with a longer limit.

        @timeout 3
        """
        return "released"


def test_an_override_keeps_the_controls_its_parent_declared() -> None:
    app = application(SafeBank)
    bank = SafeBank()
    assert [f.name for f in app.visible(User("ann"))].count("audit") == 0
    assert app.execute(bank, "audit", "{}", context=User("r", True)).value == "audited again"
    assert app.execute(bank, "transfer", '{"amount": 5}').approval is not None  # @tag destructive
    assert app.execute(bank, "close", "{}").approval is not None  # inherited docstring's @approval
    assert app.execute(bank, "pay", '{"amount": 5}').value == 5
    assert app.execute(bank, "pay", '{"amount": 500}').approval is not None  # the predicate
    assert bank.moved == [5]
    hang = app.function("hang")
    assert hang is not None and hang.controls is not None and hang.controls.timeout == 0.2
    slow = app.execute(bank, "hang", "{}")
    bank.release.set()
    assert slow.success is False and isinstance(slow.error, TimeoutError)


def test_an_override_that_declares_its_own_controls_replaces_the_inherited_ones() -> None:
    app = application(TrustingBank)
    bank = TrustingBank()
    assert app.execute(bank, "transfer", '{"amount": 5}').value == "moved 5"
    transfer, hang = app.function("transfer"), app.function("hang")
    assert transfer is not None and transfer.controls is not None
    assert transfer.controls.approval is False and transfer.controls.timeout == 5
    assert hang is not None and hang.controls is not None and hang.controls.timeout == 3
    assert app.execute(bank, "close", "{}").approval is not None  # not overridden: unchanged
