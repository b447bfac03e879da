"""The README's Python examples run as written, each on its own, from any folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.examples import ROOT, examples, run

EXAMPLES = examples([ROOT / "README.md"])


def test_readme_has_examples():
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize("example", EXAMPLES, ids=[each.name for each in EXAMPLES])
def test_readme_example_runs(example, tmp_path: Path):
    run(example, tmp_path)
