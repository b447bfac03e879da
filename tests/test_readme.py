"""The README's Python examples run as written."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

NEEDS_PYTHON_3_11 = {"fastmcp", "pydantic_ai", "langchain_core", "langgraph"}
"""The frameworks whose extras carry ``python_version >= '3.11'`` (pyproject.toml)."""

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)


def test_readme_has_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index: int):
    namespace: dict[str, object] = {"__name__": f"readme_example_{index}"}
    try:
        exec(compile(BLOCKS[index], f"README.md example {index}", "exec"), namespace)
    except ModuleNotFoundError as missing:
        if missing.name not in NEEDS_PYTHON_3_11 or sys.version_info >= (3, 11):
            raise
        pytest.skip(f"{missing.name} needs Python 3.11 (the extra installs nothing on 3.10)")
    if "structured_output" in namespace:  # the structured-output example reads one answer
        from examples.shop import OrderItem

        assert namespace["result"].value == OrderItem("GD-221", 2)  # type: ignore[attr-defined]
        return
    assert "app" in namespace
