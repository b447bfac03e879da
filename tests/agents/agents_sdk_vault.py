"""A vault whose ``whoami`` takes the Agents SDK's ``ToolContext``: a module of its own, so
that collecting the controls tests does not import the SDK (the annotation is read from this
module's namespace when the application is built)."""

from __future__ import annotations

from typing import Annotated

from agents.tool_context import ToolContext

from llmapp.markers import Context

from .vault import Deps
from .vault import Vault as _Vault

__all__ = ["Deps", "Vault"]


class Vault(_Vault):
    """Keeps secrets."""

    def whoami(self, tool: ToolContext[Deps], deps: Annotated[Deps, Context()]) -> str:
        """Who is asking."""
        assert tool.context is deps and tool.tool_name == "whoami"
        return deps.user
