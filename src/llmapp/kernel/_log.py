"""The call log: one record per call, the same for every door, with nothing of the human side.

Every door logs its calls here, to a logger under ``logging.getLogger("llmapp")``:
``llmapp.app`` (``LlmApplication.execute``/``aexecute``), ``llmapp.http`` (an OpenAPI
operation's ``execute``/``propagate`` and ``HttpLlmApplication.execute``) and
``llmapp.mcp`` (a tool called through ``llmapp.mcp.call``, and each call llmapp's MCP
server answers). The ``llmapp`` logger has a ``NullHandler``, so nothing is printed
until the application configures logging (``logging.basicConfig(level=logging.DEBUG)``
shows every call).

A record says which function, how long the call took and its outcome, and how many
repairs reading the model's text needed and which kinds (llmapp's own phrases, never a
value). By outcome:

- ``DEBUG``: ``ok``, the call ran and returned;
- ``INFO``: ``invalid (N issues)``, the model's arguments were wrong (nothing ran);
  ``unknown function``; ``approval needed`` (nothing ran); ``refused (...)``, a door
  would not run it (llmapp's own text, naming paths, never values);
- ``WARNING``: ``error (Kind)``, the method, the request or the tool failed, or the call
  raised out of ``execute`` (``raise_errors``, a misuse): its traceback, every human-side
  value in it masked (``Masker``), is in the record's message. It is logged here, on the
  caller's or the server's side: the model is sent the bounded message only.

Each record also carries ``llmapp_function``, ``llmapp_outcome`` (``ok``, ``invalid``,
``unknown``, ``approval``, ``refused``, ``error``), ``llmapp_ms``, ``llmapp_issues`` and
``llmapp_repairs`` as attributes, for structured handlers.

A record's form bounds what it quotes: a function name at most ``_MAX_NAME`` characters,
a refusal's text at most ``_MAX_REFUSAL``, whatever the model or a door wrote.

A call pays for a clock read and one level check when its record is not wanted;
nothing is formatted, and the masker is never built, unless a handler will see it.
"""

from __future__ import annotations

import logging
import sys
from typing import Any, Final

from llmapp.kernel._mask import NOTHING, Masker
from llmapp.kernel._result import CallResult

__all__ = ["APP", "HTTP", "MCP", "log_call", "log_raised", "log_to_stderr", "masked_traceback"]

ROOT: Final = logging.getLogger("llmapp")
ROOT.addHandler(logging.NullHandler())  # a library's records wait for the application's handlers
APP: Final = logging.getLogger("llmapp.app")
HTTP: Final = logging.getLogger("llmapp.http")
MCP: Final = logging.getLogger("llmapp.mcp")

DEBUG: Final = logging.DEBUG
_MAX_NAME: Final = 200
_MAX_REFUSAL: Final = 300


def log_call(
    logger: logging.Logger, result: CallResult, seconds: float, hidden: Masker = NOTHING
) -> None:
    """The record of a finished call, at the level of its outcome (the module docstring).

    Args:
        logger: the door's logger (``APP``, ``HTTP``, ``MCP``).
        result: what the call returned.
        seconds: how long it took.
        hidden: what the traceback of a failed call must not show (the human side, a
            door's secrets).
    """
    if result.success:
        if logger.isEnabledFor(DEBUG):
            _record(logger, DEBUG, result.name, "ok", seconds, result.repairs)
        return
    if result.error is not None:
        if logger.isEnabledFor(logging.WARNING):
            outcome = f"error ({type(result.error).__name__})"
            trace = masked_traceback(result.error, hidden)
            _record(logger, logging.WARNING, result.name, outcome, seconds, result.repairs, trace)
        return
    if not logger.isEnabledFor(logging.INFO):
        return
    issues = 0
    if result.approval is not None:
        outcome = "approval needed"
    elif result.validation is not None:
        errors = result.validation.errors
        issues = len(errors)
        if issues == 1 and errors[0].path == "$name":
            outcome = "unknown function"
        else:
            outcome = f"invalid ({issues} issues)"
    else:  # a door's own refusal (the server's setup, a declined approval): llmapp's text
        outcome = f"refused ({(result.feedback or '')[:_MAX_REFUSAL]})"
    _record(logger, logging.INFO, result.name, outcome, seconds, result.repairs, issues=issues)


def log_raised(
    logger: logging.Logger,
    name: Any,
    error: BaseException,
    seconds: float,
    hidden: Masker = NOTHING,
    repairs: tuple[str, ...] = (),
) -> None:
    """The record of a call that raised out of its door (``raise_errors``, a misuse)."""
    if logger.isEnabledFor(logging.WARNING):
        shown = name[:_MAX_NAME] if isinstance(name, str) else repr(name)[:_MAX_NAME]
        outcome = f"error ({type(error).__name__})"
        trace = masked_traceback(error, hidden)
        _record(logger, logging.WARNING, shown, outcome, seconds, repairs, trace)


def _record(
    logger: logging.Logger,
    level: int,
    name: str,
    outcome: str,
    seconds: float,
    repairs: tuple[str, ...],
    trace: str | None = None,
    *,
    issues: int = 0,
) -> None:
    # Repairs are llmapp's own phrases ("removed a trailing comma"), never the model's text.
    kinds = f" ({'; '.join(repairs)})" if repairs else ""
    # An unknown function's name is the model's text: a newline or an escape sequence in
    # it would forge a record of its own or rewrite the terminal, so it is written quoted.
    name = name if name.isprintable() else repr(name)
    message = "call %s: %s in %.1f ms, %d repairs%s"
    arguments: tuple[Any, ...] = (name, outcome, seconds * 1000, len(repairs), kinds)
    if trace is not None:
        message += ":\n%s"
        arguments += (trace,)
    extra = {
        "llmapp_function": name,
        "llmapp_outcome": outcome.split(" ")[0],
        "llmapp_ms": seconds * 1000,
        "llmapp_issues": issues,
        "llmapp_repairs": len(repairs),
    }
    logger.log(level, message, *arguments, extra=extra)


def masked_traceback(error: BaseException, hidden: Masker = NOTHING) -> str:
    """The exception's traceback (its causes included) as text, ``hidden``'s values masked."""
    import traceback  # on the error path only: the valid call never formats one

    try:
        text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    except Exception:  # an exception too odd to format must not break the call it ends
        return f"{type(error).__name__} (its traceback could not be formatted)"
    return hidden.mask(text).rstrip()


def log_to_stderr(level: str = "info") -> None:
    """Send the ``llmapp`` hierarchy's records to stderr (what ``llmapp mcp`` does).

    Raises:
        ValueError: an unknown level name.
    """
    number = logging.getLevelName(level.upper())
    if not isinstance(number, int):
        raise ValueError(f"unknown log level {level!r}")
    if not any(getattr(handler, "_llmapp", False) for handler in ROOT.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
        handler._llmapp = True  # type: ignore[attr-defined]
        ROOT.addHandler(handler)
    ROOT.setLevel(number)
