"""JSON pointers: tokens, escaping, lookup."""

from __future__ import annotations

import pytest

from llmapp.jsonschema import (
    MISSING,
    escape_token,
    normal_fragment,
    pointer_from,
    pointer_tokens,
    resolve_pointer,
    unescape_token,
)

DOCUMENT = {"$defs": {"a/b": {"type": "string"}, "m~n": [10, 20], "é x": 1}, "": 0}


def test_tokens_round_trip_through_escaping() -> None:
    for token in ["a/b", "m~n", "~1", "/~", "plain"]:
        assert unescape_token(escape_token(token)) == token
    assert pointer_tokens("/$defs/a~1b") == ["$defs", "a/b"]
    assert pointer_from(["$defs", "a/b", 0]) == "/$defs/a~1b/0"
    assert pointer_tokens("") == []


def test_fragment_pointers_are_percent_decoded() -> None:
    assert pointer_tokens("#/$defs/%C3%A9%20x", fragment=True) == ["$defs", "é x"]
    assert resolve_pointer(DOCUMENT, "#/$defs/%C3%A9%20x", fragment=True) == 1


@pytest.mark.parametrize(
    ("pointer", "expected"),
    [
        ("/$defs/a~1b/type", "string"),
        ("/$defs/m~0n/1", 20),
        ("/", 0),
        ("", DOCUMENT),
        ("/$defs/m~0n/2", MISSING),
        ("/$defs/m~0n/01", MISSING),
        ("/$defs/nothing", MISSING),
        ("no-slash", MISSING),
    ],
)
def test_resolve_pointer(pointer: str, expected: object) -> None:
    assert resolve_pointer(DOCUMENT, pointer) == expected or (
        expected is MISSING and resolve_pointer(DOCUMENT, pointer) is MISSING
    )


def test_a_pointer_must_start_with_a_slash() -> None:
    with pytest.raises(ValueError):
        pointer_tokens("a/b")


@pytest.mark.parametrize(
    ("spellings", "normal"),
    [
        (["/Pet", "#/Pet", "/%50et", "/%50%65%74", "#/P%65t"], "/Pet"),
        (["/a~1b", "/a%7E1b", "/a%7e1b"], "/a~1b"),
        (["/a~0b", "/a%7E0b"], "/a~0b"),
        (["/a%2Fb", "/a/b"], "/a/b"),
        (["Anchor", "%41nchor"], "Anchor"),
        (["", "#"], ""),
    ],
)
def test_every_spelling_of_a_fragment_has_one_normal_form(
    spellings: list[str], normal: str
) -> None:
    assert {normal_fragment(spelled) for spelled in spellings} == {normal}
    document = {"Pet": 1, "a/b": 2, "a~b": 3, "a": {"b": 4}}
    for spelled in spellings:
        assert resolve_pointer(document, spelled, fragment=True) == resolve_pointer(
            document, normal_fragment(spelled)
        ) or not normal.startswith("/")
