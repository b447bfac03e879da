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

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from benchmarks.corpus import Corpus, generate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support import before, refusals
from tests.support.budget import scaled

from llmapp import application

BEFORE = "aed5237"
"""The last commit before the refusal path's sixth round."""


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return generate()


@pytest.fixture(scope="module")
def old_coercion() -> Callable[[Any], Any]:
    """``repair.Coercion`` as it was at ``BEFORE``, over its own ``SchemaIndex``."""
    made: Callable[[Any], Any] = before.coercion(BEFORE)
    return made


class _Both:
    """Each call answered by today's plan and by the same plan with the old repair step."""

    def __init__(self, corpus: Corpus, old_coercion: Callable[[Any], Any]) -> None:
        self.app, self.tools = application(corpus.tools), corpus.tools()
        self._old = old_coercion
        self._olds: dict[str, Any] = {}

    @contextmanager
    def _old_repair(self, name: str) -> Iterator[None]:
        side = self.app._plans[name].side
        new = side.coercion  # made (and kept) by today's code
        if name not in self._olds:
            self._olds[name] = self._old(side.schema)
        side.__dict__["coercion"] = self._olds[name]
        try:
            yield
        finally:
            side.__dict__["coercion"] = new

    def answers(self, name: str, text: str) -> tuple[list[Any], list[Any]]:
        found = refusals.record(self.app.execute(self.tools, name, text))
        with self._old_repair(name):
            expected = refusals.record(self.app.execute(self.tools, name, text))
        return found, expected


@pytest.fixture(scope="module")
def both(corpus: Corpus, old_coercion: Callable[[Any], Any]) -> _Both:
    return _Both(corpus, old_coercion)


def test_every_corpus_refusal_is_answered_as_before(corpus: Corpus, both: _Both) -> None:
    differ = []
    for case in corpus.cases:
        for label, text in refusals.texts(corpus, case.name):
            found, expected = both.answers(case.name, text)
            if found != expected:
                differ.append((case.name, label))
    assert differ == []


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["charlie", "CLOSED", "OPEN", "voucher", "card", "crypto", "kind", ""]),
    st.text(max_size=12),
)
_JSON = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["kind", "wrong", "amount", "a"]), inner, max_size=3)
    ),
    max_leaves=6,
)
_WRITTEN = _JSON.map(lambda value: json.dumps(value))  # what repair reads back
_PADDED = st.tuples(st.sampled_from(["", " ", "\n", "\t "]), _WRITTEN).map("".join)
_VALUES = st.one_of(_JSON, _WRITTEN, _PADDED)


@settings(
    max_examples=scaled(200, 1000),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_hypothesis_values_are_answered_as_before(
    corpus: Corpus, both: _Both, data: st.DataObject
) -> None:
    # a signature whose valid arguments are empty ({}) has no key to put a value at
    with_keys = [case for case in corpus.cases if json.loads(case.texts["valid"])]
    case = data.draw(st.sampled_from(with_keys))
    valid = json.loads(case.texts["valid"])
    key = data.draw(st.sampled_from(sorted(valid)))
    value = data.draw(_VALUES)
    inner = valid[key]
    if isinstance(inner, dict) and inner and data.draw(st.booleans()):  # one level down
        value = {**inner, data.draw(st.sampled_from(sorted(inner))): value}
    elif isinstance(inner, list) and inner and data.draw(st.booleans()):
        position = data.draw(st.integers(0, len(inner) - 1))
        value = [*inner[:position], value, *inner[position + 1 :]]
    text = json.dumps({**valid, key: value})
    found, expected = both.answers(case.name, text)
    assert found == expected
