"""The MCP SDK, imported only when a function of ``llmapp.mcp`` needs it."""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["sdk"]


def sdk(module: str = "mcp") -> ModuleType:
    """Import ``module`` of the MCP SDK, or say which extra installs it.

    Raises:
        ImportError: the ``mcp`` package is not installed.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as missing:
        if missing.name is None or missing.name.split(".")[0] not in ("mcp", "mcp_types"):
            raise
        raise ImportError(
            "llmapp.mcp needs the MCP SDK: pip install 'llmapp[mcp]'", name=missing.name
        ) from missing
