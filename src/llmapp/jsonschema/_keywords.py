"""The one table of JSON-Schema keywords that llmapp reads.

Every list of keywords elsewhere (which ones hold subschemas, which ones constrain a
value, which type family each constrains, the label an expected text gives them) is
derived from ``KEYWORDS``: adding a keyword is adding a row here, and a stage that
needs more (the validator's check builders) keys its own table by these names.

Row order matters where noted: among keywords holding subschemas, a walk visits
single subschemas first, then lists, then maps, each group in row order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, NamedTuple

__all__ = [
    "ANNOTATION",
    "APPLICATOR",
    "ASSERTION",
    "CORE",
    "KEYWORDS",
    "Keyword",
    "Kind",
    "Shape",
    "keywords",
]

Kind = Literal["core", "applicator", "assertion", "annotation"]
Shape = Literal["schema", "schema-list", "schema-map", "schema-or-list"]
Family = Literal["object", "array", "string", "number"]

CORE: Kind = "core"
APPLICATOR: Kind = "applicator"
ASSERTION: Kind = "assertion"
ANNOTATION: Kind = "annotation"


class Keyword(NamedTuple):
    """One keyword (a named tuple: rows are read at import, where a dataclass's
    generated methods cost more than the whole table).

    Attributes:
        name: the keyword as schemas spell it.
        kind: ``core`` (identifiers, references, definitions), ``applicator`` (applies
            subschemas), ``assertion`` (judges the value itself) or ``annotation``.
        family: the JSON type family it constrains (``None``: values of any type).
        shape: what its value holds when it holds subschemas (``None``: no subschema).
        label: the name an expected text gives it (``integer & Minimum<1>``), if any.
    """

    name: str
    kind: Kind
    family: Family | None = None
    shape: Shape | None = None
    label: str | None = None

    @property
    def validates(self) -> bool:
        """Whether the keyword can make a value invalid (a schema without such
        keywords accepts anything)."""
        return self.kind in (APPLICATOR, ASSERTION) or self.name in ("$ref", "$dynamicRef")


_ROWS = (
    # Keywords holding subschemas; their order is the walk order (see the docstring).
    Keyword("additionalProperties", APPLICATOR, "object", "schema"),
    Keyword("prefixItems", APPLICATOR, "array", "schema-list"),
    Keyword("items", APPLICATOR, "array", "schema-or-list"),
    Keyword("contains", APPLICATOR, "array", "schema"),
    Keyword("propertyNames", APPLICATOR, "object", "schema"),
    Keyword("not", APPLICATOR, None, "schema"),
    Keyword("if", APPLICATOR, None, "schema"),
    Keyword("then", APPLICATOR, None, "schema"),
    Keyword("else", APPLICATOR, None, "schema"),
    Keyword("additionalItems", APPLICATOR, "array", "schema"),
    Keyword("unevaluatedItems", APPLICATOR, "array", "schema"),
    Keyword("unevaluatedProperties", APPLICATOR, "object", "schema"),
    Keyword("contentSchema", ANNOTATION, "string", "schema"),
    Keyword("allOf", APPLICATOR, None, "schema-list"),
    Keyword("anyOf", APPLICATOR, None, "schema-list"),
    Keyword("oneOf", APPLICATOR, None, "schema-list"),
    Keyword("properties", APPLICATOR, "object", "schema-map"),
    Keyword("patternProperties", APPLICATOR, "object", "schema-map"),
    Keyword("$defs", CORE, None, "schema-map"),
    Keyword("definitions", CORE, None, "schema-map"),
    Keyword("dependentSchemas", APPLICATOR, "object", "schema-map"),
    Keyword("dependencies", APPLICATOR, "object", "schema-map"),
    # References and identifiers.
    Keyword("$ref", CORE),
    Keyword("$dynamicRef", CORE),
    Keyword("$id", CORE),
    Keyword("id", CORE),
    Keyword("$anchor", CORE),
    Keyword("$dynamicAnchor", CORE),
    Keyword("$schema", CORE),
    Keyword("$vocabulary", CORE),
    Keyword("$comment", CORE),
    # Assertions, in the order checks are written (enum/const first: most specific).
    Keyword("type", ASSERTION),
    Keyword("enum", ASSERTION),
    Keyword("const", ASSERTION),
    # Bounds: each lower bound before the upper ones, as expected texts list them
    # (``integer & ExclusiveMinimum<0> & Maximum<5>``).
    Keyword("minimum", ASSERTION, "number", label="Minimum"),
    Keyword("exclusiveMinimum", ASSERTION, "number", label="ExclusiveMinimum"),
    Keyword("maximum", ASSERTION, "number", label="Maximum"),
    Keyword("exclusiveMaximum", ASSERTION, "number", label="ExclusiveMaximum"),
    Keyword("multipleOf", ASSERTION, "number", label="MultipleOf"),
    Keyword("minLength", ASSERTION, "string", label="MinLength"),
    Keyword("maxLength", ASSERTION, "string", label="MaxLength"),
    Keyword("pattern", ASSERTION, "string", label="Pattern"),
    Keyword("format", ASSERTION, None, label="Format"),
    Keyword("contentEncoding", ASSERTION, "string", label="ContentEncoding"),
    Keyword("minItems", ASSERTION, "array", label="MinItems"),
    Keyword("maxItems", ASSERTION, "array", label="MaxItems"),
    Keyword("uniqueItems", ASSERTION, "array", label="UniqueItems"),
    Keyword("minContains", ASSERTION, "array", label="MinContains"),
    Keyword("maxContains", ASSERTION, "array", label="MaxContains"),
    Keyword("minProperties", ASSERTION, "object", label="MinProperties"),
    Keyword("maxProperties", ASSERTION, "object", label="MaxProperties"),
    Keyword("required", ASSERTION, "object"),
    Keyword("dependentRequired", ASSERTION, "object"),
    Keyword("nullable", ASSERTION),  # OpenAPI 3.0: adds null to the declared types
    # Annotations.
    Keyword("title", ANNOTATION),
    Keyword("description", ANNOTATION),
    Keyword("default", ANNOTATION),
    Keyword("examples", ANNOTATION),
    Keyword("example", ANNOTATION),
    Keyword("deprecated", ANNOTATION),
    Keyword("readOnly", ANNOTATION),
    Keyword("writeOnly", ANNOTATION),
    Keyword("contentMediaType", ANNOTATION, "string"),
    Keyword("discriminator", ANNOTATION, "object"),
    Keyword("x-discriminator", ANNOTATION, "object"),
    Keyword("x-enum-varnames", ANNOTATION),  # the names of enum's members (``_enum_names``)
    Keyword("x-enumNames", ANNOTATION),
)

KEYWORDS: Mapping[str, Keyword] = {row.name: row for row in _ROWS}
"""Every keyword llmapp reads, by name, in table order."""


def keywords(
    *,
    kind: Kind | None = None,
    family: Family | None = None,
    shape: Shape | None = None,
    labelled: bool = False,
) -> tuple[str, ...]:
    """The names of the rows matching every given criterion, in table order.

    ``shape="schema"`` also matches ``schema-or-list`` and so does ``"schema-list"``,
    since such a keyword (``items``) can hold either.
    """

    def fits(row: Keyword) -> bool:
        if kind is not None and row.kind != kind:
            return False
        if family is not None and row.family != family:
            return False
        if labelled and row.label is None:
            return False
        if shape is None:
            return True
        if row.shape == "schema-or-list" and shape in ("schema", "schema-list"):
            return True
        return row.shape == shape

    return tuple(row.name for row in KEYWORDS.values() if fits(row))
