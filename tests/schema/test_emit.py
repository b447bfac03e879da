"""SchemaEmitter: the type model -> LLM schemas, compared as whole structures."""

# The old spellings (Optional, Union) are under test here, on purpose.
# ruff: noqa: UP007, UP045

from __future__ import annotations

import dataclasses
import enum
import ipaddress
import json
import re
import uuid
from collections.abc import Callable
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from pathlib import Path, PurePosixPath
from typing import Annotated, Any, Generic, Literal, NamedTuple, Optional, TypeVar, Union

import pytest
import typing_extensions as te
from annotated_types import Ge, Le, Len, MaxLen, MinLen, MultipleOf

from llmapp._errors import BuildProblem
from llmapp.introspect._types import TypeBuilder
from llmapp.introspect.model import (
    NO_DEFAULT,
    AnyNode,
    EnumDef,
    Field,
    IntegerNode,
    ObjectDef,
    ParameterSpec,
    RefNode,
    StringNode,
    TypeGraph,
)
from llmapp.markers import Email, Examples, Format, Human, Pattern, Title
from llmapp.schema._emit import SchemaEmitter, enum_schema
from llmapp.schema._naming import assign_names
from llmapp.schema._values import UNREPRESENTABLE, json_value

T = TypeVar("T")


class Method:
    """Parameters built the way the method reader builds them: one builder, one emitter."""

    def __init__(self, builder: TypeBuilder | None = None) -> None:
        self.builder = builder or TypeBuilder()

    def param(
        self, name: str, annotation: Any, default: Any = NO_DEFAULT, description: str | None = None
    ) -> ParameterSpec:
        node = self.builder.build(annotation, location=f"Shop.m.{name}", globalns=globals())
        assert node is not None, self.builder.problems
        return ParameterSpec(
            name=name,
            type=node,
            required=default is NO_DEFAULT,
            default=default,
            description=description,
        )

    def emitter(self, **options: Any) -> SchemaEmitter:
        return SchemaEmitter(self.builder.graph(), **options)


def schema_of(annotation: Any, **options: Any) -> dict[str, Any]:
    """The parameters schema of ``m(value: annotation)``."""
    method = Method()
    param = method.param("value", annotation)
    return method.emitter(**options).parameters([param])


def property_of(annotation: Any) -> Any:
    schema = schema_of(annotation)
    assert "$defs" not in schema
    return schema["properties"]["value"]


def obj(properties: dict[str, Any], required: list[str], **more: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
        **more,
    }


# -- one row per node kind --------------------------------------------------------------------

