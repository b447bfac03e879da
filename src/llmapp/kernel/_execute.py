"""Safe execution of one call through the function's frozen plan.

Each call goes through the same steps, in order: read, repair and check the model's
text (``_kernel.check_arguments``, the step every door shares, against ``Plan.side``)
→ join the caller's human values (``join``: checked whole) → convert to the method's
Python types (``convert``) → call.
A step that fails ends the call with a ``CallResult`` whose feedback is built from the
model's own arguments only. A plain method's call on strict text takes these steps in
one function made for it (``fused_step``), with the same answers.

The LLM reaches only what the function table holds: the function is looked up
by name in that table (never ``getattr`` with the model's text), arguments are
passed only for declared parameters (validation rejects every other key), and
human-side values come from the caller alone and are never shown to the model.

``execute`` and ``aexecute`` behave the same: the method's own exceptions (any
``Exception``) are captured in ``CallResult.error`` unless ``raise_errors``; a
misuse of the application (missing human values, a wrong instance, an async
method run by ``execute`` inside a running event loop) raises ``ExecutionError``
before the method is called. Where an async caller's call runs (worker threads, a
timeout) is ``_runner``'s job.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from llmapp import convert, repair
from llmapp._cancelled import cancellation
from llmapp._errors import ExecutionError
from llmapp._limits import MAX_RESULT_ITEMS
from llmapp._records.frozen import quick_init
from llmapp._records.record import Record
from llmapp._sentinels import MISSING
from llmapp._text.unicode import has_surrogates
from llmapp.introspect.model import MethodSpec
from llmapp.kernel._arguments import strict_arguments
from llmapp.kernel._function import LlmFunction, OnFirstUse
from llmapp.kernel._kernel import (
    Called,
    Checked,
    ModelSide,
    _checked,
    check_arguments,
    failed,
    named_twice,
)
from llmapp.kernel._mask import NOTHING, Masker
from llmapp.kernel._merge import join
from llmapp.kernel._result import CallResult, error_text
from llmapp.kernel._runner import DEFAULT_RUNNER, PLAIN_RESULTS
from llmapp.validate import ValidationFailure, ValidationIssue

if TYPE_CHECKING:
    from llmapp.convert import ConversionError

__all__ = ["Call", "Fused", "Plan", "fused_check", "fused_step", "run_async", "run_sync"]

Schema = dict[str, Any]


class Plan(Record):
    """How one function's calls run: every step, decided once when the application is built.

    Attributes:
        function: the function the model sees.
        method: the Python method behind it.
        owner: the class it belongs to (``instance`` must be one of it).
        max_length: most characters of argument text read.
        side: what the model's data is repaired against (what the model writes: the LLM
            side when separated, with every constraint) and how it is checked (the
            generated validator of that schema, or the method's hook).
        convert: validated, merged JSON → ``(args, kwargs)``, compiled on first use.
        returns_array: the declared result is an array, so an iterator result is read
            into a list.
        plain: no per-call controls and no context parameter: ``execute`` has nothing to
            admit and runs the call straight through (``Plan.execute``).
        fused: where ``execute`` keeps the plan's fused step (``fused_step``), made on its
            first call; without one, every call takes the general steps.
    """

    function: LlmFunction
    method: MethodSpec
    owner: type
    max_length: int
    side: ModelSide
    convert: Callable[[Mapping[str, Any]], tuple[list[Any], dict[str, Any]]]
    returns_array: bool = False
    plain: bool = False
    fused: Fused | None = None

    def prepare(
        self, instance: Any, arguments: Any, human: Mapping[str, Any] | None
    ) -> Call | CallResult:
        """Every step before the call; a ``CallResult`` when the model got something wrong."""
        return self.complete(self.check(arguments), instance, human)

    def check(self, arguments: Any) -> Checked | CallResult:
        """The model's arguments read, repaired and checked (the kernel's step)."""
        fused = self.fused
        if fused is not None and type(arguments) is str:
            checked = (fused.check or fused.make_check(self))(arguments)
            if checked is not None:
                return checked
        return check_arguments(self.function, arguments, self.side, max_length=self.max_length)

    def complete(
        self, checked: Checked | CallResult, instance: Any, human: Mapping[str, Any] | None
    ) -> Call | CallResult:
        """The steps after ``check``: the human side joined, the Python types made."""
        if isinstance(checked, CallResult):
            return checked
        data, repairs = checked
        if human is None and type(data) is dict and self.function.separated is None:
            # No human side: what ``join`` would give is a copy of the data, which
            # nothing after this step changes, so the data itself is converted.
            merged, hidden = data, NOTHING
        else:
            merged, hidden = join(self.function, data, human), Masker.of(human)
        method = self.method
        if method.kind == "instance" and isinstance(instance, self.owner):
            target = getattr(instance, method.name)
        else:
            target = self._target(instance)
        try:
            args, kwargs = self.convert(merged)
        except convert.ConversionError as refused:
            return self._refused(refused, data, hidden, repairs)
        return Call(self, target, args, kwargs, repairs, hidden, data)

    def execute(
        self, instance: Any, arguments: Any, human: Mapping[str, Any] | None, raise_errors: bool
    ) -> CallResult:
        """``prepare`` then ``run_sync``: a call of a function with no controls."""
        fused = self.fused
        if fused is not None and human is None and type(arguments) is str:
            result = (fused.step or fused.make(self))(instance, arguments, raise_errors)
            if result is not None:
                return result
        prepared = self.complete(
            check_arguments(self.function, arguments, self.side, max_length=self.max_length),
            instance,
            human,
        )
        if isinstance(prepared, CallResult):
            return prepared
        return run_sync(prepared, raise_errors)

    def _target(self, instance: Any) -> Callable[..., Any]:
        method, owner = self.method, self.owner
        if method.kind == "instance" and not isinstance(instance, owner):
            raise ExecutionError(
                f"{method.name} is an instance method: pass an instance of "
                f"{owner.__qualname__}, not {type(instance).__qualname__}"
            )
        if method.kind != "instance" and not (
            isinstance(instance, owner)
            or (isinstance(instance, type) and issubclass(instance, owner))
        ):
            raise ExecutionError(
                f"{method.name}: expected {owner.__qualname__} or an instance of it"
            )
        target: Callable[..., Any] = getattr(instance, method.name)
        return target

    def _refused(
        self,
        refused: ConversionError,
        model_data: Any,
        hidden: Masker,
        repairs: tuple[str, ...],
    ) -> CallResult:
        """Python refused a value the schema allowed: feedback from the model's own data."""
        value = _at(model_data, refused.segments[::-1])
        if value is MISSING:  # the refused value is the human's alone: the caller's problem
            raise ExecutionError(
                f"{self.function.name}: a human-supplied value was refused at {refused.path}"
            )
        reason = error_text(refused.cause, hidden).removeprefix("The function raised ")
        issue = ValidationIssue(refused.path, refused.expected, value, reason)
        return failed(self.function, ValidationFailure(model_data, [issue]), repairs)


