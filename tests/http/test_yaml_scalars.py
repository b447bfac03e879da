"""Plain YAML scalars keep their YAML 1.2 core-schema meaning on the reader's fast path
(a first character no null, boolean or number starts with is a string at once)."""

from __future__ import annotations

from typing import Any

import pytest

from llmapp.http._yaml import read_yaml

PLAIN = [
    ("nope", "nope"),
    ("Null", None),
    ("~", None),
    ("~a", "~a"),
    ("True", True),
    ("True1", "True1"),
    ("FALSE", False),
    ("-x", "-x"),
    ("-1", -1),
    ("+.5", 0.5),
    (".x", ".x"),
    ("0x1f", 31),
    ("0x1g", "0x1g"),
    ("0o17", 15),
    ("0755", 755),
    ("1.10", 1.1),
    ("1e3", 1000.0),
    ("2021-01-30T08:30:00Z", "2021-01-30T08:30:00Z"),
    ("on", "on"),
    ("yes", "yes"),
    ("é", "é"),
]


@pytest.mark.parametrize(("text", "value"), PLAIN)
def test_a_plain_scalar_means_what_yaml_1_2_says(text: str, value: Any) -> None:
    data = read_yaml(f"key: {text}\nlist: [{text}]\n{text}: 1\n", "doc")
    assert data["key"] == value and type(data["key"]) is type(value)
    assert data["list"] == [value]
    assert data[text] == 1  # a key is its text


@pytest.mark.parametrize("text", [".inf", "-.Inf", ".nan"])
def test_not_finite_numbers_are_refused_as_values_and_keys(text: str) -> None:
    for document in (f"key: {text}\n", f"{text}: 1\n", f"- {text}\n"):
        with pytest.raises(ValueError, match="is not a JSON number"):
            read_yaml(document, "doc")


def test_quoted_and_tagged_scalars_stay_as_written() -> None:
    data = read_yaml("a: 'true'\nb: \"1\"\nc: !!str 2\nd: !!int '3'\n", "doc")
    assert data == {"a": "true", "b": "1", "c": "2", "d": 3}


def test_a_control_character_is_refused() -> None:
    with pytest.raises(ValueError, match="neither JSON nor YAML"):
        read_yaml("a: 1\n\x07", "doc")