NULL = {"type": "null"}
DATE_TIME = {"anyOf": [{"type": "string", "format": f} for f in ("date-time", "date-time-local")]}


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (str, {"type": "string"}),
        (int, {"type": "integer"}),
        (float, {"type": "number"}),
        (bool, {"type": "boolean"}),
        (None, NULL),
        (Any, {}),
        (object, {}),
        (bytes, {"type": "string", "contentEncoding": "base64"}),
        (datetime, DATE_TIME),
        (date, {"type": "string", "format": "date"}),
        (time, {"anyOf": [{"type": "string", "format": f} for f in ("time", "time-local")]}),
        (timedelta, {"type": "string", "format": "duration"}),
        (uuid.UUID, {"type": "string", "format": "uuid"}),
        (Decimal, {"anyOf": [{"type": "string", "format": "decimal"}, {"type": "number"}]}),
        (ipaddress.IPv4Network, {"type": "string", "format": "ipv4network"}),
        (ipaddress.IPv6Interface, {"type": "string", "format": "ipv6interface"}),
        (Path, {"type": "string", "format": "path"}),
        (Email, {"type": "string", "format": "email"}),
        (list[int], {"type": "array", "items": {"type": "integer"}}),
        (tuple[str, ...], {"type": "array", "items": {"type": "string"}}),
        (set[int], {"type": "array", "items": {"type": "integer"}, "uniqueItems": True}),
        (frozenset[str], {"type": "array", "items": {"type": "string"}, "uniqueItems": True}),
        (
            tuple[int, str],
            {
                "type": "array",
                "prefixItems": [{"type": "integer"}, {"type": "string"}],
                "minItems": 2,
                "maxItems": 2,
            },
        ),
        (dict[str, float], {"type": "object", "additionalProperties": {"type": "number"}}),
        (
            list[list[float]],
            {"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
        ),
        (Optional[int], {"anyOf": [{"type": "integer"}, NULL]}),
        (int | str | None, {"anyOf": [{"type": "integer"}, {"type": "string"}, NULL]}),
        (Literal["low", "high"], {"type": "string", "enum": ["low", "high"]}),
        (Literal["only"], {"type": "string", "enum": ["only"]}),
        (Literal[None], NULL),
        (
            Literal["a", 1, True, None, 2.5, "b"],
            {
                "anyOf": [
                    {"type": "string", "enum": ["a", "b"]},
                    {"type": "integer", "enum": [1]},
                    {"type": "boolean", "enum": [True]},
                    NULL,
                    {"type": "number", "enum": [2.5]},
                ]
            },
        ),
        (
            Union[Literal["a", 1], None],  # Literal groups flatten into the union
            {"anyOf": [{"type": "string", "enum": ["a"]}, {"type": "integer", "enum": [1]}, NULL]},
        ),
        (Union[Literal[None], None], NULL),
    ],
    ids=repr,
)
def test_node_schemas(annotation: Any, expected: Any) -> None:
    assert property_of(annotation) == expected


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (Annotated[int, Ge(1), Le(10)], {"type": "integer", "minimum": 1, "maximum": 10}),
        (
            Annotated[float, te.Doc("x"), MultipleOf(0.5)],
            {"type": "number", "multipleOf": 0.5, "description": "x"},
        ),
        (
            Annotated[int, te.Doc("Gt/Lt"), Ge(0)] | None,
            {"anyOf": [{"type": "integer", "minimum": 0, "description": "Gt/Lt"}, NULL]},
        ),
        (Annotated[str, MinLen(1), MaxLen(9)], {"type": "string", "minLength": 1, "maxLength": 9}),
        (Annotated[str, Pattern("^a")], {"type": "string", "pattern": "^a"}),
        (Annotated[str, Format("uri")], {"type": "string", "format": "uri"}),
        (
            Annotated[list[int], Len(1, 3)],
            {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 3},
        ),
        (
            Annotated[dict[str, int], MaxLen(2)],
            {"type": "object", "additionalProperties": {"type": "integer"}, "maxProperties": 2},
        ),
        (
            Annotated[str, Title("Name"), Examples("Ada", "Alan"), te.Doc("Who.")],
            {"type": "string", "title": "Name", "description": "Who.", "examples": ["Ada", "Alan"]},
        ),
        (
            Annotated[bytes, Human()],
            {"type": "string", "contentEncoding": "base64", "x-llmapp-human": True},
        ),
    ],
    ids=repr,
)
def test_constraints_and_metadata(annotation: Any, expected: Any) -> None:
    assert property_of(annotation) == expected


# -- parameters: required, descriptions, defaults ---------------------------------------------


class Color(enum.Enum):
    """A paint colour."""

    RED = "red"
    BLUE = "blue"


class Mixed(enum.Enum):
    ONE = 1
    TWO = "two"
    NONE = None


@dataclasses.dataclass
class Product:
    """Something to sell.

    Attributes:
        name: What it is called.
    """

    name: str
    price: Annotated[int, Ge(0)] = 0


class Point(NamedTuple):
    x: int
    y: int = 0


def test_parameters_object_required_description_and_default() -> None:
    method = Method()
    params = [
        method.param("query", str, description="Words to look for."),
        method.param("limit", Annotated[int, Ge(1), te.Doc("From Doc.")], 10),
        method.param("scope", Annotated[str, te.Doc("Overridden.")], "all", "From the docstring."),
        method.param("color", Color, Color.RED),
    ]
    assert method.emitter().parameters(params) == {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "Words to look for."},
            "limit": {"type": "integer", "minimum": 1, "description": "From Doc.", "default": 10},
            "scope": {"type": "string", "description": "From the docstring.", "default": "all"},
            "color": {"$ref": "#/$defs/Color", "default": "red"},
        },
        "required": ["query"],
        "additionalProperties": False,
        "$defs": {
            "Color": {
                "type": "string",
                "enum": ["red", "blue"],
                "x-enum-varnames": ["RED", "BLUE"],
                "description": "A paint colour.",
            }
        },
    }