Step = Callable[[Any, str, bool], "CallResult | None"]
"""A fused step: ``(instance, text, raise_errors)`` to the call's result, or None where the
general steps must answer (nothing ran then)."""


def _general(instance: Any, text: str, raise_errors: bool) -> None:
    """The fused step of a plan that has none: every call takes the general steps."""
    return None


TextCheck = Callable[[str], "Checked | CallResult | None"]
"""A fused check: the model's text to what ``check_arguments`` answers, or None where it
must answer itself."""


def _general_check(text: str) -> None:
    """The fused check of a plan that has none: ``check_arguments`` reads every text."""
    return None


class Fused:
    """A plan's fused step (``fused_step``) and check (``fused_check``), each made on its
    first use: plans are frozen, so they are kept in this holder, one per plan."""

    __slots__ = ("check", "step")

    def __init__(self) -> None:
        self.step: Step | None = None
        self.check: TextCheck | None = None

    def make(self, plan: Plan) -> Step:
        step = self.step = fused_step(plan)
        return step

    def make_check(self, plan: Plan) -> TextCheck:
        check = self.check = fused_check(plan)
        return check


def fused_check(plan: Plan) -> TextCheck:
    """``check_arguments`` of the model's text for ``plan``, in one function: what the
    async door and ``prepare`` check with. Strict text (``strict_arguments``) is checked
    without a ``Reading`` built; any other text ``check_arguments`` reads and explains.
    A plan with a hook keeps ``check_arguments`` alone."""
    from llmapp.validate import Validator  # the compiler: loaded by the first call, not the build

    side = plan.side
    if side.hooked:
        return _general_check
    function, max_length, checker = plan.function, plan.max_length, side.checker
    valid = None
    if isinstance(checker, Validator) and side.coercion.exact_when_valid():
        valid = checker.valid

    def check(text: str) -> Checked | CallResult | None:
        data = strict_arguments(text, max_length)
        if data is MISSING:
            return None
        if valid is None:
            return _validated(function, side, data, None)
        if outcome := valid(data):
            return _checked((data, ()))
        return _validated(function, side, data, outcome)

    return check


