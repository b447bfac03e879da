"""Every Python example of the docs pages runs as written, on its own, from any folder.

The vendor loops talk to the vendor's API: tests/vendors/test_readme_loops.py runs them
against a local server playing the model.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.examples import ROOT, examples, run
from tests.vendors.test_readme_loops import LOOPS

EXAMPLES = examples(sorted((ROOT / "docs").rglob("*.md")))


def test_docs_have_examples():
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("example", EXAMPLES, ids=[each.name for each in EXAMPLES])
def test_docs_example_runs(example, tmp_path: Path):
    if example.source in LOOPS.values():
        pytest.skip("a vendor loop: tests/vendors/test_readme_loops.py runs it against a model")
    run(example, tmp_path)
