"""TypeBuilder: Python annotations -> the neutral type model, compared as whole trees."""

# The old spellings (Optional, Union, typing.List) are under test here, on purpose.
# ruff: noqa: UP006, UP007, UP045

from __future__ import annotations

import collections
import collections.abc as abc
import dataclasses
import enum
import ipaddress
import pathlib
import subprocess
import sys
import textwrap
import typing
import uuid
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from typing import (
    Annotated,
    Any,
    ForwardRef,
    Generic,
    Literal,
    NamedTuple,
    Optional,
    TypeVar,
    Union,
)

import pytest
import typing_extensions as te
from annotated_types import Ge, Gt, Interval, Le, Len, Lt, MaxLen, MinLen, MultipleOf

from llmapp._errors import BuildProblem
from llmapp.introspect._types import TypeBuilder, type_name
from llmapp.introspect.model import (
    NO_DEFAULT,
    AliasDef,
    AnyNode,
    ArrayNode,
    BooleanNode,
    DictNode,
    EnumDef,
    Field,
    IntegerNode,
    LiteralNode,
    Meta,
    NullNode,
    NumberNode,
    ObjectDef,
    RefNode,
    StringNode,
    TupleNode,
    UnionNode,
)
from llmapp.markers import URL, ContentMediaType, Email, Examples, Format, Human, Pattern, Title

T = TypeVar("T")
U = TypeVar("U")


def build(annotation: Any, **namespaces: Any) -> tuple[Any, TypeBuilder]:
    builder = TypeBuilder()
    node = builder.build(annotation, location="Shop.method.param", **namespaces)
    return node, builder


def node_of(annotation: Any) -> Any:
    node, builder = build(annotation, globalns=globals())
    assert builder.problems == []
    return node


def ref(key: Any, **meta: Any) -> RefNode:
    return RefNode(key=key, meta=Meta(**meta)) if meta else RefNode(key=key)


INT, STR, NUM, NULL = IntegerNode(), StringNode(), NumberNode(), NullNode()


# -- scalars and formats ----------------------------------------------------------------------


class Sku(str):
    pass


class Level(int):
    pass


class Moment(datetime):
    pass


UserId = typing.NewType("UserId", int)


def _clock(python_type: Any, fmt: str) -> UnionNode:
    """A ``datetime`` or ``time``: written with an offset, or without one (a naive value)."""
    forms = (fmt, f"{fmt}-local")
    return UnionNode(options=tuple(StringNode(format=f, python_type=python_type) for f in forms))


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (str, STR),
        (int, INT),
        (float, NUM),
        (bool, BooleanNode()),
        (None, NULL),
        (type(None), NULL),
        (Any, AnyNode()),
        (object, AnyNode()),
        (te.LiteralString, STR),
        (bytes, StringNode(content_encoding="base64", python_type=bytes)),
        (bytearray, StringNode(content_encoding="base64", python_type=bytearray)),
        (datetime, _clock(datetime, "date-time")),
        (date, StringNode(format="date", python_type=date)),
        (time, _clock(time, "time")),
        (timedelta, StringNode(format="duration", python_type=timedelta)),
        (uuid.UUID, StringNode(format="uuid", python_type=uuid.UUID)),
        (
            Decimal,
            UnionNode(
                options=(
                    StringNode(format="decimal", python_type=Decimal),
                    NumberNode(python_type=Decimal),
                )
            ),
        ),
        (ipaddress.IPv4Address, StringNode(format="ipv4", python_type=ipaddress.IPv4Address)),
        (ipaddress.IPv6Address, StringNode(format="ipv6", python_type=ipaddress.IPv6Address)),
        (
            ipaddress.IPv4Network,
            StringNode(format="ipv4network", python_type=ipaddress.IPv4Network),
        ),
        (
            ipaddress.IPv6Interface,
            StringNode(format="ipv6interface", python_type=ipaddress.IPv6Interface),
        ),
        (Path, StringNode(format="path", python_type=Path)),
        (pathlib.PurePosixPath, StringNode(format="path", python_type=pathlib.PurePosixPath)),
        (Email, StringNode(format="email")),
        (URL, StringNode(format="uri")),
        (Sku, StringNode(python_type=Sku)),
        (Level, IntegerNode(python_type=Level)),
        (Moment, _clock(Moment, "date-time")),
        (UserId, INT),
        (typing.Final[int], INT),
        (typing.ClassVar[str], STR),
    ],
    ids=repr,
)
def test_scalars_and_formats(annotation: Any, expected: Any) -> None:
    assert node_of(annotation) == expected


