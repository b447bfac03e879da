"""The pattern engines as they were before a rule put more patterns on ``re``.

The tests of a validator whose checks run within a pattern budget were written over
patterns that ran on RE2 (with the backtracking engine's budget for texts RE2 cannot read);
``\\bref\\d+\\b``, the corpus's, now runs on ``re`` (``linear._disjoint_attempts``). Within
``searched_as_before()`` the rule is off, and no matcher or cached validator compiled under
it is kept, so those tests go on reaching the budgeted paths they were written for and
the tests after them meet the engines as they are.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from llmapp._patterns import linear, matching
from llmapp.validate import _validator


@contextmanager
def searched_as_before() -> Iterator[None]:
    """Patterns whose attempts read disjoint stretches run on RE2 again, as they did
    before that rule; the matchers and validators compiled meanwhile are forgotten on
    both sides."""
    _forget()
    try:
        with mock.patch.object(linear, "_disjoint_attempts", return_value=False):
            yield
    finally:
        _forget()


def _forget() -> None:
    matching._MATCHERS._data.clear()
    with _validator._lock:
        _validator._cache.clear()
    with _validator._shared_lock:  # shared definitions a live validator still holds
        _validator._shared.clear()
