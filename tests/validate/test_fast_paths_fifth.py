"""Issue 33's fifth round: the failure path reads a refused value fewer times, and a
recursive schema's call enters no pattern budget it cannot use; verdicts and issues stay.

Each change is counted (calls of a check, entries of a budget; never time), and run
beside the code before it (``9500972``: ``_scalars/iso8601.py`` loaded from git; the
validators of ``benchmarks.corpus`` compared with ones whose walkers re-check as before)
on generated and adversarial inputs.
"""

from __future__ import annotations

import itertools
import json
import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support import before
from tests.support.budget import scaled, spread

from llmapp._scalars import iso8601 as iso
from llmapp.validate import Validator, _validator, _walk
from llmapp.validate._patterns import budget_begun

BEFORE = "9500972"
"""The commit before the fifth round."""


@pytest.fixture(scope="module")
def old_iso() -> types.ModuleType:
    before.require(BEFORE)
    return before.load(BEFORE, "llmapp/_scalars/iso8601.py")


# -- a refused date is read by ``fromisoformat`` alone ------------------------------------


def test_a_refused_date_is_not_read_by_the_grammar(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_grammar(pattern: str) -> Any:
        raise AssertionError(f"the grammar was read: {pattern}")

    monkeypatch.setattr(iso, "_regex", no_grammar)
    for text in ("2024-02-30", "2023-02-29", "0000-01-01", "2024-13-01", "2024-1a-01", ""):
        assert iso.is_date(text) is False
    assert iso.is_date("2024-02-29") is True


_DATE_PARTS = {
    "year": ["0000", "0001", "1900", "2000", "2023", "2024", "2100", "9999", "２０２４", "٢٠٢٤",
             "202a", "+024", " 024", "-024"],
    "month": [f"{month:02d}" for month in range(14)] + ["1a", "٠١", "+1", " 1", "1 ", "1"],
    "day": [f"{day:02d}" for day in range(33)] + ["٠١", "3 ", "+1", "1", "001", "1\n"],
}  # fmt: skip


def test_every_date_shaped_text_gets_the_old_verdict(old_iso: types.ModuleType) -> None:
    """Every year, month and day above, and every separator pair around them."""
    parts = itertools.product(
        _DATE_PARTS["year"], "-/", _DATE_PARTS["month"], "-T", _DATE_PARTS["day"]
    )
    for year, first, month, second, day in parts:
        text = f"{year}{first}{month}{second}{day}"
        assert iso.is_date(text) is old_iso.is_date(text), text


@settings(max_examples=scaled(300, 2000), deadline=None)
@given(
    st.one_of(
        st.dates().map(str),
        st.builds(
            "{}-{}-{}".format,
            st.text("0123456789٠２a", min_size=4, max_size=4),
            st.text("0123456789", min_size=2, max_size=2),
            st.text("0123456789", min_size=2, max_size=2),
        ),
        st.text(max_size=12),
    )
)
def test_generated_dates_get_the_old_verdict(old_iso: types.ModuleType, text: str) -> None:
    assert iso.is_date(text) is old_iso.is_date(text), text


# -- a recursive schema without a search that may give up enters no budget -----------------

TREE = {
    "$defs": {
        "N": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "pattern": "^[a-z]+$"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/N"}},
            },
            "required": ["name"],
            "additionalProperties": False,
        }
    },
    "$ref": "#/$defs/N",
}


def _count_budgets(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    entered = [0]

    def begun() -> float | None:  # a call's budget, entered by a plain call
        entered[0] += 1
        return budget_begun()

    monkeypatch.setattr(_validator, "budget_begun", begun)
    return entered


def test_a_bounded_recursive_validator_enters_no_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    check = Validator(TREE)
    assert check._guarded and check.bounded
    entered = _count_budgets(monkeypatch)
    assert check({"name": "a", "children": [{"name": "b"}]}).success
    failed = check({"name": "a", "children": [{"name": "B"}, {"name": 1}]})
    assert [(i.path, i.expected) for i in failed.errors] == [
        ("$input.children[0].name", 'string & Pattern<"^[a-z]+$">'),
        ("$input.children[1].name", 'string & Pattern<"^[a-z]+$">'),
    ]
    assert entered == [0]


def test_a_validator_that_may_search_on_the_bounded_engine_still_enters_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    backtracking = json.loads(json.dumps(TREE))
    backtracking["$defs"]["N"]["properties"]["name"]["pattern"] = "^(a|a)*(?=b)b$"
    check = Validator(backtracking)
    assert not check.bounded
    entered = _count_budgets(monkeypatch)
    assert not check({"name": "ac"}).success
    assert entered == [1]


# -- a union branch its check refused is not checked again --------------------------------


def _counting(check: Validator, name: str) -> list[int]:
    """Count the calls of one global of the generated code (a format check, a checker)."""
    check._walker()
    namespace = check._namespace
    # The helpers are the code's builtins; a global of the same name stands in for one.
    original = namespace[name] if name in namespace else namespace["__builtins__"][name]
    calls = [0]

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return original(*args)

    namespace[name] = counted
    return calls


def test_a_refused_optional_date_is_read_once_by_the_checker() -> None:
    check = Validator(
        {
            "type": "object",
            "properties": {
                "day": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]}
            },
        }
    )
    calls = _counting(check, "is_date")
    failed = check({"day": "2024-02-30"})
    assert [(i.path, i.expected, i.value) for i in failed.errors] == [
        ("$input.day", 'string & Format<"date">', "2024-02-30")
    ]
    # The checker's union test; the walk knows the property refused (``Refusal.inside``).
    assert calls == [1]


