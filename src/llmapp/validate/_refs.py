"""Where each subschema is, and what a ``$ref`` points at, inside one root document.

Nodes are named by their JSON pointer from the root document, so a schema reached
twice (through two refs) is one node. Resolution handles local pointers (``~0``/``~1``
and percent-decoding), ``$id`` bases and ``$anchor``/``$dynamicAnchor`` names;
references to other documents are not fetched (``resolve`` returns None).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

__all__ = ["ROOT_BASE", "Node", "Resolver", "escape_token", "subschemas"]

ROOT_BASE = "urn:llmapp:root"
"""Base URI of a root schema that has no ``$id`` of its own."""

_SINGLE = (
    "additionalProperties",
    "items",
    "contains",
    "propertyNames",
    "not",
    "if",
    "then",
    "else",
    "additionalItems",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
)
_LISTS = ("prefixItems", "items", "allOf", "anyOf", "oneOf")
_MAPS = (
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "dependencies",
)
_NAMED_PARENTS = ("$defs", "definitions", "schemas")


def escape_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def subschemas(schema: Any) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Each direct subschema of a schema with the pointer tokens that lead to it."""
    if not isinstance(schema, Mapping):
        return
    for keyword in _SINGLE:
        sub = schema.get(keyword)
        if isinstance(sub, (Mapping, bool)):
            yield (keyword,), sub
    for keyword in _LISTS:
        subs = schema.get(keyword)
        if isinstance(subs, list):
            for index, sub in enumerate(subs):
                if isinstance(sub, (Mapping, bool)):
                    yield (keyword, str(index)), sub
    for keyword in _MAPS:
        subs = schema.get(keyword)
        if isinstance(subs, Mapping):
            for name, sub in subs.items():
                if isinstance(name, str) and isinstance(sub, (Mapping, bool)):
                    yield (keyword, name), sub


def _join(base: str, ref: str) -> str:
    if ref.startswith("#"):
        return urldefrag(base)[0] + ref
    if ":" in ref.split("/", 1)[0]:
        return ref
    return urljoin(base, ref)


@dataclass(frozen=True)
class Node:
    """A subschema, where it is (JSON pointer from the root) and its base URI."""

    schema: Any
    pointer: str
    base: str


class Resolver:
    """Knows every subschema of one root document and resolves refs between them."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self._bases: dict[str, str] = {}
        self._resources: dict[str, str] = {ROOT_BASE: ""}
        self._anchors: dict[str, str] = {}
        dialect = root.get("$schema") if isinstance(root, Mapping) else None
        dialect = dialect if isinstance(dialect, str) else ""
        # Up to draft 7, "$ref" replaces its siblings; drafts 3 and 4 spell "$id" as "id".
        self.ref_only = any(f"draft-0{n}" in dialect for n in (3, 4, 6, 7))
        self._id_keyword = "id" if any(f"draft-0{n}" in dialect for n in (3, 4)) else "$id"
        self._visit(root, "", ROOT_BASE)

    def _view(self, schema: Any) -> Any:
        if self.ref_only and isinstance(schema, Mapping) and "$ref" in schema:
            return {"$ref": schema["$ref"]}
        return schema

    def _visit(self, schema: Any, pointer: str, base: str) -> None:
        if not isinstance(schema, Mapping):
            return
        ident = schema.get(self._id_keyword)
        if self.ref_only and "$ref" in schema:
            ident = None
        if isinstance(ident, str):
            base = _join(base, ident)
            uri, fragment = urldefrag(base)
            self._resources.setdefault(uri, pointer)
            if fragment:
                self._anchors.setdefault(base, pointer)
        self._bases[pointer] = base
        for keyword in ("$anchor", "$dynamicAnchor"):
            anchor = schema.get(keyword)
            if isinstance(anchor, str):
                self._anchors.setdefault(urldefrag(base)[0] + "#" + anchor, pointer)
        for tokens, sub in subschemas(schema):
            child = pointer + "".join("/" + escape_token(token) for token in tokens)
            self._visit(sub, child, base)

    @property
    def root_node(self) -> Node:
        return Node(self._view(self.root), "", self._bases.get("", ROOT_BASE))

    def child(self, node: Node, *tokens: str) -> Node:
        """The node under ``node`` at the given pointer tokens."""
        pointer = node.pointer + "".join("/" + escape_token(token) for token in tokens)
        schema = node.schema
        for token in tokens:
            schema = schema[int(token)] if isinstance(schema, list) else schema[token]
        return Node(self._view(schema), pointer, self._bases.get(pointer, node.base))

    def resolve(self, ref: str, base: str) -> Node | None:
        """The node a ``$ref`` written under ``base`` points at, or None."""
        uri, fragment = urldefrag(_join(base, ref))
        resource = self._resources.get(uri)
        if resource is None:
            return None
        fragment = unquote(fragment)
        if fragment and not fragment.startswith("/"):
            target = self._anchors.get(uri + "#" + fragment)
            return None if target is None else self.at(target)
        return self.at(resource + fragment)

    def at(self, pointer: str) -> Node | None:
        """The node at a JSON pointer from the root document, or None."""
        schema = self.root
        base = self._bases.get("", ROOT_BASE)
        walked = ""
        for token in pointer.split("/")[1:]:
            walked += "/" + token
            key = _unescape_token(token)
            if isinstance(schema, Mapping) and key in schema:
                schema = schema[key]
            elif isinstance(schema, list) and key.isdigit() and int(key) < len(schema):
                schema = schema[int(key)]
            else:
                return None
            base = self._bases.get(walked, base)
        if not isinstance(schema, (Mapping, bool)):
            return None
        return Node(self._view(schema), pointer, base)


def name_of(pointer: str) -> str | None:
    """The name of a named definition (``/$defs/Product`` -> ``Product``), else None."""
    tokens = pointer.split("/")
    if len(tokens) >= 3 and tokens[-1] and _unescape_token(tokens[-2]) in _NAMED_PARENTS:
        return _unescape_token(tokens[-1])
    return None


def ref_name(ref: str) -> str | None:
    """The definition name a ref spells (``#/$defs/Product`` -> ``Product``), else None."""
    _, fragment = urldefrag(ref)
    return name_of(unquote(fragment)) if fragment.startswith("/") else None
