"""One operation through three doors gives one answer.

The same ``order`` function reaches llmapp as a class method (``application(Shop)``), as
an operation of a FastAPI app's OpenAPI document (``llmapp.http.application``, called
through httpx's ASGI transport) and as a tool of the class's own MCP server listed by the
SDK's in-memory client (``llmapp.mcp.application``). Given the same wrong arguments each
door reports the same issues (path and expected) and sends nothing; given the same
repairable text each reports the same repairs; with ``strict=True`` every door still
enforces every constraint; and a human-side branch inside a union (at the top, in a
nested object, in an array's items) is refused on every door that separates. The shapes:
nested objects, arrays of objects, arrays with ``uniqueItems`` and item counts, a union,
an enum, the ``date`` and ``uuid`` formats, patterns and numeric bounds.
"""

from __future__ import annotations

import datetime
import enum
import inspect
import json
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, Optional

import anyio
import pytest
from tests.support.sdk import needs

pytest.importorskip("mcp")

import httpx
from mcp import Client
from pydantic import BaseModel, Field

import llmapp
import llmapp.http
import llmapp.mcp
from llmapp import CallResult, application
from llmapp.markers import Human
from llmapp.vendors import mcp as mcp_vendor

if TYPE_CHECKING:
    from fastapi import FastAPI

pytestmark = needs("fastapi")


class Address(BaseModel):
    street: str = Field(min_length=1, max_length=40)
    zip: str = Field(pattern=r"^[0-9]{5}$")


class Line(BaseModel):
    sku: str = Field(pattern=r"^SKU-[0-9]+$")
    count: int = Field(gt=0, le=10)


class Order(BaseModel):
    address: Address
    tags: set[str] = Field(max_length=3)
    kind: Literal["pickup", "delivery"]
    when: datetime.date
    contact: uuid.UUID
    ref: int | str
    lines: list[Line] = Field(min_length=1)
    quantity: int = Field(ge=1, le=100, multiple_of=2)


received: list[Any] = []


class Shop:
    """A shop."""

    def order(self, order: Order) -> dict[str, Any]:
        """Place an order."""
        received.append(order)
        return {"placed": order.quantity}


def fastapi_app() -> FastAPI:
    from fastapi import FastAPI

    api = FastAPI()

    @api.post("/order", operation_id="order")
    def order(order: Order) -> dict[str, Any]:
        """Place an order."""
        received.append(order)
        return {"placed": order.quantity}

    return api


VALID: dict[str, Any] = {
    "address": {"street": "Main 1", "zip": "12345"},
    "tags": ["a", "b"],
    "kind": "pickup",
    "when": "2026-12-01",
    "contact": "0f8fad5b-d9cb-469f-a165-70867728950e",
    "ref": 7,
    "lines": [{"sku": "SKU-1", "count": 1}],
    "quantity": 2,
}


