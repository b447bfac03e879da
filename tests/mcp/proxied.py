"""An MCP server of the SDK's own (``MCPServer``) for the validating proxy's tests: run as a
script over stdio, it writes each call it receives as one JSON line to ``$PROXIED_LOG``."""

from __future__ import annotations

import json
import os
from typing import Any

from pydantic import BaseModel, Field


class Line(BaseModel):
    sku: str = Field(pattern=r"^SKU-[0-9]+$")
    count: int = Field(gt=0, le=10)


class Order(BaseModel):
    kind: str = Field(pattern=r"^(pickup|delivery)$")
    lines: list[Line] = Field(min_length=1)
    quantity: int = Field(ge=1, le=100)


def received(order: Order) -> None:
    with open(os.environ["PROXIED_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps(order.model_dump()) + "\n")


def main() -> None:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("warehouse")

    @server.tool()
    def place(order: Order) -> dict[str, Any]:
        """Place an order."""
        received(order)
        return {"placed": order.quantity}

    server.run("stdio")


if __name__ == "__main__":
    main()
