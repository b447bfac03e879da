"""``validator(schema)``: compile a schema once (cached) into a ``Validator``."""

from __future__ import annotations

import itertools
import json
import linecache
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any

from ._codegen import Generator
from ._result import Validation, ValidationIssue
from ._runtime import DepthExceeded, make_failure, make_issue, make_success

__all__ = ["Validator", "validator"]

_CACHE_SIZE = 512
_cache: OrderedDict[str, Validator] = OrderedDict()
_lock = threading.Lock()
_serial = itertools.count(1)


class Validator:
    """A compiled validator for one schema: call it with a value to get a ``Validation``.

    Attributes:
        schema: the schema it was compiled from.
        source: the generated Python source (also shown in tracebacks and debuggers).
        filename: the name the source is registered under in ``linecache``.
        max_depth: the nesting limit for recursive schemas.
    """

    __slots__ = ("_check", "_expected", "_walk", "filename", "max_depth", "schema", "source")

    def __init__(self, schema: Mapping[str, Any] | bool, *, max_depth: int = 512) -> None:
        generated = Generator(schema, max_depth).build()
        self.schema = schema
        self.max_depth = max_depth
        self.source = generated.source
        self.filename = _register(schema, generated.source)
        namespace = dict(generated.globals)
        exec(compile(generated.source, self.filename, "exec"), namespace)
        self._check: Callable[[Any, int], bool] = namespace[generated.check]
        self._walk: Callable[[Any, str, list[ValidationIssue], int], None] = namespace[
            generated.walk
        ]
        self._expected = generated.expected

    def __call__(self, value: object) -> Validation:
        """Validate ``value``: ``ValidationSuccess`` or ``ValidationFailure`` with every issue.

        Never raises, whatever the value (cycles and hostile objects included).
        """
        try:
            if self._check(value, 0):
                return make_success(value)
        except Exception:
            pass  # DepthExceeded, RecursionError or a hostile object: the walker explains
        errors: list[ValidationIssue] = []
        try:
            self._walk(value, "$input", errors, 0)
        except Exception as error:
            self._stopped(value, errors, error)
        if not errors:
            self._stopped(value, errors, None)
        return make_failure(value, errors)

    def is_valid(self, value: object) -> bool:
        """True when ``value`` matches the schema; the fast path, no issues built."""
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
        errors.append(make_issue("$input", self._expected, value, reason))

    def __repr__(self) -> str:
        return f"<Validator {self.filename}>"


def _register(schema: Mapping[str, Any] | bool, source: str) -> str:
    """Put the source in ``linecache`` under a readable name, for tracebacks and pdb."""
    title = schema.get("title") if isinstance(schema, Mapping) else None
    label = "".join(c for c in str(title)[:40] if c.isalnum() or c in "_-") if title else ""
    filename = f"<llmapp-validator-{next(_serial)}{'-' + label if label else ''}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    return filename


def _key(schema: Mapping[str, Any] | bool, max_depth: int) -> str | None:
    try:
        return f"{max_depth}:" + json.dumps(schema, sort_keys=True, allow_nan=True)
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
            pointer). Data never makes it raise.

    Example:
        >>> check = validator({"type": "integer", "minimum": 1})
        >>> check(0).errors[0].expected
        'integer & Minimum<1>'
    """
    key = _key(schema, max_depth)
    if key is None:
        return Validator(schema, max_depth=max_depth)
    with _lock:
        found = _cache.get(key)
        if found is not None:
            _cache.move_to_end(key)
            return found
    compiled = Validator(schema, max_depth=max_depth)
    with _lock:
        _cache[key] = compiled
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return compiled
