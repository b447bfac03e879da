"""Whatever the model writes, ``feed`` and ``finish`` never raise, and a text is read a
bounded number of times (a member cut at a piece's end, at most 64 characters, again with
the next piece): nesting, length and hostile characters are bounded."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.budget import scaled

from llmapp import LlmFunction
from llmapp.kernel import CallResult
from llmapp.streaming import _arguments, stream

SCHEMA = {
    "type": "object",
    "properties": {
        "a": {"type": "array", "items": {"$ref": "#/$defs/Node"}, "maxItems": 3},
        "b": {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": "^(a+)+$"}]},
    },
    "required": ["a"],
    "additionalProperties": False,
    "$defs": {
        "Node": {
            "type": "object",
            "properties": {"n": {"$ref": "#/$defs/Node"}, "v": {"type": "number"}},
            "additionalProperties": False,
        }
    },
}
FUNCTION = LlmFunction("f", None, SCHEMA)
PIECES = st.sampled_from(
    ['{', '}', '[', ']', '"', ':', ',', '\\', '\\u', 'd83d', 'a', '1', '-', '.', 'e', ' ',
     'true', 'nul', '"a"', '"n":', '{"v": 1e999}', '\x00', '\ud800', '//', "'", 'NaN']
)  # fmt: skip


@pytest.mark.budgeted
@settings(max_examples=scaled(200, 500), deadline=None)
@given(st.lists(st.one_of(PIECES, st.text(max_size=5)), max_size=40))
def test_any_pieces(pieces: list[str]) -> None:
    arguments = stream(FUNCTION)
    for piece in pieces:
        assert isinstance(arguments.feed(piece), list)
    arguments.finish()
    arguments.feedback()
    arguments.missing()


def test_deep_nesting_stops_without_recursion() -> None:
    arguments = stream(FUNCTION)
    text = '{"a": [' + '{"n": ' * 5_000
    for start in range(0, len(text), 7):
        arguments.feed(text[start : start + 7])
    assert arguments.stopped is not None and "nesting" in arguments.stopped
    answer = arguments.finish()
    assert isinstance(answer, CallResult) and not answer.success


def test_deep_nesting_in_one_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each level of a text nested past the reader's depth was handed to the C decoder,
    # which failed there (its own recursion limit) after a walk over every closer: the
    # cost grew with the depth times the length. It is read member by member instead.
    scans: list[int] = []
    scan = _arguments._SCAN
    monkeypatch.setattr(_arguments, "_SCAN", lambda text, at: scans.append(at) or scan(text, at))
    arguments = stream(FUNCTION)
    arguments.feed('{"a": [' + '{"n": ' * 5_000 + "{}" + "}" * 5_000 + "]}")
    answer = arguments.finish()
    # Where the C decoder reads that deep (newer Pythons), the array is read whole
    # and the depth refused at the end; elsewhere the reader stops at its depth.
    assert isinstance(answer, CallResult) and not answer.success
    assert "nesting deeper than 512 levels" in answer.message()
    assert len(scans) < 10


def test_a_long_text_is_read_at_most_to_max_length() -> None:
    arguments = stream(FUNCTION, max_length=1_000)
    arguments.feed('{"a": [')
    for _ in range(500):
        arguments.feed(json.dumps({"v": 1}) + ", ")
    assert arguments.stopped is not None and "longer than" in arguments.stopped


def test_a_piece_that_is_not_text_is_the_caller_s_mistake() -> None:

    arguments = stream(FUNCTION)
    with pytest.raises(TypeError, match="bytes"):
        arguments.feed(b'{"a": []}')  # type: ignore[arg-type]
    assert arguments.text == "" and arguments.issues == []
