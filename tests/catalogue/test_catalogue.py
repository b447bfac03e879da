"""The issue-2 case catalogue: one application class per type shape, through the public API.

Each module under ``shapes/`` mirrors one of typia's test structures as Python
types and holds an ``@llm_application`` class with three methods over that
shape ``T``::

    insert(first: T) -> None
    reduce(first: T, second: T | None) -> T
    coalesce(first: T | None, second: T | None, third: T | None = None) -> T | None

and the data the tests need:

- ``APPLICATION``: the class;
- ``SAMPLE``: a valid JSON value of ``T`` (``ALSO_VALID``: more of them, optional);
- ``SPOILERS``: ``(keys, replacement, [(path, expected), ...])`` rows, typia's
  spoilers as data: the value at ``keys`` inside ``SAMPLE`` is replaced (``...``
  removes the key) and validation must fail at exactly those paths, written
  from ``$input`` as if ``T`` were the whole input;
- ``HIDDEN`` (optional): ``{type name: [members that must not be properties]}``;
- ``check_python(value)`` (optional): asserts what the method receives for ``SAMPLE``.

The functions are compared, byte for byte, with ``snapshots/<shape>.json``
(default config), ``<shape>.reference_false.json`` and ``<shape>.strict.json``
(or ``<shape>.strict.txt``, the error text, when strict mode cannot express the
shape). Regenerate with ``LLMAPP_UPDATE_SNAPSHOTS=1`` and review every change.

Known bugs of ``src/`` are listed in ``KNOWN_BUGS`` and marked ``xfail(strict=True)``:
the test says what is right, and starts failing (XPASS) once the bug is fixed,
so the marker is removed together with the fix.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import sys
import typing
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any, Union

import pytest
import typing_extensions

import llmapp
from llmapp import LlmApplication, LlmApplicationError

HERE = Path(__file__).parent
SHAPES_DIR = HERE / "shapes"
SNAPSHOTS = HERE / "snapshots"
UPDATE = os.environ.get("LLMAPP_UPDATE_SNAPSHOTS") == "1"
METHODS = ("insert", "reduce", "coalesce")
VARIANTS: dict[str, dict[str, Any]] = {
    "default": {},
    "reference_false": {"reference": False},
    "strict": {"strict": True},
}


def _load(name: str) -> ModuleType:
    module_name = f"llmapp_catalogue_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, SHAPES_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and annotations resolve through it
    spec.loader.exec_module(module)
    return module


SHAPES = sorted(path.stem for path in SHAPES_DIR.glob("*.py") if not path.stem.startswith("_"))
MODULES = {name: _load(name) for name in SHAPES}
SPOILED = [
    pytest.param(name, index, id=f"{name}-{index}")
    for name in SHAPES
    for index in range(len(MODULES[name].SPOILERS))
]


def build(shape: str, variant: str = "default") -> LlmApplication:
    return llmapp.application(MODULES[shape].APPLICATION, **VARIANTS[variant])


def render(shape: str, variant: str) -> tuple[str, str]:
    """The snapshot file name and its text for one shape under one configuration."""
    stem = shape if variant == "default" else f"{shape}.{variant}"
    try:
        app = build(shape, variant)
    except LlmApplicationError as error:
        return f"{stem}.txt", str(error) + "\n"
    functions = [function.to_dict() for function in app.functions]
    return f"{stem}.json", json.dumps(functions, indent=2, ensure_ascii=False) + "\n"


# -- snapshots ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("shape", SHAPES)
def test_snapshot(shape: str, variant: str) -> None:
    name, text = render(shape, variant)
    path = SNAPSHOTS / name
    if UPDATE:
        for stale in (path.with_suffix(".json"), path.with_suffix(".txt")):
            stale.unlink(missing_ok=True)  # a strict snapshot may change from one to the other
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no snapshot {name}: run with LLMAPP_UPDATE_SNAPSHOTS=1 and review it"
    assert text == path.read_text(encoding="utf-8")


def test_every_snapshot_belongs_to_a_shape() -> None:
    expected = {render(shape, variant)[0] for shape in SHAPES for variant in VARIANTS}
    assert {path.name for path in SNAPSHOTS.iterdir()} == expected


def test_only_shapes_with_free_keys_are_refused_in_strict_mode() -> None:
    refused = [shape for shape in SHAPES if render(shape, "strict")[0].endswith(".txt")]
    assert refused == ["dynamic_simple", "dynamic_tree"]


# -- what DESIGN.md promises of every schema, checked on every shape ---------------------------

RECURSIVE = {"array_recursive", "dynamic_tree", "object_recursive"}
NULL = {"type": "null"}


def or_null(schema: dict[str, Any]) -> dict[str, Any]:
    """``T | None`` as DESIGN.md spells it: ``anyOf`` with null last, nested unions flattened
    (a tagged union keeps its ``discriminator``)."""
    if "anyOf" in schema and set(schema) <= {"anyOf", "discriminator"}:
        return {**schema, "anyOf": [*schema["anyOf"], NULL]}
    return {"anyOf": [schema, NULL]}


def without(schema: dict[str, Any], keyword: str) -> dict[str, Any]:
    return {key: value for key, value in schema.items() if key != keyword}


def subschemas(schema: Any) -> Iterator[dict[str, Any]]:
    if isinstance(schema, dict):
        yield schema
        for key, value in schema.items():
            if key in ("properties", "$defs"):
                for child in value.values():
                    yield from subschemas(child)
            elif key not in ("enum", "const", "default", "examples"):
                yield from subschemas(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from subschemas(item)


def check_root(root: dict[str, Any]) -> None:
    """Closed objects, required keys that exist, refs that resolve, valid draft 2020-12."""
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator.check_schema(root)
    definitions = root.get("$defs", {})
    for name in definitions:
        assert name.replace("_", "").replace(".", "").replace("-", "").isalnum(), name
    for schema in subschemas(root):
        if "properties" in schema:
            assert schema["type"] == "object"
            assert schema["additionalProperties"] is False, schema
            assert set(schema.get("required", [])) <= set(schema["properties"])
        if "$ref" in schema:
            assert schema["$ref"].startswith("#/$defs/")
            assert schema["$ref"].removeprefix("#/$defs/") in definitions
    text = json.dumps(root)
    unused = [name for name in definitions if f'"#/$defs/{name}"' not in text]
    assert unused == [], "definitions nothing refers to"


@pytest.mark.parametrize("variant", ["default", "reference_false"])
@pytest.mark.parametrize("shape", SHAPES)
def test_the_three_methods_follow_the_contract(shape: str, variant: str) -> None:
    app = build(shape, variant)
    assert [function.name for function in app.functions] == list(METHODS)
    insert, reduce, coalesce = app.functions
    assert [function.tags for function in app.functions] == [[], ["catalogue"], []]
    assert not any(function.deprecated for function in app.functions)
    assert all(
        function.description and "@" not in function.description for function in app.functions
    )
    assert [f.parameters["required"] for f in app.functions] == [
        ["first"],
        ["first", "second"],
        ["first", "second"],
    ]
    shape_schema = reduce.parameters["properties"]["first"]
    nullable = or_null(shape_schema)
    described = insert.parameters["properties"]["first"]  # carries the Args text
    assert described["description"].endswith(" to store.")
    assert without(described, "description") == without(shape_schema, "description")
    assert reduce.parameters["properties"]["second"] == nullable
    assert coalesce.parameters["properties"] == {
        "first": nullable,
        "second": nullable,
        "third": {**nullable, "default": None},
    }
    assert insert.output is None
    assert reduce.output is not None and without(reduce.output, "$defs") == shape_schema
    assert coalesce.output is not None and without(coalesce.output, "$defs") == nullable
    for function in app.functions:
        assert function.parameters["type"] == "object"
        check_root(function.parameters)
        if function.output is not None:
            check_root(function.output)
    if variant == "reference_false":
        has_defs = any("$defs" in function.parameters for function in app.functions)
        assert has_defs == (shape in RECURSIVE)


# -- validation: typia's spoilers, table-driven ----------------------------------------------


def spoil(value: Any, keys: tuple[Any, ...], replacement: Any) -> Any:
    """A deep copy of ``value`` with the item at ``keys`` replaced (``...`` removes it)."""
    if not keys:
        return replacement
    spoiled = copy.deepcopy(value)
    *parents, last = keys
    target = spoiled
    for key in parents:
        target = target[key]
    if replacement is ...:
        del target[last]
    else:
        target[last] = replacement
    return spoiled


def relocate(
    expected: list[tuple[str, str]], parameter: str, nullable: bool = False
) -> list[tuple[str, str]]:
    """Paths written from ``$input`` as the value itself, moved under one parameter.

    A whole value that is wrong for a ``T | None`` parameter expects ``(T | null)``.
    """
    moved = []
    for path, text in expected:
        if nullable and path == "$input":
            inner = text[1:-1] if text.startswith("(") and text.endswith(")") else text
            text = f"({inner} | null)"
        moved.append((f"$input.{parameter}{path.removeprefix('$input')}", text))
    return moved


def issues(function: Any, arguments: dict[str, Any]) -> list[tuple[str, str]]:
    validation = function.validate(arguments)
    return [] if validation.success else [(i.path, i.expected) for i in validation.errors]


def samples(shape: str) -> list[Any]:
    module = MODULES[shape]
    return [module.SAMPLE, *getattr(module, "ALSO_VALID", [])]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("shape", SHAPES)
def test_valid_samples_validate(shape: str, variant: str) -> None:
    if render(shape, variant)[0].endswith(".txt"):
        pytest.skip("strict mode refuses this shape (its snapshot holds the error)")
    jsonschema = pytest.importorskip("jsonschema")
    insert, reduce, coalesce = build(shape, variant).functions
    for sample in samples(shape):
        calls = [
            (insert, {"first": sample}),
            (reduce, {"first": sample, "second": None}),
            (reduce, {"first": sample, "second": sample}),
            (coalesce, {"first": None, "second": sample}),
            (coalesce, {"first": sample, "second": None, "third": sample}),
        ]
        for function, arguments in calls:
            assert issues(function, arguments) == [], (function.name, arguments)
            if variant != "strict":  # strict schemas demand every key, even defaulted ones
                assert jsonschema.Draft202012Validator(function.parameters).is_valid(arguments)


@pytest.mark.parametrize(("shape", "index"), SPOILED)
def test_spoiled_sample_fails_where_expected(shape: str, index: int) -> None:
    keys, replacement, expected = MODULES[shape].SPOILERS[index]
    spoiled = spoil(MODULES[shape].SAMPLE, keys, replacement)
    insert, reduce, coalesce = build(shape).functions
    assert issues(insert, {"first": spoiled}) == relocate(expected, "first")
    assert issues(reduce, {"first": MODULES[shape].SAMPLE, "second": spoiled}) == relocate(
        expected, "second", nullable=True
    )
    arguments = {"first": None, "second": None, "third": spoiled}
    assert issues(coalesce, arguments) == relocate(expected, "third", nullable=True)


# -- execution: the arguments become the method's Python types and come back as JSON ----------

KNOWN_BUGS: dict[tuple[str, str], str] = {}


def known_bug(shape: str, check: str) -> list[pytest.MarkDecorator]:
    reason = KNOWN_BUGS.get((shape, check))
    return [] if reason is None else [pytest.mark.xfail(strict=True, reason=reason)]


def each_shape(check: str) -> list[Any]:
    return [pytest.param(shape, marks=known_bug(shape, check), id=shape) for shape in SHAPES]


def python_class(application: type) -> type | tuple[type, ...]:
    """What ``reduce`` returns at run time: the class of ``T`` (its members for a union)."""
    returned = typing.get_type_hints(application.reduce)["return"]
    members = typing.get_args(returned) if typing.get_origin(returned) is Union else (returned,)
    classes = tuple(typing.get_origin(member) or member for member in members)
    return tuple(dict if typing_extensions.is_typeddict(cls) else cls for cls in classes)


@pytest.mark.parametrize("shape", SHAPES)
def test_execute_turns_arguments_into_python_and_back(shape: str) -> None:
    module = MODULES[shape]
    app = build(shape)
    instance = module.APPLICATION()
    result = app.execute(instance, "reduce", {"first": module.SAMPLE, "second": None})
    assert result.success, result.feedback
    assert isinstance(result.value, python_class(module.APPLICATION))
    if hasattr(module, "check_python"):
        module.check_python(result.value)
    nothing = app.execute(instance, "coalesce", {"first": None, "second": None})
    assert nothing.success and nothing.value is None and nothing.data is None


@pytest.mark.parametrize("shape", each_shape("output"))
def test_returned_data_is_the_sample_and_matches_the_output_schema(shape: str) -> None:
    module = MODULES[shape]
    app = build(shape)
    result = app.execute(module.APPLICATION(), "reduce", {"first": module.SAMPLE, "second": None})
    assert result.success, result.feedback
    output = app.functions[1].output
    assert output is not None
    checked = llmapp.validator(output)(result.data)
    assert checked.success, checked.errors
    assert result.data == module.SAMPLE


def defaults(schema: Any) -> Iterator[tuple[dict[str, Any], Any]]:
    """Every (property schema, its default) anywhere in a parameters schema."""
    for sub in subschemas(schema):
        for prop in sub.get("properties", {}).values():
            if "default" in prop:
                yield without(prop, "default"), prop["default"]


@pytest.mark.parametrize("shape", each_shape("defaults"))
def test_every_default_is_valid_for_its_own_schema(shape: str) -> None:
    for function in build(shape).functions:
        definitions = function.parameters.get("$defs", {})
        for schema, default in defaults(function.parameters):
            checked = llmapp.validator({**schema, "$defs": definitions})(default)
            assert checked.success, (function.name, schema, default, checked.errors)


# -- members that are not data, methods that are not functions --------------------------------

HIDDEN = [
    pytest.param(
        shape,
        owner,
        member,
        marks=known_bug(shape, "hidden" if member == "_hidden" else ""),
        id=f"{shape}-{owner}.{member}",
    )
    for shape in SHAPES
    for owner, members in getattr(MODULES[shape], "HIDDEN", {}).items()
    for member in members
]


@pytest.mark.parametrize(("shape", "owner", "member"), HIDDEN)
def test_properties_class_variables_and_private_fields_are_not_properties(
    shape: str, owner: str, member: str
) -> None:
    definitions = build(shape, "default").functions[0].parameters["$defs"]
    assert member not in definitions[owner]["properties"]
    # strict mode unrolls described references, so the member is looked for everywhere
    strict = json.dumps(build(shape, "strict").functions[0].parameters)
    assert f'"{member}"' not in strict
    inline = build(shape, "reference_false").functions[0].parameters
    assert member not in json.dumps(inline)


def test_private_methods_dunders_and_properties_are_not_functions() -> None:
    app = build("class_non_public")
    assert [function.name for function in app.functions] == list(METHODS)
    for name in (
        "_remember",
        "_ClassNonPublicApplication__private",
        "__private",
        "_static_helper",
        "__call__",
        "size",
    ):
        assert app.function(name) is None
        result = app.execute(MODULES["class_non_public"].APPLICATION(), name, {})
        assert not result.success and result.feedback is not None
        assert result.feedback.startswith(f"There is no function named '{name}'")


# -- strict mode: every key is required, and null stands for "not given" ------------------------

STRICT_NULLS = {
    "object_default": ("PageSetup", lambda module: module.PageSetup()),
    "class_property_assignment": ("Assignment", lambda module: module.Assignment()),
}


@pytest.mark.parametrize("shape", sorted(STRICT_NULLS))
def test_strict_nulls_mean_the_defaults(shape: str) -> None:
    owner, expected = STRICT_NULLS[shape]
    module = MODULES[shape]
    app = build(shape, "strict")
    definition = app.functions[1].parameters["$defs"][owner]
    assert definition["required"] == list(definition["properties"])
    first = dict.fromkeys(definition["required"])
    result = app.execute(module.APPLICATION(), "reduce", {"first": first, "second": None})
    assert result.success, result.feedback
    assert result.value == expected(module)


def test_strict_nulls_leave_typed_dict_keys_out() -> None:
    module = MODULES["object_optional"]
    app = build("object_optional", "strict")
    member = {"id": None, "name": "Ada", "email": None, "sequence": None}
    first = {"member": member, "phone": None, "verified": True}
    result = app.execute(module.APPLICATION(), "reduce", {"first": first, "second": None})
    assert result.success, result.feedback
    assert result.value == {"member": {"name": "Ada"}, "verified": True}
