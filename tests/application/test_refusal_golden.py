"""Every refusal of the generated corpus's tools is what it was before the refusal path
was made cheaper (issue 33's fourth round): the feedback text byte for byte, each issue,
and every other field of the ``CallResult``, over each tool's texts with mistakes and the
texts made from its valid one at each key (``tests/support/refusals.py``, whose digests
of d426259's answers are in ``golden/refusals.json``)."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.corpus import generate
from tests.support import refusals

GOLDEN = Path(__file__).with_name("golden") / "refusals.json"


def test_every_refusal_of_the_corpus_is_answered_as_before() -> None:
    expected = json.loads(GOLDEN.read_text())
    found = refusals.digests(generate())
    assert len(found) == len(expected) == 300
    assert [name for name in expected if found[name] != expected[name]] == []
