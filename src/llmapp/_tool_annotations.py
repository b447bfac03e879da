"""The tags that stand for MCP tool annotations: one table for both directions.

The MCP export (``llmapp.vendors.mcp``) writes a function's tags as ``ToolAnnotations``
hints, and the MCP door (``llmapp.mcp.application``) reads a server's hints back as the
same tags, so a tool list served again keeps its hints.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["ANNOTATION_TAGS"]

ANNOTATION_TAGS: Mapping[str, tuple[str, bool]] = {
    "readOnly": ("readOnlyHint", True),
    "destructive": ("destructiveHint", True),
    "additive": ("destructiveHint", False),
    "idempotent": ("idempotentHint", True),
    "openWorld": ("openWorldHint", True),
    "closedWorld": ("openWorldHint", False),
}
"""Tag -> the ``ToolAnnotations`` hint it sets."""
