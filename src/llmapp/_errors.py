"""Every error llmapp raises, as a tree (each class named where it is defined).

::

    LlmappError (here)
    ├── LlmApplicationError (here)    build time: every problem of one class, each located
    │                                 (problems: list[BuildProblem], "Class.method.param: reason")
    ├── ExecutionError (here)         run time: the application used wrongly (not the LLM's
    │                                 fault), e.g. a required human-side value is missing
    ├── FeedbackError (here)          raised by a validation hook: its message is for the
    │                                 model (any other exception a hook raises is logged,
    │                                 and the model reads only that the check failed)
    ├── UnknownFunctionError (here)   ``require(name)`` named no function (also a KeyError)
    ├── SchemaError (here)            a schema no validator can be compiled from
    ├── ConversionError (here)        Python refused a value the schema allowed
    ├── DocumentError (here)          an OpenAPI document that cannot be read
    ├── ArgumentError (here)          the model's arguments are wrong, nothing was sent
    ├── HttpError (here)              the server answered a status other than 2xx
    ├── ResponseError (here)          a response past its bounds (size, depth)
    └── McpToolError (here)           an MCP tool answered ``isError: true``

    build-time problems collected as values, not raised, each a ``Problem`` (here:
    ``location``, ``reason``, one line as ``str``):
    BuildProblem (here)  OperationError (http)  McpToolProblem (mcp)

    run time: a problem in data an LLM sent -- never raised
    ValidationIssue (llmapp.validate)  path, expected, value, description

Every public one is importable from ``llmapp`` (and from the stage that raises it).
Data problems are values, not exceptions: validators, ``parse`` and ``coerce`` return
them and never raise.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol, runtime_checkable

from llmapp._limits import cut
from llmapp._text.body import shown

if TYPE_CHECKING:
    from llmapp._results import ValidationFailure

__all__ = [
    "MAX_FEEDBACK",
    "ArgumentError",
    "BuildProblem",
    "ConversionError",
    "DocumentError",
    "ExecutionError",
    "FeedbackError",
    "HttpError",
    "LlmApplicationError",
    "LlmappError",
    "McpToolError",
    "Problem",
    "ResponseError",
    "SchemaError",
    "UnknownFunctionError",
    "class_location",
]


def class_location(cls: type) -> str:
    """The class's name as locations show it: ``Outer.Inner``, without ``<locals>`` noise."""
    return cls.__qualname__.rpartition("<locals>.")[2]


class LlmappError(Exception):
    """Base class of every exception llmapp raises on purpose."""


@runtime_checkable
class Problem(Protocol):
    """What every build problem offers, whatever its source (``BuildProblem`` of a class,
    ``OperationError`` of a document, ``McpToolProblem`` of a tool list): where it is,
    what is wrong there, and one line saying both (``str``)."""

    @property
    def location(self) -> str: ...

    @property
    def reason(self) -> str: ...


@dataclass(frozen=True, slots=True)
class BuildProblem:
    """One thing wrong with a class, method or parameter, found while building."""

    location: str
    reason: str

    def __str__(self) -> str:
        return f"{self.location}: {self.reason}"


class LlmApplicationError(LlmappError):
    """Every problem found in one class, reported together.

    Attributes:
        problems: each problem with its ``Class.method.param`` location.
    """

    def __init__(self, subject: str, problems: Iterable[BuildProblem]) -> None:
        self.subject = subject
        self.problems = list(problems)
        lines = "\n".join(f"  {problem}" for problem in self.problems)
        count = len(self.problems)
        noun = "problem" if count == 1 else "problems"
        super().__init__(f"{subject} cannot become an LLM application ({count} {noun}):\n{lines}")


class ExecutionError(LlmappError):
    """The application was used wrongly by its caller (not by the LLM)."""


MAX_FEEDBACK: Final = 1_000
"""Most characters of a ``FeedbackError``'s message the model reads."""


