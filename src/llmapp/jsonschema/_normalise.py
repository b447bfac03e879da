"""Foreign JSON Schema (draft-04 to 2020-12) to the LLM-schema form every later stage reads.

The LLM-schema form is draft 2020-12 vocabulary with every named schema in one ``$defs`` at
the root and every reference written ``#/$defs/Name``. ``normalise`` rewrites, without
touching its input:

* boolean schemas: ``true`` becomes ``{}``, ``false`` becomes ``{"not": {}}``, except as
  the value of ``additionalProperties``, ``unevaluatedProperties``, ``items``,
  ``additionalItems`` and ``unevaluatedItems``, where ``false`` is the idiom for a closed
  object or array that vendors read (and 2020-12 allows);
* ``definitions`` (and ``$defs`` anywhere, nested ones included) become root ``$defs``;
  a reference to any other place (``#``, ``#/properties/a``, an ``$anchor``, an ``$id``) gets
  that place copied into ``$defs`` under a name of its own; definitions no reference reaches
  are dropped (they are never validated and cost the model tokens);
* ``$schema``, ``$id``/``id``, ``$anchor``, ``$dynamicAnchor``, ``$vocabulary`` and
  ``$comment`` are dropped once references are resolved; ``$dynamicRef`` is read as ``$ref``;
* up to draft-07 a ``$ref`` hides its siblings: only ``title`` and ``description`` stay;
* draft-04 boolean ``exclusiveMinimum``/``exclusiveMaximum``, array-form ``items`` with
  ``additionalItems``, and ``dependencies`` become their 2020-12 spellings.

What cannot be rewritten is a ``Problem`` with the JSON pointer of its place in the input:
a reference to a target that is missing or in another document (replaced by ``{}``), a
value that is not a schema where a schema must be (replaced by ``{}``), or nesting deeper
than ``MAX_NESTING`` objects and arrays (cut there, each cut ``{}``: see ``_nesting``).
``description`` and ``title`` lose their control and bidirectional-formatting characters
(``llmapp._text.untrusted``): they are shown to the model and in terminals. The caller decides
whether a problem is fatal (``llmapp.mcp`` and ``llmapp.http`` report the function as an
error and go on with the others).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from llmapp._codegen.fresh import fresh_name
from llmapp._text.untrusted import clean_text
from llmapp.jsonschema._keywords import keywords
from llmapp.jsonschema._nesting import MAX_NESTING, pruned
from llmapp.jsonschema._pointer import escape_token, unescape_token
from llmapp.jsonschema._refs import Resolver, is_mapping, name_of

__all__ = ["Problem", "normalise"]

Schema = dict[str, Any]

_DROPPED = frozenset((*keywords(kind="core"), "definitions", "$defs")) - {"$ref", "$dynamicRef"}
"""Identifiers, dialects and definitions: meaningless once references are resolved and
definitions hoisted."""

_TEXTS = frozenset(("title", "description"))
"""Annotations shown to the model: their control and bidi characters are dropped."""

_KEPT_BESIDE_REF = ("title", "description")
"""Up to draft-07 a ``$ref`` hides its siblings; these annotations still help the model."""

_REWRITTEN = frozenset(("items", "additionalItems", "dependencies"))
"""Keywords that change shape across drafts, each rewritten by a row of ``_REWRITES``."""

_SINGLE = frozenset(keywords(shape="schema")) - _REWRITTEN
_CLOSING = frozenset(("additionalProperties", "unevaluatedProperties", "unevaluatedItems"))
"""Where a boolean stays a boolean: ``additionalProperties: false`` is the idiom every
vendor reads (``items`` and ``additionalItems`` too, in ``_items``)."""
_LISTS = frozenset(keywords(shape="schema-list")) - _REWRITTEN
_MAPS = frozenset(keywords(shape="schema-map")) - _REWRITTEN - _DROPPED


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in a foreign schema that could not be carried into the LLM schema.

    Attributes:
        location: the JSON pointer of the place in the input (``#/properties/a``).
        reason: what is wrong there.
    """

    location: str
    reason: str

    def __str__(self) -> str:
        return f"{self.location}: {self.reason}"


