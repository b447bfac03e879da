"""The line between a repair and a refusal, over generated texts.

For each repair that cannot change the meaning (a fence and prose around it, prose before
the value, comments, trailing commas, single quotes, unquoted keys, ``True``/``None``, a
byte-order mark, a stringified object), the value read equals the value the model wrote.
For each reading that drops or invents part of the text (text after the value, a second
value, a value before it, a bracket closed by another kind, a stray closing bracket, a
key with no value, a hole or a missing comma in an array, ``1e``, ``NaN``, ``undefined``,
a value after a fence, a key written twice in one object, also inside a stringified
object), ``parse`` says what it did not read and ``execute`` runs nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from llmapp import application, llm_application, parse
from llmapp.jsonschema import Path

FENCE = "```"
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(), children, max_size=4)
    ),
    max_leaves=20,
)
objects = st.dictionaries(st.text(), json_values, max_size=4)
# Prose a model writes around its JSON: no bracket, no backtick, nothing that starts a value.
prose = st.text(alphabet=st.sampled_from(list("Here is the call:. Sure!\n")), max_size=30).map(
    lambda text: "Here " + text
)


def write(value: Any, *, quote: str = '"', python: bool = False, bare_keys: bool = False) -> str:
    """``value`` written as a model might: another quote, Python's literals, unquoted keys."""
    if value is None or isinstance(value, bool):
        if python:
            return repr(value)
        return json.dumps(value)
    if isinstance(value, (int, float)):
        return json.dumps(value)
    if isinstance(value, str):
        body = json.dumps(value, ensure_ascii=False)[1:-1]
        if quote == "'":
            body = body.replace('\\"', '"').replace("'", "\\'")
        return quote + body + quote
    if isinstance(value, list):
        return (
            "["
            + ", ".join(write(v, quote=quote, python=python, bare_keys=bare_keys) for v in value)
            + "]"
        )
    members = []
    for key, member in value.items():
        written_key = (
            key
            if bare_keys and _IDENTIFIER.fullmatch(key) and key not in _WORDS
            else write(key, quote=quote)
        )
        members.append(
            f"{written_key}: {write(member, quote=quote, python=python, bare_keys=bare_keys)}"
        )
    return "{" + ", ".join(members) + "}"


_WORDS = {"true", "false", "null", "True", "False", "None", "NaN", "Infinity", "undefined"}


def _commented(value: Any) -> str:
    text = json.dumps(value, indent=1, ensure_ascii=False)
    return "// the arguments\n" + text.replace(",\n", ", /* next */\n") + "\n# done"


def _trailing_commas(value: Any) -> str:
    return json.dumps(value, indent=1).replace("\n]", ",\n]").replace("\n}", ",\n}")


REPAIRS: dict[str, Callable[[Any, str], str]] = {
    "a code fence with prose around it": lambda v, p: (
        f"{p}\n{FENCE}json\n{json.dumps(v)}\n{FENCE}\n{p}"
    ),
    "prose before the value": lambda v, p: f"{p} {json.dumps(v)}",
    "comments": lambda v, p: _commented(v),
    "trailing commas": lambda v, p: _trailing_commas(v),
    "single quotes": lambda v, p: write(v, quote="'"),
    "Python's True, False and None": lambda v, p: write(v, python=True),
    "unquoted keys": lambda v, p: write(v, bare_keys=True),
    "a byte-order mark": lambda v, p: "\ufeff" + json.dumps(v),
    "everything at once": lambda v, p: (
        f"{p}\n{FENCE}\n{write(v, quote=chr(39), python=True)}\n{FENCE}"
    ),
}


@settings(max_examples=60, deadline=None)
@given(objects, prose, st.sampled_from(sorted(REPAIRS)))
def test_a_repair_reads_exactly_the_value_the_model_wrote(
    value: dict[str, Any], words: str, kind: str
) -> None:
    parsed = parse(REPAIRS[kind](value, words))
    assert parsed.error is None and parsed.truncated is None
    assert parsed.unread is None, (kind, parsed.unread)
    assert parsed.data == value


# --- refusals --------------------------------------------------------------------------


def _after(value: dict[str, Any], other: Any) -> str:
    return json.dumps(value) + "\n" + json.dumps(other)


def _mismatched(value: dict[str, Any], items: list[Any]) -> str:
    # {"list": [...}, "rest": ...}: the '}' closes the array and the object, "rest" is lost
    head = json.dumps({"list": items})[:-2]  # without "]}"
    return head + "}, " + json.dumps(value)[1:]


