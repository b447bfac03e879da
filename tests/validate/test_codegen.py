"""The generated code as an artefact: readable, registered in linecache, cached, errors at build time."""

from __future__ import annotations

import ast
import linecache
import traceback
from collections.abc import Callable
from typing import Any

import pytest

from llmapp import _errors
from llmapp.validate import SchemaError, Validator, validator

PERSON = {
    "title": "Person",
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "friends": {"type": "array", "items": {"$ref": "#/$defs/Friend"}},
    },
    "required": ["name"],
    "additionalProperties": False,
    "$defs": {"Friend": {"type": "object", "properties": {"name": {"type": "string"}}}},
}


def test_one_checker_and_one_walker_per_definition() -> None:
    check = validator(PERSON)
    functions = [
        node.name for node in ast.parse(check.source).body if isinstance(node, ast.FunctionDef)
    ]
    assert sorted(functions) == ["c_Friend", "c_root", "w_Friend", "w_root"]


def _calls(source: str, function: str) -> set[str]:
    """The names ``function`` of ``source`` calls."""
    tree = ast.parse(source)
    found = next(node for node in tree.body if getattr(node, "name", "") == function)
    return {
        node.func.id
        for node in ast.walk(found)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }


def test_array_items_of_a_leaf_definition_are_checked_in_the_loop() -> None:
    """No call per item: a definition holding no reference is written in the checker's
    loop; the walker still asks its checker before walking an item."""
    check = validator(PERSON)
    source = check.source
    assert "c_Friend" not in _calls(source, "c_root")
    assert "# item against '#/$defs/Friend', written in place" in source
    assert "c_Friend" in _calls(source, "w_root")
    failure = check({"name": "Ada", "friends": [{"name": "Bo"}, {"name": 3}, 4]})
    assert [(issue.path, issue.expected) for issue in failure.errors] == [
        ("$input.friends[1].name", "string"),
        ("$input.friends[2]", "Friend"),
    ]
    assert check({"name": "Ada", "friends": [{"name": "Bo"}, {}]}).success


def test_array_items_of_a_definition_with_references_are_called() -> None:
    """A definition reaching others (here itself) keeps its checker: written in place, a
    chain of them would grow the code with every link."""
    defs = {
        "Friend": {
            "type": "object",
            "properties": {"friends": {"type": "array", "items": {"$ref": "#/$defs/Friend"}}},
        }
    }
    source = validator({**PERSON, "$defs": defs}).source
    assert "c_Friend" in _calls(source, "c_root")


def test_the_source_is_in_linecache_under_a_readable_name() -> None:
    check = validator(PERSON)
    assert check.filename.startswith("<llmapp-validator-") and "Person" in check.filename
    source = check.source
    assert "".join(linecache.getlines(check.filename)) == source


SHOWN = {
    **PERSON,
    "properties": {
        **PERSON["properties"],
        "code": {"type": "string", "pattern": "^[A-Z]+$"},
        "kind": {"enum": ["a", "b"]},
        "pet": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/Friend"}]},
    },
}


def test_the_source_shows_what_every_global_it_uses_is() -> None:
    import builtins

    source = validator(SHOWN).source
    shown = {
        line.split("=")[0].strip("# ").strip()
        for line in source.splitlines()
        if line.startswith("#   ") and " = " in line
    }
    tree = ast.parse(source)
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    for function in tree.body:
        assert isinstance(function, ast.FunctionDef)
        local = {arg.arg for arg in function.args.args} | {
            node.id
            for node in ast.walk(function)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
        }
        for node in ast.walk(function):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                name = node.id
                if name not in local and name not in defined and not hasattr(builtins, name):
                    assert name in shown, f"{function.name} uses {name}, not shown"
    assert {"PATTERN", "ENUM", "UNION", "_Issue"} <= shown


def test_each_function_says_which_schema_location_it_checks() -> None:
    lines = validator(SHOWN).source.splitlines()
    headers = {}
    for index, line in enumerate(lines):
        if line.startswith("def "):
            above = index - 1
            while lines[above].startswith("#   "):
                above -= 1
            headers[line[4 : line.index("(")]] = lines[above]
    assert "'#/$defs/Friend'" in headers["c_Friend"] and "'#/$defs/Friend'" in headers["w_Friend"]
    assert "'#'" in headers["c_root"]
    assert all(header.startswith("# ") for header in headers.values())


