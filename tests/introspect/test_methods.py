"""Method collection: which methods become functions, their parameters, returns and problems."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Awaitable, Coroutine
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from typing import Annotated, Any

import pytest
from typing_extensions import Doc, NotRequired, Required, TypedDict, Unpack, deprecated

from llmapp._errors import BuildProblem
from llmapp.introspect import ClassSpec, DocstringWarning, inspect_class
from llmapp.introspect._types import TypeBuilder
from llmapp.introspect.model import NO_DEFAULT, MethodSpec, Node, ObjectDef, ParameterSpec


def node(annotation: Any) -> Node:
    """What the TypeBuilder makes of a type, to compare whole specs without restating it."""
    built = TypeBuilder().build(annotation, location="test", globalns=globals())
    assert built is not None
    return built


def names(spec: ClassSpec) -> list[str]:
    return [method.name for method in spec.methods]


def method(spec: ClassSpec, name: str) -> MethodSpec:
    return next(m for m in spec.methods if m.name == name)


def problems(spec: ClassSpec) -> list[str]:
    return [str(problem) for problem in spec.problems]


# --- kinds and whole specs --------------------------------------------------------------------


class Shop:
    """A shop."""

    def search(self, query: str, limit: int = 10) -> list[str]:
        """Search the catalogue.

        Look through every product.

        @tag catalog
        Args:
            query: Words to look for.
            limit: Most results to return.

        Returns:
            Product names.
        """
        return []

    async def fetch(self, sku: str) -> int:
        """Fetch stock."""
        return 0

    @staticmethod
    def ping() -> None:
        """Check the shop is up."""

    @classmethod
    def open_count(cls, /, day: date) -> float:
        """How many shops are open."""
        return 0.0


def test_every_kind_of_method_as_a_whole_spec() -> None:
    spec = inspect_class(Shop)
    assert spec.problems == ()
    assert spec.cls is Shop
    assert spec.methods == (
        MethodSpec(
            name="search",
            kind="instance",
            is_async=False,
            parameters=(
                ParameterSpec(name="query", type=node(str), description="Words to look for."),
                ParameterSpec(
                    name="limit",
                    type=node(int),
                    required=False,
                    default=10,
                    description="Most results to return.",
                ),
            ),
            returns=node(list[str]),
            description="Search the catalogue.\n\nLook through every product.",
            summary="Search the catalogue.",
            returns_description="Product names.",
            tags=("catalog",),
        ),
        MethodSpec(
            name="fetch",
            kind="instance",
            is_async=True,
            parameters=(ParameterSpec(name="sku", type=node(str)),),
            returns=node(int),
            description="Fetch stock.",
            summary="Fetch stock.",
        ),
        MethodSpec(
            name="ping",
            kind="static",
            is_async=False,
            parameters=(),
            returns=None,
            description="Check the shop is up.",
            summary="Check the shop is up.",
        ),
        MethodSpec(
            name="open_count",
            kind="class",
            is_async=False,
            parameters=(ParameterSpec(name="day", type=node(date)),),
            returns=node(float),
            description="How many shops are open.",
            summary="How many shops are open.",
        ),
    )


class Positional:
    def pick(self, index: int, /, label: str = "x") -> None: ...


def test_positional_only_is_recorded() -> None:
    (pick,) = inspect_class(Positional).methods
    assert [(p.name, p.positional_only, p.required) for p in pick.parameters] == [
        ("index", True, True),
        ("label", False, False),
    ]
    assert pick.parameters[1].default == "x"
    assert pick.parameters[0].default is NO_DEFAULT


class Awaiting:
    def later(self) -> Awaitable[int]:
        raise NotImplementedError

    def coroutine(self) -> Coroutine[Any, Any, str]:
        raise NotImplementedError

    async def nothing(self) -> None: ...


def test_awaitables_are_unwrapped_and_async() -> None:
    spec = inspect_class(Awaiting)
    assert spec.problems == ()
    assert [(m.name, m.is_async, m.returns) for m in spec.methods] == [
        ("later", True, node(int)),
        ("coroutine", True, node(str)),
        ("nothing", True, None),
    ]


# --- which methods ----------------------------------------------------------------------------


class Base:
    def alpha(self) -> None:
        """Base alpha."""

    def beta(self) -> int:
        """Base beta, documented once."""
        return 1

    def gamma(self) -> None: ...


class Derived(Base):
    def delta(self) -> None: ...

    def beta(self) -> int:  # overrides, no docstring: the base's is used
        return 2

    def alpha(self) -> None:
        """Derived alpha."""


def test_order_is_first_definition_bases_first_and_overrides_keep_their_place() -> None:
    spec = inspect_class(Derived)
    assert names(spec) == ["alpha", "beta", "gamma", "delta"]
    assert method(spec, "alpha").description == "Derived alpha."
    assert method(spec, "beta").description == "Base beta, documented once."


class Shadowed(Base):
    gamma = None  # type: ignore[assignment]  # a subclass can take a method away


def test_a_subclass_attribute_shadows_a_base_method() -> None:
    assert names(inspect_class(Shadowed)) == ["alpha", "beta"]


class NotFunctions:
    limit = 10

    class Nested:
        pass

    @property
    def size(self) -> int:
        return 1

    @cached_property
    def total(self) -> int:
        return 2

    def __len__(self) -> int:
        return 0

    def _private(self) -> None: ...

    def __mangled(self) -> None: ...

    def visible(self) -> None: ...


def test_properties_dunders_private_and_data_are_not_functions() -> None:
    assert names(inspect_class(NotFunctions)) == ["visible"]


class Flags:
    def shown(self) -> None: ...

    def secret(self) -> None:
        """Only for us.

        @hidden
        """

    def plumbing(self, bad: Any) -> Any:
        """@internal"""

    def approve(self, note: str) -> None:
        """A human approves.

        @human
        """


def test_hidden_and_internal_are_left_out_and_human_is_kept() -> None:
    spec = inspect_class(Flags)
    assert names(spec) == ["shown", "approve"]
    assert method(spec, "approve").human
    assert method(spec, "approve").description == "A human approves."
    assert not method(spec, "shown").human


class HiddenIsNotChecked:
    def fine(self) -> None: ...

    def broken(self, *args):  # type: ignore[no-untyped-def]
        """@hidden"""


def test_a_hidden_method_is_never_checked() -> None:
    spec = inspect_class(HiddenIsNotChecked)
    assert spec.problems == ()
    assert names(spec) == ["fine"]


def _logged(function: Any) -> Any:
    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return function(*args, **kwargs)

    return wrapper


class Wrapped:
    @_logged
    def run(self, times: int) -> str:
        """Run it."""
        return ""


def test_a_wrapped_method_reads_the_wrapped_signature() -> None:
    (run,) = inspect_class(Wrapped).methods
    assert [p.name for p in run.parameters] == ["times"]
    assert run.returns == node(str) and run.description == "Run it."


# --- deprecation ------------------------------------------------------------------------------


class Old:
    def tagged(self) -> None:
        """Old way.

        @deprecated use new()
        """

    @deprecated("use new()")
    def decorated(self) -> None:
        """Old way too."""

    @staticmethod
    @deprecated("use new()")
    def static_decorated() -> None: ...

    @classmethod
    @deprecated("use new()")
    def class_decorated(cls) -> None: ...

    def new(self) -> None: ...


def test_deprecated_by_tag_or_by_pep_702_decorator() -> None:
    spec = inspect_class(Old)
    assert [(m.name, m.deprecated) for m in spec.methods] == [
        ("tagged", True),
        ("decorated", True),
        ("static_decorated", True),
        ("class_decorated", True),
        ("new", False),
    ]
    assert method(spec, "tagged").description == "Old way."


# --- descriptions -----------------------------------------------------------------------------


class Described:
    def both(self, value: Annotated[int, Doc("From Doc.")]) -> None:
        """Docstring wins.

        Args:
            value: From the docstring.
        """

    def only_doc(self, value: Annotated[int, Doc("From Doc.")]) -> None: ...


def test_parameter_description_docstring_then_annotated_doc() -> None:
    spec = inspect_class(Described)
    assert method(spec, "both").parameters[0].description == "From the docstring."
    assert method(spec, "only_doc").parameters[0].description == "From Doc."


class Documented:
    def run(self, real: int) -> None:
        """Run.

        Args:
            real: Exists.
            ghost: Does not exist.
        """


def test_a_documented_but_absent_parameter_warns_with_its_location() -> None:
    with pytest.warns(DocstringWarning) as caught:
        spec = inspect_class(Documented)
    assert spec.problems == ()  # a warning, never an error
    (warning,) = caught
    assert str(warning.message) == (
        "Documented.run: docstring documents parameter 'ghost', which the method does not have"
    )
    assert warning.filename == __file__
    assert warning.lineno == Documented.run.__code__.co_firstlineno


def test_documenting_self_or_kwargs_does_not_warn() -> None:
    class Fine:
        def run(self, x: int, **options: Unpack[Options]) -> None:
            """Run.

            Args:
                self: The instance.
                x: X.
                options: Extra options.
                color: Which color.
            """

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        inspect_class(Fine)


# --- **kwargs: Unpack[TypedDict] --------------------------------------------------------------


class Options(TypedDict, total=False):
    """Drawing options.

    Attributes:
        color: Which color.
        width: Line width.
        label: What to write.
    """

    color: Required[str]
    width: int
    label: str


class Drawing:
    def draw(self, shape: str, **options: Unpack[Options]) -> None:
        """Draw.

        Args:
            shape: What to draw.
            label: Text from the method's own docstring.
        """


def test_unpack_spreads_typeddict_keys() -> None:
    spec = inspect_class(Drawing)
    assert spec.problems == ()
    (draw,) = spec.methods
    assert [(p.name, p.required, p.from_kwargs, p.description) for p in draw.parameters] == [
        ("shape", True, False, "What to draw."),
        ("color", True, True, "Which color."),
        ("width", False, True, "Line width."),
        ("label", False, True, "Text from the method's own docstring."),
    ]
    assert draw.parameters[1].type == node(str)


class TotalOptions(TypedDict):
    size: int
    note: NotRequired[str]


class Sized:
    def resize(self, **options: Unpack[TotalOptions]) -> None: ...


def test_unpack_total_typeddict_with_not_required() -> None:
    (resize,) = inspect_class(Sized).methods
    assert [(p.name, p.required) for p in resize.parameters] == [("size", True), ("note", False)]


class Clash:
    def run(self, size: int, **options: Unpack[TotalOptions]) -> None: ...


def test_a_kwargs_key_clashing_with_a_parameter_is_a_problem() -> None:
    spec = inspect_class(Clash)
    assert problems(spec) == [
        "Clash.run.size: named twice: as a parameter and as a key of **kwargs"
    ]
    assert spec.methods == ()


# --- forward references -----------------------------------------------------------------------


class Catalog:
    def first(self, where: Place) -> Product:
        """Both types are defined after this class."""
        raise NotImplementedError

    def itself(self) -> Catalog:
        raise NotImplementedError

    def date(self) -> None:
        """A method named like a type must not hide the type."""

    def today(self) -> date:
        raise NotImplementedError


@dataclass
class Product:
    sku: str


@dataclass
class Place:
    city: str


def test_forward_references_and_types_defined_after_the_class() -> None:
    spec = inspect_class(Catalog)
    assert [str(p) for p in spec.problems if "itself" not in p.location] == []
    first = method(spec, "first")
    assert first.parameters[0].type == node(Place)
    assert first.returns == node(Product)
    assert {definition.cls for definition in spec.graph.definitions.values()} >= {Product, Place}
    assert method(spec, "today").returns == node(date)


# --- problems ---------------------------------------------------------------------------------


class Broken:
    def ok(self, x: int) -> int:
        return x

    def star(self, *args: int) -> None: ...

    def bare(self, **kwargs: Any) -> None: ...

    def untyped_kwargs(self, **kwargs):  # type: ignore[no-untyped-def]
        pass

    def no_annotation(self, a, b: int):  # type: ignore[no-untyped-def]
        pass

    def unknown(self, a: Missing, b: AlsoMissing) -> int:  # type: ignore[name-defined]  # noqa: F821
        return 0

    def unpack_not_typeddict(self, **kwargs: Unpack[Product]) -> None: ...  # type: ignore[misc]

    def naïve(self) -> None: ...

    def long(self) -> None:
        """X"""

    def long_param(self, p: int) -> None:
        """Fine.

        Args:
            p: PPP
        """


Broken.long.__doc__ = "x" * 1025
Broken.long_param.__doc__ = "Fine.\n\nArgs:\n    p: " + "y" * 1025


def test_every_problem_is_reported_together_with_its_location() -> None:
    spec = inspect_class(Broken)
    assert problems(spec) == [
        "Broken.star.args: *args is not supported: an LLM passes named arguments; give each one a name",
        "Broken.bare.kwargs: bare **kwargs is not supported: annotate it as **kwargs: "
        "Unpack[SomeTypedDict] (got Any)",
        "Broken.untyped_kwargs.kwargs: bare **kwargs is not supported: annotate it as **kwargs: "
        "Unpack[SomeTypedDict]",
        "Broken.untyped_kwargs: missing return annotation (add '-> None' if it returns nothing)",
        "Broken.no_annotation.a: missing type annotation",
        "Broken.no_annotation: missing return annotation (add '-> None' if it returns nothing)",
        "Broken.unknown.a: unresolvable forward reference 'Missing'",
        "Broken.unknown.b: unresolvable forward reference 'AlsoMissing'",
        "Broken.unpack_not_typeddict.kwargs: Unpack[...] of **kwargs needs a TypedDict, "
        "got Product",
        "Broken.naïve: invalid function name 'naïve': "
        "a function name must match ^[A-Za-z_][A-Za-z0-9_-]{0,63}$",
        "Broken.long: description is 1,025 characters, over the limit of 1,024",
        "Broken.long_param.p: description is 1,025 characters, over the limit of 1,024",
    ]
    assert names(spec) == ["ok"]  # methods with problems are left out


class Unsupported:
    def run(self, handle: memoryview) -> None: ...

    def back(self) -> memoryview:
        raise NotImplementedError


def test_unsupported_types_come_from_the_builder_with_their_location() -> None:
    spec = inspect_class(Unsupported)
    assert [p.location for p in spec.problems] == [
        "Unsupported.run.handle",
        "Unsupported.back.return",
    ]
    assert all("memoryview" in p.reason for p in spec.problems)
    assert spec.methods == ()


def test_a_long_name_is_a_problem() -> None:
    name = "n" * 65
    cls = type("LongName", (), {name: lambda self: None})
    cls.__dict__[name].__annotations__["return"] = None
    assert [p.reason.split(":")[0] for p in inspect_class(cls).problems] == [
        f"invalid function name {name!r}"
    ]


def test_a_class_with_no_functions() -> None:
    class Empty:
        def _helper(self) -> None: ...

    assert inspect_class(Empty).problems == (BuildProblem("Empty", NO_FUNCTIONS_REASON),)


NO_FUNCTIONS_REASON = "the class has no public method to become a function"


def test_a_method_without_self() -> None:
    class NoSelf:
        def run() -> None: ...  # type: ignore[misc]

    (problem,) = inspect_class(NoSelf).problems
    assert problem.location.endswith("NoSelf.run")
    assert problem.reason == "the method takes no 'self' parameter"


def test_not_a_class_never_raises() -> None:
    spec = inspect_class(42)  # type: ignore[arg-type]
    assert problems(spec) == ["42: is not a class"]


def test_the_graph_holds_the_typeddict_of_unpack() -> None:
    spec = inspect_class(Drawing)
    assert any(
        isinstance(d, ObjectDef) and d.cls is Options for d in spec.graph.definitions.values()
    )


def test_nested_forward_references_resolve_in_the_defining_module() -> None:
    class Later:
        def many(self, items: Any) -> None: ...

        def bad(self, items: Any) -> None: ...

    Later.many.__annotations__ = {"items": list["Product"], "return": None}
    Later.bad.__annotations__ = {"items": list["Nowhere"], "return": None}  # noqa: F821
    spec = inspect_class(Later)
    assert method(spec, "many").parameters[0].type == node(list[Product])
    (problem,) = spec.problems
    assert problem.location.endswith("Later.bad.items")
    assert "'Nowhere'" in problem.reason


class WithNested:
    class Query(TypedDict):
        text: str

    Limit = Annotated[int, Doc("At most this many.")]

    def ask(self, query: Query, limit: Limit = 5) -> None: ...


def test_types_defined_in_the_class_body_resolve() -> None:
    spec = inspect_class(WithNested)
    assert spec.problems == ()
    (ask,) = spec.methods
    assert ask.parameters[0].type == node(WithNested.Query)
    assert ask.parameters[1].description == "At most this many."


def test_inherited_methods_resolve_in_their_own_module(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    other = types.ModuleType("other_module")
    monkeypatch.setitem(sys.modules, "other_module", other)
    exec(
        "from __future__ import annotations\n"
        "from dataclasses import dataclass\n"
        "class Base:\n"
        "    def lookup(self, key: OnlyThere) -> OnlyThere: ...\n"
        "@dataclass\n"
        "class OnlyThere:\n"
        "    value: int\n",
        other.__dict__,
    )

    class Child(other.Base):  # type: ignore[name-defined,misc]
        def own(self) -> None: ...

    spec = inspect_class(Child)
    assert spec.problems == ()
    assert names(spec) == ["lookup", "own"]
    assert method(spec, "lookup").returns == node(other.OnlyThere)


class Odd:
    no_signature = staticmethod(getattr)

    def syntax(self, x: Any) -> None: ...

    def failing(self, x: Any) -> None: ...


Odd.syntax.__annotations__["x"] = "list[int"
Odd.failing.__annotations__["x"] = "dict[str, int][int]"


def test_odd_methods_are_problems_not_exceptions() -> None:
    spec = inspect_class(Odd)
    assert [p.location for p in spec.problems] == [
        "Odd.no_signature",
        "Odd.syntax.x",
        "Odd.failing.x",
    ]
    assert spec.problems[0].reason.startswith("cannot read the signature")
    assert spec.problems[1].reason.startswith("cannot evaluate annotation 'list[int'")
    assert spec.problems[2].reason.startswith("cannot evaluate annotation 'dict[str, int][int]'")
