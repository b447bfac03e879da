"""Generated Python source: one emitter, and one way to register and compile it.

``Emitter`` writes source a line at a time, with indentation as a context manager,
and keeps the globals the text refers to: values from a schema never enter the
source as text except through ``repr()`` (``literal``); anything else (regexes,
sets, callables) becomes a named global (``constant``), so no schema can inject
code. ``function`` writes a function under a header comment that names what it
checks and shows every constant it uses, so the source reads on its own.
``register`` puts source in ``linecache`` (tracebacks and debuggers show it) and
``compile_function`` compiles a one-function source. Used by the validator's and
the converter's code generators.
"""

from __future__ import annotations

import hashlib
import linecache
import re
import sys
from collections.abc import Callable, Sequence
from functools import lru_cache
from types import CodeType
from typing import Any

from llmapp._codegen.compact import compiled
from llmapp._codegen.fresh import fresh_name

__all__ = ["Emitter", "compile_function", "describe", "literal", "register", "register_lines"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_]")
_WIDTH = 80
"""Merged tests longer than this are written one per line."""


def literal(value: str | int | float | bool | None) -> str:
    """Source text for a plain value: always ``repr`` (strings, numbers, None, bools)."""
    if isinstance(value, float) and value != value:
        raise ValueError("NaN has no literal")
    return repr(value)


class _Block:
    """The indented body of ``Emitter.block``: ``pass`` is added if nothing but comments
    was written."""

    __slots__ = ("_emitter", "_mark")

    def __init__(self, emitter: Emitter) -> None:
        self._emitter = emitter
        self._mark = 0

    def __enter__(self) -> None:
        self._emitter._indented(1)
        self._mark = len(self._emitter._lines)

    def __exit__(self, *exc_info: object) -> None:
        emitter = self._emitter
        if emitter._pending:
            emitter._flush()
        lines, mark = emitter._lines, self._mark
        # A body of comments alone (a subschema that checks nothing, noted) is no body.
        if len(lines) == mark or (
            lines[-1].lstrip().startswith("#")
            and all(line.lstrip().startswith("#") for line in lines[mark:])
        ):
            emitter.line("pass")
        emitter._indented(-1)


class _Function:
    """The body of ``Emitter.function``: its header comments are written on the way out,
    once the constants it uses are known. (A class, not ``contextmanager``: a validator
    writes several functions, and the generator-based manager costs more than the rest.)"""

    __slots__ = ("_block", "_emitter", "_header", "_mark", "_signature", "_used")

    def __init__(self, emitter: Emitter, signature: str, header: str) -> None:
        self._emitter = emitter
        self._signature = signature
        self._header = header
        self._block = _Block(emitter)
        self._mark = 0
        self._used: dict[str, None] = {}

    def __enter__(self) -> None:
        emitter = self._emitter
        if emitter._pending:
            emitter._flush()
        self._mark, self._used = len(emitter._lines), emitter._used
        emitter._used = {}
        emitter.line(f"def {self._signature}:")
        self._block.__enter__()

    def __exit__(self, *exc_info: object) -> None:
        emitter = self._emitter
        try:
            self._block.__exit__(*exc_info)
        finally:
            comments = [f"# {self._header}"] + [
                f"#   {name} = {describe(emitter.globals[name])}" for name in emitter._used
            ]
            emitter._lines[self._mark : self._mark] = [emitter._indent + c for c in comments]
            emitter._used = self._used


