"""Containers of date and time texts walked after a refusal, against ``f26a9cc`` (issue 33,
twelfth round).

A walker whose checker refused inside a dict of date or time texts (``Refusal.inside``)
now goes straight to judging each value alone, as it already did for a list: the check
at once of the same values (``usual_texts.mapping``) could only say no again. The issues
must be ``f26a9cc``'s, in the same order, for every corpus signature with a list or a
dict of such texts, on its three payloads and on values made from them: each text of a
container made a record, a number, a null, a bool or a bad or unusual text (a leap
second, lower-case ``t`` and ``z``, an offset, a local form, hour 24, a lone surrogate),
several at once, the container emptied, keys that are not strings; and for schemas
written here (a dict of texts with bounds, beside properties, under a union, nullable).
Each tree is judged in a process of its own (``benchmarks/_verdicts.py``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

from tests.support import before
from tests.validate.test_resume10_before import _corpus, _made, _schema, judged_alike

from llmapp.validate._formats import usual_texts

BEFORE = "f26a9cc"
"""The commit before this round's changes."""

_TEXTS: tuple[Any, ...] = (
    {"wrong": True},
    7,
    None,
    True,
    [],
    "",
    "three days",
    "2024-13-01T10:00:00Z",
    "2016-12-31T23:59:60Z",
    "2024-05-01T23:59:60Z",
    "2024-05-01t12:30:00z",
    "2024-05-01T12:30:00+05:30",
    "2024-05-01T12:30:00+02:60",
    "2024-05-01T12:30:00.123456789Z",
    "2024-05-01T12:30:00",
    "2024-05-01T24:00:00Z",
    "2024-05-01",
    "12:30:00",
    "12:30:00Z",
    "12:30:00+02:00",
    "23:59:60Z",
    "24:00:00",
    "P1DT2H",
    "PT",
    "\ud800",
    "2024-05-01T12:30:00Z\x00",
)
"""What a text of a container is replaced by: values of other kinds, bad texts, and usual
or unusual forms of dates, times and durations."""


def _has_texts(schema: Any) -> bool:
    """Whether a schema holds a list or a dict whose items are date, time or duration
    texts judged at once (``usual_texts``)."""
    if isinstance(schema, dict):
        for keyword in ("items", "additionalProperties"):
            if usual_texts(schema.get(keyword)) is not None:
                return True
        return any(_has_texts(member) for member in schema.values())
    if isinstance(schema, list):
        return any(_has_texts(member) for member in schema)
    return False


def _changed(container: Any) -> Iterator[Any]:
    """A list or a dict of texts with each item replaced, two at once, emptied; a dict
    with keys that are not strings beside its own."""
    keys = list(range(len(container))) if isinstance(container, list) else list(container)
    for key in keys:
        for text in _TEXTS:
            yield _put(container, {key: text})
    if len(keys) > 1:
        yield _put(container, {keys[0]: {"wrong": True}, keys[-1]: "2024-13-01"})
        yield _put(container, {keys[0]: "x", keys[-1]: 7})
    yield type(container)()
    if isinstance(container, dict):
        first = container[keys[0]] if keys else "2024-05-01T12:30:00Z"
        yield {1: first, **container}
        yield {**container, None: {"wrong": True}}
        yield {**container, 2.5: first, "zz": "bad"}


def _put(container: Any, changes: dict[Any, Any]) -> Any:
    if isinstance(container, list):
        return [changes.get(index, item) for index, item in enumerate(container)]
    return {key: changes.get(key, item) for key, item in container.items()}


def _text_containers(value: Any, depth: int = 0) -> Iterator[tuple[Any, Any]]:
    """Every list or dict of strings in ``value`` (a few levels down), with a function
    putting a replacement in its place."""
    if depth > 3:
        return
    members = (
        list(enumerate(value))
        if isinstance(value, list)
        else list(value.items())
        if isinstance(value, dict)
        else []
    )
    if members and all(isinstance(item, str) for _, item in members):
        yield value, lambda new: new
    for key, member in members:
        for found, put in _text_containers(member, depth + 1):
            yield found, lambda new, key=key, put=put: _put(value, {key: put(new)})