def test_no_parameters() -> None:
    assert Method().emitter().parameters([]) == obj({}, [])


def _case_id(value: Any) -> str:
    """The same test id in every process (xdist workers compare theirs): no address, no
    set order."""
    shown = repr(sorted(value)) if isinstance(value, (set, frozenset)) else repr(value)
    return re.sub(r" at 0x[0-9a-f]+", "", shown)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, None),
        (True, True),
        (3, 3),
        (2.5, 2.5),
        ("x", "x"),
        (Color.BLUE, "blue"),
        ((1, 2), [1, 2]),
        ([("a", Color.RED)], [["a", "red"]]),
        ({3, 1, 2}, [1, 2, 3]),
        (frozenset({"b", "a"}), ["a", "b"]),
        ({"k": Decimal("1.50")}, {"k": "1.50"}),
        (Product("pen", 3), {"name": "pen", "price": 3}),
        (Point(1), {"x": 1, "y": 0}),
        (datetime(2024, 5, 1, 12, 30, tzinfo=timezone.utc), "2024-05-01T12:30:00+00:00"),
        (datetime(2024, 5, 1, 12, 30), "2024-05-01T12:30:00"),  # naive: date-time-local
        (date(2024, 5, 1), "2024-05-01"),
        (time(8, 0, tzinfo=timezone(timedelta(hours=2))), "08:00:00+02:00"),
        (time(8, 0), "08:00:00"),  # naive: time-local
        (timedelta(days=1, hours=2, minutes=3, seconds=4), "P1DT2H3M4S"),
        (timedelta(hours=1, seconds=5), "PT1H0M5S"),
        (timedelta(0), "PT0S"),
        # RFC 3339 durations have no fractions and no sign: such a default would fail its schema
        (timedelta(seconds=4.5), UNREPRESENTABLE),
        (-timedelta(hours=1), UNREPRESENTABLE),
        (Decimal("NaN"), UNREPRESENTABLE),
        (ipaddress.IPv4Network("10.0.0.0/8"), "10.0.0.0/8"),
        (uuid.UUID(int=1), "00000000-0000-0000-0000-000000000001"),
        (PurePosixPath("/tmp/x"), "/tmp/x"),
        (b"\x00\xff", "AP8="),
        (float("nan"), UNREPRESENTABLE),
        ({1: "a"}, UNREPRESENTABLE),
        (object(), UNREPRESENTABLE),
        ([object()], UNREPRESENTABLE),
    ],
    ids=lambda value: _case_id(value),
)
def test_default_values_in_json_form(value: Any, expected: Any) -> None:
    assert (
        json_value(value) == expected
        if expected is not UNREPRESENTABLE
        else json_value(value) is UNREPRESENTABLE
    )


def test_unrepresentable_default_is_left_out() -> None:
    method = Method()
    param = method.param("ratio", float, float("inf"))
    assert method.emitter().parameters([param])["properties"] == {"ratio": {"type": "number"}}


def test_pydantic_default_dumps_by_alias(load: Callable[[str, str], Any]) -> None:
    pytest.importorskip("pydantic")
    module = load(
        "llmapp_emit_pydantic",
        """
        import pydantic
        class Config(pydantic.BaseModel):
            size: int = pydantic.Field(default=1, alias="Size")
        """,
    )
    assert json_value(module.Config()) == {"Size": 1}


# -- definitions ------------------------------------------------------------------------------


@dataclasses.dataclass
class Line:
    product: Product
    quantity: int = 1


@dataclasses.dataclass
class Order:
    lines: list[Line]


@dataclasses.dataclass
class Category:
    name: str
    children: list[Category]


@dataclasses.dataclass
class Husband:
    wife: Optional[Wife]