class FeedbackError(LlmappError):
    """Raised by a validation hook to tell the model what is wrong with its arguments.

    A hook checks arguments against the application's own state (an account exists, a
    slot is free), so it reaches databases and services, and an exception it raises may
    hold their addresses and passwords. So a hook's exception is not the model's to read:
    llmapp logs it and tells the model only that its arguments could not be checked.
    This one is the exception: its message is written *for* the model, and becomes the
    feedback's description at ``path`` (the name says so: it is feedback, raised).

    Attributes:
        message: the text the model reads (cut to ``MAX_FEEDBACK`` characters).
        path: where, from ``$input`` (``$input.to``), like ``ValidationIssue.path``.
        expected: what was expected there, like ``ValidationIssue.expected``.

    Example::

        @validates("transfer", after_types=True)
        def _known(arguments):
            if not accounts.exists(arguments["to"]):
                raise FeedbackError("no account of that name; list_accounts() names them",
                                    path="$input.to", expected="an existing account")
    """

    def __init__(
        self, message: str, *, path: str = "$input", expected: str = "valid arguments"
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.expected = expected


class UnknownFunctionError(LlmappError, KeyError):
    """``require(name)`` named no function of the application (the close names are told).

    Attributes:
        name: the name asked for.
        close: the function names closest to it.
    """

    def __init__(self, name: str, message: str, close: Iterable[str] = ()) -> None:
        super().__init__(message)
        self.name = name
        self.close = list(close)

    def __str__(self) -> str:  # KeyError would show the message quoted
        return str(self.args[0])


_PREVIEW: Final = 500
"""Most characters of a response body in ``HttpError``'s message."""


class ConversionError(LlmappError):
    """A value passed validation but could not become its Python type.

    This happens when the Python side is stricter than the schema: a
    ``__post_init__`` or pydantic validator rejects the value, a date-time lies
    outside ``datetime``'s range, a constructor raises. It is a data problem,
    so the executor reports it to the model like a validation issue.

    Attributes:
        path: where, from ``$input`` (``$input.items[3].when``), like ``ValidationIssue.path``.
        expected: the Python type that refused the value (``datetime``, ``Order``).
        value: the JSON value that was refused.
        cause: the exception the Python side raised.
    """

    def __init__(self, expected: str, value: Any, cause: BaseException) -> None:
        self.segments: list[str | int] = []
        """Path segments, innermost first, while the error travels outwards."""
        self.expected = expected
        self.value = value
        self.cause = cause
        super().__init__(expected, value, cause)

    @property
    def path(self) -> str:
        from llmapp.jsonschema import Path  # a leaf module: only an error's path needs it

        return str(Path(self.segments[::-1]))

    @property
    def reason(self) -> str:
        text = str(self.cause).strip()
        return f"{type(self.cause).__name__}: {text}" if text else type(self.cause).__name__

    def __str__(self) -> str:
        return f"{self.path}: cannot become {self.expected} ({self.reason})"


class DocumentError(LlmappError):
    """The document cannot be read at all (not JSON or YAML, not OpenAPI or Swagger)."""


class ArgumentError(LlmappError):
    """The model's arguments are wrong; no request was sent.

    Attributes:
        validation: the failed validation, each issue with its path.
        feedback: the text to send back to the model.
    """

    def __init__(
        self, validation: ValidationFailure, text: str, repairs: tuple[str, ...] = ()
    ) -> None:
        self.validation = validation
        self.feedback = text
        self.repairs = repairs
        """What reading the model's text repaired before it was refused."""
        super().__init__(f"wrong arguments, nothing sent:\n{self.feedback}")


class HttpError(LlmappError):
    """The server answered with a status other than 2xx.

    Attributes:
        status: the status code.
        headers: the response headers.
        body: the decoded response body.
        method: the request method.
        url: the request URL.
    """

    def __init__(self, response: Any, method: str, url: str) -> None:
        self.status = response.status
        self.headers = response.headers
        self.body = response.body
        self.method = method
        self.url = url
        preview = cut(shown(self.body, self.headers.get("content-type", "")), _PREVIEW)
        super().__init__(f"{method} {url} answered {self.status}: {preview}")


class ResponseError(LlmappError):
    """The response could not be read within the connection's bounds: a body larger than
    ``Connection.max_body`` once decoded, or JSON nested too deeply for Python to read."""


class McpToolError(LlmappError):
    """The MCP server answered a call with ``isError: true``.

    Attributes:
        content: the result's content blocks (wire spelling).
    """

    def __init__(self, text: str, content: list[dict[str, Any]]) -> None:
        super().__init__(text)
        self.content = content


class SchemaError(LlmappError):
    """A schema that cannot be compiled, with every problem and its JSON pointer.

    Raised by ``validator()`` at build time only (an unresolvable ``$ref``, a pattern
    Python cannot express, a keyword with a value of the wrong kind); validating data
    never raises.

    Attributes:
        problems: each problem as ``BuildProblem(location, reason)``, the location a
            JSON pointer such as ``#/properties/code/pattern``.
    """

    def __init__(self, problems: Iterable[BuildProblem]) -> None:
        self.problems = list(problems)
        count = len(self.problems)
        noun = "problem" if count == 1 else "problems"
        lines = "\n".join(f"  {problem}" for problem in self.problems)
        super().__init__(f"schema cannot be compiled into a validator ({count} {noun}):\n{lines}")