def _with(path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    data = json.loads(json.dumps(VALID))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


WRONG = {
    "nested object: a constraint": _with(("address", "street"), ""),
    "nested object: a pattern": _with(("address", "zip"), "1234"),
    "array with uniqueItems": _with(("tags",), ["a", "a"]),
    "enum": _with(("kind",), "boat"),
    "format": _with(("when",), "next tuesday"),
    "union": _with(("ref",), [1]),
    "minimum": _with(("quantity",), 0),
    "missing nested object": {k: v for k, v in VALID.items() if k != "address"},
    "nested object: maxLength": _with(("address", "street"), "x" * 41),
    "nested object: a wrong type": _with(("address", "zip"), 12345),
    "array: maxItems": _with(("tags",), ["a", "b", "c", "d"]),
    "array: minItems": _with(("lines",), []),
    "array of objects: a pattern": _with(("lines", 0, "sku"), "1"),
    "array of objects: exclusiveMinimum": _with(("lines", 0, "count"), 0),
    "array of objects: a missing key": _with(("lines", 0), {"sku": "SKU-1"}),
    "format: uuid": _with(("contact",), "not-a-uuid"),
    "maximum": _with(("quantity",), 102),
    "multipleOf": _with(("quantity",), 3),
    "several mistakes at once": _with(("address",), {"street": "", "zip": "x"}),
}


# --- the three doors -------------------------------------------------------------------


class Doors:
    """Each door's call of ``order`` with the model's arguments for the ``order`` value."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.cls = application(Shop, strict=strict)
        self.document = fastapi_app().openapi()
        self.http = llmapp.http.application(self.document, strict=strict, naming="operationId")
        assert self.http.errors == [], self.http.errors
        self.tools = mcp_vendor.tools(application(Shop), strict=False)

    def by_class(self, order: Any) -> CallResult:
        return self.cls.execute(Shop(), "order", {"order": order})

    def by_http(self, order: Any) -> CallResult:
        async def main() -> CallResult:
            transport = httpx.ASGITransport(app=fastapi_app())
            async with httpx.AsyncClient(transport=transport) as client:
                connection = llmapp.http.Connection("http://testserver", client=client)
                return await self.http.aexecute(connection, "order", {"body": order})

        return anyio.run(main)

    def by_mcp(self, order: Any) -> CallResult:
        async def main() -> CallResult:
            async with Client(llmapp.mcp.server(application(Shop), Shop())) as client:
                listed = await client.session.list_tools()
                app = llmapp.mcp.application(listed, strict=self.strict)
                assert app.errors == [], app.errors
                return await app.aexecute(client.session, "order", {"order": order})

        return anyio.run(main)

    def text(self, door: str, text: str) -> CallResult:
        """The model's raw text for the whole arguments object, through one door."""
        if door == "http":
            text = text.replace('"order"', '"body"', 1).replace("'order'", "'body'", 1)

        async def by_http() -> CallResult:
            transport = httpx.ASGITransport(app=fastapi_app())
            async with httpx.AsyncClient(transport=transport) as client:
                connection = llmapp.http.Connection("http://testserver", client=client)
                return await self.http.aexecute(connection, "order", text)

        async def by_mcp() -> CallResult:
            async with Client(llmapp.mcp.server(application(Shop), Shop())) as client:
                listed = await client.session.list_tools()
                app = llmapp.mcp.application(listed, strict=self.strict)
                return await app.aexecute(client.session, "order", text)

        if door == "class":
            return self.cls.execute(Shop(), "order", text)
        return anyio.run(by_http if door == "http" else by_mcp)


def issues(result: CallResult, root: str) -> list[tuple[str, str]]:
    """The issues of a failed call as (path, expected), the door's root key made ``order``."""
    assert not result.success, result
    assert result.validation is not None, result
    found = []
    for issue in result.validation.errors:
        path = issue.path.replace(f"$input.{root}", "$input.order", 1)
        # One JSON number: FastAPI's document writes pydantic's ``ge=1`` as ``1.0``.
        found.append((path, re.sub(r"<([0-9]+)\.0>", r"<\1>", issue.expected)))
    return sorted(found)


@pytest.fixture(params=[False, True], ids=["lenient", "strict"])
def doors(request: pytest.FixtureRequest) -> Doors:
    return Doors(strict=request.param)


@pytest.mark.parametrize("case", list(WRONG), ids=list(WRONG))
def test_the_same_wrong_arguments_give_the_same_issues_and_send_nothing(
    doors: Doors, case: str
) -> None:
    received.clear()
    order = WRONG[case]
    by_class = issues(doors.by_class(order), "order")
    by_http = issues(doors.by_http(order), "body")
    by_mcp = issues(doors.by_mcp(order), "order")
    assert by_class, case
    assert by_http == by_class
    assert by_mcp == by_class
    assert received == []


def test_valid_arguments_reach_the_method_through_every_door(doors: Doors) -> None:
    received.clear()
    for call in (doors.by_class, doors.by_http, doors.by_mcp):
        result = call(VALID)
        assert result.success, result
        assert result.data == {"placed": 2}
    assert len(received) == 3
    assert {type(order) for order in received} == {Order}


REPAIRABLE = {
    "single quotes, trailing commas, a number as text": (
        "{'order': {'address': {'street': 'Main 1', 'zip': '12345'}, 'tags': ['a'],"
        " 'kind': 'pickup', 'when': '2026-12-01', 'contact': '0f8fad5b-d9cb-469f-a165-70867728950e', 'ref': 7,"
        " 'lines': [{'sku': 'SKU-1', 'count': 1}], 'quantity': '2',},}"
    ),
    "a stringified nested object": json.dumps(
        {"order": {**VALID, "address": json.dumps(VALID["address"])}}
    ),
    "a code fence, a comment and text for numbers in an array": (
        "```json\n"
        + json.dumps({"order": {**VALID, "lines": [{"sku": "SKU-1", "count": "1"}]}})[:-1]
        + " // the order\n}\n```"
    ),
}


@pytest.mark.parametrize("case", list(REPAIRABLE), ids=list(REPAIRABLE))
def test_the_same_repaired_text_reports_the_same_repairs(doors: Doors, case: str) -> None:
    received.clear()
    text = REPAIRABLE[case]
    results = {door: doors.text(door, text) for door in ("class", "http", "mcp")}
    for door, result in results.items():
        assert result.success, (door, result)
    by_class = results["class"].repairs
    # ``repairs`` names what reading the text mended; a value repaired against the schema
    # (the stringified object) is mended as silently on every door.
    assert bool(by_class) == (case != "a stringified nested object"), by_class
    assert results["http"].repairs == by_class
    assert results["mcp"].repairs == by_class
    assert len(received) == 3
    assert all(order == received[0] for order in received)


PARTIAL = {
    "a bracket closed by another kind": (
        '{"order": {"lines": [{"sku": "SKU-1", "count": 1}}, "quantity": 2}}'
    ),
    "a second value after the first": json.dumps({"order": VALID})
    + "\n"
    + json.dumps({"order": {**VALID, "quantity": 4}}),
    "an example quoted in prose before the call": (
        'The format is {"order": {}}; my call: ' + json.dumps({"order": VALID})
    ),
    "a key with no value": '{"order": ' + json.dumps(VALID)[:-1] + ', "note": }}',
    "a number completed from 1e": '{"order": ' + json.dumps({**VALID, "quantity": 0})[:-2] + "1e}}",
    "a key written twice": '{"order": '
    + json.dumps({**VALID, "quantity": 99})[:-1]
    + ', "quantity": 2}}',
}


def _where(result: CallResult) -> str:
    """The refusal's first two lines, character counts and the door's root key left out."""
    lines = result.message().splitlines()[:2]
    return re.sub(r"character [0-9,]+", "character N", "\n".join(lines)).replace("body", "order")


@pytest.mark.parametrize("case", list(PARTIAL), ids=list(PARTIAL))
def test_the_same_text_read_only_in_part_gets_the_same_refusal_at_every_door(
    doors: Doors, case: str
) -> None:
    received.clear()
    text = PARTIAL[case]
    results = {door: doors.text(door, text) for door in ("class", "http", "mcp")}
    for door, result in results.items():
        assert not result.success, (door, result)
        assert result.message().startswith("Your arguments could be read only in part"), door
    assert _where(results["http"]) == _where(results["class"])
    assert _where(results["mcp"]) == _where(results["class"])
    # The sinks run the class door's step: a vendor's call_tools and a framework toolset.
    from llmapp.agents._bound import bind
    from llmapp.vendors import openai

    call = {"id": "1", "type": "function", "function": {"name": "order", "arguments": text}}
    (answer,) = openai.call_tools(doors.cls, Shop(), {"role": "assistant", "tool_calls": [call]})
    assert answer["content"] == results["class"].message()
    assert bind([(doors.cls, Shop())])[0].run(text).message() == results["class"].message()
    assert received == []


def test_a_key_written_twice_in_a_stringified_object_is_refused_at_every_door(
    doors: Doors,
) -> None:
    received.clear()
    address = '{"street": "Main 1", "zip": "12345", "street": "Elsewhere 2"}'
    text = json.dumps({"order": {**VALID, "address": address}})
    for door in ("class", "http", "mcp"):
        result = doors.text(door, text)
        assert not result.success and result.validation is not None, (door, result)
        [issue] = result.validation.errors
        assert issue.value == address, door
        assert issue.description is not None, door
        assert "address.street is written twice (the second at its character 38)" in (
            issue.description
        ), door
    assert received == []


def test_an_answer_read_only_in_part_is_refused_by_structured_output() -> None:
    """``structured_output(...).parse`` reads through the same call step: the same refusals."""
    output = llmapp.structured_output(Order)
    whole = output.parse(json.dumps(VALID))
    assert whole.success and whole.value.quantity == 2
    answers = [
        '{"lines": [{"sku": "SKU-1", "count": 1}}, "quantity": 2}',
        json.dumps(VALID) + "\n" + json.dumps({**VALID, "quantity": 4}),
        "The format is {}; my answer: " + json.dumps(VALID),
        json.dumps(VALID)[:-1] + ', "note": }',
        json.dumps({**VALID, "quantity": 0})[:-2] + "1e}",
        json.dumps({**VALID, "quantity": 99})[:-1] + ', "quantity": 2}',
    ]
    for answer in answers:
        result = output.parse(answer)
        assert not result.success, answer
        assert result.message().startswith("Your arguments could be read only in part"), answer


class Token(BaseModel):
    token: str | int
    note: int = 0


def _is_string(schema: Mapping[str, Any]) -> bool:
    return schema.get("type") == "string"


def test_a_human_side_union_branch_is_refused_on_every_door() -> None:
    from fastapi import FastAPI

    class Vault:
        def open(self, token: str | int, note: int = 0) -> None:
            """Open the vault."""

    api = FastAPI()

    @api.post("/open", operation_id="open")
    def open_vault(body: Token) -> None:
        """Open the vault."""

    with pytest.raises(llmapp.LlmApplicationError, match="token"):
        application(Vault, separate=_is_string)
    http = llmapp.http.application(api.openapi(), separate=_is_string, naming="operationId")
    assert [f.name for f in http.functions] == []
    assert any("token" in str(problem) for problem in http.errors), http.errors
    tools = [{"name": "open", "inputSchema": Token.model_json_schema()}]
    mcp = llmapp.mcp.application(tools, separate=_is_string)
    assert [f.name for f in mcp.functions] == []
    assert any("token" in str(problem) for problem in mcp.errors), mcp.errors


class Inner(BaseModel):
    token: str | int


class Nested(BaseModel):
    inner: Inner
    note: int = 0


class Listed(BaseModel):
    tokens: list[str | int]


@pytest.mark.parametrize(
    ("model", "where"),
    [(Nested, "$input.body.inner.token"), (Listed, "$input.body.tokens[0]")],
    ids=["in a nested object", "in an array's items"],
)
def test_a_human_side_union_branch_deeper_down_is_refused_on_every_door(
    model: type[BaseModel], where: str
) -> None:
    from fastapi import FastAPI

    def method(self: Any, body: Any) -> None:
        """Use it."""

    def use(body: Any) -> None:
        """Use it."""

    method.__annotations__ = {"body": model, "return": None}
    use.__annotations__ = {"body": model, "return": None}
    holder = type("Holder", (), {"use": method})
    api = FastAPI()
    api.post("/use", operation_id="use")(use)  # the same annotations: FastAPI reads them

    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})
    tool = {
        "name": "use",
        "inputSchema": {
            "type": "object",
            "properties": {"body": schema},
            "required": ["body"],
            **({"$defs": defs} if defs else {}),
        },
    }
    with pytest.raises(llmapp.LlmApplicationError) as refused:
        application(holder, separate=_is_string)
    http = llmapp.http.application(api.openapi(), separate=_is_string, naming="operationId")
    mcp = llmapp.mcp.application([tool], separate=_is_string)
    assert http.functions == [] and mcp.functions == []
    for problems in (refused.value.problems, http.errors, mcp.errors):
        assert len(problems) == 1, problems
        assert f"inside a union (anyOf) at {where}" in str(problems[0])


