"""Split a parameters schema (and a value of it) into the LLM's half and the human's half.

How the walk decides, node by node:

- The predicate is asked about every node the walk reaches, once each: the root, each
  property, each ``additionalProperties`` schema, each array ``items``. For a reference
  it is asked twice, about two different things: first about the referencing node with
  its siblings (``{"$ref": ..., "description": ..., "x-llmapp-human": true}``), so a
  marker or a description on the property counts; then, if that says no, about the def's
  own schema, once per def whatever the number of references (a ``Human``-marked or
  file-typed def is human wherever it is used).
- ``True`` sends the node whole to the human. Otherwise leaves stay whole with the LLM:
  primitives, unions of several schemas (``anyOf``/``oneOf``/``allOf``, ``[X, null]``
  type lists, ``nullable``), ``enum``/``const``, tuples (``prefixItems``), ``{}``, empty
  objects, and references outside ``#/$defs/``. Ask the predicate about the union node
  itself if a union must go to the human (``is_human`` does: the marker sits on the union).
  A human node *inside* such a leaf cannot be split off faithfully (who picks the branch,
  what fills a tuple's slot?): ``human_inside_whole`` finds them, and building an
  application refuses them.
- ``Optional[X]`` (``anyOf``/``oneOf`` of ``X`` and ``{"type": "null"}``, nothing else
  making it whole) is split like ``X``: each side is its half of ``X`` or null. The model
  chooses null or not; a null from the model stays null whatever the human gave.
- Objects, arrays and references are split only when they reach both sides; an object
  whose every part is human goes whole to the human (an open object's freedom to take
  unknown keys does not count as an LLM part). Recursive defs are settled by a least
  fixpoint, so a recursive def with no LLM leaf is wholly human rather than split.

What a split node becomes:

- object: each property goes to the side(s) its schema reaches; a property reaching both
  is on both sides, with the respective halves. ``required`` keeps, on each side, the
  required properties present on that side (a half is never empty, so a required split
  property stays required on both sides). A schema ``additionalProperties`` is split like
  a property (a side it does not reach gets ``false``); ``true``/absent stays with the
  LLM half and the human half gets ``false``. ``minProperties``/``maxProperties`` are
  dropped: they count keys of the whole.
- array: ``{"type": "array", "items": X}`` becomes the same array of ``X``'s LLM half and
  of ``X``'s human half (both arrays have the same length, so ``minItems``/``maxItems``
  stay); ``uniqueItems`` and ``contains``-family keywords are dropped, since the
  uniqueness of a half says nothing about the whole.
- reference to a def ``X`` that is split: ``X.Llm`` and ``X.Human`` in ``$defs``
  (``$ref: "#/$defs/X.Llm"``), each reference keeping its siblings. Defs that need no
  split stay shared under their own name, copied into each side that reaches them.
  The split def is named before its body is walked (a worklist), so recursion terminates.
- ``default`` and ``examples`` of a split node are split as values.

Each side's ``$defs`` holds exactly the defs that side reaches, in the input's order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from llmapp._sentinels import MISSING
from llmapp.separate._classify import Classifier, Kind, SchemaPredicate
from llmapp.separate._shapes import (
    Shape,
    copy_json,
    def_ref,
    nullable_option,
    ref_name,
    references,
    shape_of,
)

__all__ = ["split_parameters", "split_value"]


_EMPTY_OBJECT: dict[str, Any] = {
    "type": "object",
    "properties": {},
    "required": [],
    "additionalProperties": False,
}

# Keywords about the whole value that cannot hold of a half (see the module docstring).
_DROPPED = frozenset(
    {"minProperties", "maxProperties", "uniqueItems", "contains", "minContains", "maxContains"}
)
# Keywords each split shape rebuilds; a placeholder keeps their place in the key order.
_REBUILT = {
    Shape.REF: frozenset({"$ref"}),
    Shape.OBJECT: frozenset({"properties", "required", "additionalProperties"}),
    Shape.ARRAY: frozenset({"items"}),
    Shape.NULLABLE: frozenset({"anyOf", "oneOf"}),
}

_Pair = tuple[Any, Any]


def split_parameters(
    parameters: Mapping[str, Any], predicate: SchemaPredicate
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Split a function's parameters between what the LLM composes and what a human does.

    Args:
        parameters: an object schema, with the ``$defs`` it uses at its root.
        predicate: ``True`` for a schema whose value a human composes
            (``llmapp.schema.is_file``, ``is_human``, or your own).

    Returns:
        ``(llm, human)``: two object schemas, each with only the ``$defs`` it reaches.
        ``llm`` is at least an empty closed object; ``human`` is ``None`` when nothing
        is human. The input is never mutated and shares nothing with the results.

    Example:
        >>> llm, human = split_parameters(
        ...     {"type": "object", "properties": {"to": {"type": "string"},
        ...      "file": {"type": "string", "contentMediaType": "image/png"}},
        ...      "required": ["to", "file"], "additionalProperties": False},
        ...     lambda schema: "contentMediaType" in schema)
        >>> llm["properties"], llm["required"], human["required"]
        ({'to': {'type': 'string'}}, ['to'], ['file'])
    """
    splitter = _Splitter(parameters, predicate)
    llm, human = splitter.split_schema(splitter.root)
    splitter.split_defs()
    llm_root = splitter.finish(llm if llm is not None else copy_json(_EMPTY_OBJECT))
    return llm_root, splitter.finish(human) if human is not None else None


