"""mypy --strict accepts a decorated class used normally, and the hook decorator type-checks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

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


def test_decorated_class_keeps_its_type(tmp_path: Path) -> None:
    program = tmp_path / "program.py"
    program.write_text(PROGRAM)
    environment = {**os.environ, "MYPYPATH": str(SRC)}
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--config-file",
            os.devnull,
            str(program),
        ],
        capture_output=True,
        text=True,
        env=environment,
        cwd=tmp_path,
        check=False,
    )
    output = completed.stdout + completed.stderr
    assert 'Revealed type is "def (start: ' in output and '-> program.Counter"' in output, output
    errors = [line for line in output.splitlines() if ": error:" in line]
    assert errors == [], output
