"""Split parameters between what the LLM composes and what a human supplies; merge them back.

- ``split_parameters(parameters, predicate) -> (llm, human)``: two parameters schemas;
  the predicate says, for a schema, whether a human composes its value. How the walk
  decides (``$ref``, unions, arrays, recursive defs, ``X.Llm``/``X.Human`` defs) is
  written out in ``llmapp.separate._split``.
- ``split_value(value, parameters, predicate) -> (llm_value, human_value)``: the same
  split applied to a whole value.
- ``merge_values(llm, human)``: the inverse; objects key by key, arrays element by
  element, the human's value elsewhere (``None`` from a side means nothing given).
"""

from llmapp.separate._classify import SchemaPredicate
from llmapp.separate._merge import merge_values
from llmapp.separate._split import split_parameters, split_value

__all__ = ["SchemaPredicate", "merge_values", "split_parameters", "split_value"]
