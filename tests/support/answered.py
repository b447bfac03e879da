"""A corpus tool's call answered twice, by today's plan and with an earlier commit's repair
step put back, for the differential tests of a wrong call's rounds (issue 33:
``tests/application/test_refusal_before.py``, ``test_failpath_before.py``,
``test_failpath9_before.py``); the hypothesis draw of a valid call with one value put in
place of a key or a member under it; and a count of a validator's checks.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import Any

from benchmarks.corpus import Corpus
from hypothesis import strategies as st

from llmapp import application

from . import before, refusals


class BeforeAndNow:
    """Each call answered by today's plan and by the same plan with ``commit``'s repair step
    (``before.coercion``) and whatever ``also`` puts back for the call (a context)."""

    def __init__(
        self,
        corpus: Corpus,
        commit: str,
        also: Callable[[], AbstractContextManager[object]] = nullcontext,
    ) -> None:
        self.app, self.tools = application(corpus.tools), corpus.tools()
        self._old = before.coercion(commit)
        self._also = also
        self._olds: dict[str, Any] = {}

    @contextmanager
    def _before(self, name: str) -> Iterator[None]:
        side = self.app._plans[name].side
        new = side.coercion  # made (and kept) by today's code
        if name not in self._olds:
            self._olds[name] = self._old(side.schema)
        side.__dict__["coercion"] = self._olds[name]
        try:
            with self._also():
                yield
        finally:
            side.__dict__["coercion"] = new

    def answers(self, name: str, text: str) -> tuple[list[Any], list[Any]]:
        """What today's code and the earlier steps answer (``refusals.record``)."""
        found = refusals.record(self.app.execute(self.tools, name, text))
        with self._before(name):
            expected = refusals.record(self.app.execute(self.tools, name, text))
        return found, expected


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
        | st.dictionaries(
            st.sampled_from(["kind", "wrong", "amount", "a", "next", "children"]), inner, max_size=3
        )
    ),
    max_leaves=6,
)
_WRITTEN = _JSON.map(lambda value: json.dumps(value))  # what repair reads back
_PADDED = st.tuples(st.sampled_from(["", " ", "\n", "\t "]), _WRITTEN).map("".join)
_VALUES = st.one_of(_JSON, _WRITTEN, _PADDED)


def one_value_replaced(corpus: Corpus, data: st.DataObject) -> tuple[str, str]:
    """A tool's name and its valid call's text with a drawn value (JSON, JSON written as
    text, padded) in place of one key's, or of one member of that key's container."""
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
    return case.name, json.dumps({**valid, key: value})


@contextmanager
def checks_counted(checker: Any) -> Iterator[list[tuple[Any, ...]]]:
    """The calls a validator makes of its generated checker while the block runs: the
    tests that a refusal walks without checking again count them."""
    calls: list[tuple[Any, ...]] = []
    check = checker._check
    checker._check = lambda *arguments: calls.append(arguments) or check(*arguments)
    try:
        yield calls
    finally:
        checker._check = check
