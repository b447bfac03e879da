"""Every schema the corpora hold, as standalone JSON Schemas for differential testing.

Sources (``CorpusSchema.source``):

* ``bfcl``: each BFCL function's converted parameters (``tests/support/corpora/bfcl.py``), deduplicated;
* ``mcp``: each MCP tool's ``inputSchema`` (and ``outputSchema`` where given) from
  ``mcp-tools/github-mcp-server`` and ``mcp-tools/chief-builder-...`` (tools lists and fixtures);
* ``openapi``: each component schema of every OpenAPI 3.1 document in ``samchon-openapi`` and
  ``openapi``, as ``{"$ref": "#/$defs/Name", "$defs": {...}}`` where ``$defs`` holds the
  component schemas it reaches with ``#/components/schemas/X`` rewritten to ``#/$defs/X``.
  That is the LLM-schema convention (``$defs`` at the root) and a plain JSON pointer both
  libraries resolve; it changes no verdict, since each ``$ref`` still lands on the same schema.

A component schema is left out, and counted in ``SKIPPED`` with the reason, when it reaches a
``$ref`` that is not a local component (external or dangling), uses ``$dynamicRef`` or
``$recursiveRef``, or has an ``$id``/``$anchor`` with a ``$ref`` at or under it (the ``$ref`` would
resolve against another base URI, which the rewrite would break). An ``$id``/``$anchor`` with no
``$ref`` under it changes nothing and is removed, with the ``$schema`` beside it. So is a schema
that is not valid against its metaschema once ``draft4_bounds`` is applied.

``UNSUPPORTED_BY_DESIGN`` lists, in one place, the keywords the differential takes out of every
schema before comparing, and why.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from tests.support.corpora import CORPORA, bfcl
from tests.support.corpora.reference import draft4_bounds, is_draft4
from tests.support.corpora.walk import transform, walk

UNSUPPORTED_BY_DESIGN: dict[str, str] = {
    "format": (
        "an annotation in draft 2020-12 (and what jsonschema checks by default); llmapp asserts "
        'formats (`string & Format<"email">`). Compared with format assertions off on both sides: '
        "the keyword is removed from every schema before either library sees it"
    ),
    "contentEncoding": "an annotation in draft 2020-12; llmapp may assert base64. Removed on both sides",
    "contentMediaType": "an annotation in draft 2020-12; llmapp may assert it. Removed on both sides",
    "contentSchema": "an annotation in draft 2020-12. Removed on both sides",
    "unevaluatedProperties": (
        "not supported by llmapp (ignored; documented in llmapp.validate: it needs annotation "
        "tracking across applicators). Removed on both sides; only petstore-3.1_more uses it"
    ),
    "unevaluatedItems": "not supported by llmapp (ignored), as unevaluatedProperties. Removed on both sides",
}
"""Keyword -> why the differential removes it from every schema before comparing."""


def without_unsupported(schema: Any) -> Any:
    """The schema without the keywords of ``UNSUPPORTED_BY_DESIGN``, at every level."""
    return transform(
        schema, lambda s: {k: v for k, v in s.items() if k not in UNSUPPORTED_BY_DESIGN}
    )


@dataclass(frozen=True)
class CorpusSchema:
    """One schema of a corpus, named by where it comes from.

    Attributes:
        source: ``bfcl``, ``mcp`` or ``openapi``.
        name: where in the source (question id and function, file and tool, document and component).
        schema: the schema as the corpus has it (what llmapp is given).
        reference: the same schema as jsonschema should read it (``draft4_bounds`` applied).
    """

    source: str
    name: str
    schema: Any = field(repr=False)

    @property
    def reference(self) -> Any:
        if is_draft4(self.schema):
            return self.schema  # jsonschema's draft-4 validator reads the boolean form itself
        return draft4_bounds(self.schema)

    @property
    def id(self) -> str:
        return f"{self.source}:{self.name}"


SKIPPED: dict[str, str] = {}
"""Corpus schema id -> why it is not in ``corpus_schemas()`` (filled while loading)."""


def _digest(schema: Any) -> str:
    return hashlib.sha1(json.dumps(schema, sort_keys=True).encode()).hexdigest()


def _unique(found: list[CorpusSchema]) -> list[CorpusSchema]:
    seen: set[str] = set()
    unique = []
    for entry in found:
        digest = _digest(entry.schema)
        if digest not in seen:
            seen.add(digest)
            unique.append(entry)
    return unique


def bfcl_schemas() -> list[CorpusSchema]:
    """Every BFCL function's converted parameters schema (duplicates dropped)."""
    if not bfcl.available():
        return []
    found = [
        CorpusSchema("bfcl", f"{f.question_id}:{f.name}", f.parameters) for f in bfcl.functions()
    ]
    return _unique(found)


def _tools(document: Any) -> list[dict[str, Any]]:
    if isinstance(document, list):
        return document
    if "tools" in document:
        return list(document["tools"])
    return [document] if "inputSchema" in document else []


