"""``validator(schema)``: compile a schema once (cached) into a ``Validator``."""

from __future__ import annotations

import hashlib
import json
import sys
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping
from itertools import repeat
from typing import Any

from llmapp._limits import MAX_ISSUES_PER_PATH
from llmapp.jsonschema import Node

from .._codegen.compact import compiled
from ._codegen import Generator
from ._filenames import Lines, handing_on, register, release, take_serial
from ._functions import CHECK, WALK
from ._inside import outside_where_searched
from ._patterns import (
    Matcher,
    budget_begun,
    budget_ended,
    explain_timeouts,
    forget_timeouts,
)
from ._repeats import repeated
from ._result import Validation, ValidationFailure, ValidationIssue, ValidationSuccess
from ._runtime import (
    MISSED,
    NAMED_REFUSALS,
    WHOLE,
    DepthExceeded,
    Memo,
    Refusal,
    WorkExceeded,
    missed_whole,
    outside,
    refilled,
    refusal_at,
)
from ._schema_depth import depth_problem, too_deep_here
from ._schema_error import SchemaError
from ._shared import Closures

__all__ = ["Validator", "cache_key", "validator"]

Walker = Callable[[Any, str, list[ValidationIssue], int, Refusal], None]
"""A generated walker: (value, path, issues, depth, the checker's refusal) -> None,
appending to issues."""

_CACHE_SIZE = 512
_cache: OrderedDict[bytes, Validator] = OrderedDict()
"""Validators by a digest of their schema's canonical JSON and max depth."""
_lock = threading.Lock()
_walker_lock = threading.RLock()  # a walker may compile the walkers of shared definitions
_table_size = 0
"""``sys.getsizeof(_cache)`` after its last rebuild (``_settle``)."""
_shared: weakref.WeakValueDictionary[str, Validator] = weakref.WeakValueDictionary()
"""Shared definitions (``_shared``) by max depth and closure key, while a validator uses them."""
_shared_lock = threading.RLock()  # compiling one looks up the ones it reaches
_seen: OrderedDict[int, None] = OrderedDict()
"""The hashes of closure keys written out once already: the second schema holding one
shares it."""
_SEEN_SIZE = 4096
_warm: OrderedDict[int, weakref.ref[Validator]] = OrderedDict()
"""The validators whose walkers a refused value compiled, oldest first (``_cool``)."""
_WARM_SIZE = 128


_bare = object.__new__
"""``_bare(ValidationSuccess)`` then its slot set: ``ValidationSuccess(value)`` without the
Python ``__init__``'s frame, which cost more than the object itself on every valid call
(``__call__`` and ``_guarded_call`` build it so, in their own frames: a helper's call
would cost back most of it; ``_refused`` builds its ``ValidationFailure`` so)."""


