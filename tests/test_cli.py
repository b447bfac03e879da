"""The installed ``llmapp`` command, as a user runs it: targets, mistakes, pipes."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def command() -> list[str]:
    """The ``llmapp`` console script of the interpreter running the tests."""
    script = Path(sys.executable).with_name("llmapp")
    found = str(script) if script.is_file() else shutil.which("llmapp")
    assert found, "the llmapp command is not installed: pip install -e ."
    return [found]


def environment() -> dict[str, str]:
    """This tree's source first, so the installed command runs the code under test."""
    paths = [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def run(*arguments: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command(), *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environment(),
        check=False,
        timeout=120,
    )


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def one_line(completed: subprocess.CompletedProcess[str]) -> str:
    """The command's error: one line, no traceback."""
    assert "Traceback" not in completed.stderr, completed.stderr
    lines = completed.stderr.strip().splitlines()
    assert len(lines) == 1, completed.stderr
    return lines[0]


SERVICE = """
class S:
    def add(self, a: int) -> int:
        '''Add X to a.'''
        return a + X
"""


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


def test_a_file_imports_its_sibling_modules_from_any_folder(tmp_path: Path):
    write(
        tmp_path,
        {"pkgdir/helper.py": "X = 1\n", "pkgdir/svc.py": "from helper import X\n" + SERVICE},
    )
    for cwd, target in ((tmp_path, "pkgdir/svc.py:S"), (tmp_path / "pkgdir", "svc.py:S")):
        completed = run("schema", target, cwd=cwd)
        assert completed.returncode == 0, completed.stderr
        assert json.loads(completed.stdout)[0]["name"] == "add"


def test_a_file_inside_a_package_imports_relatively(tmp_path: Path):
    write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/helper.py": "X = 2\n",
            "pkg/svc.py": "from .helper import X\n" + SERVICE,
        },
    )
    for cwd, target in ((tmp_path, "pkg/svc.py:S"), (tmp_path / "pkg", "svc.py:S")):
        completed = run("schema", target, cwd=cwd)
        assert completed.returncode == 0, completed.stderr
        assert json.loads(completed.stdout)[0]["name"] == "add"


def test_closed_pipes_end_quietly():
    for arguments in (
        ["schema", "examples/shop.py:Shop"],
        ["mcp", "examples/shop.py:Shop", "--print-config"],
    ):
        # What `| head -1` does: read a little, then close the pipe while the command writes.
        process = subprocess.Popen(
            [*command(), *arguments],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=environment(),
        )
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()
        stderr = process.stderr.read().decode()
        process.wait(timeout=60)
        assert stderr == "", stderr
        assert process.returncode == 141


def test_large_output_into_a_closed_pipe_ends_quietly(tmp_path: Path):
    methods = "".join(
        f"    def m{i}(self, a: int) -> int:\n        '''Method {i}.'''\n        return a\n"
        for i in range(300)
    )
    write(tmp_path, {"many.py": "class Many:\n" + methods})
    completed = subprocess.run(
        f"'{command()[0]}' schema many.py:Many | head -1",
        shell=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=environment(),
        check=False,
        timeout=120,
    )
    assert completed.stdout == "[\n"
    assert completed.stderr == "", completed.stderr


def test_an_exception_at_import_is_one_line_with_file_and_line(tmp_path: Path):
    write(tmp_path, {"boom.py": "x = 1\ny = x / 0\n", "syntax.py": "class S:\n  def f(self\n"})
    line = one_line(run("schema", "boom.py:S", cwd=tmp_path))
    assert line == "llmapp: cannot load 'boom.py:S': boom.py:2: ZeroDivisionError: division by zero"
    assert "syntax.py:2: SyntaxError" in one_line(run("schema", "syntax.py:S", cwd=tmp_path))
    write(tmp_path, {"needs.py": "import no_such_module_here\n"})
    line = one_line(run("schema", "needs:S", cwd=tmp_path))
    assert "needs.py:1: ModuleNotFoundError: No module named 'no_such_module_here'" in line
    assert one_line(run("schema", "no_such_module_here:S", cwd=tmp_path)).endswith(
        "no module named 'no_such_module_here'"
    )


def test_an_unknown_class_lists_the_module_classes_closest_first():
    completed = run("schema", "examples/shop.py:Shopp")
    assert completed.returncode == 2
    line = one_line(completed)
    assert line.startswith(
        "llmapp: cannot load 'examples/shop.py:Shopp': examples/shop.py: no class 'Shopp'; it has: Shop, "
    )
    assert "_llmapp_cli" not in line
    assert "is not a class" in one_line(run("schema", "examples/shop.py:CATALOGUE"))


def test_a_factory_module_that_imports_the_file_serves_the_same_class(tmp_path: Path):
    pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")
    write(
        tmp_path,
        {
            "dual.py": "class Paint:\n    def color(self) -> str:\n        '''The colour.'''\n        return 'red'\n",
            "dual_factory.py": "from dual import Paint\n\ndef make() -> Paint:\n    return Paint()\n",
        },
    )
    process = subprocess.Popen(
        [
            *command(),
            "mcp",
            "dual.py:Paint",
            "--factory",
            "dual_factory:make",
            "--log-level",
            "error",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        env=environment(),
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    initialize = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    }
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "color", "arguments": {}},
        },
    ]
    try:
        for message in messages:
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
        answers: dict[object, dict[str, object]] = {}
        while 2 not in answers:
            line = process.stdout.readline()
            assert line, process.communicate(timeout=10)[1]
            answer = json.loads(line)
            answers[answer.get("id")] = answer
        result = answers[2]["result"]
        assert isinstance(result, dict) and result.get("isError") is not True, result
        assert "red" in json.dumps(result)
    finally:
        process.kill()
        process.communicate(timeout=10)


def test_a_failing_or_misnamed_factory_is_one_line(tmp_path: Path):
    pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")
    source = "X = 1\n" + SERVICE + "\n\ndef make():\n    raise RuntimeError('no database')\n"
    write(tmp_path, {"svc.py": source})
    completed = run("mcp", "svc.py:S", "--factory", "make", cwd=tmp_path)
    assert completed.returncode == 1
    assert one_line(completed).endswith("make() failed: svc.py:10: RuntimeError: no database")
    completed = run("mcp", "svc.py:S", "--factory", "mak", cwd=tmp_path)
    assert "no callable 'mak'; it has: make" in one_line(completed)
