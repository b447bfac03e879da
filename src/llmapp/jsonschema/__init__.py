"""Reading JSON Schema: the one place every stage asks what a schema says.

A leaf package (it imports nothing else from llmapp but the sentinel): references
and JSON pointers, the keyword table, declared types and the JSON type of a value,
schemas that accept anything, discriminators, and issue paths in typia's syntax.
The validator, coercion, separation, feedback and the ``vendors``, ``mcp`` and
``http`` packages all read schemas through it, so they agree on what a schema means.
"""

from __future__ import annotations

from llmapp._sentinels import MISSING

from ._discriminator import Discriminator, discriminator
from ._keywords import KEYWORDS, Keyword, keywords
from ._normalise import Problem, normalise
from ._path import ROOT, Path, Segment, step
from ._pointer import (
    escape_token,
    pointer_from,
    pointer_tokens,
    resolve_pointer,
    unescape_token,
)
from ._refs import (
    ROOT_BASE,
    Node,
    Resolver,
    is_mapping,
    is_schema,
    name_of,
    ref_name,
    subschemas,
)
from ._types import JSON_TYPES, accepts_anything, declared_types, json_type

__all__ = [
    "JSON_TYPES",
    "KEYWORDS",
    "MISSING",
    "ROOT",
    "ROOT_BASE",
    "Discriminator",
    "Keyword",
    "Node",
    "Path",
    "Problem",
    "Resolver",
    "Segment",
    "accepts_anything",
    "declared_types",
    "discriminator",
    "escape_token",
    "is_mapping",
    "is_schema",
    "json_type",
    "keywords",
    "name_of",
    "normalise",
    "pointer_from",
    "pointer_tokens",
    "ref_name",
    "resolve_pointer",
    "step",
    "subschemas",
    "unescape_token",
]
