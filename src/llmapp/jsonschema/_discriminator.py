"""Which property tells the branches of a union of objects apart.

Declared (OpenAPI ``discriminator`` / ``x-discriminator``: its ``mapping``, else each
branch's ``const``/``enum`` for the property, else the referenced definition's name)
or inferred (a property every branch pins to its own string values with ``const`` or
``enum``, as ``kind: Literal["cat"]`` fields give).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from llmapp._limits import MAX_DISCRIMINATOR_PARTS

from ._refs import name_of, ref_name

__all__ = ["Discriminator", "discriminator"]

Resolve = Callable[[str], Any]
"""Follows one ``$ref`` string to the schema it names (None when it names nothing)."""


# A NamedTuple, not a frozen dataclass: a dataclass compiles its methods at import, on
# the way to the first validator of the process.
class Discriminator(NamedTuple):
    """The property that picks a branch, and which branch each value picks.

    Attributes:
        property: the property name.
        mapping: each allowed value and the index of the branch it picks.
        declared: the schema declared it; False when it was inferred.
    """

    property: str
    mapping: Mapping[str, int]
    declared: bool

    def values(self) -> list[str]:
        """The allowed values, in the order of their branches."""
        return sorted(self.mapping, key=lambda value: self.mapping[value])


def discriminator(
    union: Mapping[str, Any], branches: Sequence[Any], resolve: Resolve | None = None
) -> Discriminator | None:
    """The discriminator of a union (``union`` holds the ``anyOf``/``oneOf``), or None.

    Args:
        union: the schema holding the union (its ``discriminator`` is read).
        branches: the union's branches.
        resolve: follows a ``$ref`` string; without it references are not followed.
    """
    parts = [_parts(branch, resolve) for branch in branches]
    spec = union.get("discriminator", union.get("x-discriminator"))
    if isinstance(spec, Mapping) and isinstance(spec.get("propertyName"), str):
        return _declared(spec, branches, parts, resolve)
    return _inferred(parts)


def _declared(
    spec: Mapping[str, Any],
    branches: Sequence[Any],
    parts: list[list[Mapping[str, Any]]],
    resolve: Resolve | None,
) -> Discriminator:
    prop = spec["propertyName"]
    mapping: dict[str, int] = {}
    explicit = spec.get("mapping")
    if isinstance(explicit, Mapping):
        for tag, ref in explicit.items():
            index = _branch_of(ref, branches, resolve) if isinstance(ref, str) else None
            if index is not None:
                mapping.setdefault(str(tag), index)
    for index, branch_parts in enumerate(parts):
        values = _tag_values(branch_parts, prop, resolve)
        if not values and not isinstance(explicit, Mapping):
            ref = branches[index].get("$ref") if isinstance(branches[index], Mapping) else None
            name = ref_name(ref) if isinstance(ref, str) else None
            values = [name] if name is not None else []
        for value in values:
            mapping.setdefault(value, index)
    return Discriminator(prop, mapping, True)


def _inferred(parts: list[list[Mapping[str, Any]]]) -> Discriminator | None:
    if len(parts) < 2:
        return None
    candidates: list[str] = []
    for part in parts[0]:
        properties = part.get("properties")
        if isinstance(properties, Mapping):
            candidates += [name for name in properties if isinstance(name, str)]
    for prop in dict.fromkeys(candidates):
        mapping: dict[str, int] = {}
        for index, branch_parts in enumerate(parts):
            values = _tag_values(branch_parts, prop, None)
            if not values or any(value in mapping for value in values):
                break
            mapping.update(dict.fromkeys(values, index))
        else:
            return Discriminator(prop, mapping, False)
    return None


def _parts(schema: Any, resolve: Resolve | None) -> list[Mapping[str, Any]]:
    """The schema, what its ``$ref`` names, and its ``allOf`` members, flattened."""
    found: list[Mapping[str, Any]] = []
    stack = [schema]
    while stack and len(found) < MAX_DISCRIMINATOR_PARTS:
        current = stack.pop()
        if not isinstance(current, Mapping):
            continue
        found.append(current)
        ref = current.get("$ref")
        if resolve is not None and isinstance(ref, str):
            stack.append(resolve(ref))
        members = current.get("allOf")
        if isinstance(members, list):
            stack.extend(reversed(members))
    return found


def _tag_values(parts: list[Mapping[str, Any]], prop: str, resolve: Resolve | None) -> list[str]:
    for part in parts:
        properties = part.get("properties")
        if not isinstance(properties, Mapping) or prop not in properties:
            continue
        for sub in _parts(properties[prop], resolve):
            if isinstance(sub.get("const"), str):
                return [sub["const"]]
            enum = sub.get("enum")
            if isinstance(enum, list):
                return [value for value in enum if isinstance(value, str)]
    return []


def _branch_of(ref: str, branches: Sequence[Any], resolve: Resolve | None) -> int | None:
    """The index of the branch that is (or refers to) the schema ``ref`` names."""
    target = resolve(ref) if resolve is not None else None
    for index, branch in enumerate(branches):
        if not isinstance(branch, Mapping):
            continue
        own = branch.get("$ref")
        if own == ref:
            return index
        if target is not None and isinstance(own, str) and resolve(own) is target:  # type: ignore[misc]
            return index
    name = ref_name(ref) or name_of(ref)
    for index, branch in enumerate(branches):
        own = branch.get("$ref") if isinstance(branch, Mapping) else None
        if name is not None and isinstance(own, str) and ref_name(own) == name:
            return index
    return None
