"""llmapp's markers are values: Annotated metadata that compares, hashes and prints as such."""

from __future__ import annotations

import dataclasses
from typing import Annotated

import pytest

from llmapp.markers import URL, ContentMediaType, Email, Examples, Format, Human, Pattern, Title


def test_markers_are_built_positionally_or_by_name() -> None:
    assert Format("email") == Format(name="email")
    assert Pattern(r"^\d+$").regex == r"^\d+$"
    assert ContentMediaType("image/png").media_type == "image/png"
    assert Title("Name").text == "Name"
    assert Examples(1, 2).values == (1, 2)
    assert Human() == Human()


def test_equal_only_to_the_same_marker_with_the_same_value() -> None:
    assert Format("x") != Pattern("x")
    assert Format("x") != Format("y")
    assert Title("x") != "x"
    assert len({Format("x"), Format("x"), Pattern("x"), Human(), Human()}) == 3


def test_annotated_types_with_different_markers_stay_different() -> None:
    # typing caches Annotated forms by their metadata: equal markers must mean equal forms.
    assert Annotated[str, Format("x")] != Annotated[str, Title("x")]
    assert Annotated[str, Format("x")] == Annotated[str, Format("x")]
    assert Email == Annotated[str, Format("email")] and URL == Annotated[str, Format("uri")]


def test_markers_are_frozen_and_print_their_value() -> None:
    marker = Format("email")
    with pytest.raises(dataclasses.FrozenInstanceError):
        marker.name = "uri"  # type: ignore[misc]
    assert repr(marker) == "Format(name='email')"
    assert repr(Human()) == "Human()"