class Validator:
    """A compiled validator for one schema: call it with a value to get a ``Validation``.

    A call never raises, whatever the value (cycles and hostile objects included): it
    gives ``ValidationSuccess(value)``, or ``ValidationFailure`` with every issue.
    Building writes the fast checkers and the issue walkers, and compiles the checkers
    only; the walkers are compiled the first time a value fails, into the same
    namespace and under the same ``filename``. Writing both at once lets the generator
    go with the build instead of living in every validator until its first failure.
    Definitions whose closure other schemas hold too are compiled once, in a validator
    of their own, and called from every validator that holds them (``_shared``). The
    source stays in ``linecache`` while the validator lives, compressed
    (``_filenames.Lines``: the validator keeps that very object, not a copy), and is read
    out when a traceback or ``source`` asks.

    Attributes:
        schema: the schema it was compiled from.
        filename: the name the source is registered under in ``linecache``.
        max_depth: the nesting limit for recursive schemas.
    """

    __slots__ = (
        "__weakref__",
        "_bounded",
        "_check",
        "_checkers",
        "_checks_guarded",
        "_expected",
        "_failed",
        "_guarded",
        "_lines",
        "_memo",
        "_namespace",
        "_searches",
        "_serial",
        "_stems",
        "_subs",
        "_walk",
        "_walker_name",
        "_walkers",
        "filename",
        "max_depth",
        "schema",
    )

    def __init__(
        self, schema: Mapping[str, Any] | bool, *, max_depth: int = 512, shares: str | None = None
    ) -> None:
        self._subs: list[Validator] = []
        generator = Generator(schema, max_depth)
        subs, written, closures = self._subs, set[str](), Closures(generator.analysis)
        generator.functions.share = lambda node, mode: _share(
            closures, node, mode, max_depth, subs, shares, written
        )
        source, check = generator.checker()
        # The walkers are written now and compiled on the first failure: the generator
        # (the schema's analysis, the emitter) is not held by every validator until then.
        walkers, self._walker_name = generator.walker()
        self.schema = schema
        self.max_depth = max_depth
        self._stems = generator.functions.stems
        self._namespace = namespace = generator.namespace()
        remembered = repeated(generator.analysis)
        self._bounded = not self._budgeted()
        if not (self._bounded or remembered):
            # Only the properties whose code may search a budgeted pattern refuse outside.
            unguarded = (sub.filename for sub in self._subs if not sub._guarded)
            shared = generator.functions.shared
            source = outside_where_searched(source, namespace, shared, unguarded)
        header = generator.header()
        self._lines = lines = Lines(header, source, walkers)
        self._checkers = len(header) + len(source.splitlines())
        """How many lines come before the walkers' (``_walker`` compiles from there)."""
        self._serial = serial = take_serial()
        self.filename: str = register(schema, lines, serial)
        # The header is comments only: blank lines in its place keep the line numbers and
        # spare the tokenizer reading them again for every validator.
        exec(compiled("\n" * len(header) + source, self.filename, self._stems.values()), namespace)
        self._memo = _Remembered(remembered, self._stems) if remembered else None
        if self._memo is not None:
            self._memo.wrap(namespace, CHECK)
        self._check: Callable[[Any, int], bool] = namespace[check]
        self._walk: Walker | None = None
        self._walkers: tuple[str, ...] = ()
        """The names the walkers' compile bound in the namespace (``_cool`` unbinds them)."""
        self._expected = generator.root_expected()
        self._failed = generator.failed if generator.recursive else None
        generator.functions.share = None
        # Only a pattern search can give up on a text: without one, nothing to note.
        self._searches = any(isinstance(value, Matcher) for value in namespace.values())
        self._searches |= any(sub._searches for sub in self._subs)
        # ``is_valid`` walks nothing: the recursive checkers' notes are not its concern.
        self._checks_guarded = not self._bounded or self._memo is not None
        if self._checks_guarded:
            _outside_only(namespace, self._memo is not None)
        self._guarded: bool = self._failed is not None or self._checks_guarded

    @property
    def bounded(self) -> bool:
        """Whether a call's cost follows the size of the value alone: no pattern it searches
        may run on the time-limited engine, whose searches may take ``CALL_BUDGET`` seconds."""
        return self._bounded

    @property
    def valid(self) -> Callable[[object], object]:
        """``is_valid`` as a function to keep and call per value: where it needs no pattern
        budget or memo, the checker itself, without ``is_valid``'s own call around it (for
        a recursive schema, with the values its checkers refused before forgotten first:
        ``refusal`` then walks on what this very check noted). A refusal is falsy but not
        always ``False``: a ``Refusal`` (an ``int`` equal to 0) naming where the check
        stopped, which ``refusal(value, refused)`` hands to the walk; test it for truth."""
        if self._checks_guarded:
            return self._guarded_checks
        return self._checks if self._failed is None else self._fresh_checks

    @property
    def checker(self) -> Callable[[object, int], object] | None:
        """The generated checker itself, called as ``checker(value, 0)``: ``valid`` without
        the frame around it, for a caller that calls it per value and catches what it may
        raise (``valid`` answers False there); None where it needs a pattern budget or memo
        around it (``valid`` then)."""
        return None if self._checks_guarded else self._check

    @property
    def source(self) -> str:
        """The generated Python source: checkers, then walkers (also shown in tracebacks),
        then the source of each shared definition it calls (written at build: nothing
        is compiled to show it)."""
        parts, seen, todo = [self._lines.text()], {self.filename}, list(self._subs)
        while todo:
            sub = todo.pop(0)
            if sub.filename not in seen:
                seen.add(sub.filename)
                parts.append(f"\n# ---- shared definitions: {sub.filename} ----\n")
                parts.append(sub._lines.text())
                todo.extend(sub._subs)
        return "".join(parts)

    def __call__(self, value: object) -> Validation:
        """Validate ``value``: the checker, and the walker for a value it refused."""
        if self._guarded:
            return self._guarded_call(value)
        try:
            if outcome := self._check(value, 0):
                success = _bare(ValidationSuccess)  # ``ValidationSuccess(value)`` (``_bare``)
                success._data = value
                return success
        except Exception:
            outcome = False  # DepthExceeded, RecursionError or a hostile object: walked whole
        return self._failure(value, outcome)

    def caller(self) -> Callable[[object], Validation]:
        """``self`` as a bound method to keep and call per value, the same answers: a call
        of an instance goes through a frame the interpreter cannot inline, a call of a
        bound method does not. A new one each call, holding the validator (the validator
        holding it would be a cycle, keeping it past its last reference); a bound method,
        not a closure over the checker, which saved a little more time per call but held
        several times the memory for every function of an application."""
        if self._guarded:
            return self._guarded_call
        return self.__call__

    def refusal(self, value: object, refused: object = False) -> Validation:
        """``self(value)`` for a value ``valid`` has just refused (``refused``: what it
        answered, where a ``Refusal`` tells the walk which properties it found valid):
        the walker's issues, the checker not run again. A recursive schema's walk reads
        what that check noted (``valid`` forgot the older notes first: what
        ``_guarded_call`` would note again);
        a validator with a pattern budget walks within a budget of its own
        (``_budgeted_refusal``; ``is_valid`` forgot the older notes first, as ``valid``
        does); one with a memo runs whole (its work budget spans the check and the walk)."""
        if self._checks_guarded:
            if self._memo is None:
                return self._budgeted_refusal(value, refused)
            return self._guarded_call(value)
        return self._failure(value, refused)

    def _budgeted_refusal(self, value: object, refused: object) -> Validation:
        """``refusal`` where only the pattern budget guards the checks: ``valid``'s check
        had a budget of its own, so the walk gets one too, as ``_guarded_call``'s check
        and walk share one; a walk that finds nothing (a search that gave up in that
        check may not in this walk) is answered by ``_guarded_call``, as before."""
        saved = budget_begun()  # ``PatternBudget``, as plain calls (``_guarded_call``)
        try:
            errors = self._issues(value, refused)
        finally:
            budget_ended(saved)
        if not errors:
            return self._guarded_call(value)
        return self._refused(value, errors)

    def _guarded_call(self, value: object) -> Validation:
        """``__call__`` for code that keeps state across one call: the values recursive
        checkers refused (``_runtime.FailedValues``) are forgotten first, so every id
        noted during the walk is a value of this very input; and the searches that may
        backtrack share one ``PatternBudget`` over the checker and the walker (none is
        entered where no search may: a recursive schema's every call would pay for it)."""
        if self._failed is not None:
            self._failed.ids.clear()  # deep only steers walks, which stay right whatever it holds
        memo = self._memo
        if memo is not None:
            memo.results.clear()
        # ``PatternBudget``'s entry and exit as plain calls: a ``with`` costs more per call.
        budgeted = not self._bounded
        saved = budget_begun() if budgeted else None
        try:
            try:
                if outcome := self._check(value, 0):
                    success = _bare(ValidationSuccess)  # ``ValidationSuccess(value)`` (``_bare``)
                    success._data = value
                    return success
            except Exception:
                outcome = False  # DepthExceeded, RecursionError or a hostile object: walked whole
            return self._failure(value, outcome)
        finally:
            if budgeted:
                budget_ended(saved)
            if memo is not None:
                memo.results.clear()  # the values it holds are the caller's

    def _failure(self, value: object, refused: object) -> ValidationFailure:
        """The failure for a value the checker refused (``refused``: its answer) or could
        not judge (False): every issue."""
        errors = self._issues(value, refused)
        if not errors:
            self._stopped(value, errors, None)
        return self._refused(value, errors)

    def _refused(self, value: object, errors: list[ValidationIssue]) -> ValidationFailure:
        """The failure the walk's ``errors`` make, the checkers' notes forgotten."""
        if self._failed is not None:
            self._failed.clear()  # the walk used what the checkers noted: a fresh start
        if len(errors) > MAX_ISSUES_PER_PATH:  # fewer cannot pass the bound on one path
            errors = _bounded(errors)
        failure = _bare(ValidationFailure)  # ``ValidationFailure(value, errors)`` (``_bare``)
        failure._data = value
        failure._errors = errors
        return failure

    def _refilled(self, value: object) -> Refusal:
        """The root checker's refusal of ``value``, which lacks a required key, naming the
        properties it passes (``_runtime.refilled``): its walk skips them."""
        schema = self.schema
        # ``type(...) is dict`` first: an ABC's ``isinstance`` costs several dict reads.
        if not (type(schema) is dict or isinstance(schema, Mapping)):
            return refilled(self._check, value, None)
        properties = schema.get("properties")
        if not (type(properties) is dict or isinstance(properties, Mapping)):
            properties = ()
        return refilled(self._check, value, schema.get("required"), properties)

    def _issues(self, value: object, refused: object) -> list[ValidationIssue]:
        """The walk's issues, a search that gave up explained; empty when it found none.
        The walk starts where the checker's ``refused`` says it stopped (``Refusal``)."""
        errors: list[ValidationIssue] = []
        if self._searches:
            forget_timeouts()
        # A plain ``False`` (a recursive checker's, an exception's) knows nothing: ``WHOLE``.
        if type(refused) is not Refusal:
            refused = WHOLE
        elif refused is MISSED:
            refused = self._refilled(value)
        try:
            (self._walk or self._warm())(value, "$input", errors, 0, refused)
        except Exception as error:
            self._stopped(value, errors, error)
        if self._searches:
            explain_timeouts(errors)
        return errors

    def is_valid(self, value: object) -> bool:
        """True when ``value`` matches the schema; the fast path, no issues built."""
        if self._checks_guarded:
            return self._guarded_checks(value) is True
        return self._checks(value) is True  # a refusal is False, not the checker's ``Refusal``

    def _guarded_checks(self, value: object) -> bool:
        """The checks within a pattern budget, the memo emptied before and after: the
        checker's own answer (``valid``'s where it needs them)."""
        memo = self._memo
        if memo is not None:
            memo.results.clear()
        checks = self._checks if self._failed is None else self._fresh_checks
        saved = budget_begun()  # ``PatternBudget``, as plain calls (``_guarded_call``)
        try:
            return checks(value)
        finally:
            budget_ended(saved)
            if memo is not None:
                memo.results.clear()

    def _checks(self, value: object) -> bool:
        try:
            return self._check(value, 0)
        except Exception:
            return False

    def _fresh_checks(self, value: object) -> bool:
        """``_checks`` with the refused values of earlier calls forgotten first, as
        ``_guarded_call`` does: every id noted is then a value of this input."""
        self._failed.ids.clear()  # type: ignore[union-attr]
        try:
            return self._check(value, 0)
        except Exception:
            return False

    def issues(self, value: object) -> list[ValidationIssue]:
        """Every issue of ``value`` (empty when it is valid)."""
        if self.is_valid(value):
            return []
        result = self(value)
        return [] if result.success else result.errors

    def _walker(self) -> Walker:
        """The root walker, compiled on first use from the source written at build."""
        with _walker_lock:
            walk = self._walk
            if walk is not None:
                return walk
            # Blank lines first, so the walkers' line numbers match the whole source.
            start = self._checkers
            source = "\n" * start + "".join(self._lines[start:])
            namespace = self._namespace
            before = namespace.copy()
            exec(compiled(source, self.filename, self._stems.values()), namespace)
            if self._memo is not None:
                self._memo.wrap(namespace, WALK)
            self._walkers = tuple(
                name for name, found in namespace.items() if before.get(name) is not found
            )
            written: Walker = namespace[self._walker_name]
            self._walk = written
            return written

    def _warm(self) -> Walker:
        """``_walker`` for a value this validator refused: its walkers are counted among
        the warm ones, and the oldest of those past ``_WARM_SIZE`` go cold (``_cool``).

        An application of a thousand functions, each refused once, would otherwise keep
        a thousand sets of walkers (most of what its validators hold) for failures that
        may not come again; a function whose walkers went cold compiles them again, from
        the same source, at its next refusal."""
        with _walker_lock:
            walk = self._walker()
            _warm[id(self)] = weakref.ref(self)
            _warm.move_to_end(id(self))  # a collected validator's entry may hold its id
            while len(_warm) > _WARM_SIZE:
                oldest = _warm.popitem(False)[1]()
                if oldest is not None and oldest is not self:
                    oldest._cool()
            return walk

    def _cool(self) -> None:
        """Drop the walkers (and the checkers only they call): each name they bound is
        bound to a stand-in that compiles them again and calls the new function, so a
        walk running meanwhile (in another thread) still gets every issue. Only a root
        validator goes cold: the functions of shared definitions are held by the
        validators that call them, and dropping them here would free nothing."""
        self._walk = None
        namespace, me = self._namespace, weakref.ref(self)
        for name in self._walkers:
            namespace[name] = _Cold(me, name)
        if self._memo is not None:
            self._memo.wrapped.difference_update(self._walkers)
        self._walkers = ()

    def _budgeted(self) -> bool:
        """Whether the code searches a pattern that may run on the time-limited engine
        (RE2's patterns too: a text with a lone surrogate goes there)."""
        values = self._namespace.values()
        # ``map`` runs through the namespace (helpers and functions, mostly) in C first.
        if any(map(isinstance, values, repeat(Matcher))) and any(
            isinstance(value, Matcher) and value.engine != "re" for value in values
        ):
            return True
        return any(sub._guarded for sub in self._subs)

    def _function(self, pointer: str, mode: str) -> Any:
        """The checker or walker this validator has for the node at ``pointer``, if any."""
        if mode == WALK:
            self._walker()
        stem = self._stems.get(pointer)
        return None if stem is None else self._namespace.get(_PREFIX[mode] + stem)

    def _stopped(
        self, value: object, errors: list[ValidationIssue], error: Exception | None
    ) -> None:
        """Explain a walk that could not finish (or found nothing the checker refused)."""
        if isinstance(error, DepthExceeded):
            return  # the walker recorded the depth issue before unwinding
        if isinstance(error, WorkExceeded):
            reason = NOT_CHECKED_WORK
        elif isinstance(error, RecursionError):
            reason = "nested too deeply to validate"
        elif error is not None:
            reason = f"could not be validated ({type(error).__name__} while reading the value)"
        else:
            reason = "could not be validated"
        errors.append(ValidationIssue("$input", self._expected, value, reason))

    def __repr__(self) -> str:
        return f"<Validator {self.filename}>"

    def __del__(self) -> None:
        # Not ``weakref.finalize``: that is a registry entry, a weak reference and a
        # record more per validator, and a registry table that stays at its largest.
        try:
            filename, serial, lines = self.filename, self._serial, self._lines
        except AttributeError:
            return  # ``__init__`` stopped before the source was registered
        if callable(release):  # not once the interpreter exits and clears this module
            release(filename, serial, lines)


