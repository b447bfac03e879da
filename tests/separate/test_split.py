"""split_parameters: whole-structure comparisons of the LLM and human halves."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from llmapp.schema import HUMAN_KEYWORD, is_file, is_human, is_string
from llmapp.separate import split_parameters

EMPTY = {"type": "object", "properties": {}, "required": [], "additionalProperties": False}
STRING = {"type": "string"}
INTEGER = {"type": "integer"}
PNG = {"type": "string", "contentMediaType": "image/png"}
SECRET = {"type": "string", HUMAN_KEYWORD: True}


def obj(
    properties: dict[str, Any], required: list[str] | None = None, **extra: Any
) -> dict[str, Any]:
    """A closed object schema; every property required unless told otherwise."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
        **extra,
    }


def array(items: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": items, **extra}


def ref(name: str, **siblings: Any) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}", **siblings}


def test_flat_object_with_a_file_parameter() -> None:
    parameters = obj(
        {"to": STRING, "attachment": PNG, "note": STRING}, required=["to", "attachment"]
    )
    llm, human = split_parameters(parameters, is_file)
    assert llm == obj({"to": STRING, "note": STRING}, required=["to"])
    assert human == obj({"attachment": PNG})


def test_nested_objects_split_on_both_sides() -> None:
    profile = obj({"name": STRING, "avatar": PNG, "bio": STRING}, required=["name", "avatar"])
    parameters = obj({"id": INTEGER, "profile": profile})
    llm, human = split_parameters(parameters, is_file)
    assert llm == obj(
        {"id": INTEGER, "profile": obj({"name": STRING, "bio": STRING}, required=["name"])}
    )
    assert human == obj({"profile": obj({"avatar": PNG})})


def test_required_kept_per_side_even_when_optional_parts_differ() -> None:
    # name is optional, avatar required: profile itself stays required on both sides.
    profile = obj({"name": STRING, "avatar": PNG}, required=["avatar"])
    parameters = obj({"profile": profile})
    llm, human = split_parameters(parameters, is_file)
    assert llm == obj({"profile": obj({"name": STRING}, required=[])})
    assert human == obj({"profile": obj({"avatar": PNG})})


def test_array_of_objects_with_a_secret_field() -> None:
    account = obj({"login": STRING, "password": SECRET})
    parameters = obj(
        {"accounts": array(account, minItems=1, maxItems=5, uniqueItems=True, description="all")}
    )
    llm, human = split_parameters(parameters, is_human)
    # Lengths agree on both sides, so min/maxItems stay; uniqueness of a half means nothing.
    assert llm == obj(
        {"accounts": array(obj({"login": STRING}), minItems=1, maxItems=5, description="all")}
    )
    assert human == obj(
        {"accounts": array(obj({"password": SECRET}), minItems=1, maxItems=5, description="all")}
    )


def test_array_of_wholly_human_items_goes_whole_to_the_human() -> None:
    parameters = obj({"title": STRING, "images": array(PNG)})
    llm, human = split_parameters(parameters, is_file)
    assert llm == obj({"title": STRING})
    assert human == obj({"images": array(PNG)})


def test_split_defs_become_llm_and_human_defs_and_the_rest_stay_shared() -> None:
    document = obj({"name": STRING, "content": PNG})
    address = obj({"city": STRING})
    parameters = {
        **obj({"doc": ref("Document", description="The file."), "home": ref("Address")}),
        "$defs": {"Document": document, "Address": address, "Unused": obj({"x": INTEGER})},
    }
    llm, human = split_parameters(parameters, is_file)
    assert llm == {
        **obj({"doc": ref("Document.Llm", description="The file."), "home": ref("Address")}),
        "$defs": {"Address": address, "Document.Llm": obj({"name": STRING})},
    }
    assert human == {
        **obj({"doc": ref("Document.Human", description="The file.")}),
        "$defs": {"Document.Human": obj({"content": PNG})},
    }


def test_a_def_used_on_both_sides_is_copied_into_each() -> None:
    tag = obj({"label": STRING})
    item = obj({"tag": ref("Tag"), "key": SECRET})
    extra = {"anyOf": [ref("Tag"), {"type": "null"}], HUMAN_KEYWORD: True}
    parameters = {**obj({"item": ref("Item"), "extra": extra}), "$defs": {"Tag": tag, "Item": item}}
    llm, human = split_parameters(parameters, is_human)
    assert llm == {
        **obj({"item": ref("Item.Llm")}),
        "$defs": {"Tag": tag, "Item.Llm": obj({"tag": ref("Tag")})},
    }
    assert human == {
        **obj({"item": ref("Item.Human"), "extra": extra}),
        "$defs": {"Tag": tag, "Item.Human": obj({"key": SECRET})},
    }
    assert human["$defs"]["Tag"] is not llm["$defs"]["Tag"]