def _validated(
    function: Called, side: ModelSide, data: Any, refused: object
) -> Checked | CallResult:
    """``check_arguments``' last steps for the data of strict text (nothing repaired in
    reading, no surrogate to look for); ``refused``: what the validator's ``valid``
    answered where it refused the data (None where it was not asked), so its walker
    answers from where the check stopped, the checker not run again."""
    checker = side.checker
    first = None if refused is None else checker.refusal(data, refused)  # type: ignore[attr-defined]
    validation = side.coercion.checked(data, checker, first)
    if isinstance(validation, ValidationFailure):
        return failed(function, named_twice(validation))
    return _checked((validation.data, ()))


def fused_step(plan: Plan) -> Step:
    """The steps of a call the model wrote right, in one function: read, check, convert,
    call, the result. Every answer is the general steps' own.

    Text that reads strictly (no repair to note, no ``\\u`` escape) into data the checker
    accepts goes straight through; other text the general steps read, so they say why. A
    refusal of strict text is answered from the data already read (repaired and checked as
    ``check_arguments`` does), not read again. A plan whose calls need more (a hook, a
    human side, a class or static method, an async method, a union that repair may change
    valid data in) keeps the general steps alone.
    """
    from llmapp.validate import Validator  # the compiler: loaded by the first call, not the build

    side, method = plan.side, plan.method
    checker = side.checker
    if (
        side.hooked
        or plan.function.separated is not None
        or method.kind != "instance"
        or method.is_async
        or not isinstance(checker, Validator)
        or not side.coercion.exact_when_valid()
    ):
        return _general
    function, owner, name, max_length = plan.function, plan.owner, method.name, plan.max_length
    name_, deprecated, to_json = function.name, function.deprecated, convert.to_json
    valid, read_strict = checker.valid, repair.read_strict
    converter: Callable[[Any], tuple[list[Any], dict[str, Any]]] | None = None

    def step(instance: Any, text: str, raise_errors: bool) -> CallResult | None:
        if not isinstance(instance, owner):
            return None  # the general steps say what is wrong with it
        if "\\u" in text or (not text.isascii() and has_surrogates(text)):
            return None  # ``strict_arguments``' test, without its call
        data = read_strict(text, max_length)
        if data is MISSING:
            return None
        if not (outcome := valid(data)):
            checked = _validated(function, side, data, outcome)
            if isinstance(checked, CallResult):
                return checked
            data = checked.data
        target = getattr(instance, name)  # before converting, as ``complete`` takes it
        nonlocal converter
        if converter is None:  # compiled by the first call that converts, as ``complete`` does
            made = plan.convert
            converter = made.get() if isinstance(made, OnFirstUse) else made
        try:
            args, kwargs = converter(data)
        except convert.ConversionError as refused:
            return plan._refused(refused, data, NOTHING, ())
        # ``run_sync`` and ``Call.returned``, without the ``Call`` until the method raises.
        try:
            value = target(*args, **kwargs)
            if type(value) not in PLAIN_RESULTS:
                value = _finished(plan, value)
        except Exception as error:
            if raise_errors:
                raise
            return Call(plan, target, args, kwargs, (), NOTHING, data).raised(error)
        except BaseException as error:
            if raise_errors or not cancellation(error):
                raise
            return Call(plan, target, args, kwargs, (), NOTHING, data).raised(error)
        return CallResult(name_, True, value, to_json(value), None, None, None, deprecated, ())

    return step