@dataclasses.dataclass
class Wife:
    husband: Optional[Husband]


PRODUCT = obj(
    {
        "name": {"type": "string", "description": "What it is called."},
        "price": {"type": "integer", "minimum": 0, "default": 0},
    },
    ["name"],
    description="Something to sell.",
)
LINE = obj(
    {"product": {"$ref": "#/$defs/Product"}, "quantity": {"type": "integer", "default": 1}},
    ["product"],
)


def test_defs_are_transitive_sorted_and_only_what_each_schema_reaches() -> None:
    method = Method()
    order = method.param("order", Order)
    color = method.param("color", Color)
    emitter = method.emitter()
    assert emitter.parameters([order]) == {
        **obj({"order": {"$ref": "#/$defs/Order"}}, ["order"]),
        "$defs": {
            "Line": LINE,
            "Order": obj(
                {"lines": {"type": "array", "items": {"$ref": "#/$defs/Line"}}}, ["lines"]
            ),
            "Product": PRODUCT,
        },
    }
    assert list(emitter.parameters([color])["$defs"]) == ["Color"]


def test_mixed_enum_is_grouped_per_json_type() -> None:
    assert schema_of(Mixed)["$defs"] == {
        "Mixed": {
            "anyOf": [
                {"type": "integer", "enum": [1], "x-enum-varnames": ["ONE"]},
                {"type": "string", "enum": ["two"], "x-enum-varnames": ["TWO"]},
                NULL,
            ]
        }
    }
    assert enum_schema([1, True, 1.0]) == {
        "anyOf": [
            {"type": "integer", "enum": [1]},
            {"type": "boolean", "enum": [True]},
            {"type": "number", "enum": [1.0]},
        ]
    }
    # names only where one is not its value, each beside its own value
    assert enum_schema(["A", "b"], ["A", "B"]) == {
        "type": "string",
        "enum": ["A", "b"],
        "x-enum-varnames": ["A", "B"],
    }
    assert enum_schema(["A", "B"], ["A", "B"]) == {"type": "string", "enum": ["A", "B"]}
    assert enum_schema([3, "x"], ["HIGH", "x"]) == {
        "anyOf": [
            {"type": "integer", "enum": [3], "x-enum-varnames": ["HIGH"]},
            {"type": "string", "enum": ["x"]},
        ]
    }


def test_recursive_and_mutually_recursive_defs() -> None:
    method = Method()
    params = [method.param("category", Category), method.param("husband", Husband)]
    assert method.emitter().parameters(params)["$defs"] == {
        "Category": obj(
            {
                "name": {"type": "string"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/Category"}},
            },
            ["name", "children"],
        ),
        "Husband": obj({"wife": {"anyOf": [{"$ref": "#/$defs/Wife"}, NULL]}}, ["wife"]),
        "Wife": obj({"husband": {"anyOf": [{"$ref": "#/$defs/Husband"}, NULL]}}, ["husband"]),
    }


Tree = list["Tree"]


def test_recursive_alias_def() -> None:
    method = Method()
    param = method.param("tree", "Tree")
    assert method.emitter(reference=False).parameters([param]) == {
        **obj({"tree": {"$ref": "#/$defs/Tree"}}, ["tree"]),
        "$defs": {"Tree": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}},
    }


def test_reference_false_inlines_all_but_recursive_types() -> None:
    method = Method()
    params = [
        method.param("line", Annotated[Line, te.Doc("The line.")]),
        method.param("color", Color),
        method.param("category", Category),
        method.param("husband", Husband),
    ]
    schema = method.emitter(reference=False).parameters(params)
    assert schema["properties"] == {
        "line": {
            **LINE,
            "properties": {**LINE["properties"], "product": PRODUCT},
            "description": "The line.",
        },
        "color": {
            "type": "string",
            "enum": ["red", "blue"],
            "x-enum-varnames": ["RED", "BLUE"],
            "description": "A paint colour.",
        },
        "category": {"$ref": "#/$defs/Category"},
        "husband": {"$ref": "#/$defs/Husband"},
    }
    assert list(schema["$defs"]) == ["Category", "Husband", "Wife"]