_PREFIX = {CHECK: "c_", WALK: "w_"}


class _Cold:
    """What a name of a validator's walkers is bound to once they went cold (``_cool``):
    called, it compiles them again and calls the new function (a walk that had begun
    before they went cold calls it)."""

    __slots__ = ("name", "validator")

    def __init__(self, validator: weakref.ref[Validator], name: str) -> None:
        self.validator = validator
        self.name = name

    def __call__(self, *arguments: Any) -> Any:
        found = self.validator()
        if found is None:  # its walk is running, so something holds it
            raise RuntimeError("a validator collected during its own walk")
        found._warm()
        return found._namespace[self.name](*arguments)


NOT_CHECKED_WORK = (
    "not checked: checking this value took more steps than one call may (the schema "
    "checks some of its definitions twice at every level of the value)"
)


def _bounded(errors: list[ValidationIssue]) -> list[ValidationIssue]:
    """The issues without repeats (one place checked twice against one subschema says
    the same thing twice), at most ``MAX_ISSUES_PER_PATH`` per path, in their order; the
    first one past the limit at a path stays, saying how many were left out. Only for a
    list longer than the limit: a shorter one is kept as it is, repeats and all."""
    kept: list[ValidationIssue] = []
    seen: set[tuple[str, str, str | None, int]] = set()
    per_path: dict[str, int] = {}
    past: dict[str, ValidationIssue] = {}
    for issue in errors:
        key = (issue._path, issue._expected, issue._description, id(issue._value))
        if key in seen:
            continue
        seen.add(key)
        count = per_path[issue._path] = per_path.get(issue._path, 0) + 1
        if count <= MAX_ISSUES_PER_PATH:
            kept.append(issue)
        elif count == MAX_ISSUES_PER_PATH + 1:
            past[issue._path] = issue
    if not past:
        return kept if len(kept) < len(errors) else errors
    for path, issue in past.items():
        rest = per_path[path] - MAX_ISSUES_PER_PATH
        reason = f"{rest:,} issues at this path left out, this one among them"
        kept.append(ValidationIssue(path, issue._expected, issue._value, reason))
    return kept


