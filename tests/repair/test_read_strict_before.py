"""read_strict against cac26b5's (the pairs hook on every object, kept here as written
then): the same value, the same types and key order, or MISSING, on every text.

Today's reader scans without the pairs hook and proves that no key was written twice by
counting (``_parse._scan``); these texts aim at that proof: keys written twice at every
depth (also through escapes), blanks of every kind before a colon, strings that hold
``":``, numbers too large for a float, and the corpus's texts.
"""

from __future__ import annotations

import json
import math
import threading
from typing import Any

import pytest
from benchmarks.corpus import generate
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.budget import scaled, spread

from llmapp._sentinels import MISSING
from llmapp.repair import _parse, read_strict

# --- cac26b5's read_strict -----------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_float(written: str) -> float:
    value = float(written)
    if math.isinf(value):
        raise ValueError(f"{written} overflows a float")
    return value


def _distinct_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = dict(pairs)
    if len(made) != len(pairs):
        raise ValueError("a key written twice")
    return made


_SCAN = json.JSONDecoder(
    object_pairs_hook=_distinct_keys, parse_constant=_reject_constant, parse_float=_finite_float
).scan_once
_BLANK = " \t\n\r"


def _deeper_than(data: Any, max_depth: int) -> bool:
    level = [data] if isinstance(data, (dict, list)) else []
    for _ in range(max_depth):
        below: list[Any] = []
        for container in level:
            members = container.values() if isinstance(container, dict) else container
            below.extend(m for m in members if isinstance(m, (dict, list)))
        if not below:
            return False
        level = below
    return True


def OLD(text: str, max_length: int, max_depth: int) -> Any:
    if len(text) > max_length or text[:1] == "\ufeff":
        return MISSING
    try:
        start = len(text) - len(text.lstrip(_BLANK)) if text[:1] in _BLANK else 0
        data, end = _SCAN(text, start)
        if end != len(text) and text[end:].strip(_BLANK):
            return MISSING
    except (ValueError, RecursionError, StopIteration):
        return MISSING
    deep = len(text) > 2 * max_depth and text.count("{") + text.count("[") > max_depth
    return MISSING if deep and _deeper_than(data, max_depth) else data


def _same(new: Any, old: Any) -> bool:
    """Equal values of equal types, dicts in the same key order, at every depth: ``repr``
    writes ``1`` and ``1.0``, ``True`` and ``1``, ``0.0`` and ``-0.0`` apart, keys in order."""
    return repr(new) == repr(old)


def _dense(text: str) -> str:
    """``text`` as the last member's value of an object whose first members are many short
    keys: long and dense enough in keys that ``read_strict`` tries its proof on it."""
    return "{" + "".join(f'"key_{n:02d}": {n}, ' for n in range(24)) + f'"v": {text}}}'


def _agree(text: str, max_length: int = 100_000, max_depth: int = 512) -> None:
    _agree_on(text, max_length, max_depth)
    _agree_on(_dense(text), max_length, max_depth)


def _agree_on(text: str, max_length: int, max_depth: int) -> None:
    old = OLD(text, max_length, max_depth)
    new = read_strict(text, max_length, max_depth)
    if old is MISSING:
        assert new is MISSING, text
    else:
        assert new is not MISSING and _same(new, old), text


# --- texts written by hand ---------------------------------------------------------------

KEYS_TWICE = [
    '{"a": 1, "a": 2}',
    '{"a": 1, "\\u0061": 2}',
    '{"\\u0061": 1, "a": 1}',
    '{"a\\"": 1, "a\\u0022": 2}',
    '{"a": {"b": 1, "b": 1}}',
    '[{"a": 1}, {"b": 1, "c": 2, "b": 3}]',
    '{"x": [[{"k": [], "k": []}]]}',
    '{"a" : 1, "a": 2}',
    '{"a"\t:1,"a":2}',
    '{"a"\n:1,"a"\r:2}',
    '{"a":1,"a" :2, "s": "\\":"}',
    '{"a": 1, "s": "\\":", "a": 2}',
    '{"a": 1, "a": 2, "b": "x", "c": "y"}',
    '{"": 1, "": 2}',
    '{"a": {"a": 1}, "a": {"a": 1}}',
]

STRINGS_WITH_COLONS = [
    '{"a": "\\":"}',
    '{"a": "\\\\":1}',
    '{"a": "x\\":y", "b": 2}',
    '{"a": "b\\": 1, \\"c\\": 2"}',
    '["\\":", "\\":"]',
    '{"a": ["\\":"]}',
    '{"a": "{\\"b\\": 1, \\"b\\": 2}"}',
    '{"a\\\\": 1, "b": "\\\\"}',
    '{"a": "t :", "b": "u\\n:"}',
    '{"a": 1, "note": "10:30 : later"}',
    '{"a":1,\n"b" : 2}',
    '{\n  "a": 1,\n  "b": [1, 2]\n}',
]

NUMBERS = [
    "1e309",
    "-1e999",
    "1E400",
    "0.0e999999",
    "1e-999",
    "[1e308, 1.7976931348623157e308, 1.8e308]",
    '{"a": 1e309}',
    '{"a": [0, 1E+400]}',
    "9" * 309 + ".0",
    "9" * 308 + ".5",
    "-" + "9" * 309 + ".1",
    "1" + "0" * 308,
    "[" + "1" * 309 + "]",
    '{"a": ' + "7" * 400 + ".25}",
    "0." + "9" * 400,
    '{"a": NaN}',
    '{"a": Infinity}',
    "[-Infinity]",
]

