"""The redesigned validator against the one before it (``1d22dbe``): same verdicts, same issues.

Runs ``benchmarks.validator_differential`` (see ``benchmarks/README.md``) with a small
budget: one corpus schema in four by default, every one under ``LLMAPP_THOROUGH=1`` (two
processes compile each). It runs with the default suite: while it was deselected, a change
of the format checks broke the comparison unnoticed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from benchmarks import validator_differential
from tests.support import before
from tests.support.budget import THOROUGH

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.budgeted
def test_no_verdict_or_issue_changed_since_1d22dbe(capsys: pytest.CaptureFixture[str]) -> None:
    before.require(validator_differential.BASE)  # fails, saying why, in a shallow clone
    share = "1" if THOROUGH else "4"
    assert validator_differential.main(["--values", "3", "--share", share]) == 0, (
        capsys.readouterr().out
    )
