"""One MCP tool as an LLM function: the record ``application(tools)`` builds.

Its own module so the call step (``_call``) and the tool list's conversion
(``_functions``) both import it, and neither imports the other back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from llmapp.kernel import OnFirstUse, Separated, compile_validator, function_data, llm_parameters

__all__ = ["McpLlmFunction"]

Schema = dict[str, Any]


@dataclass(eq=False)
class McpLlmFunction:
    """One MCP tool as an LLM function (the same attributes as a class's ``LlmFunction``).

    Attributes:
        name: the tool's name, exactly as the server knows it.
        description: the tool's description.
        parameters: the input schema in LLM-schema form (see the module docstring).
        output: the output schema in LLM-schema form, or ``None``.
        title: the tool's title (or its annotations' title).
        tags: the annotation hints as tags (``readOnly``, ``idempotent``...).
        annotations: the tool's annotations as the server sent them.
        tool: the tool as the server listed it (wire spelling).
        deprecated: always ``False`` (MCP has no such flag).
        separated: the LLM/human split when ``application(tools, separate=...)`` makes
            part of the tool's arguments human-side, else ``None``.
        source_parameters: with ``strict=True``, the tool's own input schema (in
            LLM-schema form) that ``parameters`` is the strict form of; else ``None``.
    """

    name: str
    description: str | None
    parameters: Schema
    output: Schema | None = None
    title: str | None = None
    tags: list[str] = field(default_factory=list)
    annotations: dict[str, Any] = field(default_factory=dict)
    tool: dict[str, Any] = field(default_factory=dict, repr=False)
    deprecated: bool = False
    separated: Separated | None = None
    source_parameters: Schema | None = field(default=None, repr=False)
    _check: Callable[[Any], Any] | None = field(default=None, repr=False)
    """The validator, compiled while converting the tool (to report a schema it refuses);
    compiled on first use when the function is made directly."""

    def __post_init__(self) -> None:
        if self._check is None:
            self._check = OnFirstUse(compile_validator, self.checked_parameters)

    @property
    def checked_parameters(self) -> Schema:
        """The schema arguments are validated (and repaired) against: the tool's own, with
        every constraint, also when ``parameters`` is its strict form."""
        source = self.source_parameters
        return source if source is not None else self.parameters

    @property
    def llm_parameters(self) -> Schema:
        """The parameters schema to give the model (as ``LlmFunction.llm_parameters``)."""
        return llm_parameters(self)

    def validate(self, arguments: Any) -> Any:
        """Check arguments against ``checked_parameters``; a ``Validation``, never raises."""
        assert self._check is not None
        return self._check(arguments)

    validate_types = validate
    """The generated validation (an MCP tool has no hook)."""

    def to_dict(self) -> dict[str, Any]:
        """The function as plain JSON-ready data (as ``LlmFunction.to_dict``)."""
        return function_data(self)
