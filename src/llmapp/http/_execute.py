"""Calling an HTTP function: read, repair, validate, merge, then one request with httpx.

Nothing is sent until the arguments are valid: the model's text goes through the call
kernel every door shares (``llmapp.kernel``: read, repair against the model's side of the
parameters, the function's validation or its hook); wrong arguments raise ``ArgumentError`` from
``execute``/``propagate`` and give feedback from ``HttpLlmApplication.execute``.
Only the sending differs between the sync and async twins (``_send``).

What goes back to the model from ``HttpLlmApplication.execute`` is masked: every
human-side value and every header, query and cookie value of the connection is
replaced by ``***`` in error texts (a 422 echoing its input, h11's text) and in
response bodies (a server echoing the request). A body is shown as JSON or text, cut
at ``Connection.max_message`` characters; bytes are described, never written out. A
transport failure, a body past the bounds or a response nested too deeply is a failed
``CallResult``, never an exception.

Each call is logged to ``llmapp.http`` (``llmapp.kernel._log``), its traceback masked as
the model's text is.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from time import perf_counter
from typing import Any

from llmapp import repair
from llmapp._cancelled import own_cancellation
from llmapp._errors import ArgumentError, ExecutionError, HttpError
from llmapp._results import ValidationFailure
from llmapp.app import unknown_function
from llmapp.explain import feedback
from llmapp.http._connection import Connection
from llmapp.http._function import HttpLlmFunction
from llmapp.http._request import Request, build, locate, unsendable
from llmapp.http._send import HttpResponse, ResponseError, asend, send
from llmapp.kernel import (
    HTTP,
    NOTHING,
    CallResult,
    FunctionTable,
    Masker,
    awaiting_approval,
    check_arguments,
    enabled,
    error_text,
    failed,
    for_model,
    join,
    log_call,
    log_raised,
    model_side,
    time_limit,
    too_deep_refusal,
)

__all__ = [
    "ArgumentError",
    "Connection",
    "HttpError",
    "HttpResponse",
    "ResponseError",
    "acall",
    "aexecute",
    "apropagate",
    "call",
    "execute",
    "propagate",
]


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
        ResponseError: the body is larger than ``Connection.max_body`` once decoded, or
            nested too deeply to read.
        httpx.HTTPError: the request could not be sent, or the call passed its deadline.

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

    The model's query keys that ``Connection.query`` (or the host's own query) also has
    are dropped: the connection's values are sent.

    Raises:
        ArgumentError: the arguments are wrong (nothing was sent).
        ExecutionError: missing or unknown human-side values.
        ResponseError: the body is larger than ``Connection.max_body`` once decoded, or
            nested too deeply to read.
        httpx.HTTPError: the request could not be sent, or the call passed its deadline.
    """
    started = perf_counter()
    try:
        prepared = _prepare(connection, function, arguments, human)
        _client_for(connection, asynchronous=False)
        response = send(connection, prepared.options)
    except Exception as error:
        _log_raised(function, error, started, connection, human)
        raise
    _log_response(function, response, started, prepared)
    return response


async def apropagate(
    connection: Connection,
    function: HttpLlmFunction,
    arguments: Any,
    *,
    human: Mapping[str, Any] | None = None,
) -> HttpResponse:
    """``propagate`` with an ``httpx.AsyncClient``."""
    started = perf_counter()
    try:
        prepared = _prepare(connection, function, arguments, human)
        _client_for(connection, asynchronous=True)
        response = await asend(connection, prepared.options)
    except Exception as error:
        _log_raised(function, error, started, connection, human)
        raise
    _log_response(function, response, started, prepared)
    return response


def call(
    app: FunctionTable[HttpLlmFunction],
    connection: Connection,
    name: str,
    arguments: Any,
    human: Mapping[str, Any] | None,
    raise_errors: bool = False,
    context: Any = None,
    approved: bool = False,
) -> CallResult:
    """``HttpLlmApplication.execute``: the outcome of one call as a ``CallResult``, logged.

    ``app`` is the application's table of functions (the application itself), which
    this step reads and never imports: the application calls the step."""
    started = perf_counter()
    try:
        result = _call(app, connection, name, arguments, human, raise_errors, context, approved)
    except Exception as error:  # raise_errors, or a misuse (human values, the client)
        log_raised(HTTP, name, error, perf_counter() - started, _masked(connection, human))
        raise
    _log_result(result, started, connection, human)
    return result