def test_ref_metadata_sits_beside_the_ref() -> None:
    assert property_of_ref(Annotated[Product, te.Doc("What to buy."), Title("Item")]) == {
        "$ref": "#/$defs/Product",
        "title": "Item",
        "description": "What to buy.",
    }


def property_of_ref(annotation: Any) -> Any:
    return schema_of(annotation)["properties"]["value"]


@dataclasses.dataclass
class Page(Generic[T]):
    items: list[T]
    next: Optional[Page[T]] = None


def test_generic_dataclass_def_name() -> None:
    schema = schema_of(Page[Product])
    assert schema["properties"] == {"value": {"$ref": "#/$defs/Page_Product_"}}
    assert schema["$defs"]["Page_Product_"] == obj(
        {
            "items": {"type": "array", "items": {"$ref": "#/$defs/Product"}},
            "next": {"anyOf": [{"$ref": "#/$defs/Page_Product_"}, NULL], "default": None},
        },
        ["items"],
    )


def test_object_def_title_and_additional_properties_from_the_model() -> None:
    graph = TypeGraph(
        definitions={
            "K": ObjectDef(
                key="K",
                name="Open",
                module="m",
                qualname="Open",
                cls=None,
                description="An open object.",
                title="Open thing",
                kind="pydantic",
                fields=(Field(name="a", type=IntegerNode(), required=False, default=1),),
                additional=AnyNode(),
            ),
            "E": EnumDef(key="E", name="E", module="m", qualname="E", cls=None, values=("x",)),
        }
    )
    emitter = SchemaEmitter(graph)
    assert emitter.output(RefNode(key="K")) == {
        "$ref": "#/$defs/Open",
        "$defs": {
            "Open": {
                "type": "object",
                "properties": {"a": {"type": "integer", "default": 1}},
                "required": [],
                "additionalProperties": {},
                "description": "An open object.",
                "title": "Open thing",
            }
        },
    }


# -- names ------------------------------------------------------------------------------------

CLASH = """
import dataclasses

@dataclasses.dataclass
class Product:
    {field}: str
"""


def test_name_clashes_between_modules_are_resolved_deterministically(
    load: Callable[[str, str], Any],
) -> None:
    first = load("shop.a", CLASH.format(field="sku"))
    second = load("shop.b", CLASH.format(field="code"))
    for order in ((first, second), (second, first)):
        method = Method()
        params = [method.param(f"p{i}", module.Product) for i, module in enumerate(order)]
        defs = method.emitter().parameters(params)["$defs"]
        assert defs == {
            "a_Product": obj({"sku": {"type": "string"}}, ["sku"]),
            "b_Product": obj({"code": {"type": "string"}}, ["code"]),
        }


def test_qualified_name_that_meets_a_real_name_gets_a_number() -> None:
    def definition(key: str, name: str, module: str) -> EnumDef:
        return EnumDef(key=key, name=name, module=module, qualname=name, cls=None, values=())

    definitions = {
        "1": definition("1", "Item", "x.a"),
        "2": definition("2", "Item", "y.b"),
        "3": definition("3", "a_Item", "z"),
        "4": definition("4", "Item", "q.a"),
    }
    assert assign_names(definitions) == {
        "1": "x_a_Item",
        "2": "y_b_Item",
        "3": "a_Item",
        "4": "q_a_Item",
    }
    nested = {
        "1": EnumDef(key="1", name="Item", module="m", qualname="Outer.Item", cls=None, values=()),
        "2": EnumDef(key="2", name="Item", module="m", qualname="Item", cls=None, values=()),
    }
    assert assign_names(nested) == {"1": "Outer_Item", "2": "m_Item"}


def test_same_input_gives_byte_identical_json() -> None:
    def emit(order: list[Any]) -> str:
        method = Method()
        params = [method.param(f"p{i}", annotation) for i, annotation in enumerate(order)]
        return json.dumps(method.emitter().parameters(params))

    annotations = [Order, Category, Husband, Page[Product], Color, Mixed]
    assert emit(annotations) == emit(list(annotations))
    # Building the types in another order changes nothing about the definitions.
    first = json.loads(emit(annotations))["$defs"]
    second = json.loads(emit(list(reversed(annotations))))["$defs"]
    assert json.dumps(first) == json.dumps(second)


