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
  ``(filename, content[, type])`` as files and other values as fields (multipart even
  when no file is given); ``text/plain`` as text.
- The URL is built from parts (``locate``), never by gluing text: the connection's URL
  with the operation's path appended to its path, then the query: the connection URL's
  own pairs, the model's pairs whose keys neither they nor ``Connection.query`` hold
  (the model's others are dropped and reported), then ``Connection.query``. Its scheme,
  host and port are checked equal to the connection's before anything is sent.
- What cannot be sent is refused before (``unsendable``): a lone surrogate anywhere in the
  model's values (no encoding writes one), ``[`` or ``]`` in a ``deepObject`` key (the
  server would read a different nesting) and a path value written as nothing (``""``,
  ``[]``: ``/files/{id}`` would be ``/files/``, another resource).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from llmapp._results import ValidationIssue
from llmapp.http._function import PATH_TEMPLATE, Body, Parameter, Route
from llmapp.jsonschema import Path

if TYPE_CHECKING:
    import httpx

__all__ = ["Request", "build", "locate", "unsendable"]

_BRACKETS = re.compile(r"[\[\]]")
# What a path template's literal text keeps as it is; anything else is percent-encoded.
_PATH_SAFE = "/:@!$&'()*+,;=-._~%"

_DELIMITERS = {"spaceDelimited": " ", "pipeDelimited": "|", "tabDelimited": "\t"}


@dataclass
class Request:
    """What httpx is asked to send."""

    method: str
    path: str
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
    """``a[b][c]=v`` pairs in document order, walked with a stack of its own (the value is
    the model's, as deep as a framework's parser read it)."""
    pairs: list[tuple[str, str]] = []
    pending: list[tuple[str, Any]] = [(prefix, value)]
    while pending:
        at, each = pending.pop()
        if isinstance(each, dict):
            items: Any = each.items()
        elif isinstance(each, list):
            items = enumerate(each)
        else:
            if each is not None:
                pairs.append((at, text(each)))
            continue
        pending.extend(reversed([(f"{at}[{key}]", item) for key, item in items]))
    return pairs


def build(route: Route, arguments: Mapping[str, Any]) -> Request:
    """The request for valid, merged arguments: its path encoded, its query the model's."""
    values = {p.name: path_segment(p, arguments[p.key]) for p in route.parameters}
    pieces = PATH_TEMPLATE.split(route.path)  # literal text, name, literal text, name...
    path = "".join(
        values.get(piece, "{" + piece + "}") if odd else quote(piece, safe=_PATH_SAFE)
        for odd, piece in ((i % 2 == 1, p) for i, p in enumerate(pieces))
    )
    request = Request(route.method.upper(), path)
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


def unsendable(route: Route, data: Any) -> list[ValidationIssue]:
    """What in the model's valid data no request can carry as it is, each at its path.

    A lone surrogate never gets here: the call kernel refuses it for every door.
    """
    if not isinstance(data, Mapping):
        return []
    issues = _empty_segments(route, data)
    query = data.get("query")
    if not isinstance(query, Mapping):
        return issues
    for parameter in route.query:
        if parameter.style == "deepObject" and parameter.name in query:
            issues.extend(_bracketed(Path(("query", parameter.name)), query[parameter.name]))
    return issues


def _empty_segments(route: Route, data: Mapping[str, Any]) -> list[ValidationIssue]:
    """The model's path values written as nothing: ``/files/{id}`` would be ``/files/``."""
    return [
        ValidationIssue(
            str(Path((parameter.key,))),
            "a non-empty path segment",
            data[parameter.key],
            "an empty path parameter would make the URL name another resource",
        )
        for parameter in route.parameters
        if parameter.key in data and path_segment(parameter, data[parameter.key]) == ""
    ]


def _bracketed(path: Path, value: Any) -> list[ValidationIssue]:
    issues: list[ValidationIssue] = []
    pending = [(path, value)]
    while pending:
        at, each = pending.pop()
        if not isinstance(each, (Mapping, list)):
            continue
        items: Any = each.items() if isinstance(each, Mapping) else enumerate(each)
        for key, item in items:
            if isinstance(key, str) and _BRACKETS.search(key):
                issues.append(
                    ValidationIssue(
                        str(at.key(key)),
                        "undefined",
                        item,
                        "a deepObject key must not hold [ or ]: the server would read a "
                        "different nesting",
                    )
                )
            pending.append((at.key(key) if isinstance(key, str) else at.item(key), item))
    return issues


def locate(host: str, request: Request, fixed: Mapping[str, Any]) -> tuple[httpx.URL, list[str]]:
    """The request's URL from parts, and the model's query keys dropped for the connection's.

    Args:
        host: the connection's URL; its own query pairs are kept first.
        request: the built request (its encoded path and the model's query pairs).
        fixed: ``Connection.query``: these keys are the connection's alone.

    Raises:
        ValueError: the URL would not go to the connection's scheme, host and port.
    """
    import httpx

    base = httpx.URL(host)
    own: list[tuple[str, Any]] = list(base.params.multi_items())
    kept = [(k, v if isinstance(v, str) else json.dumps(v)) for k, v in fixed.items()]
    taken = {key for key, _ in own + kept}
    dropped = sorted({key for key, _ in request.params if key in taken})
    model = [(key, value) for key, value in request.params if key not in taken]
    pairs = own + model + kept
    prefix = base.raw_path.split(b"?", 1)[0].rstrip(b"/")
    url = base.copy_with(raw_path=prefix + request.path.encode("ascii"), fragment=None)
    url = url.copy_with(params=httpx.QueryParams(list(pairs))) if pairs else url
    if (url.scheme, url.host, url.port) != (base.scheme, base.host, base.port):
        raise ValueError(f"the URL of {request.path!r} would leave the connection's server")
    return url, dropped


def _json(request: Request, body: Body, value: Any) -> None:
    if body.media_type.split(";", 1)[0].strip().lower() in ("application/json", "*/*"):
        request.json, request.has_json = value, True
    else:  # a +json type: httpx's json= would say application/json
        request.content = json.dumps(value, ensure_ascii=False).encode()
        request.headers["content-type"] = body.media_type


def _form(request: Request, body: Body, value: Any) -> None:
    request.data = _fields(value)


def _multipart(request: Request, body: Body, value: Any) -> None:
    files, data = _parts(value, body.encoding)
    if not files and data:  # httpx sends fields alone url-encoded: send them as parts
        files = [
            (key, (None, each)) for key, item in data.items()
            for each in (item if isinstance(item, list) else [item])
        ]  # fmt: skip
        data = {}
    request.files, request.data = files, data or None


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
