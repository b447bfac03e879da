"""OpenAI structured-outputs ("strict") rules, applied to an emitted parameters schema.

What ``strict=True`` changes, everywhere in the schema including ``$defs``:

- every object lists **all** its properties in ``required``; a property that was
  optional becomes nullable (``anyOf [X, {"type": "null"}]``, unless it already
  accepts null), so the model writes ``null`` where it would have left the key out;
- ``additionalProperties`` is ``false`` on every object (it already is for
  llmapp's objects);
- keywords outside the supported subset are moved into the description as
  ``@keyword value`` lines, so the model still reads them: ``default``,
  ``minLength``, ``maxLength``, ``uniqueItems``, ``minProperties``,
  ``maxProperties``, ``contentEncoding``, ``contentMediaType``, ``examples`` and
  any ``format`` other than date-time, time, date, duration, email, hostname,
  ipv4, ipv6, uuid (kept: ``pattern``, ``minimum``/``maximum`` and their
  exclusive forms, ``multipleOf``, ``minItems``/``maxItems``, ``enum``, ``anyOf``; the
  bounds of a ``decimal`` string go into the description with its format);
  a union's ``discriminator`` is dropped (each branch's tag already lists its value);
- a ``$ref`` with sibling keywords (a description beside it) is unrolled one
  level: the definition is copied in place with the siblings on top, the
  property's description first and the type's own (its docstring) after it; a
  recursive definition is not copied but wrapped, ``{"anyOf": [{"$ref": ...}],
  "description": ...}``, so it is never both inline and in ``$defs``;
- what strict mode cannot express is reported as a problem (the schema is left
  as it was): free-form keys (``dict[str, T]``, ``additionalProperties`` other
  than ``false``), ``Any`` (a schema with no type) and fixed-length tuples
  (``prefixItems``).

Strict rules apply to what the model sees: a value a human supplies (``human(schema)``,
``Human()`` or the ``separate`` predicate) is left exactly as it is, with the definitions
only such values reach, and is never reported (it keeps its place in ``required``
only if it was required). Output schemas are not changed either.
The validator built from a strict schema accepts ``null`` for a parameter that
has a default; whoever calls the method passes the default for that ``null``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from typing import Any

from llmapp import jsonschema  # its _refs module loads in strict mode only
from llmapp._scalars.table import NUMERIC_TEXT_FORMATS, strict_formats

__all__ = ["make_strict", "strict_form"]

SUPPORTED_FORMATS = frozenset({"email", "hostname"}) | strict_formats()
# Kept in the schema; everything else about a value moves into its description.
_SHIFTED = (
    "default",
    "minLength",
    "maxLength",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "contentEncoding",
    "contentMediaType",
    "examples",
)
_BOUNDS = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf")
_NULL = {"type": "null"}

Report = Callable[[str, str, bool], None]
"""``report(path, reason, in_definition)``; a path in ``$defs`` starts with the def's name."""

Predicate = Callable[[Mapping[str, Any]], bool]


def _nobody(schema: Mapping[str, Any]) -> bool:
    return False


class _Strict:
    def __init__(self, defs: Mapping[str, Any], report: Report, human: Predicate) -> None:
        self.defs = defs
        self._report = report
        self.human = human
        self.in_definition = False
        self.recursive: frozenset[str] = frozenset()

    def report(self, path: str, reason: str) -> None:
        self._report(path, reason, self.in_definition)

    def schema(self, schema: Mapping[str, Any], path: str) -> dict[str, Any]:
        if self.human(schema):
            return dict(schema)
        result = dict(schema)
        ref = result.get("$ref")
        if isinstance(ref, str) and len(result) > 1:
            name = jsonschema.ref_name(ref) or ""
            target = self.defs.get(name)
            siblings = {k: v for k, v in result.items() if k != "$ref"}
            if name in self.recursive:  # stays a $ref; a one-branch anyOf carries the siblings
                return _shift({"anyOf": [{"$ref": ref}], **siblings})
            if isinstance(target, Mapping):
                # unroll one level: siblings win over the definition, whose own
                # description (the type's docstring) follows the property's
                merged = {**target, **siblings}
                described = [target.get("description"), siblings.get("description")]
                if all(isinstance(text, str) and text for text in described):
                    merged["description"] = f"{described[1]}\n\n{described[0]}"
                return self._unrolled(merged, name)
        self._check(result, path)
        if "properties" in result:
            result.update(self._object(result, path))
        if isinstance(result.get("items"), Mapping):
            result["items"] = self.schema(result["items"], f"{path}[]")
        if isinstance(result.get("anyOf"), list):
            result["anyOf"] = [self.schema(option, path) for option in result["anyOf"]]
        if isinstance(result.get("prefixItems"), list):
            result["prefixItems"] = [
                self.schema(item, f"{path}[]") for item in result["prefixItems"]
            ]
        return _shift(result)

    def _unrolled(self, merged: dict[str, Any], name: str) -> dict[str, Any]:
        """A definition copied in place: its problems are the definition's, reported once."""
        was = self.in_definition
        self.in_definition = True
        try:
            return self.schema(merged, name)
        finally:
            self.in_definition = was

    def _check(self, schema: Mapping[str, Any], path: str) -> None:
        extra = schema.get("additionalProperties", False)
        if schema.get("type") == "object" and extra is not False:
            self.report(path, "free-form keys (dict[str, T]) are not supported in strict mode")
        if "prefixItems" in schema:
            self.report(path, "a fixed-length tuple (prefixItems) is not supported in strict mode")
        if not schema.keys() & {"type", "anyOf", "$ref", "enum", "const"}:
            self.report(path, "Any (a schema without a type) is not supported in strict mode")

    def _object(self, schema: Mapping[str, Any], path: str) -> dict[str, Any]:
        required = set(schema.get("required", ()))
        properties = {}
        kept_optional = set()  # human-side values: not the model's to write, left as they are
        for name, value in schema["properties"].items():
            where = f"{path}.{name}" if path else name
            optional = name not in required
            if optional and self.human(value):
                kept_optional.add(name)
                properties[name] = dict(value)
                continue
            properties[name] = (
                self._optional(value, where) if optional else self.schema(value, where)
            )
        return {
            "properties": properties,
            "required": [name for name in properties if name not in kept_optional],
        }

    def _optional(self, schema: Mapping[str, Any], path: str) -> dict[str, Any]:
        """A property the model may now not leave out: nullable, its default in the description."""
        shifted = _shift(dict(schema))
        if self._accepts_null(shifted):
            return self.schema(shifted, path)
        # The description goes on the wrapper, so a ``$ref`` inside stays bare (no unrolling).
        outer: dict[str, Any] = {
            k: shifted.pop(k) for k in ("title", "description") if k in shifted
        }
        inner = self.schema(shifted, path)
        options = list(inner["anyOf"]) if inner.keys() == {"anyOf"} else [inner]
        return {"anyOf": [*options, dict(_NULL)], **outer}

    def _accepts_null(self, schema: Mapping[str, Any], seen: frozenset[str] = frozenset()) -> bool:
        declared = schema.get("type")
        if declared == "null" or (isinstance(declared, list) and "null" in declared):
            return True
        if None in schema.get("enum", ()):
            return True
        if any(self._accepts_null(option, seen) for option in schema.get("anyOf", ())):
            return True
        ref = schema.get("$ref")
        if isinstance(ref, str):
            name = jsonschema.ref_name(ref) or ""
            target = self.defs.get(name)
            return (
                name not in seen
                and isinstance(target, Mapping)
                and (self._accepts_null(target, seen | {name}))
            )
        return False


