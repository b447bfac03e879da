"""What can be said at each place of a function's arguments while they are being written.

A ``Position`` is one subschema of the model-side parameters seen from the stream: a
*plain* object (``properties``, ``required``, ``additionalProperties`` and nothing else
that judges it) or a plain array (``items``, ``minItems``, ``maxItems``) is checked part by
part as it is written; any other schema is checked whole, by the validator the call step
uses, once its value is complete (``Position.check``). Nothing else is judged early, so
what the stream calls definite is what the validator says of the complete text.

``Positions`` builds them on first use, one per subschema (by identity), for one root.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property
from typing import Any, Final

from llmapp import repair, validate
from llmapp._limits import MAX_STREAM_CHILDREN, MAX_STREAM_HOPS
from llmapp._results import Validation, ValidationIssue, ValidationSuccess
from llmapp.jsonschema import declared_types, resolve_pointer
from llmapp.validate import SchemaError

__all__ = ["ARRAY", "FREE", "OBJECT", "VALUE", "Position", "Positions"]

OBJECT, ARRAY, VALUE, FREE = "object", "array", "value", "free"

_ANNOTATIONS: Final = frozenset(
    {
        "title",
        "description",
        "default",
        "examples",
        "$comment",
        "deprecated",
        "readOnly",
        "writeOnly",
    }
)
_PLAIN_OBJECT: Final = _ANNOTATIONS | {
    "type",
    "properties",
    "required",
    "additionalProperties",
    "$defs",
    "$schema",
}
_PLAIN_ARRAY: Final = _ANNOTATIONS | {"type", "items", "minItems", "maxItems"}
_UNTYPED: Final = ("anyOf", "oneOf", "allOf", "not", "if", "$ref", "nullable")
"""Keywords that make the JSON types a value may have more than ``type`` says."""
_FIRST: Final = {"{": "object", "[": "array", "t": "boolean", "f": "boolean"} | dict.fromkeys(
    "-0123456789", "number"
)
"""The JSON type a value starting with a character has, when no repair can change it (a
string may be repaired, a null may mean "not given")."""
_PYTHON_TYPES: Final = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}
"""The exact Python types of the values json reads for a JSON type (``bool`` is not an
``int`` here, a float that is a whole number is left to the checker)."""


class Position:
    """One subschema as the stream sees it (see the module docstring).

    Attributes:
        schema: the subschema as written at this place (a ``$ref`` included).
        kind: ``OBJECT``/``ARRAY`` (checked part by part), ``VALUE`` (checked whole when
            complete) or ``FREE`` (anything goes).
        accepts: the JSON types a value here may have, or None when that is not plain.
    """

    item: Position
    """The position of an item (set by ``Positions.at`` for an array: read for every item)."""

    def __init__(self, table: Positions, schema: Any) -> None:
        self.table = table
        self.schema = schema
        self.properties: Mapping[str, Any] = {}
        self.required: tuple[str, ...] = ()
        self.needed: frozenset[str] = frozenset()
        """``required`` as a set."""
        self.additional: Any = True
        self.items: Any = True
        self.min_items = 0
        self.max_items: int | None = None
        self._drops: dict[str, bool] = {}
        """``drops_null``'s answers, by declared property."""
        self.children: dict[str, Position | None] = {}
        """Each key's position once asked (``property``: keys of the schema, or of the
        model's text, at most ``MAX_STREAM_CHILDREN`` of those kept); read it directly where a
        call per key counts."""
        self.inner: Position | None = None
        """For ``S | null`` (``anyOf``/``oneOf`` of a schema and null), where ``S`` is a
        plain object or array: an object or array here is ``S``'s, judged part by part
        (the validator walks the one branch that takes it, and repair enters it alike)."""
        resolved = table.resolved(schema)
        self.kind, self.accepts = _kind(resolved)
        if self.kind == VALUE:
            branch = _nullable(resolved, table)
            if branch is not None:
                inner = table.at(branch)
                self.inner = inner if inner.kind in (OBJECT, ARRAY) else None
        if self.kind == OBJECT:
            self.properties = resolved.get("properties", {})
            self.required = tuple(resolved.get("required", ()))
            self.needed = frozenset(self.required)
            self.additional = resolved.get("additionalProperties", True)
        elif self.kind == ARRAY:
            self.items = resolved.get("items", True)
            self.min_items = resolved.get("minItems", 0)
            self.max_items = resolved.get("maxItems")
        # What the stream reads for most members are plain attributes (a cached property is
        # a descriptor on the class, which the interpreter reads the slow way every time):
        # ``refuses`` and ``opened`` made now, ``valid`` and ``free`` at the first value.
        self.refuses = self._refuses()
        """The first characters of a value whose JSON type this place refuses, whatever
        follows (see ``_FIRST``)."""
        self.opened = self._opened()
        """For a container opened here (by ``{`` or ``[``): where it is judged part by part
        (or None) and where it is judged whole when it closes (or None)."""
        self.valid: Callable[[Any], object] = self._first_valid
        """Whether a complete value here is one ``check`` finds nothing in (true), or may
        (false: ask ``check``): the generated checker alone, for the values that pass. Test
        its answer for truth: a refusal may be a ``Refusal`` (an ``int`` equal to 0)."""
        self.passes: Callable[[Any, int], object] = self._first_passes
        """``valid`` as the generated checker itself, called as ``passes(value, 0)``, without
        the frame that catches what it may raise: call it inside a ``try``, and take an
        exception as ``valid``'s False (one Python frame less per value)."""
        self.free: frozenset[type] = frozenset()
        """The exact Python types of the values this place takes whatever they hold (its
        schema says ``type`` and nothing else that judges): such a value needs no call of
        ``valid``. Empty until the first ``valid``."""

    @cached_property
    def expected(self) -> str:
        """The expected text the validator gives a wrong value here."""
        return validate.expected_of(self.schema, self.table.root)

    def _refuses(self) -> frozenset[str]:
        accepts = self.accepts
        if accepts is None:
            return frozenset()
        return frozenset(
            char
            for char, kind in _FIRST.items()
            if kind not in accepts and (kind != "number" or "integer" not in accepts)
        )

    def _opened(self) -> dict[str, tuple[Position | None, Position | None]]:
        made: dict[str, tuple[Position | None, Position | None]] = {}
        for char, kind in (("{", OBJECT), ("[", ARRAY)):
            if self.kind == kind:
                made[char] = (self, None)
            elif self.inner is not None and self.inner.kind == kind:
                made[char] = (self.inner, None)
            else:
                made[char] = (None, self)
        return made

    def property(self, key: str) -> Position | None:
        """The position of ``key``'s value; None when the key must not be there."""
        found = self.children.get(key, self)
        if found is not self:
            return found
        made = self._property(key)
        if len(self.children) < MAX_STREAM_CHILDREN:
            self.children[key] = made
        return made

    def _property(self, key: str) -> Position | None:
        if key in self.properties:
            return self.table.at(self.properties[key])
        if self.additional is False:
            return None
        return self.table.at(True if self.additional is None else self.additional)

    def drops_null(self, key: str) -> bool:
        """Whether the call step reads a null for ``key`` here as "not given" (``repair``'s
        rule: an optional declared property that cannot be null), so that it says nothing."""
        if key not in self.properties:
            return False
        found = self._drops.get(key)
        if found is None:
            found = repair.coercer(self.table.root).drops_null(self.schema, key)
            self._drops[key] = found
        return found

    def expected_of_property(self, key: str) -> str:
        """The expected text of a required key that is missing (``any`` when undeclared)."""
        if key not in self.properties:
            return "any"
        return validate.expected_of(self.properties[key], self.table.root)

    def _free(self) -> frozenset[type]:
        if self._checks is None:
            return frozenset(type_ for types in _PYTHON_TYPES.values() for type_ in types)
        resolved = self.table.resolved(self.schema)
        if not (isinstance(resolved, Mapping) and set(resolved) <= _ANNOTATIONS | {"type"}):
            return frozenset()
        named = resolved.get("type")
        names = [named] if isinstance(named, str) else named
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            return frozenset()
        return frozenset(type_ for name in names for type_ in _PYTHON_TYPES.get(name, ()))

    def _first_valid(self, value: Any) -> object:
        """``valid`` until the checker is made: makes it (``_made``), then asks it."""
        self._made()
        return self.valid(value)

    def _first_passes(self, value: Any, depth: int) -> object:
        """``passes`` until the checker is made: makes it (``_made``), then asks it."""
        self._made()
        return self.passes(value, depth)

    def _made(self) -> None:
        """``valid``, ``passes`` and ``free`` made from the checker."""
        checks = self._checks
        self.free = self._free()
        if checks is None:
            self.valid, self.passes = _anything, _passes_anything
        else:
            self.valid, self.passes = checks[0], checks[2]

    def check(self, value: Any) -> list[ValidationIssue]:
        """What the call step says of ``value`` complete here: repaired where refused,
        then checked, issue paths from ``$input`` (the caller moves them)."""
        checks = self._checks
        if checks is None or checks[0](value):  # the generated checker: most values pass
            return []
        validation = checks[1](value)
        return [] if isinstance(validation, ValidationSuccess) else list(validation.errors)

    @cached_property
    def _checks(
        self,
    ) -> (
        tuple[Callable[[Any], object], Callable[[Any], Validation], Callable[[Any, int], object]]
        | None
    ):
        """The generated checker of this subschema alone, the call step's check of it and
        the checker as ``passes`` calls it; None when it cannot be built (a reference the
        subschema cannot reach on its own): nothing is said here then, nor where anything
        goes."""
        if self.kind == FREE:
            return None
        schema = self.table.standalone(self.schema)
        try:
            check = validate.validator(schema)
        except (SchemaError, RecursionError, ValueError, TypeError):
            return None
        coercion = repair.coercer(schema)
        valid, checker = check.valid, check.checker
        if checker is None:  # guarded: through ``valid``
            checker = lambda value, depth: valid(value)  # noqa: E731
        return valid, lambda value: coercion.checked(value, check), checker


