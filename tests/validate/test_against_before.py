"""The redesigned validator against the one before it (``1d22dbe``): same verdicts, same issues.

Runs ``benchmarks.validator_differential`` (see ``benchmarks/README.md``) with a small
budget (about 12 s: two processes compile every corpus schema). It runs with the default
suite: while it was deselected, a change of the format checks broke the comparison
unnoticed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from benchmarks import validator_differential

ROOT = Path(__file__).resolve().parents[2]


def test_no_verdict_or_issue_changed_since_1d22dbe(capsys: pytest.CaptureFixture[str]) -> None:
    try:
        known = subprocess.run(
            ["git", "-C", str(ROOT), "cat-file", "-e", validator_differential.BASE + "^{commit}"],
            capture_output=True,
            check=False,
        )
    except FileNotFoundError:
        pytest.skip("git is not installed: the base commit cannot be extracted")
    if known.returncode != 0:
        pytest.skip(f"commit {validator_differential.BASE} is not in this clone's history")
    assert validator_differential.main(["--values", "3"]) == 0, capsys.readouterr().out
