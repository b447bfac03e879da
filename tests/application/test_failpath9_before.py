"""The wrong call's ninth round (issue 33) answers every call as the code before it did.

Two parts of a refusal changed: a validator whose checks run within a pattern budget walks
a value ``valid`` refused without checking it again (``Validator.refusal``), and a union's
walker explains a refused branch that names a definition by calling that definition's
walker, not the branch's walker, which asked the definition's check again
(``validate/_walk.py``). ``cac26b5``'s validator is put back beside today's: its
``validate/_validator.py`` and ``validate/_walk.py``, loaded from git (``tests/support/before``),
build a validator of each tool's schema, and today's ``refusal`` is answered by that
validator whole (its checks, then its walk). Each call is answered by both ways and every
field of the ``CallResult`` (success, feedback, each issue's path, expected, value and
description, the repairs, the value) must agree: every signature of the generated corpus on
its texts with 1 and 3 mistakes and the texts made from its valid one at each key
(``tests/support/refusals.py``), valid texts between them, and hypothesis values in place of
one key of a valid call or of one member under it. The validations themselves are compared
too, over the same texts and over hypothesis values in place of the whole arguments.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from benchmarks.corpus import Corpus, generate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support import answered, before, refusals
from tests.support.budget import scaled
from tests.support.engines import searched_as_before

from llmapp.validate import Validator

BEFORE = "cac26b5"
"""The last commit before the wrong call's ninth round."""


class _Old:
    """``BEFORE``'s validator of each schema, built once (its own caches: nothing it
    compiles is shared with today's validators)."""

    def __init__(self) -> None:
        self._module = before.load(BEFORE, "llmapp/validate/_validator.py")
        self._walk = before.load(BEFORE, "llmapp/validate/_walk.py")
        self._made: dict[int, Any] = {}

    def of(self, new: Validator) -> Any:
        found = self._made.get(id(new))
        if found is None:
            with mock.patch("llmapp.validate._codegen.WalkWriter", self._walk.WalkWriter):
                found = self._module.Validator(new.schema, max_depth=new.max_depth)
            self._made[id(new)] = found  # today's validators live as long as the app
        return found

    @contextmanager
    def refusals(self) -> Iterator[None]:
        """Today's ``refusal`` answered by ``BEFORE``'s validator, whole (what the check
        answered, which today's walk starts from, left unread)."""

        def whole(new: Validator, value: Any, refused: object = False) -> Any:
            return self.of(new)(value)

        with mock.patch.object(Validator, "refusal", whole):
            yield


@pytest.fixture(scope="module", autouse=True)
def _budgeted_as_written() -> Iterator[None]:
    """The corpus's ``\\bref\\d+\\b`` searched within a pattern budget, as when these
    tests were written: their budgeted refusals are then among the corpus's."""
    with searched_as_before():
        yield


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return generate()


@pytest.fixture(scope="module")
def old() -> _Old:
    return _Old()


@pytest.fixture(scope="module")
def both(corpus: Corpus, old: _Old) -> answered.BeforeAndNow:
    # The repair step is unchanged since ``BEFORE``: its own code on both sides.
    return answered.BeforeAndNow(corpus, BEFORE, also=old.refusals)


def test_every_corpus_refusal_is_answered_as_before(
    corpus: Corpus, both: answered.BeforeAndNow
) -> None:
    differ = [
        (name, label)
        for name, label, text in refusals.every_text(corpus)
        if (answers := both.answers(name, text))[0] != answers[1]
    ]
    assert differ == []


def _issues(validation: Any) -> Any:
    if validation.success:
        return None
    return [(i.path, i.expected, repr(i.value), i.description) for i in validation.errors]


def _validations(checker: Validator, old: _Old, data: Any) -> tuple[Any, Any]:
    """Today's answer as the call step asks it (``valid``, then ``refusal``) and
    ``BEFORE``'s validator's answer."""
    now = None if checker.valid(data) else _issues(checker.refusal(data))
    return now, _issues(old.of(checker)(data))


def test_every_corpus_validation_is_as_before(
    corpus: Corpus, both: answered.BeforeAndNow, old: _Old
) -> None:
    app = both.app
    differ, budgeted, rewritten = [], 0, 0
    for name, label, text in refusals.every_text(corpus):
        checker = app._plans[name].side.checker
        budgeted += not checker.bounded and label == "1 mistake"
        rewritten += label == "1 mistake" and old.of(checker).source != checker.source
        try:
            data = json.loads(text)
        except ValueError:
            continue
        found, expected = _validations(checker, old, data)
        if found != expected:
            differ.append((name, label))
    assert differ == []
    assert budgeted >= 5  # the refusals within a pattern budget are among them
    assert rewritten >= 20  # and the walkers of unions whose branches name definitions


def test_a_budgeted_refusal_walks_without_checking_again(
    corpus: Corpus, both: answered.BeforeAndNow
) -> None:
    """The point of the change: a refusal within a pattern budget calls the checker no more."""
    app = both.app
    cases = [
        case
        for case in corpus.cases
        if (checker := app._plans[case.name].side.checker)._checks_guarded and checker._memo is None
    ]
    assert cases
    for case in cases:
        checker = app._plans[case.name].side.checker
        data = json.loads(case.texts["1 mistake"])
        assert not checker.valid(data)
        with answered.checks_counted(checker) as calls:
            assert not checker.refusal(data).success
        assert calls == []


_SETTINGS = settings(
    max_examples=scaled(300, 1500),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@_SETTINGS
@given(data=st.data())
def test_hypothesis_values_are_answered_as_before(
    corpus: Corpus, both: answered.BeforeAndNow, data: st.DataObject
) -> None:
    name, text = answered.one_value_replaced(corpus, data)
    found, expected = both.answers(name, text)
    assert found == expected


_ANY = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@_SETTINGS
@given(data=st.data())
def test_hypothesis_arguments_are_validated_as_before(
    corpus: Corpus, both: answered.BeforeAndNow, old: _Old, data: st.DataObject
) -> None:
    """Any JSON as the whole arguments, or under the signature's own keys."""
    case = data.draw(st.sampled_from(corpus.cases))
    checker = both.app._plans[case.name].side.checker
    keys = st.sampled_from(sorted(json.loads(case.texts["valid"])) or ["a"])
    value = data.draw(_ANY | st.dictionaries(keys, _ANY))
    found, expected = _validations(checker, old, value)
    assert found == expected