class Emitter:
    """Lines of source plus the globals they use."""

    def __init__(self) -> None:
        self._lines: list[str] = []
        self.level = 0
        """How deeply the next line is indented."""
        self._indent = ""
        self._pending: list[str] = []
        self._failed: str | None = None
        self.fail = "return False"
        """The statement a failed test runs (checkers of recursive definitions note it)."""
        self._pending_fail = self.fail
        """``fail`` as it was when the first of the pending tests was written: a merged
        test fails with it (``fail`` may name how far the checks got, and the later tests
        in the merge are not reached when an earlier one fails)."""
        self.globals: dict[str, Any] = {}
        self._taken: set[str] = set()
        self._constants: dict[tuple[type, Any, str], str] = {}
        self._used: dict[str, None] = {}

    def line(self, text: str = "") -> None:
        if self._pending:
            self._flush()
        self._lines.append(self._indent + text if text else "")

    def require(self, test: str, failed: str | None = None) -> None:
        """``if not test: return False`` (or ``fail``), merged with the tests written next to it.

        ``test`` must be an operand of ``and`` as it stands (a comparison, a call, a
        ``not``, a parenthesised expression): consecutive ones become one ``if``. A
        test left on its own is written ``if failed: return False`` when ``failed``
        (its negation, such as ``len(v) != 3``) is given.
        """
        if not self._pending:
            self._pending_fail = self.fail
        self._pending.append(test)
        self._failed = failed

    def fail_with(self, statement: str) -> None:
        """Make ``statement`` the ``fail`` of the tests written from here on, the pending
        ones written first (they fail as before): no test merges across the change."""
        if self._pending:
            self._flush()
        self.fail = statement

    def require_all(self, tests: list[str]) -> None:
        """``require`` each of ``tests`` (operands of ``and``): the value must pass all."""
        if tests:
            if not self._pending:
                self._pending_fail = self.fail
            self._pending.extend(tests)
            self._failed = None

    def _flush(self) -> None:
        tests, self._pending = self._pending, []
        indent, fail = self._indent, self._pending_fail
        if len(tests) == 1:
            failed = self._failed or "not " + tests[0]
            self._lines.append(f"{indent}if {failed}: {fail}")
            return
        joined = " and ".join(tests)
        if len(indent) + len(joined) <= _WIDTH:
            self._lines.append(f"{indent}if not ({joined}): {fail}")
            return
        self._lines.append(f"{indent}if not (")
        self._lines.append(f"{indent}    {tests[0]}")
        self._lines.extend(f"{indent}    and {test}" for test in tests[1:])
        self._lines.append(f"{indent}):")
        self._lines.append(f"{indent}    {fail}")

    def block(self, header: str) -> _Block:
        """``header`` (ending in a colon) and an indented body; ``pass`` if left empty."""
        self.line(header)
        return _Block(self)

    def _indented(self, by: int) -> None:
        self.level += by
        self._indent = "    " * self.level

    def name(self, hint: str) -> str:
        """A fresh identifier derived from ``hint`` (sanitised, never a schema string as-is)."""
        stem = _UNSAFE.sub("_", hint)[:40] or "_"
        if stem[0].isdigit():
            stem = "_" + stem
        # Interned: the generated code's names are, and the namespace's keys and the
        # validators' stems are then those very strings, not a copy for each validator.
        candidate = sys.intern(fresh_name(stem, self._taken))
        self._taken.add(candidate)
        return candidate

    def function(self, signature: str, header: str) -> _Function:
        """``def signature:`` with an indented body, under ``# header`` and one comment
        line per constant the body uses (``#   PATTERN = re.compile('[a-z]+')``)."""
        return _Function(self, signature, header)

    def is_global(self, name: str) -> bool:
        """Whether ``name`` is taken by a global (a constant, helper or function)."""
        return name in self._taken

    def reserve(self, name: str, value: Any) -> str:
        """Register a global under a fixed name (runtime helpers)."""
        self._taken.add(name)
        self.globals[name] = value
        return name

    def reserve_all(self, values: dict[str, Any]) -> None:
        """``reserve`` each name of ``values``."""
        self._taken.update(values)
        self.globals.update(values)

    def constant(self, value: Any, hint: str) -> str:
        """A global holding ``value``; equal hashable values share one name."""
        key: tuple[type, Any, str] | None
        try:
            key = (type(value), value, repr(value))
            hash(key)
        except TypeError:
            key = None
        if key is not None and key in self._constants:
            name = self._constants[key]
        else:
            name = self.name(hint)
            self.globals[name] = value
            if key is not None:
                self._constants[key] = name
        self._used[name] = None
        return name

    def take(self) -> str:
        """The source of the lines written since the last ``take``."""
        if self._pending:
            self._flush()
        lines, self._lines = self._lines, []
        return "\n".join(lines) + "\n" if lines else ""


def describe(value: Any) -> str:
    """One line telling a reader what a global is: a function or class by its
    qualified name, anything else by its ``repr``."""
    if callable(value) and hasattr(value, "__qualname__") and not isinstance(value, re.Pattern):
        return f"{getattr(value, '__module__', '?')}.{value.__qualname__}"
    text = repr(value)
    if len(text) > _DESCRIBED:  # the comment names the value; a long one would grow the source
        text = f"{text[:_DESCRIBED]}... ({len(text):,} characters)"
    return text.replace("\n", "\\n").replace("\r", "\\r")


_DESCRIBED = 400


def register(filename: str, source: str) -> None:
    """Put ``source`` in ``linecache`` under ``filename``, for tracebacks and debuggers."""
    register_lines(filename, source.splitlines(True))


def register_lines(filename: str, lines: Sequence[str], size: int | None = None) -> None:
    """``register`` for source already split into lines (each ending in a newline); the
    sequence itself goes into ``linecache``, so a caller keeping it keeps the source once
    (``size``: its characters, when the caller knows them)."""
    if size is None:
        size = sum(map(len, lines))
    linecache.cache[filename] = (size, None, lines, filename)  # type: ignore[assignment]


@lru_cache(maxsize=1024)
def _code(name: str, source: str, origin: str) -> CodeType:
    """Compiled once per distinct source (the same object type used by many methods
    gives the same source)."""
    digest = hashlib.blake2s(source.encode(), digest_size=4).hexdigest()
    filename = f"<llmapp.{origin} {name} {digest}>"
    register(filename, source)
    return compiled(source, filename)


def compile_function(
    name: str, source: str, namespace: dict[str, Any], *, origin: str
) -> Callable[..., Any]:
    """Compile ``source`` defining function ``name`` with ``namespace`` as its globals.

    The source is registered as ``<llmapp.{origin} {name} {digest}>`` and kept in
    the function's ``__llmapp_source__``.
    """
    scope = dict(namespace)
    exec(_code(name, source, origin), scope)
    function: Callable[..., Any] = scope[name]
    function.__llmapp_source__ = source  # type: ignore[attr-defined]
    return function