class _Remembered:
    """The definitions whose functions answer once per value in a call (``_repeats``),
    and the one ``Memo`` they share."""

    __slots__ = ("pointers", "results", "stems", "wrapped")

    def __init__(self, pointers: frozenset[str], stems: dict[str, str]) -> None:
        self.pointers = pointers
        self.stems = stems
        self.results = Memo()
        self.wrapped: set[str] = set()

    def wrap(self, namespace: dict[str, Any], mode: str) -> None:
        """Replace the written functions of those definitions by remembering ones (the
        generated code calls them through the namespace)."""
        for pointer in self.pointers:
            stem = self.stems.get(pointer)
            name = None if stem is None else _PREFIX[mode] + stem
            if name is None or name in self.wrapped or name not in namespace:
                continue
            self.wrapped.add(name)
            function = namespace[name]
            memo = self.results
            namespace[name] = memo.check(function) if mode == CHECK else memo.walk(function)


def _share(
    closures: Closures,
    node: Node,
    mode: str,
    max_depth: int,
    subs: list[Validator],
    shares: str | None,
    written: set[str],
) -> Any:
    """The compiled checker or walker of a definition shared with other validators
    (compiled first if none holds it yet), or None to write it here: as the validator
    that ``shares`` that very definition does, and the first to hold it (``written``:
    the pointers this validator writes out)."""
    if node.pointer in written:
        return None
    found = closures.key(node.pointer)
    key = None if found is None else f"{max_depth}:{found}"
    if key is None or key == shares:
        return None
    with _shared_lock:
        sub = _shared.get(key)
        if sub is None:
            if not _seen_before(key):
                written.add(node.pointer)
                return None  # written out here; one more schema holding it and it is shared
            # The definitions it reaches first, leaves first: none compiles inside another.
            for pointer in closures.leaves_first(node.pointer):
                if _definition(closures, pointer, max_depth) is None:
                    return None
            sub = _definition(closures, node.pointer, max_depth)
    if sub is None:
        return None
    function = sub._function(node.pointer, mode)
    if function is not None and sub not in subs:
        subs.append(sub)
    return function