def test_every_door_has_one_application_protocol() -> None:
    doors = Doors(strict=False)

    async def listed() -> Any:
        async with Client(llmapp.mcp.server(application(Shop), Shop())) as client:
            return llmapp.mcp.application(await client.session.list_tools())

    apps = [doors.cls, doors.http, anyio.run(listed)]
    for app in apps:
        assert app.errors == []
        assert [f.name for f in app.functions] == ["order"]
        assert app.require("order") is app.function("order")
        assert app.function("odrer") is None
        with pytest.raises(llmapp.UnknownFunctionError, match="Did you mean 'order'") as told:
            app.require("odrer")
        assert isinstance(told.value, KeyError) and told.value.close == ["order"]
        function = app.require("order")
        assert isinstance(function, llmapp.Function)
        assert function.checked_parameters
        assert not function.validate_types({}).success  # the order is required
        assert function.to_dict()["name"] == "order"
        for verb in ("execute", "aexecute"):
            parameters = list(inspect.signature(getattr(app, verb)).parameters)
            assert parameters[1:5] == ["name", "arguments", "human", "raise_errors"], app


def test_raise_errors_raises_what_the_last_step_raised_on_every_door() -> None:
    from fastapi import FastAPI

    class Failing:
        def order(self, order: Order) -> None:
            """Place an order."""
            raise ValueError("out of stock")

    api = FastAPI()

    @api.post("/order", operation_id="order", status_code=200)
    def order(order: Order) -> None:
        from fastapi import HTTPException

        raise HTTPException(409, "out of stock")

    http = llmapp.http.application(api.openapi(), naming="operationId")

    async def by_http() -> None:
        transport = httpx.ASGITransport(app=api)
        async with httpx.AsyncClient(transport=transport) as client:
            connection = llmapp.http.Connection("http://testserver", client=client)
            result = await http.aexecute(connection, "order", {"body": VALID})
            assert isinstance(result.error, llmapp.HttpError)
            with pytest.raises(llmapp.HttpError, match="409"):
                await http.aexecute(connection, "order", {"body": VALID}, raise_errors=True)

    async def by_mcp() -> None:
        async with Client(llmapp.mcp.server(application(Failing), Failing())) as client:
            app = llmapp.mcp.application(await client.session.list_tools())
            result = await app.aexecute(client.session, "order", {"order": VALID})
            assert isinstance(result.error, llmapp.McpToolError)
            with pytest.raises(llmapp.McpToolError, match="out of stock"):
                await app.aexecute(client.session, "order", {"order": VALID}, raise_errors=True)

    with pytest.raises(ValueError, match="out of stock"):
        application(Failing).execute(Failing(), "order", {"order": VALID}, raise_errors=True)
    anyio.run(by_http)
    anyio.run(by_mcp)