def _variants(value: Any) -> Iterator[Any]:
    for container, put in _text_containers(value):
        for changed in _changed(container):
            yield put(changed)


@cache
def _entries() -> list[tuple[str, Any, list[Any]]]:
    entries = []
    for case in _corpus().cases:
        schema = _schema(case.name)
        if not _has_texts(schema):
            continue
        texts = [json.loads(case.texts[label]) for label in ("valid", "1 mistake", "3 mistakes")]
        made = texts + _made(texts[0]) + [v for text in texts for v in _variants(text)]
        entries.append((case.name, schema, made))
    for name, schema in SCHEMAS.items():
        made = [v for value in SAMPLES for v in (value, *_variants(value))]
        entries.append((name, schema, made))
    return entries


_DATE_TIMES = {
    "anyOf": [
        {"type": "string", "format": "date-time"},
        {"type": "string", "format": "date-time-local"},
    ]
}
_TIMES = {
    "anyOf": [{"type": "string", "format": "time"}, {"type": "string", "format": "time-local"}]
}
_DURATIONS = {"type": "string", "format": "duration"}


def _mapping(items: Any, **more: Any) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": items, **more}


SCHEMAS: dict[str, Any] = {
    name: {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "m": inner, "z": {"type": "string"}},
        "required": ["m"],
        "additionalProperties": False,
    }
    for name, inner in {
        "dict of date-times": _mapping(_DATE_TIMES),
        "dict of times, bounded": _mapping(_TIMES, minProperties=1, maxProperties=3),
        "dict of durations": _mapping(_DURATIONS),
        "dict of dates, nullable": _mapping({"type": "string", "format": "date"}, nullable=True),
        "dict of date-times or null": {
            "type": ["object", "null"],
            "additionalProperties": _DATE_TIMES,
        },
        "dict of dates, untyped": {"additionalProperties": {"type": "string", "format": "date"}},
        "dict of date-times, a property": _mapping(
            _DATE_TIMES, properties={"x": {"type": "integer"}}
        ),
        "dict of date-times, names": _mapping(_DATE_TIMES, propertyNames={"maxLength": 3}),
        "dict of times under a union": {"anyOf": [_mapping(_TIMES), {"type": "null"}]},
        "list of times, bounded": {"type": "array", "items": _TIMES, "minItems": 1, "maxItems": 3},
    }.items()
}
"""Dicts (and a list) of texts where the refused property is one of them, beside the
keywords that decide whether the walk knows the texts refused."""

SAMPLES: list[Any] = [
    {"a": 1, "m": {"k": "2024-05-01T12:30:00Z", "l": "2024-05-01T12:30:00"}, "z": "s"},
    {"m": {"k": "12:30:00", "l": "12:30:00Z", "n": "12:30:00.5+02:00"}},
    {"m": {"k": "P1D", "l": "PT2H"}},
    {"m": {"k": "2024-05-01", "l": "2024-02-30"}},
    {"m": {"x": 1, "ab": "2024-05-01T12:30:00Z"}},
    {"m": None},
    {"m": ["12:30:00", "12:30:00Z"]},
    {"a": "x", "m": {"k": {"wrong": True}}},
]
"""Values for the schemas above: each container's texts are then changed (``_variants``)."""


def test_date_text_containers_issues_are_f26a9ccs() -> None:
    before.require(BEFORE)
    entries = _entries()
    old = judged_alike(BEFORE, entries)
    refused = sum(1 for name, _, _ in entries for was in old[name] if not was[0])
    assert refused > 2000
    corpus = [name for name, _, _ in entries if name.startswith("tool_")]
    assert len(corpus) >= 10
