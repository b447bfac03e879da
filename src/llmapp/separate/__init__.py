"""Split parameters between what the LLM composes and what a human supplies; merge them back."""

from llmapp.separate._classify import SchemaPredicate
from llmapp.separate._merge import merge_values
from llmapp.separate._split import split_parameters, split_value

__all__ = ["SchemaPredicate", "merge_values", "split_parameters", "split_value"]
