"""The ``llmapp schema`` command on the example class, by file path and by module name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*arguments: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "llmapp", *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )


def test_schema_of_example_file_prints_functions():
    completed = run("schema", "examples/shop.py:Shop")
    assert completed.returncode == 0, completed.stderr
    functions = json.loads(completed.stdout)
    assert [f["name"] for f in functions] == [
        "search",
        "create_order",
        "cancel_order",
        "attach_receipt",
        "track_order",
    ]
    create = functions[1]
    assert create["tags"] == ["orders"]
    assert set(create["parameters"]["$defs"]) >= {"Customer", "OrderItem"}
    assert functions[3]["separated"]["human"]["required"] == ["file"]


def test_schema_by_module_name(tmp_path: Path):
    (tmp_path / "tools_mod.py").write_text(
        "class Tools:\n    def echo(self, text: str) -> str:\n        '''Echo.'''\n        return text\n"
    )
    completed = run("schema", "tools_mod:Tools", "--strict", "--indent", "0", cwd=tmp_path)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)[0]["parameters"]["required"] == ["text"]


def test_bad_target_and_bad_class_have_clear_errors(tmp_path: Path):
    missing = run("schema", "no/such/file.py:Shop")
    assert missing.returncode == 2 and "cannot load" in missing.stderr
    (tmp_path / "bad.py").write_text("class Bad:\n    def run(self, *args: int) -> None: ...\n")
    bad = run("schema", str(tmp_path / "bad.py") + ":Bad")
    assert bad.returncode == 1 and "Bad.run" in bad.stderr
    assert os.path.exists(ROOT / "examples" / "shop.py")


def test_mcp_options_that_cannot_work_are_refused_before_serving(monkeypatch):
    import pytest

    pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")
    from llmapp._cli import main

    shop = str(ROOT / "examples" / "shop.py") + ":Shop"
    monkeypatch.delenv("NO_SUCH_TOKEN", raising=False)
    assert main(["mcp", shop, "--workers", "2"]) == 1  # stdio has no workers
    assert (
        main(["mcp", shop, "--transport", "streamable-http", "--token-env", "NO_SUCH_TOKEN"]) == 1
    )
    assert main(["mcp", shop, "--human", "no_such_hook"]) == 1


def test_mcp_print_config_names_the_file_absolutely(tmp_path: Path):
    printed = run("mcp", "examples/shop.py:Shop", "--print-config", "--name", "shop")
    assert printed.returncode == 0, printed.stderr
    entry = json.loads(printed.stdout)["mcpServers"]["shop"]
    assert entry["args"] == [
        "-m",
        "llmapp",
        "mcp",
        f"{ROOT / 'examples' / 'shop.py'}:Shop",
        "--name",
        "shop",
    ]
