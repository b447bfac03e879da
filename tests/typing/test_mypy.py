"""mypy --strict on what a user writes: a decorated class, misspelled imports, and every
Python example of the README and the docs pages.

mypy runs once for all of them (its start-up, reading llmapp and the SDKs, is most of the
cost, and the cache `mypy --strict src` leaves saves most of it); each test reads its own
file's lines of that one run.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys

import pytest
from tests.support.examples import NEEDS_PYTHON_3_11, ROOT, Example, examples

SRC = ROOT / "src"

PROGRAM = '''
from __future__ import annotations

from typing import Annotated

from annotated_types import Ge

from llmapp import ValidationIssue, application, llm_application, validates


@llm_application
class Counter:
    def __init__(self, start: int) -> None:
        self.value = start

    def add(self, amount: Annotated[int, Ge(1)] = 1) -> int:
        """Add to the counter."""
        self.value += amount
        return self.value

    @validates("add", after_types=True)
    def _small(arguments: dict[str, int]) -> list[ValidationIssue]:
        return []


@llm_application(strict=True, reference=False)
class Other:
    def run(self, text: str) -> str:
        """Run."""
        return text


counter: Counter = Counter(3)
total: int = counter.add(2)
other: Other = Other()
name: str = application(Counter).functions[0].name
reveal_type(Counter)
'''

MISSPELLED = """
from llmapp import aplication
from llmapp.repair import coerse
from llmapp import CallContext, controls
reveal_type(controls)
reveal_type(CallContext)
"""

DOORS = """
from typing import Any

import llmapp.http
import llmapp.mcp
from llmapp import CallResult, compose
from llmapp.http import Connection
from mcp import ClientSession

document: dict[str, Any] = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}}
http_app = llmapp.http.application(document)
mcp_app = llmapp.mcp.application([])
composed = compose((http_app, Connection("http://127.0.0.1")))


async def run(session: ClientSession) -> None:
    sent: CallResult = http_app.execute(Connection("http://127.0.0.1"), "get", "{}")
    routed: CallResult = composed.execute(None, "get", "{}")
    called: CallResult = await mcp_app.aexecute(session, "search", "{}")
    mcp_app.execute(session, "search", "{}")
    http_app.execute(None, "get", "{}")
    composed.execute(session, "get", "{}")
"""
"""Each door's target in the types: an MCP tool list has no sync target at all."""


def _checkable(example: Example) -> bool:
    """False for an example whose framework is not installed (3.11-only extras on 3.10)."""
    imported = set(re.findall(r"^(?:from|import) (\w+)", example.source, re.M))
    return all(importlib.util.find_spec(name) for name in imported & NEEDS_PYTHON_3_11)


EXAMPLES = examples()


@pytest.fixture(scope="module")
def mypy_output(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """Each checked file's stem -> the lines mypy --strict printed for it."""
    folder = tmp_path_factory.mktemp("mypy")
    programs = {"program": PROGRAM, "misspelled": MISSPELLED, "doors": DOORS}
    programs |= {each.module: each.source for each in EXAMPLES if _checkable(each)}
    for name, source in programs.items():
        (folder / f"{name}.py").write_text(source, encoding="utf-8")
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            # The project's own settings and cache: what `mypy --strict src` (CI runs it
            # first) has read of llmapp and the SDKs is not read again.
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(ROOT / ".mypy_cache"),
            *sorted(f"{name}.py" for name in programs),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "MYPYPATH": str(SRC)},
        cwd=folder,
        check=False,
    )
    assert completed.returncode in (0, 1), completed.stdout + completed.stderr
    lines: dict[str, list[str]] = {name: [] for name in programs}
    for line in completed.stdout.splitlines():
        stem = line.partition(".py:")[0]
        if stem in lines:
            lines[stem].append(line)
    return lines


def test_decorated_class_keeps_its_type(mypy_output: dict[str, list[str]]) -> None:
    output = "\n".join(mypy_output["program"])
    assert 'Revealed type is "def (start: ' in output and '-> program.Counter"' in output, output
    errors = [line for line in output.splitlines() if ": error:" in line]
    assert errors == [], output


def test_a_misspelled_import_fails_mypy(mypy_output: dict[str, list[str]]) -> None:
    output = "\n".join(mypy_output["misspelled"])
    assert 'Module "llmapp" has no attribute "aplication"' in output, output
    assert 'Module "llmapp.repair" has no attribute "coerse"' in output, output
    assert 'Revealed type is "Any"' not in output, output


def test_each_door_s_target_is_in_its_types(mypy_output: dict[str, list[str]]) -> None:
    errors = [line for line in mypy_output["doors"] if ": error:" in line]
    # The three wrong calls, each on its line: an MCP tool list runs only asynchronously,
    # an OpenAPI call needs its Connection, a composition takes no target.
    assert [line.split(":")[1] for line in errors] == ["20", "21", "22"], "\n".join(errors)
    assert '"Never"' in errors[0] and '"Connection"' in errors[1], errors
    assert '"None"' in errors[2], errors


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("example", EXAMPLES, ids=[each.name for each in EXAMPLES])
def test_example_passes_mypy_strict(example: Example, mypy_output: dict[str, list[str]]) -> None:
    if not _checkable(example):
        pytest.skip("its framework needs Python 3.11 (the extra installs nothing on 3.10)")
    errors = [line for line in mypy_output[example.module] if ": error:" in line]
    assert errors == [], f"{example.name}:\n" + "\n".join(mypy_output[example.module])