def split_value(value: Any, parameters: Mapping[str, Any], predicate: SchemaPredicate) -> _Pair:
    """Split a whole arguments value into the part the LLM owns and the part a human owns.

    The inverse of ``merge_values``: ``merge_values(*split_value(v, p, f)) == v`` for a
    ``v`` valid against ``p``. A part that does not fit the schema stays with the LLM
    (where validation will report it); keys no schema describes stay with the LLM too.

    Args:
        value: arguments valid against ``parameters``.
        parameters: the parameters schema given to ``split_parameters``.
        predicate: the same predicate.

    Returns:
        ``(llm_value, human_value)``; ``human_value`` is ``None`` when nothing is human
        (``split_parameters`` then gives ``human = None``), ``llm_value`` is ``{}``
        when everything is.
    """
    splitter = _Splitter(parameters, predicate)
    llm, human = splitter.split_value(value, splitter.root)
    if splitter.kind(splitter.root) is Kind.LLM:
        return llm, None
    return ({} if llm is MISSING else llm), (None if human is MISSING else human)


class _Splitter:
    """One split of one parameters schema; holds the memo of split defs."""

    def __init__(self, parameters: Mapping[str, Any], predicate: SchemaPredicate) -> None:
        self.defs: Mapping[str, Any] = parameters.get("$defs") or {}
        self.root = {key: value for key, value in parameters.items() if key != "$defs"}
        self._classifier = Classifier(self.defs, predicate)
        self._names: dict[str, tuple[str, str]] = {}
        self._bodies: dict[str, Any] = {}
        self._taken: set[str] = set()
        self._queue: list[str] = []

    def kind(self, node: Any) -> Kind:
        return self._classifier.kind(node)

    def split_schema(self, node: Any) -> _Pair:
        """``(llm, human)`` halves of ``node``; ``None`` for a side it does not reach."""
        kind = self.kind(node)
        if kind is Kind.LLM:
            return copy_json(node), None
        if kind is Kind.HUMAN:
            return None, copy_json(node)
        shape = shape_of(node, self.defs)
        llm, human = self._annotations(node, _REBUILT[shape])
        if shape is Shape.REF:
            self._split_ref(node, llm, human)
        elif shape is Shape.OBJECT:
            self._split_object(node, llm, human)
        elif shape is Shape.NULLABLE:
            keyword, index = nullable_option(node) or ("", 0)
            left, right = self.split_schema(node[keyword][index])
            llm[keyword], human[keyword] = _with_null(left, index), _with_null(right, index)
        else:
            llm["items"], human["items"] = self.split_schema(node["items"])
        return llm, human

    def _annotations(
        self, node: Mapping[str, Any], rebuilt: frozenset[str]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Both halves with every keyword but the rebuilt ones (placeholders keep order)."""
        llm: dict[str, Any] = {}
        human: dict[str, Any] = {}
        for key, value in node.items():
            if key in _DROPPED:
                continue
            if key in rebuilt:
                llm[key] = human[key] = None
            elif key == "default":
                _put(llm, human, key, self.split_value(value, node))
            elif key == "examples" and isinstance(value, list):
                pairs = [self.split_value(example, node) for example in value]
                _put_list(llm, key, [left for left, _ in pairs if left is not MISSING])
                _put_list(human, key, [right for _, right in pairs if right is not MISSING])
            else:
                llm[key], human[key] = copy_json(value), copy_json(value)
        return llm, human

    def _split_ref(
        self, node: Mapping[str, Any], llm: dict[str, Any], human: dict[str, Any]
    ) -> None:
        llm_name, human_name = self._split_def(ref_name(node, self.defs) or "")
        llm["$ref"], human["$ref"] = def_ref(llm_name), def_ref(human_name)

    def _split_def(self, name: str) -> tuple[str, str]:
        """The names of ``name``'s halves; its body is split later, by ``split_defs``."""
        if name not in self._names:
            self._names[name] = (self._fresh(name + ".Llm"), self._fresh(name + ".Human"))
            self._queue.append(name)
        return self._names[name]

    def split_defs(self) -> None:
        """Split every def a split reference named, including those found on the way.

        A worklist rather than recursion: a long chain of defs costs no stack depth, and
        a recursive def is named (so its references resolve) before its body is walked.
        """
        while self._queue:
            name = self._queue.pop()
            llm_name, human_name = self._names[name]
            self._bodies[llm_name], self._bodies[human_name] = self.split_schema(self.defs[name])

    def _fresh(self, wanted: str) -> str:
        """``wanted``, or ``wanted2``, ... when a def of the input already has that name."""
        name, counter = wanted, 1
        while name in self.defs or name in self._taken:
            counter += 1
            name = f"{wanted}{counter}"
        self._taken.add(name)
        return name

    def _split_object(
        self, node: Mapping[str, Any], llm: dict[str, Any], human: dict[str, Any]
    ) -> None:
        llm_properties: dict[str, Any] = {}
        human_properties: dict[str, Any] = {}
        for name, child in (node.get("properties") or {}).items():
            left, right = self.split_schema(child)
            if left is not None:
                llm_properties[name] = left
            if right is not None:
                human_properties[name] = right
        if "properties" in node:
            llm["properties"], human["properties"] = llm_properties, human_properties
        if "required" in node:
            llm["required"] = [key for key in node["required"] if key in llm_properties]
            human["required"] = [key for key in node["required"] if key in human_properties]
        extra = node.get("additionalProperties")
        if isinstance(extra, Mapping):
            left, right = self.split_schema(extra)
            llm["additionalProperties"] = False if left is None else left
            human["additionalProperties"] = False if right is None else right
        else:
            if "additionalProperties" in node:
                llm["additionalProperties"] = extra
            human["additionalProperties"] = False

    def split_value(self, value: Any, node: Any) -> _Pair:
        """``(llm, human)`` parts of ``value``; ``MISSING`` for a side that owns none of it."""
        kind = self.kind(node)
        if kind is Kind.LLM:
            return copy_json(value), MISSING
        if kind is Kind.HUMAN:
            return MISSING, copy_json(value)
        shape = shape_of(node, self.defs)
        if shape is Shape.REF:
            return self.split_value(value, self.defs[ref_name(node, self.defs) or ""])
        if shape is Shape.OBJECT and isinstance(value, Mapping):
            return self._split_object_value(value, node)
        if shape is Shape.NULLABLE:
            if value is None:  # the model chose null: neither side has more to give
                return None, None
            keyword, index = nullable_option(node) or ("", 0)
            return self.split_value(value, node[keyword][index])
        if shape is Shape.ARRAY and isinstance(value, (list, tuple)):
            pairs = [self.split_value(item, node["items"]) for item in value]
            return [_hole(left) for left, _ in pairs], [_hole(right) for _, right in pairs]
        return copy_json(value), MISSING

    def _split_object_value(self, value: Mapping[str, Any], node: Mapping[str, Any]) -> _Pair:
        properties = node.get("properties") or {}
        extra = node.get("additionalProperties")
        llm: dict[str, Any] = {}
        human: dict[str, Any] = {}
        for key, item in value.items():
            schema = properties.get(key, extra)
            if isinstance(schema, Mapping):
                _put(llm, human, key, self.split_value(item, schema))
            else:
                llm[key] = copy_json(item)
        return llm, human

    def finish(self, schema: dict[str, Any]) -> dict[str, Any]:
        """``schema`` with ``$defs`` holding exactly the defs it reaches, in input order."""
        if schema.get("type") == "object":
            schema.setdefault("properties", {})
            schema.setdefault("required", [])
        reached = self._reached(schema)
        if not reached:
            return schema
        ordered: dict[str, Any] = {}
        for name in self.defs:
            candidates = [name, *self._names.get(name, ())]
            for candidate in candidates:
                if candidate in reached:
                    ordered[candidate] = reached[candidate]
        schema["$defs"] = ordered
        return schema

    def _reached(self, schema: dict[str, Any]) -> dict[str, Any]:
        known = {**self.defs, **self._bodies}
        found: dict[str, Any] = {}
        queue = [schema]
        while queue:
            for target in references(queue.pop()):
                name = ref_name({"$ref": target}, known)
                if name is None or name in found:
                    continue
                body = self._bodies.get(name)
                found[name] = body if body is not None else copy_json(self.defs[name])
                queue.append(found[name])
        return found


def _with_null(option: Any, index: int) -> list[Any]:
    """The two options of a nullable union, ``option`` where the split one was."""
    return [option, {"type": "null"}] if index == 0 else [{"type": "null"}, option]


def _put(llm: dict[str, Any], human: dict[str, Any], key: str, pair: _Pair) -> None:
    left, right = pair
    if left is not MISSING:
        llm[key] = left
    if right is not MISSING:
        human[key] = right


def _put_list(half: dict[str, Any], key: str, items: list[Any]) -> None:
    if items:
        half[key] = items


def _hole(part: Any) -> Any:
    """An array element one side does not own: ``None``, which merging skips."""
    return None if part is MISSING else part
