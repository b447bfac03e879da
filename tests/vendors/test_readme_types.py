"""The README's agent loops, toolsets and structured output pass ``mypy --strict`` against
the real SDKs and frameworks.

``tools()`` and ``call_tools()`` are annotated with the SDKs' own parameter types
(``llmapp.vendors._types``): the loops' ``tools=`` and ``messages`` are checked as the SDK
declares them, with llmapp read from this tree.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text("utf-8")
LOOPS = [
    block
    for block in re.findall(r"```py\n(.*?)```", README, re.S)
    if "from llmapp.vendors import" in block
]
EXAMPLES = [
    block
    for block in re.findall(r"```python\n(.*?)```", README, re.S)
    if "llmapp.agents" in block or "structured_output" in block
]


def test_the_readme_loops_and_toolsets_pass_mypy_strict(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    for sdk in ("openai", "anthropic", "agents", "pydantic_ai", "langchain_core", "fastmcp"):
        pytest.importorskip(sdk)
    pytest.importorskip("llama_index.core")
    assert len(LOOPS) == 2 and len(EXAMPLES) == 2
    files = []
    for index, block in enumerate(LOOPS + EXAMPLES):
        files.append(tmp_path / f"readme_loop_{index}.py")
        files[-1].write_text(block, "utf-8")
    env = {**os.environ, "MYPYPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    # One run for both loops, with the project's cache: the SDKs' types are read once.
    command = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(ROOT / ".mypy_cache")]
    checked = subprocess.run(
        [*command, *map(str, files)], capture_output=True, text=True, env=env, timeout=600
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
