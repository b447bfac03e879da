"""Tool search through the vendors' SDK clients: search, load, call, on the Stripe application.

The vendor is the recording server on 127.0.0.1 (``loopback``); Stripe's API is an httpx
``MockTransport`` behind the HTTP door's ``Connection``. Each loop's first request carries
``search_tools`` alone; the model searches, the next request carries what it found, and the
model's call of one of them reaches Stripe as a request.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from pydantic import TypeAdapter
from tests.support.sdk import needs

from llmapp import http
from llmapp.search import ToolSearch
from llmapp.vendors import anthropic as anthropic_vendor
from llmapp.vendors import openai as openai_vendor

pytestmark = needs("openai", "anthropic", reason="the vendors' SDKs are in the dev extra")

REFUND = "v1_charges_refund_postByCharge"


class Stripe:
    """Stripe's API, faked: records each request and answers a refund."""

    def __init__(self) -> None:
        self.seen: list[httpx.Request] = []
        self.connection = http.Connection(
            "https://api.stripe.test", transport=httpx.MockTransport(self.answer)
        )

    def answer(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        return httpx.Response(200, json={"id": "re_1", "object": "refund", "amount": 500})


def names_in(tools: list[dict[str, Any]]) -> list[str]:
    return [tool.get("name") or tool["function"]["name"] for tool in tools]


def test_openai_chat_searches_loads_and_calls_a_stripe_function(
    kit: Any, loopback: Any, stripe: Any
) -> None:
    import openai
    from openai.types.chat import ChatCompletionMessageParam, ChatCompletionToolParam

    searching, api = ToolSearch(stripe), Stripe()
    turns = [
        kit.chat([("call_1", "search_tools", {"query": "refund a charge"})]),
        kit.chat([("call_2", REFUND, {"charge": "ch_1", "body": {"amount": 500}})]),
        kit.chat([], "Refunded."),
    ]
    loopback.reply = lambda path, body: turns[len(loopback.requests) - 1]
    client = openai.OpenAI(base_url=f"{loopback.url}/v1", api_key="test", max_retries=0)
    messages: list[Any] = [{"role": "user", "content": "Refund charge ch_1, 5 euros."}]
    for _ in turns:
        tools = openai_vendor.tools(searching)
        TypeAdapter(list[ChatCompletionToolParam]).validate_python(tools)
        completion = client.chat.completions.create(
            model="gpt-test", messages=messages, tools=tools
        )
        messages.append(completion.choices[0].message)
        messages += openai_vendor.call_tools(searching, api.connection, completion)
    TypeAdapter(list[ChatCompletionMessageParam]).validate_python(
        loopback.requests[-1][1]["messages"]
    )

    sent = [body["tools"] for _, body in loopback.requests]
    assert names_in(sent[0]) == ["search_tools"]
    assert REFUND in names_in(sent[1]) and len(sent[1]) <= 1 + searching.k
    found = json.loads(messages[2]["content"])["functions"]
    assert REFUND in [each["name"] for each in found]
    (request,) = api.seen
    assert (request.method, request.url.path) == ("POST", "/v1/charges/ch_1/refund")
    assert b"amount=500" in request.content
    assert json.loads(messages[-2]["content"])["id"] == "re_1"
    assert searching.most_used(1) == [REFUND]


def test_anthropic_searches_loads_and_calls_a_stripe_function(
    kit: Any, loopback: Any, stripe: Any
) -> None:
    import anthropic
    from anthropic.types import MessageParam, ToolParam

    searching, api = ToolSearch(stripe, k=3), Stripe()
    turns = [
        kit.anthropic([("toolu_1", "search_tools", {"query": "refund a charge", "k": 3})]),
        kit.anthropic([("toolu_2", REFUND, {"charge": "ch_1", "body": {"amount": 500}})]),
        kit.anthropic([], "Refunded."),
    ]
    loopback.reply = lambda path, body: turns[len(loopback.requests) - 1]
    client = anthropic.Anthropic(base_url=loopback.url, api_key="test", max_retries=0)
    messages: list[Any] = [{"role": "user", "content": "Refund charge ch_1, 5 euros."}]
    for _ in turns:
        tools = anthropic_vendor.tools(searching)
        TypeAdapter(list[ToolParam]).validate_python(tools)
        message = client.messages.create(
            model="claude-test", max_tokens=512, messages=messages, tools=tools
        )
        messages.append({"role": "assistant", "content": message.content})
        answers = anthropic_vendor.call_tools(searching, api.connection, message)
        if answers:
            assert not any(answer["is_error"] for answer in answers), answers
            messages.append({"role": "user", "content": answers})
    TypeAdapter(list[MessageParam]).validate_python(loopback.requests[-1][1]["messages"])

    sent = [body["tools"] for _, body in loopback.requests]
    assert names_in(sent[0]) == ["search_tools"]
    assert REFUND in names_in(sent[1]) and len(sent[1]) == 4
    assert [request.url.path for request in api.seen] == ["/v1/charges/ch_1/refund"]


def test_wrong_search_arguments_are_answered_with_feedback(stripe: Any) -> None:
    searching = ToolSearch(stripe)
    result = searching.execute(None, "search_tools", {"query": "", "k": 500})
    assert not result.success
    assert "$input.query" in result.message() and "$input.k" in result.message()
    assert searching.loaded == []


def test_anthropic_deferred_export_is_accepted_by_its_sdk(stripe: Any) -> None:
    from anthropic.types import ToolUnionParam

    searching = ToolSearch(stripe)
    searching.execute(None, "search_tools", {"query": "refund a charge"})
    searching.execute(Stripe().connection, REFUND, {"charge": "ch_1"})
    kept = searching.most_used(1)
    tools = [anthropic_vendor.search_tool(), *anthropic_vendor.tools(stripe, defer=True, keep=kept)]
    TypeAdapter(list[ToolUnionParam]).validate_python(tools)
    assert tools[0] == {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}
    shown = [tool["name"] for tool in tools[1:] if not tool.get("defer_loading")]
    assert shown == [REFUND]
    assert len(tools) == 1 + len(stripe.functions)
    regex = anthropic_vendor.search_tool("regex")
    TypeAdapter(ToolUnionParam).validate_python(regex)
    assert regex["name"] == "tool_search_tool_regex"


def test_defer_takes_names_and_predicates(stripe: Any) -> None:
    chosen = anthropic_vendor.tools(stripe, defer=lambda f: "refund" in f.name)
    deferred = {tool["name"] for tool in chosen if tool.get("defer_loading")}
    assert REFUND in deferred and all("refund" in name for name in deferred)
    named = anthropic_vendor.tools(stripe, defer=[REFUND])
    assert [tool["name"] for tool in named if tool.get("defer_loading")] == [REFUND]
    with pytest.raises(ValueError, match="not among the exported functions: nope"):
        anthropic_vendor.tools(stripe, defer=["nope"])
    with pytest.raises(ValueError, match="api='responses'"):
        openai_vendor.tools(stripe, defer=True)


def test_openai_responses_deferred_export_is_accepted_by_its_sdk(stripe: Any) -> None:
    from openai.types.responses import ToolParam

    tools = [
        openai_vendor.search_tool(),
        *openai_vendor.tools(stripe, api="responses", defer=True, keep=[REFUND]),
    ]
    TypeAdapter(list[ToolParam]).validate_python(tools)
    assert tools[0] == {"type": "tool_search"}
    assert [t["name"] for t in tools[1:] if not t.get("defer_loading")] == [REFUND]


def test_openai_client_tool_search_is_answered_by_llmapps_index(
    kit: Any, loopback: Any, stripe: Any
) -> None:
    import openai
    from openai.types.responses import ResponseInputItemParam, ToolParam

    searching = ToolSearch(stripe, k=2)
    tool = openai_vendor.search_tool(searching)
    TypeAdapter(ToolParam).validate_python(tool)
    assert tool["execution"] == "client"
    search_call = {
        "type": "tool_search_call",
        "id": "ts_1",
        "call_id": "call_ts",
        "execution": "client",
        "status": "completed",
        "arguments": {"query": "refund a charge"},
    }
    response = kit.responses([])
    response["output"] = [search_call]
    loopback.reply = lambda path, body: response
    client = openai.OpenAI(base_url=f"{loopback.url}/v1", api_key="test", max_retries=0)
    created = client.responses.create(model="gpt-test", input="Refund ch_1.", tools=[tool])

    (answer,) = openai_vendor.call_tools(searching, None, created)
    TypeAdapter(ResponseInputItemParam).validate_python(answer)
    assert answer["type"] == "tool_search_output" and answer["call_id"] == "call_ts"
    assert [each["name"] for each in answer["tools"]] == searching.loaded
    assert REFUND in searching.loaded and len(answer["tools"]) == 2


def test_anthropic_custom_tool_search_answers_with_tool_references(
    kit: Any, loopback: Any, stripe: Any
) -> None:
    import anthropic
    from anthropic.types import MessageParam, ToolParam

    searching, api = ToolSearch(stripe, k=2, references=True), Stripe()
    tools = anthropic_vendor.tools([searching.search]) + anthropic_vendor.tools(stripe, defer=True)
    TypeAdapter(list[ToolParam]).validate_python(tools)
    assert [t["name"] for t in tools if not t.get("defer_loading")] == ["search_tools"]
    turns = [
        kit.anthropic([("toolu_1", "search_tools", {"query": "refund a charge"})]),
        kit.anthropic([("toolu_2", REFUND, {"charge": "ch_1"})]),
        kit.anthropic([], "Refunded."),
    ]
    loopback.reply = lambda path, body: turns[len(loopback.requests) - 1]
    client = anthropic.Anthropic(base_url=loopback.url, api_key="test", max_retries=0)
    messages: list[Any] = [{"role": "user", "content": "Refund charge ch_1."}]
    answers: list[Any] = []
    for _ in turns:
        message = client.messages.create(
            model="claude-test", max_tokens=512, messages=messages, tools=tools
        )
        messages.append({"role": "assistant", "content": message.content})
        answers = anthropic_vendor.call_tools(searching, api.connection, message)
        if answers:
            messages.append({"role": "user", "content": answers})
    sent = loopback.requests[-1][1]["messages"]
    TypeAdapter(list[MessageParam]).validate_python(sent)
    (search_answer,) = sent[2]["content"]
    assert {block["type"] for block in search_answer["content"]} == {"tool_reference"}
    referenced = [block["tool_name"] for block in search_answer["content"]]
    assert len(referenced) == 2 and REFUND in referenced
    assert set(referenced) == set(searching.loaded)
    assert [request.url.path for request in api.seen] == ["/v1/charges/ch_1/refund"]
