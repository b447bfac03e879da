"""What ``ArgumentStream.feed`` calls definite, when, and what it leaves to ``finish``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from annotated_types import Ge, MaxLen

import llmapp
import llmapp.http
import llmapp.mcp
from llmapp import UNDEFINED, CallResult, application, llm_application, validates
from llmapp.streaming import ArgumentStream, stream


@dataclass
class Item:
    sku: str
    quantity: Annotated[int, Ge(1)]


@llm_application
class Shop:
    def order(
        self,
        customer: str,
        status: Literal["sent", "held"],
        items: Annotated[list[Item], MaxLen(2)],
        note: str | None = None,
        count: int = 1,
    ) -> str:
        """Place an order."""
        return f"{customer}:{status}:{len(items)}"


APP = application(Shop)
ORDER = APP.function("order")


def fed(arguments: ArgumentStream, *pieces: str) -> list[list[tuple[str, str]]]:
    return [[(i.path, i.expected) for i in arguments.feed(piece)] for piece in pieces]


def test_a_wrong_type_is_definite_at_its_first_character() -> None:
    arguments = stream(ORDER)
    assert fed(arguments, '{"customer": "ann", "items": ', "{", '"sku"') == [
        [],
        [("$input.items", "Array<Item> & MaxItems<2>")],
        [],
    ]
    assert arguments.issues[0].value is UNDEFINED  # seen before the value was complete


def test_what_the_call_step_repairs_is_not_a_mistake() -> None:
    items = json.dumps(json.dumps([{"sku": "a", "quantity": "2"}]))
    text = f'{{"customer": "ann", "status": "sent", "items": {items}, "count": "3", "note": null}}'
    arguments = stream(ORDER)
    assert [arguments.feed(char) for char in text] == [[]] * len(text)
    answer = arguments.finish()
    assert not isinstance(answer, CallResult)
    assert answer.data["items"] == [{"sku": "a", "quantity": 2}] and answer.data["count"] == 3


def test_a_closed_string_outside_its_enum() -> None:
    arguments = stream(ORDER)
    assert fed(arguments, '{"status": "shi', 'pped"', ",") == [
        [],
        [("$input.status", '("sent" | "held")')],
        [],
    ]


def test_an_unknown_key_once_its_name_is_closed() -> None:
    arguments = stream(ORDER)
    assert fed(arguments, '{"colour', '": ') == [[], [("$input.colour", "undefined")]]


def test_a_required_key_is_missing_only_when_its_object_closes() -> None:
    arguments = stream(ORDER)
    assert fed(arguments, '{"items": [{"sku": "a"', "}", "]") == [
        [],
        [("$input.items[0].quantity", "integer & Minimum<1>")],
        [],
    ]
    assert fed(arguments, ', "customer": "b", "status": "sent"', "}") == [[], []]


def test_too_many_items_once_the_one_too_many_starts() -> None:
    arguments = stream(ORDER)
    item = '{"sku": "a", "quantity": 1}'
    assert fed(arguments, f'{{"items": [{item}, {item}, ', "{") == [
        [],
        [("$input.items", "Array<Item> & MaxItems<2>")],
    ]


def test_partial_holds_complete_values_only() -> None:
    arguments = stream(ORDER)
    arguments.feed('{"customer": "an')
    assert arguments.partial == {}
    arguments.feed('n", "items": [{"sku": "x", "quantity": 1')
    assert arguments.partial == {"customer": "ann", "items": [{"sku": "x"}]}
    arguments.feed("0}]")
    assert arguments.partial == {"customer": "ann", "items": [{"sku": "x", "quantity": 10}]}
    assert not arguments.complete


def test_a_key_written_twice_is_refused() -> None:
    text = '{"customer": "ann", "status": "lost", "items": [], "status": "sent"}'
    arguments = stream(ORDER)
    reported = [(i.path, i.expected) for i in arguments.feed(text)]
    assert reported == [("$input.status", '("sent" | "held")'), ("$input.status", "undefined")]
    answer = arguments.finish()
    assert isinstance(answer, CallResult) and not answer.success
    assert answer.feedback is not None
    assert 'the key "status" written a second time, at $input.status, character 52' in (
        answer.feedback
    )
    executed = APP.execute(Shop(), "order", text)  # the call step refuses it: nothing runs
    assert not executed.success and executed.feedback == answer.feedback


def test_text_that_is_not_strict_json_stops_the_judging_finish_answers() -> None:
    for text in (
        '{"customer": "ann", // who\n "status": "sent", "items": []}',
        '{"customer": \'ann\', "status": "sent", "items": []}',
        '{"customer": "ann", "status": "sent", "items": []} and more',
        '{"customer": "ann", "status": "sent", "items": [}',
    ):
        arguments = stream(ORDER)
        arguments.feed(text)
        assert arguments.stopped is not None
        assert arguments.feed('"status": "wrong"') == []
        expected = APP.execute(Shop(), "order", arguments.text)  # the extra piece too
        answer = arguments.finish()
        if isinstance(answer, CallResult):
            assert (answer.success, answer.feedback) == (expected.success, expected.feedback)
        else:
            assert expected.success


def test_finish_is_execute_s_answer() -> None:
    wrong = '{"customer": 3, "status": "sent", "items": [{"sku": "a", "quantity": 0}]}'
    arguments = stream(ORDER)
    for char in wrong:
        arguments.feed(char)
    answer, expected = arguments.finish(), APP.execute(Shop(), "order", wrong)
    assert isinstance(answer, CallResult)
    assert answer == expected
    right = '{"customer": "a", "status": "sent", "items": []}'
    arguments = stream(ORDER)
    arguments.feed(right)
    checked = arguments.finish()
    assert not isinstance(checked, CallResult) and checked.data == json.loads(right)


def test_a_text_past_max_length_stops_and_is_refused() -> None:
    arguments = stream(ORDER, max_length=20)
    arguments.feed('{"customer": "a very long name indeed"')
    assert arguments.stopped is not None
    answer = arguments.finish()
    assert isinstance(answer, CallResult) and "more than the 20" in (answer.feedback or "")


def test_a_hook_judges_alone() -> None:
    @llm_application
    class Hooked:
        def order(self, status: Literal["sent", "held"]) -> str:
            return status

        @validates("order")
        def _check(arguments: Any) -> llmapp.Validation:
            return llmapp.ValidationSuccess(arguments)

    function = application(Hooked).function("order")
    arguments = stream(function)
    assert arguments.feed('{"status": "lost", "other": 1}') == []
    assert not isinstance(arguments.finish(), CallResult)


def test_every_door() -> None:
    body = {
        "type": "object",
        "properties": {"status": {"type": "string", "enum": ["sent", "held"]}},
        "required": ["status"],
    }
    document = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/orders": {
                "post": {
                    "requestBody": {"content": {"application/json": {"schema": body}}},
                    "responses": {"200": {"description": "ok"}},
                }
            }
        },
    }
    http = llmapp.http.application(document).functions[0]
    mcp = llmapp.mcp.application([{"name": "order", "inputSchema": body}]).functions[0]
    assert fed(stream(http), '{"body": {"status": "lost"') == [
        [("$input.body.status", '("sent" | "held")')]
    ]
    assert fed(stream(mcp), '{"status": "lost"') == [[("$input.status", '("sent" | "held")')]]


def test_strict_mcp_nulls_are_left_to_finish() -> None:
    tool = {
        "name": "order",
        "inputSchema": {
            "type": "object",
            "properties": {"n": {"type": "integer"}, "s": {"type": "string"}},
            "required": ["s"],
        },
    }
    function = llmapp.mcp.application([tool], strict=True).functions[0]
    arguments = stream(function)
    assert arguments.feed('{"s": "x", "n": null}') == []
    answer = arguments.finish()
    assert not isinstance(answer, CallResult) and answer.data == {"s": "x"}


def test_missing_names_what_a_cut_text_lacked() -> None:
    arguments = stream(ORDER)
    arguments.feed('{"customer": "ann", "items": [{"sku": "a", ')
    assert arguments.missing() == ["$input.status", "$input.items[0].quantity"]


WRONG = [
    '{"customer": "ann", "status": "shipped", "items": [{"sku": "a", "quantity": 0}], "x": 1}',
    '{"customer": "ann", "items": [{"sku": "a", "quantity": 1}, {"sku": "b"}, {"sku": "c"}]}',
    '{"customer": "ann", "status": "sent", "items": [{"sku": "a", "quantity": true, "y": 1}]}',
    '{"customer": 7, "status": "sent", "count": "x", "items": {"sku": "a"}, "note": 3}',
    '{"customer": "ann", "status": "sent", "items": [], "customer": "bob"}',
    '{"customer": "a\\u00e9", "status": "he\\nld", "items": [{"sku": "a\\\\", "quantity": 2}]}',
    '{"customer": "ann", "x": "a\\q", "status": "sent", "items": []}',
]


def reported_at(text: str, size: int) -> dict[tuple[str, str], int]:
    """Where each mistake is reported, fed in pieces of ``size``: the piece's last character."""
    arguments = stream(ORDER)
    seen: dict[tuple[str, str], int] = {}
    for start in range(0, len(text), size):
        for issue in arguments.feed(text[start : start + size]):
            seen.setdefault((issue.path, issue.expected), min(start + size, len(text)) - 1)
    return seen


