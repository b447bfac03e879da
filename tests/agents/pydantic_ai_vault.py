"""A vault whose ``whoami`` takes pydantic-ai's ``RunContext``: a module of its own, so that
collecting the controls tests does not import pydantic-ai (the annotation is read from this
module's namespace when the application is built)."""

from __future__ import annotations

from typing import Annotated

from pydantic_ai import RunContext

from llmapp.markers import Context

from .vault import Deps
from .vault import Vault as _Vault

__all__ = ["Deps", "Vault"]


class Vault(_Vault):
    """Keeps secrets."""

    def whoami(self, ctx: RunContext[Deps], deps: Annotated[Deps, Context()]) -> str:
        """Who is asking."""
        assert ctx.deps is deps
        return deps.user