def normalise(schema: Any) -> tuple[Schema, list[Problem]]:
    """Rewrite a foreign JSON Schema into the LLM-schema form.

    Args:
        schema: a JSON Schema of any draft from 04 to 2020-12, or a boolean schema.
            It is not modified.

    Returns:
        The rewritten schema (a new dict, with ``$defs`` at the root only when some
        reference needs it) and the problems found, each located by a JSON pointer
        into the input. With problems, the schema is still usable: each unreadable
        place accepts anything.

    Example:
        >>> normalise({"$schema": "http://json-schema.org/draft-07/schema#",
        ...            "definitions": {"Id": {"type": "integer"}},
        ...            "properties": {"id": {"$ref": "#/definitions/Id"}}})[0]
        {'properties': {'id': {'$ref': '#/$defs/Id'}}, '$defs': {'Id': {'type': 'integer'}}}
    """
    bounded, cuts = pruned(schema)
    out, problems = _Normaliser(bounded).run()
    reason = f"nested more than {MAX_NESTING} levels deep"
    return out, [*(Problem("#" + cut, reason) for cut in cuts), *problems]


class _Normaliser:
    """One run: the resolver of the input, the names given to reference targets so far,
    and the problems found."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.resolver = Resolver(root)
        self.names: dict[str, str] = {}  # target pointer -> name in $defs
        self.taken: set[str] = set()
        self.pending: list[str] = []
        self.problems: dict[Problem, None] = {}  # a place copied twice is reported once

    def run(self) -> tuple[Schema, list[Problem]]:
        out = self.schema(self.root, "")
        defs: Schema = {}
        while self.pending:  # targets found while rewriting may reference further targets
            pointer = self.pending.pop(0)
            node = self.resolver.at(pointer)
            defs[self.names[pointer]] = self.schema(node.schema if node else {}, pointer)
        if defs:
            out["$defs"] = {name: defs[name] for name in sorted(defs)}
        return out, list(self.problems)

    def schema(self, schema: Any, pointer: str) -> Schema:
        """The rewritten copy of the subschema at ``pointer``."""
        if schema is True:
            return {}
        if schema is False:
            return {"not": {}}
        if not is_mapping(schema):
            self.problem(pointer, "not a schema (an object or boolean)")
            return {}
        if "$ref" in schema or "$dynamicRef" in schema:
            return self.reference(schema, pointer)
        return self.keywords(schema, pointer)

    def closing(self, schema: Any, pointer: str) -> Schema | bool:
        """A subschema where a boolean is kept as it is."""
        return schema if isinstance(schema, bool) else self.schema(schema, pointer)

    def reference(self, schema: Mapping[str, Any], pointer: str) -> Schema:
        keyword = "$ref" if "$ref" in schema else "$dynamicRef"
        rewritten = self.target(schema[keyword], pointer)
        if self.resolver.ref_only:
            out = {key: _text(schema[key]) for key in _KEPT_BESIDE_REF if key in schema}
        else:
            out = self.keywords({k: v for k, v in schema.items() if k != keyword}, pointer)
        if rewritten is not None:
            out["$ref"] = rewritten
        return out

    def target(self, ref: Any, pointer: str) -> str | None:
        """The ``#/$defs/Name`` a reference becomes, or None (a problem) when it leads nowhere."""
        here = self.resolver.at(pointer)
        node = (
            self.resolver.resolve(ref, here.base)
            if isinstance(ref, str) and here is not None
            else None
        )
        if node is None:
            reason = (
                f"$ref {ref!r} points at nothing in this document"
                if isinstance(ref, str) and not _remote(ref)
                else f"$ref {ref!r} is not a reference within this document"
            )
            self.problem(pointer, reason)
            return None
        name = self.names.get(node.pointer)
        if name is None:
            name = self.names[node.pointer] = self.fresh(node.pointer)
            self.pending.append(node.pointer)
        return "#/$defs/" + escape_token(name)

    def problem(self, pointer: str, reason: str) -> None:
        self.problems[Problem("#" + pointer, reason)] = None

    def fresh(self, pointer: str) -> str:
        """A name for a target not yet in ``$defs``: its definition name where it has one."""
        base = name_of(pointer) or _last_token(pointer) or "Root"
        name = fresh_name(base, self.taken)
        self.taken.add(name)
        return name

    def keywords(self, schema: Mapping[str, Any], pointer: str) -> Schema:
        out: Schema = {}
        for key, value in schema.items():
            if key in _DROPPED:
                continue
            rewrite = _REWRITES.get(key)
            if rewrite is not None:
                rewrite(self, schema, pointer, out)
            elif key in _CLOSING:
                out[key] = self.closing(value, f"{pointer}/{key}")
            elif key in _SINGLE:
                out[key] = self.schema(value, f"{pointer}/{key}")
            elif key in _LISTS and isinstance(value, list):
                out[key] = [self.schema(sub, f"{pointer}/{key}/{i}") for i, sub in enumerate(value)]
            elif key in _MAPS and is_mapping(value):
                out[key] = {
                    name: self.schema(sub, f"{pointer}/{key}/{escape_token(str(name))}")
                    for name, sub in value.items()
                }
            elif key in _TEXTS:
                out[key] = _text(value)
            else:
                out[key] = copy.deepcopy(value)
        return out


