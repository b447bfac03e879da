"""Pieces of any length over scalar members of every kind, escapes, surrogate pairs,
numbers and blanks: whatever the split, each piece reports what reading the text
character by character reports by the same character, and ``partial`` is the same; where
a container ends is said by its brackets (``_may_end``)."""

from __future__ import annotations

import json
import random

from llmapp import LlmFunction
from llmapp.streaming import ArgumentStream, stream

SCHEMA = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "size": {"type": "integer", "minimum": 0},
        "kind": {"type": "string", "enum": ["dir", "file"]},
        "ratio": {"type": "number", "maximum": 10},
        "ok": {"type": "boolean"},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "free": {},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}, "maxItems": 4},
        "nums": {"type": "array", "items": {"type": "number"}},
        "any": {"type": "array"},
        "loose": {"type": "object"},
        "child": {"$ref": "#/$defs/Child"},
    },
    "required": ["name", "size"],
    "additionalProperties": False,
    "$defs": {
        "Child": {
            "type": "object",
            "properties": {"a": {"type": "integer"}, "b": {"type": "string", "minLength": 2}},
            "additionalProperties": False,
        }
    },
}
FUNCTION = LlmFunction("f", None, SCHEMA)

GOOD = (
    '{"name": "n\\ud83d\\ude00x", "size": 0, "kind": "dir", "ratio": -1.5e-3, "ok": false, '
    '"note": null, "free": [], "tags": ["a", "b\\u00e9", "c\\"", ""], "nums": [1, -0, 2.0, '
    '1E5, 0.25, 12345678901234567890], "any": [null, true, "x", [], 3], "loose": {"k": 1, '
    '"j": 2}, "child": {"a": 1, "b": "xy"}}'
)
WRONG = [
    # a value refused among scalar members, and one after it
    GOOD.replace('"kind": "dir"', '"kind": "link"').replace('"ok": false', '"ok": 3'),
    # a key the object refuses among scalar members, and a key written twice
    GOOD.replace('"ratio"', '"extra": 1, "ratio"').replace('"free": []', '"free": [], "size": 2'),
    # what the call step repairs is not definite: a number as text, a null for an optional key
    GOOD.replace('"size": 0', '"size": "3"').replace('"ratio": -1.5e-3', '"ratio": null'),
    # too many items and a string too long among the items; a null item
    GOOD.replace('""]', '"", "e", "toolong"]').replace("[1, -0", "[1, null, -0"),
    # a lone surrogate, a number that is a whole float where an integer goes, in a child
    GOOD.replace('"b": "xy"', '"b": "\\ud800", "a": 2.0').replace('"a": 1, ', ""),
    # blanks everywhere
    GOOD.replace(", ", " ,\n  ").replace(": ", " :\t"),
]


def reported(text: str, cuts: list[int]) -> tuple[dict[tuple[str, str], int], ArgumentStream]:
    """Each mistake with the last character of the piece that reported it."""
    arguments = stream(FUNCTION)
    seen: dict[tuple[str, str], int] = {}
    for start, stop in zip([0, *cuts], [*cuts, len(text)]):
        for issue in arguments.feed(text[start:stop]):
            seen.setdefault((issue.path, issue.expected), stop - 1)
    assert arguments.stopped is None, arguments.stopped
    return seen, arguments


def test_pieces_of_any_length_report_where_the_character_by_character_reader_does() -> None:
    # Every cut in two (inside escapes, surrogate pairs, numbers, keys and blanks), pieces
    # of 16 from every offset, and a few longer ones.
    for text in [GOOD, *WRONG, json.dumps(json.loads(GOOD), indent=1)]:
        by_character, alone = reported(text, list(range(1, len(text))))
        splits = [[], *([cut] for cut in range(1, len(text))), [40, 200], [33, 66, 99, 132]]
        splits += [list(range(offset, len(text), 16)) for offset in range(1, 17)]
        for cuts in splits:
            at, arguments = reported(text, cuts)
            assert set(at) == set(by_character), (text, cuts)
            for mistake, character in by_character.items():
                ends = [cut - 1 for cut in cuts if cut > character] + [len(text) - 1]
                assert at[mistake] == min(ends), (text, cuts, mistake)
            assert arguments.partial == alone.partial, (text, cuts)
    assert not reported(GOOD, [])[0]
    assert reported(GOOD, [])[1].partial == json.loads(GOOD)


def walked(text: str, position: int, char: str) -> bool:
    """Whether the container opened at ``position`` ends in ``text``, by its brackets
    (strings not told apart), one character after the other."""
    closer = "}" if char == "{" else "]"
    depth = 0
    for found in text[position:]:
        depth += (found == char) - (found == closer)
        if depth == 0:
            return True
    return False


def test_where_a_container_ends_is_said_by_its_brackets() -> None:
    # ``_may_end`` walks the closers of the piece (and stops past the reader's depth: far
    # past these texts).
    from llmapp.streaming._arguments import _may_end

    rng = random.Random(2)
    said = 0
    for _ in range(20_000):
        text = "".join(rng.choice('{}[]a"') for _ in range(rng.randint(1, 24)))
        for position, char in enumerate(text):
            if char in "{[":
                assert _may_end(text, position, char) == walked(text, position, char), text
                said += 1
    assert said > 50_000
    deep = "[" * 40 + "]" * 40
    assert _may_end(deep, 0, "[") and not _may_end(deep[:-1], 0, "[")
