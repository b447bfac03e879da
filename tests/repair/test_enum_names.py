"""The names of enum members (``x-enum-varnames``): read by coerce, shown by the feedback.

A string that is exactly one member's name, where the schema refuses that string, becomes
the member's value; a name that is also a value, names two values, or reads as a number
other than its own value is left for the validator to report. The expected text names
each member whose name says more than its value.
"""

from __future__ import annotations

import enum
from typing import Any

import pytest

from llmapp import application, llm_application, validator
from llmapp.repair import coerce, coercer
from llmapp.validate._expected import expected_of

PRIORITY = {"type": "integer", "enum": [1, 2, 3], "x-enum-varnames": ["LOW", "NORMAL", "HIGH"]}
COLOR = {"type": "string", "enum": ["r", "g"], "x-enum-varnames": ["RED", "GREEN"]}


def obj(schema: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"x": schema}}


@pytest.mark.parametrize(
    ("schema", "sent", "repaired"),
    [
        (PRIORITY, "HIGH", 3),
        (PRIORITY, "LOW", 1),
        (COLOR, "GREEN", "g"),
        (PRIORITY, "3", 3),  # a number in text: the usual repair, names or not
        ({"$ref": "#/$defs/P"}, "NORMAL", 2),
        ({"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}]}, "HIGH", 3),
        ({"type": "array", "items": {"$ref": "#/$defs/P"}}, ["HIGH", 1], [3, 1]),
        ({**PRIORITY, "x-enum-varnames": None, "x-enumNames": ["A", "B", "C"]}, "B", 2),  # NSwag
        # the same name for the same value in two branches is still one value
        ({"anyOf": [PRIORITY, PRIORITY]}, "HIGH", 3),
    ],
)
def test_a_name_becomes_its_value(schema: Any, sent: Any, repaired: Any) -> None:
    root = {**obj(schema), "$defs": {"P": PRIORITY}}
    assert coerce({"x": sent}, root) == {"x": repaired}
    assert validator(root)({"x": repaired}).success


@pytest.mark.parametrize(
    ("schema", "sent"),
    [
        (PRIORITY, "High"),  # exact names only: no case folding, no trimming
        (PRIORITY, " HIGH"),
        (COLOR, "r"),  # a value is never renamed
        # a name that is another member's value, or names two values, is not clear
        ({"type": "string", "enum": ["A", "B"], "x-enum-varnames": ["B", "C"]}, "B"),
        ({"anyOf": [PRIORITY, {**PRIORITY, "enum": [10, 20, 30]}]}, "HIGH"),
        # where the schema may take the string itself, the string stays
        ({"anyOf": [PRIORITY, {"type": "string"}]}, "HIGH"),
        ({"anyOf": [PRIORITY, {"type": "string", "enum": ["HIGH"]}]}, "HIGH"),
        # names that do not fit the enum are not read
        ({**PRIORITY, "x-enum-varnames": ["LOW", "HIGH"]}, "HIGH"),
        ({**PRIORITY, "x-enum-varnames": ["LOW", "NORMAL", 3]}, "LOW"),
        # a name that reads as a number other than its own value: which is meant?
        ({"type": "integer", "enum": [1, 2], "x-enum-varnames": ["2", "ONE"]}, "2"),
    ],
)
def test_an_unclear_name_is_left_alone(schema: Any, sent: Any) -> None:
    data = {"x": sent}
    assert coerce(data, obj(schema)) == data


def test_the_repair_only_changes_what_the_validator_refused() -> None:
    """``checked`` (the call step's path: check, then repair along the issues) agrees with
    ``coerce`` then check, for a name where strings are otherwise accepted (a str enum)."""
    schema = {
        "type": "object",
        "properties": {"c": COLOR, "p": PRIORITY, "s": {"type": "string"}},
    }
    check = validator(schema)
    data = {"c": "RED", "p": "HIGH", "s": "HIGH"}
    outcome = coercer(schema).checked(data, check)
    assert outcome.success
    assert outcome.data == {"c": "r", "p": 3, "s": "HIGH"}


@pytest.mark.parametrize(
    ("schema", "text"),
    [
        (PRIORITY, "(1 (LOW) | 2 (NORMAL) | 3 (HIGH))"),
        (COLOR, '("r" (RED) | "g" (GREEN))'),
        # a name that is its value, or differs only in case, says nothing more
        ({"enum": ["low", "B"], "x-enum-varnames": ["LOW", "B"]}, '("low" | "B")'),
        ({"enum": [1, 2], "x-enum-varnames": ["a b", "ok"]}, '(1 ("a b") | 2 (ok))'),
        ({"enum": [1, 2], "x-enum-varnames": ["A"]}, "(1 | 2)"),
    ],
)
def test_the_expected_text_names_the_members(schema: Any, text: str) -> None:
    assert expected_of(schema) == text


class Priority(enum.IntEnum):
    LOW = 1
    NORMAL = 2
    HIGH = 3


class Color(enum.Enum):
    RED = "r"
    GREEN = "g"
    CRIMSON = "r"  # an alias: one value, under its first name


class Grade(enum.IntEnum):
    HIGH = 10
    LOW = 20


@llm_application
class Desk:
    def file(self, priority: Priority, color: Color) -> str:
        """File a ticket."""
        return f"{priority!r} {color!r}"

    def rate(self, level: Priority | Grade) -> str:
        """Rate something."""
        return repr(level)


def test_a_class_door_reads_a_member_name_as_its_member() -> None:
    app = application(Desk)
    result = app.execute(Desk(), "file", '{"priority": "HIGH", "color": "GREEN"}')
    assert result.success, result.feedback
    assert result.data == "<Priority.HIGH: 3> <Color.GREEN: 'g'>"
    defs = app.function("file").parameters["$defs"]
    assert defs["Color"]["x-enum-varnames"] == ["RED", "GREEN"]


def test_the_feedback_names_the_members_of_a_misspelt_name() -> None:
    result = application(Desk).execute(Desk(), "file", '{"priority": "High", "color": "RED"}')
    assert not result.success and result.feedback is not None
    assert '"expected": "(1 (LOW) | 2 (NORMAL) | 3 (HIGH))"' in result.feedback
    assert [issue.path for issue in result.validation.errors] == ["$input.priority"]


def test_a_name_two_enums_of_a_union_share_is_left_alone() -> None:
    app = application(Desk)
    result = app.execute(Desk(), "rate", '{"level": "HIGH"}')
    assert not result.success and result.feedback is not None
    assert "3 (HIGH)" in result.feedback and "10 (HIGH)" in result.feedback
    assert app.execute(Desk(), "rate", '{"level": "NORMAL"}').data == "<Priority.NORMAL: 2>"