def _items(self: _Normaliser, schema: Mapping[str, Any], pointer: str, out: Schema) -> None:
    items = schema["items"]
    if not isinstance(items, list):
        out["items"] = self.closing(items, pointer + "/items")
        return
    # Drafts 04 to 2019-09: a list of positional schemas, the rest under additionalItems.
    out["prefixItems"] = [self.schema(sub, f"{pointer}/items/{i}") for i, sub in enumerate(items)]
    if "additionalItems" in schema:
        out["items"] = self.closing(schema["additionalItems"], pointer + "/additionalItems")


def _additional_items(
    self: _Normaliser, schema: Mapping[str, Any], pointer: str, out: Schema
) -> None:
    """Read by ``_items`` beside a list of items; anywhere else it never applied."""


def _dependencies(self: _Normaliser, schema: Mapping[str, Any], pointer: str, out: Schema) -> None:
    value = schema["dependencies"]
    if not is_mapping(value):
        self.problem(pointer + "/dependencies", "not an object")
        return
    for name, dependency in value.items():
        if isinstance(dependency, list):
            out.setdefault("dependentRequired", {})[name] = list(dependency)
        else:
            where = f"{pointer}/dependencies/{escape_token(str(name))}"
            out.setdefault("dependentSchemas", {})[name] = self.schema(dependency, where)


Rewrite = Callable[[_Normaliser, Mapping[str, Any], str, Schema], None]


def _exclusive(keyword: str, bound: str) -> Rewrite:
    """Draft-04 ``exclusiveMinimum: true`` beside ``minimum`` is 2020-12's number form."""

    def rewrite(self: _Normaliser, schema: Mapping[str, Any], pointer: str, out: Schema) -> None:
        flag = schema[keyword]
        if not isinstance(flag, bool):
            out[keyword] = copy.deepcopy(flag)
        elif flag and bound in schema:
            out[keyword] = schema[bound]

    return rewrite


def _bound(bound: str, keyword: str) -> Rewrite:
    """``minimum``/``maximum``, unless a draft-04 flag made it the exclusive bound."""

    def rewrite(self: _Normaliser, schema: Mapping[str, Any], pointer: str, out: Schema) -> None:
        if schema.get(keyword) is not True:
            out[bound] = copy.deepcopy(schema[bound])

    return rewrite


_REWRITES = {
    "items": _items,
    "additionalItems": _additional_items,
    "dependencies": _dependencies,
    "exclusiveMinimum": _exclusive("exclusiveMinimum", "minimum"),
    "exclusiveMaximum": _exclusive("exclusiveMaximum", "maximum"),
    "minimum": _bound("minimum", "exclusiveMinimum"),
    "maximum": _bound("maximum", "exclusiveMaximum"),
}
"""Keywords whose spelling changed between drafts: each writes its 2020-12 form into ``out``."""


def _text(value: Any) -> Any:
    return clean_text(value) if isinstance(value, str) else copy.deepcopy(value)


def _remote(ref: str) -> bool:
    return not ref.startswith("#")


def _last_token(pointer: str) -> str:
    token = unescape_token(pointer.rpartition("/")[2])
    return "" if token.isdigit() else token
