"""One HTTP function (an operation the LLM may call), where its arguments go, and why an
operation could not become one."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from llmapp.app import function_data
from llmapp.kernel import HTTP, OnFirstUse, compile_validator, llm_parameters, run_hook

if TYPE_CHECKING:
    from llmapp import Separated, Validation

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


@dataclass(frozen=True, eq=False)
class HttpLlmFunction:
    """An operation of an OpenAPI document as a function the LLM may call; immutable
    once built.

    It has the attributes of a class application's function, so validation, feedback,
    separation and the vendor exports treat both alike.

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
        validation_parameters: what arguments are checked against when ``parameters``
            was made strict (constraints moved into descriptions), else None.
    """

    method: str
    path: str
    name: str
    description: str | None
    parameters: Schema
    output: Schema | None = None
    deprecated: bool = False
    tags: list[str] = field(default_factory=list)
    separated: Separated | None = None
    hook: Callable[[Any], Validation] | None = field(default=None, repr=False)
    validation_parameters: Schema | None = field(default=None, repr=False)
    title: str | None = None
    summary: str | None = None
    _operation: Mapping[str, Any] = field(default_factory=dict, repr=False)
    _route: Route | None = field(default=None, repr=False)
    _generated: Callable[[Any], Validation] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # Frozen: the derived validator is set once, here (compiled on first use).
        generated = OnFirstUse(compile_validator, self.checked_parameters)
        object.__setattr__(self, "_generated", generated)

    @property
    def checked_parameters(self) -> Schema:
        """The schema arguments are validated (and repaired) against."""
        checked = self.validation_parameters
        return checked if checked is not None else self.parameters

    @property
    def llm_parameters(self) -> Schema:
        """The parameters schema to give the model (as ``LlmFunction.llm_parameters``)."""
        return llm_parameters(self)

    def validate(self, arguments: Any) -> Validation:
        """Check arguments against the parameters (or the hook); never raises."""
        if self.hook is not None:
            return run_hook(self.hook, arguments, self.name, HTTP)
        return self._generated(arguments)

    def validate_types(self, arguments: Any) -> Validation:
        """The generated validation alone, whatever hook the function has."""
        return self._generated(arguments)

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
            ``"parameters"``, ``"name"``), for summaries.
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
        """The operation (``POST /x``): each message locates itself in the document."""
        return f"{self.method.upper()} {self.path}"

    @property
    def reason(self) -> str:
        """Every message, in one line."""
        return "; ".join(self.messages)

    def __str__(self) -> str:
        return f"{self.method.upper()} {self.path}: " + "; ".join(self.messages)