def test_bool_is_not_an_integer() -> None:
    assert node_of(bool) == BooleanNode()
    assert node_of(Literal[True, 1]) == LiteralNode(values=(True, 1))


# -- containers -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (list[int], ArrayNode(item=INT, python_type=list)),
        (typing.List[str], ArrayNode(item=STR, python_type=list)),
        (list, ArrayNode(item=AnyNode(), python_type=list)),
        (typing.List, ArrayNode(item=AnyNode(), python_type=list)),
        (abc.Sequence[int], ArrayNode(item=INT, python_type=abc.Sequence)),
        (typing.Sequence[int], ArrayNode(item=INT, python_type=abc.Sequence)),
        (abc.MutableSequence[int], ArrayNode(item=INT, python_type=abc.MutableSequence)),
        (collections.deque[int], ArrayNode(item=INT, python_type=collections.deque)),
        (tuple[int, ...], ArrayNode(item=INT, python_type=tuple)),
        (tuple, ArrayNode(item=AnyNode(), python_type=tuple)),
        (set[str], ArrayNode(item=STR, unique_items=True, python_type=set)),
        (frozenset[int], ArrayNode(item=INT, unique_items=True, python_type=frozenset)),
        (abc.Set[int], ArrayNode(item=INT, unique_items=True, python_type=abc.Set)),
        (set, ArrayNode(item=AnyNode(), unique_items=True, python_type=set)),
        (tuple[int, str], TupleNode(items=(INT, STR), python_type=tuple)),
        (tuple[()], TupleNode(items=(), python_type=tuple)),
        (dict[str, int], DictNode(value=INT, python_type=dict)),
        (dict, DictNode(value=AnyNode(), python_type=dict)),
        (abc.Mapping[str, float], DictNode(value=NUM, python_type=abc.Mapping)),
        (abc.MutableMapping[Sku, int], DictNode(value=INT, python_type=abc.MutableMapping)),
        (dict[Any, int], DictNode(value=INT, python_type=dict)),
        (
            list[list[float]],
            ArrayNode(item=ArrayNode(item=NUM, python_type=list), python_type=list),
        ),
    ],
    ids=repr,
)
def test_containers(annotation: Any, expected: Any) -> None:
    assert node_of(annotation) == expected


# -- unions and literals ----------------------------------------------------------------------


class Color(enum.Enum):
    """A colour of the rainbow."""

    RED = "red"
    GREEN = "green"


class Size(enum.IntEnum):
    SMALL = 1
    LARGE = 2


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (Optional[int], UnionNode(options=(INT, NULL))),
        (int | None, UnionNode(options=(INT, NULL))),
        (Union[int, str, None], UnionNode(options=(INT, STR, NULL))),
        (Literal["a", "b"], LiteralNode(values=("a", "b"))),
        (Literal["a", 1, 2.5, True, None], LiteralNode(values=("a", 1, 2.5, True, None))),
        (Literal["a"] | Literal["b"], LiteralNode(values=("a", "b"))),
        (Optional[Literal["a", "b"]], UnionNode(options=(LiteralNode(values=("a", "b")), NULL))),
        (Literal[Color.RED], LiteralNode(values=("red",), python_type=Color)),
        (Literal[Size.SMALL, Size.LARGE], LiteralNode(values=(1, 2), python_type=Size)),
        (Union[int, "str"], UnionNode(options=(INT, STR))),
    ],
    ids=repr,
)
def test_unions_and_literals(annotation: Any, expected: Any) -> None:
    assert node_of(annotation) == expected


def test_enum_definition_takes_values_and_own_docstring() -> None:
    node, builder = build(Color)
    assert node == ref(Color)
    assert builder.graph().definitions[Color] == EnumDef(
        key=Color,
        name="Color",
        module=__name__,
        qualname="Color",
        cls=Color,
        description="A colour of the rainbow.",
        values=("red", "green"),
        names=("RED", "GREEN"),
    )


def test_enum_without_docstring_has_no_description() -> None:
    _, builder = build(Size)
    definition = builder.graph().definitions[Size]
    assert isinstance(definition, EnumDef)
    assert (definition.description, definition.values) == (None, (1, 2))


def test_enum_with_values_json_cannot_hold_is_a_problem() -> None:
    class Odd(enum.Enum):
        PAIR = (1, 2)

    node, builder = build(Odd)
    assert node is None
    assert builder.problems == [
        BuildProblem(
            "Shop.method.param",
            "Enum test_enum_with_values_json_cannot_hold_is_a_problem.<locals>.Odd has values JSON cannot hold: [(1, 2)]",
        )
    ]


