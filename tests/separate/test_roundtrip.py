"""Property: merging the two halves of a split value gives the value back, for many schemas.

Values are generated from each parameters schema. Leaves (strings, numbers, enums,
unions) come from hypothesis-jsonschema's ``from_schema``; objects, arrays and ``$ref``
are composed here, because hypothesis-jsonschema 0.23.1 fails on every object schema
with the installed hypothesis (``'many' object has no attribute 'more'``) and never
supported recursive references. Every generated value is checked against the schema
with ``jsonschema`` first, so the generator cannot drift from the schema.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from tests.separate.test_split import obj
from tests.support.budget import scaled

from llmapp.schema import HUMAN_KEYWORD, is_file, is_human, is_string
from llmapp.separate import merge_values, split_parameters, split_value

STRING = {"type": "string", "maxLength": 5}
INTEGER = {"type": "integer"}
PNG = {"type": "string", "contentMediaType": "image/png", "maxLength": 8}
SECRET = {"type": "string", HUMAN_KEYWORD: True, "maxLength": 5}
MAX_DEPTH = 3


def array(items: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": "array", "items": items, "maxItems": 3, **extra}


def ref(name: str, **siblings: Any) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{name}", **siblings}


def values(parameters: Mapping[str, Any]) -> st.SearchStrategy[Any]:
    """Values of ``parameters``; recursion through ``$defs`` stops after MAX_DEPTH refs."""
    defs = parameters.get("$defs", {})

    def of(schema: Mapping[str, Any], depth: int) -> st.SearchStrategy[Any]:
        if "$ref" in schema:
            target = defs[schema["$ref"].removeprefix("#/$defs/")]
            return st.deferred(lambda: of(target, depth + 1))
        if "anyOf" in schema:
            return st.one_of([of(branch, depth) for branch in schema["anyOf"]])
        if schema.get("type") == "object":
            return objects(schema, depth)
        if schema.get("type") == "array" and "items" in schema:
            longest = schema.get("maxItems", 3) if depth < MAX_DEPTH else 0
            return st.lists(
                of(schema["items"], depth), min_size=schema.get("minItems", 0), max_size=longest
            )
        return from_schema(dict(schema))

    def objects(schema: Mapping[str, Any], depth: int) -> st.SearchStrategy[Any]:
        properties = schema.get("properties", {})
        required = [key for key in schema.get("required", []) if key in properties]
        optional = [key for key in properties if key not in required] if depth < MAX_DEPTH else []
        fixed = st.fixed_dictionaries(
            {key: of(properties[key], depth) for key in required},
            optional={key: of(properties[key], depth) for key in optional},
        )
        extra = schema.get("additionalProperties")
        if not isinstance(extra, Mapping) or depth >= MAX_DEPTH:
            return fixed
        names = st.text("xyz", min_size=1, max_size=3).filter(lambda name: name not in properties)
        more = st.dictionaries(names, of(extra, depth), max_size=2)
        return st.tuples(fixed, more).map(lambda pair: {**pair[1], **pair[0]})

    return of(parameters, 0)


def is_human_or_file(schema: Mapping[str, Any]) -> bool:
    return is_human(schema) or is_file(schema)


Case = tuple[str, dict[str, Any], Callable[[Mapping[str, Any]], bool]]

FOLDER = obj(
    {"name": STRING, "icon": PNG, "children": array(ref("Folder"))}, required=["name", "children"]
)
CASES: list[Case] = [
    (
        "flat with a file",
        obj({"to": STRING, "attachment": PNG, "note": STRING}, required=["to", "attachment"]),
        is_file,
    ),
    (
        "nested objects",
        obj(
            {
                "id": INTEGER,
                "profile": obj({"name": STRING, "avatar": PNG, "bio": STRING}, required=["avatar"]),
            }
        ),
        is_file,
    ),
    (
        "array of objects with a secret",
        obj({"accounts": array(obj({"login": STRING, "password": SECRET}))}),
        is_human,
    ),
    (
        "defs split and shared",
        {
            **obj(
                {"doc": ref("Doc"), "home": ref("Address"), "docs": array(ref("Doc"))},
                required=["doc"],
            ),
            "$defs": {
                "Doc": obj({"name": STRING, "content": PNG}),
                "Address": obj({"city": STRING}),
            },
        },
        is_file,
    ),
    ("recursive def", {**obj({"root": ref("Folder")}), "$defs": {"Folder": FOLDER}}, is_file),
    (
        "mutually recursive defs",
        {
            **obj({"start": ref("A")}),
            "$defs": {
                "A": obj({"x": INTEGER, "b": ref("B")}, required=["x"]),
                "B": obj({"file": PNG, "a": ref("A")}, required=["file"]),
            },
        },
        is_file,
    ),
    (
        "additionalProperties schemas",
        obj(
            {
                "gallery": {
                    "type": "object",
                    "additionalProperties": obj({"caption": STRING, "image": PNG}),
                },
                "headers": {
                    "type": "object",
                    "properties": {"lang": STRING},
                    "additionalProperties": SECRET,
                },
            },
            required=[],
        ),
        is_human_or_file,
    ),
    (
        "unions left whole",
        obj(
            {
                "maybe": {"anyOf": [obj({"f": PNG}), {"type": "null"}]},
                "photo": {"anyOf": [PNG, {"type": "null"}], HUMAN_KEYWORD: True},
            }
        ),
        is_human_or_file,
    ),
    (
        "every string",
        obj({"n": INTEGER, "s": STRING, "inner": obj({"t": STRING, "m": {"type": "boolean"}})}),
        is_string,
    ),
    ("nothing human", obj({"n": INTEGER, "s": STRING}), is_file),
    ("everything human", obj({"a": PNG, "b": array(PNG)}, required=["a"]), is_file),
]


@pytest.mark.budgeted
@pytest.mark.parametrize(
    ("name", "parameters", "predicate"), CASES, ids=[case[0] for case in CASES]
)
def test_merge_of_split_value_is_the_value(
    name: str, parameters: dict[str, Any], predicate: Any
) -> None:
    llm_schema, human_schema = split_parameters(parameters, predicate)
    check = jsonschema.Draft202012Validator(parameters)

    @settings(
        max_examples=scaled(30, 60), deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )
    @given(values(parameters))
    def round_trip(value: Any) -> None:
        check.validate(value)
        before = copy.deepcopy(value)
        llm, human = split_value(value, parameters, predicate)
        assert value == before
        assert merge_values(llm, human) == value
        # Each half is valid against its half of the schema.
        jsonschema.validate(llm, llm_schema, cls=jsonschema.Draft202012Validator)
        if human_schema is None:
            assert human is None
        else:
            jsonschema.validate(human, human_schema, cls=jsonschema.Draft202012Validator)

    round_trip()
