"""Operations to functions: routes, parameters, descriptions and outputs, or located errors.

Each operation is read in two steps. ``draft`` decides where its arguments go (the
``Route``) and which schemas it needs, or why it cannot be a function (HEAD, OPTIONS and
TRACE; a path that does not start with ``/``; a body whose media types are all
unsupported; a broken ``$ref``). Once every
schema of the document went through one ``SchemaTable``, ``assemble`` builds the
parameters object: each path parameter, then ``query`` (an object of the query
parameters; required when one of them is) and ``body`` (required when the document
says so). Header and cookie parameters are never asked of the model: the caller's
connection supplies them.

Supported bodies, in this order of preference: JSON (``application/json``, ``*/*``,
``+json``), ``application/x-www-form-urlencoded``, ``multipart/form-data`` (file parts
become human-side through the separation), ``text/plain``, then a raw upload (binary
media types, or a string schema): a binary string the human supplies whole. A body
whose every media type is none of these (an XML object) is an error.
The output is the JSON (or text) body of the ``200``, else ``201``, else the first other
2xx, else the ``default`` response; another media type gives no output schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from llmapp._limits import cut
from llmapp.http._function import PATH_TEMPLATE, Body, Parameter, Route
from llmapp.http._naming import identifier_key
from llmapp.http._upgrade import Operation
from llmapp.jsonschema import Path, is_mapping, ref_name

__all__ = ["Draft", "describe", "draft"]

Schema = dict[str, Any]

_UNSUPPORTED_METHODS = {
    "head": "HEAD has no response body for a model to read",
    "options": "OPTIONS describes the server, it is not an action for a model",
    "trace": "TRACE echoes the request, it is not an action for a model",
}
_BODY_KEYS = ("query", "body")
_MAX_DESCRIPTION = 1024


def json_media(media_type: str) -> bool:
    """Whether a media type carries JSON (``*/*`` is read as JSON, as the reference does)."""
    base = media_type.split(";", 1)[0].strip().lower()
    return base in ("application/json", "*/*") or base.endswith("+json")


# Body kinds in order of preference; the first a media type of the body has wins.
_KINDS = ("json", "form", "multipart", "text", "raw")
_BY_MEDIA = {
    "application/x-www-form-urlencoded": "form",
    "multipart/form-data": "multipart",
    "text/plain": "text",
}
_RAW_PREFIXES = ("application/octet-stream", "image/", "audio/", "video/")


def body_kind(media_type: str, schema: Any) -> str | None:
    """How a request body of this media type is written, or None when it cannot be.

    ``raw`` is a whole body of bytes a human supplies (an upload): the binary media types,
    and any other type whose schema is a string or absent; an XML object, say, is not.
    """
    base = media_type.split(";", 1)[0].strip().lower()
    if json_media(base):
        return "json"
    if base in _BY_MEDIA:
        return _BY_MEDIA[base]
    if base.startswith(_RAW_PREFIXES) or not is_mapping(schema) or not schema:
        return "raw"
    declared = schema.get("type")
    strings = declared == "string" or (isinstance(declared, list) and "string" in declared)
    return "raw" if strings else None


@dataclass
class Draft:
    """An operation on its way to a function: its route and the schemas it needs."""

    operation: Operation
    route: Route
    keys: list[str]
    path_schemas: list[int] = field(default_factory=list)
    query_schemas: list[int] = field(default_factory=list)
    body_schema: int | None = None
    output_schema: int | None = None
    descriptions: dict[str, str] = field(default_factory=dict)
    query_required: bool = False
    pieces: list[tuple[Any, Path]] = field(default_factory=list)
    error: tuple[str, list[str]] | None = None

    def piece(self, schema: Any, where: Path) -> int:
        self.pieces.append((schema, where))
        return len(self.pieces) - 1


def draft(operation: Operation, named: Mapping[str, Any]) -> Draft:
    """Where the operation's arguments go and the schemas it needs, or its error.

    ``named`` are the document's named schemas, to tell whether a lone query parameter
    given by reference is an object (its properties are then the query keys).
    """
    where = operation.where
    result = Draft(operation, Route(operation.method, operation.path), [])
    if operation.method in _UNSUPPORTED_METHODS:
        result.error = ("method", [f"{where}: {_UNSUPPORTED_METHODS[operation.method]}"])
        return result
    if not operation.path.startswith("/"):
        # Appended to the connection's URL, "@host/x", ":port/x" or ".evil.example/x"
        # would change the server that gets the connection's headers and query.
        result.error = ("path", [f"{where}: a path must start with '/'"])
        return result
    if operation.problems:
        result.error = ("reference", list(operation.problems))
        return result
    path_parameters = _path_parameters(operation, result)
    query, headers = _other_parameters(operation, result)
    body = _body(operation, result)
    if result.error is not None:
        return result
    success = _output(operation, result)
    spread = None
    if len(query) == 1 and query[0].style == "form" and query[0].explode:
        schema = result.pieces[result.query_schemas[0]][0]
        target = (
            named.get(ref_name(schema.get("$ref", "")) or "", schema)
            if is_mapping(schema)
            else None
        )
        if is_mapping(target) and (target.get("type") == "object" or "properties" in target):
            spread = query[0]
    result.route = Route(
        operation.method, operation.path, tuple(path_parameters), tuple(query), tuple(headers),
        body, spread, success,
    )  # fmt: skip
    return result


def _path_parameters(operation: Operation, result: Draft) -> list[Parameter]:
    """The template's parameters in order (undeclared ones are strings), keys made identifiers."""
    declared = {p["name"]: p for p in operation.parameters if p["in"] == "path"}
    path_parameters: list[Parameter] = []
    for name in PATH_TEMPLATE.findall(operation.path):
        parameter = declared.get(name, {"name": name, "in": "path", "schema": {"type": "string"}})
        key = _free(identifier_key(name), result.keys)
        result.keys.append(key)
        path_parameters.append(
            Parameter(
                name,
                key,
                "path",
                parameter.get("style", "simple"),
                parameter.get("explode") is True,
                True,
            )
        )
        at = result.piece(parameter.get("schema", {}), _parameter_at(operation, parameter))
        result.path_schemas.append(at)
        _describe_key(result, key, parameter)
    return path_parameters


def _other_parameters(
    operation: Operation, result: Draft
) -> tuple[list[Parameter], list[Parameter]]:
    """The query parameters (the model's ``query`` object), and the header and cookie ones."""
    query: list[Parameter] = []
    headers: list[Parameter] = []
    for parameter in operation.parameters:
        location = parameter["in"]
        if location == "path":
            continue
        entry = Parameter(
            parameter["name"], parameter["name"], location, parameter.get("style", "form"),
            parameter.get("explode") is True, parameter.get("required") is True,
        )  # fmt: skip
        if location == "query":
            query.append(entry)
            schema = parameter.get("schema", {})
            if is_mapping(schema) and isinstance(parameter.get("description"), str):
                schema = {**schema, "description": parameter["description"]}
            result.query_schemas.append(result.piece(schema, _parameter_at(operation, parameter)))
            result.query_required = result.query_required or entry.required
        else:
            headers.append(entry)
    return query, headers


def _free(key: str, taken: list[str]) -> str:
    while key in taken or key in _BODY_KEYS:
        key = "_" + key
    return key


def _parameter_at(operation: Operation, parameter: Mapping[str, Any]) -> Path:
    key = (str(parameter.get("in")), str(parameter.get("name")))
    return operation.locations.get(key, operation.where.key("parameters")).key("schema")


def _describe_key(result: Draft, key: str, parameter: Mapping[str, Any]) -> None:
    text = parameter.get("description") or parameter.get("title")
    if isinstance(text, str) and text.strip():
        result.descriptions[key] = text


def _body(operation: Operation, result: Draft) -> Body | None:
    request = operation.request_body
    if not request:
        return None
    content = request.get("content")
    if not is_mapping(content) or not content:
        return None
    ranked = sorted(
        (_KINDS.index(kind), index, str(media_type), kind)
        for index, (media_type, media) in enumerate(content.items())
        if (kind := body_kind(str(media_type), _schema_of(media))) is not None
    )
    where = operation.where.key("requestBody").key("content")
    if not ranked:
        listed = ", ".join(str(m) for m in content)
        result.error = (
            "media type",
            [f"{where}: no supported request media type ({listed}); supported: JSON, "
             "form-urlencoded, multipart, text/plain, and binary uploads"],
        )  # fmt: skip
        return None
    _, _, media_type, kind = ranked[0]
    media = content[media_type] if is_mapping(content[media_type]) else {}
    schema = _BODY_SCHEMAS[kind](media_type, media.get("schema", {}))
    if is_mapping(schema) and isinstance(request.get("description"), str):
        schema = {**schema, "description": request["description"]}
    result.body_schema = result.piece(schema, where.key(media_type).key("schema"))
    if isinstance(request.get("description"), str) and request["description"].strip():
        result.descriptions["body"] = request["description"]
    encoding = media.get("encoding")
    parts = {
        str(name): str(spec["contentType"])
        for name, spec in (encoding.items() if is_mapping(encoding) else ())
        if is_mapping(spec) and isinstance(spec.get("contentType"), str)
    }
    return Body(media_type, kind, request.get("required") is True, parts)


def _schema_of(media: Any) -> Any:
    return media.get("schema") if is_mapping(media) else None


def _binary(media_type: str, schema: Any) -> Any:
    return {"type": "string", "format": "binary", "contentMediaType": media_type}


def _declared(media_type: str, schema: Any) -> Any:
    return schema


_BODY_SCHEMAS = {
    "json": _declared,
    "form": _declared,
    "multipart": _declared,
    "text": lambda media_type, schema: {"type": "string"},
    "raw": _binary,
}
"""The body schema the model (or, for ``raw``, the human) composes, per body kind."""


def _output(operation: Operation, result: Draft) -> str | None:
    responses = operation.responses
    statuses: list[str] = [s for s in ("200", "201") if s in responses]
    statuses += sorted(s for s in responses if s.startswith("2") and s not in ("200", "201"))
    statuses += ["default"] if "default" in responses else []
    if not statuses:
        return None
    status = statuses[0]
    content = responses[status].get("content")
    for media_type, media in content.items() if is_mapping(content) else ():
        where = operation.where.key("responses").key(status).key("content").key(str(media_type))
        if json_media(str(media_type)) and is_mapping(media) and "schema" in media:
            result.output_schema = result.piece(media["schema"], where.key("schema"))
            break
        if str(media_type).startswith("text/plain"):
            result.output_schema = result.piece({"type": "string"}, where)
            break
    return status


def describe(operation: Operation, draft: Draft) -> str | None:
    """Summary, description (not repeating the summary), then the tag lines; at most 1,024."""
    raw = operation.original
    summary = _text(raw.get("summary"))
    text = _text(raw.get("description"))
    if summary and text:
        head = summary[:-1] if summary.endswith(".") else summary
        text = text if text.startswith(head) else f"{head}.\n\n{text}"
    else:
        text = summary or text
    lines = [f"@param {key} {_one_line(value)}" for key, value in draft.descriptions.items()]
    for requirement in operation.security:
        for name, scopes in requirement.items() if is_mapping(requirement) else ():
            listed = " ".join(str(s) for s in scopes) if isinstance(scopes, list) else ""
            lines.append(f"@security {name} {listed}".rstrip())
    tags = raw.get("tags")
    lines.extend(
        f"@tag {tag}" for tag in (tags if isinstance(tags, list) else ()) if isinstance(tag, str)
    )
    if raw.get("deprecated") is True:
        lines.append("@deprecated")
    tail = "\n".join(dict.fromkeys(lines))
    if len(tail) > _MAX_DESCRIPTION // 2:
        tail = ""  # many tags or parameters: the prose matters more
    room = _MAX_DESCRIPTION - len(tail) - (2 if tail and text else 0)
    text = cut(text, room, within=True)
    joined = "\n\n".join(part for part in (text, tail) if part)
    return joined or None


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def _one_line(text: str) -> str:
    return " ".join(text.split())
