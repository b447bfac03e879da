"""Swagger 2.0, OpenAPI 3.0 and 3.1 (3.2 tolerated) read into one 3.1-style form.

What the converter then sees, whatever the dialect:

- ``schemas``: the named schemas (``definitions`` or ``components/schemas``), each
  rewritten by ``openapi_schema``; every reference to one is ``#/$defs/Name``;
- ``operations``: one ``Operation`` per method of each path, with path-level and
  operation-level parameters merged (the operation's win), every ``$ref`` to a
  parameter, request body or response followed, and each in 3.1 form: parameters
  with ``schema``, ``style`` and ``explode``; Swagger ``body`` and ``formData``
  parameters become a ``requestBody`` (``formData`` is ``multipart/form-data`` when a
  part is a file or the operation consumes it, else ``x-www-form-urlencoded``);
  Swagger responses get ``content`` from ``produces``.

``openapi_schema`` rewrites what only OpenAPI says: ``nullable: true`` (3.0) and
``x-nullable: true`` (2.0) become ``anyOf [X, {"type": "null"}]``, ``type: file``
becomes a binary string, ``example`` becomes ``examples``, a Swagger
``discriminator`` name becomes ``{"propertyName": name}``. JSON-Schema drafts
(boolean ``exclusiveMinimum``, boolean schemas, ``definitions`` inside a schema) are
left to ``llmapp.jsonschema.normalise``, which runs later on everything at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from llmapp._text.untrusted import unsafe_character
from llmapp.http._document import DocumentError
from llmapp.jsonschema import (
    MAX_NESTING,
    MAX_REF_HOPS,
    MISSING,
    Path,
    is_mapping,
    resolve_pointer,
    subschemas,
)

__all__ = ["METHODS", "Document", "Operation", "openapi_schema", "upgrade"]

Schema = dict[str, Any]

METHODS = ("get", "post", "put", "patch", "delete", "head", "options", "trace")
HUMAN_MARKERS = ("x-llmapp-human", "x-samchon-human")

_SCHEMA_REFS = ("#/components/schemas/", "#/definitions/")
_NULLABLE = ("nullable", "x-nullable")
# Annotations that describe the whole nullable value, hoisted beside its anyOf.
_HOISTED = ("title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly")
# Swagger 2.0 parameter fields that are schema keywords.
_PARAMETER_SCHEMA = (
    "type", "format", "items", "enum", "default", "maximum", "exclusiveMaximum", "minimum",
    "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems",
    "uniqueItems", "multipleOf", "x-nullable",
)  # fmt: skip
# Swagger collectionFormat -> (style, explode), for query/form values; path and
# header values are always comma-separated ("simple") in both dialects.
_COLLECTION = {
    "csv": ("form", False),
    "multi": ("form", True),
    "ssv": ("spaceDelimited", False),
    "pipes": ("pipeDelimited", False),
    "tsv": ("tabDelimited", False),
}
_DEFAULT_STYLE = {"path": "simple", "header": "simple", "query": "form", "cookie": "form"}


@dataclass
class Operation:
    """One operation in 3.1 form, and what was wrong while reading it."""

    method: str
    path: str
    where: Path
    original: Mapping[str, Any]
    parameters: list[Schema] = field(default_factory=list)
    request_body: Schema | None = None
    responses: dict[str, Schema] = field(default_factory=dict)
    security: list[Any] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    human: bool = False
    locations: dict[tuple[str, str], Path] = field(default_factory=dict)

    def normalised(self) -> dict[str, Any]:
        """The operation in 3.1 form: merged parameters, references followed."""
        out = {k: v for k, v in self.original.items() if k not in ("parameters", "requestBody")}
        out["parameters"] = self.parameters
        if self.request_body is not None:
            out["requestBody"] = self.request_body
        out["responses"] = self.responses
        out["security"] = self.security
        return out


@dataclass
class Document:
    """The whole document in 3.1 form."""

    version: str
    schemas: dict[str, Any]
    operations: list[Operation]
    servers: list[str]


def openapi_schema(schema: Any, depth: int = 0) -> Any:
    """The schema with OpenAPI's own keywords rewritten (see the module docstring).

    Past ``MAX_NESTING`` levels the schema is left as it is: ``normalise`` reports it.
    """
    if not is_mapping(schema) or depth > MAX_NESTING:
        return schema
    out = dict(schema)
    copied: set[str] = set()
    for tokens, sub in subschemas(schema):
        new = openapi_schema(sub, depth + 1)
        if len(tokens) == 1:
            out[tokens[0]] = new
            continue
        keyword, inner = tokens
        if keyword not in copied:
            value = out[keyword]
            out[keyword] = list(value) if isinstance(value, list) else dict(value)
            copied.add(keyword)
        container = out[keyword]
        if isinstance(container, list):
            container[int(inner)] = new
        else:
            container[inner] = new
    ref = out.get("$ref")
    if isinstance(ref, str):
        for prefix in _SCHEMA_REFS:
            if ref.startswith(prefix):
                out["$ref"] = "#/$defs/" + ref[len(prefix) :]
                break
    if out.get("type") == "file":
        out["type"] = "string"
        out["format"] = "binary"
    if "example" in out:
        example = out.pop("example")
        out.setdefault("examples", [example])
    if isinstance(out.get("discriminator"), str):
        out["discriminator"] = {"propertyName": out["discriminator"]}
    nullable = False
    for keyword in _NULLABLE:
        if keyword in out:
            nullable = out.pop(keyword) is True or nullable
    return _or_null(out) if nullable else out


def _or_null(schema: Schema) -> Schema:
    hoisted = {key: schema.pop(key) for key in _HOISTED if key in schema}
    if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
        schema["enum"] = [*schema["enum"], None]
    return {**hoisted, "anyOf": [schema, {"type": "null"}]}


def upgrade(raw: Mapping[str, Any]) -> Document:
    """Read a Swagger 2.0 / OpenAPI 3.x document into one 3.1-style ``Document``.

    Raises:
        DocumentError: the document is neither Swagger 2.0 nor OpenAPI 3.
    """
    swagger = raw.get("swagger")
    openapi = raw.get("openapi")
    if isinstance(swagger, str) and swagger.startswith("2"):
        version = "2.0"
        named = raw.get("definitions")
    elif isinstance(openapi, str) and openapi.startswith("3"):
        version = openapi
        components = raw.get("components")
        named = components.get("schemas") if is_mapping(components) else None
    else:
        raise DocumentError("not a Swagger 2.0 or OpenAPI 3 document (no 'swagger'/'openapi')")
    schemas = {
        name: openapi_schema(schema)
        for name, schema in (named.items() if is_mapping(named) else ())
        if isinstance(name, str)
    }
    reader = _Reader(raw, version == "2.0")
    operations: list[Operation] = []
    paths = raw.get("paths")
    for path, item in paths.items() if is_mapping(paths) else ():
        if isinstance(path, str) and is_mapping(item):
            operations.extend(reader.path_item(path, item))
    return Document(version, schemas, operations, _servers(raw, version == "2.0"))


def _servers(raw: Mapping[str, Any], swagger: bool) -> list[str]:
    if swagger:
        host = raw.get("host")
        if not isinstance(host, str):
            return []
        schemes = raw.get("schemes") or ["https"]
        base = raw.get("basePath") if isinstance(raw.get("basePath"), str) else ""
        return [f"{scheme}://{host}{base}" for scheme in schemes if isinstance(scheme, str)]
    servers = raw.get("servers")
    if not isinstance(servers, list):
        return []
    return [s["url"] for s in servers if is_mapping(s) and isinstance(s.get("url"), str)]


class _Reader:
    """Reads the operations of one document."""

    def __init__(self, raw: Mapping[str, Any], swagger: bool) -> None:
        self.raw = raw
        self.swagger = swagger
        consumes, produces = raw.get("consumes"), raw.get("produces")
        self.consumes = consumes if isinstance(consumes, list) else []
        self.produces = produces if isinstance(produces, list) else []
        security = raw.get("security")
        self.security = security if isinstance(security, list) else []

    def path_item(self, path: str, item: Mapping[str, Any]) -> list[Operation]:
        where = Path(("paths", path))
        item = self.follow(item, where, [])
        listed = item.get("parameters")
        shared: list[Any] = listed if isinstance(listed, list) else []
        found = []
        for method in METHODS:
            operation = item.get(method)
            if is_mapping(operation):
                found.append(self.operation(method, path, operation, shared))
        return found

    def operation(
        self, method: str, path: str, raw: Mapping[str, Any], shared: list[Any]
    ) -> Operation:
        where = Path(("paths", path, method))
        operation = Operation(method, path, where, raw)
        operation.human = any(raw.get(marker) is True for marker in HUMAN_MARKERS)
        unsafe = unsafe_character(path)
        if unsafe is not None:
            operation.problems.append(f"{where}: the path holds the character {unsafe}")
        security = raw.get("security")
        operation.security = security if isinstance(security, list) else self.security
        merged: dict[tuple[str, str], tuple[Any, Path]] = {}
        listed = raw.get("parameters")
        own: list[Any] = listed if isinstance(listed, list) else []
        for base, parameters in (
            (Path(("paths", path, "parameters")), shared),
            (where.key("parameters"), own),
        ):
            for index, parameter in enumerate(parameters):
                at = base.item(index)
                found = self.follow(parameter, at, operation.problems)
                if not (isinstance(found.get("name"), str) and isinstance(found.get("in"), str)):
                    if found:
                        operation.problems.append(f"{at}: a parameter needs 'name' and 'in'")
                    continue
                unsafe = unsafe_character(found["name"])
                if unsafe is not None:
                    reason = f"the parameter name {found['name']!r} holds the character {unsafe}"
                    operation.problems.append(f"{at}: {reason}")
                    continue
                merged[(found["in"], found["name"])] = (found, at)
                operation.locations[(found["in"], found["name"])] = at
        if self.swagger:
            self.swagger_parameters(operation, raw, list(merged.values()))
        else:
            operation.parameters = [self.parameter(p) for p, _ in merged.values()]
            body = raw.get("requestBody")
            if body is not None:
                found = self.follow(body, where.key("requestBody"), operation.problems)
                operation.request_body = self.with_schemas(found) if found else None
        responses = raw.get("responses")
        for status, response in responses.items() if is_mapping(responses) else ():
            at = where.key("responses").key(str(status))
            found = self.follow(response, at, operation.problems)
            if self.swagger and "schema" in found:
                media = self.media(raw, "produces", self.produces)
                schema = openapi_schema(found["schema"])
                found = {**found, "content": {m: {"schema": schema} for m in media}}
            elif found:
                found = self.with_schemas(found)
            operation.responses[str(status)] = found
        return operation

    def follow(self, node: Any, where: Path, problems: list[str]) -> Schema:
        """The object at ``node``, following its ``$ref`` chain (empty on a broken one, or
        one longer than ``MAX_REF_HOPS``, the limit every stage follows)."""
        seen: set[str] = set()
        while is_mapping(node) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            if ref in seen or not ref.startswith("#") or len(seen) == MAX_REF_HOPS:
                problems.append(f"{where}: $ref {ref!r} cannot be followed")
                return {}
            seen.add(ref)
            target = resolve_pointer(self.raw, ref, fragment=True)
            if target is MISSING:
                problems.append(f"{where}: $ref {ref!r} points at nothing in this document")
                return {}
            node = target
        return dict(node) if is_mapping(node) else {}

    def parameter(self, parameter: Mapping[str, Any]) -> Schema:
        out = dict(parameter)
        location = out["in"]
        out.setdefault("style", _DEFAULT_STYLE.get(location, "simple"))
        out.setdefault("explode", out["style"] == "form")
        if "schema" in out:
            out["schema"] = openapi_schema(out["schema"])
        elif is_mapping(out.get("content")):
            # A parameter given as content (a JSON object in one query key).
            for media_type, media in out["content"].items():
                if is_mapping(media):
                    out["schema"] = openapi_schema(media.get("schema", {}))
                    out["style"] = "json" if "json" in str(media_type) else out["style"]
                    break
        out.setdefault("schema", {})
        return out

    def swagger_parameters(
        self, operation: Operation, raw: Mapping[str, Any], parameters: list[tuple[Any, Path]]
    ) -> None:
        form: dict[str, Any] = {}
        form_required: list[str] = []
        for parameter, _ in parameters:
            location = parameter["in"]
            if location == "body":
                media = self.media(raw, "consumes", self.consumes)
                schema = openapi_schema(parameter.get("schema", {}))
                operation.request_body = {
                    "required": parameter.get("required") is True,
                    "content": {m: {"schema": schema} for m in media},
                }
                if isinstance(parameter.get("description"), str):
                    operation.request_body["description"] = parameter["description"]
                continue
            schema = openapi_schema(self.swagger_schema(parameter))
            if location == "formData":
                form[parameter["name"]] = schema
                if parameter.get("required") is True:
                    form_required.append(parameter["name"])
                continue
            style, explode = _COLLECTION.get(
                parameter.get("collectionFormat", "csv"), ("form", False)
            )
            if location in ("path", "header"):
                style, explode = "simple", False
            operation.parameters.append(
                {
                    **{
                        k: parameter[k]
                        for k in ("name", "in", "description", "required")
                        if k in parameter
                    },
                    "schema": schema,
                    "style": style,
                    "explode": explode,
                }
            )
        if form:
            consumes = self.media(raw, "consumes", self.consumes)
            files = any(schema.get("format") == "binary" for schema in form.values())
            multipart = files or "multipart/form-data" in consumes
            media_type = "multipart/form-data" if multipart else "application/x-www-form-urlencoded"
            schema = {"type": "object", "properties": form, "required": form_required}
            operation.request_body = {
                "required": bool(form_required),
                "content": {media_type: {"schema": schema}},
            }

    def swagger_schema(self, parameter: Mapping[str, Any]) -> Schema:
        schema = {key: parameter[key] for key in _PARAMETER_SCHEMA if key in parameter}
        if "description" in parameter:
            schema["description"] = parameter["description"]
        items = schema.get("items")
        if is_mapping(items):
            schema["items"] = {k: v for k, v in items.items() if k != "collectionFormat"}
        return schema

    def media(self, raw: Mapping[str, Any], key: str, default: list[Any]) -> list[str]:
        declared = raw.get(key)
        media = declared if isinstance(declared, list) else default
        found = [m for m in media if isinstance(m, str)]
        return found or ["application/json"]

    def with_schemas(self, found: Schema) -> Schema:
        """A request body or response with each media type's schema rewritten."""
        content = found.get("content")
        if not is_mapping(content):
            return found
        rewritten = {}
        for media_type, media in content.items():
            if is_mapping(media):
                media = dict(media)
                if "schema" in media:
                    media["schema"] = openapi_schema(media["schema"])
            rewritten[media_type] = media
        return {**found, "content": rewritten}