class Positions:
    """The positions of one root schema, made on first use and kept."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self._made: dict[int, tuple[Any, Position]] = {}
        self._standalone: dict[int, Any] = {}

    def at(self, schema: Any) -> Position:
        found = self._made.get(id(schema))
        if found is not None:
            return found[1]
        position = made = Position(self, schema)
        self._made[id(schema)] = (schema, position)  # the schema kept: its id stays its own
        while made.kind == ARRAY:  # each item's position, nested arrays without recursion
            found = self._made.get(id(made.items))
            if found is not None:
                made.item = found[1]
                break
            made.item = made = Position(self, made.items)
            self._made[id(made.schema)] = (made.schema, made)
        return position

    def resolved(self, schema: Any) -> Any:
        """The schema a local ``$ref`` chain written alone leads to; the schema itself when
        it is more than a reference (judged whole, then)."""
        for _ in range(MAX_STREAM_HOPS):
            if not (isinstance(schema, Mapping) and isinstance(schema.get("$ref"), str)):
                return schema
            if not set(schema) <= _ANNOTATIONS | {"$ref"}:
                return schema
            ref: str = schema["$ref"]
            if not ref.startswith("#"):
                return schema
            target = resolve_pointer(self.root, ref, fragment=True)
            if not isinstance(target, (Mapping, bool)):
                return schema
            schema = target
        return schema

    def standalone(self, schema: Any) -> Any:
        """``schema`` as a document of its own: the root's definitions beside it when it
        refers to them, so the validator gives the same texts it gives inside the root."""
        key = id(schema)
        if key not in self._standalone:
            made = schema
            defs = self.root.get("$defs") if isinstance(self.root, Mapping) else None
            if isinstance(schema, Mapping) and defs and "$defs" not in schema and _refers(schema):
                made = {**schema, "$defs": defs}
            self._standalone[key] = made
        return self._standalone[key]


def _anything(value: Any) -> bool:
    return True


def _passes_anything(value: Any, depth: int) -> bool:
    return True


def _nullable(schema: Any, table: Positions) -> Any:
    """``S`` of a schema that is only ``anyOf``/``oneOf`` of ``S`` and null, else None."""
    if not isinstance(schema, Mapping):
        return None
    keywords = set(schema) - _ANNOTATIONS
    if keywords not in ({"anyOf"}, {"oneOf"}):
        return None
    branches = schema[keywords.pop()]
    if not isinstance(branches, list) or len(branches) != 2:
        return None
    nulls = [_is_null(table.resolved(branch)) for branch in branches]
    if nulls.count(True) != 1:
        return None
    return branches[nulls.index(False)]


def _is_null(schema: Any) -> bool:
    return (
        isinstance(schema, Mapping)
        and schema.get("type") == "null"
        and set(schema) <= _ANNOTATIONS | {"type"}
    )


def _kind(schema: Any) -> tuple[str, frozenset[str] | None]:
    if schema is True or (isinstance(schema, Mapping) and set(schema) <= _ANNOTATIONS):
        return FREE, None
    if not isinstance(schema, Mapping):
        return VALUE, None
    keys = set(schema)
    kind = schema.get("type")
    if kind == "object" and keys <= _PLAIN_OBJECT and _plain_object(schema):
        return OBJECT, frozenset({"object"})
    if kind == "array" and keys <= _PLAIN_ARRAY and _plain_array(schema):
        return ARRAY, frozenset({"array"})
    if any(keyword in schema for keyword in _UNTYPED):
        return VALUE, None
    return VALUE, declared_types(schema)


def _plain_object(schema: Mapping[str, Any]) -> bool:
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    additional = schema.get("additionalProperties", True)
    return (
        isinstance(properties, Mapping)
        and all(isinstance(sub, (Mapping, bool)) for sub in properties.values())
        and isinstance(required, list)
        and all(isinstance(key, str) for key in required)
        and isinstance(additional, (Mapping, bool))
    )


def _plain_array(schema: Mapping[str, Any]) -> bool:
    items = schema.get("items", True)
    counts = [schema.get(k, 0) for k in ("minItems", "maxItems")]
    return isinstance(items, (Mapping, bool)) and all(
        type(count) is int and count >= 0 for count in counts
    )


def _refers(schema: Any, depth: int = 0) -> bool:
    """Whether a ``$ref`` appears anywhere in ``schema`` (bounded by the schema's depth)."""
    if depth > 100:
        return True
    if isinstance(schema, Mapping):
        return "$ref" in schema or any(_refers(v, depth + 1) for v in schema.values())
    if isinstance(schema, list):
        return any(_refers(v, depth + 1) for v in schema)
    return False