def test_every_door_reports_a_build_problem_as_one_kind_of_record() -> None:
    from fastapi import FastAPI

    class Broken:
        def pay(self, token: str | int) -> None:
            """Pay."""

    with pytest.raises(llmapp.LlmApplicationError) as raised:
        application(Broken, separate=_is_string)
    api = FastAPI()

    @api.post("/pay", operation_id="pay")
    def pay(body: Token) -> None:
        """Pay."""

    http = llmapp.http.application(api.openapi(), separate=_is_string)
    mcp = llmapp.mcp.application([{"name": "pay", "inputSchema": {"type": "string"}}])
    for problems in (raised.value.problems, http.errors, mcp.errors):
        assert problems
        for problem in problems:
            assert isinstance(problem, llmapp.Problem)
            assert problem.location and problem.reason
            assert str(problem).endswith(problem.reason)


def test_one_strict_form_for_a_document_body_and_a_tool_input() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "object", "properties": {"b": {"type": "string", "minLength": 2}}},
            "c": {"type": "integer"},
        },
        "required": ["a"],
    }
    body = {"required": True, "content": {"application/json": {"schema": schema}}}
    operation = {
        "operationId": "x",
        "requestBody": body,
        "responses": {"200": {"description": "ok"}},
    }
    document = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}}
    document["paths"] = {"/x": {"post": operation}}
    http = llmapp.http.application(document, strict=True, naming="operationId")
    mcp = llmapp.mcp.application([{"name": "x", "inputSchema": schema}], strict=True)
    assert http.errors == [] and mcp.errors == []
    strict = mcp.require("x").parameters
    assert http.require("x").parameters["properties"]["body"] == strict
    assert strict["properties"]["a"]["additionalProperties"] is False
    assert strict["required"] == ["a", "c"]
    # and the tool's own constraint is still enforced on the call
    assert not mcp.require("x").validate({"a": {"b": "z"}}).success


