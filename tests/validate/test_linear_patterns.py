"""Which engine runs a pattern: ``re`` only where it provably runs in linear time, and a
budget per validation call for the engine that may backtrack.

The ReDoS corpus below holds the classic evil patterns (OWASP's list, the nested and
ambiguous repetitions, the quadratic unanchored searches); each must stay off ``re``.
The ordinary patterns, as schemas write them, must run on ``re``, and agree with RE2
and ``regex`` on every text. No test reads a clock: the hostile cases run in a thread
that must finish within a deadline the unbounded engine misses by minutes.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from llmapp import application, llm_application, validator
from llmapp._patterns import matching as _patterns
from llmapp._patterns.ecma import LINEAR, STDLIB, translate
from llmapp._patterns.linear import MAX_UNANCHORED_WIDTH, is_linear, linear_method
from llmapp._patterns.matching import (
    CALL_BUDGET,
    NOT_CHECKED,
    TIME_LIMIT,
    TIMED_OUT,
    compile_pattern,
)
from llmapp.markers import Pattern

from .test_regex_safety import finishes

REDOS = [
    "^(a+)+$",
    "^(a|a)*$",
    "^(a|aa)+$",
    "^(.*a){12}$",
    "^(a*)*$",
    "^(x+x+)+y$",
    "(a+)+",
    "^(\\w+\\s?)*$",
    "^(\\d+)*$",
    "^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}"
    "(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$",  # OWASP: e-mail validation
    "^[a-zA-Z]+(([',.\\- ][a-zA-Z ])?[a-zA-Z]*)*$",  # OWASP: person name
    "^(([a-z])+.)+[A-Z]([a-z])+$",  # OWASP
    "^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$",  # polynomial: [^\\s@]+ then \\. then [^\\s@]+ again
    "^[a.]*\\.[a.]*$",  # what follows the one retry consumes its own start
    "[a.]+\\.a+$",  # a retry, unanchored: every start pays it
    "^[a.]+[a.]+\\.a+$",  # two retries
    "^\\d+\\.?\\d*$",
    "a*b",  # unanchored: quadratic on aaaa...
    "[a-z]+@",
    "(\\d+)\\1",  # a backreference
    "(?<year>\\d{4})-\\k<year>",
    "^(?=.)(a|aa)+$",
    "^(?=a+b)a",  # repetition in a lookahead
    "^\\p{Lu}+$",  # no Unicode categories in re
]

ORDINARY = [
    "^[a-z]+$",
    "^\\d{4}-\\d{2}-\\d{2}$",
    "^[A-Z]{3}-\\d+$",
    "^SKU-\\d{5}$",
    "^ORD-\\d{4}-\\d{6}$",
    "^[a-z]+(?:\\.[a-z]+)*$",
    "^\\+?[1-9]\\d{1,14}$",  # E.164
    "^(?:ab|cd)*$",
    "^(?:a|ab)*c$",  # deterministic once the common prefix is factored out
    "^#[0-9a-fA-F]{6}$",
    "^[A-Z]{2}\\d{2}[A-Z0-9]{1,30}$",  # IBAN
    "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
    "^(?:[01]\\d|2[0-3]):[0-5]\\d$",
    "^[^@\\s]+@example\\.com$",
    "^\\S+$",
    "^[a-z]$|^[0-9]$",
    "^(?=[a-z])[a-z0-9]{3,}$",  # a lookahead without repetition
    "\\d+",  # unanchored, but nothing after the required digit can fail
    "abc",
    "\\bword\\b",
    "^.{1,80}$",
    "^[]$",
    "^[^]+$",
    "^\\u00e9+$",
    # one retry (issue 33): the domain gives back characters, and each try of
    # \\.[a-z]{2,}$ stops before the next dot, so the tries read disjoint stretches
    "^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$",
    "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$",
    "^[a-z0-9-.]+\\.(?:com|org|net)$",
    "^\\d*\\d$",  # each try of the last \\d reads one character
    # disjoint attempts (issue 33): past the head, nothing consumed can start an attempt
    "\\bref\\d+\\b",
    "(?:ab|b)c*d",
]


@pytest.mark.parametrize("pattern", REDOS)
def test_redos_patterns_stay_off_the_backtracking_stdlib_engine(pattern: str) -> None:
    assert compile_pattern(pattern).engine != "re"


@pytest.mark.parametrize("pattern", ORDINARY)
def test_ordinary_patterns_run_on_re(pattern: str) -> None:
    matcher = compile_pattern(pattern)
    assert matcher.engine == "re"
    assert matcher.linear


def test_the_rule_reads_the_parsed_pattern() -> None:
    assert is_linear(translate("^(a|b)+$", STDLIB))
    assert not is_linear(translate("^(a|ab|b)+$", STDLIB))  # b starts two branches
    assert not is_linear(translate("^(a?)+$", STDLIB))  # a body that may match nothing
    assert not is_linear(translate("^a{2,5}ab*a$", STDLIB))  # go on or stop: both read a
    assert is_linear(translate("^a{2,5}ab*$", STDLIB))  # the same, one retry: b* stops at a
    assert not is_linear(translate("a{2,5}ab*$", STDLIB))  # one retry at every start
    assert is_linear(translate("^a{5}a$", STDLIB))  # a count without choice
    width = MAX_UNANCHORED_WIDTH
    assert is_linear(translate("a" * width, STDLIB))
    assert not is_linear(translate("a" * (width + 1), STDLIB))
    assert is_linear(translate("^" + "a" * (width + 1), STDLIB))
    assert not is_linear(translate("\\d+\\b", STDLIB))  # a boundary after a repetition
    assert is_linear(translate("\\bref\\d+\\b", STDLIB))  # digits never start an attempt
    assert not is_linear(translate("r\\w+\\b", STDLIB))  # \\w holds the r that starts one
    assert not is_linear(translate("ab(?:a" + "b" * MAX_UNANCHORED_WIDTH + ")?c*d", STDLIB))


def test_disjoint_attempts_stay_linear_on_their_worst_texts() -> None:
    """Each attempt's rest reads a stretch no other attempt's rest reads: texts made of
    long runs of what the rest consumes, with many starts, finish at once on ``re``."""
    for pattern, text in [
        ("\\bref\\d+\\b", ("ref" + "1" * 20_000 + "x") * 5),
        ("\\bref\\d+\\b", "ref" * 30_000 + "1" * 30_000),
        ("(?:ab|b)c*d", ("ab" + "c" * 20_000) * 5),
    ]:
        matcher = compile_pattern(pattern)
        assert matcher.engine == "re"
        finishes(lambda m=matcher, t=text: m.search(t), seconds=10)


EVIL_TEXTS = ["a" * 5000 + "!", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" + "\u2028" * 3, "x" * 5000]


@pytest.mark.parametrize("pattern", REDOS + ORDINARY)
def test_every_pattern_finishes_on_hostile_texts(pattern: str) -> None:
    matcher = compile_pattern(pattern)
    check = validator({"type": "string", "pattern": pattern})
    for text in EVIL_TEXTS:
        finishes(lambda: matcher.search(text), seconds=10)
        finishes(lambda: check(text), seconds=10)


ALPHABET = "aAbcdex019-_.@#:+ \n\u2028é😀\ud800"


def _engines(pattern: str) -> list[_patterns.Matcher]:
    """The pattern on every engine that can run it."""
    found = [compile_pattern(pattern)]
    program = _patterns._re2_program(pattern, LINEAR)
    if program is not None and program.ok():
        found.append(_patterns._LinearMatcher(pattern, program))
    found.append(_patterns._backtracking(pattern))
    return found


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(ORDINARY), st.text(ALPHABET, max_size=12))
def test_re_agrees_with_re2_and_regex(pattern: str, text: str) -> None:
    verdicts = {m.engine: m.search(text) is not None for m in _engines(pattern)}
    assert len(set(verdicts.values())) == 1, verdicts


ATOMS = ["a", "b", "[ab]", "\\d", ".", "[^a]", "\\s", "(?:a|bc)", "\\b", "$", "^"]


@st.composite
def patterns(draw: Any) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 5))):
        atom = draw(st.sampled_from(ATOMS))
        if atom not in ("\\b", "$", "^"):
            atom += draw(st.sampled_from(["", "*", "+", "?", "{1,3}", "{2}", "*?"]))
        parts.append(atom)
    return "".join(parts)


@settings(max_examples=400, deadline=None)
@given(patterns(), st.lists(st.text("ab1 \n.", max_size=8), min_size=1, max_size=4))
def test_patterns_put_on_re_match_as_re2_does(pattern: str, texts: list[str]) -> None:
    if _patterns._stdlib_matcher(pattern) is None:
        return  # on another engine: nothing to compare
    ours = compile_pattern(pattern)
    assert ours.engine == "re"
    for other in _engines(pattern)[1:]:
        for text in texts:
            assert (ours.search(text) is None) == (other.search(text) is None), (other, text)


def test_re_is_given_the_text_itself() -> None:
    """No encode per match: the matcher's search is ``re``'s own, ``match`` where every
    match starts at the start, and generated code calls that compiled pattern."""
    anchored, loose = compile_pattern("^[a-z]+$"), compile_pattern("abc")
    assert anchored.search == re.compile("^[a-z]+\\Z", re.ASCII).match
    assert anchored.call() == (re.compile("^[a-z]+\\Z", re.ASCII), "match")
    assert loose.call() == (re.compile("abc", re.ASCII), "search")
    source = validator({"type": "string", "pattern": "^[a-z]+$"}).source
    assert "PATTERN.match(v) is not None" in source
    assert "re.compile('^[a-z]+\\\\Z', re.ASCII)" in source


@pytest.mark.parametrize(
    ("pattern", "method"),
    [
        ("^a+$", "match"),
        ("^a|^b", "match"),  # every branch anchored
        ("(?:^a|^b)c", "match"),
        ("^a|b", "search"),  # one branch may start anywhere
        ("a^", "search"),
        ("(?:^a)?b", "search"),  # the anchor may be skipped
        ("^(a+)+$", None),  # refused: not on re at all
    ],
)
def test_anchored_patterns_are_matched_at_the_start_only(pattern: str, method: str | None) -> None:
    assert linear_method(translate(pattern, STDLIB)) == method
    if method is not None:
        matcher = compile_pattern(pattern)
        for text in ("a", "b", "ac", "bc", "xa", "xb", "xac", "", "a\nb"):
            expected = re.search(translate(pattern, STDLIB), text, re.ASCII) is not None
            assert (matcher.search(text) is not None) == expected, text


# --- one budget per validation call -----------------------------------------------------

HOSTILE = "^(?=.)(a|aa)+$"  # lookahead: on regex, with the time limit
SLOW = "a" * 31 + "!"


@llm_application
class Tagger:
    def tag(self, tags: list[Annotated[str, Pattern(HOSTILE)]]) -> int:
        """Tag things."""
        return len(tags)


def test_backtracking_searches_share_one_budget_per_call() -> None:
    """100 items that each take the time limit cost 10-14 s before; now the call's
    budget, and every item past it is reported as not checked."""
    check = application(Tagger).function("tag").validate
    failure = finishes(lambda: check({"tags": [SLOW + str(i) for i in range(100)]}), 30)
    assert not failure.success
    assert len(failure.errors) == 100  # nothing unchecked passes
    descriptions = [issue.description for issue in failure.errors]
    assert set(descriptions) <= {TIMED_OUT, NOT_CHECKED}
    assert descriptions.count(TIMED_OUT) <= CALL_BUDGET / TIME_LIMIT + 1
    assert descriptions[-1] == NOT_CHECKED


def test_the_budget_is_per_call() -> None:
    check = validator({"type": "array", "items": {"type": "string", "pattern": HOSTILE}})
    finishes(lambda: check([SLOW] * 20), 30)
    assert check(["aa", "a"]).success  # a fresh budget: good values still pass
    assert _patterns._STATE.left is None  # and none outside a call
    assert compile_pattern(HOSTILE).search("aaa") is not None
    assert check.is_valid(["aaa"])
