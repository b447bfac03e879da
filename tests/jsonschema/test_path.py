"""Issue paths: the one writer and reader of typia's syntax."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmapp.jsonschema import Path, step


@pytest.mark.parametrize(
    ("segments", "text"),
    [
        ((), "$input"),
        (("customer", "age"), "$input.customer.age"),
        (("items", 3, "sku"), "$input.items[3].sku"),
        (("content-type",), '$input["content-type"]'),
        (("naïve", "a b", ""), '$input["naïve"]["a b"][""]'),
        (("$ref", "_x1"), "$input.$ref._x1"),
        (('quo"te',), '$input["quo\\"te"]'),
    ],
)
def test_writes_and_reads_typia_paths(segments: tuple[str | int, ...], text: str) -> None:
    assert str(Path(segments)) == text
    assert Path.parse(text) == Path(segments)


@pytest.mark.parametrize(
    "text", ["input.a", "$input.", "$input[", "$input[x]", '$input["a"', "$input..a", "$input[-1]"]
)
def test_parse_refuses_what_is_not_a_path(text: str) -> None:
    assert Path.parse(text) is None


def test_key_and_item_extend_without_mutating() -> None:
    root = Path()
    child = root.key("items").item(2)
    assert root == ()
    assert str(child) == "$input.items[2]"
    assert isinstance(child, Path)


def test_step_of_a_python_key_that_is_neither_string_nor_int() -> None:
    assert step(1.5) == "[1.5]"
    assert step(True) == "[True]"


@given(st.lists(st.one_of(st.text(max_size=8), st.integers(min_value=0, max_value=10**6))))
def test_parse_reads_back_every_written_path(segments: list[str | int]) -> None:
    path = Path(segments)
    assert Path.parse(str(path)) == path
