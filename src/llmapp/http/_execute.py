"""Calling an HTTP function: read, repair, validate, merge, then one request with httpx.

Nothing is sent until the arguments are valid: text goes through ``llmapp.parse``,
data through ``llmapp.coerce`` against the model's side of the parameters, then the
function's validation (or its hook); wrong arguments raise ``ArgumentError`` from
``execute``/``propagate`` and give feedback from ``HttpLlmApplication.execute``.
Only the sending differs between the sync and async twins.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from llmapp import CallResult, ValidationFailure, coerce
from llmapp._errors import ExecutionError, LlmappError
from llmapp.app import read_arguments, unknown_function
from llmapp.app._function import OnFirstUse
from llmapp.app._merge import join
from llmapp.explain import feedback
from llmapp.http._function import HttpLlmFunction
from llmapp.http._request import Request, build
from llmapp.jsonschema import MISSING

if TYPE_CHECKING:
    import httpx

    from llmapp import Validation
    from llmapp.http._application import HttpLlmApplication

__all__ = [
    "ArgumentError",
    "Connection",
    "HttpError",
    "HttpResponse",
    "acall",
    "aexecute",
    "apropagate",
    "call",
    "execute",
    "propagate",
]

_DEFAULT_TIMEOUT = 30.0
_PREVIEW = 500


@dataclass(frozen=True)
class Connection:
    """Where and how requests are sent.

    Attributes:
        host: the server's base URL (``https://api.example.com/v1``).
        headers: sent with every request: authentication, tenant ids, and the header
            parameters the document declares (never asked of the model).
        query: query parameters sent with every request (an API key, say).
        client: an ``httpx.Client`` (for ``execute``/``propagate``) or
            ``httpx.AsyncClient`` (for the async twins) to send with; not closed.
        transport: an httpx transport for the client made per call when ``client``
            is not given (``httpx.MockTransport``, ``httpx.ASGITransport``...).
        timeout: seconds, or ``None`` for no timeout; not given: 30 seconds.
    """

    host: str
    headers: Mapping[str, str] = field(default_factory=dict)
    query: Mapping[str, Any] = field(default_factory=dict)
    client: Any = None
    transport: Any = None
    timeout: Any = MISSING


@dataclass(frozen=True)
class HttpResponse:
    """What the server answered: status, headers and the decoded body.

    The body is JSON data for a JSON media type, text for ``text/*``, bytes otherwise,
    and ``None`` when empty.
    """

    status: int
    headers: dict[str, str]
    body: Any

    @property
    def success(self) -> bool:
        """A 2xx status."""
        return 200 <= self.status < 300


class HttpError(LlmappError):
    """The server answered with a status other than 2xx.

    Attributes:
        status: the status code.
        headers: the response headers.
        body: the decoded response body.
        method: the request method.
        url: the request URL.
    """

    def __init__(self, response: HttpResponse, method: str, url: str) -> None:
        self.status = response.status
        self.headers = response.headers
        self.body = response.body
        self.method = method
        self.url = url
        preview = self.body if isinstance(self.body, str) else json.dumps(self.body, default=str)
        if len(preview) > _PREVIEW:
            preview = preview[:_PREVIEW] + "…"
        super().__init__(f"{method} {url} answered {self.status}: {preview}")


class ArgumentError(LlmappError):
    """The model's arguments are wrong; no request was sent.

    Attributes:
        validation: the failed validation, each issue with its path.
        feedback: the text to send back to the model.
    """

    def __init__(self, validation: ValidationFailure, text: str | None = None) -> None:
        self.validation = validation
        self.feedback = feedback(validation) if text is None else text
        super().__init__(f"wrong arguments, nothing sent:\n{self.feedback}")


def execute(
    connection: Connection,
    function: HttpLlmFunction,
    arguments: Any,
    *,
    human: Mapping[str, Any] | None = None,
) -> Any:
    """Send the request for a call and return the decoded 2xx body.

    Args:
        connection: the server, its headers and the client.
        function: the function the LLM called.
        arguments: the LLM's arguments: its raw text (read leniently), a mapping, or None.
        human: values for the human side of a separated function (files, secrets).

    Raises:
        ArgumentError: the arguments are wrong (nothing was sent).
        HttpError: the server answered with a status other than 2xx.
        ExecutionError: missing or unknown human-side values.
        httpx.HTTPError: the request could not be sent.

    Example::

        body = execute(Connection("http://127.0.0.1:8000"), app.function("pets_get"), '{}')
    """
    return _checked(propagate(connection, function, arguments, human=human), function)


async def aexecute(
    connection: Connection,
    function: HttpLlmFunction,
    arguments: Any,
    *,
    human: Mapping[str, Any] | None = None,
) -> Any:
    """``execute`` with an ``httpx.AsyncClient``."""
    response = await apropagate(connection, function, arguments, human=human)
    return _checked(response, function)


def propagate(
    connection: Connection,
    function: HttpLlmFunction,
    arguments: Any,
    *,
    human: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """Send the request for a call and return status, headers and body, whatever the status.

    Raises:
        ArgumentError: the arguments are wrong (nothing was sent).
        ExecutionError: missing or unknown human-side values.
        httpx.HTTPError: the request could not be sent.
    """
    request = _request(connection, function, arguments, human)
    httpx = _httpx()
    client = connection.client
    if client is not None:
        if not isinstance(client, httpx.Client):
            raise ExecutionError("execute/propagate need an httpx.Client (use aexecute)")
        return _response(client.request(**_options(request)))
    with httpx.Client(transport=connection.transport, timeout=_timeout(connection)) as made:
        return _response(made.request(**_options(request)))


async def apropagate(
    connection: Connection,
    function: HttpLlmFunction,
    arguments: Any,
    *,
    human: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """``propagate`` with an ``httpx.AsyncClient``."""
    request = _request(connection, function, arguments, human)
    httpx = _httpx()
    client = connection.client
    if client is not None:
        if not isinstance(client, httpx.AsyncClient):
            raise ExecutionError("aexecute/apropagate need an httpx.AsyncClient (use execute)")
        return _response(await client.request(**_options(request)))
    async with httpx.AsyncClient(
        transport=connection.transport, timeout=_timeout(connection)
    ) as made:
        return _response(await made.request(**_options(request)))


def call(
    app: HttpLlmApplication,
    connection: Connection,
    name: str,
    arguments: Any,
    human: Mapping[str, Any] | None,
) -> CallResult:
    """``HttpLlmApplication.execute``: the outcome of one call as a ``CallResult``."""
    function = _called(app, name)
    if isinstance(function, CallResult):
        return function
    try:
        response = propagate(connection, function, arguments, human=human)
    except (ArgumentError, _httpx().HTTPError) as error:
        return _not_answered(function, error)
    return _answered(function, response)


async def acall(
    app: HttpLlmApplication,
    connection: Connection,
    name: str,
    arguments: Any,
    human: Mapping[str, Any] | None,
) -> CallResult:
    """``HttpLlmApplication.aexecute``."""
    function = _called(app, name)
    if isinstance(function, CallResult):
        return function
    try:
        response = await apropagate(connection, function, arguments, human=human)
    except (ArgumentError, _httpx().HTTPError) as error:
        return _not_answered(function, error)
    return _answered(function, response)


def _called(app: HttpLlmApplication, name: Any) -> HttpLlmFunction | CallResult:
    """The function the model named, or the answer naming the functions there are."""
    function = app.function(name) if isinstance(name, str) else None
    if function is None:
        return unknown_function(name, [f.name for f in app.functions])
    return function


def _not_answered(function: HttpLlmFunction, error: Exception) -> CallResult:
    """Wrong arguments (nothing was sent: feedback for the model), or a request that failed."""
    if isinstance(error, ArgumentError):
        return _wrong(function, error)
    return _result(function, error=error)


def _httpx() -> Any:
    try:
        import httpx
    except ImportError as missing:  # pragma: no cover - httpx is in the http extra
        raise ImportError("llmapp.http needs httpx: pip install 'llmapp[http]'") from missing
    return httpx


def _timeout(connection: Connection) -> Any:
    return _DEFAULT_TIMEOUT if connection.timeout is MISSING else connection.timeout


def _request(
    connection: Connection,
    function: HttpLlmFunction,
    arguments: Any,
    human: Mapping[str, Any] | None,
) -> Request:
    data = _validated(function, arguments)
    merged = join(function, data, human)
    request = build(function.route(), merged, connection.host)
    request.headers = {**dict(connection.headers), **request.headers}
    for key, value in connection.query.items():
        request.params.append((key, value if isinstance(value, str) else json.dumps(value)))
    return request


def _validated(function: HttpLlmFunction, arguments: Any) -> Any:
    read = read_arguments(function.name, arguments, deprecated=function.deprecated)
    if isinstance(read, CallResult):  # cut off or unreadable: nothing is sent
        assert read.validation is not None and read.feedback is not None
        raise ArgumentError(read.validation, read.feedback)
    data, _ = read
    separated = function.separated
    check = separated.validate if separated is not None else None
    # The model's side is repaired against the schema its validator checks.
    schema = check.source if isinstance(check, OnFirstUse) else function.checked_parameters
    repaired = coerce(data, schema)
    validation: Validation
    if function.hook is None and check is not None:
        validation = check(repaired)
    else:
        validation = function.validate(repaired)
    if isinstance(validation, ValidationFailure):
        raise ArgumentError(validation)
    return validation.data


def _options(request: Request) -> dict[str, Any]:
    options: dict[str, Any] = {"method": request.method, "url": request.url}
    if request.params:
        options["params"] = request.params
    if request.headers:
        options["headers"] = request.headers
    if request.has_json:
        options["json"] = request.json
    if request.data is not None:
        options["data"] = request.data
    if request.files:
        options["files"] = request.files
    if request.content is not None:
        options["content"] = request.content
    return options


def _response(response: httpx.Response) -> HttpResponse:
    kind = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    raw = response.content
    body: Any
    if not raw:
        body = None
    elif kind == "application/json" or kind.endswith("+json"):
        try:
            body = response.json()
        except ValueError:
            body = response.text
    elif kind.startswith("text/") or not kind:
        body = response.text
    else:
        body = raw
    return HttpResponse(response.status_code, dict(response.headers), body)


def _checked(response: HttpResponse, function: HttpLlmFunction) -> Any:
    if not response.success:
        raise HttpError(response, function.method.upper(), function.path)
    return response.body


def _answered(function: HttpLlmFunction, response: HttpResponse) -> CallResult:
    if response.success:
        return _result(function, success=True, value=response.body, data=response.body)
    error = HttpError(response, function.method.upper(), function.path)
    return _result(function, error=error, value=response.body)


def _result(function: HttpLlmFunction, **fields: Any) -> CallResult:
    return CallResult(
        name=function.name, deprecated=function.deprecated, **{"success": False, **fields}
    )


def _wrong(function: HttpLlmFunction, wrong: ArgumentError) -> CallResult:
    return _result(function, validation=wrong.validation, feedback=wrong.feedback)
