"""Join the LLM's and the human's halves of one set of arguments back into one value."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import zip_longest
from typing import Any

from llmapp._limits import MAX_MERGE_HOPS
from llmapp._sentinels import MISSING
from llmapp.separate._shapes import Shape, copy_json, nullable_option, ref_name, shape_of

__all__ = ["merge_values"]


def merge_values(llm: Any, human: Any, sides: tuple[Any, Any] | None = None) -> Any:
    """Merge the LLM's value with the human's, recursively; nothing is mutated.

    - two objects merge key by key (the LLM's keys first, in their order, then the
      human's new keys);
    - two arrays merge element by element, as long as the longer one (an element
      only one side has is taken as it is);
    - anywhere else the human's value wins, except that ``None`` from the human
      means "nothing given here" and leaves the LLM's value (``None`` is also what
      the human passes when a function has no human side);
    - ``None`` from the LLM stays ``None``: the model chose null (``Optional[X]``
      split into two nullable halves), so the human's part of ``X`` is dropped;
    - with ``sides`` (the LLM's and the human's parameters schemas, as split), a key
      the model left out that is a property of both halves (a split property, say
      ``card: Optional[Card]`` with a human ``number``) is what the model's null is:
      the human's part of it is dropped, so leaving out an optional parameter and
      sending null for it make the same call, whatever the human supplied. A key only
      the human's schema holds is the human's alone, and taken.

    The result shares no dict or list with the inputs.

    Args:
        llm: the value the LLM composed (usually the validated arguments object).
        human: the value a human supplied for the human side, or ``None``.

        sides: the two halves' schemas (``split_parameters``), or ``None``: without
            them every human key the model left out is taken.

    Returns:
        The merged value.

    Example:
        >>> merge_values({"to": "ann", "files": [{"name": "a"}]}, {"files": [{"data": "QQ=="}]})
        {'to': 'ann', 'files': [{'name': 'a', 'data': 'QQ=='}]}
    """
    if sides is None:
        return _merge(llm, human, None)
    llm_root, human_root = sides
    return _merge(llm, human, _Nodes(llm_root, llm_root, human_root, human_root))


class _Nodes:
    """Where the merge is in each half's schema (each resolved against its own ``$defs``)."""

    __slots__ = ("human", "human_root", "llm", "llm_root")

    def __init__(self, llm: Any, llm_root: Any, human: Any, human_root: Any) -> None:
        self.llm, self.llm_root = _resolved(llm, llm_root), llm_root
        self.human, self.human_root = _resolved(human, human_root), human_root

    def member(self, key: str) -> _Nodes:
        return _Nodes(
            _member(self.llm, key), self.llm_root, _member(self.human, key), self.human_root
        )

    def items(self) -> _Nodes:
        return _Nodes(_items(self.llm), self.llm_root, _items(self.human), self.human_root)

    def split(self, key: str) -> bool:
        """Whether ``key`` is a property of both halves: each has its part of that value.

        Only a declared property can be left out for null; a ``dict[str, T]`` entry the
        model did not write is no value of its, and the human's half of it stays an error.
        """
        return _property(self.llm, key) and _property(self.human, key)


def _merge(llm: Any, human: Any, nodes: _Nodes | None) -> Any:
    if human is None or llm is None:
        return copy_json(llm)
    if isinstance(llm, Mapping) and isinstance(human, Mapping):
        merged = {key: copy_json(value) for key, value in llm.items()}
        for key, value in human.items():
            inner = None if nodes is None else nodes.member(key)
            if key in llm:
                merged[key] = _merge(llm[key], value, inner)
            elif nodes is None or not nodes.split(key):
                merged[key] = copy_json(value)
            # else: the model left out a value it shares with the human, as null drops it
        return merged
    if _is_array(llm) and _is_array(human):
        inner = None if nodes is None else nodes.items()
        pairs = zip_longest(llm, human, fillvalue=MISSING)
        return [_element(left, right, inner) for left, right in pairs]
    return copy_json(human)


def _element(llm: Any, human: Any, nodes: _Nodes | None) -> Any:
    if llm is MISSING:
        return copy_json(human)
    if human is MISSING:
        return copy_json(llm)
    return _merge(llm, human, nodes)


def _resolved(node: Any, root: Any) -> Any:
    """``node`` past its references and its ``Optional`` wrapper: an object, an array or a leaf."""
    defs = root.get("$defs", {}) if isinstance(root, Mapping) else {}
    for _ in range(MAX_MERGE_HOPS):
        shape = shape_of(node, defs if isinstance(defs, Mapping) else {})
        if shape is Shape.REF:
            node = defs[ref_name(node, defs)]
        elif shape is Shape.NULLABLE:
            keyword, index = nullable_option(node) or ("", 0)
            node = node[keyword][index]
        else:
            return node
    return None


def _member(node: Any, key: str) -> Any:
    """The schema of ``key`` in an object node, or None where it has none."""
    if not isinstance(node, Mapping):
        return None
    properties = node.get("properties")
    if isinstance(properties, Mapping) and key in properties:
        return properties[key]
    extra = node.get("additionalProperties")
    return extra if isinstance(extra, Mapping) else None


def _property(node: Any, key: str) -> bool:
    properties = node.get("properties") if isinstance(node, Mapping) else None
    return isinstance(properties, Mapping) and key in properties


def _items(node: Any) -> Any:
    items = node.get("items") if isinstance(node, Mapping) else None
    return items if isinstance(items, Mapping) else None


def _is_array(value: Any) -> bool:
    return isinstance(value, (list, tuple))
