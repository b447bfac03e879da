"""What a builder is given as ``controls=`` (``llmapp.http.application``,
``llmapp.mcp.application``): each function's controls, as a class declares its methods'.

Its own module: it reads both the function record and the controls, and the record
holds the controls.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, TypeVar

from llmapp.kernel._controls import Controls, logger, positive_number
from llmapp.kernel._function import Function

__all__ = ["FunctionControls", "given_controls"]

Fn = TypeVar("Fn", bound=Function)

FunctionControls = Mapping[str, Controls] | Callable[[Any], Controls | None]
"""A builder's ``controls=``: function name -> ``Controls``, or ``function -> Controls | None``
(one rule for many: every DELETE, every tool tagged ``readOnly``)."""


def given_controls(
    functions: Sequence[Fn], given: FunctionControls | None, failed: Collection[str] = ()
) -> tuple[list[Fn], list[tuple[str, str]]]:
    """Each function with its controls, as the class door declares them, and what is wrong.

    A function tagged ``destructive`` (an operation's tag, an MCP tool's
    ``destructiveHint``) waits for approval, as a method tagged ``@tag destructive``
    does, and the build says so once (``llmapp.controls`` at INFO). Then ``given``: a
    mapping's value for a function's name is its controls, whole (``Controls()`` lifts
    an implied approval); a callable gets each function, ``controls`` already holding
    what its tags imply, and answers its controls, or ``None`` to keep them.

    Returns:
        The functions, and ``(name, reason)`` for each mistake a build reports with its
        others: a name of the mapping that is no function (one in ``failed``, a function
        already reported as not built, is not reported again), and a ``decisive`` name
        that is no parameter (that function is left out: its question could not be
        asked as declared).

    Raises:
        TypeError: a value that is not ``Controls``.
        ValueError: a timeout that is not a positive number of seconds.
    """
    problems: list[tuple[str, str]] = []
    names = {function.name for function in functions}
    if isinstance(given, Mapping):
        for name in given:
            if name not in names and name not in failed:
                problems.append((str(name), _no_function(str(name), names)))
    elif given is not None and not callable(given):
        raise TypeError(
            f"controls= takes a mapping of names to Controls or a callable, "
            f"not {type(given).__name__}"
        )
    out: list[Fn] = []
    for function in functions:
        base, implied = function, None
        if function.controls is None and "destructive" in function.tags:
            implied = Controls(approval=True)
            base = function.with_controls(implied)
        chosen = _chosen(base, given)
        problem = _decisive_problem(base, chosen)
        if problem is not None:
            problems.append((function.name, problem))
            continue
        if chosen is not base.controls:
            base = base.with_controls(chosen)
        if implied is not None and base.controls is implied:
            # Said once, at build, as for a method: a tag that stops every call is easy to miss.
            logger.info(
                "%s: tagged destructive: each call waits for a human's approval "
                "(execute(..., approved=True); controls={%r: Controls()} lifts it)",
                function.name,
                function.name,
            )
        out.append(base)
    return out, problems


_LISTED = 10
"""Most function names a build error lists: a document may have thousands."""


def _no_function(name: str, names: set[str]) -> str:
    """Why a name of the mapping is refused, with the names it may have meant."""
    if len(names) <= _LISTED:
        return f"controls= names no function (functions: {', '.join(sorted(names)) or 'none'})"
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    meant = f" (close: {', '.join(close)})" if close else ""
    return f"controls= names no function of the {len(names)}{meant}"


def _chosen(function: Function, given: FunctionControls | None) -> Controls | None:
    """What ``given`` says of ``function``'s controls (its own when it says nothing)."""
    if given is None:
        return function.controls
    chosen = given.get(function.name) if isinstance(given, Mapping) else given(function)
    if chosen is None:
        return function.controls
    if not isinstance(chosen, Controls):
        raise TypeError(
            f"controls= for {function.name!r}: expected llmapp.Controls or None, "
            f"not {type(chosen).__name__}"
        )
    if chosen.timeout is not None and not positive_number(chosen.timeout):
        raise ValueError(
            f"controls= for {function.name!r}: timeout must be a positive number of "
            f"seconds, not {chosen.timeout!r}"
        )
    return chosen


def _decisive_problem(function: Function, chosen: Controls | None) -> str | None:
    """Why ``chosen.decisive`` cannot be shown first, or ``None``: a misspelt name would
    quietly show nothing first (the class door refuses it as ``controls()`` does)."""
    if chosen is None or not chosen.decisive:
        return None
    if isinstance(chosen.decisive, str):
        return f"controls= decisive takes parameter names, not the text {chosen.decisive!r}"
    properties = function.parameters.get("properties")
    known = properties if isinstance(properties, Mapping) else {}
    unknown = [name for name in chosen.decisive if name not in known]
    if not unknown:
        return None
    return f"controls= decisive names {', '.join(map(repr, unknown))}: not parameters"