def test_predicate_about_references_counts_before_the_def() -> None:
    tag = obj({"label": STRING})
    item = obj({"tag": ref("Tag"), "scan": PNG})
    parameters = {
        **obj({"item": ref("Item"), "tags": array(ref("Tag"))}),
        "$defs": {"Tag": tag, "Item": item},
    }
    predicate = lambda schema: is_file(schema) or schema.get("$ref") == "#/$defs/Tag"  # noqa: E731
    llm, human = split_parameters(parameters, predicate)
    # Item holds a Tag (human by the predicate on the reference) and a scan: all human.
    assert llm == EMPTY
    assert human == parameters


def test_a_def_that_is_wholly_human_keeps_its_name_on_the_human_side() -> None:
    upload = {"type": "string", "format": "binary"}
    parameters = {
        **obj({"q": STRING, "file": ref("Upload", title="File")}),
        "$defs": {"Upload": upload},
    }
    llm, human = split_parameters(parameters, is_file)
    assert llm == obj({"q": STRING})
    assert human == {**obj({"file": ref("Upload", title="File")}), "$defs": {"Upload": upload}}


def test_marker_on_the_referencing_property_sends_the_whole_reference_to_the_human() -> None:
    card = obj({"number": STRING, "holder": STRING})
    parameters = {
        **obj({"amount": INTEGER, "card": ref("Card", **{HUMAN_KEYWORD: True})}),
        "$defs": {"Card": card},
    }
    llm, human = split_parameters(parameters, is_human)
    assert llm == obj({"amount": INTEGER})
    assert human == {**obj({"card": ref("Card", **{HUMAN_KEYWORD: True})}), "$defs": {"Card": card}}


def test_recursive_def_split_in_two_recursive_defs() -> None:
    folder = obj(
        {"name": STRING, "icon": PNG, "children": array(ref("Folder"))},
        required=["name", "children"],
    )
    parameters = {**obj({"root": ref("Folder")}), "$defs": {"Folder": folder}}
    llm, human = split_parameters(parameters, is_file)
    assert llm == {
        **obj({"root": ref("Folder.Llm")}),
        "$defs": {
            "Folder.Llm": obj({"name": STRING, "children": array(ref("Folder.Llm"))}),
        },
    }
    assert human == {
        **obj({"root": ref("Folder.Human")}),
        "$defs": {
            "Folder.Human": obj(
                {"icon": PNG, "children": array(ref("Folder.Human"))}, required=["children"]
            ),
        },
    }


def test_recursive_def_without_any_llm_leaf_is_wholly_human() -> None:
    # Every leaf of Album is a picture: the human composes the whole tree.
    album = obj({"cover": PNG, "albums": array(ref("Album"))})
    parameters = {**obj({"title": STRING, "album": ref("Album")}), "$defs": {"Album": album}}
    llm, human = split_parameters(parameters, is_file)
    assert llm == obj({"title": STRING})
    assert human == {**obj({"album": ref("Album")}), "$defs": {"Album": album}}


def test_mutually_recursive_defs() -> None:
    a = obj({"x": INTEGER, "b": ref("B")}, required=["x"])
    b = obj({"file": PNG, "a": ref("A")}, required=["file"])
    parameters = {**obj({"start": ref("A")}), "$defs": {"A": a, "B": b}}
    llm, human = split_parameters(parameters, is_file)
    assert llm == {
        **obj({"start": ref("A.Llm")}),
        "$defs": {
            "A.Llm": obj({"x": INTEGER, "b": ref("B.Llm")}, required=["x"]),
            "B.Llm": obj({"a": ref("A.Llm")}, required=[]),
        },
    }
    assert human == {
        **obj({"start": ref("A.Human")}),
        "$defs": {
            "A.Human": obj({"b": ref("B.Human")}, required=[]),
            "B.Human": obj({"file": PNG, "a": ref("A.Human")}, required=["file"]),
        },
    }


def test_self_referencing_def_with_nothing_human_stays_with_the_llm() -> None:
    node = {"type": "object", "properties": {"next": ref("Node")}}
    parameters = {**obj({"head": ref("Node")}), "$defs": {"Node": node}}
    llm, human = split_parameters(parameters, is_file)
    assert llm == parameters
    assert human is None


def test_additional_properties_schema_is_split() -> None:
    entry = obj({"caption": STRING, "image": PNG})
    parameters = obj(
        {"gallery": {"type": "object", "additionalProperties": entry, "minProperties": 1}}
    )
    llm, human = split_parameters(parameters, is_file)
    assert llm == obj(
        {"gallery": {"type": "object", "additionalProperties": obj({"caption": STRING})}}
    )
    assert human == obj(
        {"gallery": {"type": "object", "additionalProperties": obj({"image": PNG})}}
    )