def _seen_before(key: str) -> bool:
    """Whether ``key`` was noted before (it is noted now), in a bounded memory of keys'
    hashes: an application names thousands of definitions once each, and a text kept for
    each would outweigh a number (two keys of one hash share a definition that one
    schema holds: the same answers)."""
    noted = hash(key)
    if noted in _seen:
        return True
    _seen[noted] = None
    while len(_seen) > _SEEN_SIZE:
        _drop_oldest(_seen)
    return False


def _drop_oldest(entries: OrderedDict[Any, Any]) -> None:
    """Remove the oldest entry. ``last`` goes by position: given by keyword, CPython 3.11
    builds its argument parser's tuple of keyword names on the first such call and keeps
    it for good, memory that would first appear with the first validator dropped."""
    entries.popitem(False)


def _definition(closures: Closures, pointer: str, max_depth: int) -> Validator | None:
    """The one validator of the shared definition at ``pointer``'s closure (compiled if
    none is alive), or None when it cannot be compiled (the validator holding it reports
    the problems)."""
    found = closures.key(pointer)
    if found is None:
        return None
    key = f"{max_depth}:{found}"
    with _shared_lock:
        sub = _shared.get(key)
        if sub is None:
            try:
                sub = Validator(closures.schema(pointer), max_depth=max_depth, shares=key)
            except (SchemaError, RecursionError):
                return None
            _shared[key] = sub
        return sub


