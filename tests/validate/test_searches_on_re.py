"""``_check._searches_on_re`` reads a schema's patterns from its JSON text: the same answer
as the walk of its values (``_walked_on_re``) on every corpus schema, an OpenAPI document's
and schemas written to look like patterns where none is, or to hide one (a tuple aside: the
text reads it, the walk does not)."""

from __future__ import annotations

from typing import Any

import pytest
from benchmarks import corpus
from benchmarks.memory import document

from llmapp import application
from llmapp.http import application as http_application
from llmapp.validate._check import _searches_on_re, _walked_on_re

WRITTEN: list[Any] = [
    {"properties": {"pattern": {"type": "string"}}},
    {"pattern": "a(b"},
    {"pattern": 3},
    {"pattern": None},
    {"x": ["pattern", {"pattern": "(a+)+$"}]},
    {"patternProperties": {"^a": {}}},
    {"patternProperties": {"(a|aa)*c": {}}},
    {"patternProperties": 3},
    {"description": 'say "pattern": "(a|aa)*c"'},
    {"enum": ['"pattern": ', '\\"pattern\\": "(?<=a)"']},
    {"pattern": "\\d+"},
    {"pattern": "(a|aa)*c"},
    {"items": [{"pattern": "^[a-z]+$"}, {"pattern": "(a|aa)*c"}]},
    {"pattern": "é+"},
    {1: {"pattern": "(a|aa)*c"}},
    {"a": {"pattern": float("nan")}},
    True,
    {},
]


def _schemas() -> list[Any]:
    built = corpus.generate()
    tools = [function.parameters for function in application(built.tools).functions]
    operations = http_application(document(operations=20)).functions
    return tools + [function.parameters for function in operations] + WRITTEN


@pytest.mark.parametrize("schema", _schemas())
def test_the_text_answers_as_the_walk(schema: Any) -> None:
    assert _searches_on_re(schema) is _walked_on_re(schema)


def test_a_pattern_in_a_tuple_is_read_by_the_text_alone() -> None:
    """The walk reads lists, not tuples; the text reads both, so a pattern off ``re`` held
    in a tuple keeps the keys read at once (the answer that is always safe)."""
    schema = {"a": ({"pattern": "(a|aa)*c"},)}
    assert _walked_on_re(schema) is True
    assert _searches_on_re(schema) is False
