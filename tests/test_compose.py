"""``llmapp.compose``: a class, an OpenAPI document and another MCP server's tools as one
application, each part on its own target. Names stay unique (a clash names both origins; a
prefix resolves it); each function keeps its human side, supplied per call and never shown;
one execute routes each call to its origin. Served over MCP (the SDK's client), exported to
OpenAI, Anthropic and Gemini (the SDKs' own types accept it), run by every vendor's
``acall_tools`` and by the pydantic-ai and Agents SDK toolsets."""

import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any

import anyio
import pytest

pytest.importorskip("mcp")

import httpx
from mcp import Client
from mcp.server.mcpserver import MCPServer
from pydantic import BaseModel, Field
from tests.support.sdk import needs, sdk_accepts

import llmapp
import llmapp.http
import llmapp.mcp
from llmapp import ComposedApplication, LlmApplicationError, application, compose
from llmapp.markers import Human
from llmapp.schema import is_human
from llmapp.vendors import anthropic, gemini, openai

if TYPE_CHECKING:
    from fastapi import FastAPI

pytestmark = needs("fastapi")

USER, TENANT, OWNER = "user-secret-1", "tenant-secret-2", "owner-secret-3"
SECRETS = (USER, TENANT, OWNER)


class Shop:
    """Sells socks."""

    def __init__(self) -> None:
        self.orders: list[tuple[str, int, str]] = []

    def search(self, query: str) -> list[str]:
        """Search the shop."""
        return [f"{query} (shop)"]

    def order(
        self, item: str, count: Annotated[int, Field(ge=1)], user_id: Annotated[str, Human()]
    ) -> dict[str, Any]:
        """Order an item."""
        self.orders.append((item, count, user_id))
        return {"ordered": count}


class Note(BaseModel):
    text: str = Field(min_length=1)


def notes_api(sent: list[tuple[str, str]]) -> "FastAPI":
    # Imported here, with this module's annotations evaluated as they are defined (no
    # ``from __future__ import annotations``): FastAPI reads ``Query`` from them.
    from fastapi import FastAPI, Query, Request

    api = FastAPI(title="notes", description="Keeps notes.")

    @api.middleware("http")
    async def record(request: Request, call_next: Any) -> Any:
        sent.append((request.url.path, str(request.url.query)))
        return await call_next(request)

    @api.get("/search", operation_id="search")
    def search(q: str) -> list[str]:
        """Search the notes."""
        return [f"{q} (notes)"]

    @api.post("/notes", operation_id="add_note")
    def add_note(
        note: Note, tenant: Annotated[str, Query(json_schema_extra={"x-llmapp-human": True})]
    ) -> dict[str, Any]:
        """Add a note."""
        return {"saved": len(note.text)}

    return api


def files_server(read_by: list[tuple[str, str]]) -> MCPServer:
    server = MCPServer("files")

    @server.tool()
    def read(
        path: str, owner: Annotated[str, Field(json_schema_extra={"x-llmapp-human": True})]
    ) -> str:
        """Read a file."""
        read_by.append((path, owner))
        return f"contents of {path}"

    return server


class World:
    """The three origins, what each received, and the composed application."""

    def __init__(self) -> None:
        self.shop = Shop()
        self.sent: list[tuple[str, str]] = []
        self.read_by: list[tuple[str, str]] = []
        self.shop_app = application(Shop)
        self.notes_app = llmapp.http.application(
            notes_api(self.sent).openapi(), naming="operationId"
        )
        assert self.notes_app.errors == []

    def human(self, name: str) -> dict[str, str]:
        return {
            "order": {"user_id": USER},
            "notes_add_note": {"query": {"tenant": TENANT}},
            "read": {"owner": OWNER},
        }.get(name, {})


Body = Callable[[World, ComposedApplication], Awaitable[None]]


def composed(body: Body) -> World:
    """Run ``body`` with the composition live: the document on httpx's ASGI transport, the
    MCP server's tools on the SDK's in-memory client session."""
    world = World()

    async def main() -> None:
        transport = httpx.ASGITransport(app=notes_api(world.sent))
        async with (
            httpx.AsyncClient(transport=transport) as client,
            Client(files_server(world.read_by)) as files,
        ):
            files_app = llmapp.mcp.application(
                await files.session.list_tools(), separate=is_human, name="files"
            )
            assert files_app.errors == []
            connection = llmapp.http.Connection("http://notes", client=client)
            app = compose(
                (world.shop_app, world.shop),
                (world.notes_app, connection),
                (files_app, files.session),
                prefix={world.notes_app: "notes_"},
            )
            await body(world, app)

    anyio.run(main)
    return world


NAMES = ["search", "order", "notes_search", "notes_add_note", "read"]
VALID = {
    "order": {"item": "socks", "count": 2},
    "notes_add_note": {"body": {"text": "hello"}},
    "read": {"path": "/a.txt"},
    "notes_search": {"query": {"q": "wool"}},
}
WRONG = {
    "order": ({"item": "socks", "count": 0}, "$input.count"),
    "notes_add_note": ({"body": {"text": ""}}, "$input.body.text"),
    "read": ({"path": 7}, "$input.path"),
}


