"""Join the LLM's and the human's halves of one set of arguments back into one value."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import zip_longest
from typing import Any

from llmapp._sentinels import MISSING
from llmapp.separate._shapes import copy_json

__all__ = ["merge_values"]


def merge_values(llm: Any, human: Any) -> Any:
    """Merge the LLM's value with the human's, recursively; nothing is mutated.

    - two objects merge key by key (the LLM's keys first, in their order, then the
      human's new keys);
    - two arrays merge element by element, as long as the longer one (an element
      only one side has is taken as it is);
    - anywhere else the human's value wins, except that ``None`` from the human
      means "nothing given here" and leaves the LLM's value (``None`` is also what
      the human passes when a function has no human side);
    - ``None`` from the LLM stays ``None``: the model chose null (``Optional[X]``
      split into two nullable halves), so the human's part of ``X`` is dropped.

    The result shares no dict or list with the inputs.

    Args:
        llm: the value the LLM composed (usually the validated arguments object).
        human: the value a human supplied for the human side, or ``None``.

    Returns:
        The merged value.

    Example:
        >>> merge_values({"to": "ann", "files": [{"name": "a"}]}, {"files": [{"data": "QQ=="}]})
        {'to': 'ann', 'files': [{'name': 'a', 'data': 'QQ=='}]}
    """
    if human is None or llm is None:
        return copy_json(llm)
    if isinstance(llm, Mapping) and isinstance(human, Mapping):
        merged = {key: copy_json(value) for key, value in llm.items()}
        for key, value in human.items():
            merged[key] = merge_values(llm[key], value) if key in llm else copy_json(value)
        return merged
    if _is_array(llm) and _is_array(human):
        pairs = zip_longest(llm, human, fillvalue=MISSING)
        return [_element(left, right) for left, right in pairs]
    return copy_json(human)


def _element(llm: Any, human: Any) -> Any:
    if llm is MISSING:
        return copy_json(human)
    if human is MISSING:
        return copy_json(llm)
    return merge_values(llm, human)


def _is_array(value: Any) -> bool:
    return isinstance(value, (list, tuple))
