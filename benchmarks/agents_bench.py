"""``python -m benchmarks.agents_bench [--quick] [--json out.json]``: the framework toolsets.

Side by side in one run, llmapp's toolset (``llmapp.agents``) against the framework's own
helper wrapping the same method:

- per call, µs (median), a valid call and a call with three mistakes (a number for a
  string, text for an integer, a key the method does not take), through each framework's
  own entry point: the Agents SDK's ``on_invoke_tool`` (what its ``Runner`` awaits, inside
  the ``function_span`` the ``Runner`` opens) for ``function_tool``; a whole pydantic-ai
  ``Agent.run`` over ``FunctionModel`` (one tool call, then text) for ``Tool``; LangChain's
  ``tool.invoke(tool_call)`` for ``StructuredTool.from_function``
  (``handle_validation_error=True``, else the wrong call raises); with how many of the
  three mistakes each answer names;
- build, ms (median), the 100-method class of ``benchmarks.generated`` as each toolset
  (``application(cls)`` and the toolset; the toolset's own share in its own column)
  against the helper wrapping its 100 bound methods, each listed as the model sees it
  (also LlamaIndex's ``FunctionTool.from_defaults`` and FastMCP's ``Tool.from_function``
  added to a server, build only)
  (LangChain's schema is made when ``convert_to_openai_tool`` asks: it is asked here). A
  fresh copy of the class is loaded for every build, so no cache answers, and the heap is
  collected and frozen before each build of either side (``_own_heap``), so no build's
  collections walk what earlier rows left. llmapp compiles each validator on the
  function's first call, the helpers build pydantic validators now.

Targets: per call, llmapp not slower than the helper on valid calls, and every mistake
named; build, faster than the helpers. Not part of ``python -m benchmarks``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Annotated, Any

from annotated_types import Ge, Le

from benchmarks import generated
from benchmarks._report import fmt, fmt_ratio, ratio, table
from benchmarks._timing import Settings, measure_all

VALID = {"room": "12B", "nights": 2}
WRONG = {"room": 12, "nights": "two", "pets": True}
WRONG_KEYS = ("room", "nights", "pets")


class Hotel:
    """Books hotel rooms."""

    def book(
        self, room: str, nights: Annotated[int, Ge(1), Le(30)], breakfast: bool = False
    ) -> dict[str, Any]:
        """Book a hotel room.

        Args:
            room: the room's number.
            nights: how many nights.
            breakfast: whether breakfast is included.
        """
        return {"room": room, "nights": nights, "breakfast": breakfast}


Invoke = Callable[[dict[str, Any]], str]
"""One call through a toolset: the model's arguments in, the text the model is sent out."""


def _openai_agents(loop: asyncio.AbstractEventLoop) -> dict[str, Invoke]:
    from agents import function_span, function_tool, set_tracing_disabled
    from agents.tool_context import ToolContext

    from llmapp import application
    from llmapp.agents.openai_agents import tools

    set_tracing_disabled(True)  # no exporter: nothing leaves the machine
    hotel = Hotel()
    (ours,) = tools(application(Hotel), hotel)
    theirs = function_tool(hotel.book)

    def invoker(tool: Any) -> Invoke:
        async def invoke_in_span(text: str) -> Any:
            # Inside the span the SDK's Runner opens around each tool call (a no-op span,
            # tracing being off): a tool's handled error is attached to it, as in a run,
            # instead of a "No active span" warning on stderr per wrong call.
            with function_span("book"):
                context = ToolContext(None, tool_name="book", tool_call_id="c", tool_arguments=text)
                return await tool.on_invoke_tool(context, text)

        def invoke(arguments: dict[str, Any]) -> str:
            return str(loop.run_until_complete(invoke_in_span(json.dumps(arguments))))

        return invoke

    return {"llmapp toolset": invoker(ours), "function_tool": invoker(theirs)}