@quick_init
@dataclass(frozen=True)
class Call:
    """A call whose arguments are valid, merged and converted: ready to run."""

    plan: Plan
    target: Callable[..., Any]
    args: list[Any]
    kwargs: dict[str, Any]
    repairs: tuple[str, ...] = ()
    hidden: Masker = field(default=NOTHING, repr=False)
    model_data: Any = field(default=None, repr=False)
    """The model's checked arguments (never a human-side value): what an approval shows."""

    def run(self, raise_errors: bool = False) -> CallResult:
        """Call the method here (``run_sync``): what ``execute`` does once prepared."""
        return run_sync(self, raise_errors)

    async def arun(self, raise_errors: bool = False) -> CallResult:
        """Call the method off the event loop, awaiting it if async (``run_async``)."""
        return await run_async(self, raise_errors)

    def materialised(self, value: Any) -> Any:
        """An iterator returned where an array was declared, read into a list (bounded)."""
        return _materialised(self.plan, value)

    def returned(self, value: Any) -> CallResult:
        function = self.plan.function
        # In the fields' order (name, success, value, data, validation, feedback, error,
        # deprecated, repairs): matching keywords costs a third of making the result.
        return CallResult(
            function.name,
            True,
            value,
            convert.to_json(value),
            None,
            None,
            None,
            function.deprecated,
            self.repairs,
        )

    def raised(self, error: BaseException) -> CallResult:
        return CallResult(
            name=self.plan.function.name,
            success=False,
            error=error,
            feedback=error_text(error, self.hidden),
            deprecated=self.plan.function.deprecated,
            repairs=self.repairs,
        )


def run_sync(call: Call, raise_errors: bool) -> CallResult:
    """Run a prepared call; an async method runs to completion when no loop is running."""
    if call.plan.method.is_async:
        _no_running_loop(call.plan.function.name)
    try:
        value = call.target(*call.args, **call.kwargs)
        if type(value) not in PLAIN_RESULTS:
            value = _finished(call.plan, value)
    except Exception as error:
        if raise_errors:
            raise
        return call.raised(error)
    except BaseException as error:
        # No task of the caller's runs here (no loop, or a plain method called on it):
        # a CancelledError is the method's own failure.
        if raise_errors or not cancellation(error):
            raise
        return call.raised(error)
    return call.returned(value)


async def run_async(call: Call, raise_errors: bool) -> CallResult:
    """Run a prepared call off the event loop, within the default runner's limits."""
    return await DEFAULT_RUNNER.run(call, raise_errors)


# --- helpers -----------------------------------------------------------------------------


def _finished(plan: Plan, value: Any) -> Any:
    """What a sync call's value stands for: an awaitable run to its end, an iterator
    returned where an array was declared read into a list."""
    if inspect.isawaitable(value):
        value = _complete(value)
    return _materialised(plan, value)


def _materialised(plan: Plan, value: Any) -> Any:
    if not (plan.returns_array and isinstance(value, Iterator)):
        return value
    items: list[Any] = []
    for item in value:
        if len(items) >= MAX_RESULT_ITEMS:
            raise ValueError(f"the result has more than {MAX_RESULT_ITEMS:,} items")
        items.append(item)
    return items


def _at(data: Any, segments: list[str | int]) -> Any:
    """The value at ``segments`` in the model's data, or ``MISSING``."""
    for segment in segments:
        if not isinstance(data, (Mapping, list)):
            return MISSING
        try:
            data = data[segment]  # type: ignore[index]
        except (LookupError, TypeError):
            return MISSING
    return data


def _no_running_loop(name: str) -> None:
    import asyncio  # stdlib, but slow to import: only async methods need it

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    raise ExecutionError(f"{name} is async and an event loop is running: use aexecute()")


def _complete(awaitable: Any) -> Any:
    import asyncio

    async def wait() -> Any:
        return await awaitable

    return asyncio.run(wait())
