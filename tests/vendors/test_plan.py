"""Exports that fit: each vendor's planner on the Stripe application and on small classes.

Every planned entry is accepted by the vendor's offline checker (strict ones by ``problems``,
the request by its limits) and by the SDK's own types; a constraint a vendor was not shown
is still enforced by ``execute``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from pydantic import TypeAdapter

from llmapp import application, http, llm_application
from llmapp.vendors import anthropic, gemini, openai
from llmapp.vendors._plan import Limits
from llmapp.vendors.anthropic import _request_problems


def test_the_anthropic_plan_of_stripe_is_accepted(stripe: Any) -> None:
    from anthropic.types import ToolParam

    planned = anthropic.plan(stripe)
    TypeAdapter(list[ToolParam]).validate_python(planned.tools)
    assert [entry["name"] for entry in planned.tools] == [f.name for f in stripe.functions]
    strict = [entry for entry in planned.tools if entry.get("strict")]
    assert 0 < len(strict) <= anthropic.MAX_STRICT_TOOLS
    assert _request_problems([entry["input_schema"] for entry in strict]) == []
    for entry in strict:
        assert anthropic.problems(entry["input_schema"]) == [], entry["name"]
    assert all(entry["input_schema"]["type"] == "object" for entry in planned.tools)
    assert planned.strict == [d.name for d in planned.decisions if d.strict]
    assert all(d.reason for d in planned.decisions if not d.strict)


@pytest.mark.parametrize("api", ["chat", "responses"])
def test_the_openai_plan_of_stripe_is_accepted(stripe: Any, api: str) -> None:
    from openai.types.chat import ChatCompletionToolParam
    from openai.types.responses import FunctionToolParam

    planned = openai.plan(stripe, api=api)  # type: ignore[arg-type]
    shape = ChatCompletionToolParam if api == "chat" else FunctionToolParam
    TypeAdapter(list[shape]).validate_python(planned.tools)  # type: ignore[valid-type]
    strict = 0
    for entry in planned.tools:
        fields = entry["function"] if api == "chat" else entry
        if fields["strict"]:
            strict += 1
            assert openai.problems(fields["parameters"]) == [], fields["name"]
    assert strict == len(planned.strict) > len(stripe.functions) // 3


def test_the_gemini_plan_of_stripe_is_accepted(stripe: Any) -> None:
    from google.genai import types

    planned = gemini.plan(stripe)
    for declaration in planned.tools:
        types.FunctionDeclaration.model_validate(declaration)
        assert gemini.problems(declaration["parameters_json_schema"]) == []


def test_a_constraint_the_vendor_was_not_shown_is_still_refused_by_execute(stripe: Any) -> None:
    planned = anthropic.plan(stripe)
    decision = planned.decision("v1_customers_eraseByCustomer")
    assert decision is not None and decision.strict and decision.moved == ("customer: maxLength",)
    (entry,) = [e for e in planned.tools if e["name"] == decision.name]
    shown = entry["input_schema"]["properties"]["customer"]
    assert "maxLength" not in shown and "@maxLength 5000" in shown["description"]

    def unreachable(request: httpx.Request) -> httpx.Response:
        raise AssertionError("a refused call must not reach Stripe")

    connection = http.Connection(
        "https://api.stripe.test", transport=httpx.MockTransport(unreachable)
    )
    result = stripe.execute(connection, decision.name, {"customer": "x" * 5_001})
    assert not result.success
    assert result.validation.errors[0].path == "$input.customer"
    assert "MaxLength<5000>" in result.validation.errors[0].expected


@llm_application
class Many:
    """Twenty-five small functions, each with one optional parameter."""


def _function(number: int) -> Any:
    def method(self: Any, note: str = "") -> str:
        return "ok"

    method.__name__ = method.__qualname__ = f"f{number:02d}"
    method.__doc__ = f"Function {number}."
    return method


for _number in range(25):
    setattr(Many, f"f{_number:02d}", _function(_number))


def test_the_anthropic_budgets_go_to_the_preferred_then_the_cheapest() -> None:
    app = application(Many)
    planned = anthropic.plan(app)
    assert planned.strict == [f"f{n:02d}" for n in range(20)]
    assert planned.decision("f20").reason == "the request already holds 20 strict tools"
    preferred = anthropic.plan(app, prefer=["f24"])
    assert "f24" in preferred.strict and "f19" not in preferred.strict
    few = anthropic.plan(app, limits=Limits(optional_properties=3))
    assert few.strict == ["f00", "f01", "f02"]
    assert "1 optional properties pass the 0 left" in few.decision("f03").reason


@dataclass
class Node:
    """A tree node.

    Attributes:
        label: Its label.
        child: The one child it must have.
    """

    label: str
    child: Node | None


@llm_application
class Trees:
    """Recursive arguments."""

    def plant(self, root: Node) -> str:
        """Plant a tree."""
        return root.label


def test_gemini_falls_back_to_a_form_it_accepts() -> None:
    planned = gemini.plan(application(Trees))
    (decision,) = planned.decisions
    (declaration,) = planned.tools
    assert gemini.problems(declaration["parameters_json_schema"]) == []
    assert decision.form == "described" and not decision.strict
    assert "recursive reference in a required property" in decision.reason
    assert '"$defs"' in declaration["parameters_json_schema"]["description"]


def test_the_report_says_what_was_decided_per_function() -> None:
    report = anthropic.plan(application(Trees)).report()
    assert report.splitlines()[0] == "Anthropic: 0 of 1 strict"
    assert report.splitlines()[1].startswith("  plant: plain, json, refs kept; because ")


def test_the_cheapest_functions_go_strict_first(stripe: Any) -> None:
    # Stripe's operations spend the optional-property budget unevenly: the cheapest first
    # fill all 20 strict places; in document order the budget ran out after 9.
    assert len(anthropic.plan(stripe).strict) == anthropic.MAX_STRICT_TOOLS
