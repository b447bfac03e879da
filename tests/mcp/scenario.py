"""One conversation with a served ``Desk``, driven by the SDK's own client, whatever the transport.

``converse(session)`` lists the tools and checks their schemas, makes a valid call, a call
with three mistakes (answered with feedback naming all three; the method never ran), a
call whose method raises, and a valid call again; it asserts as it goes.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import mcp.types as types

from llmapp import application
from llmapp.vendors.mcp import tools

DIALECT = "https://json-schema.org/draft/2020-12/schema"

ROOT = Path(__file__).resolve().parents[2]
SERVED = "tests/mcp/served.py:Desk"


def command(*extra: str) -> list[str]:
    """The CLI command serving ``Desk`` (run from the repository root)."""
    return [sys.executable, "-m", "llmapp", "mcp", SERVED, *extra]


def environment() -> dict[str, str]:
    """The environment of a server subprocess: this interpreter's, plus the repository (for
    ``tests.mcp.served``) and its sources on the path."""
    path = os.pathsep.join(
        filter(None, [str(ROOT), str(ROOT / "src"), os.environ.get("PYTHONPATH")])
    )
    return {**os.environ, "PYTHONPATH": path}


def initialize_request(version: str = "2025-06-18") -> dict[str, Any]:
    """The raw JSON-RPC ``initialize`` request a client sends first, written by hand as a
    client without the SDK would."""
    return {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for_port(port: int, process: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    """Wait until a server subprocess accepts connections (or fail with what it printed)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(
                f"the server exited: {process.stderr.read().decode() if process.stderr else ''}"
            )
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"nothing listens on 127.0.0.1:{port} after {timeout} s")


def text(result: types.CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))


async def converse(session: Any) -> None:
    await session.initialize()

    listed = await session.list_tools()
    from tests.mcp.served import Desk

    # a 2025-11-25 session is told the schemas' dialect, 2020-12
    expected = [
        {**tool, "inputSchema": {"$schema": DIALECT, **tool["inputSchema"]}}
        for tool in tools(application(Desk))
    ]
    assert [
        tool.model_dump(by_alias=True, exclude_none=True, mode="json") for tool in listed.tools
    ] == expected
    by_name = {tool.name: tool for tool in listed.tools}
    assert by_name["place_order"].input_schema == {
        "$schema": DIALECT,
        "type": "object",
        "properties": {
            "sku": {
                "type": "string",
                "minLength": 3,
                "description": "the product's stock-keeping unit.",
            },
            "quantity": {
                "type": "integer",
                "minimum": 1,
                "maximum": 10,
                "description": "how many to order.",
            },
            "speed": {
                "type": "string",
                "enum": ["standard", "express"],
                "description": "how fast it ships.",
                "default": "standard",
            },
        },
        "required": ["sku", "quantity"],
        "additionalProperties": False,
    }
    assert by_name["place_order"].output_schema["required"] == [
        "number",
        "sku",
        "quantity",
        "speed",
    ]
    assert by_name["count"].output_schema == {
        "type": "object",
        "properties": {"result": {"type": "integer"}},
        "required": ["result"],
        "additionalProperties": False,
    }
    assert by_name["count"].annotations == types.ToolAnnotations(
        read_only_hint=True, idempotent_hint=True
    )
    assert by_name["place_order"].annotations == types.ToolAnnotations(destructive_hint=False)
    assert "user" not in json.dumps(by_name["whoami"].input_schema)  # the human side is not shown

    valid = await session.call_tool("place_order", {"sku": "SKU-1", "quantity": 2})
    assert not valid.is_error
    assert valid.structured_content == {
        "number": 1,
        "sku": "SKU-1",
        "quantity": 2,
        "speed": "standard",
    }
    assert json.loads(text(valid)) == valid.structured_content

    wrong = await session.call_tool(
        "place_order", {"sku": "S", "quantity": "many", "speed": "fast"}
    )
    assert wrong.is_error
    feedback = text(wrong)
    for path in ("$input.sku", "$input.quantity", "$input.speed"):
        assert f'"path": "{path}"' in feedback, feedback
    counted = await session.call_tool("count", {})
    assert counted.structured_content == {"result": 1}  # the wrong call never ran

    raised = await session.call_tool("explode", {"reason": "the printer is on fire"})
    assert raised.is_error
    assert text(raised) == "The function raised ValueError: the printer is on fire"
    assert "Traceback" not in text(raised)

    again = await session.call_tool(
        "place_order", {"sku": "SKU-2", "quantity": 1, "speed": "express"}
    )
    assert not again.is_error
    assert again.structured_content == {
        "number": 2,
        "sku": "SKU-2",
        "quantity": 1,
        "speed": "express",
    }
