"""The model's call before any function runs: its arguments read completely, its name known.

Shared by every kind of application (class methods, HTTP operations, MCP tools), so
that all of them refuse the same things the same way: argument text that is cut off,
unreadable, or read only in part (``Parsed.unread``: never half-run), text past
``max_length`` (bounded cost), and a name that is no function of the table (answered
with the names that exist).

The answer to a wrong name is bounded in its form: the name is quoted cut to
``_MAX_NAME`` characters, and every name of the table is listed only when there are at
most ``_MAX_LISTED`` (else the closest ones).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Final

from llmapp import explain, repair
from llmapp._limits import MAX_COMPARED_NAMES, cut
from llmapp._results import ValidationFailure, ValidationIssue
from llmapp._sentinels import MISSING
from llmapp._text.unicode import has_surrogates
from llmapp.kernel._result import CallResult

__all__ = ["close_names", "read_arguments", "strict_arguments", "unknown_function"]

_MAX_NAME: Final = 200
_MAX_LISTED: Final = 30


def read_arguments(
    name: str,
    arguments: Any,
    *,
    max_length: int = repair.MAX_LENGTH,
    deprecated: bool = False,
) -> tuple[Any, tuple[str, ...]] | CallResult:
    """The model's arguments as data and what reading them repaired, or why they were refused.

    Args:
        name: the function called (for the refusal's ``CallResult``).
        arguments: the model's raw text (``str``, ``bytes``, ``bytearray``), a mapping,
            or None (no arguments).
        max_length: most characters of text read.
        deprecated: carried into the refusal's ``CallResult``.

    Returns:
        ``(data, repairs)``, or a failed ``CallResult`` whose feedback tells the model its
        text was cut off (and where), could not be read, could be read only in part (what
        was not read as written, and where), or holds a lone surrogate
        (``repair.lone_surrogates``: each at its path); nothing may run then.
    """
    read = read_model_arguments(name, arguments, max_length, deprecated)
    return read if isinstance(read, CallResult) else read[:2]


def read_model_arguments(
    name: str, arguments: Any, max_length: int, deprecated: bool
) -> tuple[Any, tuple[str, ...], bool] | CallResult:
    """``read_arguments``, and whether a repair of the data may bring out a lone surrogate.

    Text without a ``\\u`` escape or a raw surrogate reads into none, and no repair can
    make one of it (a stringified object holds the same characters): its data needs no
    second scan; anything else does.
    """
    if not isinstance(arguments, str):  # text first: the Mapping check is an ABC's
        if arguments is None:
            return {}, (), False
        if isinstance(arguments, Mapping):
            return _unless_surrogates(name, dict(arguments), (), deprecated, scan=True)
        if not isinstance(arguments, (bytes, bytearray)):
            return _unless_surrogates(name, arguments, (), deprecated, scan=True)
    data, repairs, error, truncated, unread = repair.read_text(arguments, max_length=max_length)
    reason = error or truncated or unread
    if reason is None:
        if not repair.may_hold_surrogates(arguments):
            return data, repairs, False
        return _unless_surrogates(name, data, repairs, deprecated, scan=True)
    shown = arguments if isinstance(arguments, str) else repr(arguments[:max_length])
    # A reading that dropped or invented part of the text is refused like one cut off:
    # the call would run with something other than what the model sent.
    text = explain.unreadable(
        reason,
        repairs,
        truncated=error is None and truncated is not None,
        partial=error is None and truncated is None,
        text=shown,
    )
    issue = ValidationIssue("$input", "JSON object", shown[:max_length], reason)
    return CallResult(
        name=name,
        success=False,
        validation=ValidationFailure(shown, [issue]),
        feedback=text,
        deprecated=deprecated,
        repairs=repairs,
    )


def strict_arguments(text: str, max_length: int) -> Any:
    """The data ``read_model_arguments`` reads from ``text`` with nothing to note and no
    second scan to ask for (strict JSON, no ``\\u`` escape or surrogate); ``MISSING`` for
    any other text, which it then reads and explains."""
    if "\\u" in text or (not text.isascii() and has_surrogates(text)):
        return MISSING  # ``repair.may_hold_surrogates`` of a ``str``, without its call
    return repair.read_strict(text, max_length)


def _unless_surrogates(
    name: str, data: Any, repairs: tuple[str, ...], deprecated: bool, *, scan: bool
) -> tuple[Any, tuple[str, ...], bool] | CallResult:
    """The data (and ``scan``: whether to look again after repairs), or the refusal naming
    each text that holds a lone surrogate."""
    issues = repair.lone_surrogates(data) if scan else []
    if not issues:
        return data, repairs, scan
    failure = ValidationFailure(data, issues)
    return CallResult(
        name=name,
        success=False,
        validation=failure,
        feedback=explain.feedback(failure),
        deprecated=deprecated,
        repairs=repairs,
    )


def unknown_function(name: Any, available: list[str]) -> CallResult:
    """The model named no function of the table: say which exist (its name cut, never run).

    All the names are listed when there are at most ``_MAX_LISTED``; past that, only the
    closest ones: a server with 100,000 tools must not answer with all their names.
    """
    text = name if isinstance(name, str) else repr(name)[:_MAX_NAME]
    shown = cut(text, _MAX_NAME)
    # Names are at most 64 characters: a longer text matches nothing, and costs nothing.
    close = close_names(text, available) if len(text) <= 128 else []
    hint = f" Did you mean {', '.join(repr(c) for c in close)}?" if close else ""
    if len(available) <= _MAX_LISTED:
        listed = available
        listing = f" The functions are: {', '.join(repr(n) for n in available)}."
    else:
        listed = close
        listing = f" There are {len(available):,} functions."
    message = f"There is no function named {shown!r}.{hint}{listing}"
    expected = f"({' | '.join(json.dumps(n) for n in listed)})" if listed else "a function name"
    issue = ValidationIssue("$name", expected, shown, message)
    return CallResult(
        name=shown, success=False, validation=ValidationFailure(shown, [issue]), feedback=message
    )


def close_names(text: str, available: list[str]) -> list[str]:
    """At most three names of ``available`` close to ``text`` (a bounded search)."""
    # difflib (and heapq under it) is imported here, on this error path only: at the
    # top every program's ``from llmapp import application`` would pay for it.
    import difflib

    if len(available) > MAX_COMPARED_NAMES:
        # A model's wrong name costs a bounded search: names of its first letter only.
        first = text[:1].lower()
        available = [n for n in available if n[:1].lower() == first][:MAX_COMPARED_NAMES]
    return difflib.get_close_matches(text, available, n=3, cutoff=0.5)
