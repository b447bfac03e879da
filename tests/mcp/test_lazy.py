"""The MCP SDK is imported only when a server is built or run, and its absence names the extra."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(code: str) -> str:
    completed = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=True
    )
    return completed.stdout.strip()


def test_the_client_direction_and_the_vendor_module_do_not_import_the_sdk() -> None:
    out = _run(
        """
        import sys
        import llmapp.mcp, llmapp.vendors.mcp
        app = llmapp.mcp.application([{"name": "t", "inputSchema": {"type": "object"}}])
        assert app.functions[0].validate({}).success
        print(sorted(m for m in ("mcp", "mcp_types", "anyio", "pydantic") if m in sys.modules))
        """
    )
    assert out == "[]"


def test_without_the_sdk_building_a_server_names_the_extra() -> None:
    out = _run(
        """
        import sys
        sys.modules["mcp"] = None  # as if the package were not installed
        import llmapp.mcp

        class Desk:
            def ping(self) -> str:
                '''Ping.'''
                return "pong"

        try:
            llmapp.mcp.server(Desk, Desk())
        except ImportError as error:
            print(error)
        """
    )
    assert out == "llmapp.mcp needs the MCP SDK: pip install 'llmapp[mcp]'"