_KEY_ENCODER = json.JSONEncoder(sort_keys=True, allow_nan=True, check_circular=False)
"""Canonical JSON for cache keys (a cyclic schema ends in RecursionError: no key)."""


def cache_key(schema: Mapping[str, Any] | bool, max_depth: int) -> str | None:
    """The text ``validator`` caches ``schema`` by (None for a schema JSON cannot encode)."""
    try:
        return f"{max_depth}:" + _KEY_ENCODER.encode(schema)
    except (TypeError, ValueError, RecursionError):
        return None


def validator(schema: Mapping[str, Any] | bool, *, max_depth: int = 512) -> Validator:
    """Compile a JSON schema into a ``Validator`` (cached by the schema's canonical JSON).

    Args:
        schema: any JSON schema: a parameters object with ``$defs``, an OpenAPI or MCP
            schema, or a boolean schema. Draft 2020-12 keywords plus OpenAPI 3.0's
            ``nullable``, boolean ``exclusiveMinimum``/``exclusiveMaximum`` and
            ``discriminator``.
        max_depth: how many nested calls into recursive definitions are followed before
            the value is reported as nested too deeply.

    Returns:
        A ``Validator``: ``validator(schema)(value)`` gives a ``Validation``.

    Raises:
        SchemaError: the schema cannot be compiled (every problem listed with its JSON
            pointer), including one nested more than ``MAX_SCHEMA_DEPTH`` (100) levels
            deep. Data never makes it raise.

    Example:
        >>> check = validator({"type": "integer", "minimum": 1})
        >>> check(0).errors[0].expected
        'integer & Minimum<1>'
    """
    text = cache_key(schema, max_depth)
    if text is None:
        return _build(schema, max_depth, None)
    # The cache keeps a digest of the text, not the text: a schema holding a large
    # ``$defs`` closure would otherwise be kept twice, as a schema and as its JSON.
    key = hashlib.blake2b(text.encode(), digest_size=32).digest()
    with _lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    with handing_on():  # the validator dropped here hands its file name on
        with _lock:
            if len(_cache) >= _CACHE_SIZE:
                _drop_oldest(_cache)
        compiled = _build(schema, max_depth, text)
    with _lock:
        _cache[key] = compiled
        while len(_cache) > _CACHE_SIZE:  # other threads filled it meanwhile
            _drop_oldest(_cache)
        _settle()
    return compiled