SECRET = "postgres://admin:DB-PASSWORD-1234@db.internal/accounts"


def _unreachable(arguments: Any) -> None:
    raise ConnectionError(f"{SECRET} unreachable")


def _refusing(arguments: Any) -> None:
    raise llmapp.FeedbackError("that order cannot be placed today", path="$input.order")


def test_a_validation_hook_s_exception_reaches_no_door_s_model_verbatim() -> None:
    """Every door that runs a hook (the class, HTTP, the MCP server, vendors' call_tools,
    a framework toolset) tells the model only that the check failed, or what a
    ``FeedbackError`` says."""
    from llmapp.agents._bound import bind
    from llmapp.vendors import openai

    def answers(hook: Any) -> dict[str, str]:
        hooked = {"order": llmapp.after_types(hook)}
        cls = application(Shop, validate=hooked)
        http = llmapp.http.application(
            fastapi_app().openapi(), naming="operationId", validate=hooked
        )
        arguments = {"order": VALID}

        async def by_http() -> str:
            transport = httpx.ASGITransport(app=fastapi_app())
            async with httpx.AsyncClient(transport=transport) as client:
                connection = llmapp.http.Connection("http://testserver", client=client)
                result = await http.aexecute(connection, "order", {"body": VALID})
                return result.message()

        async def by_mcp_server() -> str:
            async with Client(llmapp.mcp.server(cls, Shop())) as client:
                result = await client.call_tool("order", arguments)
                assert result.is_error
                return str(result.content[0].text)

        call = {"id": "1", "type": "function", "function": {"name": "order"}}
        call["function"]["arguments"] = json.dumps(arguments)  # type: ignore[index]
        completion = {"role": "assistant", "tool_calls": [call]}
        return {
            "execute": cls.execute(Shop(), "order", arguments).message(),
            "aexecute": anyio.run(cls.aexecute, Shop(), "order", arguments).message(),
            "http": anyio.run(by_http),
            "mcp server": anyio.run(by_mcp_server),
            "call_tools": openai.call_tools(cls, Shop(), completion)[0]["content"],
            "toolset": bind([(cls, Shop())])[0].run(json.dumps(arguments)).message(),
        }

    received.clear()
    for door, message in answers(_unreachable).items():
        assert "DB-PASSWORD" not in message and "db.internal" not in message, door
        assert "the validation hook failed: ConnectionError" in message, door
    for door, message in answers(_refusing).items():
        assert "that order cannot be placed today" in message, door
    assert received == []