def test_a_name_listed_twice_is_a_build_problem_naming_both_origins() -> None:
    world = World()
    with pytest.raises(LlmApplicationError) as raised:
        compose((world.shop_app, world.shop), (world.notes_app, None))
    message = str(raised.value)
    assert "search: listed by LlmApplication 'Shop' and by HttpLlmApplication 'notes'" in message
    with pytest.raises(LlmApplicationError, match="not a name the vendors accept"):
        compose(
            (world.shop_app, world.shop), (world.notes_app, None), prefix={world.notes_app: "a b"}
        )
    with pytest.raises(TypeError, match="pairs"):
        compose(world.shop_app)  # type: ignore[arg-type]


def test_one_execute_routes_each_call_to_its_origin_with_its_human_side() -> None:
    async def body(world: World, app: ComposedApplication) -> None:
        assert [function.name for function in app.functions] == NAMES
        assert isinstance(app, llmapp.Application)
        assert app.description == "Sells socks.\n\nKeeps notes."
        for name, arguments in VALID.items():
            result = await app.aexecute(None, name, arguments, world.human(name))
            assert result.success, result
            assert result.name == name
        for name, (arguments, path) in WRONG.items():
            result = await app.aexecute(None, name, arguments, world.human(name))
            assert not result.success and path in (result.feedback or ""), result
        unknown = await app.aexecute(None, "add_note", {})
        assert "notes_add_note" in (unknown.feedback or "")

    world = composed(body)
    assert world.shop.orders == [("socks", 2, USER)]
    assert world.sent == [("/notes", f"tenant={TENANT}"), ("/search", "q=wool")]
    assert world.read_by == [("/a.txt", OWNER)]


def test_a_prefixed_function_keeps_its_origin_its_human_side_and_its_controls() -> None:
    world = World()
    app = compose(
        (world.shop_app, world.shop), (world.notes_app, None), prefix={world.notes_app: "n_"}
    )
    origin = app.origin("n_add_note")
    assert origin is not None and origin.app is world.notes_app and origin.name == "add_note"
    renamed, own = app.require("n_add_note"), world.notes_app.require("add_note")
    assert renamed.separated == own.separated and renamed.parameters == own.parameters
    assert app.method("order") is not None and app.method("n_search") is None
    assert app.takes_context("order") is False
    # the verbs every door has: a document has no method and takes no context
    for door in (world.shop_app, world.notes_app, app):
        assert isinstance(door, llmapp.Application)
    assert world.notes_app.takes_context("search") is False
    assert world.notes_app.method("search") is None
    assert (world.shop_app.name, world.notes_app.name) == ("Shop", "notes")
    assert world.notes_app.description == "Keeps notes."
    with pytest.raises(llmapp.ExecutionError, match="takes no target"):
        app.execute(world.shop, "order", {})


def test_served_over_mcp_with_the_human_side_from_the_hook() -> None:
    answers: dict[str, Any] = {}

    async def body(world: World, app: ComposedApplication) -> None:
        served = llmapp.mcp.server(app, human=lambda function, context: world.human(function.name))
        async with Client(served) as client:
            answers["listed"] = await client.list_tools()
            for name, arguments in VALID.items():
                answers[name] = await client.call_tool(name, arguments)
            for name, (arguments, _) in WRONG.items():
                answers["wrong " + name] = await client.call_tool(name, arguments)

    world = composed(body)
    listed = answers["listed"].tools
    assert [tool.name for tool in listed] == NAMES
    shown = json.dumps([tool.model_dump(mode="json") for tool in listed])
    for hidden in ("user_id", "tenant", "owner", *SECRETS):
        assert hidden not in shown
    assert not answers["order"].is_error and not answers["read"].is_error
    assert not answers["notes_add_note"].is_error
    for name, (_, path) in WRONG.items():
        wrong = answers["wrong " + name]
        assert wrong.is_error and path in wrong.content[0].text
    assert world.shop.orders == [("socks", 2, USER)]
    assert world.sent == [("/notes", f"tenant={TENANT}"), ("/search", "q=wool")]
    assert world.read_by == [("/a.txt", OWNER)]


@needs("openai", "anthropic", "google.genai", reason="the vendors' SDKs are in the dev extra")
@pytest.mark.parametrize("vendor", ["openai", "openai-responses", "anthropic", "gemini"])
def test_exported_to_every_vendor_without_the_human_side(vendor: str) -> None:
    async def body(world: World, app: ComposedApplication) -> None:
        exported = {
            "openai": lambda: openai.tools(app),
            "openai-responses": lambda: openai.tools(app, api="responses"),
            "anthropic": lambda: anthropic.tools(app),
            "gemini": lambda: gemini.tools(app),
        }[vendor]()
        sdk_accepts(vendor, exported)
        text = json.dumps(exported)
        for name in NAMES:
            assert f'"{name}"' in text
        for hidden in ("user_id", "tenant", "owner"):
            assert hidden not in text

    composed(body)


