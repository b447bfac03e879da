"""The build-time error of this stage: a schema that cannot become a validator."""

from __future__ import annotations

from collections.abc import Iterable

from .._errors import BuildProblem, LlmappError

__all__ = ["SchemaError"]


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
