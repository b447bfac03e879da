"""Human-side parameters never reach a vendor: not in any export, never a reason for a strict
build to fail, and merged back by ``call_tools(..., human=...)``."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any

import pytest

from llmapp import application, llm_application
from llmapp.markers import Human
from llmapp.vendors import anthropic, gemini, openai


def is_secret(schema: Mapping[str, Any]) -> bool:
    """``separate=``: free-form maps (credentials) are for the human."""
    return (
        schema.get("type") == "object"
        and "additionalProperties" in schema
        and (schema["additionalProperties"] is not False)
    )


@llm_application(separate=is_secret)
class Desk:
    """A desk that files documents."""

    def __init__(self) -> None:
        self.filed: list[tuple[Any, ...]] = []

    def file(
        self,
        title: str,
        pages: Annotated[dict[str, bytes], Human()],
        credentials: dict[str, str],
        copies: int = 1,
    ) -> str:
        """File a document.

        Args:
            title: The document's title.
            pages: The scanned pages, from the user.
            credentials: The archive's credentials, from the application.
            copies: How many copies.
        """
        self.filed.append((title, pages, credentials, copies))
        return f"filed {title}"


HUMAN_NAMES = ("pages", "credentials")
EXPORTS = {
    "openai": lambda app, strict: openai.tools(app, strict=strict),
    "openai-responses": lambda app, strict: openai.tools(app, strict=strict, api="responses"),
    "anthropic": lambda app, strict: anthropic.tools(app, strict=strict),
    "gemini": lambda app, strict: gemini.tools(app, strict=strict),
    "gemini-openapi": lambda app, strict: gemini.tools(app, strict=strict, schema="openapi"),
}


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("vendor", sorted(EXPORTS))
def test_no_export_mentions_the_human_side(vendor: str, strict: bool) -> None:
    app = application(Desk)
    function = app.functions[0]
    assert function.separated is not None and function.separated.human is not None
    assert set(function.separated.human["properties"]) == set(HUMAN_NAMES)

    text = json.dumps(EXPORTS[vendor](app, strict))  # strict builds succeed: dict[str, T] is human

    for name in HUMAN_NAMES:
        assert f'"{name}"' not in text
    assert '"title"' in text and '"copies"' in text


def test_the_human_side_alone_would_fail_strict_mode() -> None:
    """The check above means something: the same types on the model's side are refused."""
    parameters = application(Desk).functions[0].parameters
    assert openai.problems(parameters) != []
    assert any("additionalProperties" in problem for problem in anthropic.problems(parameters))


CALLS = [("h1", "file", {"title": "Lease", "copies": None})]


@pytest.mark.parametrize("vendor", ["chat", "responses", "anthropic", "gemini"])
def test_call_tools_merges_the_human_values(kit: Any, vendor: str) -> None:
    app, desk = application(Desk), Desk()
    module = {"chat": openai, "responses": openai, "anthropic": anthropic, "gemini": gemini}
    response = {
        "chat": kit.chat,
        "responses": kit.responses,
        "anthropic": kit.anthropic,
        "gemini": kit.gemini,
    }[vendor](CALLS)
    human = {"file": {"pages": {"1": b"%PDF"}, "credentials": {"user": "archive"}}}

    answers = module[vendor].call_tools(app, desk, response, human=human)

    assert len(answers) == 1
    # null for an optional value (what a strict export makes the model send) is its default
    assert desk.filed == [("Lease", {"1": b"%PDF"}, {"user": "archive"}, 1)]


def test_the_model_cannot_send_human_values(kit: Any) -> None:
    app, desk = application(Desk), Desk()
    response = kit.anthropic([("h1", "file", {"title": "Lease", "pages": {"1": "forged"}})])
    human = {"file": {"pages": {"1": b"%PDF"}, "credentials": {"user": "archive"}}}

    [answer] = anthropic.call_tools(app, desk, response, human=human)

    assert answer["is_error"] and "$input.pages" in answer["content"]
    assert desk.filed == []