def _shift(schema: dict[str, Any]) -> dict[str, Any]:
    """Move unsupported keywords into the description as ``@keyword value`` lines."""
    # The tags' own enum/const say it already; the validation schema keeps it.
    schema.pop("discriminator", None)
    notes = [
        f"@{key} {_text(schema.pop(key))}"
        for key in _SHIFTED
        if key in schema and not (key == "default" and schema[key] is None)
    ]
    schema.pop("default", None)  # a null default says nothing: the value is nullable anyway
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt not in SUPPORTED_FORMATS:
        notes.append(f"@format {schema.pop('format')}")
        if fmt in NUMERIC_TEXT_FORMATS:  # bounds on a decimal string go with its format
            notes += [f"@{key} {_text(schema.pop(key))}" for key in _BOUNDS if key in schema]
    if notes:
        description = schema.get("description")
        tags = "\n".join(notes)
        schema["description"] = f"{description}\n\n{tags}" if description else tags
    return schema


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def make_strict(
    schema: Mapping[str, Any], report: Report, *, human: Predicate | None = None
) -> dict[str, Any]:
    """A strict copy of a parameters schema (the input is not changed).

    Args:
        schema: an object schema with ``properties`` and, maybe, ``$defs``.
        report: called with ``(path, reason, in_definition)`` for what strict mode
            cannot express.
        human: ``True`` for a value a human supplies: left as it is, never reported.
    """
    defs = schema.get("$defs", {})
    strict = _Strict(defs, report, human or _nobody)
    strict.recursive = jsonschema.recursive_definitions(defs)
    result = strict.schema({k: v for k, v in schema.items() if k != "$defs"}, "")
    # Unrolled references may leave definitions nothing points at any more: drop them,
    # so they are neither sent nor reported. Those only human-side values reach stay as
    # they are.
    used = jsonschema.reachable_definitions(result, defs, strict.human)
    kept = jsonschema.reachable_definitions(result, defs) - used
    if used or kept:
        strict.in_definition = True
        result["$defs"] = {
            name: strict.schema(value, name) if name in used else dict(value)
            for name, value in defs.items()
            if name in used or name in kept
        }
    return result


def strict_form(parameters: Mapping[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The one strict builder of a source's parameters (an OpenAPI operation, an MCP tool):
    every object that lists properties closed (JSON Schema leaves it open, strict mode
    wants it closed), then ``make_strict``; with ``(path, reason)`` for what strict mode
    cannot express. A class's schemas are emitted strict directly (``SchemaEmitter``)."""
    problems: list[tuple[str, str]] = []

    def report(path: str, reason: str, in_definition: bool) -> None:
        problems.append((path, reason))

    return make_strict(_closed(parameters), report), problems


def _closed(schema: Any) -> Any:
    """A copy where every object that lists properties but says nothing of others refuses
    them."""
    if not jsonschema.is_mapping(schema):
        return schema
    out = dict(schema)
    for tokens, sub in jsonschema.subschemas(schema):
        if len(tokens) == 1:
            out[tokens[0]] = _closed(sub)
            continue
        keyword, inner = tokens
        if out[keyword] is schema[keyword]:
            out[keyword] = copy.copy(schema[keyword])
        out[keyword][int(inner) if isinstance(out[keyword], list) else inner] = _closed(sub)
    if "properties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False
    return out
