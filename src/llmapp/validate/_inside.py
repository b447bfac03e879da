"""Which checker refusals may keep naming the property they refused inside where the check
runs under a pattern budget.

A refusal inside a property (``_I3``) sends the walk to that property's issues without its
opening test. Under a pattern budget that is sound only where the property's test can never
run a search that may give up: such a search may give up in the check and not in the walk,
and a skipped test would not note its timeout for ``explain_timeouts``. So, before the
checkers compile, the property code that reaches a budgeted search (a ``Matcher`` not on
``re``, a shared definition whose validator is guarded, or a checker reaching either) has
its ``_I…`` written ``_R…``: only that property's refusal is outside, the others keep theirs.
"""

import re
from collections.abc import Iterable, Mapping

from ._patterns import Matcher

__all__ = ["outside_where_searched"]

_FUNCTION = re.compile(r"^def (\w+)\(", re.MULTILINE)
_NAME = re.compile(r"[A-Za-z_]\w*")
_INSIDE = re.compile(r"\b_I(\d+)\b")


def outside_where_searched(
    source: str, namespace: Mapping[str, object], shared: Iterable[str], unguarded: Iterable[str]
) -> str:
    """``source`` with the inside refusals of every property whose code may search a budgeted
    pattern made outside ones; ``namespace`` binds the constants it names, ``shared`` the
    names of the functions of shared definitions among them, ``unguarded`` the file names
    of the validators holding shared definitions that enter no budget (their checkers,
    unwrapped, are the only shared ones known not to search)."""
    files = set(unguarded)
    unsafe = {name for name, value in namespace.items() if _searches(value)}
    unsafe.update(name for name in shared if _code_file(namespace.get(name)) not in files)
    functions = _functions(source)
    names = {name: _names(lines) for name, lines in functions}
    grown = True
    while grown:  # a checker calling an unsafe one is unsafe: to the fixpoint
        grown = False
        for name, found in names.items():
            if name not in unsafe and not found.isdisjoint(unsafe):
                unsafe.add(name)
                grown = True
    parts = [
        _outside_in(lines, unsafe - {name}) if name in unsafe else lines
        for name, lines in functions
    ]
    return "".join(line for lines in parts for line in lines)


def _searches(value: object) -> bool:
    """Whether ``value``, bound in the namespace, is a pattern search that may give up."""
    return isinstance(value, Matcher) and value.engine != "re"


def _code_file(value: object) -> str | None:
    """The file a function's code was compiled from (a memo's wrapper: this package's)."""
    code = getattr(value, "__code__", None)
    return None if code is None else str(code.co_filename)


def _functions(source: str) -> list[tuple[str, list[str]]]:
    """The source cut before each top-level ``def``: (the function's name, its lines); what
    comes before the first is named ``""``."""
    parts: list[tuple[str, list[str]]] = [("", [])]
    for line in source.splitlines(keepends=True):
        found = _FUNCTION.match(line)
        if found is not None:
            parts.append((found.group(1), []))
        parts[-1][1].append(line)
    return parts


def _names(lines: Iterable[str]) -> set[str]:
    """The identifiers code lines name (comments left out: they name other functions)."""
    return {
        name for line in lines if not line.lstrip().startswith("#") for name in _NAME.findall(line)
    }


def _outside_in(lines: list[str], unsafe: set[str]) -> list[str]:
    """``lines`` of one checker with ``_I{at}`` written ``_R{at}`` in the code of each
    property ``at`` that names an ``unsafe`` name (the checker's own name left out). A
    property's code runs from after the last line of the property before to its own last
    inside refusal (``CheckWriter._object`` sets a property's refusal before its checks)."""
    last: dict[str, int] = {}
    for number, line in enumerate(lines):
        for at in _INSIDE.findall(line):
            last[at] = number
    done, start = list(lines), 0
    for end, at in sorted((end, at) for at, end in last.items()):
        code = lines[start : end + 1]
        if not _names(code).isdisjoint(unsafe):
            named = re.compile(rf"\b_I{at}\b")
            done[start : end + 1] = [named.sub(f"_R{at}", line) for line in code]
        start = end + 1
    return done
