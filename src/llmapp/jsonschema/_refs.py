"""Where each subschema is, and what a ``$ref`` points at, inside one root document.

Nodes are named by their JSON pointer from the root document, so a schema reached
twice (through two refs) is one node. Resolution handles local pointers (``~0``/``~1``
and percent-decoding), ``$id`` bases and ``$anchor``/``$dynamicAnchor`` names;
references to other documents are not fetched (``resolve`` returns None).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, TypeGuard

from llmapp._limits import MAX_REF_HOPS

from ._keywords import keywords
from ._pointer import escape_token, percent_decoded, unescape_token

__all__ = [
    "MAX_REF_HOPS",
    "ROOT_BASE",
    "Node",
    "Ref",
    "Resolver",
    "is_mapping",
    "is_schema",
    "name_of",
    "ref_name",
    "subschemas",
]

ROOT_BASE = "urn:llmapp:root"
"""Base URI of a root schema that has no ``$id`` of its own."""

# ``MAX_REF_HOPS`` bounds a chain of references in every stage: a chain one longer is a
# reference that cannot be followed (the validator refuses the schema, ``coerce`` leaves
# the value as it is, no discriminator is inferred through it, the vendor checks name it).

_SINGLE = keywords(shape="schema")
_LISTS = keywords(shape="schema-list")
_MAPS = keywords(shape="schema-map")
_NAMED_PARENTS = ("$defs", "definitions", "schemas")


_SUBSCHEMA_KEYWORDS = frozenset(_SINGLE + _LISTS + _MAPS)
_INDEXED = _SUBSCHEMA_KEYWORDS | {"$ref", "$dynamicRef", "$id", "id", "$anchor", "$dynamicAnchor"}


def subschemas(schema: Any) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Each direct subschema of a schema with the pointer tokens that lead to it."""
    if is_mapping(schema):
        for tokens, _, sub in _children(schema):
            yield tokens, sub


_SINGLE_RANK = {keyword: rank for rank, keyword in enumerate(_SINGLE)}
_LIST_RANK = {keyword: 100 + rank for rank, keyword in enumerate(_LISTS)}
_MAP_RANK = {keyword: 200 + rank for rank, keyword in enumerate(_MAPS)}


Child = tuple[tuple[str, ...], str, Any]
"""A direct subschema: its pointer tokens, its pointer suffix and the subschema."""


def _children(schema: Mapping[str, Any]) -> list[Child]:
    """The direct subschemas: pointer tokens, pointer suffix (``/items``,
    ``/properties/a~1b``) and subschema; single keywords first, then arrays of
    schemas, then maps of them, each group in its keyword order."""
    present = _SUBSCHEMA_KEYWORDS.intersection(schema)
    if not present:
        return []
    groups: list[tuple[int, list[Child]]] = []
    for keyword in present:
        value = schema[keyword]
        if keyword in _SINGLE_RANK and is_schema(value):
            groups.append((_SINGLE_RANK[keyword], [((keyword,), "/" + keyword, value)]))
        elif keyword in _LIST_RANK and isinstance(value, list):
            prefix = "/" + keyword + "/"
            found: list[Child] = [
                ((keyword, str(index)), prefix + str(index), sub)
                for index, sub in enumerate(value)
                if is_schema(sub)
            ]
            groups.append((_LIST_RANK[keyword], found))
        elif keyword in _MAP_RANK and is_mapping(value):
            prefix = "/" + keyword + "/"
            items: list[Child] = [
                ((keyword, name), prefix + escape_token(name), sub)
                for name, sub in value.items()
                if type(name) is str and is_schema(sub)
            ]
            groups.append((_MAP_RANK[keyword], items))
    if len(groups) == 1:
        return groups[0][1]
    groups.sort(key=_first)
    return [child for _, children in groups for child in children]


def _first(group: tuple[int, Any]) -> int:
    return group[0]


_NOT_MAPPINGS = frozenset((str, int, float, bool, list, tuple, type(None)))


def is_mapping(value: Any) -> TypeGuard[Mapping[Any, Any]]:
    """``isinstance(value, Mapping)``, quick for the usual JSON types."""
    kind = type(value)
    return kind is dict or (kind not in _NOT_MAPPINGS and isinstance(value, Mapping))


def is_schema(value: Any) -> bool:
    """A schema: a mapping or a boolean."""
    kind = type(value)
    return (
        kind is dict or kind is bool or (kind not in _NOT_MAPPINGS and isinstance(value, Mapping))
    )


def _defrag(url: str) -> tuple[str, str]:
    """``urllib.parse.urldefrag`` as a pair, parsing only a URI that has a fragment.

    ``urllib.parse`` (and the ``ipaddress`` it imports) loads only for URIs: building
    an application whose schemas hold local ``#/...`` references never needs it.
    """
    if "#" not in url:
        return url, ""
    from urllib.parse import urldefrag as split

    found = split(url)
    return found.url, found.fragment


def _join(base: str, ref: str) -> str:
    if ref.startswith("#"):
        return _defrag(base)[0] + ref
    if ":" in ref.split("/", 1)[0]:
        return ref
    from urllib.parse import urljoin

    return urljoin(base, ref)