RECORD = {
    "$defs": {
        "Money": {
            "type": "object",
            "properties": {"amount": {"type": "integer"}, "currency": {"type": "string"}},
            "required": ["amount", "currency"],
            "additionalProperties": False,
        }
    },
    "type": "object",
    "properties": {"price": {"anyOf": [{"$ref": "#/$defs/Money"}, {"type": "null"}]}},
}


def test_a_refused_optional_record_is_checked_once_by_the_walker() -> None:
    check = Validator(RECORD)
    calls = _counting(check, "c_Money")
    failed = check({"price": {"amount": "1", "currency": "EUR"}})
    assert [(i.path, i.expected, i.value) for i in failed.errors] == [
        ("$input.price.amount", "integer", "1")
    ]
    # The checker's union test alone: the walk knows the property refused
    # (``Refusal.inside``), and walks the branch ``_pick`` chose without checking it.
    assert calls == [1]


# -- the same issues as the walkers that checked a refused branch again ----------------------


def _block_whole(
    self: _walk.WalkWriter, branch: Any, v: str, path: _walk.PathCode, given: str = ""
) -> None:
    """``block``, in ``_refused``'s place: the kept answer (``given``) is not asked for."""
    self.block(branch, v, path)


def _old_walkers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Walkers written as before: every chosen branch walked by ``block``; no definition
    shared with a validator compiled with the new ones."""
    monkeypatch.setattr(_walk.WalkWriter, "_refused", _block_whole)
    monkeypatch.setattr(_validator, "_shared", type(_validator._shared)())
    monkeypatch.setattr(_validator, "_seen", type(_validator._seen)())


def _mutations(value: Any) -> list[Any]:
    """The value with each scalar in turn swapped for a wrong one, and a few whole swaps."""
    found: list[Any] = []
    wrong: list[Any] = ["2024-02-30", "25:61:00", {"wrong": True}, None, -1, "", 1.5, []]

    def walk(node: Any, rebuild: Any) -> None:
        if isinstance(node, dict):
            for key in node:
                walk(node[key], lambda new, key=key: rebuild({**node, key: new}))
        elif isinstance(node, list):
            for index in range(len(node)):
                walk(node[index], lambda new, i=index: rebuild([*node[:i], new, *node[i + 1 :]]))
        if len(found) < 60:
            found.extend(rebuild(replacement) for replacement in wrong[: 1 + len(found) % 3])

    walk(value, lambda new: new)
    return found


def _issues(check: Validator, value: Any) -> list[tuple[str, str, str, str | None]]:
    result = check(value)
    if result.success:
        return []
    return [(i.path, i.expected, repr(i.value), i.description) for i in result.errors]


@pytest.mark.budgeted
def test_corpus_issues_are_those_of_the_old_walkers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every signature of ``benchmarks.corpus``, its three texts and their mutations."""
    from benchmarks import corpus

    from llmapp import application

    built = corpus.generate()
    app = application(built.tools)
    chosen = [(c, app.require(c.name).checked_parameters) for c in spread(built.cases, 3)]
    values = {
        case.name: [
            value
            for text in case.texts.values()
            for value in (json.loads(text), *_mutations(json.loads(text)))
        ]
        for case, _ in chosen
    }
    new = {}
    for case, schema in chosen:
        check = Validator(schema)
        new[case.name] = [_issues(check, value) for value in values[case.name]]
    _old_walkers(monkeypatch)
    for case, schema in chosen:
        check = Validator(schema)
        for value, issues in zip(values[case.name], new[case.name]):
            assert _issues(check, value) == issues, (case.signature, value)


# -- uniqueItems after the items' own checks, in the checker ------------------------------


def test_a_set_holding_a_wrong_item_is_refused_before_it_is_frozen() -> None:
    check = Validator({"type": "array", "items": {"type": "string"}, "uniqueItems": True})
    calls = _counting(check, "_unique")
    # The checker's test of strings is ``unique_plain`` (the eighth round), the walker's
    # ``_unique``: each counted.
    plain = _counting(check, "unique_plain")
    failed = check(["a", {"wrong": True}, "a"])
    assert [(i.path, i.expected) for i in failed.errors] == [
        ("$input", "Array<string> & UniqueItems<true>"),
        ("$input[1]", "string"),
    ]
    assert calls == [1] and plain == [0]  # the walker's: the checker stopped at the dict
    assert check(["a", "b"]).success and calls == [1] and plain == [1]
    assert not check(["a", "a"]).success