def mcp_schemas() -> list[CorpusSchema]:
    """Every MCP tool's inputSchema and outputSchema in both mcp-tools folders (duplicates dropped)."""
    root = CORPORA / "mcp-tools"
    paths = sorted((root / "github-mcp-server" / "toolsnaps").glob("*.json"))
    chief = root / "chief-builder-mcp_tool_description_validator"
    paths += sorted((chief / "tools_list").glob("*.json"))
    paths += [
        chief / "fixtures" / name
        for name in ("tool-array.json", "single-tool.json", "bare-array.json")
    ]
    found = []
    for path in paths:
        if not path.exists():
            continue
        for tool in _tools(json.loads(path.read_text(encoding="utf-8"))):
            for key in ("inputSchema", "outputSchema"):
                if key in tool:
                    found.append(
                        CorpusSchema(
                            "mcp", f"{path.parent.name}/{path.stem}:{tool['name']}.{key}", tool[key]
                        )
                    )
    return _unique(found)


OPENAPI_31 = (
    "samchon-openapi/test/examples/v3.1/bbs.json",
    "samchon-openapi/test/examples/v3.1/shopping.json",
    "samchon-openapi/test/examples/v3.1/wanted.json",
    "samchon-openapi/test/swagger.json",
    "openapi/learn-openapis-org/tictactoe.json",
    "openapi/oai-examples/examples/v3.1/webhook-example.json",
    "openapi/oai-examples/examples/v3.1/non-oauth-scopes.json",
    "openapi/swagger-parser-petstore/basic-3.1.yaml",
    "openapi/swagger-parser-petstore/petstore-3.1.yaml",
    "openapi/swagger-parser-petstore/petstore-3.1_more.yaml",
    "openapi/swagger-petstore/v31/code-first_openapi.json",
    "openapi/swagger-petstore/v31/design-first_petstore.yaml",
    "openapi/swagger-ui-fixtures/oas31-request-body-upload-file.yaml",
)
"""The OpenAPI 3.1 documents of the corpora (tictactoe.yaml and code-first_openapi.yaml repeat
their .json twins; learn-openapis-org's 3.2 example is not 3.1)."""

_COMPONENT = "#/components/schemas/"
_BASE_CHANGING = (
    "$id",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "$recursiveRef",
    "$recursiveAnchor",
)


_INERT_IDS = ("$id", "$anchor")
"""Identifiers that change nothing when no ``$ref`` sits at or under them: removed (with the
``$schema`` a resource root may carry) so the rest of such a component schema can be compared."""


def _has_ref(schema: Any) -> bool:
    return any(isinstance(inner, dict) and "$ref" in inner for inner in walk(schema))


def _without_inert_ids(schema: dict[str, Any]) -> dict[str, Any]:
    if not any(key in schema for key in _INERT_IDS):
        return schema
    return {k: v for k, v in schema.items() if k not in (*_INERT_IDS, "$schema")}


def _load_document(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)