# -- Annotated: constraints, markers, Doc -----------------------------------------------------


@pytest.mark.parametrize(
    ("annotation", "expected"),
    [
        (Annotated[int, Ge(1), Le(10)], IntegerNode(ge=1, le=10)),
        (Annotated[float, Gt(0), Lt(1)], NumberNode(gt=0, lt=1)),
        (
            Annotated[int, Interval(ge=0, lt=5), MultipleOf(5)],
            IntegerNode(ge=0, lt=5, multiple_of=5),
        ),
        (Annotated[str, MinLen(1), MaxLen(5)], StringNode(min_length=1, max_length=5)),
        (Annotated[str, Len(2, 3)], StringNode(min_length=2, max_length=3)),
        (
            Annotated[list[int], Len(1, 4)],
            ArrayNode(item=INT, min_items=1, max_items=4, python_type=list),
        ),
        (
            Annotated[set[int], MaxLen(3)],
            ArrayNode(item=INT, max_items=3, unique_items=True, python_type=set),
        ),
        (
            Annotated[dict[str, int], MinLen(1)],
            DictNode(value=INT, min_properties=1, python_type=dict),
        ),
        (Annotated[str, Pattern("^[A-Z]+$")], StringNode(pattern="^[A-Z]+$")),
        (Annotated[str, Format("hostname")], StringNode(format="hostname")),
        (Annotated[str, ContentMediaType("image/png")], StringNode(content_media_type="image/png")),
        (
            Annotated[bytes, ContentMediaType("application/pdf")],
            StringNode(
                content_encoding="base64", content_media_type="application/pdf", python_type=bytes
            ),
        ),
        (Annotated[Email, MaxLen(100)], StringNode(format="email", max_length=100)),
        (Annotated[int, Title("Count")], IntegerNode(meta=Meta(title="Count"))),
        (Annotated[int, Examples(1, 2)], IntegerNode(meta=Meta(examples=(1, 2)))),
        (
            Annotated[bytes, Human()],
            StringNode(content_encoding="base64", python_type=bytes, meta=Meta(human=True)),
        ),
        (Annotated[str, te.Doc("The name.")], StringNode(meta=Meta(description="The name."))),
        (Annotated[Color, te.Doc("Paint.")], ref(Color, description="Paint.")),
        (
            Annotated[Optional[int], Ge(0), te.Doc("Maybe.")],
            UnionNode(options=(IntegerNode(ge=0), NULL), meta=Meta(description="Maybe.")),
        ),
        (Annotated[int, "unrelated metadata"], INT),
        (Annotated[Annotated[int, Ge(1)], Le(3)], IntegerNode(ge=1, le=3)),
        (list[Annotated[int, Ge(0)]], ArrayNode(item=IntegerNode(ge=0), python_type=list)),
    ],
    ids=repr,
)
def test_annotated_metadata(annotation: Any, expected: Any) -> None:
    assert node_of(annotation) == expected


def test_constraint_that_does_not_apply_is_a_problem() -> None:
    node, builder = build(Annotated[int, MaxLen(3)])
    assert node == INT
    assert builder.problems == [
        BuildProblem("Shop.method.param", "MaxLen(max_length=3) does not apply to integer")
    ]
    _, builder = build(Annotated[bytes, Pattern("x")])
    assert builder.problems == [
        BuildProblem("Shop.method.param", "Pattern(regex='x') does not apply to bytes")
    ]


# -- objects ----------------------------------------------------------------------------------


@dataclasses.dataclass
class Product:
    """Something to sell.

    Attributes:
        name: What it is called.
        price: Price in cents.
    """

    name: str
    price: Annotated[int, Ge(0)] = 0
    tags: list[str] = dataclasses.field(default_factory=list)
    note: Annotated[str, te.Doc("Free text.")] = ""
    code: str = dataclasses.field(default="", metadata={"description": "Internal code."})
    cached: int = dataclasses.field(default=0, init=False)


def test_dataclass_fields_defaults_and_descriptions() -> None:
    node, builder = build(Product)
    assert node == ref(Product)
    assert builder.graph().definitions == {
        Product: ObjectDef(
            key=Product,
            name="Product",
            module=__name__,
            qualname="Product",
            cls=Product,
            description="Something to sell.",
            kind="dataclass",
            fields=(
                Field(name="name", type=STR, description="What it is called."),
                Field(
                    name="price",
                    type=IntegerNode(ge=0),
                    required=False,
                    default=0,
                    description="Price in cents.",
                ),
                Field(name="tags", type=ArrayNode(item=STR, python_type=list), required=False),
                Field(
                    name="note",
                    type=StringNode(meta=Meta(description="Free text.")),
                    required=False,
                    default="",
                    description="Free text.",
                ),
                Field(
                    name="code", type=STR, required=False, default="", description="Internal code."
                ),
            ),
        )
    }