def test_every_vendor_s_acall_tools_runs_the_composed_calls() -> None:
    calls = [("c1", "order", VALID["order"]), ("c2", "notes_add_note", VALID["notes_add_note"])]
    calls.append(("c3", "read", VALID["read"]))
    human = {name: World().human(name) for _, name, _ in calls}
    messages = {
        openai: {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": id,
                    "type": "function",
                    "function": {"name": name, "arguments": json.dumps(arguments)},
                }
                for id, name, arguments in calls
            ],
        },
        anthropic: {
            "content": [
                {"type": "tool_use", "id": id, "name": name, "input": arguments}
                for id, name, arguments in calls
            ]
        },
        gemini: {
            "parts": [
                {"function_call": {"id": id, "name": name, "args": arguments}}
                for id, name, arguments in calls
            ]
        },
    }
    answers: dict[str, list[Any]] = {}

    async def body(world: World, app: ComposedApplication) -> None:
        for vendor, message in messages.items():
            answers[vendor.__name__] = await vendor.acall_tools(
                app, None, message, human=human, context="the user"
            )

    world = composed(body)
    assert world.shop.orders == [("socks", 2, USER)] * 3
    assert world.read_by == [("/a.txt", OWNER)] * 3
    assert [path for path, _ in world.sent] == ["/notes"] * 3
    text = json.dumps(answers, default=str)
    assert "could not be run" not in text and "contents of /a.txt" in text
    for secret in SECRETS:
        assert secret not in text


def test_the_pydantic_ai_toolset_runs_a_composition() -> None:
    pytest.importorskip("pydantic_ai")
    from pydantic_ai import Agent
    from pydantic_ai.messages import ModelResponse, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel

    from llmapp.agents.pydantic_ai import toolset

    script = [("order", VALID["order"]), ("notes_add_note", VALID["notes_add_note"])]
    script.append(("read", VALID["read"]))
    seen: list[AgentInfo] = []

    def respond(messages: list[Any], info: AgentInfo) -> ModelResponse:
        seen.append(info)
        turn = len(seen) - 1
        if turn < len(script):
            name, arguments = script[turn]
            return ModelResponse(parts=[ToolCallPart(name, json.dumps(arguments), f"c{turn}")])
        from pydantic_ai.messages import TextPart

        return ModelResponse(parts=[TextPart("done")])

    shown: list[str] = []

    async def body(world: World, app: ComposedApplication) -> None:
        tools = toolset((app, None), human=lambda name, ctx: world.human(name))
        result = await Agent(FunctionModel(respond), toolsets=[tools]).run("Go.")
        returned = [
            part
            for message in result.all_messages()
            for part in getattr(message, "parts", [])
            if isinstance(part, ToolReturnPart)
        ]
        assert [part.outcome for part in returned] == ["success"] * 3
        shown.append(repr(result.all_messages()))
        shown.append(json.dumps([tool.parameters_json_schema for tool in seen[0].function_tools]))

    world = composed(body)
    assert world.shop.orders == [("socks", 2, USER)]
    assert world.read_by == [("/a.txt", OWNER)]
    assert world.sent == [("/notes", f"tenant={TENANT}")]
    for secret in (*SECRETS, "user_id", "tenant", "owner"):
        assert secret not in shown[1]
    for secret in SECRETS:
        assert secret not in shown[0]


def test_the_agents_sdk_tools_run_a_composition() -> None:
    pytest.importorskip("agents")
    from agents import Agent, Runner, set_tracing_disabled
    from tests.agents.agents_sdk import Scripted

    from llmapp.agents.openai_agents import tools

    set_tracing_disabled(True)
    model = Scripted(
        ("order", json.dumps(VALID["order"])),
        ("notes_add_note", json.dumps(VALID["notes_add_note"])),
        ("read", json.dumps(VALID["read"])),
    )

    async def body(world: World, app: ComposedApplication) -> None:
        made = tools((app, None), human=lambda name, context: world.human(name))
        agent = Agent(name="composed", model=model, tools=made)
        result = await Runner.run(agent, "Go.")
        assert result.final_output == "done"

    world = composed(body)
    assert world.shop.orders == [("socks", 2, USER)]
    assert world.read_by == [("/a.txt", OWNER)]
    assert world.sent == [("/notes", f"tenant={TENANT}")]
    shown = repr(model.inputs) + json.dumps([tool.params_json_schema for tool in model.tools])
    for secret in SECRETS:
        assert secret not in shown
    for hidden in ("user_id", "tenant", "owner"):
        assert hidden not in json.dumps([tool.params_json_schema for tool in model.tools])
