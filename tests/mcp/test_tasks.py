"""Long-running calls as tasks (MCP 2025-11-25): started, polled, listed, cancelled and
finished, in one process and across two stateless workers sharing a real Redis."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp", reason="the MCP SDK is not installed (extra: mcp)")

import mcp.types as types
from mcp import Client
from tests.mcp.production import serving

import llmapp.mcp
from llmapp.mcp import McpContext, MemoryTaskStore, RedisTaskStore, long_running


class Jobs:
    """Jobs that take a while."""

    def __init__(self) -> None:
        self.release = anyio.Event()
        self.cancelled = 0

    @long_running(ttl=60, poll_interval=0.05)
    async def build(self, size: int) -> dict[str, int]:
        """Build something of a size."""
        await anyio.sleep(0.1)
        return {"built": size}

    @long_running(ttl=60, poll_interval=0.05)
    async def hang(self) -> str:
        """Wait until cancelled."""
        try:
            await anyio.sleep_forever()
        finally:
            self.cancelled += 1
        return "never"

    @long_running(ttl=60, poll_interval=0.05)
    async def report(self, ctx: McpContext) -> str:
        """Report progress after its request was answered with the task's handle."""
        await anyio.sleep(0.2)
        await ctx.progress(1, 1)
        await ctx.log("info", "done")
        return "reported"

    def quick(self) -> int:
        """Answer at once (never a task)."""
        return 1


async def start(client: Client, name: str, arguments: dict[str, Any]) -> types.Task:
    # The SDK's client carries 2025-11-25 tasks as types only: its send_request checks a
    # tools/call answer against CallToolResult, so the request goes out through its
    # dispatcher, as it is on the wire.
    params = {"name": name, "arguments": arguments, "task": {"ttl": 30_000}}
    raw = await client.session._dispatcher.send_raw_request("tools/call", params, None)
    return types.CreateTaskResult.model_validate(raw).task


async def get(client: Client, task_id: str) -> types.GetTaskResult:
    request = types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=task_id))
    return await client.session.send_request(request, types.GetTaskResult)


async def outcome(client: Client, task_id: str) -> types.CallToolResult:
    request = types.GetTaskPayloadRequest(params=types.GetTaskPayloadRequestParams(task_id=task_id))
    return await client.session.send_request(request, types.CallToolResult)


async def cancel(client: Client, task_id: str) -> types.CancelTaskResult:
    request = types.CancelTaskRequest(params=types.CancelTaskRequestParams(task_id=task_id))
    return await client.session.send_request(request, types.CancelTaskResult)


async def listed(client: Client) -> types.ListTasksResult:
    return await client.session.send_request(types.ListTasksRequest(), types.ListTasksResult)


def test_a_task_is_started_polled_listed_cancelled_and_finished() -> None:
    jobs = Jobs()

    async def main() -> Any:
        async with Client(llmapp.mcp.server(Jobs, jobs), mode="legacy") as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            capabilities = client.server_capabilities
            built = await start(client, "build", {"size": 3})
            first = await get(client, built.task_id)
            answer = await outcome(client, built.task_id)  # waits for the end
            done = await get(client, built.task_id)
            hanging = await start(client, "hang", {})
            await anyio.sleep(0.1)
            cancelled = await cancel(client, hanging.task_id)
            await anyio.sleep(0.1)
            after = await get(client, hanging.task_id)
            everything = await listed(client)
            plain = await client.call_tool("build", {"size": 2})  # no task asked: a plain call
            return (
                tools,
                capabilities,
                built,
                first,
                answer,
                done,
                cancelled,
                after,
                everything,
                plain,
            )

    tools, capabilities, built, first, answer, done, cancelled, after, everything, plain = (
        anyio.run(main)
    )
    assert tools["build"].execution.task_support == "optional"
    assert tools["quick"].execution is None
    assert capabilities.tasks is not None and capabilities.tasks.cancel is not None
    assert (built.status, built.poll_interval, built.ttl) == ("working", 50, 30_000)
    assert first.status == "working"
    assert answer.structured_content == {"built": 3} and not answer.is_error
    assert done.status == "completed"
    assert cancelled.status == "cancelled" and after.status == "cancelled"
    assert jobs.cancelled == 1
    assert {task.task_id for task in everything.tasks} == {built.task_id, after.task_id}
    assert plain.structured_content == {"built": 2}


def test_another_session_cannot_see_a_task() -> None:
    jobs = Jobs()
    built_server = llmapp.mcp.asgi(Jobs, jobs)

    async def main(url: str) -> Any:
        async with Client(url, mode="legacy") as one, Client(url, mode="legacy") as other:
            task = await start(one, "build", {"size": 1})
            with pytest.raises(Exception, match="no task"):
                await get(other, task.task_id)
            return (await listed(other)).tasks

    with serving(built_server) as base:
        assert anyio.run(main, f"{base}/mcp") == []


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server; .ci/run does)")
    pytest.importorskip("redis", reason="redis-py is not installed (extra: redis)")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError("redis-server did not start") from None
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)


def test_two_stateless_workers_share_tasks_through_redis(redis_url: str) -> None:
    import redis.asyncio

    def worker() -> Any:
        store = RedisTaskStore(redis.asyncio.Redis.from_url(redis_url))
        jobs = Jobs()
        return jobs, llmapp.mcp.asgi(Jobs, jobs, stateless=True, tasks=store)

    (jobs_a, a), (jobs_b, b) = worker(), worker()

    async def main(url_a: str, url_b: str) -> Any:
        async with Client(url_a, mode="legacy") as on_a, Client(url_b, mode="legacy") as on_b:
            built = await start(on_a, "build", {"size": 7})
            answer = await outcome(on_b, built.task_id)  # B waits for what A runs
            hanging = await start(on_a, "hang", {})
            await anyio.sleep(0.1)
            polled = await get(on_b, hanging.task_id)
            cancelled = await cancel(on_b, hanging.task_id)  # B cancels what A runs
            with anyio.fail_after(5):
                while jobs_a.cancelled == 0:  # A reads the record at its next poll
                    await anyio.sleep(0.02)
            return built, answer, polled, cancelled, await get(on_a, hanging.task_id)

    with serving(a) as base_a, serving(b) as base_b:
        built, answer, polled, cancelled, after = anyio.run(main, f"{base_a}/mcp", f"{base_b}/mcp")
    assert built.status == "working"
    assert answer.structured_content == {"built": 7}
    assert polled.status == "working"
    assert cancelled.status == "cancelled" and after.status == "cancelled"
    assert (jobs_a.cancelled, jobs_b.cancelled) == (1, 0)


def test_the_memory_store_forgets_past_the_ttl_and_keeps_a_bounded_number() -> None:
    store = MemoryTaskStore(max_tasks=2)

    async def main() -> Any:
        for number in range(3):
            await store.save({"taskId": f"t{number}", "owner": "o"}, 60)
        await store.save({"taskId": "short", "owner": "o"}, 0.01)
        await anyio.sleep(0.05)
        return [await store.load(key) for key in ("t0", "t1", "t2", "short")]

    assert anyio.run(main) == [None, None, {"taskId": "t2", "owner": "o"}, None]


def test_a_task_s_progress_after_its_request_was_answered_is_dropped_not_fatal() -> None:
    async def main(url: str) -> Any:
        async with Client(url, mode="legacy") as client:
            task = await start(client, "report", {})
            return await outcome(client, task.task_id)

    with serving(llmapp.mcp.asgi(Jobs, Jobs(), stateless=True)) as base:
        answer = anyio.run(main, f"{base}/mcp")
    assert answer.structured_content == {"result": "reported"} and not answer.is_error
