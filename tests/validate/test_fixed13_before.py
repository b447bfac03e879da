"""Issue 33's thirteenth round (a small refused call's fixed costs): issues that stay what
they were at 1ecdea5.

``_runtime.within`` keys the refusals it makes by the answers themselves (a ``Refusal`` is
hashed and compared by identity; a tuple's answers with their types beside them), not
by their ``id``s; ``_unions.pick`` reads a discriminator's tag in its own frame and writes
the tag's path only where an issue names it. Compared with 1ecdea5 in two processes, its ``src`` and this tree's, on every
corpus signature's texts and the records12 test's values (wrong values inside nested
records, records by ``$ref`` in unions, recursive ones), and on unions whose branches
answer a refusal beside ``False`` (a recursive branch) in every combination, picked by a
declared discriminator whose name is no identifier: tag missing, unknown, not a string,
a ``str`` subclass.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.support import before
from tests.support.corpora import values
from tests.validate.test_records12_before import _WRONG, _corpus_entries, _nested
from tests.validate.test_records12_before import _targeted_entries as _records_entries
from tests.validate.test_refused_inside_budgeted_before import judged_before_and_now

from llmapp.validate import validator
from llmapp.validate._runtime import WHOLE, Refusal, refusal_in, within

ROUND_START = "1ecdea5"
"""The commit before this round's changes to a refused call's fixed costs."""

_CARD = {
    "type": "object",
    "properties": {
        "the-kind": {"const": "card"},
        "n": {"type": "integer", "minimum": 0},
        "when": {"type": "string", "format": "date"},
    },
    "required": ["the-kind", "n"],
    "additionalProperties": False,
}

_SCHEMAS: list[Any] = [
    {
        "type": "object",
        "properties": {
            "pay": {
                "oneOf": [
                    {"$ref": "#/$defs/Card"},
                    {"$ref": "#/$defs/Tree"},
                    {"$ref": "#/$defs/Bank"},
                ],
                "discriminator": {"propertyName": "the-kind"},
            },
            "many": {
                "type": "array",
                "items": {"anyOf": [{"$ref": "#/$defs/Card"}, {"$ref": "#/$defs/Bank"}]},
            },
            "n": {"type": "integer"},
        },
        "required": ["pay"],
        "additionalProperties": False,
        "$defs": {
            "Card": _CARD,
            "Bank": {
                **_CARD,
                "properties": {**_CARD["properties"], "the-kind": {"const": "bank"}},
            },
            "Tree": {
                "type": "object",
                "properties": {
                    "the-kind": {"const": "tree"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
                },
                "required": ["the-kind", "kids"],
                "additionalProperties": False,
            },
        },
    },
]
"""A discriminated union of records by ``$ref``, one of them recursive (its checker
answers ``False``, the others a ``Refusal``), and a union of records in a list."""


class _Tag(str):
    """A ``str`` subclass as a tag: looked up as the text it holds."""


def _union_values() -> list[Any]:
    card = {"the-kind": "card", "n": 1, "when": "2024-01-31"}
    tree = {"the-kind": "tree", "kids": [{"the-kind": "tree", "kids": []}]}
    made: list[Any] = []
    for tag in ("card", "bank", "tree", "other", 3, None, True, _Tag("card"), _Tag("x")):
        for record in (card, tree):
            made.append({"pay": {**record, "the-kind": tag}})
            made.append({"pay": {**record, "the-kind": tag, "n": -1}})
            made.append({"pay": {**record, "the-kind": tag, "extra": 1}, "n": "x"})
    for record in (card, tree):
        made.append({"pay": {k: v for k, v in record.items() if k != "the-kind"}})
        made.extend({"pay": changed} for changed in _nested({"r": record}) if "r" not in changed)
        made.extend({"pay": {**record, key: wrong}} for key in record for wrong in _WRONG)
        made.append({"pay": card, "many": [record, {**record, "n": "x"}, 1, record]})
    made.append({"pay": {**tree, "kids": [{"the-kind": "tree", "kids": [1]}]}})
    return made


def _entries(rnd: random.Random) -> list[tuple[str, Any, list[Any]]]:
    found = _records_entries(rnd)
    for index, schema in enumerate(_SCHEMAS):
        made = _union_values()
        for _ in range(150):
            value = values.guided(schema, rnd)
            made.append(value)
            made.extend(values.mutations(value, rnd, 2))
        found.append((f"unions:{index}", schema, made))
    return found + _corpus_entries(rnd)


@pytest.mark.budgeted
def test_issues_are_1ecdea5s() -> None:
    before.require(ROUND_START)
    entries = _entries(random.Random(3314))
    old, new = judged_before_and_now(ROUND_START, entries)
    assert before.same_outcomes(old, new) > 5000


def test_within_tells_a_refusal_from_false_and_keeps_what_it_made() -> None:
    kept, inside = refusal_in(1), refusal_in(3)
    made = within(kept, (WHOLE, inside, False))
    assert made.inner == (WHOLE, inside, WHOLE) and made.inner[1] is inside
    assert within(kept, (WHOLE, inside, False)) is made
    other = within(kept, (WHOLE, False, inside))  # equal ``int``s, not the same answers
    assert other is not made and other.inner[1] is WHOLE and other.inner[2] is inside
    assert within(kept, inside).inner is inside and within(kept, False).inner is WHOLE
    assert within(kept, inside) is within(kept, inside)
    assert inside == 0 and inside == False and not inside  # noqa: E712 (an ``int`` still)
    assert inside != refusal_in(2) and len({inside, refusal_in(2), WHOLE}) == 3


def test_a_discriminated_union_names_the_tag_only_where_wrong() -> None:
    check = validator(_SCHEMAS[0])
    found = check({"pay": {"the-kind": "nope", "n": 1}}).errors
    assert [(issue.path, issue.value) for issue in found] == [('$input.pay["the-kind"]', "nope")]
    found = check({"pay": {"n": 1}}).errors
    assert [issue.path for issue in found] == ['$input.pay["the-kind"]']
    refused = check.valid({"pay": {"the-kind": "card", "n": -1}})
    assert type(refused) is Refusal
    assert [issue.path for issue in check({"pay": {"the-kind": "card", "n": -1}}).errors] == [
        "$input.pay.n"
    ]