OTHER = [
    "",
    "   ",
    "{}",
    "[]",
    '{"a": 1} {"b": 2}',
    '{"a": 1} x',
    '{"a": 1,}',
    "\ufeff{}",
    '{"a": "\\ud800"}',
    ' \n {"a": [1, 2.5, "s", true, false, null]} \n ',
    '{"a": ' + "[" * 600 + "]" * 600 + "}",
    "[" * 513 + "]" * 513,
    "[" * 512 + "]" * 512,
    '{"a":' * 300 + "1" + "}" * 300,
    '{"a":' * 512 + "1" + "}" * 512,
    '{"a":' * 513 + "1" + "}" * 513,
    '[{"a":' * 256 + "1" + "}]" * 256,
    '[{"a":' * 257 + "1" + "}]" * 257,
    '{"a": ' + "[" * 500 + '{"b": 1, "c": 2}' + "]" * 500 + "}",
]


@pytest.mark.parametrize("text", KEYS_TWICE + STRINGS_WITH_COLONS + NUMBERS + OTHER)
def test_agrees_on_texts_written_by_hand(text: str) -> None:
    _agree(text)
    _agree(text, max_length=10)
    _agree(text, max_depth=3)


def test_keys_written_twice_are_refused() -> None:
    for text in KEYS_TWICE:
        assert read_strict(text) is MISSING, text
        assert read_strict(_dense(text)) is MISSING, text


def test_the_proof_is_tried_and_holds_on_dense_texts() -> None:
    # The texts above test the proof only where it is tried: it must be, on these.
    for text in ['{"a": 1}', '[1.5, "x"]', '{"a": {"b": [{"c": null}]}}', '"\\\\"']:
        assert _parse._scan(_dense(text), 0)[2] is not None, text


def test_a_read_while_another_holds_the_sizes_is_the_hooked_one() -> None:
    # Another thread's read in progress: this one must not count with its sizes.
    with _parse._SIZES_HELD:
        _agree('{"a": 1, "b": [{"c": 2.5}]}')
        assert read_strict('{"a": 1, "a": 2}') is MISSING


def test_reads_in_threads_agree() -> None:
    texts = KEYS_TWICE + STRINGS_WITH_COLONS + ['{"a": 1, "b": {"c": 2, "d": [3]}}'] * 20
    failures: list[str] = []

    def read_all() -> None:
        for _ in range(20):
            for text in texts:
                try:
                    _agree(text)
                except AssertionError:
                    failures.append(text)

    threads = [threading.Thread(target=read_all) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


# --- generated texts ---------------------------------------------------------------------

_KEYS = st.sampled_from(["a", "b", "ab", "", '"', ":", '":', "\\", "\u00e9", "a b"])
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet='ab":\\ \n{}[],\u00e9', max_size=8)
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.lists(st.tuples(_KEYS, inner), max_size=4)
    ),  # pairs: a key may come twice
    max_leaves=20,
)


def _string(text: str, draw: Any) -> str:
    """``text`` as a JSON string, each character possibly written as a ``\\u`` escape."""
    escaped = json.dumps(text, ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):
        return '"' + "".join(f"\\u{ord(c):04x}" if c.isalpha() else c for c in escaped[1:-1]) + '"'
    return escaped


@st.composite
def written(draw: Any, value: Any = None) -> str:
    """A JSON text of a drawn value, with blanks drawn at every place JSON allows them."""
    if value is None:
        value = draw(_VALUES)

    def blank() -> str:
        return draw(st.sampled_from(["", "", "", " ", "\n  ", "\t", "\r\n", " \n"]))

    def write(item: Any) -> str:
        if isinstance(item, list) and item and isinstance(item[0], tuple):
            members = [f"{_string(k, draw)}{blank()}:{blank()}{write(v)}" for k, v in item]
            return "{" + blank() + f"{blank()},{blank()}".join(members) + blank() + "}"
        if isinstance(item, list):
            return "[" + blank() + f"{blank()},{blank()}".join(map(write, item)) + blank() + "]"
        if isinstance(item, str):
            return _string(item, draw)
        return json.dumps(item)

    return blank() + write(value) + blank()


@settings(max_examples=scaled(400, 4000), deadline=None)
@given(written())
def test_agrees_on_generated_texts(text: str) -> None:
    _agree(text)


_NUMBER = st.from_regex(
    r"\A-?(0|[1-9][0-9]{0,3}|9{300,320})(\.[0-9]{1,3})?([eE][-+]?[0-9]{1,4})?\Z"
)


@settings(max_examples=scaled(200, 2000), deadline=None)
@given(st.lists(_NUMBER, min_size=1, max_size=4), st.sampled_from(["[{}]", '{{"a": [{}]}}']))
def test_agrees_on_numbers(numbers: list[str], frame: str) -> None:
    _agree(frame.format(", ".join(numbers)))


_CORPUS = generate()


@pytest.mark.parametrize("case", spread(_CORPUS.cases + _CORPUS.named, 3), ids=lambda c: c.name)
def test_agrees_on_the_corpus(case: Any) -> None:
    for text in case.texts.values():
        _agree(text)
        data = json.loads(text)
        if isinstance(data, dict) and data:
            first = next(iter(data))
            twice = text[:-1].rstrip() + f", {json.dumps(first)}: null}}"
            _agree(twice)  # the corpus's text with its first key written again at the end
            assert read_strict(twice) is MISSING
