"""Human-side values in every shape: split where the split is faithful, refused at build time
where it is not, and never subject to strict rules."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Optional, TypedDict

import pytest
from typing_extensions import Unpack

from llmapp import ExecutionError, LlmApplicationError, application
from llmapp.markers import Format, Human


@dataclass
class Meta:
    title: str
    owner_id: Annotated[str, Human()]


class Docs:
    def save(self, meta: Optional[Meta] = None) -> str:  # noqa: UP045 (the issue's spelling)
        """Save a document."""
        return "none" if meta is None else f"{meta.title} by {meta.owner_id}"

    def save_all(self, metas: Optional[list[Meta]] = None) -> list[str]:  # noqa: UP045
        """Save documents."""
        return [meta.owner_id for meta in metas or []]


def test_optional_dataclass_with_a_human_field_is_split():
    function = application(Docs).function("save")
    assert function is not None and function.separated is not None
    assert "owner_id" not in json.dumps(function.separated.llm)
    assert "owner_id" in json.dumps(function.separated.human)


def test_the_model_cannot_fill_a_human_field_inside_optional():
    app = application(Docs)
    attack = {"meta": {"title": "t", "owner_id": "attacker"}}
    result = app.execute(Docs(), "save", attack, human={"meta": {"owner_id": "u1"}})
    assert not result.success
    assert result.validation is not None
    assert [(i.path, i.expected) for i in result.validation.errors] == [
        ("$input.meta.owner_id", "undefined")
    ]
    done = app.execute(Docs(), "save", {"meta": {"title": "t"}}, human={"meta": {"owner_id": "u1"}})
    assert done.value == "t by u1"


def test_the_model_s_null_stays_null_whatever_the_human_gave():
    result = application(Docs).execute(
        Docs(), "save", {"meta": None}, human={"meta": {"owner_id": "u1"}}
    )
    assert result.value == "none"


@dataclass
class Inner:
    note: str
    meta: Optional[Meta] = None  # noqa: UP045


class Nested:
    def keep(self, inner: Inner, metas: dict[str, Meta] | None = None) -> str:
        """Keep."""
        found = "none" if inner.meta is None else inner.meta.owner_id
        return f"{found} {sorted(metas or {})}"


@pytest.mark.parametrize("human", [None, {"meta": {"owner_id": "u1"}}], ids=["without", "with"])
@pytest.mark.parametrize("model", [{"meta": None}, {}], ids=["null", "left out"])
def test_leaving_out_an_optional_value_with_a_human_half_is_the_model_s_null(
    model: dict[str, Any], human: dict[str, Any] | None
) -> None:
    """A hook that cannot see whether the model gave ``meta`` may always supply its half."""
    result = application(Docs).execute(Docs(), "save", model, human=human)
    assert result.success and result.value == "none"


def test_a_left_out_value_with_a_human_half_is_null_at_any_depth() -> None:
    app = application(Nested)
    human = {"inner": {"meta": {"owner_id": "u1"}}, "metas": {"a": {"owner_id": "u2"}}}
    left_out = app.execute(Nested(), "keep", {"inner": {"note": "n"}, "metas": None}, human=human)
    assert left_out.value == "none []"
    omitted = app.execute(Nested(), "keep", {"inner": {"note": "n"}}, human=human)
    assert omitted.value == "none []"
    given = {"inner": {"note": "n", "meta": {"title": "t"}}, "metas": {"a": {"title": "t"}}}
    assert app.execute(Nested(), "keep", given, human=human).value == "u1 ['a']"
    # the human's half alone is still checked when the model gave its half
    with pytest.raises(ExecutionError, match=r"missing \$input\.inner\.meta\.owner_id"):
        app.execute(Nested(), "keep", given, human={"metas": human["metas"]})


def test_optional_list_of_dataclasses_with_a_human_field_is_split():
    app = application(Docs)
    model = {"metas": [{"title": "a"}, {"title": "b"}]}
    human = {"metas": [{"owner_id": "u1"}, {"owner_id": "u2"}]}
    assert app.execute(Docs(), "save_all", model, human=human).value == ["u1", "u2"]
    attack = {"metas": [{"title": "a", "owner_id": "attacker"}]}
    assert not app.execute(Docs(), "save_all", attack, human={"metas": [{"owner_id": "u"}]}).success
    with pytest.raises(ExecutionError, match=r"missing \$input\.metas\[1\]\.owner_id"):
        app.execute(Docs(), "save_all", model, human={"metas": [{"owner_id": "u1"}]})


class Unsplittable:
    def pick(self, token: Annotated[str, Human()] | int = 0) -> str:
        """A union with a human branch: who would pick the branch?"""
        return repr(token)

    def pair(self, p: tuple[Annotated[str, Human()], int]) -> str:
        """A tuple with a human slot."""
        return p[0]

    def either(self, m: Meta | int) -> str:
        """A union of a dataclass with a human field and something else."""
        return repr(m)


def test_human_values_inside_unions_and_tuples_are_refused_at_build_time():
    with pytest.raises(LlmApplicationError) as raised:
        application(Unsplittable)
    lines = [str(problem) for problem in raised.value.problems]
    assert [line.split(":")[0] for line in lines] == [
        "Unsplittable.pick.token",
        "Unsplittable.pair.p",
        "Unsplittable.either.m",
    ]
    assert "a union (anyOf) at $input.token" in lines[0]
    assert "a fixed-length tuple (prefixItems) at $input.p" in lines[1]


def is_password(schema: Mapping[str, Any]) -> bool:
    return schema.get("format") == "password"


class Login:
    def login(self, secret: Annotated[str, Human()] | None = None) -> str:
        """Optional[Human()]: the human composes the whole value, null included."""
        return repr(secret)


def test_an_optional_human_value_goes_whole_to_the_human():
    app = application(Login)
    function = app.function("login")
    assert function is not None and function.separated is not None
    assert function.separated.llm["properties"] == {}
    assert app.execute(Login(), "login", {}, human={"secret": "s3"}).value == "'s3'"


class Vault:
    def open(self, key: Annotated[str, Format("password")] | int) -> str:
        """Open."""
        return repr(key)


def test_a_separate_predicate_inside_a_union_is_refused_too():
    with pytest.raises(LlmApplicationError, match=r"Vault\.open\.key: a human-side value"):
        application(Vault, separate=is_password)
    assert application(Vault).functions  # without the predicate nothing is human


# --- strict rules apply to what the model sees ---------------------------------------------


class Service:
    def call(
        self,
        query: str,
        extra: Annotated[Any, Human()] = None,
        headers: Annotated[dict[str, str], Human()] | None = None,
    ) -> str:
        """Call a service."""
        return query


def test_human_values_of_any_type_build_in_strict_mode():
    app = application(Service, strict=True)
    function = app.functions[0]
    assert function.separated is not None
    assert function.separated.llm["properties"] == {"query": {"type": "string"}}
    assert function.separated.llm["required"] == ["query"]
    assert set(function.separated.human["properties"]) == {"extra", "headers"}
    assert function.separated.human["required"] == []
    result = app.execute(Service(), "call", {"query": "q"}, human={"headers": {"a": "b"}})
    assert result.value == "q"


def test_strict_mode_still_refuses_what_the_model_would_see():
    class Open:
        def call(self, headers: dict[str, str]) -> str:
            """Call."""
            return ""

    with pytest.raises(LlmApplicationError, match="strict mode"):
        application(Open, strict=True)


# --- strict inlining ---------------------------------------------------------------------------


@dataclass
class Node:
    """A tree node."""

    name: str
    children: list[Node] = field(default_factory=list)


@dataclass
class Address:
    """A postal address."""

    city: str


class Garden:
    def plant(self, root: Node, where: Address) -> int:
        """Plant a tree.

        Args:
            root: The root of the tree.
            where: Where to plant it.
        """
        return len(root.children)


def test_strict_never_copies_a_recursive_type_inline_and_keeps_the_docstring():
    parameters = application(Garden, strict=True).functions[0].parameters
    root = parameters["properties"]["root"]
    assert root == {"anyOf": [{"$ref": "#/$defs/Node"}], "description": "The root of the tree."}
    assert parameters["$defs"]["Node"]["description"] == "A tree node."
    where = parameters["properties"]["where"]
    assert where["description"] == "Where to plant it.\n\nA postal address."
    assert "Address" not in parameters["$defs"]
    result = application(Garden, strict=True).execute(
        Garden(),
        "plant",
        {
            "root": {"name": "r", "children": [{"name": "c", "children": None}]},
            "where": {"city": "Paris"},
        },
    )
    assert result.value == 1


# --- **kwargs keys that would break every call -------------------------------------------------


class Spread(TypedDict):
    self: str
    limit: int


class Catalogue:
    def search(self, **options: Unpack[Spread]) -> int:
        """Search."""
        return 0


def test_a_spread_key_named_like_the_method_s_own_parameter_is_refused():
    with pytest.raises(LlmApplicationError) as raised:
        application(Catalogue)
    assert [problem.location for problem in raised.value.problems] == ["Catalogue.search.self"]


class Shelf:
    def file(self, by_key: dict[str, Meta]) -> dict[str, str]:
        """File documents by key."""
        return {key: meta.owner_id for key, meta in by_key.items()}


def test_the_values_of_a_dict_split_key_by_key():
    app = application(Shelf)
    function = app.functions[0]
    assert function.separated is not None
    assert "owner_id" not in json.dumps(function.separated.llm)
    model = {"by_key": {"a": {"title": "A"}}}
    assert app.execute(
        Shelf(), "file", model, human={"by_key": {"a": {"owner_id": "u"}}}
    ).value == {"a": "u"}
    with pytest.raises(ExecutionError, match=r"missing \$input\.by_key\.b\.title"):
        app.execute(
            Shelf(),
            "file",
            model,
            human={"by_key": {"a": {"owner_id": "u"}, "b": {"owner_id": "v"}}},
        )
    attack = {"by_key": {"a": {"title": "A", "owner_id": "attacker"}}}
    assert not app.execute(
        Shelf(), "file", attack, human={"by_key": {"a": {"owner_id": "u"}}}
    ).success
