"""Round trips through the vendors' own SDK clients, pointed at a recording server on 127.0.0.1.

Each test sends our tools through the real client, receives a canned response with two
tool calls (one right, one with mistakes), answers them with ``call_tools`` and sends
the answers back: the recorded requests must carry our tools unchanged, the right call
must reach the method as Python values, the wrong one must be answered with feedback
naming every wrong path, and the SDK's own request types must accept the answers.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from pydantic import TypeAdapter
from tests.support.sdk import needs

from llmapp import application
from llmapp.vendors import anthropic as anthropic_vendor
from llmapp.vendors import gemini as gemini_vendor
from llmapp.vendors import openai as openai_vendor

pytestmark = needs(
    "openai", "anthropic", "google.genai", reason="the vendors' SDKs are in the dev extra"
)


def assert_ran_valid_call(kit: Any, orders: Any) -> None:
    assert orders.seen == [
        ("place", ("Ann", [kit.Line("abc", 2)], date(2026, 12, 1), kit.Priority.LOW))
    ]


def assert_feedback(kit: Any, text: str) -> None:
    for path in kit.WRONG_PATHS:
        assert path in text, path


@pytest.mark.parametrize("strict", [False, True])
def test_openai_chat(kit: Any, loopback: Any, strict: bool) -> None:
    import openai
    from openai.types.chat import ChatCompletionMessageParam, ChatCompletionToolParam

    app, orders = application(kit.Orders), kit.Orders()
    loopback.reply = kit.script(kit.chat, kit.TWO_CALLS, "Done.")
    client = openai.OpenAI(base_url=f"{loopback.url}/v1", api_key="test", max_retries=0)
    tools = openai_vendor.tools(app, strict=strict)
    TypeAdapter(list[ChatCompletionToolParam]).validate_python(tools)
    messages: list[Any] = [{"role": "user", "content": "Order for Ann."}]

    completion = client.chat.completions.create(model="gpt-test", messages=messages, tools=tools)
    answers = openai_vendor.call_tools(app, orders, completion)

    path, sent = loopback.requests[0]
    assert path == "/v1/chat/completions"
    assert sent["tools"] == tools
    assert_ran_valid_call(kit, orders)
    assert [answer["tool_call_id"] for answer in answers] == ["call_1", "call_2"]
    assert json.loads(answers[0]["content"]) == {"order": 1, "lines": 1}
    assert_feedback(kit, answers[1]["content"])

    messages += [completion.choices[0].message.model_dump(exclude_none=True), *answers]
    final = client.chat.completions.create(model="gpt-test", messages=messages, tools=tools)
    assert final.choices[0].message.content == "Done."
    TypeAdapter(list[ChatCompletionMessageParam]).validate_python(
        loopback.requests[1][1]["messages"]
    )
    assert loopback.requests[1][1]["messages"][-2:] == answers


@pytest.mark.parametrize("strict", [False, True])
def test_openai_responses(kit: Any, loopback: Any, strict: bool) -> None:
    import openai
    from openai.types.responses import FunctionToolParam, ResponseInputItemParam

    app, orders = application(kit.Orders), kit.Orders()
    loopback.reply = kit.script(kit.responses, kit.TWO_CALLS, "Done.")
    client = openai.OpenAI(base_url=f"{loopback.url}/v1", api_key="test", max_retries=0)
    tools = openai_vendor.tools(app, strict=strict, api="responses")
    TypeAdapter(list[FunctionToolParam]).validate_python(tools)

    response = client.responses.create(model="gpt-test", input="Order for Ann.", tools=tools)
    answers = openai_vendor.call_tools(app, orders, response)

    path, sent = loopback.requests[0]
    assert path == "/v1/responses"
    assert sent["tools"] == tools
    assert_ran_valid_call(kit, orders)
    assert [answer["call_id"] for answer in answers] == ["call_1", "call_2"]
    assert all(answer["type"] == "function_call_output" for answer in answers)
    assert_feedback(kit, answers[1]["output"])

    items = [item.model_dump(exclude_none=True) for item in response.output] + answers
    final = client.responses.create(model="gpt-test", input=items, tools=tools)
    assert final.output_text == "Done."
    TypeAdapter(list[ResponseInputItemParam]).validate_python(loopback.requests[1][1]["input"])
    assert loopback.requests[1][1]["input"][-2:] == answers


@pytest.mark.parametrize("strict", [False, True])
def test_anthropic(kit: Any, loopback: Any, strict: bool) -> None:
    import anthropic
    from anthropic.types import MessageParam, ToolParam

    app, orders = application(kit.Orders), kit.Orders()
    loopback.reply = kit.script(kit.anthropic, kit.TWO_CALLS, "Done.")
    client = anthropic.Anthropic(base_url=loopback.url, api_key="test", max_retries=0)
    tools = anthropic_vendor.tools(app, strict=strict)
    TypeAdapter(list[ToolParam]).validate_python(tools)
    messages: list[Any] = [{"role": "user", "content": "Order for Ann."}]

    message = client.messages.create(
        model="claude-test", max_tokens=512, messages=messages, tools=tools
    )
    answers = anthropic_vendor.call_tools(app, orders, message)

    path, sent = loopback.requests[0]
    assert path == "/v1/messages"
    assert sent["tools"] == tools
    assert_ran_valid_call(kit, orders)
    assert [(a["tool_use_id"], a["is_error"]) for a in answers] == [
        ("call_1", False),
        ("call_2", True),
    ]
    assert_feedback(kit, answers[1]["content"])

    messages.append({"role": "assistant", "content": message.content})
    messages.append({"role": "user", "content": answers})
    final = client.messages.create(
        model="claude-test", max_tokens=512, messages=messages, tools=tools
    )
    assert final.content[0].type == "text"
    sent_messages = loopback.requests[1][1]["messages"]
    TypeAdapter(list[MessageParam]).validate_python(sent_messages)
    assert sent_messages[-1] == {"role": "user", "content": answers}


@pytest.mark.parametrize("form", ["json", "openapi"])
def test_gemini(kit: Any, loopback: Any, form: str) -> None:
    from google import genai
    from google.genai import types

    app, orders = application(kit.Orders), kit.Orders()
    loopback.reply = kit.script(kit.gemini, kit.TWO_CALLS, "Done.")
    client = genai.Client(api_key="test", http_options=types.HttpOptions(base_url=loopback.url))
    declarations = gemini_vendor.tools(app, strict=True, schema=form)  # type: ignore[arg-type]
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=declarations)],  # type: ignore[arg-type]
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    contents: list[Any] = [types.Content(role="user", parts=[types.Part(text="Order for Ann.")])]

    response = client.models.generate_content(model="gemini-test", contents=contents, config=config)
    answers = gemini_vendor.call_tools(app, orders, response)

    path, sent = loopback.requests[0]
    assert path.endswith("/models/gemini-test:generateContent")
    sent_declarations = sent["tools"][0]["functionDeclarations"]
    if form == "json":  # the SDK sends this field under its Python name; protobuf JSON reads both
        sent_schemas = [
            _either(d, "parametersJsonSchema", "parameters_json_schema") for d in sent_declarations
        ]
        assert sent_schemas == [d["parameters_json_schema"] for d in declarations]
    else:
        sent_schemas = [d["parameters"] for d in sent_declarations]
        assert sent_schemas == [_as_sent(d["parameters"]) for d in declarations]
    assert_ran_valid_call(kit, orders)
    responses = [answer["function_response"] for answer in answers]
    assert [(r["id"], r["name"], list(r["response"])) for r in responses] == [
        ("call_1", "place", ["output"]),
        ("call_2", "place", ["error"]),
    ]
    assert_feedback(kit, responses[1]["response"]["error"])

    answer = types.Content.model_validate({"role": "user", "parts": answers})
    contents += [response.candidates[0].content, answer]  # type: ignore[index]
    final = client.models.generate_content(model="gemini-test", contents=contents, config=config)
    assert final.text == "Done."
    sent_parts = loopback.requests[1][1]["contents"][-1]["parts"]
    assert [part["functionResponse"]["id"] for part in sent_parts] == ["call_1", "call_2"]


def _either(data: dict[str, Any], camel: str, snake: str) -> Any:
    return data[camel] if camel in data else data[snake]


def _as_sent(schema: Any) -> Any:
    """The OpenAPI-form schema as the SDK sends it: through ``types.Schema``, unchanged."""
    from google.genai import types

    return types.Schema.model_validate(schema).model_dump(mode="json", exclude_none=True)