class Movie(te.TypedDict, total=False):
    """A film.

    Attributes:
        title: The title.
    """

    title: te.Required[str]
    year: int
    rating: te.NotRequired[float]


class Sequel(Movie):
    prequel: Movie


class Point(NamedTuple):
    x: int
    y: int = 0


def test_typeddict_required_notrequired_total_and_inheritance() -> None:
    node, builder = build(Sequel)
    assert node == ref(Sequel)
    definitions = builder.graph().definitions
    assert definitions[Sequel] == ObjectDef(
        key=Sequel,
        name="Sequel",
        module=__name__,
        qualname="Sequel",
        cls=Sequel,
        kind="typeddict",
        fields=(
            Field(name="title", type=STR, description="The title."),
            Field(name="year", type=INT, required=False),
            Field(name="rating", type=NUM, required=False),
            Field(name="prequel", type=ref(Movie)),
        ),
    )
    assert [f.name for f in definitions[Movie].fields] == ["title", "year", "rating"]  # type: ignore[union-attr]


def test_namedtuple_fields_with_defaults() -> None:
    _, builder = build(Point)
    assert builder.graph().definitions[Point] == ObjectDef(
        key=Point,
        name="Point",
        module=__name__,
        qualname="Point",
        cls=Point,
        kind="namedtuple",
        fields=(Field(name="x", type=INT), Field(name="y", type=INT, required=False, default=0)),
    )


def test_attrs_class_is_an_object() -> None:
    attrs = pytest.importorskip("attrs")

    @attrs.define
    class Box:
        width: int
        _label: str = "box"

    _, builder = build(Box)
    definition = builder.graph().definitions[Box]
    assert isinstance(definition, ObjectDef)
    assert definition.kind == "class"
    assert definition.fields == (
        Field(name="width", type=INT),
        Field(name="label", type=STR, required=False, default="box", python_name="_label"),
    )


# -- generics ---------------------------------------------------------------------------------


@dataclasses.dataclass
class Page(Generic[T]):
    items: list[T]
    total: int


@dataclasses.dataclass
class Pair(Generic[T, U]):
    first: T
    second: U


@dataclasses.dataclass
class Wrapper(Generic[T]):
    page: Page[T]


@dataclasses.dataclass
class IntBox(Pair[int, T]):
    label: str


def test_generic_dataclass_gets_substituted_fields_and_a_deterministic_name() -> None:
    node, builder = build(Page[Product])
    assert node == ref(Page[Product])
    definition = builder.graph().definitions[Page[Product]]
    assert isinstance(definition, ObjectDef)
    assert (definition.name, definition.cls, definition.qualname) == ("Page_Product_", Page, "Page")
    assert definition.fields == (
        Field(name="items", type=ArrayNode(item=ref(Product), python_type=list)),
        Field(name="total", type=INT),
    )


def test_generic_inside_generic_and_generic_bases() -> None:
    _, builder = build(Wrapper[int])
    definitions = builder.graph().definitions
    assert definitions[Wrapper[int]].fields == (Field(name="page", type=ref(Page[int])),)  # type: ignore[union-attr]
    assert definitions[Page[int]].name == "Page_int_"
    _, builder = build(IntBox[str])
    assert builder.graph().definitions[IntBox[str]].fields == (  # type: ignore[union-attr]
        Field(name="first", type=INT),
        Field(name="second", type=STR),
        Field(name="label", type=STR),
    )


@pytest.mark.parametrize(
    ("annotation", "name"),
    [
        (Page[Product], "Page_Product_"),
        (Pair[int, str], "Pair_int_str_"),
        (Page[list[Product]], "Page_list_Product__"),
        (Page[Optional[int]], "Page_int_or_None_"),
        (Page[Literal["a", "b"]], "Page_Literal_a_b__"),
    ],
)
def test_type_names(annotation: Any, name: str) -> None:
    assert type_name(annotation) == name


def test_unbound_typevar_is_a_problem() -> None:
    node, builder = build(T)
    assert node is None
    assert builder.problems == [
        BuildProblem("Shop.method.param", "unbound TypeVar T: parametrise the generic type")
    ]
    _, builder = build(Page)
    assert builder.problems == [
        BuildProblem(
            "Shop.method.param", "Page.items: unbound TypeVar T: parametrise the generic type"
        )
    ]


