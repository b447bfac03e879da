"""Per-tool controls and per-call context: declared once on the class, honoured by every door.

Declared on a method, with docstring tags where a plain value says it (as ``@tag`` and
``@hidden`` do) and with the ``controls`` decorator where it takes code:

- ``@approval`` (also ``@tag destructive``), or ``@controls(approval=True)`` /
  ``approval=lambda arguments, context: ...``: the call does not run until the caller
  approves it (``execute(..., approved=True)``); until then ``execute`` answers a
  ``CallResult`` whose ``approval`` says what to show the human: its ``question`` shows
  every argument in the schema's order, the decisive ones first and whole
  (``@controls(decisive=("to", "amount"))``, by default every scalar one; see
  ``llmapp.kernel._question``), and every door that asks a human asks it;
- ``@timeout SECONDS`` or ``@controls(timeout=...)``: most seconds one call may take, sync
  or async, answered to the model as a bounded ``TimeoutError`` (the ``Runner``'s own
  time limit, the smaller of the two when both are set);
- ``@controls(enabled=lambda context: ...)``: whether the function exists for this call's
  context; a hidden function is neither listed nor callable (``execute`` answers it as an
  unknown function).

An override keeps each control its parent declared unless it declares that control itself
(``declared_controls``), as it keeps its parent's docstring when it has none of its own.

The per-call context is what the caller passes as ``context=`` (one value, or a tuple of
them; the toolsets pass their framework's own context object and what it carries): a
``CallContext``. Predicates receive it, and a method parameter annotated
``Annotated[T, Context()]`` (or with a framework's context type) receives its first value
that is a ``T`` (``llmapp.introspect._context``). Such a parameter is in no schema.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from llmapp._records.record import Record
from llmapp.introspect import is_framework_context, parse_docstring
from llmapp.kernel._question import Approval, approval_question

if TYPE_CHECKING:
    from llmapp.introspect.model import MethodSpec

__all__ = [
    "Approval",
    "CallContext",
    "Controls",
    "controls",
    "declared_controls",
    "enabled",
    "visible",
]

CONTROLS_ATTRIBUTE = "__llmapp_controls__"

logger = logging.getLogger("llmapp.controls")

F = TypeVar("F")
T = TypeVar("T")


class CallContext:
    """The caller's per-call values: what predicates read and context parameters receive.

    Example::

        ctx = CallContext.of((user, session))
        ctx.get(User)        # user
    """

    __slots__ = ("values",)

    def __init__(self, values: Iterable[Any] = ()) -> None:
        self.values: tuple[Any, ...] = tuple(values)

    @classmethod
    def of(cls, context: Any) -> CallContext:
        """``context`` as given to ``execute``: ``None``, one value, a tuple or list of them."""
        if isinstance(context, CallContext):
            return context
        if context is None:
            return _EMPTY
        if isinstance(context, (tuple, list)):
            return cls(context)
        return cls((context,))

    def own(self) -> tuple[Any, ...]:
        """The values of the application's own (a user, a session, a token): never the model's,
        so masked in what it reads and in the log, as human-side values are. A framework's
        run or request object is not: it holds the conversation, which the model wrote."""
        return tuple(value for value in self.values if not is_framework_context(type(value)))

    def get(self, kind: type[T], default: Any = None) -> Any:
        """The first value that is a ``kind``, or ``default``."""
        for value in self.values:
            if isinstance(value, kind):
                return value
        return default

    def __repr__(self) -> str:
        return f"CallContext({', '.join(type(value).__name__ for value in self.values)})"


_EMPTY = CallContext()

Enabled = Callable[[CallContext], bool]
NeedsApproval = Callable[[Any, CallContext], bool]


class Controls(Record):
    """The controls of one function (see the module docstring).

    Attributes:
        enabled: whether the function exists for a call's context; ``None``: always.
        approval: ``True``, ``False``, or ``(arguments, context) -> bool`` over the model's
            arguments.
        timeout: most seconds one call may take, or ``None``.
        decisive: the parameters an approval question shows first and never cuts;
            empty: every parameter whose schema is a scalar.
    """

    enabled: Enabled | None = None
    approval: bool | NeedsApproval = False
    timeout: float | None = None
    decisive: tuple[str, ...] = ()


def controls(
    *,
    enabled: Enabled | None = None,
    approval: bool | NeedsApproval | None = None,
    timeout: float | None = None,
    decisive: Iterable[str] | None = None,
) -> Callable[[F], F]:
    """Declare a method's controls (see the module docstring); the method is returned as is.

    ``decisive`` names the parameters an approval question shows first and never cuts
    (default: every parameter whose schema is a scalar).

    Raises:
        ValueError: a timeout that is not a positive number; a decisive name that is not
            a parameter of the method.

    Example::

        class Bank:
            @controls(enabled=lambda ctx: ctx.get(User).admin, approval=True, timeout=5)
            def transfer(self, note: str, amount: float, to: str) -> None: ...
    """
    if timeout is not None and not positive_number(timeout):
        raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
    if isinstance(decisive, str):
        raise ValueError(f"decisive takes parameter names, not the text {decisive!r}")
    named = tuple(decisive) if decisive is not None else None
    # Only what is given is declared: an override's approval=False lifts an inherited one.
    given = {
        name: value
        for name, value in (
            ("enabled", enabled),
            ("approval", approval),
            ("timeout", timeout),
            ("decisive", named),
        )
        if value is not None
    }

    def mark(method: F) -> F:
        inner = getattr(method, "__func__", method)  # staticmethod / classmethod
        if named:
            _check_names(inner, named)
        setattr(inner, CONTROLS_ATTRIBUTE, given)
        return method

    return mark


def _check_names(method: Any, names: tuple[str, ...]) -> None:
    """A decisive name must be a parameter: a misspelt one would quietly show nothing first."""
    try:
        parameters = inspect.signature(method).parameters
    except (TypeError, ValueError):  # no signature to check against
        return
    if any(each.kind is inspect.Parameter.VAR_KEYWORD for each in parameters.values()):
        return  # the keys of **kwargs: Unpack[...] are parameters too, known only later
    unknown = [name for name in names if name not in parameters]
    if unknown:
        raise ValueError(
            f"decisive names {', '.join(map(repr, unknown))}: not parameters of "
            f"{getattr(method, '__qualname__', method)!r}"
        )


def declared_controls(cls: type, method: MethodSpec) -> Controls | None:
    """The controls of one method, each from the nearest definition that declares it.

    Walking ``cls.__mro__``, each definition of the method declares a control by the
    decorator (what it was given) or by its own docstring (``@approval``, ``@tag
    destructive``, ``@timeout``); an override without a declaration of its own keeps its
    parent's, as a method without a docstring keeps its parent's docstring, and declares
    its own to change it (``@controls(approval=False)`` lifts an inherited approval).
    """
    found: dict[str, Any] = {}
    for klass in cls.__mro__:
        if method.name not in vars(klass):
            continue
        raw = vars(klass)[method.name]
        function = getattr(raw, "__func__", raw)
        if not callable(function):  # shadowed by a plain attribute: nothing above counts
            break
        own = _own_controls(function)
        if "approval" not in found and own.get("approval") is True and _by_tag(function):
            # Said once, at build: a tag that also stops every call is easy to miss.
            logger.info(
                "%s.%s: @tag destructive: each call waits for a human's approval "
                "(execute(..., approved=True); @controls(approval=False) lifts it)",
                cls.__name__,
                method.name,
            )
        for name, value in own.items():
            found.setdefault(name, value)
    enabled, approval, timeout = found.get("enabled"), found.get("approval"), found.get("timeout")
    if enabled is None and not approval and timeout is None:  # what ``Controls()`` holds
        return None
    decisive = tuple(found.get("decisive", ()))
    return Controls(enabled=enabled, approval=approval or False, timeout=timeout, decisive=decisive)


def _own_controls(function: Any) -> dict[str, Any]:
    """What one definition declares itself: its decorator's controls, then its docstring's."""
    given = getattr(function, CONTROLS_ATTRIBUTE, None)
    own = dict(given) if isinstance(given, Mapping) else {}
    doc = parse_docstring(getattr(function, "__doc__", None))
    if "approval" not in own and (doc.approval or "destructive" in doc.tags):
        own["approval"] = True
    seconds = _seconds(doc.timeout)
    if seconds is not None:  # the decorator's and the docstring's: the smaller stands
        own["timeout"] = min(seconds, own.get("timeout", seconds))
    return own


def _by_tag(function: Any) -> bool:
    """Whether a definition's approval comes from ``@tag destructive`` alone."""
    given = getattr(function, CONTROLS_ATTRIBUTE, None)
    if isinstance(given, Mapping) and "approval" in given:
        return False
    doc = parse_docstring(getattr(function, "__doc__", None))
    return not doc.approval and "destructive" in doc.tags


