"""The stream of branch stream9 (issue 35) answers as the stream before it did, for any
text and any split.

``llmapp/streaming/_arguments.py`` and ``_positions.py`` are read from git at ``BEFORE`` and
loaded beside today's (``tests/support/before.py``); the old reader is given the old
positions. Every text is fed to both in the same pieces: the issues of every piece (path,
expected text, value, description), ``partial``, ``stopped``, ``complete``, ``length``,
``missing()`` and the duplicates after every piece, and ``finish()`` at the end, must be
identical. The texts: the benchmark payloads compact and indented, with an escaped key,
damaged (characters removed, added, a cut) and with a key written twice; values drawn for
the schemas of ``test_same_answers.py``, damaged and written twice likewise. The pieces: every length from 1
to 19, longer ones, and random splits.
"""

from __future__ import annotations

import json
import random
import types
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.stream.test_same_answers import DEFS, SCHEMAS, objects, summary, value_for
from tests.support import before
from tests.support.budget import scaled, spread

from llmapp import LlmFunction, ValidationIssue, application, repair
from llmapp.streaming import ArgumentStream, stream
from llmapp.validate._validator import Validator

BEFORE = "cac26b5"
"""``main`` when branch stream9 started."""

SIZES = (*range(1, 20), 23, 31, 40, 64, 100, 256)


@pytest.fixture(scope="module")
def old() -> types.ModuleType:
    """The stream at ``BEFORE``, on the positions at ``BEFORE``, with one rule as it is now:
    a null for an optional key is passed over only where the call step drops it (the
    property cannot be null). ``BEFORE`` passed over every such null, so a null the call
    step judges and refuses (``oneOf`` of two nulls) was reported when its object came
    whole in a piece and not when it came cut (tenth round, found by
    ``test_same_answers.py``'s hypothesis test)."""
    positions = before.load(BEFORE, "llmapp/streaming/_positions.py")
    arguments = before.load(BEFORE, "llmapp/streaming/_arguments.py")
    arguments.Position = positions.Position
    arguments.Positions = positions.Positions
    arguments.ArgumentStream._judge = _judge
    return arguments


def _judge(self: Any, frame: Any, position: Any, value: Any) -> None:
    """The old reader's ``_judge`` with today's null rule (``old``); written here, not
    borrowed, as today's reader may be compiled (mypyc), its methods bound to its class."""
    where = frame.position
    if value is None and where is not None and frame.key in where.properties:
        if repair.coercer(where.table.root).drops_null(where.schema, frame.key):
            return
    issues = position.check(value)
    path = self._child_path(frame) if issues else ""
    for issue in issues:
        moved = path + issue.path[len("$input") :]
        self._issue(ValidationIssue(moved, issue.expected, issue.value, issue.description))


def issues(found: list[Any]) -> list[tuple[Any, ...]]:
    return [(i.path, i.expected, repr(i.value), i.description) for i in found]


def state(arguments: Any) -> tuple[Any, ...]:
    return (
        repr(arguments.partial),
        arguments.stopped,
        arguments.complete,
        arguments.length,
        arguments.missing(),
        issues(arguments.duplicates),
    )


def same(old: types.ModuleType, function: Any, text: str, pieces: list[str]) -> None:
    """Feed ``pieces`` to both streams: every answer identical."""
    new, was = stream(function), old.ArgumentStream(function)
    assert isinstance(new, ArgumentStream)
    for number, piece in enumerate(pieces):
        assert issues(new.feed(piece)) == issues(was.feed(piece)), (text, pieces, number)
        assert state(new) == state(was), (text, pieces, number)
    assert summary(new.finish()) == summary(was.finish()), (text, pieces)


def splits(text: str, rng: random.Random, sizes: tuple[int, ...]) -> list[list[str]]:
    made = [[text[i : i + size] for i in range(0, len(text), size)] for size in sizes]
    for _ in range(4):
        cuts = sorted(rng.sample(range(1, len(text)), min(len(text) - 1, rng.randint(1, 40))))
        made.append([text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])])
    return made


def damaged(text: str, rng: random.Random) -> list[str]:
    """``text`` with characters removed, added, cut short."""
    made = []
    for _ in range(3):
        at = rng.randrange(len(text))
        made.append(text[:at] + text[at + 1 :])
        made.append(text[:at] + rng.choice('"{}[],:x1 \\') + text[at:])
        made.append(text[: rng.randrange(1, len(text))])
    return made


def twice(text: str, value: dict[str, Any]) -> str:
    """``text`` (``value`` written) with its first key written again at its end, with the
    same value (right there: only the key written twice is said of it)."""
    first = next(iter(value))
    return f"{text.rstrip()[:-1]}, {json.dumps(first)}: {json.dumps(value[first])}}}"


def payload_texts() -> list[tuple[Any, str]]:
    from benchmarks.payloads import PAYLOADS, Targets, format_payloads

    app = application(Targets)
    rng = random.Random(8)
    made = []
    for payload in [*PAYLOADS, *format_payloads()]:
        function = app.function(payload.method)
        texts = [json.dumps(payload.data), json.dumps(payload.data, indent=1)]
        first = next(iter(payload.data))
        escaped = f'"\\u{ord(first[0]):04x}{first[1:]}"'  # its first character escaped
        texts.append(texts[0].replace(f'"{first}"', escaped, 1))
        texts.append(twice(texts[0], payload.data))
        texts += damaged(texts[0], rng)
        made += [(function, text) for text in texts]
    return made


@pytest.mark.budgeted
def test_the_payloads_in_every_split_answer_as_before(old: types.ModuleType) -> None:
    rng = random.Random(35)
    for function, text in spread(payload_texts(), 7):
        for pieces in splits(text, rng, tuple(spread(SIZES, 4))):
            same(old, function, text, pieces)


def test_a_checker_that_raises_is_a_value_valid_refuses(
    old: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ``Position.passes`` is the generated checker itself, called where a raise is caught:
    # a value it raises on takes the long way, as one ``valid`` refuses.
    from benchmarks.payloads import PAYLOADS, Targets

    def raising(value: Any, depth: int) -> bool:
        raise ZeroDivisionError

    monkeypatch.setattr(Validator, "checker", property(lambda self: raising))
    app = application(Targets)  # made after the patch: its positions hold ``raising``
    for payload in PAYLOADS:
        function = app.function(payload.method)
        text = json.dumps(payload.data)
        for size in (1, 7, 16, 256):
            same(old, function, text, [text[i : i + size] for i in range(0, len(text), size)])


@pytest.mark.budgeted
@settings(max_examples=scaled(60, 600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_drawn_schemas_and_values_in_every_split_answer_as_before(
    old: types.ModuleType, data: st.DataObject
) -> None:
    schema = {**data.draw(objects(SCHEMAS)), "$defs": DEFS}
    function = LlmFunction("f", None, schema)
    value = value_for(data, schema)
    if not isinstance(value, dict):
        value = {"a": value}
    text = json.dumps(value, indent=data.draw(st.sampled_from([None, 1])))
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    for written in [text, *damaged(text, rng), twice(text, value) if value else ""]:
        if written:
            for pieces in splits(written, rng, (1, 2, 3, 5, 7, 16, 40)):
                same(old, function, written, pieces)
