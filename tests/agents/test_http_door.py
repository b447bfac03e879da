"""An OpenAPI application on its Connection as a LangChain toolset, against uvicorn on 127.0.0.1."""

import socket
import threading
import time
from collections.abc import Iterator
from typing import Annotated

import httpx
import pytest
from tests.support.sdk import needs

from llmapp.http import Connection, application

pytestmark = needs("fastapi", "uvicorn", "langgraph")


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    # Imported here, with the annotations below evaluated as they are defined (no
    # ``from __future__ import annotations``): FastAPI reads ``Query`` from them.
    import uvicorn
    from fastapi import FastAPI, Query

    api = FastAPI()
    booked: list[tuple[str, int]] = []

    @api.post("/rooms/{room}/bookings")
    def book(room: str, nights: Annotated[int, Query(ge=1, le=30)]) -> dict[str, object]:
        booked.append((room, nights))
        return {"room": room, "nights": nights, "booked": len(booked)}

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(api, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_an_http_function_answers_wrong_calls_with_feedback_and_sends_the_corrected_one(url):
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
    from langgraph.prebuilt import ToolNode

    from llmapp.agents.langchain import tools

    from .langchain_graph import ToolCallingFake, call, graph

    app = application(httpx.get(url + "/openapi.json").json())
    (function,) = app.functions
    made = tools(app, Connection(url))
    wrong = {"room": "12B", "query": {"nights": "two"}}
    right = {"room": "12B", "query": {"nights": 2}}
    replies = iter(
        [call(function.name, wrong, "a"), call(function.name, right, "b"), AIMessage("done")]
    )
    model = ToolCallingFake(messages=replies).bind_tools(made)
    state = graph(model, ToolNode(made)).invoke({"messages": [HumanMessage("Book 12B.")]})
    answers = [m for m in state["messages"] if isinstance(m, ToolMessage)]
    assert [m.status for m in answers] == ["error", "success"]
    assert "$input.query.nights" in answers[0].content
    assert '"booked": 1' in answers[1].content  # the wrong call sent nothing
