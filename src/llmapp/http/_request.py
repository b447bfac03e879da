"""Valid arguments to an HTTP request: URL, query, headers and body, as the document says.

- Path parameters are written ``simple`` (arrays comma-joined, objects ``k,v,...``;
  ``label``/``matrix`` styles add their prefix) and percent-encoded with nothing left
  safe, so ``../admin`` or ``a/b?c#d`` stays one segment (a value of ``.`` or ``..``
  is written ``%2E``, since URLs resolve dot segments away).
- Query parameters follow ``style`` and ``explode``: ``form`` (arrays repeated, or
  comma-joined when not exploded; objects spread into keys, or ``k,v,...``),
  ``spaceDelimited``/``pipeDelimited``/``tabDelimited``, ``deepObject`` (``a[b][c]=v``),
  and ``json`` for a parameter given as content. Booleans are ``true``/``false``;
  ``null`` leaves the key out.
- Bodies: JSON as is; a raw upload as its bytes; form-urlencoded with each property a
  key (arrays repeated, objects as JSON); multipart with bytes, file objects or
  ``(filename, content[, type])`` as files and other values as fields; ``text/plain``
  as text.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from llmapp.http._function import Body, Parameter, Route

__all__ = ["Request", "build"]

_DELIMITERS = {"spaceDelimited": " ", "pipeDelimited": "|", "tabDelimited": "\t"}


@dataclass
class Request:
    """What httpx is asked to send."""

    method: str
    url: str
    params: list[tuple[str, str]] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    json: Any = None
    data: Any = None
    files: Any = None
    content: str | bytes | None = None
    has_json: bool = False


def text(value: Any) -> str:
    """One primitive as it is written in a URL or a form."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return ""
    if isinstance(value, (dict, list)):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def _simple(value: Any, explode: bool) -> str:
    if isinstance(value, list):
        return ",".join(text(item) for item in value)
    if isinstance(value, dict):
        joiner = "=" if explode else ","
        return ",".join(f"{k}{joiner}{text(v)}" for k, v in value.items())
    return text(value)


def path_segment(parameter: Parameter, value: Any) -> str:
    """The encoded text that replaces ``{name}`` in the path."""
    written = quote(_simple(value, parameter.explode), safe="")
    if written in (".", ".."):  # a dot segment would be resolved away by the URL
        written = written.replace(".", "%2E")
    if parameter.style == "label":
        return "." + written
    if parameter.style == "matrix":
        return f";{quote(parameter.name, safe='')}={written}"
    return written


def query_pairs(parameter: Parameter, name: str, value: Any) -> list[tuple[str, str]]:
    """The query string pairs of one parameter's value."""
    if value is None:
        return []
    style = parameter.style
    if style == "json":
        return [(name, json.dumps(value, ensure_ascii=False))]
    if style == "deepObject" and isinstance(value, (dict, list)):
        return _deep(name, value)
    if isinstance(value, list):
        items = [text(item) for item in value if item is not None]
        if style in _DELIMITERS:
            return [(name, _DELIMITERS[style].join(items))]
        return [(name, item) for item in items] if parameter.explode else [(name, ",".join(items))]
    if isinstance(value, dict):
        if parameter.explode:
            pairs: list[tuple[str, str]] = []
            for key, item in value.items():
                pairs.extend(query_pairs(Parameter(key, key, "query", "form", True), key, item))
            return pairs
        return [(name, ",".join(f"{k},{text(v)}" for k, v in value.items()))]
    return [(name, text(value))]


def _deep(prefix: str, value: Any) -> list[tuple[str, str]]:
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return [] if value is None else [(prefix, text(value))]
    pairs: list[tuple[str, str]] = []
    for key, item in items:
        pairs.extend(_deep(f"{prefix}[{key}]", item))
    return pairs


def build(route: Route, arguments: Mapping[str, Any], host: str) -> Request:
    """The request for valid, merged arguments."""
    path = route.path
    for parameter in route.parameters:
        path = path.replace(
            "{" + parameter.name + "}", path_segment(parameter, arguments[parameter.key])
        )
    request = Request(route.method.upper(), host.rstrip("/") + path)
    query = arguments.get("query")
    if isinstance(query, Mapping):
        declared = {parameter.name: parameter for parameter in route.query}
        spread = route.query_spread
        for name, value in query.items():
            found = declared.get(name)
            if found is None or spread is not None:
                found = Parameter(name, name, "query", "form", True)
            request.params.extend(query_pairs(found, name, value))
    body = route.body
    if body is not None and "body" in arguments:
        _WRITERS[body.kind](request, body, arguments["body"])
    return request


def _json(request: Request, body: Body, value: Any) -> None:
    if body.media_type.split(";", 1)[0].strip().lower() in ("application/json", "*/*"):
        request.json, request.has_json = value, True
    else:  # a +json type: httpx's json= would say application/json
        request.content = json.dumps(value, ensure_ascii=False).encode()
        request.headers["content-type"] = body.media_type


def _form(request: Request, body: Body, value: Any) -> None:
    request.data = _fields(value)


def _multipart(request: Request, body: Body, value: Any) -> None:
    request.files, request.data = _parts(value, body.encoding)


def _text(request: Request, body: Body, value: Any) -> None:
    request.content = value if isinstance(value, (str, bytes)) else text(value)
    request.headers["content-type"] = body.media_type


def _raw(request: Request, body: Body, value: Any) -> None:
    if hasattr(value, "read"):
        value = value.read()
    request.content = value if isinstance(value, (str, bytes)) else bytes(value)
    wildcard = "*" in body.media_type
    request.headers["content-type"] = "application/octet-stream" if wildcard else body.media_type


_WRITERS: dict[str, Callable[[Request, Body, Any], None]] = {
    "json": _json,
    "form": _form,
    "multipart": _multipart,
    "text": _text,
    "raw": _raw,
}
"""How each kind of body is written into the request."""


def _fields(value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        return {"value": text(value)}
    out: dict[str, Any] = {}
    for key, item in value.items():
        if item is None:
            continue
        out[key] = [text(i) for i in item] if isinstance(item, list) else text(item)
    return out


def _parts(value: Any, encoding: Mapping[str, str]) -> tuple[list[tuple[str, Any]], dict[str, Any]]:
    files: list[tuple[str, Any]] = []
    data: dict[str, Any] = {}
    for key, item in value.items() if isinstance(value, Mapping) else ():
        for each in item if isinstance(item, list) else [item]:
            if _is_file(each):
                files.append((key, _file(key, each, encoding.get(key))))
            elif each is not None:
                data.setdefault(key, []).append(text(each))
    return files, {k: v[0] if len(v) == 1 else v for k, v in data.items()}


def _is_file(value: Any) -> bool:
    return isinstance(value, (bytes, bytearray, tuple)) or hasattr(value, "read")


def _file(key: str, value: Any, content_type: str | None) -> Any:
    if isinstance(value, tuple):
        return value
    if content_type:
        return (key, value, content_type)
    return (key, value)
