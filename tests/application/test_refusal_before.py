"""The refusal path's sixth round (issue 33) answers every call as the code before it did.

The repair step of ``aed5237`` (``repair/_coerce.py`` and the ``repair/_index.py`` it
reads, loaded from git by ``tests/support/before``) is put back into each tool's plan in
place of today's, and each call is answered by both: every field of the ``CallResult``
(success, feedback, each issue's path, expected, value and description, the repairs,
the value) must agree. The calls: every signature of the generated corpus on its texts
with 1 and 3 mistakes and on the texts made from its valid one at each key
(``tests/support/refusals.py``), and hypothesis values written in place of one key of
a valid call (numbers, booleans and nulls written as text, JSON written as text, enum
names, containers).
"""

from __future__ import annotations

import pytest
from benchmarks.corpus import Corpus, generate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support import answered, refusals
from tests.support.budget import scaled

BEFORE = "aed5237"
"""The last commit before the refusal path's sixth round."""


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return generate()


@pytest.fixture(scope="module")
def both(corpus: Corpus) -> answered.BeforeAndNow:
    return answered.BeforeAndNow(corpus, BEFORE)


def test_every_corpus_refusal_is_answered_as_before(
    corpus: Corpus, both: answered.BeforeAndNow
) -> None:
    differ = []
    for case in corpus.cases:
        for label, text in refusals.texts(corpus, case.name):
            found, expected = both.answers(case.name, text)
            if found != expected:
                differ.append((case.name, label))
    assert differ == []


@settings(
    max_examples=scaled(200, 1000),
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
