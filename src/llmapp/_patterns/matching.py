"""ECMA-262 patterns (JSON Schema's dialect), translated once and matched at bounded cost.

Every stage that matches a schema pattern (``pattern``, ``patternProperties``, the
validator's and ``coerce``'s alike) calls ``compile_pattern(text)`` and gets a
``Matcher``; ``format: "regex"`` asks ``is_pattern(text)``. The cost of one match is
bounded whatever the pattern and the text:

1. **Python's ``re``** for patterns it provably matches in linear time (``_linear``:
   deterministic, no backreference, anchored or short): most schema patterns
   (``^[A-Z]{3}-\\d+$``), matched on the ``str`` itself. Its ``search`` is ``re``'s own
   (``match`` for an anchored pattern: the same verdict, without the scan for a start),
   and generated code calls that compiled pattern itself (``Matcher.call``).
2. **RE2** (``google-re2``) for the other patterns it can run: linear in the text, never
   backtracks, so ``^(a+)+$`` that makes a backtracking engine take minutes is safe here;
   its binding reads bytes, so each text is encoded to UTF-8 first.
3. **``regex`` with a time limit** for what RE2 cannot run: lookaround, backreferences,
   repeat counts over 1,000, the ``C``/``Cn``/``LC`` categories, and texts holding a
   lone surrogate. A search that runs past ``TIME_LIMIT`` seconds counts as *no match*,
   so the value gets an issue, described as ``TIMED_OUT`` ("pattern could not be
   checked in time"): never a hang, never an exception. Within one validation call
   (a ``PatternBudget``) these searches share ``CALL_BUDGET`` seconds: past it a value
   is not searched at all and its issue says ``NOT_CHECKED``, so a hundred hostile
   items cost the budget, not a hundred time limits, and nothing unchecked passes.
4. None can compile it: ``PatternError``, so the schema is reported at build time.

One translation (``_ecma``) serves every engine, so they read a pattern alike: as
ECMA-262 does, each with its own Unicode tables for ``\\p{...}``.

Matchers are cached by pattern text, bounded by count and by text size; ``is_pattern``
keeps only short verdicts, never a compiled pattern: a model sending many long
``format: "regex"`` strings costs the time to check each (linear in its length), not
memory that grows.
"""

from __future__ import annotations

import functools
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from llmapp._limits import MAX_NOTED_TEXTS
from llmapp._patterns.ecma import (
    BACKTRACKING,
    BACKTRACKING_SYNTAX,
    LINEAR,
    LINEAR_SYNTAX,
    STDLIB,
    Dialect,
    PatternError,
    Unsupported,
    translate,
)
from llmapp._patterns.linear import linear_method
from llmapp._results import ValidationIssue

__all__ = [
    "CALL_BUDGET",
    "NOT_CHECKED",
    "TIMED_OUT",
    "TIME_LIMIT",
    "Matcher",
    "PatternBudget",
    "PatternError",
    "budget_begun",
    "budget_ended",
    "compile_pattern",
    "explain_timeouts",
    "forget_timeouts",
    "is_pattern",
    "translate",
]

TIME_LIMIT = 0.1
"""Seconds one search may take on the backtracking engine before it counts as no match."""
CALL_BUDGET = 0.3
"""Seconds the backtracking engine's searches may take in all, in one ``PatternBudget``."""


# --- engines ------------------------------------------------------------------------------


class Matcher:
    """A compiled pattern: ``search(text)`` is not None when the pattern matches ``text``.

    Attributes:
        pattern: the ECMA-262 pattern.
        linear: True when it runs in linear time (``re`` or RE2), False for the
            time-limited engine.
        engine: ``"re"``, ``"re2"`` or ``"regex"``.
    """

    __slots__ = ("pattern",)
    linear = False
    engine = "regex"

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern

    def search(self, text: str) -> object | None:
        """True when the pattern matches somewhere in ``text``, else None."""
        raise NotImplementedError

    def call(self) -> tuple[object, str]:
        """What generated code calls to search a text: an object and its method's name,
        the method behaving as ``search``."""
        return self, "search"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.pattern!r}>"


