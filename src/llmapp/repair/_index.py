"""What one schema tells ``coerce``, read once and remembered: the schema side of a repair.

A ``SchemaIndex`` answers, for any subschema of its root (by identity), what ``coerce``
asks of it: the schema with ``$ref`` followed and ``allOf`` merged (``resolve``), the
JSON types it accepts (``kinds``), the enum members a string names (``names``), the schema
of a property or an item, the branch of a union a value belongs to (``choose``). Every
answer depends on the schema alone, so it is computed on first use and kept for the next
call; the data being repaired is never kept.

``exact_when_valid`` says whether a value the validator accepts is always left as it is
(see ``_unsafe_union``): then the valid arguments of a call need no repair walk at all.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from typing import Any, Final

from llmapp._patterns.matching import Matcher, PatternError, compile_pattern
from llmapp.jsonschema import (
    JSON_TYPES,
    Discriminator,
    Resolver,
    declared_types,
    discriminator,
    enum_names,
    json_type,
)

__all__ = ["ANY", "Kinds", "SchemaIndex"]

ANY: Final[Mapping[str, Any]] = {}
_JSON_KINDS: Final = frozenset(JSON_TYPES)
_SUBSCHEMA_KEYS: Final = ("additionalProperties", "items", "additionalItems", "not")
_SUBSCHEMA_LISTS: Final = ("prefixItems", "items", "anyOf", "oneOf", "allOf")
_SUBSCHEMA_MAPS: Final = ("properties", "patternProperties", "$defs", "definitions")

Kinds = frozenset[str]
_KIND_OF: Final = {
    dict: "object",
    list: "array",
    str: "string",
    bool: "boolean",
    int: "integer",
    type(None): "null",
}
"""``json_type``'s answer for a value of exactly these types, found by one lookup."""
Pin = tuple[Any, Any, frozenset[str] | None, list[Any] | None]
Pins = tuple[Pin, ...]
"""A branch's properties that list their values: each key, its ``const`` (``_NO_CONST``
without one), its ``enum``'s texts where every value is a ``str`` (one lookup where
``_in_enum`` would compare each), its ``enum`` otherwise (None without one)."""
_NO_CONST: Final = object()