def _pydantic_ai(loop: asyncio.AbstractEventLoop) -> dict[str, Invoke]:
    from pydantic_ai import Agent, Tool
    from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart, ToolReturnPart
    from pydantic_ai.models.function import FunctionModel

    from llmapp import application
    from llmapp.agents.pydantic_ai import toolset

    hotel = Hotel()

    def invoker(**tooling: Any) -> Invoke:
        asked: list[dict[str, Any]] = []

        async def respond(messages: list[Any], info: Any) -> ModelResponse:
            # async: a sync FunctionModel function would run in a worker thread each turn
            if len(messages) == 1:
                return ModelResponse(parts=[ToolCallPart("book", json.dumps(asked[-1]), "c")])
            return ModelResponse(parts=[TextPart("done")])

        agent = Agent(FunctionModel(respond), **tooling)

        def invoke(arguments: dict[str, Any]) -> str:
            asked.append(arguments)
            result = loop.run_until_complete(agent.run("Book."))
            asked.clear()
            answers = [
                part.content
                for message in result.all_messages()
                for part in message.parts
                if isinstance(part, ToolReturnPart) or type(part).__name__ == "RetryPromptPart"
            ]
            return str(answers[0])

        return invoke

    return {
        "llmapp toolset": invoker(toolsets=[toolset(application(Hotel), hotel)]),
        "Tool": invoker(tools=[Tool(hotel.book)]),
    }


def _langchain(loop: asyncio.AbstractEventLoop) -> dict[str, Invoke]:
    from langchain_core.tools import StructuredTool

    from llmapp import application
    from llmapp.agents.langchain import tools

    hotel = Hotel()
    (ours,) = tools(application(Hotel), hotel)
    theirs = StructuredTool.from_function(hotel.book, handle_validation_error=True)

    def invoker(tool: Any) -> Invoke:
        def invoke(arguments: dict[str, Any]) -> str:
            call = {"type": "tool_call", "name": "book", "args": arguments, "id": "c"}
            return str(tool.invoke(call).content)

        return invoke

    return {"llmapp toolset": invoker(ours), "StructuredTool.from_function": invoker(theirs)}


FRAMEWORKS = {
    "OpenAI Agents SDK": _openai_agents,
    "pydantic-ai": _pydantic_ai,
    "LangChain": _langchain,
}


def calls(settings: Settings) -> list[list[str]]:
    loop = asyncio.new_event_loop()
    rows = []
    try:
        for framework, make in FRAMEWORKS.items():
            invokers = make(loop)
            named = {
                peer: sum(key in invoke(WRONG) for key in WRONG_KEYS)
                for peer, invoke in invokers.items()
            }
            timed = measure_all(
                {
                    f"{peer}|{label}": (invoke, arguments)
                    for peer, invoke in invokers.items()
                    for label, arguments in (("valid", VALID), ("wrong", WRONG))
                },
                settings,
            )
            ours = timed["llmapp toolset|valid"]
            for peer in invokers:
                valid, wrong = timed[f"{peer}|valid"], timed[f"{peer}|wrong"]
                rows.append(
                    [
                        framework,
                        peer,
                        fmt(valid),
                        fmt(wrong),
                        f"{named[peer]} of 3",
                        fmt_ratio(ratio(valid, ours)),
                    ]
                )
    finally:
        loop.close()
    return rows


def _build_llmapp(framework: str) -> Callable[[Any], Callable[[], object]]:
    """The application of a class (built now), and its toolset's own build (to time)."""
    from llmapp import application

    def build(cls: Any) -> Callable[[], object]:
        app, instance = application(cls), cls()
        if framework == "OpenAI Agents SDK":
            from llmapp.agents.openai_agents import tools

            return lambda: tools(app, instance)
        if framework == "pydantic-ai":
            from llmapp.agents.pydantic_ai import toolset

            return lambda: toolset(app, instance)
        if framework == "LlamaIndex":
            from llmapp.agents.llamaindex import tools as li_tools

            return lambda: [tool.metadata.to_openai_tool() for tool in li_tools(app, instance)]
        if framework == "FastMCP":
            from fastmcp import FastMCP

            from llmapp.agents.fastmcp import add_tools

            return lambda: add_tools(FastMCP("bench"), app, instance)
        from langchain_core.utils.function_calling import convert_to_openai_tool

        from llmapp.agents.langchain import tools as lc_tools

        return lambda: [convert_to_openai_tool(tool) for tool in lc_tools(app, instance)]

    return build


