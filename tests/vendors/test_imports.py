"""The vendor modules import no SDK: ``tools`` builds plain dicts and ``call_tools`` reads
responses by field, so neither needs the vendor's package (nor makes ``import llmapp`` slower)."""

from __future__ import annotations

import subprocess
import sys

SDKS = ("openai", "anthropic", "google.genai", "mcp", "httpx")


def test_vendor_modules_import_no_sdk() -> None:
    code = (
        "import sys, json\n"
        "from llmapp.vendors import anthropic, gemini, openai\n"
        "from llmapp import application\n"
        "class Shop:\n"
        "    def search(self, query: str, limit: int = 10) -> list[str]:\n"
        "        '''Search.'''\n"
        "        return [query]\n"
        "app = application(Shop)\n"
        "openai.tools(app, strict=True); anthropic.tools(app, strict=True)\n"
        "gemini.tools(app, schema='openapi')\n"
        "call = {'type': 'tool_use', 'id': 't1', 'name': 'search', 'input': {'query': 'x'}}\n"
        "anthropic.call_tools(app, Shop(), {'content': [call]})\n"
        f"print(json.dumps([name for name in {SDKS!r} if name in sys.modules]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.strip() == "[]"
