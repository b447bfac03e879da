"""One MCP tool as an LLM function: the record ``application(tools)`` builds.

Its own module so the call step (``_call``) and the tool list's conversion
(``_functions``) both import it, and neither imports the other back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from llmapp.kernel import Function

__all__ = ["McpLlmFunction"]

Schema = dict[str, Any]


@dataclass(frozen=True, eq=False, slots=True)
class McpLlmFunction(Function):
    """One MCP tool as an LLM function: the one ``Function`` record, with the tool as the
    server listed it; immutable once built.

    Attributes:
        name: the tool's name, exactly as the server knows it.
        description: the tool's description.
        parameters: the input schema in LLM-schema form (see ``llmapp.mcp.application``).
        output: the output schema in LLM-schema form, or ``None``.
        title: the tool's title (or its annotations' title).
        tags: the annotation hints as tags (``readOnly``, ``idempotent``...).
        annotations: the tool's annotations as the server sent them.
        tool: the tool as the server listed it (wire spelling).
        deprecated: always ``False`` (MCP has no such flag).
        separated: the LLM/human split when ``application(tools, separate=...)`` makes
            part of the tool's arguments human-side, else ``None``.
        checked_parameters: the tool's own input schema, which ``parameters`` is the
            strict form of with ``strict=True``; ``parameters`` otherwise.
    """

    annotations: dict[str, Any] = field(default_factory=dict, kw_only=True)
    tool: dict[str, Any] = field(default_factory=dict, repr=False, kw_only=True)

    @property
    def source_parameters(self) -> Schema | None:
        """``checked_parameters`` when ``parameters`` is its strict form, else ``None``
        (the name this record had before every function had ``checked_parameters``)."""
        checked = self.checked_parameters
        return None if checked is self.parameters else checked
