"""The feedback text is byte for byte what it was at ``BEFORE`` (read from git), for every
wrong call of the generated corpus (all its signatures, one and three mistakes, each
answered by ``execute`` as the benchmark's rows are) and for generated JSON values with
issues at, under, beside and past their members.

These guard the renderer's speed work (issue 33): the corpus is the benchmark's ground,
and the generated values reach the limits the corpus does not (long strings and arrays,
wide objects, deep nesting, odd keys and numbers, lone surrogates, unplaced issues).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

import pytest
from benchmarks.corpus import generate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support import before
from tests.support.budget import scaled

from llmapp import application, explain
from llmapp._results import UNDEFINED, ValidationFailure, ValidationIssue

BEFORE = "aed5237"
"""main before the sixth round on the feedback text (branch feedback6)."""


@pytest.fixture(scope="module")
def old_feedback() -> Callable[[ValidationFailure], str]:
    module: types.ModuleType = before.load(BEFORE, "llmapp/explain/_text.py")
    render: Callable[[ValidationFailure], str] = module.feedback
    return render


@pytest.mark.slow  # about 10 s: 600 calls of 300 signatures built; CI runs the slow tests
def test_every_wrong_call_of_the_corpus_reads_as_before(
    old_feedback: Callable[[ValidationFailure], str],
) -> None:
    built = generate()
    app, tools = application(built.tools), built.tools()
    compared = 0
    for case in built.cases:
        for label in ("1 mistake", "3 mistakes"):
            result = app.execute(tools, case.name, case.texts[label])
            assert not result.success, (case.name, label)
            assert isinstance(result.validation, ValidationFailure), (case.name, label)
            assert result.feedback == old_feedback(result.validation), (case.name, label)
            compared += 1
    assert compared == 2 * len(built.cases) >= 600


_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.sampled_from([10**18 - 1, 10**18, -(10**18), 10**400]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(["", "é", "\ud800", 'q"\\', "\n\t", "%s", "{0}", "z" * 200, "z" * 201]),
    st.text(min_size=195, max_size=205),
)
_KEYS = st.one_of(
    st.text(max_size=6),
    st.sampled_from(["a", "b c", "%", "{x}", "}", "\ud800", "k" * 200, "k" * 201]),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=15),
        st.dictionaries(_KEYS, inner, max_size=15),
    ),
    max_leaves=60,
)


def _places(value: Any, path: str = "$input") -> list[str]:
    """The path of every value, written as the validator writes it, and of a key or an
    item just past each container."""
    found = [path]
    if isinstance(value, dict):
        found.append(f"{path}.missing")
        for key, item in value.items():
            segment = f".{key}" if key.isidentifier() else f"[{key!r}]".replace("'", '"')
            found += _places(item, path + segment)
    elif isinstance(value, list):
        found.append(f"{path}[{len(value)}]")
        for index, item in enumerate(value):
            found += _places(item, f"{path}[{index}]")
    return found


@st.composite
def _failures(draw: st.DrawFn) -> ValidationFailure:
    data = draw(st.dictionaries(_KEYS, _VALUES, min_size=1, max_size=14))
    places = [*_places(data), "$input.nowhere.x", "not a path"]
    issues = [
        ValidationIssue(
            draw(st.sampled_from(places)),
            draw(st.sampled_from(["string", "undefined", "integer & Minimum<1>"])),
            draw(st.sampled_from([1, "x", UNDEFINED])),
            draw(st.sampled_from([None, "a description"])),
        )
        for _ in range(draw(st.sampled_from([1, 1, 2, 3, 60])))
    ]
    return ValidationFailure(data, issues)


@settings(
    max_examples=scaled(50, 1000),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(failure=_failures())
def test_generated_values_and_issues_read_as_before(
    old_feedback: Callable[[ValidationFailure], str], failure: ValidationFailure
) -> None:
    assert explain.feedback(failure) == old_feedback(failure)
