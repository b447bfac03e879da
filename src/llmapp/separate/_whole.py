"""Human-side values the split cannot keep from the model: inside a schema that stays whole.

The split walks objects, arrays, references and ``Optional[X]``. Anything else (a union of
several schemas, a fixed-length tuple, ``allOf``, ``not``, ``if``, ``patternProperties``...)
goes whole to one side, as the predicate says of the node itself. A human-side node deeper
inside such a schema would then be composed by the model: who would pick the union's
branch, or fill the tuple's slot? ``human_inside_whole`` finds every such node, so that
building an application refuses it rather than let the model fill a human value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from llmapp.jsonschema import Path, subschemas
from llmapp.separate._classify import SchemaPredicate
from llmapp.separate._shapes import Shape, children, ref_name, shape_of

__all__ = ["human_inside_whole"]

_WHAT = {
    "anyOf": "a union (anyOf)",
    "oneOf": "a union (oneOf)",
    "allOf": "allOf",
    "prefixItems": "a fixed-length tuple (prefixItems)",
    "not": "not",
    "if": "if/then/else",
    "patternProperties": "patternProperties",
    "dependentSchemas": "dependentSchemas",
    "items": "an array of several item schemas",
}


def human_inside_whole(
    parameters: Mapping[str, Any], predicate: SchemaPredicate
) -> list[tuple[str, str]]:
    """``(parameter, reason)`` for each parameter with a human-side value the split cannot
    separate from the model's part (empty when every human value can be split off).

    Example:
        >>> from llmapp.schema import is_human
        >>> human_inside_whole({"type": "object", "properties": {"token": {"anyOf": [
        ...     {"type": "string", "x-llmapp-human": True}, {"type": "integer"}]}}}, is_human)[0][0]
        'token'
    """
    finder = _Finder(parameters.get("$defs") or {}, predicate)
    found: list[tuple[str, str]] = []
    properties = parameters.get("properties")
    for name, schema in (properties if isinstance(properties, Mapping) else {}).items():
        reason = finder.misplaced(schema, Path((name,)), frozenset())
        if reason is not None:
            found.append((name, reason))
    return found


class _Finder:
    def __init__(self, defs: Mapping[str, Any], predicate: SchemaPredicate) -> None:
        self.defs = defs
        self.predicate = predicate

    def misplaced(self, node: Any, path: Path, walking: frozenset[str]) -> str | None:
        """Why a human node under ``node`` cannot be split off, or None."""
        if not isinstance(node, Mapping) or self.predicate(node):
            return None
        shape = shape_of(node, self.defs)
        if shape is Shape.REF:
            name = ref_name(node, self.defs) or ""
            if name in walking:  # a recursive def: its own nodes are being walked already
                return None
            return self.misplaced(self.defs[name], path, walking | {name})
        if shape is Shape.LEAF:
            if not any(self._holds_human(sub, set()) for _, sub in subschemas(node)):
                return None
            what = next((_WHAT[key] for key in _WHAT if key in node), "a schema kept whole")
            return (
                f"a human-side value (Human() or `separate`) inside {what} at {path} cannot be "
                f"kept from the model: make the whole value human-side, or move the human "
                f"value out of {what}"
            )
        for child, step in _steps(node, shape):
            reason = self.misplaced(child, Path((*path, *step)), walking)
            if reason is not None:
                return reason
        return None

    def _holds_human(self, node: Any, seen: set[str]) -> bool:
        """Whether ``node`` or anything under it (through references) is human-side."""
        if not isinstance(node, Mapping):
            return False
        if self.predicate(node):
            return True
        name = ref_name(node, self.defs) if "$ref" in node else None
        if name is not None and name not in seen:
            seen.add(name)  # each def is looked into once per leaf
            if self._holds_human(self.defs[name], seen):
                return True
        return any(self._holds_human(sub, seen) for _, sub in subschemas(node))


def _steps(node: Mapping[str, Any], shape: Shape) -> list[tuple[Any, tuple[str | int, ...]]]:
    """The children the split walks, each with the path steps that lead to its value."""
    if shape is Shape.OBJECT:
        properties = node.get("properties") or {}
        steps: list[tuple[Any, tuple[str | int, ...]]] = [
            (child, (key,)) for key, child in properties.items()
        ]
        extra = node.get("additionalProperties")
        if isinstance(extra, Mapping):
            steps.append((extra, ("*",)))
        return steps
    if shape is Shape.ARRAY:
        return [(node["items"], (0,))]
    return [(child, ()) for child in children(node, shape)]
