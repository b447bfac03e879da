"""``validator(schema)``: compile a schema once (cached) into a ``Validator``."""

from __future__ import annotations

import itertools
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from .._errors import BuildProblem
from .._source import register
from ._codegen import Generator
from ._patterns import Matcher, PatternBudget, explain_timeouts, forget_timeouts
from ._result import Validation, ValidationFailure, ValidationIssue, ValidationSuccess
from ._runtime import DepthExceeded
from ._schema_depth import MAX_SCHEMA_DEPTH, depth_problem
from ._schema_error import SchemaError

__all__ = ["Validator", "validator"]

Walker = Callable[[Any, str, list[ValidationIssue], int], None]
"""A generated walker: (value, path, issues, depth) -> None, appending to issues."""

_CACHE_SIZE = 512
_cache: OrderedDict[str, Validator] = OrderedDict()
_lock = threading.Lock()
_walker_lock = threading.Lock()
_serial = itertools.count(1)


class Validator:
    """A compiled validator for one schema: call it with a value to get a ``Validation``.

    A call never raises, whatever the value (cycles and hostile objects included): it
    gives ``ValidationSuccess(value)``, or ``ValidationFailure`` with every issue.
    Building writes and compiles the fast checkers only; the issue walkers are written
    and compiled the first time a value fails (or when ``source`` is read), into the
    same namespace and under the same ``filename``.

    Attributes:
        schema: the schema it was compiled from.
        filename: the name the source is registered under in ``linecache``.
        max_depth: the nesting limit for recursive schemas.
    """

    __slots__ = (
        "_check",
        "_expected",
        "_failed",
        "_generator",
        "_guarded",
        "_namespace",
        "_searches",
        "_source",
        "_walk",
        "filename",
        "max_depth",
        "schema",
    )

    def __init__(self, schema: Mapping[str, Any] | bool, *, max_depth: int = 512) -> None:
        generator = Generator(schema, max_depth)
        source, check = generator.checker()
        self.schema = schema
        self.max_depth = max_depth
        self.filename = _register(schema, source)
        self._source = source
        self._namespace = namespace = dict(generator.emitter.globals)
        exec(compile(source, self.filename, "exec"), namespace)
        self._check: Callable[[Any, int], bool] = namespace[check]
        self._walk: Walker | None = None
        self._generator: Generator | None = generator
        self._expected: str | None = None
        self._failed = generator.failed if generator.recursive else None
        self._searches = True  # whether the code searches patterns: known with the walker
        self._guarded = self._failed is not None or _budgeted(namespace)

    @property
    def source(self) -> str:
        """The generated Python source: checkers, then walkers (also shown in tracebacks)."""
        self._walker()
        return self._source

    def __call__(self, value: object) -> Validation:
        """Validate ``value``: the checker, and the walker for a value it refused."""
        if self._guarded:
            return self._guarded_call(value)
        try:
            if self._check(value, 0):
                return ValidationSuccess(value)
        except Exception:
            pass  # DepthExceeded, RecursionError or a hostile object: the walker explains
        return self._failure(value)

    def _guarded_call(self, value: object) -> Validation:
        """``__call__`` for code that keeps state across one call: the values recursive
        checkers refused (``_runtime.FailedValues``) are forgotten first, so every id
        noted during the walk is a value of this very input; and the searches that may
        backtrack share one ``PatternBudget`` over the checker and the walker."""
        if self._failed is not None:
            self._failed.ids.clear()  # deep only steers walks, which stay right whatever it holds
        with PatternBudget():
            try:
                if self._check(value, 0):
                    return ValidationSuccess(value)
            except Exception:
                pass  # DepthExceeded, RecursionError or a hostile object: the walker explains
            return self._failure(value)

    def _failure(self, value: object) -> ValidationFailure:
        """The failure for a value the checker refused (or could not judge): every issue."""
        errors: list[ValidationIssue] = []
        if self._searches:
            forget_timeouts()
        try:
            (self._walk or self._walker())(value, "$input", errors, 0)
        except Exception as error:
            self._stopped(value, errors, error)
        if not errors:
            self._stopped(value, errors, None)
        if self._searches:
            explain_timeouts(errors)
        if self._failed is not None:
            self._failed.clear()  # the walk used what the checkers noted: a fresh start
        return ValidationFailure(value, errors)

    def is_valid(self, value: object) -> bool:
        """True when ``value`` matches the schema; the fast path, no issues built."""
        if self._guarded:
            with PatternBudget():
                return self._checks(value)
        return self._checks(value)

    def _checks(self, value: object) -> bool:
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
        """The root walker, written and compiled on first use."""
        with _walker_lock:
            walk = self._walk
            if walk is not None:
                return walk
            generator = self._generator
            assert generator is not None
            source, name = generator.walker()
            namespace = self._namespace
            for key, value in generator.emitter.globals.items():
                namespace.setdefault(key, value)
            # Blank lines first, so the walkers' line numbers match the whole source.
            offset = "\n" * self._source.count("\n")
            exec(compile(offset + source, self.filename, "exec"), namespace)
            self._source += source
            register(self.filename, self._source)
            self._expected = generator.root_expected()
            # Only a pattern search can give up on a text: without one, nothing to note.
            self._searches = any(isinstance(value, Matcher) for value in namespace.values())
            self._guarded = self._failed is not None or _budgeted(namespace)
            written: Walker = namespace[name]
            self._walk = written
            self._generator = None
            return written

    def _stopped(
        self, value: object, errors: list[ValidationIssue], error: Exception | None
    ) -> None:
        """Explain a walk that could not finish (or found nothing the checker refused)."""
        if isinstance(error, DepthExceeded):
            return  # the walker recorded the depth issue before unwinding
        if isinstance(error, RecursionError):
            reason = "nested too deeply to validate"
        elif error is not None:
            reason = f"could not be validated ({type(error).__name__} while reading the value)"
        else:
            reason = "could not be validated"
        expected = self._expected
        if expected is None:  # the walker could not be written
            generator = self._generator
            expected = generator.root_expected() if generator is not None else "any"
        errors.append(ValidationIssue("$input", expected, value, reason))

    def __repr__(self) -> str:
        return f"<Validator {self.filename}>"