def _seconds(text: str | None) -> float | None:
    """``@timeout SECONDS`` as a number, or ``None`` (introspection reports a bad one)."""
    try:
        seconds = float(text) if text is not None else None
    except ValueError:
        return None
    return seconds if seconds is not None and positive_number(seconds) else None


# --- what the doors ask ------------------------------------------------------------------------


def of(function: Any) -> Controls | None:
    """The controls of any kind of function (HTTP and MCP functions have none)."""
    found = getattr(function, "controls", None)
    return found if isinstance(found, Controls) else None


def declares(function: Any, control: str) -> bool:
    """Whether ``function`` declares ``control`` (``"enabled"``, ``"approval"``, ``"timeout"``)."""
    declared = of(function)
    return declared is not None and getattr(declared, control) not in (None, False)


def enabled(function: Any, context: Any) -> bool:
    """Whether ``function`` exists for this call's context; a predicate that raises hides it."""
    declared = of(function)
    if declared is None or declared.enabled is None:
        return True
    try:
        return bool(declared.enabled(CallContext.of(context)))
    except Exception:  # fail closed: a broken predicate must not show a tool to everyone
        logger.exception("the enabled predicate of %s raised", function.name)
        return False


def visible(functions: Iterable[T], context: Any) -> list[T]:
    """The functions that exist for this call's context, in order."""
    return [function for function in functions if enabled(function, context)]


