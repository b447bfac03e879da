"""Tagged unions get a ``discriminator``, so every reader knows which property picks the branch.

A union of object types in which each type pins one property to its own string values
(``kind: Literal["cat"]`` and ``kind: Literal["dog"]``, a pydantic
``Field(discriminator="kind")``, a TypedDict with a ``Literal`` tag) is written with an
OpenAPI ``discriminator``, as pydantic and typia write it::

    {"anyOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
     "discriminator": {"propertyName": "kind",
                       "mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog"}}}

The model reads which values exist; the validator names all of them when the tag is
wrong (``("cat" | "dog")``) instead of explaining one branch; ``coerce`` picks the branch
by it. Branches that are not objects (``null`` in ``Optional[Cat | Dog]``) do not take
part; the union needs two object branches at least. Which property it is, is decided by
``llmapp.jsonschema.discriminator``, the one rule every stage uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from llmapp import jsonschema  # loads its rule when a union may be tagged

__all__ = ["declare_discriminators"]

_NULL = {"type": "null"}


def declare_discriminators(schema: dict[str, Any]) -> None:
    """Add a ``discriminator`` to each tagged union in ``schema`` and its ``$defs`` (in place)."""
    resolver: jsonschema.Resolver | None = None

    def resolve(ref: str) -> Any:
        nonlocal resolver
        if resolver is None:  # indexed only when a union may be tagged
            resolver = jsonschema.Resolver(schema)
        node = resolver.chase(ref)
        return None if node is None else node.schema

    pending: list[Any] = [schema]
    while pending:
        node = pending.pop()
        if not isinstance(node, dict):
            continue
        branches = node.get("anyOf")
        if isinstance(branches, list) and "discriminator" not in node:
            _declare(node, branches, resolve)
        pending.extend(sub for _, sub in jsonschema.subschemas(node))


def _declare(node: dict[str, Any], branches: list[Any], resolve: Any) -> None:
    tagged = [branch for branch in branches if branch != _NULL]
    if len(tagged) < 2:
        return
    found = jsonschema.discriminator({}, tagged, resolve)  # inferred only: {} declares nothing
    if found is None:
        return
    spec: dict[str, Any] = {"propertyName": found.property}
    refs = [branch.get("$ref") if isinstance(branch, Mapping) else None for branch in tagged]
    if all(isinstance(ref, str) for ref in refs):
        spec["mapping"] = {value: refs[index] for value, index in found.mapping.items()}
    node["discriminator"] = spec
