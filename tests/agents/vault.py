"""The vault the controls tests of every framework share: an audit only an admin is offered
and a destructive wipe. Each framework's module adds the ``whoami`` that reads its context."""

from __future__ import annotations

from dataclasses import dataclass

from llmapp import CallContext, controls


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