def _rewrite_ref(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith(_COMPONENT):
        return {**schema, "$ref": "#/$defs/" + ref[len(_COMPONENT) :]}
    return schema


def _reachable(name: str, defs: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The $defs a component reaches, or the reason it cannot stand alone."""
    reached: dict[str, Any] = {}
    pending = [name]
    while pending:
        current = pending.pop()
        if current in reached:
            continue
        if current not in defs:
            return {}, f"$ref to a missing component schema {current!r}"
        reached[current] = defs[current]
        for inner in walk(defs[current]):
            if not isinstance(inner, dict):
                continue
            used = [k for k in _BASE_CHANGING if k in inner]
            if used and (used[0] not in _INERT_IDS or _has_ref(inner)):
                return (
                    {},
                    f"uses {used[0]} over a $ref (changes the base URI the $ref resolves against)",
                )
            ref = inner.get("$ref")
            if ref is None:
                continue
            if not isinstance(ref, str) or not ref.startswith("#/$defs/") or "/" in ref[8:]:
                return {}, f"$ref {ref!r} is not a local component schema"
            pending.append(ref[8:])
    return reached, None


def openapi_schemas() -> list[CorpusSchema]:
    """Every component schema of the OpenAPI 3.1 documents, standalone (see the module docstring)."""
    found = []
    for relative in OPENAPI_31:
        path = CORPORA / relative
        if not path.exists():
            continue
        document = _load_document(path)
        components = (document.get("components") or {}).get("schemas") or {}
        defs = {name: transform(schema, _rewrite_ref) for name, schema in components.items()}
        for name in defs:
            entry_id = f"{path.stem}:{name}"
            reached, problem = _reachable(name, defs)
            if problem is not None:
                SKIPPED[f"openapi:{entry_id}"] = problem
                continue
            reached = {key: transform(value, _without_inert_ids) for key, value in reached.items()}
            found.append(
                CorpusSchema("openapi", entry_id, {"$ref": f"#/$defs/{name}", "$defs": reached})
            )
    return _unique(found)


def _well_formed(entries: list[CorpusSchema]) -> list[CorpusSchema]:
    """The entries whose reference form passes its metaschema; the others go to ``SKIPPED``.

    An entry's ``$defs`` are checked one by one (and each only once: OpenAPI entries share them).
    BFCL schemas are left out: the converter writes them, and the BFCL tests check every one.
    """
    kept = []
    for entry in entries:
        reference = entry.reference
        parts = [reference]
        if isinstance(reference, dict) and isinstance(reference.get("$defs"), dict):
            parts = [
                {k: v for k, v in reference.items() if k != "$defs"},
                *reference["$defs"].values(),
            ]
        problems = (
            [] if entry.source == "bfcl" else [p for p in map(_metaschema_problem, parts) if p]
        )
        if problems:
            SKIPPED[entry.id] = f"not a valid schema: {problems[0]}"
        else:
            kept.append(entry)
    return kept


_CHECKED: dict[str, str | None] = {}


def _metaschema_problem(schema: Any) -> str | None:
    digest = _digest(schema)
    if digest not in _CHECKED:
        cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
        error = jsonschema.exceptions.best_match(cls(cls.META_SCHEMA).iter_errors(schema))
        _CHECKED[digest] = None if error is None else error.message
    return _CHECKED[digest]


SUITE = CORPORA / "json-schema-test-suite" / "tests"

SUITE_FILES_LEFT_OUT = {
    "dynamicRef.json": "$dynamicRef: llmapp resolves it statically, like $ref (documented)",
    "refRemote.json": "remote references: llmapp does not fetch other documents",
    "vocabulary.json": "$vocabulary and custom meta-schemas: llmapp does not read them",
    "unevaluatedItems.json": "unevaluatedItems: not supported by llmapp (ignored; documented)",
    "unevaluatedProperties.json": "unevaluatedProperties: not supported by llmapp (ignored; documented)",
}
"""JSON-Schema-Test-Suite files whose schemas the catalogue leaves out, and why."""


_REMOTE = ("http://localhost:1234", "https://json-schema.org/", "http://json-schema.org/")


def _remote_refs(schema: Any) -> str | None:
    """Why a suite schema needs another document (a remote or meta-schema ``$ref``), or None."""
    for inner in walk(schema):
        if not isinstance(inner, dict):
            continue
        for keyword in ("$dynamicRef", "$recursiveRef"):
            if keyword in inner:
                return f"{keyword}: resolved statically by llmapp (documented)"
        ref = inner.get("$ref")
        if isinstance(ref, str) and ref.startswith(_REMOTE):
            return f"$ref {ref!r} is in another document (not fetched)"
        patterns = [inner.get("pattern"), *(inner.get("patternProperties") or {})]
        for pattern in patterns:
            if isinstance(pattern, str) and not _python_regex(pattern):
                return f"pattern {pattern!r} is ECMA-262 only (jsonschema compiles it with re)"
    return None


def _python_regex(pattern: str) -> bool:
    try:
        re.compile(pattern)
    except re.error:
        return False
    return True


def suite_schemas() -> list[CorpusSchema]:
    """The case catalogue: every schema of the JSON-Schema-Test-Suite's required tests.

    Draft 2020-12 files as they are; draft 4 files with ``$schema`` set to draft 4, so both
    libraries read them as draft 4. ``optional/`` is not included (formats, bignums, regex
    dialects: the conformance tests cover those). Left out, counted in ``SKIPPED``: the files of
    ``SUITE_FILES_LEFT_OUT`` and schemas with a ``$ref`` into another document.
    """
    found = []
    for draft in ("draft2020-12", "draft4"):
        for path in sorted((SUITE / draft).glob("*.json")):
            for group in json.loads(path.read_text(encoding="utf-8")):
                entry_id = f"{draft}/{path.name}:{group['description']}"
                schema = group["schema"]
                problem = SUITE_FILES_LEFT_OUT.get(path.name) or _remote_refs(schema)
                if draft == "draft4":
                    if not isinstance(schema, dict):
                        problem = problem or "a boolean schema (not a draft 4 schema)"
                    else:
                        schema = {"$schema": "http://json-schema.org/draft-04/schema#", **schema}
                if problem:
                    SKIPPED[f"suite:{entry_id}"] = problem
                else:
                    found.append(CorpusSchema("suite", entry_id, schema))
    return _unique(found)


@cache
def corpus_schemas() -> tuple[CorpusSchema, ...]:
    """Every well-formed schema of every source: BFCL, MCP, OpenAPI 3.1, the test-suite catalogue."""
    entries = [*bfcl_schemas(), *mcp_schemas(), *openapi_schemas(), *suite_schemas()]
    return tuple(_well_formed(entries))