def test_pieces_of_any_size_report_each_mistake_in_the_piece_that_makes_it_definite() -> None:
    # A member cut at a piece's end may be read again with the next piece: never when
    # that hides a mistake already definite (a key closed and refused, a value's first
    # character of a refused type, an item past maxItems) for one piece.
    for text in WRONG:
        by_character = reported_at(text, 1)
        assert by_character
        for size in (2, 3, 5, 8, 13, 16, 29, 64, 256):
            at = reported_at(text, size)
            assert set(at) == set(by_character), (text, size)
            for mistake, character in by_character.items():
                assert at[mistake] == min((character // size + 1) * size - 1, len(text) - 1), (
                    text,
                    size,
                    mistake,
                )


class Stock:
    def save(self, items: list[Item], note: str) -> None:
        """Save items."""


def test_plain_members_in_pieces_are_read_without_the_character_by_character_reader(
    monkeypatch: Any,
) -> None:
    # Each piece costs a few matches in C, not a Python step per token: the reader's
    # character-by-character steps are not taken for strict JSON in pieces of 16.
    from llmapp.streaming import _arguments

    steps = []
    for name in ("_structure", "_scan", "_string", "_run", "_closed"):
        original = getattr(ArgumentStream, name)

        def counted(*args: Any, _original: Any = original, _name: str = name) -> Any:
            steps.append(_name)
            return _original(*args)

        monkeypatch.setattr(_arguments.ArgumentStream, name, counted)
    items = [{"sku": f"SKU-{n:05}", "quantity": n + 1} for n in range(100)]
    text = json.dumps({"items": items, "note": "a note"}, indent=1)
    arguments = stream(application(Stock).function("save"))
    for start in range(0, len(text), 16):
        assert arguments.feed(text[start : start + 16]) == []
    assert arguments.complete and arguments.partial == {"items": items, "note": "a note"}
    assert len(steps) <= 2, steps  # the first "{" only


def test_a_state_s_pattern_reads_a_member_as_json_does_and_a_cut_one_only_at_the_end() -> None:
    # Every prefix of JSON texts, matched at every place by every state's pattern: a
    # scalar member it takes whole is the value json reads from the same text, and a
    # member it takes as cut reaches the prefix's end.
    from llmapp.streaming import _arguments

    values = [
        {"sku": "SKU-1", "n": 12, "price": 9.99, "ok": True, "tags": ["a", "b"], "e": {}},
        ["x", -1, 2.5e3, None, False, [], {"k": 'v\u00e9"q\n', 'k"\\': 1}],
        {"tru": "tru", "a": "é\u2028", "b": 1e-2, "c": "a\\b"},
    ]
    texts = [json.dumps(v, indent=indent) for v in values for indent in (None, 1)]
    patterns = [p for p in (*_arguments._OBJECT_MEMBERS, *_arguments._ARRAY_MEMBERS) if p]
    scalars = cuts = 0
    for text in texts:
        for end in range(len(text) + 1):
            piece = text[:end]
            for start in range(end):
                for pattern in patterns:
                    found = pattern.match(piece, start)
                    if found is None:
                        continue
                    kind = found.lastindex or 0
                    if _arguments._STRING_VALUE <= kind <= _arguments._WORD_VALUE:
                        scalars += 1
                        value = _arguments._READ[kind](found.group(kind))
                        written = piece[found.start(kind) - (kind < _arguments._INTEGER) :]
                        assert json.JSONDecoder().raw_decode(written)[0] == value, (piece, start)
                    elif kind < _arguments._STRING_VALUE or kind == _arguments._BEGUN_GROUP:
                        cuts += 1
                        assert found.end() == end, (piece, start)
    assert scalars > 1000 and cuts > 1000


class Nested:
    def save(self, rows: list[list[Item]], note: str) -> None:
        """Save rows of items."""


def test_closed_frames_kept_to_be_started_again_are_at_most_the_depth() -> None:
    # Memory follows the nesting depth, not the text: a closed frame is kept only to be
    # started again for the next container opened, and the value read is what was fed.
    rows = [[{"sku": f"SKU-{n:05}", "quantity": n + 1} for n in range(3)] for _ in range(150)]
    text = json.dumps({"rows": rows, "note": "n"})
    for size in (1, 7, 16, 256):
        arguments = stream(application(Nested).function("save"))
        for start in range(0, len(text), size):
            assert arguments.feed(text[start : start + size]) == []
        assert arguments.complete and arguments.partial == {"rows": rows, "note": "n"}
        assert len(arguments._spare) <= 4, size  # the arguments, rows, a row, an item
