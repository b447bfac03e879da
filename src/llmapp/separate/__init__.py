"""Split parameters between what the LLM composes and what a human supplies; merge them back.

- ``split_parameters(parameters, predicate) -> (llm, human)``: two parameters schemas;
  the predicate says, for a schema, whether a human composes its value. How the walk
  decides (``$ref``, unions, arrays, recursive defs, ``X.Llm``/``X.Human`` defs) is
  written out in ``llmapp.separate._split``.
- ``split_value(value, parameters, predicate) -> (llm_value, human_value)``: the same
  split applied to a whole value.
- ``human_inside_whole(parameters, predicate)``: the human-side values a split cannot
  keep from the model (inside a union of several schemas, a tuple, ...), per parameter.
- ``merge_values(llm, human)``: the inverse; objects key by key, arrays element by
  element, the human's value elsewhere (``None`` from a side means nothing given).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmapp._lazy import lazy_names as _lazy_names

if TYPE_CHECKING:
    from llmapp.separate._classify import SchemaPredicate
    from llmapp.separate._merge import merge_values
    from llmapp.separate._split import split_parameters, split_value
    from llmapp.separate._whole import human_inside_whole

# Loaded on first use (PEP 562): only applications with a human side split anything.
_LAZY = {
    "SchemaPredicate": "._classify",
    "merge_values": "._merge",
    "split_parameters": "._split",
    "split_value": "._split",
    "human_inside_whole": "._whole",
}

if not TYPE_CHECKING:  # a misspelled name stays an error for type checkers
    __getattr__, __dir__ = _lazy_names(__name__, _LAZY)


__all__ = [
    "SchemaPredicate",
    "human_inside_whole",
    "merge_values",
    "split_parameters",
    "split_value",
]
