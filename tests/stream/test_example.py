"""``examples/stream_progress.py`` runs as its docstring says."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_progress_example_prints_a_line_per_field_and_stops_at_the_mistake() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    completed = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "stream_progress.py")],
        capture_output=True, text=True, check=True, env=env, timeout=120,
    )  # fmt: skip
    out = completed.stdout
    assert "-> booked 4 nights in Lisbon for Ada" in out
    assert out.count("  traveller") == 2 and "  cabin" in out
    assert "stopped after 60 characters: $input.nights should be integer" in out