class Node:
    """A subschema, where it is (JSON pointer from the root) and its base URI."""

    __slots__ = ("base", "pointer", "schema")

    def __init__(self, schema: Any, pointer: str, base: str) -> None:
        self.schema = schema
        self.pointer = pointer
        self.base = base

    def __repr__(self) -> str:
        return f"Node({self.pointer!r})"


class Ref:
    """A subschema holding ``$ref`` (or ``$dynamicRef``), found while indexing the document.

    ``hidden_by`` lists the ancestors (and the node itself excluded) whose own ``$ref``
    hides their other keywords (drafts up to 7): a walk starting at or above one of them
    does not reach this ref.
    """

    __slots__ = ("hidden_by", "node")

    def __init__(self, node: Node, hidden_by: tuple[str, ...]) -> None:
        self.node = node
        self.hidden_by = hidden_by

    def under(self, pointer: str) -> bool:
        """Whether a walk of the subtree at ``pointer`` reaches this ref."""
        own = self.node.pointer
        if pointer and own != pointer and not own.startswith(pointer + "/"):
            return False
        return not any(
            hider == pointer or hider.startswith(pointer + "/") for hider in self.hidden_by
        )


class Resolver:
    """Knows every subschema of one root document and resolves refs between them."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self._bases: dict[str, str] = {"": ROOT_BASE}
        self._resources: dict[str, str] = {ROOT_BASE: ""}
        self._anchors: dict[str, str] = {}
        self._resolved: dict[tuple[str, str], Node | None] = {}
        self._chased: dict[tuple[str, str], Node | None] = {}
        self._documents: dict[str, str] = {}
        self.refs: list[Ref] = []
        """Every subschema holding a ref, in document order (depth first)."""
        self._spans: dict[str, tuple[int, int]] = {}
        self._collected: dict[str, list[Ref]] = {}
        dialect = root.get("$schema") if isinstance(root, Mapping) else None
        dialect = dialect if isinstance(dialect, str) else ""
        # Up to draft 7, "$ref" replaces its siblings; drafts 3 and 4 spell "$id" as "id".
        self.ref_only = any(f"draft-0{n}" in dialect for n in (3, 4, 6, 7))
        self._id_keyword = "id" if any(f"draft-0{n}" in dialect for n in (3, 4)) else "$id"
        if is_schema(root) and root is not True and root is not False:
            self._visit(root, "", ROOT_BASE, ())

    def _view(self, schema: Any) -> Any:
        if self.ref_only and is_mapping(schema) and "$ref" in schema:
            return {"$ref": schema["$ref"]}
        return schema

    def _visit(self, schema: Any, pointer: str, base: str, hidden_by: tuple[str, ...]) -> None:
        """Index ``schema`` (a mapping) and its subtree: bases, anchors and refs."""
        if _INDEXED.isdisjoint(schema):
            return  # a leaf with nothing to record (the root alone gets here)
        has_ref = "$ref" in schema
        ident = schema.get(self._id_keyword)
        if self.ref_only and has_ref:
            ident = None
        if isinstance(ident, str):
            base = _join(base, ident)
            uri, fragment = _defrag(base)
            self._resources.setdefault(uri, pointer)
            if fragment:
                self._anchors.setdefault(base, pointer)
            self._bases[pointer] = base
        if "$anchor" in schema or "$dynamicAnchor" in schema:
            for keyword in ("$anchor", "$dynamicAnchor"):
                anchor = schema.get(keyword)
                if isinstance(anchor, str):
                    self._anchors.setdefault(_defrag(base)[0] + "#" + anchor, pointer)
        if has_ref or "$dynamicRef" in schema:
            self.refs.append(Ref(Node(self._view(schema), pointer, base), hidden_by))
            if self.ref_only and has_ref:
                hidden_by = (*hidden_by, pointer)
        start = len(self.refs) - (1 if has_ref or "$dynamicRef" in schema else 0)
        for _, suffix, sub in _children(schema):
            # Leaves are skipped here rather than on entry: most subschemas are leaves.
            if sub is not True and sub is not False and not _INDEXED.isdisjoint(sub):
                self._visit(sub, pointer + suffix, base, hidden_by)
        # Depth first: the refs of a subtree are one run of ``self.refs``.
        self._spans[pointer] = (start, len(self.refs))

    @property
    def root_node(self) -> Node:
        return Node(self._view(self.root), "", self._bases[""])

    def child(self, node: Node, *tokens: str) -> Node:
        """The node under ``node`` at the given pointer tokens."""
        pointer = node.pointer
        schema = node.schema
        for token in tokens:
            if "~" in token or "/" in token:
                pointer += "/" + escape_token(token)
            else:
                pointer += "/" + token
            schema = schema[int(token)] if type(schema) is list else schema[token]
        bases = self._bases
        base = bases.get(pointer, node.base) if len(bases) > 1 else node.base
        if self.ref_only and is_mapping(schema) and "$ref" in schema:
            schema = {"$ref": schema["$ref"]}
        return Node(schema, pointer, base)

    def refs_under(self, node: Node) -> list[Node]:
        """The ref-holding subschemas a walk of the subtree at ``node`` reaches."""
        span = self._spans.get(node.pointer)
        if span is not None:
            found = self.refs[span[0] : span[1]]
        elif node.pointer in self._collected:
            found = self._collected[node.pointer]
        else:  # not indexed: under a keyword that holds no subschemas ("components")
            found = self._collected[node.pointer] = []
            self._collect(node.schema, node.pointer, node.base, (), found)
        return [ref.node for ref in found if ref.under(node.pointer)]

    def _collect(
        self, schema: Any, pointer: str, base: str, hidden_by: tuple[str, ...], found: list[Ref]
    ) -> None:
        """The refs of a subtree ``_visit`` did not index, as ``_visit`` records them."""
        if not is_mapping(schema) or _INDEXED.isdisjoint(schema):
            return
        if "$ref" in schema or "$dynamicRef" in schema:
            found.append(Ref(Node(self._view(schema), pointer, base), hidden_by))
            if self.ref_only and "$ref" in schema:
                hidden_by = (*hidden_by, pointer)
        for _, suffix, sub in _children(schema):
            self._collect(sub, pointer + suffix, base, hidden_by, found)

    def resolve(self, ref: str, base: str) -> Node | None:
        """The node a ``$ref`` written under ``base`` points at, or None."""
        key = (ref, base)
        if key in self._resolved:
            return self._resolved[key]
        found = self._resolve(ref, base)
        self._resolved[key] = found
        return found

    def target(self, node: Node) -> Node | None:
        """The node ``node``'s own ``$ref`` points at; None when it has none, or it points
        at nothing. The one follower of a single step: every stage that walks references
        one at a time (to count them, or to see each definition once) asks this."""
        ref = node.schema.get("$ref") if is_mapping(node.schema) else None
        return self.resolve(ref, node.base) if isinstance(ref, str) else None

    def chase(self, ref: str, base: str | None = None) -> Node | None:
        """The node a ``$ref`` leads to once every reference on the way is followed.

        A target that holds a ``$ref`` of its own is followed in turn, whatever else it
        holds, up to ``MAX_REF_HOPS`` references in all. None when a reference points
        at nothing, or the chain is longer (a cycle of references always is). ``base``
        is the one the reference is written under: the root's when not given.
        """
        if base is None:
            base = self.root_node.base
        key = (ref, base)
        if key in self._chased:
            return self._chased[key]
        node = self.resolve(ref, base)
        hops = 1
        while node is not None and is_mapping(node.schema):
            next_ref = node.schema.get("$ref")
            if not isinstance(next_ref, str):
                break
            if hops == MAX_REF_HOPS:
                node = None
                break
            node = self.resolve(next_ref, node.base)
            hops += 1
        self._chased[key] = node
        return node

    def _resolve(self, ref: str, base: str) -> Node | None:
        if ref.startswith("#"):  # what urldefrag(_join(base, ref)) gives, without parsing
            uri, fragment = self._document(base), ref[1:]
        else:
            uri, fragment = _defrag(_join(base, ref))
        resource = self._resources.get(uri)
        if resource is None:
            return None
        fragment = percent_decoded(fragment)
        if fragment and not fragment.startswith("/"):
            target = self._anchors.get(uri + "#" + fragment)
            return None if target is None else self.at(target)
        return self.at(resource + fragment)

    def _document(self, base: str) -> str:
        """The document URI of ``base`` (its fragment dropped, as ``urldefrag`` writes it)."""
        if base == ROOT_BASE:
            return ROOT_BASE
        found = self._documents.get(base)
        if found is None:
            found = self._documents[base] = _defrag(_defrag(base)[0] + "#")[0]
        return found

    def at(self, pointer: str) -> Node | None:
        """The node at a JSON pointer from the root document, or None."""
        schema = self.root
        base = self._bases[""]
        walked = ""
        for token in pointer.split("/")[1:]:
            walked += "/" + token
            key = unescape_token(token)
            if is_mapping(schema) and key in schema:
                schema = schema[key]
            elif isinstance(schema, list) and key.isdigit() and int(key) < len(schema):
                schema = schema[int(key)]
            else:
                return None
            base = self._bases.get(walked, base)
        if not is_schema(schema):
            return None
        return Node(self._view(schema), pointer, base)


def name_of(pointer: str) -> str | None:
    """The name of a named definition (``/$defs/Product`` -> ``Product``), else None."""
    tokens = pointer.split("/")
    if len(tokens) >= 3 and tokens[-1] and unescape_token(tokens[-2]) in _NAMED_PARENTS:
        return unescape_token(tokens[-1])
    return None


def ref_name(ref: str) -> str | None:
    """The definition name a ref spells (``#/$defs/Product`` -> ``Product``), else None."""
    fragment = ref[1:] if ref.startswith("#") else _defrag(ref)[1]
    return name_of(percent_decoded(fragment)) if fragment.startswith("/") else None
