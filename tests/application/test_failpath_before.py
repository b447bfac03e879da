"""The wrong call's eighth round (issue 33) answers every call as the code before it did.

Two steps of a wrong call changed: the repair step (``repair/_index.py``: a union's
branches by JSON type read once) and the refusal of a recursive schema's validator
(``Validator.refusal`` walks on what ``valid``'s own check noted instead of checking
again). The code of ``ac0984b`` is put back beside today's: its repair step
(``repair/_coerce.py`` and ``repair/_index.py``, loaded from git by ``tests/support/before``)
in each tool's plan, and its refusal, which ran the whole validator (``Validator.__call__``,
unchanged since: the checks again, then the walk). Each call is answered by both and
every field of the ``CallResult`` (success, feedback, each issue's path, expected, value and
description, the repairs, the value) must agree: every signature of the generated corpus
on its texts with 1 and 3 mistakes and on the texts made from its valid one at each key
(``tests/support/refusals.py``), valid texts between them (so a recursive validator's
notes of earlier calls are there to be forgotten), and hypothesis values written in place
of one key of a valid call or of one member under it.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager
from unittest import mock

import pytest
from benchmarks.corpus import Corpus, generate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support import answered, refusals
from tests.support.budget import scaled

from llmapp import application
from llmapp.validate import Validator

BEFORE = "ac0984b"
"""The last commit before the wrong call's eighth round."""


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return generate()


def _whole_refusal() -> AbstractContextManager[object]:
    """``ac0984b``'s refusal: the whole validator (``Validator.__call__``, unchanged since:
    the checks again, then the walk)."""
    # What the check answered, which today's walk starts from, is left unread.
    return mock.patch.object(
        Validator, "refusal", lambda new, value, refused=False: Validator.__call__(new, value)
    )


@pytest.fixture(scope="module")
def both(corpus: Corpus) -> answered.BeforeAndNow:
    return answered.BeforeAndNow(corpus, BEFORE, also=_whole_refusal)


def test_every_corpus_refusal_is_answered_as_before(
    corpus: Corpus, both: answered.BeforeAndNow
) -> None:
    differ = []
    for case in corpus.cases:
        for label, text in [("valid", case.texts["valid"]), *refusals.texts(corpus, case.name)]:
            found, expected = both.answers(case.name, text)
            if found != expected:
                differ.append((case.name, label))
    assert differ == []


_LEAVES = 40
"""Most leaves of one signature's valid call written as text."""


def test_every_number_written_as_text_is_answered_as_before(
    corpus: Corpus, both: answered.BeforeAndNow
) -> None:
    """Repair mends these (a number or boolean as text, under unions, lists and records at
    any depth), so the places where it walks and where it provably need not are both
    met: a walk skipped where it would have mended changes the answer."""
    differ, repaired = [], 0
    for case in corpus.cases:
        valid = json.loads(case.texts["valid"])
        for at, leaf in list(refusals.leaves(valid))[:_LEAVES]:
            text = json.dumps(refusals.written_as_text(valid, at, leaf))
            found, expected = both.answers(case.name, text)
            repaired += expected[1] is True  # mended, then accepted
            if found != expected:
                differ.append((case.name, at))
    assert differ == []
    assert repaired > 1000  # the texts reach the repairs they are meant to


def test_the_refusal_walks_without_checking_again(corpus: Corpus) -> None:
    """The point of the change, so that a refusal running whole again is seen: a recursive
    validator's refusal calls its checker no more."""
    app = application(corpus.tools)
    recursive = [
        case
        for case in corpus.cases
        if (checker := app._plans[case.name].side.checker)._failed is not None
        and not checker._checks_guarded
    ]
    assert recursive
    for case in recursive:
        checker = app._plans[case.name].side.checker
        data = json.loads(case.texts["1 mistake"])
        assert not checker.valid(data)
        with answered.checks_counted(checker) as calls:
            assert checker.refusal(data).errors == checker(data).errors
        # the ``__call__`` beside it, not the refusal (a root lacking a required key is
        # asked again of a copy, ``_runtime.refilled``: not the value checked again)
        assert [call for call in calls if call[0] is data] == calls[:1]


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
