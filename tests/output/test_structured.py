"""Structured output: a Python type's schema per vendor, and the model's answer read into it."""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from datetime import date
from typing import Annotated, Literal

import pytest
from annotated_types import Ge, Le, MaxLen

from llmapp import LlmApplicationError
from llmapp.output import structured_output
from llmapp.vendors import openai


@dataclass
class Meeting:
    """A meeting the model extracted from an email.

    Attributes:
        title: What it is about.
        day: When.
        seats: How many people.
        room: Where, if said.
    """

    title: Annotated[str, MaxLen(40)]
    day: date
    seats: Annotated[int, Ge(1), Le(10)]
    room: str | None = None


def test_an_object_type_is_the_schemas_root_and_its_answer_becomes_the_type():
    output = structured_output(Meeting)
    assert output.schema["type"] == "object" and not output.wrapped
    assert set(output.schema["properties"]) == {"title", "day", "seats", "room"}
    result = output.parse('```json\n{"title": "Plan", "day": "2026-12-24", "seats": "3",}\n```')
    assert result.success, result.message()
    assert result.value == Meeting("Plan", date(2026, 12, 24), 3)
    assert result.data == {"title": "Plan", "day": "2026-12-24", "seats": 3}
    assert result.repairs


def test_a_wrong_answer_gets_feedback_naming_every_mistake():
    result = structured_output(Meeting).parse({"title": "x" * 41, "seats": 11, "extra": 1})
    assert not result.success and result.value is None
    paths = {issue.path for issue in result.validation.errors}
    assert paths == {"$input.title", "$input.day", "$input.seats", "$input.extra"}
    for path in paths:
        assert path in result.message()


def test_a_type_that_is_not_an_object_is_wrapped_and_unwrapped():
    output = structured_output(list[Literal["low", "high"]])
    assert output.wrapped and output.schema["required"] == ["result"]
    assert output.parse('{"result": ["low", "high"]}').value == ["low", "high"]
    wrong = output.parse('{"result": ["LOW", "medium"]}')
    assert not wrong.success and "$input.result[1]" in wrong.message()


def test_strict_openai_schemas_pass_openais_checker_and_validation_stays_full():
    output = structured_output(Meeting)
    fields = output.openai()
    spec = fields["response_format"]["json_schema"]
    assert spec["name"] == "Meeting" and spec["strict"] is True
    assert openai.problems(spec["schema"]) == []
    assert spec["schema"]["required"] == ["title", "day", "seats", "room"]
    # the strict form moved maxLength into the description; parse still enforces it
    assert "maxLength" not in spec["schema"]["properties"]["title"]
    strict_answer = {"title": "x" * 41, "day": "2026-12-24", "seats": 2, "room": None}
    assert "$input.title" in output.parse(strict_answer).message()
    assert output.parse({**strict_answer, "title": "ok"}).value == Meeting(
        "ok", date(2026, 12, 24), 2
    )
    responses = output.openai(api="responses")["text"]["format"]
    assert responses["type"] == "json_schema" and responses["schema"] == spec["schema"]


def test_anthropic_and_gemini_fields():
    output = structured_output(Meeting)
    forced = output.anthropic()
    assert forced["tool_choice"] == {"type": "tool", "name": "Meeting"}
    assert forced["tools"][0]["input_schema"] == output.schema
    assert output.anthropic(mode="output_format")["output_format"]["type"] == "json_schema"
    config = output.gemini()
    assert config["response_mime_type"] == "application/json"
    assert config["response_json_schema"] == output.schema


def test_a_type_that_cannot_be_expressed_is_one_build_error():
    with pytest.raises(LlmApplicationError, match=r"builtin_function_or_method"):
        structured_output(type(len))


class Urgency(enum.IntEnum):
    LOW = 1
    HIGH = 3


@dataclass
class Triage:
    urgency: Urgency


def test_enum_member_names_are_read_but_never_sent_to_a_vendor():
    """The answer may name a member ("HIGH" is read as 3); the vendors' schemas leave the
    names out, strict or not, as the tool exports do (no ``@x-enum-varnames`` line)."""
    output = structured_output(Triage)
    assert output.parse('{"urgency": "HIGH"}').value == Triage(Urgency.HIGH)
    fields = [
        output.openai(),
        output.openai(strict=False),
        output.anthropic(),
        output.anthropic(strict=True),
        output.gemini(),
    ]
    for field in fields:
        assert "HIGH" not in json.dumps(field), field