def _call(
    app: FunctionTable[HttpLlmFunction],
    connection: Connection,
    name: str,
    arguments: Any,
    human: Mapping[str, Any] | None,
    raise_errors: bool,
    context: Any,
    approved: bool,
) -> CallResult:
    function = _called(app, name, context)
    if isinstance(function, CallResult):
        return function
    try:
        prepared = _prepare(connection, function, arguments, human)
    except ArgumentError as wrong:
        return _wrong(function, wrong)
    waiting = awaiting_approval(function, prepared.data, context, approved)
    if waiting is not None:  # controls: nothing is sent until a human approves
        return waiting
    _client_for(connection, asynchronous=False)
    limit = _own_limit(function, connection)
    started = perf_counter()
    try:
        response = send(
            connection if limit is None else replace(connection, deadline=limit), prepared.options
        )
    except Exception as error:  # the transport, the server or the bounds
        if limit is not None and _late(error) and perf_counter() - started >= limit:
            # the function's own timeout, answered as aexecute's runner answers it
            late = TimeoutError(f"{function.name} did not finish within {limit:g} s")
            if raise_errors:
                raise late from error
            return prepared.failed(function, late)
        if raise_errors:
            raise
        return prepared.failed(function, error)
    return prepared.answered(function, response, raise_errors)


def _own_limit(function: HttpLlmFunction, connection: Connection) -> float | None:
    """The function's own timeout when it is shorter than the connection's deadline: a sync
    call is bounded by it as the connection's deadline bounds it (no further hop sent)."""
    limit = time_limit(function, None)
    deadline = connection.resolved_deadline()
    return limit if limit is not None and (deadline is None or limit < deadline) else None


def _late(error: BaseException) -> bool:
    import httpx

    return isinstance(error, httpx.TimeoutException)


async def acall(
    app: FunctionTable[HttpLlmFunction],
    connection: Connection,
    name: str,
    arguments: Any,
    human: Mapping[str, Any] | None,
    raise_errors: bool = False,
    context: Any = None,
    approved: bool = False,
) -> CallResult:
    """``HttpLlmApplication.aexecute``."""
    started = perf_counter()
    try:
        result = await _acall(
            app, connection, name, arguments, human, raise_errors, context, approved
        )
    except Exception as error:  # raise_errors, or a misuse (human values, the client)
        log_raised(HTTP, name, error, perf_counter() - started, _masked(connection, human))
        raise
    _log_result(result, started, connection, human)
    return result


async def _acall(
    app: FunctionTable[HttpLlmFunction],
    connection: Connection,
    name: str,
    arguments: Any,
    human: Mapping[str, Any] | None,
    raise_errors: bool,
    context: Any,
    approved: bool,
) -> CallResult:
    function = _called(app, name, context)
    if isinstance(function, CallResult):
        return function
    try:
        prepared = _prepare(connection, function, arguments, human)
    except ArgumentError as wrong:
        return _wrong(function, wrong)
    waiting = awaiting_approval(function, prepared.data, context, approved)
    if waiting is not None:  # controls: nothing is sent until a human approves
        return waiting
    _client_for(connection, asynchronous=True)
    try:
        response = await asend(connection, prepared.options)
    except Exception as error:  # the transport, the server or the bounds
        if raise_errors:
            raise
        return prepared.failed(function, error)
    except BaseException as error:  # the client's own CancelledError, this task not cancelled
        if raise_errors or not own_cancellation(error):
            raise
        return prepared.failed(function, error)
    return prepared.answered(function, response, raise_errors)


@dataclass(frozen=True)
class _Prepared:
    """A call ready to send: httpx's arguments, what to keep from the model, what to tell."""

    options: dict[str, Any]
    hidden: Masker
    max_message: int
    repairs: tuple[str, ...]
    data: Any = None
    """The model's checked arguments (never a human-side value): what an approval shows."""

    def answered(
        self, function: HttpLlmFunction, response: HttpResponse, raise_errors: bool = False
    ) -> CallResult:
        if not response.success:
            error = HttpError(response, function.method.upper(), function.path)
            if raise_errors:
                raise error
            return self.failed(function, error, value=response.body)
        try:
            kind = response.headers.get("content-type", "")
            data = for_model(
                response.body, kind, self.hidden, self.max_message, "Connection.max_message"
            )
        except RecursionError:
            return self.failed(function, ResponseError("the body is nested too deeply to show"))
        return _result(function, success=True, value=response.body, data=data, repairs=self.repairs)

    def failed(
        self, function: HttpLlmFunction, error: BaseException, value: Any = None
    ) -> CallResult:
        text = error_text(error, self.hidden)
        return _result(function, error=error, value=value, feedback=text, repairs=self.repairs)


def _called(
    app: FunctionTable[HttpLlmFunction], name: Any, context: Any = None
) -> HttpLlmFunction | CallResult:
    """The function the model named, or the answer naming the functions there are (for
    this context: a function whose ``enabled`` control says no is not one)."""
    function = app.function(name) if isinstance(name, str) else None
    if function is None or (function.controls is not None and not enabled(function, context)):
        shown = [f.name for f in app.functions if f.controls is None or enabled(f, context)]
        return unknown_function(name, shown)
    return function


