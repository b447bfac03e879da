"""Patterns cost bounded time whatever the pattern and the text.

No test reads a clock: each bad case runs in a thread that must finish within a
deadline the old code (Python's ``re``, which backtracks without limit) misses by
minutes, while the engines here take micro- to milliseconds.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.budget import scaled

from llmapp import application, coerce, llm_application, validator
from llmapp._patterns import matching as _patterns
from llmapp._patterns.matching import NOT_CHECKED, TIMED_OUT, compile_pattern, is_pattern
from llmapp.markers import Pattern

T = TypeVar("T")

DEADLINE = 30.0
"""Seconds: a backtracking engine needs minutes for each bad case below."""


def finishes(work: Callable[[], T], seconds: float = DEADLINE) -> T:
    """``work()``'s result; fails if it is still running after ``seconds``."""
    results: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            results.append(work())
        except BaseException as error:
            errors.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if errors:
        raise errors[0]
    return results[0]


EVIL = r"^(a+)+$"
BAD = "a" * 30 + "!"  # about 72 s on Python's re; 26 characters took 4.6 s
GOOD = "a" * 30


@llm_application
class Codes:
    def check(self, code: Annotated[str, Pattern(EVIL)]) -> str:
        """Check a code."""
        return code


def test_a_backtracking_pattern_through_execute() -> None:
    app = application(Codes)
    good = finishes(lambda: app.execute(Codes(), "check", {"code": GOOD}))
    bad = finishes(lambda: app.execute(Codes(), "check", {"code": BAD}))
    huge = finishes(lambda: app.execute(Codes(), "check", {"code": "a" * 100_000 + "!"}))
    assert good.success and good.value == GOOD
    for result in (bad, huge):
        assert not result.success
        [issue] = result.validation.errors
        assert issue.path == "$input.code"
        assert issue.expected == 'string & Pattern<"^(a+)+$">'


def test_a_backtracking_pattern_through_coerce() -> None:
    schema = {
        "type": "object",
        "patternProperties": {EVIL: {"type": "integer"}},
        "additionalProperties": {"type": "string"},
    }
    assert finishes(lambda: coerce({GOOD: "5"}, schema)) == {GOOD: 5}
    assert finishes(lambda: coerce({BAD: "5"}, schema)) == {BAD: "5"}
    check = validator(schema)
    assert finishes(lambda: check({BAD: "5"})).success


def test_patterns_re2_cannot_run_have_a_time_limit() -> None:
    """Lookahead needs the backtracking engine: a search past the time limit counts as
    no match, so the value gets an issue, never a hang or an exception."""
    evil = r"^(?=a)(?:a|a)+$"
    assert not compile_pattern(evil).linear
    assert compile_pattern(EVIL).linear
    check = validator({"type": "string", "pattern": evil})
    assert finishes(lambda: check(GOOD)).success
    failure = finishes(lambda: check(BAD))
    assert not failure.success
    [issue] = failure.errors
    assert issue.expected == f"string & Pattern<{evil!r}>".replace("'", '"')
    # The search gives up, or (on a busy machine) the call's budget ran out before it:
    # either way the value is reported as not checked, never a hang or an exception.
    assert issue.description in (TIMED_OUT, NOT_CHECKED)
    assert TIMED_OUT == "pattern could not be checked in time"
    assert check("b").errors[0].description is None  # an ordinary mismatch
    keys = validator({"type": "object", "propertyNames": {"pattern": evil}})
    failure = finishes(lambda: keys({BAD: 1, "b": 2}))
    assert len(failure.errors) == 2  # each key has its issue (and its own description)


def ten_kb(index: int) -> str:
    """A distinct 10 KB pattern; ``\\S`` expands to a large class for Python's re (the
    old check took about 10 s and 27 MB for each one)."""
    return ("\\S\\w." * 1700)[:9990] + f"({index})"


