"""One LLM function: its schemas, its description and how its arguments are checked."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from logging import WARNING, Logger
from typing import Any, ClassVar, Generic, TypeVar

from llmapp import validate
from llmapp._errors import MAX_FEEDBACK, FeedbackError
from llmapp._limits import cut
from llmapp._results import (
    Validation,
    ValidationFailure,
    ValidationIssue,
    ValidationSuccess,
)
from llmapp.kernel._controls import Controls
from llmapp.kernel._log import APP, masked_traceback
from llmapp.repair import MAX_LENGTH

__all__ = [
    "Function",
    "LlmFunction",
    "OnFirstUse",
    "Separated",
    "compile_validator",
    "llm_parameters",
    "run_hook",
]

Schema = dict[str, Any]
T = TypeVar("T")
R = TypeVar("R")
F = TypeVar("F", bound="Function")


@dataclass(frozen=True)
class Separated:
    """A function's parameters split between what the LLM composes and what a human supplies.

    Attributes:
        llm: the parameters schema the LLM sees (at least an empty object).
        human: the parameters schema a human fills in, or ``None``.
        validate: validation of the LLM side; a human-side key sent by the LLM
            is reported as superfluous (``expected == "undefined"``).
        validate_human: validation of the human side; a key a human supplies that is the
            model's to give is reported as superfluous, as ``validate`` reports the converse.
    """

    llm: Schema
    human: Schema | None
    validate: Callable[[Any], Validation] | None = None
    validate_human: Callable[[Any], Validation] | None = None


class OnFirstUse(Generic[T, R]):
    """A callable compiled on its first call: the one lazy-compile mechanism of execution.

    Building an application compiles nothing; each function's validators and its
    argument converter are compiled by ``compile`` the first time a call needs them.

    Example::

        check = OnFirstUse(compile_validator, schema)   # nothing compiled yet
        check(arguments)                                # compiles, then validates
    """

    __slots__ = ("_call", "_compiled", "compile", "source")

    def __init__(self, compile: Callable[[Any], Callable[[T], R]], source: Any) -> None:
        self.compile = compile
        self.source = source
        """What ``compile`` is given (a validator's schema)."""
        self._compiled: Callable[[T], R] | None = None
        self._call: Callable[[T], R] | None = None
        """What a call calls (``calling``), once a call asked."""

    def __call__(self, value: T) -> R:
        call = self._call
        return (self.calling() if call is None else call)(value)

    def calling(self) -> Callable[[T], R]:
        """What a call calls: the compiled object's ``caller()`` where its class has one
        (a ``Validator``'s, a plain function: calling an instance costs the interpreter a
        frame it cannot inline), else the compiled object itself."""
        call = self._call
        if call is None:
            compiled = self.get()
            # The class's: an object answering every attribute (a mock) is called as it is.
            caller = getattr(type(compiled), "caller", None)
            call = self._call = compiled if caller is None else caller(compiled)
        return call

    def get(self) -> Callable[[T], R]:
        """What ``compile`` made, compiled now if no call has needed it yet."""
        if self._compiled is None:
            self._compiled = self.compile(self.source)
        return self._compiled

    @property
    def compiled(self) -> Callable[[T], R] | None:
        """What the first call compiled (``None`` before it)."""
        return self._compiled

    def given(self, compiled: Callable[[T], R]) -> None:
        """``compiled`` as what ``compile`` would make of ``source``, made elsewhere already."""
        if self._compiled is None:
            self._compiled = compiled


def compile_validator(schema: Mapping[str, Any]) -> Callable[[Any], Validation]:
    """``validate.validator``, looked up when called: the compiler loads on first use."""
    return validate.validator(schema)


class _Referenced:
    """A base holding the weak-reference slot: a slotted dataclass gets none of its own
    before Python 3.11 (``weakref_slot``), and the exports keep per-function caches."""

    __slots__ = ("__weakref__",)


@dataclass(frozen=True, eq=False, slots=True)
class Function(_Referenced):
    """One function the LLM may call, whatever made it; immutable once built.

    A class method (``LlmFunction``), an OpenAPI operation (``HttpLlmFunction``) and an
    MCP tool (``McpLlmFunction``) are this one record, each with its origin's own few
    fields added; the call kernel, the vendor exports, the toolsets, the MCP server and
    structured output read only what is here.

    Attributes:
        name: the function's name.
        description: what it does (tags removed).
        parameters: the schema the model is shown, every argument described, the human
            side included (strict when the application is); ``llm_parameters`` is the
            part the model writes.
        output: the result's schema, or ``None``.
        deprecated: the function still works but should be avoided.
        tags: its tags (``@tag`` names, an operation's tags, a tool's annotation hints).
        separated: the LLM/human split when a human supplies part of the arguments.
        title: a short title, if any.
        summary: a one-line summary, if any.
        checked_parameters: the schema arguments are validated and repaired against:
            ``parameters`` itself, except in strict mode, where the model's schema moves
            constraints it cannot express into descriptions and this one keeps them.
        hook: a validation of the caller's own (``@validates``, ``validate=``) run
            instead of the generated one, or ``None``.
        controls: enabled per call, approval, timeout (``llmapp.kernel._controls``), or
            ``None``.
        max_length: most characters of argument text one call reads (the builders'
            ``max_length=``); longer text is refused and nothing runs.
    """

    name: str
    description: str | None
    parameters: Schema
    output: Schema | None = None
    deprecated: bool = False
    tags: list[str] = field(default_factory=list)
    separated: Separated | None = None
    title: str | None = None
    summary: str | None = None
    checked_parameters: Schema = field(default_factory=dict, repr=False)
    hook: Callable[[Any], Validation] | None = field(default=None, repr=False)
    controls: Controls | None = None
    max_length: int = field(default=MAX_LENGTH, repr=False)
    _generated: OnFirstUse[Any, Validation] = field(init=False, repr=False)

    log: ClassVar[Logger] = APP
    """Where a failing hook is logged: the door's own logger."""

    def __post_init__(self) -> None:
        # Frozen: the derived fields are set once, here, and never again.
        if not self.checked_parameters:
            object.__setattr__(self, "checked_parameters", self.parameters)
        generated = OnFirstUse(compile_validator, self.checked_parameters)
        object.__setattr__(self, "_generated", generated)

    @property
    def llm_parameters(self) -> Schema:
        """The parameters schema to give the model: never a human-side parameter.

        ``separated.llm`` when a human supplies part of the arguments (``Human()``,
        ``separate=``), ``parameters`` otherwise. Every vendor export shows this schema.

        Example::

            for function in app.functions:
                print(function.name, function.llm_parameters)  # hand these to a vendor SDK
        """
        return llm_parameters(self)

    def validate(self, arguments: Any) -> Validation:
        """Check arguments against ``checked_parameters`` (or the hook).

        Never raises: a hook that raises becomes a failed ``Validation`` (``run_hook``:
        a ``FeedbackError``'s message for the model, any other exception logged).
        """
        if self.hook is None:
            # What the compiled validator's call calls, not ``OnFirstUse``'s call around it:
            # the one frame a small valid call can do without.
            call = self._generated._call
            return (self._generated.calling() if call is None else call)(arguments)
        return run_hook(self.hook, arguments, self.name, self.log)

    def validate_types(self, arguments: Any) -> Validation:
        """The generated validation alone, whatever hook the function has."""
        return self._generated(arguments)

    def with_validator(self: F, check: Callable[[Any], Validation] | None) -> F:
        """This function, its generated validator the one ``check`` a builder already
        compiled from ``checked_parameters`` (to report a schema it refuses), so no call
        compiles it again."""
        if check is not None:
            self._generated.given(check)
        return self

    def with_controls(self: F, controls: Controls | None) -> F:
        """A copy of this function with ``controls``, the validator a call or a builder
        already compiled kept (a builder's ``controls=``; ``dataclasses.replace`` would
        compile it again on the next call)."""
        changed = replace(self, controls=controls)
        compiled = self._generated.compiled
        if compiled is not None:
            changed._generated.given(compiled)
        return changed

    def to_dict(self) -> dict[str, Any]:
        """The function as plain JSON-ready data."""
        return function_data(self)


@dataclass(frozen=True, eq=False, slots=True)
class LlmFunction(Function):
    """A method of a class as a function the LLM may call (``llmapp.application``).

    The one ``Function`` record; ``title`` and ``summary`` come from the ``@title`` and
    ``@summary`` tags, ``controls`` from ``@controls`` and the docstring's tags.
    """


def llm_parameters(function: Any) -> Schema:
    """The parameters schema the model composes, for any kind of function (class, HTTP, MCP).

    ``separated.llm`` when the function has a human side, ``parameters`` otherwise.
    """
    separated = getattr(function, "separated", None)
    if separated is not None and getattr(separated, "human", None) is not None:
        llm: Schema = separated.llm
        return llm
    parameters: Schema = function.parameters
    return parameters


def run_hook(
    hook: Callable[[Any], Validation], arguments: Any, name: str = "", log: Logger = APP
) -> Validation:
    """The hook's validation of ``arguments``; never raises.

    A ``FeedbackError`` is the hook speaking to the model: its message becomes the issue's
    description. Any other exception is the hook's bug or a service it reached failing,
    and its text may hold their secrets (a DSN with its password): it is logged on
    ``log`` (the door's logger) for the developer, and the model reads only its kind.
    """
    try:
        outcome: object = hook(arguments)
    except FeedbackError as told:
        return _hook_failure(arguments, _told(told), told.path, told.expected)
    except Exception as error:  # a hook's failure is reported, never propagated
        if log.isEnabledFor(WARNING):
            log.warning(
                "call %s: the validation hook raised; the model was told only its kind:\n%s",
                name,
                masked_traceback(error),
            )
        kind = type(error).__name__
        return _hook_failure(
            arguments, f"the arguments could not be checked (the validation hook failed: {kind})"
        )
    if isinstance(outcome, (ValidationSuccess, ValidationFailure)):
        return outcome
    return _hook_failure(
        arguments, f"validation hook returned {type(outcome).__name__}, not a Validation"
    )


def _told(error: FeedbackError) -> str:
    """What a hook told the model, bounded; never raises."""
    try:
        text = str(error.message)
    except Exception:  # a message whose __str__ raises must not escape the check
        return "the arguments were refused by a check"
    return cut(text, MAX_FEEDBACK)


def _hook_failure(
    arguments: Any, reason: str, path: Any = "$input", expected: Any = "valid arguments"
) -> ValidationFailure:
    path = path if isinstance(path, str) else "$input"
    expected = expected if isinstance(expected, str) else "valid arguments"
    issue = ValidationIssue(path, expected, arguments, description=reason)
    return ValidationFailure(arguments, [issue])


def function_data(function: Any, **first: Any) -> dict[str, Any]:
    """Any kind of function (class, HTTP, MCP) as plain JSON-ready data, ``first`` leading.

    The keys every function shares, in one order: ``name``, ``description`` (when it has
    one), ``parameters``, ``output``, ``deprecated``, ``tags``, ``approval`` (when calls
    wait for a human's approval: ``"always"``, or ``"when its predicate says"``) and
    ``separated`` (when it has a human side).
    """
    data: dict[str, Any] = {**first, "name": function.name}
    if function.description is not None:
        data["description"] = function.description
    data["parameters"] = function.parameters
    data["output"] = function.output
    data["deprecated"] = function.deprecated
    data["tags"] = list(function.tags)
    approval = getattr(getattr(function, "controls", None), "approval", False)
    if approval:  # ``@approval``, ``@tag destructive`` or ``@controls(approval=...)``
        data["approval"] = "always" if approval is True else "when its predicate says"
    separated = getattr(function, "separated", None)
    if separated is not None:
        data["separated"] = {"llm": separated.llm, "human": separated.human}
    return data