class SchemaIndex:
    """The answers one root schema gives ``coerce``, cached by subschema identity.

    ``lock`` is held by each repair walk: the caches fill on first use, and two threads
    filling them at once could see each other's half-followed ``$ref`` cycles.
    """

    def __init__(self, root: Any) -> None:
        self.root = root
        self.lock = threading.RLock()
        self._resolved: dict[int, Mapping[str, Any]] = {}
        self._kinds: dict[int, Kinds | None] = {}
        self._resolving: set[int] = set()  # schemas being resolved: a $ref cycle stops there
        self._typing: set[int] = set()  # schemas being typed: a recursive union stops there
        self._patterns: dict[str, Matcher | None] = {}
        self._resolver: Resolver | None = None  # indexed on the first $ref met
        self._discriminators: dict[int, Discriminator | None] = {}
        self._pinned: dict[int, Pins] = {}  # ``_pinned_properties``, by branch
        # ``_typed``: each union's branches' kinds, and the branches a JSON type enters
        self._branch_kinds: dict[int, tuple[Kinds | None, ...]] = {}
        self._typed_branches: dict[tuple[int, str | None], tuple[Any, ...]] = {}
        self._exact: bool | None = None
        self._names: dict[int, Mapping[str, Any]] = {}
        self._naming: set[int] = set()  # schemas being named: a recursive union stops there

    # --- properties and items ------------------------------------------------------------

    def item_schema(self, schema: Mapping[str, Any], index: int) -> Any:
        prefix = schema.get("prefixItems")
        items = schema.get("items")
        rest = items
        if isinstance(items, list):  # draft-04 tuple form
            prefix, rest = items, schema.get("additionalItems")
        if isinstance(prefix, list) and index < len(prefix):
            return prefix[index]
        return rest if isinstance(rest, Mapping) else ANY

    def property_schema(self, schema: Mapping[str, Any], key: Any) -> Any:
        properties = schema.get("properties")
        if (type(properties) is dict or isinstance(properties, Mapping)) and key in properties:
            return properties[key]
        patterns = schema.get("patternProperties")
        if patterns is not None and isinstance(patterns, Mapping) and isinstance(key, str):
            for pattern, sub in patterns.items():
                compiled = self._pattern(pattern)
                if compiled is not None and compiled.search(key):
                    return sub
        extra = schema.get("additionalProperties")
        return extra if isinstance(extra, Mapping) else ANY

    def null_means_absent(self, schema: Mapping[str, Any], key: Any, sub: Any) -> bool:
        """A null for an optional declared property that cannot be null: "not given"."""
        properties = schema.get("properties")
        if not isinstance(properties, Mapping) or key not in properties:
            return False
        kinds = self.kinds(sub)
        return kinds is not None and "null" not in kinds

    def _pattern(self, pattern: Any) -> Matcher | None:
        """The validator's own matcher (ECMA-262 rules, bounded cost), None if unusable."""
        if not isinstance(pattern, str):
            return None
        if pattern not in self._patterns:
            try:
                self._patterns[pattern] = compile_pattern(pattern)
            except PatternError:
                self._patterns[pattern] = None
        return self._patterns[pattern]

    # --- choosing a branch of a union ----------------------------------------------------

    def branches(self, schema: Mapping[str, Any]) -> list[Any] | None:
        for keyword in ("anyOf", "oneOf"):
            branches = schema.get(keyword)
            if isinstance(branches, list) and branches:
                return branches
        return None

    def choose(self, value: Any, schema: Mapping[str, Any], branches: list[Any]) -> Any:
        """The one branch the value belongs to, or None when that is not clear."""
        # ``type(...) is dict`` first: the ABC check is slow, and the data is mostly plain.
        mapping = type(value) is dict or isinstance(value, Mapping)
        if mapping:
            chosen = self._by_discriminator(value, schema, branches)
            if chosen is not None:
                return chosen
        typed = self._typed(branches, value)
        if len(typed) == 1:
            return typed[0]
        if mapping and len(typed) > 1:
            tagged = [b for b in typed if self._tags_agree(value, self.resolve(b))]
            if len(tagged) == 1:
                return tagged[0]
        return None

    def enters(self, schema: Mapping[str, Any], branches: list[Any], empty: Any) -> bool:
        """Whether ``choose`` may take a branch of this union for some value of the type of
        ``empty`` (``{}`` or ``[]``): a declared or inferred discriminator for a dict, or a
        branch whose types take that JSON type. False: ``choose`` answers None for every
        such value, whatever it holds."""
        if type(empty) is dict and self._discriminator(schema, branches) is not None:
            return True
        return bool(self._typed(branches, empty))

    def _typed(self, branches: list[Any], value: Any) -> tuple[Any, ...]:
        """The branches whose types accept the value's JSON type (``value_accepted``), in
        order: read once per union and JSON type, the value's type found once, not once
        per branch (and not at all where every branch accepts any type, as before)."""
        every = self._branch_kinds.get(id(branches))
        if every is None:
            every = tuple(map(self.kinds, branches))
            # () where every branch takes any type: no type to find then, as before
            some = any(kinds is not None for kinds in every)
            every = self._branch_kinds[id(branches)] = every if some else ()
        if not every:
            return tuple(branches)
        kind = _KIND_OF.get(type(value)) or json_type(value)
        key = (id(branches), kind)
        typed = self._typed_branches.get(key)
        if typed is None:
            typed = self._typed_branches[key] = tuple(
                branch
                for branch, kinds in zip(branches, every, strict=True)
                if kinds is None or _accepts(kinds, kind)
            )
        return typed

    def _discriminator(self, schema: Mapping[str, Any], branches: list[Any]) -> Any:
        key = id(schema)
        if key not in self._discriminators:
            self._discriminators[key] = discriminator(schema, branches, self.pointer)
        return self._discriminators[key]

    def _by_discriminator(
        self, value: Mapping[str, Any], schema: Mapping[str, Any], branches: list[Any]
    ) -> Any:
        """The branch the value's discriminator property names, declared or inferred."""
        found = self._discriminator(schema, branches)
        if found is None:
            return None
        tag = value.get(found.property)
        index = found.mapping.get(tag) if isinstance(tag, str) else None
        return None if index is None else branches[index]

    def declared_choice(
        self, value: Any, schema: Mapping[str, Any], branches: list[Any]
    ) -> int | None:
        """The index of the branch a declared discriminator names for ``value`` (a dict
        whose tag the mapping holds), or None. ``choose`` takes that branch first, and the
        validator's walker walks that one too (``validate._unions.pick`` reads the same
        declared discriminator), so what one refused under it the other walks."""
        if type(value) is not dict:
            return None
        found = self._discriminator(schema, branches)
        if found is None or not found.declared:
            return None
        tag = value.get(found.property)
        return found.mapping.get(tag) if type(tag) is str else None

    def _tags_agree(self, value: Mapping[str, Any], branch: Mapping[str, Any]) -> bool:
        """False when a property the branch pins down (const/enum) has another value."""
        pins = self._pinned.get(id(branch))
        if pins is None:
            pins = self._pinned[id(branch)] = self._pinned_properties(branch)
        for key, const, texts, enum in pins:
            if key not in value:
                continue
            item = value[key]
            if const is not _NO_CONST and not _same(item, const):
                return False
            if texts is not None:
                if not (type(item) is str and item in texts):  # ``_same`` asks the type
                    return False
            elif enum is not None and not _in_enum(item, enum):
                return False
        return True

    def _pinned_properties(self, branch: Mapping[str, Any]) -> Pins:
        """The properties of a (resolved) branch that list their values (const/enum),
        resolved, in order: ``_tags_agree`` reads these alone for every object it asks of."""
        properties = branch.get("properties")
        if not isinstance(properties, Mapping):
            return ()
        pins: list[Pin] = []
        for key, prop in properties.items():
            resolved = self.resolve(prop)
            enum = resolved.get("enum")
            if "const" in resolved or isinstance(enum, list):
                const = resolved.get("const", _NO_CONST)
                if not isinstance(enum, list):
                    pins.append((key, const, None, None))
                elif all(type(option) is str for option in enum):
                    pins.append((key, const, frozenset(enum), None))
                else:
                    pins.append((key, const, None, enum))
        return tuple(pins)

    # --- schemas -------------------------------------------------------------------------

    def resolve(self, schema: Any) -> Mapping[str, Any]:
        """The schema with ``$ref`` followed and ``allOf`` merged; ``{}`` when unusable."""
        if not (type(schema) is dict or isinstance(schema, Mapping)):
            return ANY
        key = id(schema)
        found = self._resolved.get(key)
        if found is not None:
            return found
        if key in self._resolving:
            return ANY
        self._resolving.add(key)
        try:
            resolved = self._follow(schema)
            if isinstance(resolved.get("allOf"), list):
                resolved = self._merge(resolved)
        finally:
            self._resolving.discard(key)
        self._resolved[key] = resolved
        return resolved

    def _follow(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        """The end of the schema's ``$ref`` chain; ``{}`` (repair nothing) when it has none."""
        ref = schema.get("$ref")
        if not isinstance(ref, str):
            return schema
        target = self._chase(ref)
        return target if isinstance(target, Mapping) else ANY

    def pointer(self, ref: str) -> Any:
        """The schema at the end of a reference's chain, as the validator follows it, or None."""
        return self._chase(ref)

    def _chase(self, ref: str) -> Any:
        if self._resolver is None:
            self._resolver = Resolver(self.root)
        node = self._resolver.chase(ref)
        return None if node is None else node.schema

    def _merge(self, schema: Mapping[str, Any]) -> Mapping[str, Any]:
        """One schema standing for ``allOf``: types intersected, properties united."""
        merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
        for member in schema["allOf"]:
            part = self.resolve(member)
            for keyword, sub in part.items():
                if keyword == "type" and "type" in merged:
                    merged["type"] = sorted(_intersect(_declared(merged), _declared(part)))
                elif keyword == "properties" and isinstance(sub, Mapping):
                    existing = merged.get("properties")
                    base = dict(existing) if isinstance(existing, Mapping) else {}
                    merged["properties"] = {**sub, **base}
                else:
                    merged.setdefault(keyword, sub)
        return merged

    def kinds(self, schema: Any) -> Kinds | None:
        """The JSON types a schema accepts; None when it accepts any type."""
        resolved = self.resolve(schema)
        key = id(resolved)
        if key in self._kinds:
            return self._kinds[key]
        if key in self._typing:
            return frozenset()
        self._typing.add(key)
        try:
            kinds = self._compute_kinds(resolved)
        finally:
            self._typing.discard(key)
        self._kinds[key] = kinds
        return kinds

    def _compute_kinds(self, schema: Mapping[str, Any]) -> Kinds | None:
        kinds: Kinds | None = None
        if "type" in schema:
            kinds = _declared(schema) or None
        elif isinstance(schema.get("enum"), list):
            kinds = frozenset(k for k in map(json_type, schema["enum"]) if k is not None)
        elif "const" in schema:
            kinds = frozenset(k for k in [json_type(schema["const"])] if k is not None)
        branches = self.branches(schema)
        if branches is not None:
            union: Kinds | None = frozenset()
            for branch in branches:
                sub = self.kinds(branch)
                union = None if sub is None or union is None else union | sub
            if union is not None:
                kinds = union if kinds is None else _intersect(kinds, union)
        if kinds is not None and schema.get("nullable") is True:
            kinds |= {"null"}
        return kinds

    # --- enum members by name ---------------------------------------------------------

    def names(self, schema: Any) -> Mapping[str, Any]:
        """The enum members a string names where the schema refuses that string, each
        name with its value (``x-enum-varnames``, read by ``llmapp.jsonschema.enum_names``).

        Empty where the schema may accept any string (a free ``string`` in any branch):
        a name is read as its value only where the string itself is refused. A name that
        is also a string value of the schema, or that names two values (across a union's
        branches), is left out: its meaning is not clear.
        """
        return self.resolved_names(self.resolve(schema))

    def resolved_names(self, resolved: Mapping[str, Any]) -> Mapping[str, Any]:
        """``names`` of a schema ``resolve`` returned (one lookup once known)."""
        key = id(resolved)
        found = self._names.get(key)
        if found is None:
            named: dict[str, list[Any]] = {}
            taken: set[str] = set()
            found = ANY
            if self._collect_names(resolved, named, taken):
                found = {
                    name: values[0]
                    for name, values in named.items()
                    if name not in taken and len(values) == 1
                }
            self._names[key] = found
        return found

    def _collect_names(
        self, schema: Mapping[str, Any], named: dict[str, list[Any]], taken: set[str]
    ) -> bool:
        """Adds the schema's names (``named``) and its string values (``taken``); False
        when it may accept a string that is not one of its values."""
        enum = schema.get("enum")
        if isinstance(enum, list):
            taken.update(value for value in enum if isinstance(value, str))
            for name, value in zip(enum_names(schema) or (), enum, strict=False):  # or none
                values = named.setdefault(name, [])
                if not _in_enum(value, values):
                    values.append(value)
            return True
        if "const" in schema:
            if isinstance(schema["const"], str):
                taken.add(schema["const"])
            return True
        branches = self.branches(schema)
        if branches is None:
            kinds = self.kinds(schema)
            return kinds is not None and "string" not in kinds
        key = id(schema)
        if key in self._naming:
            return True  # the cycle adds nothing its first visit does not
        self._naming.add(key)
        try:
            return all(
                self._collect_names(self.resolve(branch), named, taken) for branch in branches
            )
        finally:
            self._naming.discard(key)

    # --- whether valid values are left alone ----------------------------------------------

    def exact_when_valid(self) -> bool:
        """Whether ``coerce`` leaves every value the validator accepts exactly as it is.

        It does unless a union may be entered by a branch the value was not valid under
        (``_unsafe_union``): elsewhere a repair is made only where the schema at that
        place accepts no value of the value's JSON type, so the validator rejects it.
        """
        if self._exact is None:
            with self.lock:  # it fills the caches a repair walk reads
                try:
                    self._exact = not any(
                        self._unsafe_union(schema, branches)
                        for schema in self._reachable()
                        if (branches := self.branches(schema)) is not None
                    )
                except Exception:  # a hostile schema: every call takes the full repair walk
                    self._exact = False
        return self._exact

    def _unsafe_union(self, schema: Mapping[str, Any], branches: list[Any]) -> bool:
        """Whether ``choose`` may pick a branch other than one a valid value matches.

        By type it cannot (the other branches refuse the value's type). By tags it can
        where a pinned number compares unequal in Python's types but equal in JSON's
        (``1`` and ``1.0``); by a discriminator, where a tag's branch is not the only
        branch whose pinned values allow that tag.
        """
        pins = [self._pins(branch) for branch in branches]
        if any(_numeric(values) for branch in pins for values in branch.values()):
            return True
        found = self._discriminator(schema, branches)
        if found is None:
            return False
        for tag, index in found.mapping.items():
            for other, branch in enumerate(branches):
                if other == index:
                    continue
                allowed = pins[other].get(found.property)
                if self._may_be_object(branch) and (allowed is None or tag in allowed):
                    return True
        return False

    def _pins(self, branch: Any) -> dict[str, list[Any]]:
        """The values each property of a branch is pinned to (``const``/``enum``)."""
        properties = self.resolve(branch).get("properties")
        if not isinstance(properties, Mapping):
            return {}
        found: dict[str, list[Any]] = {}
        for key, prop in properties.items():
            resolved = self.resolve(prop)
            if "const" in resolved:
                found[key] = [resolved["const"]]
            elif isinstance(resolved.get("enum"), list):
                found[key] = list(resolved["enum"])
        return found

    def _may_be_object(self, branch: Any) -> bool:
        kinds = self.kinds(branch)
        return kinds is None or "object" in kinds

    def _reachable(self) -> Iterator[Mapping[str, Any]]:
        """Every subschema of the root, and every schema a ``$ref`` in them names."""
        seen: set[int] = set()
        pending: list[Any] = [self.root]
        while pending:
            schema = pending.pop()
            if not isinstance(schema, Mapping) or id(schema) in seen:
                continue
            seen.add(id(schema))
            yield schema
            pending.append(self.resolve(schema))
            for keyword in _SUBSCHEMA_KEYS:
                pending.append(schema.get(keyword))
            for keyword in _SUBSCHEMA_LISTS:
                members = schema.get(keyword)
                if isinstance(members, list):
                    pending.extend(members)
            for keyword in _SUBSCHEMA_MAPS:
                members = schema.get(keyword)
                if isinstance(members, Mapping):
                    pending.extend(members.values())


def value_accepted(kinds: Kinds | None, value: Any) -> bool:
    """Whether a schema of these types accepts the value's JSON type (None accepts anything)."""
    return kinds is None or _accepts(kinds, json_type(value))


def _accepts(kinds: Kinds, kind: str | None) -> bool:
    """Whether a schema of these types accepts a value of JSON type ``kind``."""
    if kind == "integer":
        return "integer" in kinds or "number" in kinds
    return kind in kinds


def _intersect(left: Kinds, right: Kinds) -> Kinds:
    both = left & right
    if ("number" in left and "integer" in right) or ("integer" in left and "number" in right):
        both |= {"integer"}
    return both


def _declared(schema: Mapping[str, Any]) -> Kinds:
    """The JSON types ``type`` names (unknown names dropped); empty when ``type`` is absent."""
    return (declared_types(schema) or frozenset()) & _JSON_KINDS


def _numeric(values: list[Any]) -> bool:
    return any(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def _same(left: Any, right: Any) -> bool:
    return type(left) is type(right) and left == right


def _in_enum(value: Any, enum: Any) -> bool:
    return isinstance(enum, list) and any(_same(value, option) for option in enum)