def test_object_with_properties_and_human_additional_properties() -> None:
    headers = {
        "type": "object",
        "properties": {"lang": STRING},
        "required": [],
        "additionalProperties": SECRET,
    }
    parameters = obj({"headers": headers})
    llm, human = split_parameters(parameters, is_human)
    assert llm == obj({"headers": {**headers, "additionalProperties": False}})
    assert human == obj(
        {
            "headers": {
                "type": "object",
                "properties": {},
                "required": [],
                "additionalProperties": SECRET,
            }
        }
    )


def test_open_object_keeps_its_openness_on_the_llm_side_only() -> None:
    open_object = {"type": "object", "properties": {"a": STRING, "key": SECRET}}
    parameters = obj({"settings": open_object})
    llm, human = split_parameters(parameters, is_human)
    assert llm == obj({"settings": {"type": "object", "properties": {"a": STRING}}})
    assert human == obj(
        {
            "settings": {
                "type": "object",
                "properties": {"key": SECRET},
                "additionalProperties": False,
            }
        }
    )


def test_open_object_whose_declared_properties_are_all_human_goes_whole() -> None:
    parameters = obj({"q": STRING, "auth": {"type": "object", "properties": {"key": SECRET}}})
    llm, human = split_parameters(parameters, is_human)
    assert llm == obj({"q": STRING})
    assert human == obj({"auth": {"type": "object", "properties": {"key": SECRET}}})


@pytest.mark.parametrize(
    "union",
    [
        {"anyOf": [obj({"name": STRING, "file": PNG}), INTEGER]},
        {"oneOf": [PNG, STRING]},
        {"type": ["object", "null"], "properties": {"file": PNG}},
        {"type": "object", "nullable": True, "properties": {"file": PNG}},
        {"type": "array", "prefixItems": [PNG, STRING], "minItems": 2, "maxItems": 2},
        {},
    ],
)
def test_unions_tuples_and_unknown_go_whole_to_the_llm_when_not_asked_for(
    union: dict[str, Any],
) -> None:
    parameters = obj({"value": union})
    llm, human = split_parameters(parameters, is_file)
    assert llm == parameters
    assert human is None


def test_a_nullable_file_is_a_file_and_goes_whole_to_the_human() -> None:
    nullable = {"anyOf": [PNG, {"type": "null"}]}
    parameters = obj({"q": STRING, "photo": nullable}, required=["q"])
    llm, human = split_parameters(parameters, is_file)
    assert llm == obj({"q": STRING})
    assert human == obj({"photo": nullable}, required=[])


def test_a_union_marked_human_goes_whole_to_the_human() -> None:
    nullable = {"anyOf": [PNG, {"type": "null"}], HUMAN_KEYWORD: True, "default": None}
    parameters = obj({"q": STRING, "photo": nullable}, required=["q"])
    llm, human = split_parameters(parameters, is_human)
    assert llm == obj({"q": STRING})
    assert human == obj({"photo": nullable}, required=[])


def test_nothing_human_gives_none_and_an_llm_copy() -> None:
    parameters = {**obj({"a": STRING, "b": ref("B")}), "$defs": {"B": obj({"c": INTEGER})}}
    llm, human = split_parameters(parameters, is_file)
    assert llm == parameters
    assert llm is not parameters and llm["$defs"] is not parameters["$defs"]
    assert human is None


def test_everything_human_gives_an_empty_llm_object() -> None:
    parameters = {**obj({"a": PNG, "b": ref("B")}), "description": "x", "$defs": {"B": array(PNG)}}
    llm, human = split_parameters(parameters, is_file)
    assert llm == EMPTY
    assert human == parameters


def test_predicate_true_for_the_root_sends_everything_to_the_human() -> None:
    parameters = obj({"a": STRING})
    llm, human = split_parameters(parameters, lambda schema: True)
    assert llm == EMPTY
    assert human == parameters


def test_empty_parameters() -> None:
    llm, human = split_parameters(EMPTY, is_file)
    assert llm == EMPTY
    assert human is None


def test_is_string_predicate_splits_every_string() -> None:
    parameters = obj(
        {"n": INTEGER, "s": STRING, "inner": obj({"t": STRING, "m": {"type": "number"}})}
    )
    llm, human = split_parameters(parameters, is_string)
    assert llm == obj({"n": INTEGER, "inner": obj({"m": {"type": "number"}})})
    assert human == obj({"s": STRING, "inner": obj({"t": STRING})})


