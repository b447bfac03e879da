"""Which keywords the validator reads, and how: every list derived from ``KEYWORDS``.

The keyword table of ``llmapp.jsonschema`` says what each keyword is (kind, type
family, subschema shape, label). This module sorts its rows the way the generated
code needs them; the few keywords the table alone cannot place are named here, each
with its reason. A new assertion row is a per-value condition unless it is named in
``WRITTEN``: it needs a builder in ``_conditions.BUILDERS`` and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from llmapp.jsonschema import KEYWORDS, is_mapping

__all__ = [
    "APPLICATORS",
    "APPLIED_ORDER",
    "ARRAY_KEYWORDS",
    "CONDITION_KEYWORDS",
    "CONTAINERS",
    "IGNORED",
    "IN_PLACE",
    "KIND_CHECKED",
    "LEAF_ONLY",
    "LOCAL_KEYWORDS",
    "MAP_VALUED",
    "OBJECT_KEYWORDS",
    "REF_SIBLINGS",
    "STRUCTURE",
    "VALIDATING",
    "WRITTEN",
    "closed_object",
    "contains_bounds",
    "has_structure",
    "is_trivial",
    "iterates_keys",
    "labels",
    "object_parts",
]

IGNORED = frozenset(("unevaluatedProperties", "unevaluatedItems"))
"""Applicators the validator does not support (see the package docstring): ignored."""

BESIDE_IF = frozenset(("then", "else"))
"""Applied only beside ``if``: alone they constrain nothing."""

WRITTEN = frozenset(
    ("type", "nullable", "required", "dependentRequired", "minContains", "maxContains")
)
"""Assertions the writers write themselves rather than as one condition each: the type
test, ``nullable`` around it, required keys in the object code, the contains bounds
in the ``contains`` count."""

_REFS = ("$ref", "$dynamicRef")


def _names(**where: Any) -> tuple[str, ...]:
    """The keywords, in table order, whose rows have every given attribute value."""
    return tuple(
        name
        for name, row in KEYWORDS.items()
        if all(getattr(row, field) == value for field, value in where.items())
    )


CONDITION_KEYWORDS = tuple(name for name in _names(kind="assertion") if name not in WRITTEN)
"""Per-value conditions (one expression each, ``_conditions.BUILDERS``), in table order."""

LOCAL_KEYWORDS = ("type", *CONDITION_KEYWORDS)
"""Keywords that judge the value on its own."""

OBJECT_KEYWORDS = tuple(
    name
    for name, row in KEYWORDS.items()
    if row.family == "object" and row.validates and name not in IGNORED
    if name not in LOCAL_KEYWORDS
)
"""Keywords the object code writes (properties, required, patterns, dependencies)."""

ARRAY_KEYWORDS = tuple(
    name for name in _names(kind="applicator", family="array") if name not in IGNORED
)
"""Keywords the array code writes (positional items, the rest, contains)."""

APPLICATORS = (
    *_REFS,
    *(name for name in _names(kind="applicator", family=None) if name not in BESIDE_IF),
)
"""Keywords applying subschemas to the value itself (written after its own checks)."""

_RANK = {name: rank for rank, name in enumerate(KEYWORDS)}


def _applied_rank(name: str) -> tuple[int, int]:
    shape = KEYWORDS[name].shape
    return (0 if shape is None else 1 if shape == "schema-list" else 2, _RANK[name])


APPLIED_ORDER = tuple(sorted(APPLICATORS, key=_applied_rank))
"""The order applicators are written in: references first (a ``$ref``'s target is
the most specific), then the lists (``allOf``, ``anyOf``, ``oneOf``), then ``not``
and ``if``; each group in table order. Walkers report issues in this order."""

VALIDATING = frozenset(OBJECT_KEYWORDS + ARRAY_KEYWORDS + APPLICATORS + LOCAL_KEYWORDS)
"""A schema with none of these accepts every value (annotations, ignored keywords)."""
STRUCTURE = frozenset(OBJECT_KEYWORDS + ARRAY_KEYWORDS + APPLICATORS)
"""Keywords that look inside the value or combine subschemas."""
CONTAINERS = frozenset(OBJECT_KEYWORDS + ARRAY_KEYWORDS)
LEAF_ONLY = STRUCTURE | {"nullable"}
"""A dict schema with none of these keys judges its value on its own (a leaf)."""
IN_PLACE = frozenset(APPLICATORS) | BESIDE_IF
"""Keywords applying a subschema to the same value: a ``$ref`` cycle through these
alone never looks inside the value."""
REF_SIBLINGS = (
    (VALIDATING - set(_REFS)) | {"nullable"} | set(_names(kind="annotation", family="object"))
)
"""Beside a ``$ref``, these make the subschema more than a pointer (the object
annotations are the discriminators, which steer union issues)."""

_READ = STRUCTURE | BESIDE_IF
_DRAFT4_FORMS = frozenset(("additionalItems", "dependencies"))
"""Draft-4 keywords read as their drafts allow (lists and mixed maps): not kind-checked."""


def _kind_group(name: str) -> int:
    shape = KEYWORDS[name].shape
    return 0 if shape == "schema-map" or name == "dependentRequired" else 1 if shape else 2


KIND_CHECKED = tuple(
    sorted(
        (
            name
            for name, row in KEYWORDS.items()
            if name in _READ - _DRAFT4_FORMS
            and (row.shape in ("schema", "schema-map", "schema-or-list") or row.kind == "assertion")
        ),
        key=_kind_group,
    )
)
"""Keywords whose value must be of a certain kind (a map, a schema, a list of names),
in the order problems are reported: maps, then schemas, then ``required``."""
MAP_VALUED = frozenset(name for name in KIND_CHECKED if _kind_group(name) == 0)

_SPECIAL_TEXT = frozenset(
    ("format", "contentEncoding", "uniqueItems", "minContains", "maxContains")
)
"""Labelled keywords that expected texts write by their own rules (``_expected``)."""


def labels(family: str) -> tuple[tuple[str, str], ...]:
    """``(keyword, label)`` of the constraints an expected text lists as ``Label<value>``
    after a type of ``family``, in table order."""
    return tuple(
        (name, row.label)
        for name, row in KEYWORDS.items()
        if row.family == family and row.label is not None and name not in _SPECIAL_TEXT
    )


def is_trivial(schema: Any) -> bool:
    """True for a schema that accepts everything (``true``, ``{}``, annotations only)."""
    if type(schema) is dict:  # the usual case, asked of every subschema written
        return VALIDATING.isdisjoint(schema)
    if schema is True:
        return True
    return is_mapping(schema) and VALIDATING.isdisjoint(schema)


def has_structure(schema: Any) -> bool:
    """True for a schema with keywords that look inside the value or combine subschemas."""
    if type(schema) is dict:
        return not STRUCTURE.isdisjoint(schema)
    return is_mapping(schema) and not STRUCTURE.isdisjoint(schema)


def closed_object(schema: Mapping[str, Any]) -> bool:
    """``additionalProperties: false`` without patterns: extra keys show in ``len``."""
    return schema.get("additionalProperties") is False and "patternProperties" not in schema


_KEYED = frozenset(("patternProperties", "propertyNames"))


def iterates_keys(schema: Mapping[str, Any]) -> bool:
    """Whether the object code visits (or counts) every key, so key types get checked."""
    extra = schema.get("additionalProperties")
    return (extra is not None and extra is not True) or not _KEYED.isdisjoint(schema)


def object_parts(schema: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The ``properties`` (empty when malformed) and the ``required`` names, once each."""
    properties = schema.get("properties")
    required = schema.get("required")
    props = dict(properties) if is_mapping(properties) else {}
    names = (
        [name for name in required if isinstance(name, str)] if isinstance(required, list) else []
    )
    return props, list(dict.fromkeys(names))


def contains_bounds(schema: Mapping[str, Any]) -> tuple[int, int | None]:
    """minContains (default 1) and maxContains (None when absent)."""
    low = schema.get("minContains", 1)
    high = schema.get("maxContains")
    low = int(low) if isinstance(low, (int, float)) and not isinstance(low, bool) else 1
    high = int(high) if isinstance(high, (int, float)) and not isinstance(high, bool) else None
    return low, high