def _budgeted(namespace: Mapping[str, Any]) -> bool:
    """Whether the code searches a pattern that may run on the time-limited engine
    (RE2's patterns too: a text with a lone surrogate goes there)."""
    return any(isinstance(value, Matcher) and value.engine != "re" for value in namespace.values())


def _register(schema: Mapping[str, Any] | bool, source: str) -> str:
    """Put the source in ``linecache`` under a readable name, for tracebacks and pdb."""
    title = schema.get("title") if isinstance(schema, Mapping) else None
    label = "".join(c for c in str(title)[:40] if c.isalnum() or c in "_-") if title else ""
    filename = f"<llmapp-validator-{next(_serial)}{'-' + label if label else ''}>"
    register(filename, source)
    return filename


_KEY_ENCODER = json.JSONEncoder(sort_keys=True, allow_nan=True, check_circular=False)
"""Canonical JSON for cache keys (a cyclic schema ends in RecursionError: no key)."""


def _key(schema: Mapping[str, Any] | bool, max_depth: int) -> str | None:
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
    key = _key(schema, max_depth)
    if key is None:
        return _build(schema, max_depth, None)
    with _lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    compiled = _build(schema, max_depth, key)
    with _lock:
        _cache[key] = compiled
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return compiled


def _build(schema: Mapping[str, Any] | bool, max_depth: int, key: str | None) -> Validator:
    """A new ``Validator``; a schema too deep to compile is a ``SchemaError``, never a
    ``RecursionError`` (schemas come from third parties: MCP servers, OpenAPI documents).
    ``key`` is the schema's cache key (its JSON text), when it has one."""
    try:
        problem = depth_problem(schema, key)
        if problem is None:
            return Validator(schema, max_depth=max_depth)
    except RecursionError:  # within the limits, but called from deep in the caller's stack
        reason = f"too deeply nested to compile here (the limit is {MAX_SCHEMA_DEPTH} levels)"
        problem = BuildProblem("#", reason)
    raise SchemaError([problem])