@dataclass
class Card:
    label: str
    number: Annotated[str, Human()]


class Till:
    def checkout(self, cart: str, card: Optional[Card] = None) -> str:  # noqa: UP045
        """Check out."""
        return f"{cart} paid with {'invoice' if card is None else card.number}"


def test_a_human_hook_learns_which_parameters_the_model_sent_at_every_door() -> None:
    """Names only: the MCP server's hook and a toolset's hook read ``sent_parameters()``,
    and supply a card's human half only when the model sent a card."""
    from llmapp.agents._bound import bind

    seen: list[frozenset[str]] = []

    def supplied() -> dict[str, Any]:
        sent = llmapp.sent_parameters()
        seen.append(sent)
        return {"card": {"number": "4111"}} if "card" in sent else {}

    async def by_mcp_server() -> list[str]:
        async def hook(function: Any, context: Any) -> dict[str, Any]:
            return supplied()

        server = llmapp.mcp.server(application(Till), Till(), human=hook, elicit=False)
        async with Client(server) as client:
            answers = []
            for arguments in ({"cart": "c1", "card": {"label": "visa"}}, {"cart": "c2"}):
                result = await client.call_tool("checkout", arguments)
                answers.append(str(result.content[0].text))
            return answers

    assert anyio.run(by_mcp_server) == ['"c1 paid with 4111"', '"c2 paid with invoice"']
    (tool,) = bind([(application(Till), Till())], human=lambda name, context: supplied())
    assert tool.run('{"cart": "c3", "card": {"label": "visa"}}').value == "c3 paid with 4111"
    assert anyio.run(tool.arun, '{"cart": "c4"}').value == "c4 paid with invoice"
    assert seen == [frozenset({"cart", "card"}), frozenset({"cart"})] * 2
    assert llmapp.sent_parameters() == frozenset()  # outside a hook: nothing


