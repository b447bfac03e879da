"""Every error llmapp raises, as a tree (each class named where it is defined).

::

    LlmappError (here)
    ├── LlmApplicationError (here)    build time: every problem of one class, each located
    │                                 (problems: list[BuildProblem], "Class.method.param: reason")
    ├── ExecutionError (here)         run time: the application used wrongly (not the LLM's
    │                                 fault), e.g. a required human-side value is missing
    ├── UnknownFunctionError (here)   ``require(name)`` named no function (also a KeyError)
    ├── SchemaError (validate)        a schema no validator can be compiled from
    ├── ConversionError (convert)     Python refused a value the schema allowed
    ├── DocumentError (http)          an OpenAPI document that cannot be read
    ├── ArgumentError (http)          the model's arguments are wrong, nothing was sent
    ├── HttpError (http)              the server answered a status other than 2xx
    ├── ResponseError (http)          a response past its bounds (size, depth)
    └── McpToolError (mcp)            an MCP tool answered ``isError: true``

    build-time problems collected as values, not raised:
    BuildProblem (here)  OperationError (http)  McpToolProblem (mcp)

    run time: a problem in data an LLM sent -- never raised
    ValidationIssue (llmapp.validate)  path, expected, value, description

Every public one is importable from ``llmapp``. Data problems are values, not
exceptions: validators, ``parse`` and ``coerce`` return them and never raise.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "BuildProblem",
    "ExecutionError",
    "LlmApplicationError",
    "LlmappError",
    "UnknownFunctionError",
    "class_location",
]


def class_location(cls: type) -> str:
    """The class's name as locations show it: ``Outer.Inner``, without ``<locals>`` noise."""
    return cls.__qualname__.rpartition("<locals>.")[2]


class LlmappError(Exception):
    """Base class of every exception llmapp raises on purpose."""


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
