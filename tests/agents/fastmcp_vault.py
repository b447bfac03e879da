"""A vault whose ``request`` takes FastMCP's ``Context``: a module of its own, so that
collecting the controls tests does not import FastMCP (the annotation is read from this
module's namespace when the application is built)."""

from __future__ import annotations

from fastmcp import Context


class Vault:
    """Keeps secrets."""

    def __init__(self) -> None:
        self.log: list[str] = []

    def request(self, ctx: Context) -> str:
        """The server's name, from FastMCP's context."""
        return ctx.fastmcp.name

    def wipe(self, reason: str) -> str:
        """Wipe the vault.

        @tag destructive
        """
        self.log.append(reason)
        return "wiped"