class _StdlibMatcher(Matcher):
    """``re``'s own ``search`` (or ``match``) as the attribute: a match costs one C call,
    no copy. Generated code calls the compiled pattern itself: no attribute of a wrapper
    read per match."""

    __slots__ = ("_method", "_program", "search")
    linear = True
    engine = "re"

    def __init__(self, pattern: str, program: re.Pattern[str], method: str) -> None:
        super().__init__(pattern)
        self._program, self._method = program, method
        self.search = getattr(program, method)  # type: ignore[method-assign]

    def call(self) -> tuple[object, str]:
        return self._program, self._method


class _LinearMatcher(Matcher):
    __slots__ = ("_fallback", "_match", "_unanchored")
    linear = True
    engine = "re2"

    def __init__(self, pattern: str, program: Any) -> None:
        super().__init__(pattern)
        self._match = program.Match
        self._unanchored = type(program).Anchor.UNANCHORED
        self._fallback: Matcher | None = None

    def search(self, text: str) -> object | None:
        try:
            encoded = text.encode()
        except UnicodeEncodeError:  # a lone surrogate: not UTF-8, so not for RE2
            if self._fallback is None:
                self._fallback = _backtracking(self.pattern)
            return self._fallback.search(text)
        span = self._match(self._unanchored, encoded, 0, len(encoded))[0]
        return None if span[0] < 0 else span


class _BoundedMatcher(Matcher):
    __slots__ = ("_search",)

    def __init__(self, pattern: str, program: Any) -> None:
        super().__init__(pattern)
        self._search = program.search

    def search(self, text: str) -> object | None:
        state = _STATE
        left = state.left
        if left is not None and left <= 0:
            state.note(text, NOT_CHECKED)
            return None  # the call's budget is spent: reported, never passed unchecked
        started = time.perf_counter()
        try:
            found: object | None = self._search(text, timeout=min(TIME_LIMIT, left or TIME_LIMIT))
        except TimeoutError:
            state.note(text, TIMED_OUT)
            found = None  # "no match": the value is reported, whatever the pattern costs
        if left is not None:
            state.left = left - (time.perf_counter() - started)
        return found


class _State(threading.local):
    """This thread's budget (None outside a ``PatternBudget``) and the texts (by id) its
    searches gave up on since ``forget_timeouts``, with why."""

    def __init__(self) -> None:
        self.left: float | None = None
        self.noted: dict[int, str] = {}

    def note(self, text: str, why: str) -> None:
        if len(self.noted) < MAX_NOTED_TEXTS:
            self.noted.setdefault(id(text), why)


_STATE = _State()
TIMED_OUT = "pattern could not be checked in time"
"""The description of an issue whose value a pattern search gave up on."""
NOT_CHECKED = "pattern not checked: the time for patterns in this call ran out"
"""The description of an issue whose value was not searched, past ``CALL_BUDGET``."""


class PatternBudget:
    """``with PatternBudget():`` one call's time for backtracking searches (``CALL_BUDGET``
    seconds in all); the outer budget is restored on exit (a nested call has its own)."""

    __slots__ = ("_saved",)

    def __enter__(self) -> None:
        self._saved = budget_begun()

    def __exit__(self, *exc_info: object) -> None:
        budget_ended(self._saved)


def budget_begun() -> float | None:
    """``PatternBudget``'s entry as a plain call, for code run per value (a ``with`` builds
    an object and calls two methods from C): the budget it replaced, for ``budget_ended``."""
    state = _STATE
    saved = state.left
    state.left = CALL_BUDGET
    return saved


def budget_ended(saved: float | None) -> None:
    """``PatternBudget``'s exit: the budget ``budget_begun`` replaced, back."""
    _STATE.left = saved


def forget_timeouts() -> None:
    """Start noting afresh, before a walk (ids noted earlier may be of dead texts)."""
    _STATE.noted.clear()


def explain_timeouts(issues: list[ValidationIssue]) -> None:
    """Give ``TIMED_OUT`` or ``NOT_CHECKED`` as description to each issue (in place) whose
    string value a search gave up on, or skipped, during the walk: the value may well
    match, it could not be told."""
    noted = _STATE.noted
    if not noted:
        return
    for index, issue in enumerate(issues):
        value = issue.value
        if isinstance(value, str) and issue.description is None:
            why = noted.get(id(value))
            if why is not None:
                issues[index] = ValidationIssue(issue.path, issue.expected, value, why)
    noted.clear()


