"""Compiling generated source into code objects that keep only what generated code needs.

Every validator compiles code of its own, and an application of a thousand functions
keeps thousands of code objects alive. Two parts of each are larger than they need to be:

- **Column positions.** Since Python 3.11 the location table gives every instruction its
  columns as well as its line, so a traceback can underline the failing expression.
  Generated code is read by line (``Validator.source``, a traceback's line), so
  ``compiled`` keeps one entry per run of instructions on one line and no columns: the
  same line for every instruction (``co_lines`` unchanged), a third of the table. A
  traceback through generated code shows its lines without the underline. Code of one
  shape has one table (its lines are relative to ``co_firstlineno``): each is written
  once and shared.
- **String constants.** Each compile makes its own copy of every string literal that is
  not an identifier, and the validators of one application repeat the same paths and
  expected types (``'$input.name'``, ``'string'``). Interned, one copy serves them all.

The tables are checked once at import against a sample (``_LINES_ONLY``): on a Python
whose location table this module does not write (3.10's), the code keeps its own table.

The sets of names generated code tests against (property names, enum values) are
globals, not constants of the code; ``shared_names`` gives the validators of an
application one set of each.
"""

from __future__ import annotations

import hashlib
import sys
from collections import deque
from itertools import groupby
from operator import itemgetter
from types import CodeType

__all__ = ["compiled", "shared_names"]

_NO_COLUMNS = 13
"""The location entry that gives a line and no columns (CPython ``Objects/locations.md``)."""
_NO_LOCATION = 15
_MAX_UNITS = 8
"""Most code units (two bytes each) one location entry covers."""


def compiled(source: str, filename: str) -> CodeType:
    """``compile(source, filename, "exec")``, each code object compacted as above."""
    return _compact(compile(source, filename, "exec"), _LINES_ONLY)


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


def _compact(code: CodeType, lines_only: bool) -> CodeType:
    consts = tuple(
        _compact(value, lines_only)
        if isinstance(value, CodeType)
        else sys.intern(value)
        if type(value) is str
        else value
        for value in code.co_consts
    )
    if lines_only:
        return code.replace(co_consts=consts, co_linetable=_table(code))
    return code.replace(co_consts=consts)


_TABLES: dict[bytes, bytes] = {}
"""Tables written, by a digest of the table they replace: a table gives each line
relative to the one before (and the first to ``co_firstlineno``), so code of the same
shape has the same table, and the validators of an application write the same shapes
again and again (they then share the one table too)."""
_TABLES_SIZE = 1024


def _table(code: CodeType) -> bytes:
    key = hashlib.blake2b(code.co_linetable, digest_size=16).digest()
    table = _TABLES.get(key)
    if table is None:
        if len(_TABLES) >= _TABLES_SIZE:
            _TABLES.clear()  # bounded; the tables in use stay with their code
        table = _TABLES[key] = _lines_only(code)
    return table


def _lines_only(code: CodeType) -> bytes:
    """``code``'s location table with lines alone: a run of instructions on one line
    takes one entry per ``_MAX_UNITS`` code units (``co_lines`` gives its ranges in
    order, each starting where the last ended)."""
    table = bytearray()
    previous = code.co_firstlineno
    for line, ranges in groupby(code.co_lines(), _LINE):
        first = next(ranges)
        last = deque(ranges, maxlen=1)  # noqa: B031 - the rest of the run, read once in C
        units = ((last[0][1] if last else first[1]) - first[0]) // 2
        if not units:
            continue
        whole, rest = divmod(units, _MAX_UNITS)
        if line is None:
            table += _NONE_WHOLE * whole
            if rest:
                table.append(_NONE | rest - 1)
            continue
        step = line - previous
        delta = _SMALL_DELTAS.get(step) or _signed_varint(step)
        previous = line
        if whole:
            table += _LINE_WHOLE + delta + _LINE_WHOLE_SAME * (whole - 1)
            if rest:
                table += _LINE_REST[rest] + b"\0"
        else:
            table += _LINE_REST[rest] + delta
    return bytes(table)


_LINE = itemgetter(2)
_NONE = 0x80 | _NO_LOCATION << 3
_NONE_WHOLE = bytes([_NONE | _MAX_UNITS - 1])
_LINE_REST = [bytes([0x80 | _NO_COLUMNS << 3 | count - 1]) for count in range(1, _MAX_UNITS + 1)]
_LINE_REST.insert(0, b"")
_LINE_WHOLE = _LINE_REST[_MAX_UNITS]
_LINE_WHOLE_SAME = _LINE_WHOLE + b"\0"  # the same line again: a delta of zero


def _signed_varint(value: int) -> bytes:
    """The location table's signed variable-length integer: six bits a byte, low first."""
    value = (-value << 1) | 1 if value < 0 else value << 1
    out = bytearray()
    while value >= 0x40:
        out.append(0x40 | value & 0x3F)
        value >>= 6
    out.append(value)
    return bytes(out)


_SMALL = 32
_SMALL_DELTAS = {step: _signed_varint(step) for step in range(1 - _SMALL, _SMALL)}
"""The line steps written in one byte, written once."""


def _line_of_each_unit(code: CodeType) -> list[tuple[str, dict[int, int | None]]]:
    """Every code object's line for each instruction offset, nested ones included."""
    found = [(code.co_name, {o: line for s, e, line in code.co_lines() for o in range(s, e, 2)})]
    for value in code.co_consts:
        if isinstance(value, CodeType):
            found.extend(_line_of_each_unit(value))
    return found


def _writes_this_python() -> bool:
    """Whether the tables ``_lines_only`` writes give this Python the same lines (3.11's
    format; 3.10's is another, and a later one may be)."""
    if sys.version_info < (3, 11):
        return False
    # Blank lines (as before a validator's code) and a gap: deltas past one byte.
    sample = (
        "\n" * 300
        + "def f(v, e):\n    if not isinstance(v, str):\n        e.append(('$input', v))\n"
        + "    try:\n        x = [i for i in v]\n    except TypeError:\n        return None\n"
        + "\n" * 100
        + "    return x if x else (v and\n        e)\n"
    )
    code = compile(sample, "<sample>", "exec")
    try:
        return _line_of_each_unit(_compact(code, True)) == _line_of_each_unit(code)
    except (ValueError, TypeError):
        return False


_LINES_ONLY = _writes_this_python()