def _build_helper(framework: str) -> Callable[[Any], object]:
    def build(cls: Any) -> object:
        instance = cls()
        methods = [getattr(instance, name) for name in generated.method_names(100)]
        if framework == "OpenAI Agents SDK":
            from agents import function_tool

            return [function_tool(method) for method in methods]
        if framework == "pydantic-ai":
            from pydantic_ai import Tool

            return [Tool(method) for method in methods]
        if framework == "LlamaIndex":
            from llama_index.core.tools import FunctionTool

            return [FunctionTool.from_defaults(m).metadata.to_openai_tool() for m in methods]
        if framework == "FastMCP":
            from fastmcp import FastMCP
            from fastmcp.tools import Tool

            server = FastMCP("bench")
            for method in methods:
                server.add_tool(Tool.from_function(method))
            return server
        from langchain_core.tools import StructuredTool
        from langchain_core.utils.function_calling import convert_to_openai_tool

        return [convert_to_openai_tool(StructuredTool.from_function(m)) for m in methods]

    return build


BUILD_ONLY = ("LlamaIndex", "FastMCP")
"""Frameworks timed for the build alone: their helpers do not check arguments (LlamaIndex's
``FunctionTool`` calls the method with what the model wrote), so there is no per-call peer."""


@contextlib.contextmanager
def _own_heap() -> Iterator[None]:
    """A build whose garbage collections walk its own objects only.

    Every earlier build, the helpers' and the loaded copies of the class stay in the
    process, so a full collection that lands in a build would walk them all: its cost
    would depend on the row (each framework imported adds to the heap) and on where the
    collection happens to fall, not on the build. So the heap is collected and frozen
    before each timed build, of llmapp and of the helpers alike.
    """
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def builds(settings: Settings) -> list[list[str]]:
    repeats = 3 if settings.quick else 7
    variants = iter(range(1, 1000))
    rows = []
    for framework in [*FRAMEWORKS, *BUILD_ONLY]:
        times: dict[str, list[float]] = {"llmapp": [], "toolset alone": [], "helper": []}
        ours, theirs = _build_llmapp(framework), _build_helper(framework)
        ours(generated.load(100, next(variants)).Service)()  # warm: imports, first-use caches
        try:
            theirs(generated.load(100, next(variants)).Service)
            failed = None
        except Exception as error:  # the helper cannot read this class at all: say why
            failed = f"fails ({type(error).__name__})"
        for _ in range(repeats):
            cls = generated.load(100, next(variants)).Service
            with _own_heap():
                start = time.perf_counter()
                toolset = ours(cls)  # application(cls)
                middle = time.perf_counter()
                toolset()
                end = time.perf_counter()
            times["llmapp"].append((end - start) * 1000)
            times["toolset alone"].append((end - middle) * 1000)
            if failed is None:
                cls = generated.load(100, next(variants)).Service
                with _own_heap():
                    start = time.perf_counter()
                    theirs(cls)
                    end = time.perf_counter()
                times["helper"].append((end - start) * 1000)
        total, alone = (statistics.median(times[name]) for name in ("llmapp", "toolset alone"))
        if failed is not None:
            rows.append([framework, fmt(total), fmt(alone), failed, "-"])
            continue
        helper = statistics.median(times["helper"])
        rows.append(
            [framework, fmt(total), fmt(alone), fmt(helper), fmt_ratio(ratio(helper, total))]
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter repeats")
    parser.add_argument("--json", help="also write the tables to this file")
    options = parser.parse_args()
    settings = Settings(quick=options.quick)
    per_call = calls(settings)
    built = builds(settings)
    print("Per call, µs (median), through each framework's own entry point:\n")
    print(table(["framework", "tool", "valid", "3 mistakes", "named", "valid vs llmapp"], per_call))
    print("\nBuild of the 100-method class, ms (median of fresh copies):\n")
    columns = ["framework", "llmapp toolset", "of which the toolset", "framework helper"]
    print(table([*columns, "helper / llmapp"], built))
    if options.json:
        with open(options.json, "w", encoding="utf-8") as out:
            json.dump({"calls": per_call, "build": built}, out, indent=2)


if __name__ == "__main__":
    main()