class _Engines:
    """RE2 and ``regex``, imported when the first pattern is compiled: an import that
    building an application without patterns never pays."""

    @functools.cached_property
    def re2(self) -> tuple[Any, Any, Any]:
        """RE2's program class, and its options to run patterns and to check syntax."""
        import re2  # type: ignore[import-untyped]
        from re2 import _re2

        def options(max_mem: int) -> Any:
            made = re2.Options()
            made.log_errors = False  # a refused pattern is ours to report, not stderr's
            made.never_capture = True  # only "does it match" is asked: groups cost time
            made.max_mem = max_mem
            return made

        # _re2.RE2, not re2.compile: that one keeps every pattern it saw in its own cache.
        # Checking syntax, a small budget stops the (unneeded) compiling of a long pattern
        # early: RE2 parses the whole pattern first, then says "too large".
        return _re2.RE2, options(8 << 20), options(1 << 16)

    @functools.cached_property
    def regex(self) -> Any:
        import regex  # type: ignore[import-untyped]

        return regex


_ENGINES = _Engines()


def _re2_program(pattern: str, dialect: Dialect, *, syntax: bool = False) -> Any:
    """RE2's compiled program (check ``ok()``), or None when RE2 cannot read it."""
    program, run, check = _ENGINES.re2
    try:
        return program(translate(pattern, dialect).encode(), check if syntax else run)
    except (Unsupported, UnicodeEncodeError):
        return None


def _regex_program(pattern: str, dialect: Dialect) -> Any:
    regex = _ENGINES.regex
    try:
        # cache_pattern=False: the regex module's own cache would keep model-supplied ones.
        return regex.compile(translate(pattern, dialect), regex.V0, cache_pattern=False)
    except (regex.error, OverflowError, RecursionError, MemoryError) as error:
        raise PatternError(f"it cannot be compiled: {error}") from None


def _backtracking(pattern: str) -> Matcher:
    return _BoundedMatcher(pattern, _regex_program(pattern, BACKTRACKING))


def _stdlib_matcher(pattern: str) -> Matcher | None:
    """The ``re`` matcher when ``_linear`` shows it runs in linear time, else None."""
    try:
        translated = translate(pattern, STDLIB)
    except Unsupported:
        return None
    method = linear_method(translated)
    if method is None:
        return None
    try:
        return _StdlibMatcher(pattern, re.compile(translated, re.ASCII), method)
    except (re.error, OverflowError, RecursionError):
        return None  # a lookbehind of varying width, say: another engine reads it


def _compile(pattern: str) -> Matcher:
    stdlib = _stdlib_matcher(pattern)
    if stdlib is not None:
        return stdlib
    program = _re2_program(pattern, LINEAR)
    if program is not None and program.ok():
        return _LinearMatcher(pattern, program)
    return _backtracking(pattern)


def _verdict(text: str) -> bool:
    try:
        program = _re2_program(text, LINEAR_SYNTAX, syntax=True)
    except PatternError:
        return False
    if program is not None and (program.ok() or b"too large" in program.error()):
        return True  # RE2 read it all: a program too large to run is still a pattern
    try:
        _regex_program(text, BACKTRACKING_SYNTAX)
    except PatternError:
        return False
    return True


V = TypeVar("V")


class _BoundedCache(Generic[V]):
    """A thread-safe LRU keyed by pattern text, bounded by entry count and by key size:
    a text longer than ``max_text`` is computed every time and never kept."""

    def __init__(self, entries: int, max_text: int) -> None:
        self._entries = entries
        self._max_text = max_text
        self._data: OrderedDict[str, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str, compute: Callable[[str], V]) -> V:
        if len(text) > self._max_text:
            return compute(text)
        with self._lock:
            if text in self._data:
                self._data.move_to_end(text)
                return self._data[text]
        value = compute(text)
        with self._lock:
            self._data[text] = value
            while len(self._data) > self._entries:
                self._data.popitem(last=False)
        return value


_MATCHERS: _BoundedCache[Matcher] = _BoundedCache(entries=512, max_text=4096)
_VERDICTS: _BoundedCache[bool] = _BoundedCache(entries=1024, max_text=1024)


def compile_pattern(pattern: str) -> Matcher:
    """The one ``Matcher`` for an ECMA-262 pattern, for every stage.

    Raises:
        PatternError: the pattern is not ECMA-262, or no engine here can run it.
    """
    return _MATCHERS.get(pattern, _compile)


def is_pattern(text: str) -> bool:
    """Whether ``text`` is an ECMA-262 pattern (``format: "regex"``); keeps no matcher."""
    return _VERDICTS.get(text, _verdict)
