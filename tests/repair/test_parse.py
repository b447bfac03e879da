"""parse: valid JSON untouched, each repair of model output, bounds, and never raising."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.budget import scaled

from llmapp._sentinels import MISSING
from llmapp.repair import MAX_LENGTH, Parsed, parse, read_strict, read_text

FENCE = "```"

# (id, text, expected data, expected repairs in order)
REPAIRS: list[tuple[str, str, Any, tuple[str, ...]]] = [
    (
        "fence with language",
        f'{FENCE}json\n{{"a": 1}}\n{FENCE}',
        {"a": 1},
        ("removed a Markdown code fence",),
    ),
    (
        "fence without language",
        f"{FENCE}\n[1, 2]\n{FENCE}",
        [1, 2],
        ("removed a Markdown code fence",),
    ),
    (
        "fence on one line",
        f'{FENCE}{{"a": 1}}{FENCE}',
        {"a": 1},
        ("removed a Markdown code fence",),
    ),
    (
        "fence with prose around",
        f'Here you are:\n{FENCE}json\n{{"a": 1}}\n{FENCE}\nAnything else?',
        {"a": 1},
        (
            "removed a Markdown code fence",
            "skipped text before the JSON",
            "ignored text after the JSON",
        ),
    ),
    (
        "fence around a value holding backticks",
        f'{FENCE}json\n{{"a": "{FENCE}",}}\n{FENCE}',
        {"a": FENCE},
        ("removed a Markdown code fence", "removed a trailing comma"),
    ),
    (
        "one-line fence around a value holding backticks",
        f'{FENCE}{{"a": "{FENCE}",}}{FENCE}',
        {"a": FENCE},
        ("removed a Markdown code fence", "removed a trailing comma"),
    ),
    ("string holding brackets", "'a [b] {c}'", "a [b] {c}", ("read a single-quoted string",)),
    (
        "string then prose with brackets",
        "'x' then {\"a\": 1}",
        {"a": 1},
        ("skipped text before the JSON",),
    ),
    (
        "unclosed fence",
        f'{FENCE}json\n{{"a": 1}}',
        {"a": 1},
        ("removed a Markdown code fence",),
    ),
    ("text before", 'Sure! The arguments: {"a": 1}', {"a": 1}, ("skipped text before the JSON",)),
    ("text after", '{"a": 1} Hope this helps.', {"a": 1}, ("ignored text after the JSON",)),
    ("two values", '{"a": 1}\n{"b": 2}', {"a": 1}, ("ignored text after the JSON",)),
    ("number then prose", '1. call it with {"a": 1}', {"a": 1}, ("skipped text before the JSON",)),
    (
        "string holding a bracket then the JSON",
        '"{" then {"a": 1}',
        {"a": 1},
        ("skipped text before the JSON",),
    ),
    ("trailing comma in object", '{"a": 1,}', {"a": 1}, ("removed a trailing comma",)),
    ("trailing comma in array", "[1, 2, ]", [1, 2], ("removed a trailing comma",)),
    (
        "trailing commas nested",
        '{"a": [1,], "b": {"c": 2,},}',
        {"a": [1], "b": {"c": 2}},
        ("removed 3 trailing commas",),
    ),
    ("doubled comma", "[1,, 2]", [1, 2], ("removed an extra comma",)),
    ("leading comma", "[, 1]", [1], ("removed an extra comma",)),
    ("missing commas", '{"a": 1 "b": 2}', {"a": 1, "b": 2}, ("inserted a missing comma",)),
    ("missing commas in array", "[1 2 3]", [1, 2, 3], ("inserted 2 missing commas",)),
    ("missing colon", '{"a" 1}', {"a": 1}, ("inserted a missing colon",)),
    ("unclosed object", '{"a": 1', {"a": 1}, ("closed an unclosed bracket",)),
    ("unclosed nested", '{"a": [1, {"b": 2', {"a": [1, {"b": 2}]}, ("closed 3 unclosed brackets",)),
    (
        "unclosed string",
        '{"a": "hel',
        {"a": "hel"},
        ("closed an unterminated string", "closed an unclosed bracket"),
    ),
    ("unclosed string at root", '"hello', "hello", ("closed an unterminated string",)),
    (
        "dangling key",
        '{"a": 1, "b":',
        {"a": 1},
        ("closed an unclosed bracket", "dropped a key that had no value"),
    ),
    (
        "dangling key without colon",
        '{"a": 1, "b"',
        {"a": 1},
        ("closed an unclosed bracket", "dropped a key that had no value"),
    ),
    (
        "dangling comma at end",
        '{"a": 1,',
        {"a": 1},
        ("closed an unclosed bracket", "removed a trailing comma"),
    ),
    ("key then comma", '{"a", "b": 2}', {"b": 2}, ("dropped a key that had no value",)),
    ("mismatched closer", '{"a": [1, 2}', {"a": [1, 2]}, ("closed an unclosed bracket",)),
    ("stray closer", '{"a": 1]}', {"a": 1}, ("removed a stray closing bracket",)),
    (
        "line comment",
        '{\n  "a": 1, // the count\n  "b": 2\n}',
        {"a": 1, "b": 2},
        ("removed a comment",),
    ),
    ("block comment", '{"a": /* one */ 1}', {"a": 1}, ("removed a comment",)),
    ("unclosed block comment", '{"a": 1} /* bye', {"a": 1}, ("removed a comment",)),
    ("hash comment", '{\n  # note\n  "a": 1\n}', {"a": 1}, ("removed a comment",)),
    (
        "comments of each kind",
        '// c\n{"a": 1 /* x */, # y\n "b": 2}',
        {"a": 1, "b": 2},
        ("removed 3 comments",),
    ),
    ("single quotes", "{'a': 'b'}", {"a": "b"}, ("read 2 single-quoted strings",)),
    (
        "single quote with escape",
        r"{'a': 'it\'s'}",
        {"a": "it's"},
        ("read 2 single-quoted strings",),
    ),
    (
        "double quote inside single",
        "{'a': 'say \"hi\"'}",
        {"a": 'say "hi"'},
        ("read 2 single-quoted strings",),
    ),
    (
        "unquoted keys",
        "{a: 1, b_2: 2, $c: 3}",
        {"a": 1, "b_2": 2, "$c": 3},
        ("quoted 3 unquoted keys",),
    ),
    (
        "unquoted key with dash",
        "{content-type: 'x'}",
        {"content-type": "x"},
        ("quoted an unquoted key", "read a single-quoted string"),
    ),
    ("numeric key", '{1: "a"}', {"1": "a"}, ("quoted an unquoted key",)),
    (
        "python literals",
        '{"a": True, "b": False, "c": None}',
        {"a": True, "b": False, "c": None},
        ("read 3 Python literals (True/False/None)",),
    ),
    ("python literal at root", "None", None, ("read a Python literal (True/False/None)",)),
    ("undefined", '{"a": undefined}', {"a": None}, ("read undefined as null",)),
    (
        "nan and infinity",
        '{"a": NaN, "b": Infinity, "c": -Infinity}',
        {"a": None, "b": None, "c": None},
        ("read 3 NaN/Infinity values as null",),
    ),
    ("huge float", "[1e999]", [None], ("read NaN/Infinity as null",)),
    (
        "truncated true",
        '{"a": tru',
        {"a": True},
        ("completed a truncated true/false/null", "closed an unclosed bracket"),
    ),
    (
        "truncated null",
        "[1, nu",
        [1, None],
        ("completed a truncated true/false/null", "closed an unclosed bracket"),
    ),
    ("truncated false at root", "fal", False, ("completed a truncated true/false/null",)),
    (
        "bare words",
        '{"status": in progress, "size": 12px}',
        {"status": "in progress", "size": "12px"},
        ("quoted 2 bare words",),
    ),
    ("bare word in array", "[red, green]", ["red", "green"], ("quoted 2 bare words",)),
    ("lenient numbers", "[+1, .5, 5., 007]", [1, 0.5, 5.0, 7], ("read 4 non-standard numbers",)),
    (
        "truncated exponent",
        "[1e",
        [1],
        ("read a non-standard number", "closed an unclosed bracket"),
    ),
    (
        "invalid escape kept",
        r'{"re": "\d+"}',
        {"re": "\\d+"},
        ("kept an invalid escape as written",),
    ),
    (
        "raw newline in string",
        '{"a": "x\ny"}',
        {"a": "x\ny"},
        ("kept a raw control character inside a string",),
    ),
    (
        "surrogate pair escape with repair",
        '{"a": "\\ud83d\\ude00",}',
        {"a": "😀"},
        ("removed a trailing comma",),
    ),
    ("lone surrogate escape", '["\\ud83d" ', ["\ud83d"], ("closed an unclosed bracket",)),
    ("garbage characters skipped", '{"a": @1}', {"a": 1}, ("skipped an unexpected character",)),
    (
        "stray colon",
        "[1: 2]",
        [1, 2],
        ("skipped an unexpected character", "inserted a missing comma"),
    ),
    (
        "nested combination",
        "Here:\n```json\n{\n  name: 'Widget', // product\n  price: '3',\n  tags: ['a', 'b',],\n  stock: None,\n  dims: {w: 1 h: 2",
        {
            "name": "Widget",
            "price": "3",
            "tags": ["a", "b"],
            "stock": None,
            "dims": {"w": 1, "h": 2},
        },
        (
            "removed a Markdown code fence",
            "skipped text before the JSON",
            "quoted 7 unquoted keys",
            "read 4 single-quoted strings",
            "removed a comment",
            "removed a trailing comma",
            "read a Python literal (True/False/None)",
            "inserted a missing comma",
            "closed 2 unclosed brackets",
        ),
    ),
]


# The cases whose repair drops or invents part of the text (``unread`` says where): the
# call step refuses them. Cut-off texts are refused as ``truncated``; the rest read whole.
LOSSY = {
    "string then prose with brackets": "a value before the JSON, at character 1: \"'x' then \"",
    "text after": 'text after the value, from character 10: "Hope this helps."',
    "two values": 'text after the value, from character 10: "{\\"b\\": 2}"',
    "number then prose": 'a value before the JSON, at character 1: "1. call it with "',
    "string holding a bracket then the JSON": (
        'a value before the JSON, at character 1: "\\"{\\" then "'
    ),
    "doubled comma": "a comma with no item before it at $input[1], character 4",
    "leading comma": "a comma with no item before it at $input[0], character 2",
    "missing commas in array": "two items with no comma between them at $input, character 4",
    "key then comma": 'the key "a" has no value, at $input.a, character 5',
    "mismatched closer": (
        "a '}' closes an array at $input.a, which only a ']' closes, at character 12"
    ),
    "stray closer": "a ']' that closes nothing at $input, character 8",
    "undefined": "undefined at $input.a, character 7: JSON has no such value (it would be read as null)",
    "nan and infinity": (
        "NaN at $input.a, character 7: JSON has no such number (it would be read as null)"
    ),
    "huge float": "the number 1e999 is too large for a float, at $input[0], character 2",
    "lenient numbers": "the number 007 has a leading zero, at $input[3], character 14",
    "truncated exponent": "the number 1e is incomplete, at $input[0], character 2",
    "garbage characters skipped": 'a character that is not JSON, "@", at $input.a, character 7',
    "stray colon": "a ':' where none belongs at $input, character 3",
}


@pytest.mark.parametrize(("case", "text", "data", "repairs"), REPAIRS, ids=[c[0] for c in REPAIRS])
def test_each_repair(case: str, text: str, data: Any, repairs: tuple[str, ...]) -> None:
    parsed = parse(text)
    assert (parsed.data, parsed.repairs, parsed.error) == (data, repairs, None)
    assert parsed.unread == LOSSY.get(case)


def test_every_lossy_case_is_a_case() -> None:
    assert set(LOSSY) <= {case for case, *_ in REPAIRS}


@pytest.mark.parametrize(
    ("text", "truncated"),
    [
        (
            '{"ticket_id": 1, "body": "Dear customer, we will refund you the full amou',
            "a string that was never closed at $input.body, after 73 characters",
        ),
        ("not json at all {", "an object that was never closed at $input, after 17 characters"),
        ('{"a": [1, {"b": tru', "the word 'tru' at $input.a[1].b, after 19 characters"),
        ('{"a": [1, 2', "an array that was never closed at $input.a, after 11 characters"),
        ('{"a": ["x", "y', "a string that was never closed at $input.a[1], after 14 characters"),
        ('{"a": 1,', "an object that was never closed at $input, after 8 characters"),
        ('{"a"', "an object that was never closed at $input, after 4 characters"),
        ('"abc', "a string that was never closed at $input, after 4 characters"),
    ],
)
def test_text_cut_off_inside_a_value_says_where(text: str, truncated: str) -> None:
    parsed = parse(text)
    assert parsed.truncated == f"the text ends inside {truncated}"
    assert parsed.error is None


@pytest.mark.parametrize(
    "text", ['{"a": [1, 2}', "{'a': 1,}", '```json\n{"a": 1}\n```', '{"a": 1} trailing', "[1 2]"]
)
def test_repaired_but_whole_text_is_not_truncated(text: str) -> None:
    parsed = parse(text)
    assert parsed.error is None and parsed.truncated is None


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        "[]",
        "0",
        '"x"',
        "null",
        ' \n {"a": [1, 2.5, "s", true, false, null]} \n',
        '{"a": "```json"}',
    ],
)
def test_valid_json_is_read_as_is_with_no_repairs(text: str) -> None:
    assert parse(text) == Parsed(json.loads(text), ())


def test_fast_path_is_the_json_decoder(monkeypatch: pytest.MonkeyPatch) -> None:
    from llmapp.repair import _parse

    calls: list[tuple[str, int]] = []
    real = _parse._SCAN

    def spy(text: str, start: int) -> Any:
        calls.append((text, start))
        return real(text, start)

    monkeypatch.setattr(_parse, "_SCAN", spy)
    assert parse('{"a": 1}').data == {"a": 1}
    assert parse(' \n{"a": 1}\t').data == {"a": 1}
    assert calls == [('{"a": 1}', 0), (' \n{"a": 1}\t', 2)]


def test_ints_stay_ints_and_big_ints_survive() -> None:
    assert parse("[1, 1.0, 123456789012345678901234567890]").data == [
        1,
        1.0,
        123456789012345678901234567890,
    ]
    assert [type(v) for v in parse("[1, 1.0]").data] == [int, float]
    assert type(parse("[1, 2,]").data[0]) is int


def test_nan_in_otherwise_valid_json_becomes_null_and_is_unread() -> None:
    result = parse('{"a": NaN}')
    assert result.data == {"a": None}
    assert result.repairs == ("read NaN/Infinity as null",)
    assert result.unread is not None and result.unread.startswith("NaN at $input.a")


def test_more_digits_than_python_converts_become_null_and_are_unread() -> None:
    result = parse("[" + "9" * 5000 + "]")
    assert result.success and result.data == [None]
    assert result.repairs == ("read a number too long to convert as null",)
    assert result.unread == (
        "a number of 5,000 digits, more than can be read, at $input[0], character 2"
    )


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("", "no JSON value found in the text"),
        ("   \n\t", "no JSON value found in the text"),
        ("hello world", "no JSON value found in the text"),
        ("// only a comment", "no JSON value found in the text"),
        ("@@@", "no JSON value found in the text"),
    ],
)
def test_nothing_to_read_is_an_error_not_an_exception(text: str, error: str) -> None:
    result = parse(text)
    assert result.data is None and result.error == error and not result.success


def test_bytes_are_utf8_and_bad_bytes_are_replaced() -> None:
    assert parse('{"a": "é"}'.encode()) == Parsed({"a": "é"}, ())
    assert parse(b'\xef\xbb\xbf{"a": 1}') == Parsed({"a": 1}, ("removed a byte-order mark",))
    assert parse(b'{"a": "\xff"}') == Parsed(
        {"a": "\ufffd"},
        ("replaced invalid UTF-8 bytes",),
        unread="bytes that are not UTF-8 from byte 8 (each read as \ufffd)",
    )


def test_not_text_is_an_error() -> None:
    result = parse(42)  # type: ignore[arg-type]
    assert result == Parsed(None, (), "expected str or bytes, got int")


def test_depth_is_bounded_on_both_paths() -> None:
    assert parse("[" * 3 + "]" * 3, max_depth=3).data == [[[]]]
    assert parse("[" * 4 + "]" * 4, max_depth=3).error == "nesting deeper than 3 levels"
    assert parse("[" * 4, max_depth=3).error == "nesting deeper than 3 levels"
    deep_valid = "[" * 600 + "]" * 600
    assert parse(deep_valid).error == "nesting deeper than 512 levels"
    assert parse(deep_valid, max_depth=600).success
    very_deep = "[" * 100_000
    assert parse(very_deep).error == "nesting deeper than 512 levels"
    deepest = "[" * 40_000 + "]" * 40_000  # under the default length bound
    assert parse(deepest).error == "nesting deeper than 512 levels"


def test_length_is_bounded() -> None:
    assert (
        parse("[1, 2]", max_length=5).error == "the text has 6 characters, more than the 5 accepted"
    )
    assert (
        parse(b"[1, 2]", max_length=5).error
        == "the text has 6 characters, more than the 5 accepted"
    )
    assert parse("[1, 2]", max_length=6).data == [1, 2]


def test_the_default_length_bounds_the_cost_of_any_text() -> None:
    # The tolerant reader costs about 1 µs a character: 10 MB used to be read (~9 s of CPU).
    assert MAX_LENGTH == 100_000
    assert parse("{" + "a," * 5_000_000).error == (
        "the text has 10,000,001 characters, more than the 100,000 accepted"
    )
    assert parse("[" + "1," * 40_000 + "]").success


def test_repairs_are_counted_per_kind_in_order_of_first_use() -> None:
    result = parse("{a: 1, b: 2, c: [1,],}")
    assert result.repairs == ("quoted 3 unquoted keys", "removed 2 trailing commas")


def test_duplicate_keys_keep_the_last_like_json_loads_and_are_unread() -> None:
    # data shows what JSON reads; unread says the first value was not: the call step refuses
    for text in ("{'a': 1, 'a': 2}", '{"a": 1, "a": 2}', '{"a": 1, "a": 2}  '):
        result = parse(text)
        assert result.data == {"a": 2}, text
        assert result.repairs[-1] == "kept the last value of a key written twice", text
        assert result.unread == (
            'the key "a" written a second time, at $input.a, character 10 '
            "(JSON keeps only the last value)"
        ), text
    assert parse('{"a": {"b": 1}, "c": {"b": 2}, "d": [{"b": 3}]}').unread is None
    assert parse('{"a": 1, "a": 2, "a": 3}').repairs == (
        "kept the last value of 2 keys written twice",
    )
    # the character is counted in the model's whole text, a fence and prose included
    fenced = parse('Sure:\n```json\n{"a": 1,\n "a": 2}\n```')
    assert fenced.unread is not None and "character 25 " in fenced.unread


# --- properties ------------------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(), children, max_size=5)
    ),
    max_leaves=30,
)


@pytest.mark.budgeted
@settings(max_examples=scaled(100, 300), deadline=None)
@given(json_values, st.sampled_from([None, 2]))
def test_round_trip_of_any_json(value: Any, indent: int | None) -> None:
    result = parse(json.dumps(value, indent=indent, ensure_ascii=False))
    assert result == Parsed(value, ())


@pytest.mark.budgeted
@settings(max_examples=scaled(100, 300), deadline=None)
@given(json_values)
def test_trailing_commas_and_fences_do_not_change_the_value(value: Any) -> None:
    text = json.dumps(value, indent=1).replace("\n]", ",\n]").replace("\n}", ",\n}")
    result = parse(f"{FENCE}json\n{text}\n{FENCE}")
    assert result.success
    assert result.data == value


model_like = st.text(
    alphabet=st.sampled_from(list("{}[]:,'\"\\/#*-+.0123456789eEtrufalsnNTF ux\n\t`")), max_size=80
)


@pytest.mark.budgeted
@settings(max_examples=scaled(300, 1000), deadline=None)
@given(st.one_of(st.text(max_size=80), model_like, st.binary(max_size=60)))
def test_never_raises_and_never_fails_internally(text: str | bytes) -> None:
    result = parse(text)
    assert isinstance(result, Parsed)
    assert result.error is None or not result.error.startswith("internal error"), result.error
    if result.success:
        json.dumps(result.data)  # what it reads is plain JSON data
    else:
        assert result.data is None


@pytest.mark.budgeted
@settings(max_examples=scaled(100, 300), deadline=None)
@given(json_values, st.integers(min_value=0, max_value=200))
def test_truncated_json_still_reads(value: Any, cut: int) -> None:
    text = json.dumps(value)
    result = parse(text[: max(1, len(text) - cut)])
    assert result.error is None or result.error == "no JSON value found in the text"


@pytest.mark.parametrize(
    "text",
    [
        '{"a": 1}',
        ' \n{"a": [1, 2.5, "x", null, true]}\t ',
        '{"a": 1, "a": 2}',
        '{"o": {"k": 1, "k": 2}}',
        '{"a": 1,}',
        '{"a": 1} {"b": 2}',
        '{"a": 1} x',
        "\ufeff{}",
        '{"a": NaN}',
        '{"a": 1e999}',
        '{"a": "\\ud800"}',
        "```json\n{}\n```",
        "",
        "   ",
        '{"a": ' + "[" * 600 + "]" * 600 + "}",
        '{"a": "' + "x" * 50 + '"}',
        '[{"a": 1}]',
        "7",
    ],
)
def test_read_strict_is_read_text_when_it_notes_nothing(text: str) -> None:
    data, repairs, error, truncated, unread = read_text(text, max_length=40_000)
    noted = repairs or error is not None or truncated is not None or unread is not None
    found = read_strict(text, 40_000)
    if noted:
        assert found is MISSING
    else:
        assert found is not MISSING and found == data
    assert read_strict(text, 3) is MISSING or len(text) <= 3