def test_defaults_and_examples_of_a_split_node_are_split() -> None:
    profile = obj(
        {"name": STRING, "key": SECRET},
        default={"name": "anon", "key": "k0"},
        examples=[{"name": "ann", "key": "k1"}],
    )
    parameters = obj({"profile": profile}, required=[])
    llm, human = split_parameters(parameters, is_human)
    assert llm == obj(
        {"profile": obj({"name": STRING}, default={"name": "anon"}, examples=[{"name": "ann"}])},
        required=[],
    )
    assert human == obj(
        {"profile": obj({"key": SECRET}, default={"key": "k0"}, examples=[{"key": "k1"}])},
        required=[],
    )


def test_split_def_names_avoid_names_already_taken() -> None:
    parameters = {
        **obj({"a": ref("A"), "b": ref("A.Llm")}),
        "$defs": {"A": obj({"x": STRING, "f": PNG}), "A.Llm": obj({"y": INTEGER})},
    }
    llm, human = split_parameters(parameters, is_file)
    assert llm["properties"] == {"a": ref("A.Llm2"), "b": ref("A.Llm")}
    assert llm["$defs"] == {"A.Llm2": obj({"x": STRING}), "A.Llm": obj({"y": INTEGER})}
    assert human is not None
    assert human["$defs"] == {"A.Human": obj({"f": PNG})}


def test_names_needing_json_pointer_escapes() -> None:
    parameters = {
        **obj({"a": {"$ref": "#/$defs/a~1b"}}),
        "$defs": {"a/b": obj({"x": STRING, "f": PNG})},
    }
    llm, human = split_parameters(parameters, is_file)
    assert llm == {
        **obj({"a": {"$ref": "#/$defs/a~1b.Llm"}}),
        "$defs": {"a/b.Llm": obj({"x": STRING})},
    }
    assert human == {
        **obj({"a": {"$ref": "#/$defs/a~1b.Human"}}),
        "$defs": {"a/b.Human": obj({"f": PNG})},
    }


def test_the_predicate_sees_the_reference_with_siblings_and_each_def_once() -> None:
    seen: list[str] = []

    def predicate(schema: Any) -> bool:
        seen.append(json.dumps(schema, sort_keys=True))
        return is_file(schema)

    doc = obj({"name": STRING, "data": PNG})
    parameters = {
        **obj({"a": ref("Doc", description="first"), "b": ref("Doc")}),
        "$defs": {"Doc": doc},
    }
    split_parameters(parameters, predicate)
    assert json.dumps(ref("Doc", description="first"), sort_keys=True) in seen
    assert json.dumps(ref("Doc"), sort_keys=True) in seen
    assert seen.count(json.dumps(doc, sort_keys=True)) == 1
    assert len(seen) == len(set(seen))


def test_the_input_is_never_mutated_and_results_share_nothing_with_it() -> None:
    folder = obj({"name": STRING, "icon": PNG, "children": array(ref("Folder"))})
    parameters = {
        **obj({"root": ref("Folder"), "tags": array(STRING)}),
        "$defs": {"Folder": folder},
    }
    before = copy.deepcopy(parameters)
    llm, human = split_parameters(parameters, is_file)
    assert parameters == before
    assert human is not None
    llm["properties"]["tags"]["items"]["type"] = "integer"
    human["$defs"]["Folder.Human"]["properties"]["icon"]["type"] = "integer"
    assert parameters == before


def test_deterministic() -> None:
    folder = obj({"name": STRING, "icon": PNG, "children": array(ref("Folder"))})
    parameters = {
        **obj({"root": ref("Folder"), "x": ref("X")}),
        "$defs": {"X": obj({"f": PNG, "g": STRING}), "Folder": folder},
    }
    first = json.dumps(split_parameters(parameters, is_file))
    assert all(json.dumps(split_parameters(parameters, is_file)) == first for _ in range(3))


def test_a_long_chain_of_defs_costs_no_stack_depth() -> None:
    # Each def refers to the next; only the last holds a file. Splitting recursively
    # through the chain would exceed Python's recursion limit.
    count = 1500
    defs = {
        f"D{i}": obj({"name": STRING, "next": ref(f"D{i + 1}")}, required=["name"])
        for i in range(count - 1)
    }
    defs[f"D{count - 1}"] = obj({"name": STRING, "file": PNG})
    parameters = {**obj({"head": ref("D0")}), "$defs": defs}
    llm, human = split_parameters(parameters, is_file)
    assert human is not None
    assert len(llm["$defs"]) == len(human["$defs"]) == count
    assert llm["$defs"]["D0.Llm"] == obj({"name": STRING, "next": ref("D1.Llm")}, required=["name"])
    assert human["$defs"]["D0.Human"] == obj({"next": ref("D1.Human")}, required=[])
    assert human["$defs"][f"D{count - 1}.Human"] == obj({"file": PNG})