@pytest.mark.budgeted
def test_many_long_format_regex_strings() -> None:
    """Distinct 10 KB strings (300 took 118 s and 438 MB): each is now parsed and compiled
    once, in time linear in its length, and no compiled pattern is kept."""
    texts = [ten_kb(index) for index in range(scaled(30, 300))]
    check = validator({"type": "array", "items": {"type": "string", "format": "regex"}})
    matchers = len(_patterns._MATCHERS._data)
    assert finishes(lambda: check(texts)).success
    assert not finishes(lambda: check([*texts, "(unclosed"])).success
    assert len(_patterns._MATCHERS._data) == matchers  # verdicts only, no matcher kept
    kept = _patterns._VERDICTS._data
    assert all(len(text) <= 1024 for text in kept)
    assert len(kept) <= 1024


def test_the_caches_are_bounded_by_count() -> None:
    for index in range(1_100):
        is_pattern(f"^a{{{index}}}$")
        compile_pattern(f"^b{{{index}}}$")
    assert len(_patterns._VERDICTS._data) <= 1024
    assert len(_patterns._MATCHERS._data) <= 512


# --- one translation, two engines that agree -------------------------------------------

PATTERNS = [
    "^\\d+$",
    "^\\w+$",
    "^\\W$",
    "^\\s+$",
    "^\\S+$",
    "\\bab\\b",
    "\\Bb",
    "^a.c$",
    "^[^\\d\\s]+$",
    "^\\p{Lu}\\p{Ll}*$",
    "^\\P{L}+$",
    "^[\\p{Nd}x]+$",
    "^[]$",
    "^[^]+$",
    "^(?:ab|a)*c?$",
    "^a{2,3}$",
    "ab|^c",
    "^\\u00e9+$",
    "^\\x41\\cJ?$",
    "^[\\-\\]a]+$",
]
ALPHABET = "aAbBcx1٣é\n\r\u2028 \xa0\t_-]É😀"


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(PATTERNS), st.text(ALPHABET, max_size=8))
def test_re2_and_the_backtracking_engine_agree(pattern: str, text: str) -> None:
    linear = _patterns._compile(pattern)
    assert linear.linear, pattern
    backtracking = _patterns._backtracking(pattern)
    assert (linear.search(text) is None) == (backtracking.search(text) is None)


def test_a_lone_surrogate_is_matched_as_ecma_262_does() -> None:
    """RE2 reads UTF-8, where a lone surrogate cannot be: such a text goes to the
    other engine, through the same translation."""
    assert compile_pattern("^.$").search("\ud800") is not None
    assert compile_pattern("^\\ud83d\\udc32$").search("\ud83d") is None
    assert compile_pattern("^\\ud83d\\udc32$").search("🐲") is not None
    assert compile_pattern("^\\ud83d$").search("\ud83d") is not None


def test_variable_width_lookbehind_is_ecma_262() -> None:
    matcher = compile_pattern("(?<=a+)b")
    assert matcher.search("aab") is not None
    assert matcher.search("b") is None
    assert is_pattern("(?<=a+)b")


@dataclass
class Case:
    text: str
    valid: bool


@pytest.mark.parametrize(
    "case",
    [
        Case("^(a+)+$", True),
        Case("a{1001}", True),  # past RE2's repeat limit: the other engine runs it
        Case("(?<year>\\d{4})-\\k<year>", True),
        Case("\\p{Cn}\\P{LC}[\\p{C}]", True),
        Case("(" * 600 + ")" * 600, True),
        Case("(?i)a", False),
        Case("a**", False),
        Case("(", False),
        Case("[b-a]", False),
        Case("\\p{Nope}", False),
        Case("x{", False),
    ],
    ids=lambda case: case.text[:20],
)
def test_is_pattern(case: Case) -> None:
    assert is_pattern(case.text) is case.valid
    if case.valid:
        compile_pattern(case.text)


def test_coerce_and_validator_read_a_pattern_alike() -> None:
    """Point 9: coerce used Python's re, where \\d is any Unicode digit and $ matches
    before a final newline, so it repaired values the validator had accepted."""
    schema: dict[str, Any] = {
        "type": "object",
        "patternProperties": {"^\\d+$": {"type": "integer"}},
        "additionalProperties": {"type": "string"},
    }
    check = validator(schema)
    for data in ({"١٢": "5"}, {"12\n": "5"}):
        assert check(data).success
        assert coerce(data, schema) == data
        assert check(coerce(data, schema)).success
    assert coerce({"12": "5"}, schema) == {"12": 5}