def test_tracebacks_show_generated_lines() -> None:
    class Exploding(dict):  # type: ignore[type-arg]
        def items(self) -> Any:
            raise ValueError("boom")

    check = validator(PERSON)
    namespace_walk = check._walker()
    try:
        namespace_walk(Exploding(name="x", extra=1), "$input", [], 0)
    except ValueError:
        text = traceback.format_exc()
    else:
        pytest.fail("the walker did not call items()")
    assert check.filename in text and "for k" in text


def test_a_hostile_value_becomes_an_issue_not_an_exception() -> None:
    class Exploding(dict):  # type: ignore[type-arg]
        def items(self) -> Any:
            raise ValueError("boom")

    result = validator(PERSON)(Exploding(name="x", extra=1))
    assert not result.success
    assert result.errors[0].path == "$input"
    assert "ValueError" in (result.errors[0].description or "")


def test_validators_are_cached_by_canonical_schema() -> None:
    same = {"required": ["name"], "type": "object", "properties": {"name": {"type": "string"}}}
    other_order = {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
    }
    assert validator(same) is validator(other_order)
    assert validator(same) is not validator(same, max_depth=10)
    assert validator({"const": 1}) is not validator({"const": True})
    assert validator({"const": 1}) is not validator({"const": 1.0})


def test_the_schema_and_options_are_kept() -> None:
    check = validator(PERSON, max_depth=7)
    assert check.schema is PERSON or check.schema == PERSON
    assert check.max_depth == 7
    assert isinstance(check, Validator)
    assert "Validator" in repr(check)


def test_unhashable_schema_content_still_compiles() -> None:
    check = validator({"enum": [{1: 2}, "a"]})  # not JSON: no cache key, still a validator
    assert check("a").success


BAD_SCHEMAS = [
    ({"$ref": "#/$defs/Missing"}, [("#/$ref", "cannot resolve")]),
    ({"type": "strng"}, [("#/type", "unknown type 'strng'")]),
    (
        {"properties": {"a": {"pattern": "(?i)x"}, "b": {"minLength": -1}}},
        [
            ("#/properties/a/pattern", "'(?i)x' cannot be used"),
            ("#/properties/b/minLength", "must be a non-negative integer"),
        ],
    ),
    ({"anyOf": []}, [("#/anyOf", "must be a non-empty array")]),
    ({"type": "number", "multipleOf": 0}, [("#/multipleOf", "greater than 0")]),
    ({"minimum": "3"}, [("#/minimum", "must be a number")]),
    ({"$ref": "#"}, [("#", "never looks inside the value")]),
    (
        {"type": "object", "properties": [1], "required": "a", "items": 3},
        [
            ("#/properties", "must be an object"),
            ("#/items", "must be a schema"),
            ("#/required", "must be an array of property names"),
        ],
    ),
    (
        {"$defs": {"x~y/z": {"$ref": "#/$defs/nope"}}, "$ref": "#/$defs/x~0y~1z"},
        [("#/$defs/x~0y~1z/$ref", "cannot resolve")],
    ),
]


@pytest.mark.parametrize(("schema", "problems"), BAD_SCHEMAS)
def test_schema_errors_list_every_problem_with_its_pointer(
    schema: Any, problems: list[tuple[str, str]]
) -> None:
    with pytest.raises(SchemaError) as raised:
        validator(schema)
    found = [(p.location, p.reason) for p in raised.value.problems]
    assert len(found) == len(problems), found
    for (location, reason), (want_location, want_words) in zip(found, problems, strict=True):
        assert location == want_location
        assert want_words in reason
    assert isinstance(raised.value, _errors.LlmappError)
    assert str(len(problems)) in str(raised.value)


