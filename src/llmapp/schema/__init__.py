"""Stage 2: the LLM schema, emitted from the type model; predicates and OpenAI's strict
rules (``make_strict``) over any schema."""

from typing import TYPE_CHECKING

from llmapp._lazy import lazy_names as _lazy_names
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
from llmapp.schema._strict import make_strict, strict_form

if TYPE_CHECKING:
    from llmapp.schema._emit import SchemaEmitter

# The emitter (types -> schemas) loads when an application is built, not with the predicates.
_HOMES = {"SchemaEmitter": "llmapp.schema._emit"}

__getattr__, __dir__ = _lazy_names(__name__, _HOMES)

__all__ = [
    "HUMAN_KEYWORD",
    "SchemaEmitter",
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
    "strict_form",
]
