"""One HTTP function (an operation the LLM may call), where its arguments go, and why an
operation could not become one."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from logging import Logger
from typing import Any, ClassVar

from llmapp.kernel import HTTP, Function, function_data

__all__ = ["PATH_TEMPLATE", "Body", "HttpLlmFunction", "OperationError", "Parameter", "Route"]

Schema = dict[str, Any]

PATH_TEMPLATE = re.compile(r"\{([^}]+)\}")
"""A parameter in a path template: ``{name}``."""


@dataclass(frozen=True)
class Parameter:
    """One parameter of the operation and how its value is written into the request.

    Attributes:
        name: its name in the request (the path template, the query string, the header).
        key: the argument key the LLM writes (``name`` made an identifier, for path
            parameters; the same as ``name`` elsewhere).
        location: ``"path"``, ``"query"``, ``"header"`` or ``"cookie"``.
        style: the OpenAPI serialisation style (``simple``, ``form``, ``deepObject``...).
        explode: whether arrays and objects are written one key per value.
        required: the document says the parameter must be given.
    """

    name: str
    key: str
    location: str
    style: str
    explode: bool
    required: bool = False


@dataclass(frozen=True)
class Body:
    """The request body: its media type and how multipart parts are encoded.

    Attributes:
        media_type: the media type sent as ``content-type``.
        kind: how the value is written: ``json``, ``form`` (urlencoded), ``multipart``,
            ``text`` or ``raw`` (bytes a human supplies, sent as they are).
        required: the document says a body must be sent.
        encoding: per-property ``contentType`` of form and multipart parts.
    """

    media_type: str
    kind: str = "json"
    required: bool = False
    encoding: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Route:
    """Where each argument of an HTTP function goes.

    Attributes:
        method: the lower-case HTTP method.
        path: the path template (``/users/{id}``).
        parameters: the path parameters, in template order (keys of the arguments).
        query: the query parameters (keys of ``arguments["query"]``).
        headers: header and cookie parameters: supplied by the caller through the
            connection, never by the LLM.
        body: the request body (``arguments["body"]``), or None.
        query_spread: the single object-typed query parameter whose properties are the
            query keys themselves (``form``/``explode``), or None.
        success: the status code whose response gave ``output`` (``"200"``...), or None.
    """

    method: str
    path: str
    parameters: tuple[Parameter, ...] = ()
    query: tuple[Parameter, ...] = ()
    headers: tuple[Parameter, ...] = ()
    body: Body | None = None
    query_spread: Parameter | None = None
    success: str | None = None


@dataclass(frozen=True, eq=False, slots=True)
class HttpLlmFunction(Function):
    """An operation of an OpenAPI document as a function the LLM may call; immutable
    once built.

    The one ``Function`` record (name, description, schemas, human side, output) with
    where the request goes: validation, feedback, separation and the vendor exports
    treat it as any other function.

    Attributes:
        method: the lower-case HTTP method.
        path: the path template.
        name: the function name (unique in its application, at most ``max_name_length`` long).
        description: summary, description, ``@param``, ``@security``, ``@tag`` and
            ``@deprecated`` lines.
        parameters: one object: each path parameter, then ``query`` and ``body`` when the
            operation has them (``additionalProperties: false``, ``$defs``).
        output: the schema of the success response's JSON body, or None.
        deprecated: the operation is deprecated.
        tags: the operation's tags.
        separated: the LLM/human split of the parameters, when something is human-side.
        checked_parameters: what arguments are checked against (the document's own
            schema, also when ``parameters`` was made strict).
    """

    method: str = field(kw_only=True)
    path: str = field(kw_only=True)
    _operation: Mapping[str, Any] = field(default_factory=dict, repr=False, kw_only=True)
    _route: Route | None = field(default=None, repr=False, kw_only=True)

    log: ClassVar[Logger] = HTTP

    @property
    def validation_parameters(self) -> Schema | None:
        """``checked_parameters`` when ``parameters`` was made strict, else ``None`` (the
        name this record had before every function had ``checked_parameters``)."""
        checked = self.checked_parameters
        return None if checked is self.parameters else checked

    def operation(self) -> Mapping[str, Any]:
        """The operation as normalised from the document (3.1 form, references kept)."""
        return self._operation

    def route(self) -> Route:
        """Where each argument goes: path, query, header, body."""
        assert self._route is not None
        return self._route

    def to_dict(self) -> dict[str, Any]:
        """The function as plain JSON-ready data (with ``method`` and ``path``)."""
        return function_data(self, method=self.method, path=self.path)


@dataclass(frozen=True)
class OperationError:
    """An operation that could not become a function; the rest of the document still did.

    Attributes:
        method: the lower-case HTTP method.
        path: the path template.
        messages: what is wrong, each located in the document
            (``$input.paths["/x"].post.requestBody.content["application/xml"]: ...``).
        cause: a short category (``"method"``, ``"path"``, ``"media type"``, ``"reference"``,
            ``"parameters"``, ``"name"``, ``"controls"``: a mistake of ``application(controls=)``,
            whose ``method`` and ``path`` are empty when it names no operation), for
            summaries.
    """

    method: str
    path: str
    messages: tuple[str, ...]
    cause: str
    _operation: Mapping[str, Any] = field(default_factory=dict, repr=False)

    def operation(self) -> Mapping[str, Any]:
        """The operation as written in the document."""
        return self._operation

    @property
    def location(self) -> str:
        """The operation (``POST /x``): each message locates itself in the document.
        Empty for a mistake of the builder's arguments that names no operation (a name
        of ``controls=`` that is no function)."""
        return f"{self.method.upper()} {self.path}" if self.method else ""

    @property
    def reason(self) -> str:
        """Every message, in one line."""
        return "; ".join(self.messages)

    def __str__(self) -> str:
        where = self.location
        return f"{where}: {self.reason}" if where else self.reason