# -- output -----------------------------------------------------------------------------------


def test_output_schemas() -> None:
    method = Method()
    emitter_builder = method.builder
    returns = emitter_builder.build(list[Line], location="Shop.m")
    plain = emitter_builder.build(int, location="Shop.m")
    emitter = method.emitter()
    assert emitter.output(None) is None
    assert emitter.output(plain) == {"type": "integer"}
    assert emitter.output(returns) == {
        "type": "array",
        "items": {"$ref": "#/$defs/Line"},
        "$defs": {"Line": LINE, "Product": PRODUCT},
    }


# -- strict mode ------------------------------------------------------------------------------


def test_strict_makes_every_property_required_and_optional_ones_nullable() -> None:
    method = Method()
    params = [
        method.param("query", Annotated[str, MaxLen(50)], description="Words."),
        method.param("limit", Annotated[int, Ge(1)], 10, "Most results."),
        method.param("line", Line, None),
        method.param("note", Optional[str], None),
        method.param("when", date, None),
        method.param("price", Decimal, None),
    ]
    emitter = method.emitter(strict=True)
    assert emitter.parameters(params, location="Shop.search") == {
        **obj(
            {
                "query": {"type": "string", "description": "Words.\n\n@maxLength 50"},
                "limit": {
                    "anyOf": [{"type": "integer", "minimum": 1}, NULL],
                    "description": "Most results.\n\n@default 10",
                },
                "line": {"anyOf": [{"$ref": "#/$defs/Line"}, NULL]},
                "note": {"anyOf": [{"type": "string"}, NULL]},
                "when": {"anyOf": [{"type": "string", "format": "date"}, NULL]},
                "price": {
                    "anyOf": [
                        {"type": "string", "description": "@format decimal"},
                        {"type": "number"},
                        NULL,
                    ]
                },
            },
            ["query", "limit", "line", "note", "when", "price"],
        ),
        "$defs": {
            "Line": obj(
                {
                    "product": {"$ref": "#/$defs/Product"},
                    "quantity": {"anyOf": [{"type": "integer"}, NULL], "description": "@default 1"},
                },
                ["product", "quantity"],
            ),
            "Product": obj(
                {
                    "name": {"type": "string", "description": "What it is called."},
                    "price": {
                        "anyOf": [{"type": "integer", "minimum": 0}, NULL],
                        "description": "@default 0",
                    },
                },
                ["name", "price"],
                description="Something to sell.",
            ),
        },
    }
    assert emitter.problems == []


def test_strict_unrolls_a_ref_with_siblings() -> None:
    method = Method()
    params = [method.param("color", Annotated[Color, te.Doc("Which paint.")])]
    schema = method.emitter(strict=True).parameters(params)
    # the property's description first, the type's own docstring after it (not dropped)
    assert schema["properties"] == {
        "color": {
            "type": "string",
            "enum": ["red", "blue"],
            "x-enum-varnames": ["RED", "BLUE"],
            "description": "Which paint.\n\nA paint colour.",
        }
    }


@dataclasses.dataclass
class Loose:
    scores: dict[str, int]
    anything: Any


def test_strict_reports_what_it_cannot_express_once_per_definition() -> None:
    method = Method()
    first = [method.param("loose", Loose), method.param("pair", tuple[int, str])]
    second = [method.param("loose", Loose)]
    emitter = method.emitter(strict=True)
    emitter.parameters(first, location="Shop.first")
    emitter.parameters(second, location="Shop.second")
    assert emitter.problems == [
        BuildProblem(
            "Shop.first.pair", "a fixed-length tuple (prefixItems) is not supported in strict mode"
        ),
        BuildProblem(
            "Shop.first",
            "Loose.scores: free-form keys (dict[str, T]) are not supported in strict mode",
        ),
        BuildProblem(
            "Shop.first",
            "Loose.anything: Any (a schema without a type) is not supported in strict mode",
        ),
    ]


