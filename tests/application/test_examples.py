"""The examples run as documented."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_agent_turn_script_repairs_reports_and_finishes():
    completed = subprocess.run(
        [sys.executable, str(EXAMPLES / "agent_turn.py")],
        capture_output=True,
        text=True,
        check=True,
    )
    output = completed.stdout
    assert "There is no function named 'serach'. Did you mean 'search'?" in output
    assert output.count("// ❌ [") == 4  # three mistakes in call 3, the file in call 5
    assert '"path": "$input.customer.email"' in output
    assert '"path": "$input.items[0].quantity"' in output
    assert '"path": "$input.priority"' in output
    assert '"path": "$input.file", "expected": "undefined"' in output
    assert '"quantity": 2' in output  # "2" repaired to 2 in call 4
    assert output.rstrip().endswith("result: 16")
