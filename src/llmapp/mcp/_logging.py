"""What the MCP server tells its operator: one line per call, a startup line, nothing secret.

Every record goes to ``logging.getLogger("llmapp.mcp")``, inside the ``llmapp``
hierarchy, so one handler on ``"llmapp"`` sees every door. Per call, at ``INFO``:
the function, how long it took, the outcome (``ok``, ``invalid`` with the number of
issues, ``error`` with the exception's kind, ``refused`` for an unknown name or a
setup problem) and how many repairs reading the arguments needed. A method's
exception is logged at ``ERROR`` with its traceback, here only: the client gets its
bounded message. Human-side values are never logged: the log names paths and counts,
not arguments, and every human-side text found in a traceback is masked.
"""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Mapping
from typing import Any

from llmapp.app import CallResult, Masker

__all__ = ["log_call", "log_to_stderr", "logger", "masked_traceback"]

logger = logging.getLogger("llmapp.mcp")


def log_call(
    name: str, result: CallResult, seconds: float, human: Mapping[str, Any] | None
) -> None:
    """One line for a finished call; the method's traceback (masked) when it raised."""
    if logger.isEnabledFor(logging.INFO):
        _log_outcome(name, result, seconds)
    if result.error is not None and not isinstance(result.error, TimeoutError):
        logger.error("call %s raised:\n%s", name, masked_traceback(result.error, human))


def _log_outcome(name: str, result: CallResult, seconds: float) -> None:
    if result.success:
        outcome = "ok"
    elif result.validation is not None:
        outcome = f"invalid ({len(result.validation.errors)} issues)"
    elif result.error is not None:
        outcome = f"error ({type(result.error).__name__})"
    else:  # an unknown name or the server's setup: llmapp's own text, never a value
        outcome = f"refused ({(result.feedback or '')[:300]})"
    logger.info(
        "call %s: %s in %.1f ms, %d repairs",
        name,
        outcome,
        seconds * 1000,
        len(result.repairs),
        extra={"llmapp_function": name, "llmapp_outcome": outcome.split(" ")[0]},
    )


def masked_traceback(error: BaseException, human: Mapping[str, Any] | None) -> str:
    """The exception's traceback as text, every human-side value in it masked (``Masker``)."""
    text = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    return Masker.of(human).mask(text).rstrip()


def log_to_stderr(level: str = "info") -> None:
    """Send the ``llmapp`` hierarchy's records to stderr (what the command line does).

    Raises:
        ValueError: an unknown level name.
    """
    number = logging.getLevelName(level.upper())
    if not isinstance(number, int):
        raise ValueError(f"unknown log level {level!r}")
    root = logging.getLogger("llmapp")
    if not any(getattr(handler, "_llmapp", False) for handler in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
        handler._llmapp = True  # type: ignore[attr-defined]
        root.addHandler(handler)
    root.setLevel(number)
