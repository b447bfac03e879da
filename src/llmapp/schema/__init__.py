"""Stage 2: the LLM schema, emitted from the type model; predicates and OpenAI's strict
rules (``make_strict``) over any schema."""

from llmapp.schema._predicates import (
    HUMAN_KEYWORD,
    is_array,
    is_boolean,
    is_file,
    is_human,
    is_integer,
    is_null,
    is_number,
    is_object,
    is_reference,
    is_string,
    is_union,
    is_unknown,
)
from llmapp.schema._strict import make_strict

__all__ = [
    "HUMAN_KEYWORD",
    "is_array",
    "is_boolean",
    "is_file",
    "is_human",
    "is_integer",
    "is_null",
    "is_number",
    "is_object",
    "is_reference",
    "is_string",
    "is_union",
    "is_unknown",
    "make_strict",
]