# --- the sinks: every vendor's call_tools and the MCP server, for every door -------------

SINK_CASES = ["nested object: a pattern", "union", "several mistakes at once"]


def _vendor_texts(answers: dict[str, list[Any]]) -> dict[str, str]:
    """The one text each vendor's answer hands the model."""
    gemini_answer = answers["gemini"][0]["function_response"]["response"]
    return {
        "openai": answers["openai"][0]["content"],
        "anthropic": answers["anthropic"][0]["content"],
        "gemini": gemini_answer.get("error", gemini_answer.get("output")),
    }


async def _through_the_sinks(app: Any, target: Any, arguments: Any) -> dict[str, str]:
    from llmapp.vendors import anthropic, gemini, openai

    text = json.dumps(arguments)
    messages = {
        "openai": {
            "role": "assistant",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "order", "arguments": text}}
            ],
        },
        "anthropic": {
            "content": [{"type": "tool_use", "id": "c1", "name": "order", "input": arguments}]
        },
        "gemini": {"parts": [{"function_call": {"id": "c1", "name": "order", "args": arguments}}]},
    }
    vendors = {"openai": openai, "anthropic": anthropic, "gemini": gemini}
    answers = {
        name: await vendors[name].acall_tools(app, target, message, context="the user")
        for name, message in messages.items()
    }
    texts = _vendor_texts(answers)
    async with Client(llmapp.mcp.server(app, target)) as client:
        served = await client.call_tool("order", arguments)
        assert served.is_error
        texts["mcp server"] = "\n".join(getattr(block, "text", "") for block in served.content)
    return texts


@pytest.mark.parametrize("case", SINK_CASES, ids=SINK_CASES)
def test_every_sink_answers_a_wrong_call_as_its_door_does_and_nothing_runs(case: str) -> None:
    """Each door's own feedback reaches the model unchanged through every vendor's
    ``acall_tools`` and through the MCP server serving that door (a class, a document on
    its connection, another MCP server's tools: the proxy), with a context given; so the
    same wrong arguments get the same issues at every sink."""
    received.clear()
    order = WRONG[case]
    found: dict[str, CallResult] = {}
    texts: dict[str, dict[str, str]] = {}

    async def main() -> None:
        transport = httpx.ASGITransport(app=fastapi_app())
        async with (
            httpx.AsyncClient(transport=transport) as client,
            Client(llmapp.mcp.server(application(Shop), Shop())) as upstream,
        ):
            connection = llmapp.http.Connection("http://testserver", client=client)
            by_mcp = llmapp.mcp.application(await upstream.session.list_tools())
            by_http = llmapp.http.application(fastapi_app().openapi(), naming="operationId")
            doors = {
                "class": (application(Shop), Shop(), {"order": order}),
                "http": (by_http, connection, {"body": order}),
                "mcp": (by_mcp, upstream.session, {"order": order}),
            }
            for door, (app, target, arguments) in doors.items():
                found[door] = await app.aexecute(target, "order", arguments, context="the user")
                texts[door] = await _through_the_sinks(app, target, arguments)

    anyio.run(main)
    assert issues(found["http"], "body") == issues(found["class"], "order")
    assert issues(found["mcp"], "order") == issues(found["class"], "order")
    for door, result in found.items():
        assert set(texts[door].values()) == {result.feedback}, door
    from llmapp.vendors import openai

    synced = openai.call_tools(
        application(Shop),
        Shop(),
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {"name": "order", "arguments": json.dumps({"order": order})},
                }
            ],
        },
        context="the user",
    )
    assert synced[0]["content"] == found["class"].feedback
    assert received == []


# --- enum members by name ----------------------------------------------------------------


class Priority(enum.IntEnum):
    LOW = 1
    NORMAL = 2
    HIGH = 3


class Grade(enum.IntEnum):
    HIGH = 10
    LOW = 20


class Ticket(BaseModel):
    title: str
    priority: Priority
    level: Priority | Grade | None = None  # "HIGH" names 3 and 10 here