def test_typevar_default_is_used() -> None:
    with_default = te.TypeVar("with_default", default=int)
    assert node_of(list[with_default]) == ArrayNode(item=INT, python_type=list)  # type: ignore[valid-type]


# -- recursion --------------------------------------------------------------------------------


@dataclasses.dataclass
class Category:
    name: str
    children: list[Category]
    parent: Optional[Category] = None


@dataclasses.dataclass
class Husband:
    wife: Optional[Wife]


@dataclasses.dataclass
class Wife:
    husband: Optional[Husband]


Tree = list["Tree"]
Json = te.TypeAliasType("Json", "Union[int, str, list[Json], dict[str, Json]]")  # type: ignore[misc]


def test_recursive_dataclass_refers_to_itself() -> None:
    node, builder = build(Category)
    assert node == ref(Category)
    assert builder.graph().definitions[Category].fields == (  # type: ignore[union-attr]
        Field(name="name", type=STR),
        Field(name="children", type=ArrayNode(item=ref(Category), python_type=list)),
        Field(
            name="parent",
            type=UnionNode(options=(ref(Category), NULL)),
            required=False,
            default=None,
        ),
    )


def test_mutual_recursion() -> None:
    _, builder = build(Husband)
    definitions = builder.graph().definitions
    assert definitions[Husband].fields == (
        Field(name="wife", type=UnionNode(options=(ref(Wife), NULL))),
    )  # type: ignore[union-attr]
    assert definitions[Wife].fields == (
        Field(name="husband", type=UnionNode(options=(ref(Husband), NULL))),
    )  # type: ignore[union-attr]


def test_recursive_list_alias_becomes_an_alias_definition() -> None:
    node, builder = build("Tree", globalns=globals())
    key = list["Tree"]
    assert node == ref(key)
    assert builder.graph().definitions == {
        key: AliasDef(
            key=key,
            name="Tree",
            module=__name__,
            qualname="Tree",
            cls=key,
            type=ArrayNode(item=ref(key), python_type=list),
        )
    }


def test_recursive_type_alias_type() -> None:
    node, builder = build(Json)
    assert node == ref(Json)
    definition = builder.graph().definitions[Json]
    assert isinstance(definition, AliasDef)
    assert definition.type == UnionNode(
        options=(
            INT,
            STR,
            ArrayNode(item=ref(Json), python_type=list),
            DictNode(value=ref(Json), python_type=dict),
        )
    )


def test_non_recursive_alias_is_inlined() -> None:
    Numbers = te.TypeAliasType("Numbers", list[int])
    node, builder = build(Numbers)
    assert node == ArrayNode(item=INT, python_type=list)
    assert builder.graph().definitions == {}


# -- forward references -----------------------------------------------------------------------


def test_string_and_forwardref_annotations() -> None:
    assert node_of("Optional[Product]") == UnionNode(options=(ref(Product), NULL))
    assert node_of(ForwardRef("list[int]")) == ArrayNode(item=INT, python_type=list)
    assert node_of(list["Product"]) == ArrayNode(item=ref(Product), python_type=list)
    assert node_of(Page["Product"]) == ref(Page[Product])


def test_localns_resolves_names_before_globals() -> None:
    node, _ = build("Thing", globalns={"Thing": int}, localns={"Thing": str})
    assert node == STR


def test_future_annotations_module_with_types_defined_after_use(
    load: Callable[[str, str], Any],
) -> None:
    module = load(
        "llmapp_test_future",
        """
        from __future__ import annotations
        import dataclasses
        from typing import Optional
        from typing_extensions import NotRequired, TypedDict

        @dataclasses.dataclass
        class Order:
            lines: list[Line]
            parent: Optional[Order] = None

        class Options(TypedDict):
            gift: NotRequired[bool]
            line: Line

        @dataclasses.dataclass
        class Line:
            sku: str
        """,
    )
    _, builder = build("Order", globalns=vars(module))
    assert builder.problems == []
    definitions = builder.graph().definitions
    assert definitions[module.Order].fields == (  # type: ignore[union-attr]
        Field(name="lines", type=ArrayNode(item=ref(module.Line), python_type=list)),
        Field(
            name="parent",
            type=UnionNode(options=(ref(module.Order), NULL)),
            required=False,
            default=None,
        ),
    )
    builder.build(module.Options, location="Shop.m.options")
    assert builder.graph().definitions[module.Options].fields == (  # type: ignore[union-attr]
        Field(name="gift", type=BooleanNode(), required=False),  # NotRequired inside a string
        Field(name="line", type=ref(module.Line)),
    )


