"""Compiling generated source into code objects that share what validators repeat.

Every validator compiles code of its own, and an application of a thousand functions
keeps thousands of code objects alive. Each compile makes its own copy of every string
literal that is not an identifier, and the validators of one application repeat the
same paths and expected types (``'$input.name'``, ``'string'``): ``compiled`` interns
them, so one copy serves them all.

The sets of names generated code tests against (property names, enum values) are
globals, not constants of the code; ``shared_names`` gives the validators of an
application one set of each.
"""

from __future__ import annotations

import sys
from types import CodeType

__all__ = ["compiled", "shared_names"]


def compiled(source: str, filename: str) -> CodeType:
    """``compile(source, filename, "exec")``, the string constants of each code object
    interned."""
    return _compact(compile(source, filename, "exec"))


def shared_names(names: frozenset[str]) -> frozenset[str]:
    """``names``, or an equal set that code generated earlier holds (a global of generated
    code is never changed): the validators of an application test keys and enum values
    against the same sets, each 200 B and more. Small sets only, at most
    ``_NAMES_SIZE`` of them remembered, so what stays once no validator holds them is
    bounded."""
    if len(names) > _NAMES_LONGEST:
        return names
    found = _NAMES.get(names)
    if found is None:
        if len(_NAMES) >= _NAMES_SIZE:
            _NAMES.clear()
        found = _NAMES[names] = names
    return found


_NAMES: dict[frozenset[str], frozenset[str]] = {}
_NAMES_SIZE = 512
_NAMES_LONGEST = 32


def _compact(code: CodeType) -> CodeType:
    consts = tuple(
        _compact(value)
        if isinstance(value, CodeType)
        else sys.intern(value)
        if type(value) is str
        else value
        for value in code.co_consts
    )
    return code.replace(co_consts=consts)