def _client_for(connection: Connection, *, asynchronous: bool) -> None:
    """Refuse a client of the other kind before anything is sent."""
    client = connection.client
    if client is None:
        return
    import httpx

    if asynchronous and not isinstance(client, httpx.AsyncClient):
        raise ExecutionError("aexecute/apropagate need an httpx.AsyncClient (use execute)")
    if not asynchronous and not isinstance(client, httpx.Client):
        raise ExecutionError("execute/propagate need an httpx.Client (use aexecute)")


def _prepare(
    connection: Connection,
    function: HttpLlmFunction,
    arguments: Any,
    human: Mapping[str, Any] | None,
) -> _Prepared:
    """Read, repair and check the model's arguments, merge the human's, and build the request.

    Raises:
        ArgumentError: the arguments are wrong, or hold what no request can carry.
    """
    data, repairs = _validated(function, arguments)
    refusal = too_deep_refusal(data, repair.MAX_DEPTH, repairs)  # past the writers' reach
    if refusal is not None:
        raise ArgumentError(*refusal, repairs)
    route = function.route()
    issues = unsendable(route, data)
    if issues:
        failure = ValidationFailure(data, issues)
        raise ArgumentError(failure, feedback(failure), repairs)
    merged = join(function, data, human)
    request = build(route, merged)
    request.headers = {**dict(connection.headers), **request.headers}
    try:
        url, dropped = locate(connection.host, request, connection.query)
    except ValueError as leaving:  # the checks at build and in Connection make this rare
        raise ExecutionError(f"{function.name}: {leaving}") from None
    notes = tuple(
        f"the query key {key!r} is the connection's: the model's value was dropped"
        for key in dropped
    )
    return _Prepared(
        _options(request, url),
        _masked(connection, human),
        connection.max_message,
        (*repairs, *notes),
        data,
    )


def _log_result(
    result: CallResult, started: float, connection: Connection, human: Mapping[str, Any] | None
) -> None:
    """The call's record; the masker (the connection's secrets read) only for an error."""
    hidden = _masked(connection, human) if result.error is not None else NOTHING
    log_call(HTTP, result, perf_counter() - started, hidden)


def _log_raised(
    function: HttpLlmFunction,
    error: Exception,
    started: float,
    connection: Connection,
    human: Mapping[str, Any] | None,
) -> None:
    """``propagate``'s record of a call it refused (wrong arguments) or could not send."""
    seconds = perf_counter() - started
    if isinstance(error, ArgumentError):
        log_call(HTTP, _wrong(function, error), seconds)
    else:
        log_raised(HTTP, function.name, error, seconds, _masked(connection, human))


def _log_response(
    function: HttpLlmFunction, response: HttpResponse, started: float, prepared: _Prepared
) -> None:
    """``propagate``'s record of an answer: ``ok`` for 2xx, else the ``HttpError`` it is."""
    seconds = perf_counter() - started
    if response.success:
        log_call(HTTP, _result(function, success=True, repairs=prepared.repairs), seconds)
    elif HTTP.isEnabledFor(logging.WARNING):
        error = HttpError(response, function.method.upper(), function.path)
        log_call(
            HTTP, _result(function, error=error, repairs=prepared.repairs), seconds, prepared.hidden
        )


def _masked(connection: Connection, human: Mapping[str, Any] | None) -> Masker:
    """Every value to keep from the model: the human side and the connection's secrets."""
    return Masker.of(dict(human or {}), connection.secrets())


def _validated(function: HttpLlmFunction, arguments: Any) -> tuple[Any, tuple[str, ...]]:
    """The kernel's step (``llmapp.kernel``); a refusal raises ``ArgumentError`` carrying it."""
    checked = check_arguments(
        function, arguments, model_side(function), max_length=function.max_length
    )
    if isinstance(checked, CallResult):  # cut off, unreadable or wrong: nothing is sent
        assert isinstance(checked.validation, ValidationFailure)
        raise ArgumentError(checked.validation, checked.feedback or "", checked.repairs)
    return checked.data, checked.repairs


def _options(request: Request, url: Any) -> dict[str, Any]:
    options: dict[str, Any] = {"method": request.method, "url": url}
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


def _checked(response: HttpResponse, function: HttpLlmFunction) -> Any:
    if not response.success:
        raise HttpError(response, function.method.upper(), function.path)
    return response.body


def _result(function: HttpLlmFunction, **fields: Any) -> CallResult:
    return CallResult(
        name=function.name, deprecated=function.deprecated, **{"success": False, **fields}
    )


def _wrong(function: HttpLlmFunction, wrong: ArgumentError) -> CallResult:
    return failed(function, wrong.validation, wrong.repairs, wrong.feedback)
