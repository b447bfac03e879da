"""A union of tagged object types: the schema declares its discriminator,
and the feedback for a wrong tag names every allowed value, not one branch's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal, Union

import pytest

import llmapp
from llmapp import application


@dataclass
class Cat:
    kind: Literal["cat"]
    lives: int


@dataclass
class Dog:
    kind: Literal["dog"]
    good: bool


class Pets:
    def pet(self, p: Cat | Dog) -> str:
        """Pet an animal."""
        return type(p).__name__

    def maybe(self, p: Cat | Dog | None = None) -> str:
        """Pet an animal, or none."""
        return type(p).__name__


DISCRIMINATOR = {
    "propertyName": "kind",
    "mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog"},
}


@pytest.mark.parametrize("strict", [False, True])
def test_a_wrong_tag_is_told_every_allowed_value(strict: bool):
    app = application(Pets, strict=strict)
    result = app.execute(Pets(), "pet", {"p": {"kind": "cow"}})
    assert result.validation is not None
    assert [(i.path, i.expected) for i in result.validation.errors] == [
        ("$input.p.kind", '("cat" | "dog")')
    ]
    assert '"expected": "(\\"cat\\" | \\"dog\\")"' in result.message()


def test_the_schema_declares_the_discriminator_and_strict_mode_leaves_it_out():
    parameters = application(Pets).functions[0].parameters
    assert parameters["properties"]["p"]["discriminator"] == DISCRIMINATOR
    maybe = application(Pets).functions[1].parameters["properties"]["p"]
    assert maybe["discriminator"] == DISCRIMINATOR  # null takes no part
    strict = application(Pets, strict=True).functions[0]
    assert "discriminator" not in strict.parameters["properties"]["p"]
    assert strict.checked_parameters["properties"]["p"]["discriminator"] == DISCRIMINATOR


def test_the_discriminator_picks_the_branch_to_repair():
    result = application(Pets).execute(Pets(), "pet", {"p": {"kind": "dog", "good": "true"}})
    assert result.value == "Dog"


try:
    import pydantic
except ImportError:  # an optional extra
    pydantic = None  # type: ignore[assignment]

if pydantic is not None:

    class Fish(pydantic.BaseModel):
        kind: Literal["fish"]
        fins: int

    class Bird(pydantic.BaseModel):
        kind: Literal["bird"]
        wings: int

    class Zoo:
        def add(self, a: Annotated[Union[Fish, Bird], pydantic.Field(discriminator="kind")]) -> str:  # noqa: UP007
            """Add an animal."""
            return type(a).__name__


@pytest.mark.skipif(pydantic is None, reason="pydantic is an optional extra")
def test_a_pydantic_declared_discriminator_is_emitted():
    app = application(Zoo)
    schema = app.functions[0].parameters["properties"]["a"]
    assert schema["discriminator"]["propertyName"] == "kind"
    failure = llmapp.validator(app.functions[0].parameters)({"a": {"kind": "cow"}})
    assert [(i.path, i.expected) for i in failure.errors] == [
        ("$input.a.kind", '("fish" | "bird")')
    ]
    assert app.execute(Zoo(), "add", {"a": {"kind": "bird", "wings": "2"}}).value == "Bird"
