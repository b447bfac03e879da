"""feedback: golden texts for each placement rule, path reading, and never raising.

Regenerate the golden files with ``LLMAPP_UPDATE_GOLDEN=1 pytest tests/feedback``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.budget import scaled

from llmapp._results import UNDEFINED, ValidationFailure, ValidationIssue
from llmapp.explain import feedback
from llmapp.jsonschema import Path as IssuePath

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("LLMAPP_UPDATE_GOLDEN") == "1"

I = ValidationIssue  # noqa: E741

CASES: dict[str, ValidationFailure] = {
    "nested_objects": ValidationFailure(
        {"customer": {"name": "Ann", "address": {"city": "Paris", "zip": 75001}}, "note": "gift"},
        [I("$input.customer.address.zip", 'string & Pattern<"^[0-9]{5}$">', 75001)],
    ),
    "array_error_at_3": ValidationFailure(
        {
            "items": [
                {"sku": "a", "qty": 1},
                {"sku": "b", "qty": 2},
                {"sku": "c", "qty": 3},
                {"sku": "d", "qty": "four"},
            ]
        },
        [I("$input.items[3].qty", "integer & Minimum<1>", "four")],
    ),
    "missing_key": ValidationFailure(
        {"name": "Ann"},
        [
            I("$input.email", 'string & Format<"email">', UNDEFINED),
            I("$input.age", "integer", UNDEFINED),
        ],
    ),
    "superfluous_key": ValidationFailure(
        {"name": "Ann", "nickname": "A"},
        [I("$input.nickname", "undefined", "A", "This property is not in the schema; remove it.")],
    ),
    "unplaceable": ValidationFailure(
        {"order": {"id": 1}, "tags": "x"},
        [
            I("$input.customer.name", "string", UNDEFINED),
            I("$input.tags[0]", "string", "x"),
            I("$input.order.id", "string", 1),
            I("items[0]", "Item", {"sku": 1}),
        ],
    ),
    "several_issues_one_path": ValidationFailure(
        {"limit": 500.5},
        [
            I("$input.limit", "integer", 500.5),
            I("$input.limit", "integer & Maximum<100>", 500.5),
        ],
    ),
    "non_identifier_keys": ValidationFailure(
        {"headers": {"content-type": 5, 'say "hi"': True, "données": None, "ok": "x"}},
        [
            I('$input.headers["content-type"]', "string", 5),
            I('$input.headers["say \\"hi\\""]', "string", True),
            I('$input.headers["données"]', "string", None),
            I('$input.headers["x-request-id"]', "string", UNDEFINED),
        ],
    ),
    "root_error": ValidationFailure(
        "search for shoes", [I("$input", "SearchArguments", "search for shoes")]
    ),
    "container_errors": ValidationFailure(
        {"tags": {"a": 1}, "matrix": [], "point": [1]},
        [
            I("$input.tags", "Array<string>", {"a": 1}),
            I("$input.matrix", "Array<number> & MinItems<1>", []),
            I("$input.point[1]", "number", UNDEFINED),
            I("$input.point[2]", "number", UNDEFINED),
        ],
    ),
    "long_values": ValidationFailure(
        {"text": "word " * 100, "scores": list(range(40))},
        [
            I("$input.scores[25]", "number & Maximum<20>", 25),
            I("$input.text", "string & MaxLength<100>", "word " * 100),
        ],
    ),
    "bracket_path_for_identifier": ValidationFailure(
        {"name": 1, "list": [[1, "2"]]},
        [I('$input["name"]', "string", 1), I("$input.list[0][1]", "number", "2")],
    ),
    "empty_object_missing_keys": ValidationFailure(
        {},
        [I("$input.query", "string", UNDEFINED)],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name: str) -> None:
    text = feedback(CASES[name])
    path = GOLDEN / f"{name}.txt"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path.name}: run with LLMAPP_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8")


def test_golden_files_have_no_strays() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.txt")) == sorted(CASES)


def test_a_wrong_value_is_marked_on_its_line() -> None:
    text = feedback(ValidationFailure({"age": "x", "b": 1}, [I("$input.age", "integer", "x")]))
    assert '  "age": "x", // ❌ [{"path": "$input.age", "expected": "integer"}]\n' in text
    assert '  "b": 1\n' in text


def test_missing_key_line() -> None:
    text = feedback(ValidationFailure({"a": 1}, [I("$input.b", "string", UNDEFINED)]))
    assert (
        '  "a": 1,\n  "b": undefined // ❌ [{"path": "$input.b", "expected": "string"}]\n}' in text
    )
    assert '"key": undefined marks a required property you left out.' in text


def test_the_block_without_marks_is_the_data() -> None:
    data = {"a": [1, {"b": None}], "c": "d", "e": {}}
    text = feedback(ValidationFailure(data, [I("$input.c", "integer", "d")]))
    block = text.split("```json\n")[1].split("\n```")[0]
    assert (
        json.loads(block.replace(' // ❌ [{"path": "$input.c", "expected": "integer"}]', ""))
        == data
    )


def test_unplaced_section_only_when_needed() -> None:
    placed = feedback(ValidationFailure({"a": 1}, [I("$input.a", "string", 1)]))
    assert "could not be placed" not in placed
    unplaced = feedback(ValidationFailure({"a": 1}, [I("$input.a.b", "string", 1)]))
    assert unplaced.endswith(
        'Errors that could not be placed in the JSON above:\n- {"path": "$input.a.b", "expected": "string", "value": 1}'
    )


def test_no_urls_and_values_are_cut() -> None:
    text = feedback(
        ValidationFailure(
            {"a": "x" * 5000}, [I("$input.a", "string & MaxLength<10>", "x" * 5000, "d" * 1000)]
        )
    )
    assert "http" not in text
    assert len(text) < 2000
    assert '"' + "x" * 200 + '…"' in text and '"' + "d" * 300 + '…"' in text


@pytest.mark.parametrize(
    ("path", "segments"),
    [
        ("$input", ()),
        ("$input.a", ("a",)),
        ("$input.a.b_c", ("a", "b_c")),
        ("$input[3]", (3,)),
        ("$input.items[3].sku", ("items", 3, "sku")),
        ('$input["content-type"]', ("content-type",)),
        ('$input["a.b"]["[x]"]', ("a.b", "[x]")),
        ('$input["q\\"uote"]', ('q"uote',)),
        ('$input["\\u00e9"]', ("é",)),
        ("$input.données", ("données",)),
        ("input.a", None),
        ("$input.", None),
        ("$input..a", None),
        ("$input[x]", None),
        ("$input[3", None),
        ('$input["a"', None),
        ('$input["a]', None),
        ("$input[-1]", None),
        ("$inputs", None),
    ],
)
def test_parse_path(path: str, segments: tuple[Any, ...] | None) -> None:
    assert IssuePath.parse(path) == segments


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=6)
    | st.just(UNDEFINED),
    lambda children: (
        st.lists(children, max_size=15) | st.dictionaries(st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=30,
)
segment = st.text(alphabet='ab-. "[]', min_size=1, max_size=3).map(
    lambda k: f"[{json.dumps(k)}]"
) | st.sampled_from([".a", ".b", "[0]", "[1]", "[13]", "[x", "."])
paths = st.lists(segment, max_size=4).map(lambda parts: "$input" + "".join(parts)) | st.text(
    max_size=8
)
issues = st.builds(I, paths, st.text(max_size=10), json_values, st.none() | st.text(max_size=10))


@pytest.mark.budgeted
@settings(max_examples=scaled(50, 200), deadline=None)
@given(json_values, st.lists(issues, max_size=6))
def test_never_raises_and_every_issue_is_shown_once(
    data: Any, errors: list[ValidationIssue]
) -> None:
    text = feedback(ValidationFailure(data, errors))
    for issue in errors:
        mark = json.dumps({"path": issue.path, "expected": issue.expected}, ensure_ascii=False)[:-1]
        same = [e for e in errors if (e.path, e.expected) == (issue.path, issue.expected)]
        assert text.count(mark) == len(same)


@settings(max_examples=60, deadline=None)
@given(
    st.recursive(
        st.none() | st.integers() | st.text(max_size=300),
        lambda children: (
            st.lists(children, max_size=20)
            | st.dictionaries(st.text(max_size=5), children, max_size=20)
        ),
        max_leaves=400,
    ),
    st.lists(st.lists(st.integers(0, 25) | st.text(max_size=3), max_size=6), max_size=120),
)
def test_the_text_is_bounded_whatever_the_data_and_the_issues(
    data: Any, paths: list[list[Any]]
) -> None:
    issues = [
        ValidationIssue(
            "$input" + "".join(f"[{s}]" if isinstance(s, int) else f"[{json.dumps(s)}]" for s in p),
            "x" * 500,
            None,
            "d" * 500,
        )
        for p in paths
    ]
    failure = (
        ValidationFailure(data, issues)
        if issues
        else ValidationFailure(data, [I("$input", "y", data)])
    )
    text = feedback(failure)
    # 50 issues shown at most, each comment under ~1,000 characters, and a line budget
    assert len(text) < 200_000
    assert text.count("// ❌") <= 1 + 50  # the first sentence names the mark once


def test_remembered_shapes_keep_keys_that_equal_each_other_apart() -> None:
    """Containers without issues fill a template remembered per shape: keys ``1`` and
    ``True`` are equal (and so are their tuples) yet read otherwise, and a tuple is shown
    as an array like a list of the same size."""
    issue = [I("$input.x", "string", 1)]
    ones = feedback(ValidationFailure({"x": 1, "a": {1: "one"}, "b": (1, 2)}, issue))
    trues = feedback(ValidationFailure({"x": 1, "a": {True: "one"}, "b": [1, 2]}, issue))
    assert '    "1": "one"' in ones
    assert '    "True": "one"' in trues
    assert '  "b": [\n    1,\n    2\n  ]' in ones
    assert '  "b": [\n    1,\n    2\n  ]' in trues


def test_caches_keep_no_long_text_from_the_model() -> None:
    """What the feedback remembers between calls (heads, entries, marks, layouts, templates) is
    bounded by count; a key or path longer than a cut text is written each time, never
    kept, so a model's long keys do not stay alive after the call."""
    from llmapp.explain import _literals, _text

    long_key = "k" * 50_000
    data = {"x": 1, long_key: {long_key: 1}, "ok": {long_key: 2}}
    issues = [I("$input.x", "string", 1), I(f"$input[{json.dumps(long_key)}]", "undefined", {})]
    _text._LAYOUTS.clear()
    _text._MARKS.clear()
    _literals._ENTRIES.clear()
    _literals._key_text.cache_clear()
    _literals.head_of.__self__.clear()
    text = feedback(ValidationFailure(data, issues))
    assert text == feedback(ValidationFailure(data, issues))
    assert '"' + "k" * 100 in text  # the key is shown, cut
    assert not _text._LAYOUTS
    assert [path for path, _, _ in _literals._ENTRIES] == ["$input.x"]
    assert [path for path, _, _ in _text._MARKS] == ["$input.x"]
    assert _literals._key_text.cache_info().currsize == 2  # "x" and "ok"
    assert long_key not in _literals.head_of.__self__
    assert all(long_key not in shape for kept in _text._OBJECTS for shape in kept)
