"""``python -m benchmarks.agents_calls {llmapp|function_tool} N``: N valid Agents SDK calls.

The script callgrind counts for issue 20's per-call target (``benchmarks/README.md`` 6b):
the tool is built once and warmed with 20 calls, then ``on_invoke_tool`` is awaited N
times inside ``function_span``, as ``agents_bench`` calls it. One call's instructions are
the difference between N=2000 and N=0, divided by 2000::

    valgrind --tool=callgrind --callgrind-out-file=/tmp/n.out \\
        python -m benchmarks.agents_calls llmapp 2000
"""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

from benchmarks.agents_bench import VALID, Hotel


def main() -> None:
    from agents import function_span, function_tool, set_tracing_disabled
    from agents.tool_context import ToolContext

    from llmapp import application
    from llmapp.agents.openai_agents import tools

    which, count = sys.argv[1], int(sys.argv[2])
    set_tracing_disabled(True)
    hotel = Hotel()
    tool: Any = (
        tools(application(Hotel), hotel)[0] if which == "llmapp" else function_tool(hotel.book)
    )
    text = json.dumps(VALID)

    async def once() -> Any:
        with function_span("book"):
            context = ToolContext(None, tool_name="book", tool_call_id="c", tool_arguments=text)
            return await tool.on_invoke_tool(context, text)

    async def run() -> Any:
        for _ in range(20):
            answer = await once()
        for _ in range(count):
            await once()
        return answer

    loop = asyncio.new_event_loop()
    try:
        print(loop.run_until_complete(run()))
    finally:
        loop.close()


if __name__ == "__main__":
    main()
