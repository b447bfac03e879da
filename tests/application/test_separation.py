"""Separation in an application: predicates, Human() markers, merge_parameters and the LLM-side validator."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import pytest

from llmapp import ExecutionError, application, llm_application, merge_parameters
from llmapp.markers import ContentMediaType, Human
from llmapp.schema import is_file


@dataclass
class Attachment:
    """A file with a caption.

    Attributes:
        caption: What the file shows.
        data: The file's bytes.
    """

    caption: str
    data: Annotated[bytes, ContentMediaType("image/png")]


@llm_application(separate=is_file)
class Mailer:
    """Sends mail."""

    def send(
        self, to: str, subject: str, attachments: list[Attachment], api_key: Annotated[str, Human()]
    ) -> int:
        """Send a message.

        Args:
            to: Recipient address.
            subject: Subject line.
            attachments: Files to attach.
            api_key: The mail service key.
        """
        assert api_key == "k-123"
        return sum(len(item.data) for item in attachments)

    def ping(self) -> str:
        """Check the service."""
        return "pong"


def test_split_by_predicate_and_marker_together():
    function = application(Mailer).function("send")
    separated = function.separated
    assert separated is not None
    assert set(separated.llm["properties"]) == {"to", "subject", "attachments"}
    assert separated.llm["required"] == ["to", "subject", "attachments"]
    assert set(separated.human["properties"]) == {"attachments", "api_key"}
    assert separated.llm["properties"]["attachments"]["items"] == {"$ref": "#/$defs/Attachment.Llm"}
    assert separated.llm["$defs"]["Attachment.Llm"]["properties"] == {
        "caption": {"type": "string", "description": "What the file shows."}
    }
    assert list(separated.human["$defs"]["Attachment.Human"]["properties"]) == ["data"]


def test_function_without_human_values_has_an_empty_human_side():
    ping = application(Mailer).function("ping")
    assert ping.separated is not None and ping.separated.human is None
    assert ping.separated.llm["properties"] == {}


def test_llm_side_validator_rejects_human_keys():
    separated = application(Mailer).function("send").separated
    assert separated is not None and separated.validate is not None
    result = separated.validate(
        {
            "to": "a@b.c",
            "subject": "hi",
            "attachments": [{"caption": "c", "data": "AAAA"}],
            "api_key": "x",
        }
    )
    assert sorted((i.path, i.expected) for i in result.errors) == [
        ("$input.api_key", "undefined"),
        ("$input.attachments[0].data", "undefined"),
    ]


def test_merge_parameters_joins_arrays_element_by_element():
    function = application(Mailer).function("send")
    merged = merge_parameters(
        function,
        {"to": "a@b.c", "subject": "hi", "attachments": [{"caption": "one"}, {"caption": "two"}]},
        {"attachments": [{"data": b"1"}, {"data": b"22"}], "api_key": "k-123"},
    )
    assert merged == {
        "to": "a@b.c",
        "subject": "hi",
        "attachments": [{"caption": "one", "data": b"1"}, {"caption": "two", "data": b"22"}],
        "api_key": "k-123",
    }


def test_execute_merges_files_into_nested_objects():
    result = application(Mailer).execute(
        Mailer(),
        "send",
        {"to": "a@b.c", "subject": "hi", "attachments": [{"caption": "one"}, {"caption": "two"}]},
        human={"attachments": [{"data": b"1"}, {"data": b"22"}], "api_key": "k-123"},
    )
    assert result.success, result.feedback
    assert result.value == 3


def test_merging_into_a_function_that_was_not_separated_is_an_error():
    class Plain:
        def run(self, text: str) -> str:
            """Run."""
            return text

    with pytest.raises(ExecutionError, match="was not separated"):
        merge_parameters(application(Plain).function("run"), {"text": "a"}, {"text": "b"})


def test_human_values_for_a_function_without_human_side_are_an_error():
    with pytest.raises(ExecutionError, match="takes no human-supplied arguments"):
        application(Mailer).execute(Mailer(), "ping", {}, human={"api_key": "x"})