def test_local_classes_resolve_through_the_outer_localns() -> None:
    @dataclasses.dataclass
    class Leaf:
        value: int

    @dataclasses.dataclass
    class Holder:
        leaf: Leaf  # a string: this module uses ``from __future__ import annotations``

    _, builder = build("Holder", localns={"Holder": Holder, "Leaf": Leaf})
    assert builder.problems == []
    assert builder.graph().definitions[Holder].fields == (Field(name="leaf", type=ref(Leaf)),)  # type: ignore[union-attr]


def test_unresolved_names_are_problems() -> None:
    node, builder = build("Missing | None", globalns=globals())
    assert node is None
    assert builder.problems == [
        BuildProblem(
            "Shop.method.param", "unresolved name 'Missing' in annotation 'Missing | None'"
        )
    ]


# -- pydantic ---------------------------------------------------------------------------------


def test_pydantic_model_fields_constraints_descriptions(load: Callable[[str, str], Any]) -> None:
    pytest.importorskip("pydantic")
    module = load(
        "llmapp_test_pydantic",
        """
        from __future__ import annotations
        from typing import Generic, Optional, TypeVar
        import pydantic

        T = TypeVar("T")

        class User(pydantic.BaseModel):
            '''A person.'''
            model_config = pydantic.ConfigDict(extra="allow")

            name: str = pydantic.Field(description="Full name.", min_length=1, pattern="^[A-Z]")
            age: int = pydantic.Field(default=0, ge=0, le=150, title="Age")
            friend: Optional[User] = pydantic.Field(default=None, alias="buddy")

        class Box(pydantic.BaseModel, Generic[T]):
            content: T
        """,
    )
    User = module.User
    node, builder = build(User)
    assert builder.problems == []
    assert builder.graph().definitions[User] == ObjectDef(
        key=User,
        name="User",
        module="llmapp_test_pydantic",
        qualname="User",
        cls=User,
        description="A person.",
        kind="pydantic",
        fields=(
            Field(
                name="name",
                type=StringNode(
                    min_length=1, pattern="^[A-Z]", meta=Meta(description="Full name.")
                ),
                description="Full name.",
            ),
            Field(
                name="age",
                type=IntegerNode(ge=0, le=150, meta=Meta(title="Age")),
                required=False,
                default=0,
            ),
            Field(
                name="buddy",
                type=UnionNode(options=(ref(User), NULL)),
                required=False,
                default=None,
                python_name="friend",
            ),
        ),
        additional=AnyNode(),
    )
    boxed = module.Box[int]
    node, builder = build(boxed)
    definition = builder.graph().definitions[boxed]
    assert (node, definition.name, definition.fields) == (  # type: ignore[union-attr]
        ref(boxed),
        "Box_int_",
        (Field(name="content", type=INT),),
    )


