"""The stream helpers driven by each SDK's own event types (built offline, in the shapes
the APIs send): the first definite mistake comes before the stream ends, at its path; a
valid call runs once, after its last piece; a call the token limit cut never runs."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Annotated, Any, Literal

import pytest
from annotated_types import Ge, MaxLen

from llmapp import application, llm_application
from llmapp.streaming import CallFinished, CallMistake, CallStarted
from llmapp.streaming import anthropic as anthropic_stream
from llmapp.streaming import gemini as gemini_stream
from llmapp.streaming import openai as openai_stream


@dataclass
class Item:
    sku: str
    quantity: Annotated[int, Ge(1)]


@llm_application
class Shop:
    def __init__(self) -> None:
        self.ran: list[tuple[int, str]] = []
        self.read = 0  # events read from the stream so far (set by ``counted``)

    def order(
        self,
        customer: str,
        status: Literal["sent", "held"],
        items: Annotated[list[Item], MaxLen(3)],
        note: str | None = None,
    ) -> str:
        """Place an order."""
        self.ran.append((self.read, customer))
        return f"ordered for {customer}"


APP = application(Shop)
ITEMS = [{"sku": f"sku-{n}", "quantity": n + 1} for n in range(3)]
VALID = json.dumps({"customer": "ann", "status": "sent", "items": ITEMS})
WRONG = json.dumps({"customer": "ann", "status": "shipped", "items": ITEMS})
CUT = VALID[: VALID.index('"quantity": 2')]


def pieces(text: str, size: int = 7) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def counted(shop: Shop, events: list[Any]) -> Iterator[Any]:
    for number, event in enumerate(events, 1):
        shop.read = number
        yield event


# --- OpenAI Chat Completions -------------------------------------------------------------


def chat_chunks(text: str, finish: str = "tool_calls") -> list[Any]:
    from openai.types.chat import ChatCompletionChunk
    from openai.types.chat.chat_completion_chunk import (
        Choice,
        ChoiceDelta,
        ChoiceDeltaToolCall,
        ChoiceDeltaToolCallFunction,
    )

    def chunk(delta: ChoiceDelta, reason: Any = None) -> ChatCompletionChunk:
        choice = Choice(index=0, delta=delta, finish_reason=reason)
        return ChatCompletionChunk(
            id="c", choices=[choice], created=0, model="m", object="chat.completion.chunk"
        )

    first = ChoiceDeltaToolCall(
        index=0,
        id="call_1",
        type="function",
        function=ChoiceDeltaToolCallFunction(name="order", arguments=""),
    )
    chunks = [chunk(ChoiceDelta(role="assistant", tool_calls=[first]))]
    for piece in pieces(text):
        call = ChoiceDeltaToolCall(index=0, function=ChoiceDeltaToolCallFunction(arguments=piece))
        chunks.append(chunk(ChoiceDelta(tool_calls=[call])))
    chunks.append(chunk(ChoiceDelta(), finish))
    return chunks


# --- OpenAI Responses --------------------------------------------------------------------


def responses_events(text: str, finish: str = "completed") -> list[Any]:
    from openai.types.responses import (
        Response,
        ResponseCompletedEvent,
        ResponseFunctionCallArgumentsDeltaEvent,
        ResponseFunctionToolCall,
        ResponseIncompleteEvent,
        ResponseOutputItemAddedEvent,
        ResponseOutputItemDoneEvent,
    )

    item = ResponseFunctionToolCall(
        type="function_call",
        id="fc_1",
        call_id="call_1",
        name="order",
        arguments="",
        status="in_progress",
    )
    events: list[Any] = [
        ResponseOutputItemAddedEvent(
            type="response.output_item.added", item=item, output_index=0, sequence_number=1
        )
    ]
    for number, piece in enumerate(pieces(text), 2):
        events.append(
            ResponseFunctionCallArgumentsDeltaEvent(
                type="response.function_call_arguments.delta",
                item_id="fc_1",
                output_index=0,
                delta=piece,
                sequence_number=number,
            )
        )
    if finish == "completed":
        done = item.model_copy(update={"arguments": text, "status": "completed"})
        events.append(
            ResponseOutputItemDoneEvent(
                type="response.output_item.done", item=done, output_index=0, sequence_number=98
            )
        )
        response = Response.model_construct(status="completed")
        events.append(
            ResponseCompletedEvent(type="response.completed", response=response, sequence_number=99)
        )
    else:
        response = Response.model_construct(status="incomplete")
        events.append(
            ResponseIncompleteEvent(
                type="response.incomplete", response=response, sequence_number=99
            )
        )
    return events


# --- Anthropic ---------------------------------------------------------------------------


def anthropic_events(text: str, finish: str = "tool_use") -> list[Any]:
    from anthropic.types import (
        InputJSONDelta,
        MessageDeltaUsage,
        RawContentBlockDeltaEvent,
        RawContentBlockStartEvent,
        RawContentBlockStopEvent,
        RawMessageDeltaEvent,
        RawMessageStopEvent,
        ToolUseBlock,
    )
    from anthropic.types.raw_message_delta_event import Delta

    events: list[Any] = [
        RawContentBlockStartEvent(
            type="content_block_start",
            index=1,
            content_block=ToolUseBlock(type="tool_use", id="toolu_1", name="order", input={}),
        )
    ]
    for piece in pieces(text):
        events.append(
            RawContentBlockDeltaEvent(
                type="content_block_delta",
                index=1,
                delta=InputJSONDelta(type="input_json_delta", partial_json=piece),
            )
        )
    events.append(RawContentBlockStopEvent(type="content_block_stop", index=1))
    events.append(
        RawMessageDeltaEvent(
            type="message_delta",
            delta=Delta(stop_reason=finish, stop_sequence=None),  # type: ignore[arg-type]
            usage=MessageDeltaUsage(output_tokens=10),
        )
    )
    events.append(RawMessageStopEvent(type="message_stop"))
    return events


# --- Gemini ------------------------------------------------------------------------------


def gemini_chunks(text: str, finish: str = "STOP") -> list[Any]:
    """Vertex AI's streamed arguments (``partial_args``) for the same call."""
    from google.genai import types

    def chunk(call: types.FunctionCall, reason: Any = None) -> types.GenerateContentResponse:
        content = types.Content(role="model", parts=[types.Part(function_call=call)])
        candidate = types.Candidate(content=content, finish_reason=reason)
        return types.GenerateContentResponse(candidates=[candidate])

    chunks = [chunk(types.FunctionCall(name="order", id="g1", will_continue=True))]
    value = json.loads(text) if text is not CUT else json.loads(VALID)
    paths: list[tuple[str, Any]] = [
        ("$.customer", value["customer"]),
        ("$.status", value["status"]),
    ]
    for n, item in enumerate(value["items"]):
        paths += [(f"$.items[{n}].sku", item["sku"]), (f"$.items[{n}].quantity", item["quantity"])]
    if text is CUT:
        paths = paths[:5]
    for path, leaf in paths:
        if isinstance(leaf, str):
            halves = [leaf[: len(leaf) // 2], leaf[len(leaf) // 2 :]]
            for number, half in enumerate(halves):
                arg = types.PartialArg(json_path=path, string_value=half, will_continue=number == 0)
                chunks.append(chunk(types.FunctionCall(partial_args=[arg], will_continue=True)))
        else:
            arg = types.PartialArg(json_path=path, number_value=leaf)
            chunks.append(chunk(types.FunctionCall(partial_args=[arg], will_continue=True)))
    if finish == "STOP":
        chunks.append(chunk(types.FunctionCall(will_continue=False), types.FinishReason.STOP))
    else:
        chunks.append(chunk(types.FunctionCall(will_continue=True), types.FinishReason.MAX_TOKENS))
    return chunks


Make = Callable[..., list[Any]]
VENDORS: list[tuple[str, Make, Any, str]] = [
    ("chat", chat_chunks, openai_stream, "length"),
    ("responses", responses_events, openai_stream, "incomplete"),
    ("anthropic", anthropic_events, anthropic_stream, "max_tokens"),
    ("gemini", gemini_chunks, gemini_stream, "MAX_TOKENS"),
]


@pytest.mark.parametrize(("vendor", "make", "module", "cut"), VENDORS, ids=[v[0] for v in VENDORS])
def test_the_first_mistake_comes_before_the_stream_ends(
    vendor: str, make: Make, module: Any, cut: str
) -> None:
    shop = Shop()
    events = make(WRONG)
    seen: list[Any] = []
    for event in module.stream_calls(APP, shop, counted(shop, events)):
        seen.append(event)
        if isinstance(event, CallMistake):
            break
    assert isinstance(seen[0], CallStarted) and seen[0].name == "order"
    mistake = seen[-1]
    assert isinstance(mistake, CallMistake)
    assert [(i.path, i.expected) for i in mistake.issues] == [
        ("$input.status", '("sent" | "held")')
    ]
    assert shop.read < len(events) - 3  # well before the end
    assert "$input.status" in mistake.feedback and "did not run" in mistake.feedback
    assert shop.ran == []


@pytest.mark.parametrize(("vendor", "make", "module", "cut"), VENDORS, ids=[v[0] for v in VENDORS])
def test_a_valid_call_runs_once_after_its_last_piece(
    vendor: str, make: Make, module: Any, cut: str
) -> None:
    shop = Shop()
    events = make(VALID)
    seen = list(module.stream_calls(APP, shop, counted(shop, events)))
    finished = [e for e in seen if isinstance(e, CallFinished)]
    assert [type(e) for e in seen] == [CallStarted, CallFinished]
    assert finished[0].result.success and finished[0].result.value == "ordered for ann"
    assert len(shop.ran) == 1
    last_piece = max(n for n, e in enumerate(events, 1) if n < len(events))
    assert shop.ran[0][0] >= last_piece - 1


@pytest.mark.parametrize(("vendor", "make", "module", "cut"), VENDORS, ids=[v[0] for v in VENDORS])
def test_a_cut_call_never_runs(vendor: str, make: Make, module: Any, cut: str) -> None:
    shop = Shop()
    seen = list(module.stream_calls(APP, shop, make(CUT, cut)))
    finished = [e for e in seen if isinstance(e, CallFinished)]
    assert len(finished) == 1 and finished[0].cut
    result = finished[0].result
    assert not result.success and shop.ran == []
    assert result.feedback is not None and "cut off by the token limit" in result.feedback
    assert "$input.items[1]" in result.feedback  # where it stopped
    assert "Still missing: $input.items[1].quantity." in result.feedback


def test_the_whole_call_ends_the_stream_of_events_run_or_not() -> None:
    """A stream that stops without saying why (a dropped connection): nothing runs."""
    shop = Shop()
    events = chat_chunks(VALID)[:-1]
    finished = [
        e for e in openai_stream.stream_calls(APP, shop, events) if isinstance(e, CallFinished)
    ]
    assert finished[0].cut and shop.ran == []


def test_async_streams_run_the_call_with_aexecute() -> None:
    shop = Shop()

    async def events() -> Any:
        for event in anthropic_events(VALID):
            yield event

    async def collect() -> list[Any]:
        return [e async for e in anthropic_stream.astream_calls(APP, shop, events())]

    seen = asyncio.run(collect())
    assert isinstance(seen[-1], CallFinished) and seen[-1].result.success
    assert len(shop.ran) == 1


def test_gemini_whole_calls_are_checked_at_once() -> None:
    from google.genai import types

    call = types.FunctionCall(name="order", id="g1", args=json.loads(WRONG))
    content = types.Content(role="model", parts=[types.Part(function_call=call)])
    chunk = types.GenerateContentResponse(
        candidates=[types.Candidate(content=content, finish_reason=types.FinishReason.STOP)]
    )
    shop = Shop()
    seen = list(gemini_stream.stream_calls(APP, shop, [chunk]))
    assert [type(e) for e in seen] == [CallStarted, CallMistake, CallFinished]
    assert not seen[-1].result.success and shop.ran == []


def test_two_calls_the_first_runs_when_the_second_starts() -> None:
    shop = Shop()
    events = chat_chunks(VALID)
    from openai.types.chat.chat_completion_chunk import ChoiceDeltaToolCall

    second = [c.model_copy(deep=True) for c in events[:-1]]
    for chunk in second:
        for call in chunk.choices[0].delta.tool_calls or []:
            assert isinstance(call, ChoiceDeltaToolCall)
            call.index = 1
            if call.id:
                call.id = "call_2"
    stream = events[:-1] + second + events[-1:]
    seen = list(openai_stream.stream_calls(APP, shop, counted(shop, stream)))
    finished = [e for e in seen if isinstance(e, CallFinished)]
    assert [f.id for f in finished] == ["call_1", "call_2"]
    assert len(shop.ran) == 2 and shop.ran[0][0] <= len(events)


def test_the_application_s_bound_on_the_text_holds_while_streaming() -> None:
    @llm_application(max_length=60)
    class Short:
        def order(self, customer: str, status: Literal["sent", "held"], items: list[Item]) -> str:
            return customer

    seen = list(openai_stream.stream_calls(application(Short), Short(), chat_chunks(VALID)))
    finished = [e for e in seen if isinstance(e, CallFinished)]
    assert not finished[0].result.success
    assert "more than the 60" in (finished[0].result.feedback or "")
