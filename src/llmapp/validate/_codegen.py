"""Schema -> Python source: two generated functions per node that needs one.

For the root and for every ``$ref`` target the generator writes

* ``c_<Name>(v, d) -> bool``: the fast checker. No issue objects, no path strings,
  returns False at the first mistake. ``Validator`` runs it first.
* ``w_<Name>(v, p, e, d)``: the walker, run only when the checker said no. It
  appends every issue to the caller's list ``e`` (never raises them, never loses
  them across a ``$ref``), with ``p`` the path of ``v``. Subschemas that are
  ``$ref``s are checked first and walked only when invalid, so valid subtrees cost
  one checker call.

The checkers are written first (``checker``: it finds every build problem) and the
walkers only on demand (``walker``, after the first value the checker refused), into
the same namespace, so building a validator compiles only the checkers' share. A
``$ref`` to a definition with no structure (an enum, a bounded scalar) is checked
inline, and so are the items of an array of a definition holding no reference (in the
checker's loop: no call per item); consecutive checker tests merge into one
``if not (... and ...)``.

``d`` counts nested calls into recursive definitions (those on a ``$ref`` cycle);
only those functions test it, so non-recursive schemas pay nothing. Past the limit
the checker raises ``DepthExceeded`` (a cyclic input would otherwise be explored
along every union branch) and the walker records one issue first, then raises; the
``Validator`` catches it. Inline subschemas nested too deeply, union branches and
``not``/``if``/``contains`` subschemas that are not plain expressions get their own
functions.

Data flows one way: ``_analysis`` (what each node is) -> ``_expressions`` (checks as
expressions) -> the writers ``_check`` and ``_walk`` (shared parts in ``_writer``)
-> this module, which only drives them: it owns the emitter, names the helpers the
code calls, and writes queued functions until none is left.
"""

from __future__ import annotations

import builtins
from typing import Any

from llmapp._limits import MAX_UNFOLDED
from llmapp._sentinels import MISSING
from llmapp.jsonschema import step

from .._codegen.source import Emitter, describe
from .._errors import BuildProblem
from . import _runtime, _unions
from ._analysis import Analysis
from ._check import CheckWriter
from ._conditions import Conditions
from ._expressions import Expressions
from ._functions import CHECK, WALK, Functions, Share
from ._result import UNDEFINED, ValidationIssue
from ._schema_error import SchemaError
from ._walk import WalkWriter
from ._writer import Parts

__all__ = ["Generator"]

_HELPERS: dict[str, Any] = {
    "_is_integer": _runtime.is_integer,
    "_is_number": _runtime.is_number,
    "_str_keys": _runtime.str_keys,
    "_as_dict": _runtime.as_dict,
    "_nonstr_keys": _runtime.nonstr_keys,
    "_in_enum": _runtime.in_enum,
    "_json_equal": _runtime.json_equal,
    "_unique": _runtime.unique,
    "_multiple_of": _runtime.multiple_of,
    "_numeric_text": _runtime.numeric_text,
    "_exactly_one": _runtime.exactly_one,
    "_count_true": _runtime.count_true,
    "_passes": _runtime.passes,
    "_items_from": _runtime.items_from,
    "_step": step,
    "_pick": _unions.pick,
    "_tie": _unions.tie,
    "_Issue": ValidationIssue,
    "_UNDEFINED": UNDEFINED,
    "_MISSING": MISSING,
    "_Deep": _runtime.DepthExceeded,
    "_WHOLE": _runtime.WHOLE,
    "_M0": _runtime.MISSED,
    "_within": _runtime.within,
    "_missed": _runtime.missed,
    **{f"_R{at}": _runtime.refusal_at(at) for at in range(_runtime.NAMED_REFUSALS)},
    **{f"_I{at}": _runtime.refusal_in(at) for at in range(_runtime.NAMED_REFUSALS)},
}
"""What generated code calls, under fixed names (a leading ``_``: never a schema's)."""

_BUILTINS = {**vars(builtins), **_HELPERS}
"""The builtins of every validator's code, the helpers among them: a validator's own
namespace then holds only its constants and functions, not a copy of every helper."""