filed: list[Any] = []


class Helpdesk:
    """A helpdesk."""

    def file(self, ticket: Ticket) -> str:
        """File a ticket."""
        filed.append(ticket.priority)
        return ticket.priority.name


def helpdesk_api() -> FastAPI:
    from fastapi import FastAPI

    api = FastAPI()

    @api.post("/file", operation_id="file")
    def file(ticket: Ticket) -> str:
        """File a ticket."""
        filed.append(ticket.priority)
        return ticket.priority.name

    return api


def _named_document() -> dict[str, Any]:
    """FastAPI's document with the member names a generator such as NSwag's or llmapp's
    own would write: pydantic writes the values alone."""
    document = helpdesk_api().openapi()
    schemas = document["components"]["schemas"]
    assert schemas["Priority"]["enum"] == [1, 2, 3] and "x-enum-varnames" not in schemas["Priority"]
    schemas["Priority"]["x-enum-varnames"] = ["LOW", "NORMAL", "HIGH"]
    schemas["Grade"]["x-enum-varnames"] = ["HIGH", "LOW"]
    return document


def _helpdesk_calls(ticket: dict[str, Any]) -> dict[str, CallResult]:
    """The ``file`` call with ``ticket`` through the class, HTTP and MCP doors."""
    http_app = llmapp.http.application(_named_document(), naming="operationId")
    assert http_app.errors == [], http_app.errors

    async def by_http() -> CallResult:
        transport = httpx.ASGITransport(app=helpdesk_api())
        async with httpx.AsyncClient(transport=transport) as client:
            connection = llmapp.http.Connection("http://testserver", client=client)
            return await http_app.aexecute(connection, "file", json.dumps({"body": ticket}))

    async def by_mcp() -> CallResult:
        async with Client(llmapp.mcp.server(application(Helpdesk), Helpdesk())) as client:
            listed = await client.session.list_tools()
            app = llmapp.mcp.application(listed)
            assert app.errors == [], app.errors
            return await app.aexecute(client.session, "file", json.dumps({"ticket": ticket}))

    by_class = application(Helpdesk).execute(Helpdesk(), "file", json.dumps({"ticket": ticket}))
    return {"class": by_class, "http": anyio.run(by_http), "mcp": anyio.run(by_mcp)}


def test_a_member_name_is_read_as_its_value_at_every_door() -> None:
    """One rule for all doors: a schema carrying ``x-enum-varnames`` (llmapp's own, or a
    foreign document's) has ``"HIGH"`` read as ``3`` before anything is sent."""
    filed.clear()
    results = _helpdesk_calls({"title": "printer", "priority": "HIGH"})
    for door, result in results.items():
        assert result.success, (door, result.feedback)
    assert filed == [Priority.HIGH] * 3
    assert results["class"].data == results["http"].data == "HIGH"
    assert results["mcp"].data == {"result": "HIGH"}  # a tool's structured content


def test_a_misspelt_member_name_gets_the_names_in_the_feedback_at_every_door() -> None:
    filed.clear()
    results = _helpdesk_calls({"title": "printer", "priority": "High"})
    for door, result in results.items():
        assert not result.success, door
        assert result.validation is not None, door
        (issue,) = result.validation.errors
        assert issue.path.endswith(".priority"), (door, issue.path)
        assert issue.expected == "(1 (LOW) | 2 (NORMAL) | 3 (HIGH))", door
        assert "3 (HIGH)" in (result.feedback or ""), door
    assert filed == []


def test_a_member_name_two_enums_share_is_left_alone_at_every_door() -> None:
    filed.clear()
    results = _helpdesk_calls({"title": "printer", "priority": 3, "level": "HIGH"})
    for door, result in results.items():
        assert not result.success, door
        assert result.validation is not None, door
        (issue,) = result.validation.errors
        assert issue.path.endswith(".level") and issue.value == "HIGH", (door, issue.path)
        assert "3 (HIGH)" in issue.expected and "10 (HIGH)" in issue.expected, door
    assert filed == []
    results = _helpdesk_calls({"title": "printer", "priority": 3, "level": "NORMAL"})
    assert all(result.success for result in results.values()), results