def test_pydantic_is_never_imported_by_introspection() -> None:
    script = textwrap.dedent(
        """
        import dataclasses, sys
        from llmapp.introspect._types import TypeBuilder
        @dataclasses.dataclass
        class A:
            x: int
        builder = TypeBuilder()
        builder.build(list[A], location="x")
        print("pydantic" in sys.modules)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"


# -- problems ---------------------------------------------------------------------------------


class Plain:
    def __init__(self, x: int) -> None:
        self.x = x


@dataclasses.dataclass
class Broken:
    callback: Callable[[int], str]
    lookup: dict[int, str]
    plain: Plain
    fine: int
    later: Missing  # type: ignore[name-defined]  # noqa: F821


def test_every_problem_of_a_type_is_reported_with_its_location() -> None:
    node, builder = build(Broken)
    assert node == ref(Broken)
    assert builder.problems == [
        BuildProblem(
            "Shop.method.param",
            "Broken.callback: unsupported type Callable[[int], str]: a callable cannot be sent as JSON",
        ),
        BuildProblem(
            "Shop.method.param",
            "Broken.lookup: dict[int, str]: JSON object keys are strings, use str keys",
        ),
        BuildProblem(
            "Shop.method.param",
            "Broken.plain: unsupported type Plain: a plain class has no field model (use a dataclass, TypedDict, NamedTuple or pydantic model)",
        ),
        BuildProblem("Shop.method.param", "Broken.later: unresolved name 'Missing'"),
    ]
    assert builder.graph().definitions[Broken].fields == (Field(name="fine", type=INT),)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("annotation", "reason"),
    [
        (type[int], "unsupported type type[int]: a class object cannot be sent as JSON"),
        (abc.Iterator[int], "unsupported type Iterator[int]: an iterator cannot be sent as JSON"),
        (
            Union[int, Callable[[], None]],
            "unsupported type Callable[[], None]: a callable cannot be sent as JSON",
        ),
        (Literal[b"x"], "Literal value b'x' is not a JSON scalar"),
        (typing.Mapping[int, str], "Mapping[int, str]: JSON object keys are strings, use str keys"),
    ],
    ids=repr,
)
def test_unsupported_types(annotation: Any, reason: str) -> None:
    node, builder = build(annotation)
    assert node is None
    assert builder.problems == [BuildProblem("Shop.method.param", reason)]


def test_a_failing_annotation_is_reported_again_at_each_use() -> None:
    builder = TypeBuilder()
    assert builder.build(Plain, location="A.a.x") is None
    assert builder.build(Plain, location="A.b.y") is None
    assert [problem.location for problem in builder.problems] == ["A.a.x", "A.b.y"]


def test_named_types_are_built_once_and_shared() -> None:
    builder = TypeBuilder()
    first = builder.build(Product, location="A.a.x")
    second = builder.build(list[Product], location="A.b.y")
    assert first == ref(Product)
    assert second == ArrayNode(item=ref(Product), python_type=list)
    assert list(builder.graph().definitions) == [Product]


def test_no_default_marker_is_kept_for_required_fields() -> None:
    _, builder = build(Point)
    assert builder.graph().definitions[Point].fields[0].default is NO_DEFAULT  # type: ignore[union-attr]


def test_more_problems_pydantic_incomplete_bad_string_mixed_literal(
    load: Callable[[str, str], Any],
) -> None:
    pytest.importorskip("pydantic")
    module = load(
        "llmapp_test_edges",
        """
        from __future__ import annotations
        import dataclasses, enum
        from typing import Literal
        import pydantic

        class Color(enum.Enum):
            RED = "red"

        class Incomplete(pydantic.BaseModel):
            x: Undefined

        @dataclasses.dataclass
        class Bad:
            a: "list[int"
            b: Literal[Color.RED, "x"]
        """,
    )
    builder = TypeBuilder()
    assert builder.build(module.Incomplete, location="S.m.a") is None
    builder.build(module.Bad, location="S.m.b")
    assert builder.problems == [
        BuildProblem(
            "S.m.a", "pydantic model Incomplete is incomplete: name 'Undefined' is not defined"
        ),
        BuildProblem(
            "S.m.b",
            "Bad.a: cannot evaluate annotation 'list[int': '[' was never closed (<annotation>, line 1)",
        ),
        BuildProblem(
            "S.m.b", "Bad.b: Literal[<Color.RED: 'red'>, 'x'] mixes Enum members with others"
        ),
    ]


class GenericMovie(te.TypedDict, Generic[T]):
    value: T
    values: list[T]


def test_generic_typeddict() -> None:
    node, builder = build(GenericMovie[int])
    assert node == ref(GenericMovie[int])
    definition = builder.graph().definitions[GenericMovie[int]]
    assert (definition.name, definition.fields) == (  # type: ignore[union-attr]
        "GenericMovie_int_",
        (
            Field(name="value", type=INT),
            Field(name="values", type=ArrayNode(item=INT, python_type=list)),
        ),
    )


@pytest.mark.skipif(sys.version_info < (3, 12), reason="PEP 695 syntax needs Python 3.12")
def test_pep695_aliases_and_generic_classes(load: Callable[[str, str], Any]) -> None:
    module = load(
        "llmapp_test_pep695",
        """
        import dataclasses
        type Tree = list[Tree]
        type Pair[T] = tuple[T, T]

        @dataclasses.dataclass
        class Page[T]:
            items: list[T]
            next: "Page[T] | None" = None
        """,
    )
    builder = TypeBuilder()
    tree = builder.build(module.Tree, location="S.m.a")
    pair = builder.build(module.Pair[int], location="S.m.b")
    page = builder.build(module.Page[int], location="S.m.c")
    assert builder.problems == []
    assert tree == ref(module.Tree)
    assert builder.graph().definitions[module.Tree].type == ArrayNode(
        item=ref(module.Tree), python_type=list
    )  # type: ignore[union-attr]
    assert pair == TupleNode(items=(INT, INT), python_type=tuple)
    assert page == ref(module.Page[int])
    assert builder.graph().definitions[module.Page[int]].fields == (  # type: ignore[union-attr]
        Field(name="items", type=ArrayNode(item=INT, python_type=list)),
        Field(
            name="next",
            type=UnionNode(options=(ref(module.Page[int]), NULL)),
            required=False,
            default=None,
        ),
    )


def test_inherited_fields_resolve_in_the_module_that_declares_them(
    load: Callable[[str, str], Any],
) -> None:
    base = load(
        "llmapp_test_base",
        """
        from __future__ import annotations
        import dataclasses

        @dataclasses.dataclass
        class Only:
            x: int

        @dataclasses.dataclass
        class Base:
            '''The base.

            Attributes:
                only: Known only here.
            '''
            only: Only
        """,
    )
    child = load(
        "llmapp_test_child",
        """
        from __future__ import annotations
        import dataclasses
        from llmapp_test_base import Base

        @dataclasses.dataclass
        class Child(Base):
            name: str
        """,
    )
    _, builder = build(child.Child)
    assert builder.problems == []
    assert builder.graph().definitions[child.Child].fields == (  # type: ignore[union-attr]
        Field(name="only", type=ref(base.Only), description="Known only here."),
        Field(name="name", type=STR),
    )


def test_annotations_are_cached_per_namespace_but_not_across_namespaces() -> None:
    builder = TypeBuilder()
    first_ns: dict[str, Any] = {"Thing": int}
    second_ns: dict[str, Any] = {"Thing": str}
    annotation = list[ForwardRef("Thing")]
    first = builder.build(annotation, location="A.a.x", globalns=first_ns)
    again = builder.build(annotation, location="A.b.y", globalns=first_ns)
    other = builder.build(annotation, location="A.c.z", globalns=second_ns)
    assert first is again
    assert first == ArrayNode(item=INT, python_type=list)
    assert other == ArrayNode(item=STR, python_type=list)


def test_odd_annotations_are_problems_never_exceptions() -> None:
    builder = TypeBuilder()
    odd: list[Any] = [[int], {}, 3, "", "1+", "A", te.Never, te.ParamSpec("P"), typing.Union]
    for annotation in odd:
        assert builder.build(annotation, location="S.m.p", globalns={"A": "A"}) is None
    assert [problem.reason for problem in builder.problems] == [
        "unsupported type [<class 'int'>]",
        "unsupported type {}",
        "unsupported type 3",
        "cannot evaluate annotation '': invalid syntax (<annotation>, line 0)",
        "cannot evaluate annotation '1+': invalid syntax (<annotation>, line 1)",
        "annotation 'A' names a string, not a type",
        "unsupported type Never",
        "unsupported type ~P",
        "unsupported type Union",
    ]


def test_unhashable_metadata_in_annotations() -> None:
    unhashable = Annotated[int, {"a": 1}]
    assert node_of(list[unhashable]) == ArrayNode(item=INT, python_type=list)
    node, builder = build(Page[unhashable])
    assert builder.problems == []
    definition = builder.graph().definitions[node.key]  # type: ignore[union-attr]
    assert definition.name == "Page_int_"


def test_the_class_rows_and_the_other_rows_accept_disjoint_types() -> None:
    """``bare`` tries the class rows for a class and the other rows for anything else: no
    predicate of one table may accept what the other table is for."""
    from llmapp.introspect import _types
    from llmapp.introspect._compat import is_class

    class Colour(enum.Enum):
        RED = "red"

    @dataclasses.dataclass
    class Point:
        x: int

    class Pair(typing.NamedTuple):
        a: int

    class Movie(te.TypedDict):
        title: str

    class Plain:
        pass

    T = typing.TypeVar("T")
    UserId = typing.NewType("UserId", int)
    Alias = te.TypeAliasType("Alias", int)
    samples = [Colour, Point, Pair, Movie, Plain, int, str, bool, datetime, Decimal, Path, object]
    samples += ["int", typing.ForwardRef("int"), T, UserId, Alias, list[int], None, typing.Any]
    for tp in samples:
        rows = _types._CLASS_ROWS if is_class(tp) else _types._OTHER_ROWS
        others = _types._OTHER_ROWS if is_class(tp) else _types._CLASS_ROWS
        assert [m for m, _ in others if m(tp)] == [], tp
        # None, list[int] and (before 3.11, where it is not a class) Any are answered
        # before the rows: by EXACT and ORIGINS.
        assert any(m(tp) for m, _ in rows) or tp in (None, list[int], typing.Any), tp


class Shade(enum.Enum):
    DARK = "d"
    BLACK = "d"  # an alias of DARK
    LIGHT = "l"


def test_enum_definition_names_each_value_once_by_its_first_name() -> None:
    _, builder = build(Shade)
    definition = builder.graph().definitions[Shade]
    assert isinstance(definition, EnumDef)
    assert (definition.values, definition.names) == (("d", "l"), ("DARK", "LIGHT"))
