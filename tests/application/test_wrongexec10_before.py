"""The wrong call's tenth round (issue 33) answers every call as the code before it did.

What a wrong call pays besides its validation changed: the repair decision
(``repair/_coerce.py``, ``repair/_index.py``) and the feedback text (``explain/_text.py``).
``ceb4ff8``'s modules are put back beside today's (loaded from git by
``tests/support/before``): its repair step in each tool's plan and its renderer as the
feedback the call step writes. Each call is answered by both and every field of the
``CallResult`` (success, feedback, each issue's path, expected, value and description,
repairs, deprecated, the value) must agree: every signature of the generated corpus on its
texts with 1 and 3 mistakes and on the texts made from its valid one at each key
(``tests/support/refusals.py``), valid texts between them, every number of a valid call
written as text (which repair mends), and hypothesis values in place of one key of a valid
call or of one member under it.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from unittest import mock

import pytest
from benchmarks.corpus import Corpus, generate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support import answered, before, refusals
from tests.support.budget import scaled

from llmapp import explain

BEFORE = "ceb4ff8"
"""The last commit before the wrong call's tenth round."""


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return generate()


@pytest.fixture(scope="module")
def both(corpus: Corpus) -> answered.BeforeAndNow:
    old = before.load(BEFORE, "llmapp/explain/_text.py").feedback

    def old_feedback() -> AbstractContextManager[object]:
        return mock.patch.object(explain, "feedback", old)

    return answered.BeforeAndNow(corpus, BEFORE, also=old_feedback)


def test_every_corpus_refusal_is_answered_as_before(
    corpus: Corpus, both: answered.BeforeAndNow
) -> None:
    differ = [
        (name, label)
        for name, label, text in refusals.every_text(corpus)
        if (answers := both.answers(name, text))[0] != answers[1]
    ]
    assert differ == []


def test_every_number_written_as_text_is_answered_as_before(
    corpus: Corpus, both: answered.BeforeAndNow
) -> None:
    """Repair mends these, so the places where it walks and where it provably need not
    are both met: a walk skipped where it would have mended changes the answer."""
    differ, mended = [], 0
    for case in corpus.cases:
        valid = json.loads(case.texts["valid"])
        for at, leaf in list(refusals.leaves(valid))[:40]:
            found, expected = both.answers(
                case.name, json.dumps(refusals.written_as_text(valid, at, leaf))
            )
            mended += expected[1] is True
            if found != expected:
                differ.append((case.name, at))
    assert differ == []
    assert mended > 1000  # the texts reach the repairs they are meant to


@settings(
    max_examples=scaled(300, 1500),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_hypothesis_values_are_answered_as_before(
    corpus: Corpus, both: answered.BeforeAndNow, data: st.DataObject
) -> None:
    name, text = answered.one_value_replaced(corpus, data)
    found, expected = both.answers(name, text)
    assert found == expected
