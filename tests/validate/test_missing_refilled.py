"""Issue 33's eleventh round (branch missing11): a root object lacking a required key.

The root checker, refused by a missing key before it judged any property, answers
``_M0`` (``MISSED``), and the validator asks it again of a copy holding ``None`` at each
key missing (``_runtime.refilled``): that refusal names the properties it found valid,
and the walk skips them. The issues stay what they were at 7591d5f, where the walk got
``WHOLE``: compared with the same validators whose ``refilled`` answers ``WHOLE`` (the
old walk, line for line), and with the walk that knows nothing, on every corpus
signature's texts with one and two required keys missing, extra keys, containers cut
short and wrong values.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from benchmarks import corpus
from tests.support.refusals import every_text

from llmapp import application
from llmapp._results import ValidationFailure
from llmapp.validate import _validator, validator
from llmapp.validate._runtime import WHOLE


@contextmanager
def _as_before() -> Iterator[None]:
    """``refilled`` answering ``WHOLE``: the walk 7591d5f gave a missing key."""
    kept = _validator.refilled
    _validator.refilled = lambda check, value, names: WHOLE
    try:
        yield
    finally:
        _validator.refilled = kept


def _variants(data: Any, rnd: random.Random) -> Iterator[Any]:
    """``data`` and, for an object, each key missing, two missing, an extra key, each
    container emptied or cut to one item, and a wrong value at each key."""
    yield data
    if not isinstance(data, dict):
        return
    keys = list(data)
    for key in keys:
        yield {k: v for k, v in data.items() if k != key}
        yield {**{k: v for k, v in data.items() if k != key}, "extra": 1}
        value = data[key]
        if isinstance(value, (list, dict)) and value:
            cut = value[:1] if isinstance(value, list) else dict(list(value.items())[:1])
            yield {k: v for k, v in data.items() if k != keys[0]} | {key: cut}
            yield {**data, key: type(value)()}
        yield {k: v for k, v in data.items() if k != keys[-1]} | {key: rnd.choice(_WRONG)}
    for pair in itertools.combinations(keys, 2):
        yield {k: v for k, v in data.items() if k not in pair}
    yield {}


_WRONG: list[Any] = [None, True, 3, 2.5, "text", [], [{"wrong": True}], {"wrong": True}]


def _entries() -> list[tuple[str, Any, list[Any]]]:
    built = corpus.generate()
    app = application(built.tools)
    rnd = random.Random(11)
    texts: dict[str, list[Any]] = {}
    for name, _label, text in every_text(built):
        texts.setdefault(name, []).append(json.loads(text))
    return [
        (name, app.require(name).parameters, [v for d in found for v in _variants(d, rnd)])
        for name, found in texts.items()
    ]


def _issues(answer: Any) -> list[Any]:
    return list(answer.errors) if isinstance(answer, ValidationFailure) else []


@pytest.mark.parametrize("name, schema, values", _entries(), ids=lambda entry: "")
def test_missing_keys_give_the_issues_of_before(name: str, schema: Any, values: Any) -> None:
    check = validator(schema)
    for value in values:
        found = _issues(check(value))
        with _as_before():
            assert _issues(check(value)) == found, (name, value)
        assert (check._issues(value, WHOLE) if found else []) == found, (name, value)
