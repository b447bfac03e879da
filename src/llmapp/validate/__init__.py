"""Stage 3: LLM schema -> generated validator that reports every mistake.

``validator(schema)`` writes Python source for the schema (a fast boolean checker
and an issue walker per definition), compiles it once and caches it; calling the
``Validator`` returns ``ValidationSuccess`` or ``ValidationFailure`` with every
``ValidationIssue`` (path, expected, value). Building compiles the checkers only; the
walkers are written and compiled when a value first fails. Schemas that cannot be
compiled raise ``SchemaError`` at build time; data never makes a validator raise.
``check_schema(schema)`` raises that very ``SchemaError`` without compiling anything (a
door checks every function's schema at build and compiles each on its first call).

Supported: draft 2020-12 validation keywords (type, enum, const, properties, required,
additionalProperties, patternProperties, propertyNames, min/maxProperties,
dependentRequired, dependentSchemas, prefixItems, items, contains, min/maxContains,
min/maxItems, uniqueItems, the numeric and string keywords, pattern, format, allOf,
anyOf, oneOf, not, if/then/else, $ref/$defs/$anchor/$id), draft 4 to 7 forms
(``definitions``, ``dependencies``, array ``items`` + ``additionalItems``, boolean
``exclusiveMinimum``/``exclusiveMaximum``; ``id`` and "``$ref`` replaces its siblings"
when ``$schema`` names those drafts) and OpenAPI 3.0 (``nullable``, ``discriminator``,
``x-discriminator``, ``int32``/``int64`` formats). Formats asserted: see
``_formats.STRING_FORMATS``; unknown formats are annotations.

Deliberate semantics: bool is never a number; NaN and infinities are not numbers;
3.0 is an integer; objects are dicts with string keys; arrays are lists or tuples;
``contentEncoding: base64`` is asserted.

Bounded cost, for schemas from third parties: patterns are ECMA-262, matched by ``re``
where an analysis of the pattern proves it linear (``_linear``), else by RE2 in linear
time, or (lookaround, backreferences) by ``regex`` with a time limit per search and a
budget per call, past which the value is reported as "pattern could not be checked in
time" or "not checked" (``_patterns``); a schema nested more than 100 levels, or
chaining more than 500 ``$ref``s, is a ``SchemaError`` (``_schema_depth``). Cost follows
the schema's size, not its unfolding: repeated ``allOf``/``anyOf`` branches are written
once, a schema applying more than ``MAX_UNFOLDED`` subschemas to one value once its
``$ref``s are followed is a ``SchemaError`` at the deepest place past it
(``Analysis.unfolded``), a recursive definition one place may meet twice answers once per
value in a call (``_repeats``, ``_runtime.Memo``: past ``Memo.BUDGET`` checks a call
reports the value as not checked), and a path keeps at most ``MAX_ISSUES_PER_PATH``
issues. Bounded
memory: a validator's source leaves ``linecache`` with it, under a file name the next
validator takes again (``_filenames``), the cache of validators keeps the table a fresh
one takes, and schemas holding the same plain ``$defs`` closure share its compiled
functions (``_shared``).

Not supported (the one list; the conformance tests exclude exactly these):

* ``unevaluatedProperties`` / ``unevaluatedItems``: ignored (they need annotation
  tracking across applicators, which the generated code does not keep);
* ``$dynamicRef`` / ``$dynamicAnchor``: resolved statically, like ``$ref``/``$anchor``;
* references to other documents (remote refs, the meta-schemas): ``SchemaError``;
* ``$vocabulary`` and custom meta-schemas: not read;
* formats ``idn-email``, ``idn-hostname``, ``iri``, ``iri-reference``,
  ``uri-template``: accepted as unknown formats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmapp._lazy import lazy_names as _lazy_names

from ._result import (
    UNDEFINED,
    Validation,
    ValidationFailure,
    ValidationIssue,
    ValidationSuccess,
)
from ._schema_error import SchemaError

if TYPE_CHECKING:
    from ._checkable import Proofs, check_schema
    from ._expected import expected_of
    from ._validator import Validator, validator

# The compiler is loaded on first use: building an application's schemas imports the
# result classes (from this package) but compiles no validator until one is called.
_LAZY = {
    "Validator": "._validator",
    "validator": "._validator",
    "expected_of": "._expected",
    "Proofs": "._checkable",
    "check_schema": "._checkable",
}

if not TYPE_CHECKING:  # a misspelled name stays an error for type checkers
    __getattr__, __dir__ = _lazy_names(__name__, _LAZY)


__all__ = [
    "UNDEFINED",
    "Proofs",
    "SchemaError",
    "Validation",
    "ValidationFailure",
    "ValidationIssue",
    "ValidationSuccess",
    "Validator",
    "check_schema",
    "expected_of",
    "validator",
]