def _stray(value: dict[str, Any], items: list[Any]) -> str:
    return '{"list": ' + json.dumps(items) + "]" + ", " + json.dumps(value)[1:]


def _no_value(value: dict[str, Any], items: list[Any]) -> str:
    return '{"dry_run": , ' + json.dumps(value)[1:]


def _hole(value: dict[str, Any], items: list[Any]) -> str:
    return '{"list": [1,, 2], ' + json.dumps(value)[1:]


def _two_items(value: dict[str, Any], items: list[Any]) -> str:
    return '{"list": ["a" "b"], ' + json.dumps(value)[1:]


def _incomplete_number(value: dict[str, Any], items: list[Any]) -> str:
    return '{"n": 1e, ' + json.dumps(value)[1:]


def _not_a_number(value: dict[str, Any], items: list[Any]) -> str:
    return '{"n": NaN, ' + json.dumps(value)[1:]


def _undefined(value: dict[str, Any], items: list[Any]) -> str:
    return '{"n": undefined, ' + json.dumps(value)[1:]


def _value_before(value: dict[str, Any], items: list[Any]) -> str:
    return json.dumps(items[0] if items else "x") + " then " + json.dumps(value)


def _after_fence(value: dict[str, Any], items: list[Any]) -> str:
    return f"{FENCE}json\n{json.dumps(value)}\n{FENCE}\nor rather {json.dumps(items)}"


def _twice(value: dict[str, Any], items: list[Any]) -> str:
    return '{"n": 1, ' + json.dumps(value)[1:-1] + ', "n": ' + json.dumps(items[0]) + "}"


REFUSALS: dict[str, Callable[[dict[str, Any], list[Any]], str]] = {
    "a key written twice": _twice,
    "a second value after the value": lambda v, items: _after(v, items),
    "prose after the value": lambda v, items: json.dumps(v) + " Hope this helps.",
    "a bracket closed by another kind": _mismatched,
    "a closing bracket that closes nothing": _stray,
    "a key with no value": _no_value,
    "a hole in an array": _hole,
    "two items with no comma between them": _two_items,
    "a number completed from 1e": _incomplete_number,
    "NaN": _not_a_number,
    "undefined": _undefined,
    "a value before the value": _value_before,
    "a value after a code fence": _after_fence,
}

ran: list[Any] = []


@llm_application
class Open:
    def take(self, value: Any = None) -> str:
        """Take one value."""
        ran.append(value)
        return "ran"


@settings(max_examples=60, deadline=None)
@given(objects, st.lists(scalars, min_size=1, max_size=3), st.sampled_from(sorted(REFUSALS)))
# '"{" then {"value": {}}': the bracket in the value before is that value's, not the JSON's
@example({}, ["{"], "a value before the value")
def test_a_reading_that_drops_or_invents_runs_nothing(
    value: dict[str, Any], items: list[Any], kind: str
) -> None:
    text = REFUSALS[kind]({"value": value}, items)
    parsed = parse(text)
    assert parsed.error is None
    assert parsed.unread is not None, (kind, text, parsed)
    ran.clear()
    result = application(Open).execute(Open(), "take", text)
    assert not result.success and ran == []
    assert result.message().startswith("Your arguments could be read only in part"), kind
    assert f"Where: {parsed.unread[:200]}" in result.message()


def test_a_stringified_object_is_read_whole_or_not_at_all() -> None:
    @llm_application
    class Shop:
        def order(self, address: dict[str, str]) -> dict[str, str]:
            """Order."""
            return address

    app = application(Shop)
    whole = json.dumps({"address": json.dumps({"street": "Main 1", "zip": "12345"})})
    assert app.execute(Shop(), "order", whole).value == {"street": "Main 1", "zip": "12345"}
    # a stringified object with text after it is not read in part: the string stays a string
    partial = json.dumps({"address": '{"street": "Main 1"} {"zip": "1"}'})
    result = app.execute(Shop(), "order", partial)
    assert not result.success and result.validation is not None
    assert [issue.path for issue in result.validation.errors] == ["$input.address"]


def test_prose_before_the_value_is_a_repair_and_a_value_before_it_a_refusal() -> None:
    for prose in ("Sure! The arguments: ", "- The call: ", ". ", "Here you are:\n"):
        parsed = parse(prose + '{"a": 1}')
        assert (parsed.data, parsed.unread) == ({"a": 1}, None), prose
    for value in ("1. call it with ", "'x' then ", "True story: ", '"a" '):
        parsed = parse(value + '{"a": 1}')
        assert parsed.unread is not None and parsed.unread.startswith("a value before"), value