def needs_approval(function: Any, arguments: Any, context: Any) -> bool:
    """Whether this call waits for approval; a predicate that raises asks for it."""
    declared = of(function)
    if declared is None or declared.approval is False:
        return False
    if declared.approval is True:
        return True
    try:
        return bool(declared.approval(arguments, CallContext.of(context)))
    except Exception:  # fail closed: ask the human
        logger.exception("the approval predicate of %s raised", function.name)
        return True


def time_limit(function: Any, runner_timeout: float | None) -> float | None:
    """The smaller of the function's own timeout and the runner's."""
    declared = of(function)
    own = declared.timeout if declared is not None else None
    if own is None or runner_timeout is None:
        return runner_timeout if own is None else own
    return min(own, runner_timeout)


def asking(function: Any, arguments: Any) -> Approval:
    """The approval of a call of ``function`` with the model's checked ``arguments``."""
    schema = function.llm_parameters
    separated = function.separated
    human = separated.human if separated is not None else None
    declared = of(function)
    question = approval_question(
        function.name,
        arguments,
        schema,
        decisive=declared.decisive if declared is not None else (),
        human=(human or {}).get("properties") or (),
    )
    if isinstance(arguments, Mapping):  # the schema's order, as the question shows them
        properties = schema.get("properties") or {}
        order = {key: index for index, key in enumerate(properties)}
        arguments = dict(sorted(arguments.items(), key=lambda item: order.get(item[0], len(order))))
    return Approval(function.name, arguments, function.description, question)


def positive_number(value: Any) -> bool:
    """Whether ``value`` is a number of seconds a control accepts."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value < 1e12
