"""A vault whose ``whoami`` takes the Agents SDK's ``ToolContext``: a module of its own, so
that collecting the controls tests does not import the SDK (the annotation is read from this
module's namespace when the application is built)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from agents.tool_context import ToolContext

from llmapp import CallContext, controls
from llmapp.markers import Context


@dataclass
class Deps:
    user: str
    admin: bool = False


def _admin(context: CallContext) -> bool:
    deps = context.get(Deps)
    return deps is not None and deps.admin


class Vault:
    """Keeps secrets."""

    def __init__(self) -> None:
        self.log: list[str] = []

    def whoami(self, tool: ToolContext[Deps], deps: Annotated[Deps, Context()]) -> str:
        """Who is asking."""
        assert tool.context is deps and tool.tool_name == "whoami"
        return deps.user

    @controls(enabled=_admin)
    def audit(self) -> str:
        """Audit the vault."""
        return "audited"

    def wipe(self, reason: str) -> str:
        """Wipe the vault.

        @tag destructive
        """
        self.log.append(reason)
        return "wiped"