def test_strict_leaves_output_alone() -> None:
    method = Method()
    node = method.builder.build(dict[str, int], location="Shop.m")
    emitter = method.emitter(strict=True)
    assert emitter.output(node) == {"type": "object", "additionalProperties": {"type": "integer"}}
    assert emitter.problems == []


def test_strict_input_is_not_mutated() -> None:
    method = Method()
    params = [method.param("line", Line, None)]
    plain = method.emitter().parameters(params)
    before = json.dumps(plain)
    from llmapp.schema._strict import make_strict

    make_strict(plain, lambda path, reason: None)
    assert json.dumps(plain) == before


def test_human_marker_and_string_node_meta_survive_emission() -> None:
    method = Method()
    params = [method.param("scan", Annotated[bytes, Human(), te.Doc("Scanned ID.")])]
    assert method.emitter().parameters(params)["properties"]["scan"] == {
        "type": "string",
        "contentEncoding": "base64",
        "description": "Scanned ID.",
        "x-llmapp-human": True,
    }


def test_string_node_fields_all_emitted() -> None:
    graph = TypeGraph()
    node = StringNode(
        min_length=1,
        max_length=2,
        pattern="p",
        format="f",
        content_encoding="base64",
        content_media_type="image/png",
    )
    assert SchemaEmitter(graph).output(node) == {
        "type": "string",
        "minLength": 1,
        "maxLength": 2,
        "pattern": "p",
        "format": "f",
        "contentEncoding": "base64",
        "contentMediaType": "image/png",
    }


def test_a_reference_missing_from_the_graph_is_a_problem_not_an_exception() -> None:
    emitter = SchemaEmitter(TypeGraph())
    assert emitter.output(RefNode(key="Ghost")) == {}
    assert emitter.problems == [
        BuildProblem("schema", "no definition for 'Ghost' in the type graph")
    ]


def test_a_node_used_again_gives_the_same_schema_sharing_nothing() -> None:
    # The emitter writes a node once and copies it for every later use of the same node.
    method = Method()
    first = method.param("first", Optional[list[Order]], description="First.")
    second = method.param("second", Optional[list[Order]])
    assert first.type is second.type
    emitter = method.emitter()
    one = emitter.parameters([first])
    two = emitter.parameters([second])
    items = {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/Order"}}, NULL]}
    assert one["properties"]["first"] == {**items, "description": "First."}
    assert two["properties"]["second"] == items
    assert list(one["$defs"]) == list(two["$defs"]) == ["Line", "Order", "Product"]
    two["properties"]["second"]["anyOf"][0]["items"]["x"] = 1
    assert emitter.parameters([second])["properties"]["second"] == items
    assert one["properties"]["first"]["anyOf"][0]["items"] == {"$ref": "#/$defs/Order"}


def test_a_human_marker_used_again_is_reported_again() -> None:
    method = Method()
    scan = method.param("scan", Annotated[bytes, Human()])
    emitter = method.emitter()
    assert emitter.emit_parameters([scan]).human_marked
    assert emitter.emit_parameters([scan]).human_marked


def test_a_missing_reference_is_reported_at_every_use() -> None:
    emitter = SchemaEmitter(TypeGraph())
    ghost = RefNode(key="Ghost")
    assert emitter.output(ghost) == emitter.output(ghost) == {}
    assert len(emitter.problems) == 2


def test_strict_tells_a_parameter_from_a_definition_of_the_same_name() -> None:
    method = Method()
    params = [method.param("Loose", dict[str, int]), method.param("other", Loose)]
    emitter = method.emitter(strict=True)
    emitter.parameters(params, location="Shop.m")
    assert [str(problem) for problem in emitter.problems] == [
        "Shop.m.Loose: free-form keys (dict[str, T]) are not supported in strict mode",
        "Shop.m: Loose.scores: free-form keys (dict[str, T]) are not supported in strict mode",
        "Shop.m: Loose.anything: Any (a schema without a type) is not supported in strict mode",
    ]