_HELPERS_COMMENT = (
    "# Helpers the functions below call (llmapp.validate._codegen._HELPERS):\n"
    + "".join(f"#   {name} = {describe(value)}\n" for name, value in _HELPERS.items())
)
_RECURSION_COMMENT = (
    "#   _FAILED, _DEEP = ids of the values refused, or too deep, in this validation\n"
    "#   _failed = notes a refused value in _FAILED (llmapp.validate._runtime.FailedValues)\n"
)
# The header's lines, one set of strings for every validator's source in ``linecache``.
_HEADER = (*_HELPERS_COMMENT.splitlines(True), "\n")
_RECURSIVE_HEADER = (*(_HELPERS_COMMENT + _RECURSION_COMMENT).splitlines(True), "\n")


class Generator:
    """Writes the checker and walker source for one root schema."""

    def __init__(self, schema: Any, max_depth: int, share: Share | None = None) -> None:
        self.analysis = analysis = Analysis(schema)
        self.emitter = emitter = Emitter()
        emitter.reserve_all(_HELPERS)
        self.failed = _runtime.FailedValues()
        self.recursive = bool(analysis.recursive)
        if self.recursive:
            emitter.reserve("_FAILED", self.failed.ids)
            emitter.reserve("_DEEP", self.failed.deep)
            emitter.reserve("_failed", self.failed.note)
        self.functions = functions = Functions(emitter, share)
        conditions = Conditions(emitter, analysis.report)
        expressions = Expressions(analysis, functions, conditions)
        parts = Parts(analysis, functions, expressions, conditions, emitter, max_depth)
        self._writers = {CHECK: CheckWriter(parts), WALK: WalkWriter(parts)}

    def checker(self) -> tuple[str, str]:
        """The checkers' source and the root checker's name; raises ``SchemaError``.

        Every build problem is found here: the walkers read the same subschemas. The
        source goes below ``header()``.
        """
        analysis = self.analysis
        unfolded = analysis.unfolded(MAX_UNFOLDED)
        if unfolded is not None:
            reason = (
                f"checking a value would apply more than {MAX_UNFOLDED:,} subschemas once its "
                "$refs are followed (definitions named again and again)"
            )
            raise SchemaError([BuildProblem("#" + unfolded.pointer, reason)])
        name = self.functions.name(analysis.root, CHECK)
        source = self._drain()
        if analysis.problems:
            raise SchemaError(list(self.analysis.problems.values()))
        return source, name

    def namespace(self) -> dict[str, Any]:
        """A new namespace for the generated code: its constants and functions, the
        helpers reached through its builtins."""
        found = {
            name: value for name, value in self.emitter.globals.items() if name not in _HELPERS
        }
        found["__builtins__"] = _BUILTINS
        return found

    def header(self) -> tuple[str, ...]:
        """The lines of the comment naming what each helper of the generated code is
        (the same strings for every validator)."""
        return _RECURSIVE_HEADER if self.recursive else _HEADER

    def walker(self) -> tuple[str, str]:
        """The walkers' source (with any checker they add) and the root walker's name.

        Written on demand, after ``checker``, into the same namespace; build problems
        were all reported by ``checker``.
        """
        name = self.functions.name(self.analysis.root, WALK)
        return self._drain(), name

    def root_expected(self) -> str:
        """The expected text of the whole schema."""
        return self.analysis.expected(self.analysis.root)

    def _drain(self) -> str:
        """Write every queued function; the source written since the last drain, with a
        comment naming the functions shared with other validators it calls."""
        shared = dict(self.functions.shared)
        while (queued := self.functions.next()) is not None:
            node, mode = queued
            writer = self._writers[mode]
            writer.function(node, self.functions.name(node, mode))
            self.emitter.line()
        source = self.emitter.take()
        new = [name for name in self.functions.shared if name not in shared]
        if not new:
            return source
        lines = "".join(
            f"#   {name} in {self.functions.shared[name].__code__.co_filename}\n" for name in new
        )
        return f"{source}# Shared definitions (compiled once, in the validators named):\n{lines}\n"