# --- a key written twice ------------------------------------------------------------------


def _objects_in(value: Any) -> list[dict[str, Any]]:
    """Every object in ``value`` that has a member."""
    if isinstance(value, list):
        return [found for item in value for found in _objects_in(item)]
    if not isinstance(value, dict):
        return []
    inner = [found for member in value.values() for found in _objects_in(member)]
    return [value, *inner] if value else inner


def _written_twice(value: Any, twice: dict[str, Any], key: str, second: Any, style: str) -> str:
    """``value`` written in ``style`` (strict JSON, or with repairs that keep the meaning),
    the object ``twice`` writing ``key`` again (``second``) at its end."""
    quote = "'" if style == "single quotes" else '"'
    if isinstance(value, list):
        return "[" + ", ".join(_written_twice(v, twice, key, second, style) for v in value) + "]"
    if not isinstance(value, dict):
        return write(value, quote=quote)
    members = [(k, _written_twice(v, twice, key, second, style)) for k, v in value.items()]
    if value is twice:
        members.append((key, write(second, quote=quote)))
    joint = ", /* and */ " if style == "comments" else ", "
    end = "," if style == "trailing commas" else ""
    return "{" + joint.join(f"{write(k, quote=quote)}: {v}" for k, v in members) + end + "}"


def _path(value: Any, twice: dict[str, Any]) -> list[Any] | None:
    """The segments from ``value`` to the object ``twice``."""
    if value is twice:
        return []
    if isinstance(value, dict):
        members: Any = value.items()
    elif isinstance(value, list):
        members = enumerate(value)
    else:
        return None
    for segment, member in members:
        below = _path(member, twice)
        if below is not None:
            return [segment, *below]
    return None


@settings(max_examples=80, deadline=None)
@given(
    objects.filter(bool),
    scalars,
    st.sampled_from(["strict JSON", "single quotes", "comments", "trailing commas"]),
    st.data(),
)
def test_a_key_written_twice_anywhere_is_refused_and_nothing_runs(
    value: dict[str, Any], second: Any, style: str, data: st.DataObject
) -> None:
    wrapped = {"value": value}
    twice = data.draw(st.sampled_from(_objects_in(wrapped)))
    key = data.draw(st.sampled_from(sorted(twice)))
    text = _written_twice(wrapped, twice, key, second, style)
    parsed = parse(text)
    assert parsed.error is None
    assert parsed.unread is not None and parsed.unread.startswith("the key"), (text, parsed)
    where = _path(wrapped, twice)
    assert where is not None
    assert f"at {Path([*where, key])}, character " in parsed.unread, (text, parsed.unread)
    ran.clear()
    result = application(Open).execute(Open(), "take", text)
    assert not result.success and ran == []
    assert f"Where: {parsed.unread[:200]}" in result.message()


@settings(max_examples=40, deadline=None)
@given(objects.filter(bool), scalars, st.data())
def test_a_key_written_twice_in_a_stringified_object_is_refused_and_named(
    value: dict[str, Any], second: Any, data: st.DataObject
) -> None:
    twice = data.draw(st.sampled_from(_objects_in(value)))
    key = data.draw(st.sampled_from(sorted(twice)))
    inner = _written_twice(value, twice, key, second, "strict JSON")
    ran.clear()
    result = application(Closed).execute(Closed(), "take", json.dumps({"value": inner}))
    assert not result.success and ran == [] and result.validation is not None
    [issue] = result.validation.errors
    assert issue.path == "$input.value" and issue.value == inner
    assert issue.description is not None and "is written twice" in issue.description


@llm_application
class Closed:
    def take(self, value: dict[str, Any]) -> str:
        """Take one object."""
        ran.append(value)
        return "ran"


def test_the_key_written_twice_is_named_with_its_path_and_character() -> None:
    text = '{"a": {"b": [1, {"c": 1, "c": 2}]}}'
    assert parse(text).unread == (
        'the key "c" written a second time, at $input.a.b[1].c, character 26 '
        "(JSON keeps only the last value)"
    )
    assert parse(text).data == {"a": {"b": [1, {"c": 2}]}}  # what JSON reads, shown
    assert parse('[{"c": 1}, {"c": 2}]').unread is None  # one key in two objects is no twice
    stringified = json.dumps({"value": text})
    result = application(Closed).execute(Closed(), "take", stringified)
    assert result.validation is not None
    assert result.validation.errors[0].description == (
        "this text holds JSON whose key $input.value.a.b[1].c is written twice (the second "
        "at its character 26): JSON keeps only the last value, so it was not read; write "
        "each key once"
    )