def _settle() -> None:
    """Rebuild the full cache's table once it has grown past its size when last rebuilt:
    a dict whose keys turn over runs out of slots, and CPython resizes it from the
    entries it holds to twice the table the same entries take when added afresh. (Full,
    the cache's size changes with its table alone, not with one more entry.)"""
    global _table_size
    if len(_cache) == _CACHE_SIZE and sys.getsizeof(_cache) > _table_size:
        entries = list(_cache.items())
        _cache.clear()
        _cache.update(entries)
        _table_size = sys.getsizeof(_cache)


def _build(schema: Mapping[str, Any] | bool, max_depth: int, key: str | None) -> Validator:
    """A new ``Validator``; a schema too deep to compile is a ``SchemaError``, never a
    ``RecursionError`` (schemas come from third parties: MCP servers, OpenAPI documents).
    ``key`` is the schema's cache key (its JSON text), when it has one."""
    try:
        problem = depth_problem(schema, key)
        if problem is None:
            return Validator(schema, max_depth=max_depth)
    except RecursionError:  # within the limits, but called from deep in the caller's stack
        problem = too_deep_here()
    raise SchemaError([problem])


def _outside_only(namespace: dict[str, Any], memo: bool) -> None:
    """Make the checkers in ``namespace`` refuse outside any property (``outside``): where
    a pattern search may give up in the check and not in the walk, or a memo counts the
    work of both, the walk must ask every test it asked before. Bound as globals, the
    names shadow the helpers the code names (``_I0``..., with a memo: else the source
    names ``_R…`` where a search may give up, ``outside_where_searched``), ``_M0`` (a
    missing key's refusal asks the check again on a filled copy, ``refilled``: its
    searches would spend the budget the walk's share), ``_missed`` (a missing key's
    refusal at its rank, ``missed``: a search that gave up in the check before it would
    not be asked again) and the constants it holds (a property past ``NAMED_REFUSALS``:
    rare, all outside)."""
    namespace["_M0"] = WHOLE
    namespace["_missed"] = missed_whole
    if memo:
        for at in range(NAMED_REFUSALS):
            namespace[f"_I{at}"] = refusal_at(at)
    for name, value in list(namespace.items()):
        if type(value) is Refusal:
            namespace[name] = outside(value)
