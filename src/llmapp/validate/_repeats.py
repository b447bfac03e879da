"""Which recursive definitions one place in a value may be checked against more than once.

``Analysis.unfolded`` bounds what a value meets through definitions that are not on a
``$ref`` cycle. A definition on a cycle is checked once per level of the value, so a
cycle that passes a place twice (``D = {properties: {b: {allOf: [D, {allOf: [D]}]}}}``)
doubles the work at every level: a value nested 20 deep costs a million checks. The
validator remembers, for the definitions found here, what it found for each value
during one call (``_runtime.Memo``): each (definition, value) pair is then checked and
walked once, and the work is polynomial again.

A place is a slot of the value: the value itself, a named property, the items, the
keys no name claims. The subschemas applied at one slot are gathered through the
applicators and ``$ref``s that apply to the same value (``allOf``, ``anyOf``,
``oneOf``, ``not``, ``if``/``then``/``else``, ``dependentSchemas``); a recursive
definition reached twice among them is reported. Two or more subschemas merged at one
property are read whole (every recursive reference below them counts): an
over-approximation that costs a cache, never a wrong answer.
"""

from __future__ import annotations

from collections import Counter

from llmapp.jsonschema import Node, is_mapping

from ._analysis import Analysis

__all__ = ["repeated"]

_IN_PLACE_SINGLES = ("not", "if", "then", "else")
_UNIONS = ("allOf", "anyOf", "oneOf")
_ALL_SLOTS = "*"


def repeated(analysis: Analysis) -> frozenset[str]:
    """The pointers of the recursive definitions some slot of a value may apply twice."""
    if not analysis.recursive:
        return frozenset()
    return _Repeats(analysis).found()


class _Repeats:
    def __init__(self, analysis: Analysis) -> None:
        self.analysis = analysis
        self._applied: dict[str, list[Node]] = {}
        self._reached: dict[str, Counter[str]] = {}

    def found(self) -> frozenset[str]:
        analysis = self.analysis
        found: set[str] = set()
        seen: set[str] = set()
        todo = [analysis.root, *(n for p in analysis.edges if (n := analysis.resolver.at(p)))]
        while todo:
            node = todo.pop()
            if node.pointer in seen or not is_mapping(node.schema):
                continue
            seen.add(node.pointer)
            applied = self.applied(node)
            counts: Counter[str] = Counter()
            for each in applied:
                counts.update(self._own_refs(each))
            found.update(pointer for pointer, count in counts.items() if count > 1)
            for children in self._slots(applied).values():
                found.update(self._twice(children))
                todo.extend(children)
        return frozenset(found)

    def applied(self, node: Node) -> list[Node]:
        """``node`` and every subschema applied to the same value (targets on a cycle
        included, not followed: they are the nodes counted)."""
        found = self._applied.get(node.pointer)
        if found is not None:
            return found
        analysis = self.analysis
        found, stack, seen = [], [node], set()
        while stack:
            current = stack.pop()
            if current.pointer in seen or not is_mapping(current.schema):
                continue
            seen.add(current.pointer)
            found.append(current)
            target = analysis.target(current)
            if target is not None and target.pointer not in analysis.recursive:
                stack.append(target)
            for keyword in _UNIONS:
                if isinstance(current.schema.get(keyword), list):
                    stack.extend(analysis.branches(current, keyword))
            for keyword in _IN_PLACE_SINGLES:
                if keyword in current.schema and is_mapping(current.schema[keyword]):
                    stack.append(analysis.child(current, keyword))
            dependent = current.schema.get("dependentSchemas")
            if is_mapping(dependent):
                stack.extend(
                    analysis.child(current, "dependentSchemas", key)
                    for key, sub in dependent.items()
                    if isinstance(key, str) and is_mapping(sub)
                )
        self._applied[node.pointer] = found
        return found

    def _own_refs(self, node: Node) -> list[str]:
        """The recursive definition ``node`` names itself, if any."""
        target = self.analysis.target(node)
        if target is not None and target.pointer in self.analysis.recursive:
            return [target.pointer]
        return []

    def _slots(self, applied: list[Node]) -> dict[str, list[Node]]:
        """The subschemas each slot of the value meets, from every node applied to it."""
        analysis = self.analysis
        slots: dict[str, list[Node]] = {}
        for node in applied:
            schema = node.schema
            properties = schema.get("properties")
            if is_mapping(properties):
                for name, sub in properties.items():
                    if isinstance(name, str) and is_mapping(sub):
                        child = analysis.child(node, "properties", name)
                        slots.setdefault("p" + name, []).append(child)
            for keyword in ("additionalProperties", "items", "additionalItems", "contains"):
                if is_mapping(schema.get(keyword)):
                    key = _ALL_SLOTS if keyword == "additionalProperties" else "i"
                    slots.setdefault(key, []).append(analysis.child(node, keyword))
            patterns = schema.get("patternProperties")
            if is_mapping(patterns):
                for pattern, sub in patterns.items():
                    if isinstance(pattern, str) and is_mapping(sub):
                        child = analysis.child(node, "patternProperties", pattern)
                        slots.setdefault(_ALL_SLOTS, []).append(child)
            for keyword in ("prefixItems", "items"):
                listed = schema.get(keyword)
                if isinstance(listed, list):
                    for index, sub in enumerate(listed):
                        if is_mapping(sub):
                            child = analysis.child(node, keyword, str(index))
                            slots.setdefault(f"i{index}", []).append(child)
        anywhere = slots.get(_ALL_SLOTS, [])
        if anywhere:  # a pattern may claim a named key too
            for key in slots:
                if key.startswith("p"):
                    slots[key] = slots[key] + anywhere
        return slots

    def _twice(self, children: list[Node]) -> set[str]:
        """Recursive definitions the subschemas merged at one slot may apply twice."""
        if len(children) < 2:
            return set()
        counts: Counter[str] = Counter()
        for child in children:
            counts.update(self._below(child))
        return {pointer for pointer, count in counts.items() if count > 1}

    def _below(self, node: Node) -> Counter[str]:
        """Every recursive definition referred to under ``node`` (definitions off the
        cycles followed, each once), with repeats."""
        found = self._reached.get(node.pointer)
        if found is not None:
            return found
        analysis = self.analysis
        found = Counter()
        todo, seen = [node], {node.pointer}
        while todo:
            current = todo.pop()
            for target in analysis.refs_in(current):
                if target.pointer in analysis.recursive:
                    found[target.pointer] += 1
                elif target.pointer not in seen:
                    seen.add(target.pointer)
                    todo.append(target)
        self._reached[node.pointer] = found
        return found