REFS = [
    # (schema, valid, invalid)
    ({"$defs": {"a b": {"type": "integer"}}, "$ref": "#/$defs/a%20b"}, 1, "x"),
    ({"$defs": {"a%b": {"type": "integer"}}, "$ref": "#/$defs/a%25b"}, 1, "x"),
    ({"definitions": {"n": {"type": "null"}}, "items": {"$ref": "#/definitions/n"}}, [None], [0]),
    (
        {
            "components": {"schemas": {"Pet": {"type": "string"}}},
            "$ref": "#/components/schemas/Pet",
        },
        "cat",
        1,
    ),
    (
        {
            "$id": "https://example.com/root.json",
            "$defs": {"A": {"$id": "a.json", "type": "string"}},
            "$ref": "a.json",
        },
        "s",
        1,
    ),
    ({"$defs": {"A": {"$anchor": "here", "type": "boolean"}}, "$ref": "#here"}, True, 1),
    (
        {
            "properties": {"a": {"type": "integer"}},
            "items": {"$ref": "#/properties/a"},
            "type": "array",
        },
        [1],
        ["1"],
    ),
    ({"prefixItems": [{"type": "string"}, {"$ref": "#/prefixItems/0"}]}, ["a", "b"], ["a", 1]),
]


@pytest.mark.parametrize(("schema", "valid", "invalid"), REFS)
def test_ref_resolution(compile: Callable[..., Any], schema: Any, valid: Any, invalid: Any) -> None:
    check = compile(schema)
    assert check(valid).success
    assert not check(invalid).success


def test_deeply_nested_inline_schemas_are_split_into_functions(compile: Callable[..., Any]) -> None:
    schema: dict[str, Any] = {"type": "integer"}
    for depth in range(40):
        schema = {"type": "object", "properties": {f"k{depth}": {"type": "array", "items": schema}}}
    check = compile(schema)
    ast.parse(check.source)
    value: Any = 1
    for depth in range(40):
        value = {f"k{depth}": [value]}
    assert check(value).success
    bad: Any = "x"
    for depth in range(40):
        bad = {f"k{depth}": [bad]}
    [issue] = check(bad).errors
    assert issue.path.endswith("[0]") and issue.path.count(".k") == 40
    assert issue.expected == "integer"


def test_a_chain_of_300_definitions_validates_to_its_end() -> None:
    defs: dict[str, Any] = {
        f"T{index}": {
            "type": "object",
            "properties": {"next": {"$ref": f"#/$defs/T{index + 1}"}, "v": {"type": "integer"}},
        }
        for index in range(300)
    }
    defs["T300"] = {"type": "string"}
    check = validator({"$defs": defs, "$ref": "#/$defs/T0"})
    assert check({"next": {"next": {"v": 1}}}).success
    chain: Any = "end"
    for _ in range(300):
        chain = {"next": chain, "v": 1}
    assert check(chain).success
    wrong: Any = 0
    for _ in range(300):
        wrong = {"next": wrong}
    [issue] = check(wrong).errors
    assert issue.path == "$input" + ".next" * 300 and issue.expected == "string"


def test_results_are_plain_result_objects() -> None:
    from llmapp.validate import ValidationFailure, ValidationIssue, ValidationSuccess

    check = validator({"type": "integer"})
    success = check(1)
    assert (
        type(success) is ValidationSuccess and success == ValidationSuccess(1) and success.success
    )
    failure = check("x")
    assert type(failure) is ValidationFailure and not failure.success
    assert failure == ValidationFailure("x", [ValidationIssue("$input", "integer", "x")])
    assert hash(failure.errors[0]) == hash(ValidationIssue("$input", "integer", "x"))
    with pytest.raises(AttributeError):
        failure.errors[0].path = "elsewhere"  # type: ignore[misc]


def test_items_pointing_at_a_definition_that_checks_nothing_compile() -> None:
    # The loop over the items held the note that the definition is written in place, and
    # nothing else: a body of comments alone, which Python refuses.
    schema = {
        "$id": "https://example.com/root",
        "$ref": "list",
        "$defs": {
            "list": {
                "$id": "list",
                "type": "array",
                "items": {"$dynamicRef": "#items"},
                "$defs": {"items": {"$comment": "anything", "$dynamicAnchor": "items"}},
            }
        },
    }
    check = validator(schema)
    assert check(["a", 1]).success
    assert check({}).errors[0].expected == "list"
