"""Reading JSON Schema: the one place every stage asks what a schema says.

A leaf package (of llmapp it imports only the sentinel, ``_digraph`` and ``_fresh``):
references and JSON pointers (``Resolver.chase`` follows a chain of references, at most
``MAX_REF_HOPS`` of them, for every stage), the definitions a schema refers to and which of them are
recursive, the keyword table, declared types and the JSON type of a value, schemas that
accept anything, discriminators, the names of enum members, issue paths in typia's syntax,
and the bound on how deeply foreign JSON may nest.
The validator, coercion, separation, feedback and the ``vendors``, ``mcp`` and
``http`` packages all read schemas through it, so they agree on what a schema means.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmapp._lazy import lazy_names as _lazy_names
from llmapp._sentinels import MISSING

if TYPE_CHECKING:
    from ._discriminator import Discriminator, discriminator
    from ._enum_names import ENUM_NAMES, ENUM_NAMES_READ, enum_names
    from ._graph import (
        reachable_definitions,
        recursive_definitions,
        referenced_definitions,
        walk,
    )
    from ._keywords import KEYWORDS, Keyword, keywords
    from ._nesting import MAX_NESTING, copy_json, pruned, too_deep
    from ._normalise import Problem, normalise
    from ._path import REMEMBERED_PATH, ROOT, Path, Segment, parse_path, step
    from ._pointer import (
        escape_token,
        normal_fragment,
        pointer_from,
        pointer_tokens,
        resolve_pointer,
        unescape_token,
    )
    from ._refs import (
        MAX_REF_HOPS,
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

# Each module loads when one of its names is first read: building an application
# reads declared types alone, and needs neither paths, normalisation nor the
# discriminator rule unless a schema asks for them.
_LAZY = {
    **dict.fromkeys(("Discriminator", "discriminator"), "._discriminator"),
    **dict.fromkeys(("ENUM_NAMES", "ENUM_NAMES_READ", "enum_names"), "._enum_names"),
    **dict.fromkeys(
        ("reachable_definitions", "recursive_definitions", "referenced_definitions", "walk"),
        "._graph",
    ),
    **dict.fromkeys(("KEYWORDS", "Keyword", "keywords"), "._keywords"),
    **dict.fromkeys(("MAX_NESTING", "copy_json", "pruned", "too_deep"), "._nesting"),
    **dict.fromkeys(("Problem", "normalise"), "._normalise"),
    **dict.fromkeys(("REMEMBERED_PATH", "ROOT", "Path", "Segment", "parse_path", "step"), "._path"),
    **dict.fromkeys(
        (
            "escape_token",
            "normal_fragment",
            "pointer_from",
            "pointer_tokens",
            "resolve_pointer",
            "unescape_token",
        ),
        "._pointer",
    ),
    **dict.fromkeys(
        (
            "MAX_REF_HOPS",
            "ROOT_BASE",
            "Node",
            "Resolver",
            "is_mapping",
            "is_schema",
            "name_of",
            "ref_name",
            "subschemas",
        ),
        "._refs",
    ),
    **dict.fromkeys(("JSON_TYPES", "accepts_anything", "declared_types", "json_type"), "._types"),
}

if not TYPE_CHECKING:  # a misspelled name stays an error for type checkers
    __getattr__, __dir__ = _lazy_names(__name__, _LAZY)

__all__ = [
    "ENUM_NAMES",
    "ENUM_NAMES_READ",
    "JSON_TYPES",
    "KEYWORDS",
    "MAX_NESTING",
    "MAX_REF_HOPS",
    "MISSING",
    "REMEMBERED_PATH",
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
    "copy_json",
    "declared_types",
    "discriminator",
    "enum_names",
    "escape_token",
    "is_mapping",
    "is_schema",
    "json_type",
    "keywords",
    "name_of",
    "normal_fragment",
    "normalise",
    "parse_path",
    "pointer_from",
    "pointer_tokens",
    "pruned",
    "reachable_definitions",
    "recursive_definitions",
    "ref_name",
    "referenced_definitions",
    "resolve_pointer",
    "step",
    "subschemas",
    "too_deep",
    "unescape_token",
    "walk",
]
