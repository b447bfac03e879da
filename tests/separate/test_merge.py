"""merge_values: objects key by key, arrays element by element, the human wins at leaves."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmapp.separate import merge_values


@pytest.mark.parametrize(
    ("llm", "human", "merged"),
    [
        # objects merge key by key, recursively
        ({"a": 1}, {"b": 2}, {"a": 1, "b": 2}),
        (
            {"p": {"name": "ann"}},
            {"p": {"avatar": "QQ=="}},
            {"p": {"name": "ann", "avatar": "QQ=="}},
        ),
        ({"a": {"b": {"c": 1}}}, {"a": {"b": {"d": 2}}}, {"a": {"b": {"c": 1, "d": 2}}}),
        # arrays merge element by element, to the longer length; never index-keyed objects
        ([{"a": 1}, {"a": 2}], [{"b": 1}, {"b": 2}], [{"a": 1, "b": 1}, {"a": 2, "b": 2}]),
        ([{"a": 1}, {"a": 2}, {"a": 3}], [{"b": 1}], [{"a": 1, "b": 1}, {"a": 2}, {"a": 3}]),
        ([{"a": 1}], [{"b": 1}, {"b": 2}], [{"a": 1, "b": 1}, {"b": 2}]),
        ([], [1, 2], [1, 2]),
        ({"xs": [[1], [2]]}, {"xs": [[None, 5]]}, {"xs": [[1, 5], [2]]}),
        # the human wins at leaves and on shape conflicts
        ({"a": 1}, {"a": 2}, {"a": 2}),
        ("llm", "human", "human"),
        ({"a": [1]}, {"a": {"0": 2}}, {"a": {"0": 2}}),
        ({"a": {"b": 1}}, {"a": "flat"}, {"a": "flat"}),
        ([1, 2], (3,), [3, 2]),
        # None from the human: nothing given on that side
        ({"a": 1}, None, {"a": 1}),
        (None, None, None),
        ({"a": 1}, {"a": None}, {"a": 1}),
        ({}, {"a": None}, {"a": None}),
        # None from the LLM: the model chose null (Optional[X] split in two), it stays null
        (None, {"a": 1}, None),
        ({"a": None}, {"a": {"owner": "u1"}}, {"a": None}),
        ([1, None], [None, 2], [1, None]),
        # falsy values are values
        ({"a": 1}, {"a": 0}, {"a": 0}),
        ({"a": True}, {"a": False}, {"a": False}),
        ({"a": "x"}, {"a": ""}, {"a": ""}),
        ({"a": [1]}, {"a": []}, {"a": [1]}),
    ],
)
def test_merge(llm: Any, human: Any, merged: Any) -> None:
    assert merge_values(llm, human) == merged


def test_key_order_llm_first_then_new_human_keys() -> None:
    merged = merge_values({"b": 1, "a": {"y": 1}}, {"c": 3, "a": {"x": 2}})
    assert list(merged) == ["b", "a", "c"]
    assert list(merged["a"]) == ["y", "x"]


def test_inputs_never_mutated_and_result_shares_nothing() -> None:
    llm = {"a": {"b": [1, {"c": 2}]}, "only_llm": {"k": [1]}}
    human = {"a": {"d": 3}, "only_human": [{"e": 4}]}
    llm_before, human_before = copy.deepcopy(llm), copy.deepcopy(human)
    merged = merge_values(llm, human)
    assert llm == llm_before and human == human_before
    merged["a"]["b"][1]["c"] = 99
    merged["only_llm"]["k"].append(2)
    merged["only_human"][0]["e"] = 99
    assert llm == llm_before and human == human_before


def test_tuples_and_mappings_come_back_as_lists_and_dicts() -> None:
    from types import MappingProxyType

    merged = merge_values(MappingProxyType({"t": (1, 2)}), {"u": (3,)})
    assert merged == {"t": [1, 2], "u": [3]}
    assert type(merged) is dict and type(merged["t"]) is list and type(merged["u"]) is list


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(JSON, JSON)
def test_merge_never_mutates_and_keeps_every_key(llm: Any, human: Any) -> None:
    llm_before, human_before = copy.deepcopy(llm), copy.deepcopy(human)
    merged = merge_values(llm, human)
    assert llm == llm_before and human == human_before
    if isinstance(llm, dict) and isinstance(human, dict):
        assert set(merged) == set(llm) | set(human)
    if isinstance(llm, list) and isinstance(human, list):
        assert len(merged) == max(len(llm), len(human))


@given(JSON)
def test_merging_with_nothing_or_itself_gives_the_value(value: Any) -> None:
    assert merge_values(value, None) == value
    assert merge_values(None, value) is None  # the model's null stays null
    assert merge_values(value, value) == value


def test_with_the_halves_schemas_a_split_key_the_model_left_out_is_its_null() -> None:
    """``card: Optional[Card]``, Card split: the model's half is ``label``, the human's
    ``number`` (through references and the Optional wrapper, as ``split_parameters`` writes)."""
    from llmapp.separate import split_parameters

    parameters = {
        "type": "object",
        "properties": {
            "cart": {"type": "string"},
            "card": {"anyOf": [{"$ref": "#/$defs/Card"}, {"type": "null"}], "default": None},
            "token": {"type": "string", "x-llmapp-human": True},
        },
        "required": ["cart", "token"],
        "additionalProperties": False,
        "$defs": {
            "Card": {
                "type": "object",
                "properties": {
                    "label": {"type": "string"},
                    "number": {"type": "string", "x-llmapp-human": True},
                },
                "required": ["label", "number"],
                "additionalProperties": False,
            }
        },
    }
    sides = split_parameters(parameters, lambda schema: bool(schema.get("x-llmapp-human")))
    human = {"card": {"number": "4111"}, "token": "t"}
    # left out: the human's half of card is dropped; the wholly human token is taken
    assert merge_values({"cart": "c"}, human, sides) == {"cart": "c", "token": "t"}
    assert merge_values({"cart": "c", "card": None}, human, sides) == {
        "cart": "c",
        "card": None,
        "token": "t",
    }
    given = {"cart": "c", "card": {"label": "visa"}}
    assert merge_values(given, human, sides)["card"] == {"label": "visa", "number": "4111"}
    # without the schemas, every human key is taken, as before
    assert merge_values({"cart": "c"}, human)["card"] == {"number": "4111"}
