"""Long-running calls as tasks (MCP 2025-11-25): the client gets a handle at once, then
polls (``tasks/get``), waits for the answer (``tasks/result``), lists (``tasks/list``) or
cancels (``tasks/cancel``).

A method declared ``@long_running`` is listed with ``execution.taskSupport: "optional"``;
a ``tools/call`` carrying ``task`` (its ``ttl`` in milliseconds) is answered at once with a
``CreateTaskResult`` while the call runs on, through the same call step as any call. The
task's record (status, times, and at the end the ``CallToolResult``) lives in a
``TaskStore``: ``MemoryTaskStore`` (the default, one process) or ``RedisTaskStore`` (several
stateless workers or replicas share one Redis, through redis-py). Any worker answers
``tasks/get``, ``tasks/result`` and ``tasks/cancel``; the worker running a task reads its
record every poll interval and cancels the call when another worker recorded a cancel.
Records expire after their ``ttl`` (the client's, at most the method's), so results are kept
for a bounded time. A task belongs to who started it (the verified token's client and
subject, else the HTTP session): another caller is answered as if it did not exist, and
``tasks/list`` lists only one's own (nothing without a token or a session).
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

from llmapp.kernel import MCP
from llmapp.mcp._auth import identity
from llmapp.mcp._sdk import sdk

if TYPE_CHECKING:
    from llmapp.app import CallResult

__all__ = [
    "LONG_RUNNING_ATTRIBUTE",
    "MOST_TTL",
    "MemoryTaskStore",
    "RedisTaskStore",
    "TaskStore",
    "Tasks",
    "long_running",
]

LONG_RUNNING_ATTRIBUTE: Final = "__llmapp_long_running__"
TERMINAL: Final = frozenset({"completed", "failed", "cancelled"})
_INVALID_PARAMS: Final = -32602
MOST_TTL: Final = 7 * 24 * 3600.0
"""Most seconds a task is kept: past it, its record and its id in its owner's index are gone."""
F = TypeVar("F", bound=Callable[..., Any])


def long_running(*, ttl: float = 3600.0, poll_interval: float = 1.0) -> Callable[[F], F]:
    """Declare a method long-running: a client may run its calls as tasks.

    Args:
        ttl: most seconds a task's record (and its result) is kept after it starts.
        poll_interval: seconds between the client's polls (told to the client), and between
            the running worker's reads of the record (a cancel from another worker).

    Example::

        @long_running(ttl=600)
        async def reindex(self, catalogue: str) -> int: ...
    """
    if not 0 < ttl <= MOST_TTL or poll_interval <= 0:
        raise ValueError(
            f"ttl must be a positive number of seconds up to {MOST_TTL:g}, and poll_interval "
            "a positive number of seconds"
        )

    def mark(method: F) -> F:
        setattr(getattr(method, "__func__", method), LONG_RUNNING_ATTRIBUTE, (ttl, poll_interval))
        return method

    return mark


class TaskStore(Protocol):
    """Where task records live: JSON-ready dicts keyed by ``taskId``, each with an ``owner``."""

    async def save(self, record: dict[str, Any], ttl: float) -> None:
        """Store (or replace) a record, kept ``ttl`` seconds from now."""
        ...

    async def load(self, task_id: str) -> dict[str, Any] | None:
        """The record of a task, or ``None`` (unknown or expired)."""
        ...

    async def owned(self, owner: str, limit: int) -> list[dict[str, Any]]:
        """At most ``limit`` records of one owner, the newest first."""
        ...


class MemoryTaskStore:
    """Task records in this process's memory: at most ``max_tasks`` (the oldest go first)."""

    def __init__(self, max_tasks: int = 10_000) -> None:
        self.max_tasks = max_tasks
        self._records: dict[str, tuple[float, dict[str, Any]]] = {}

    async def save(self, record: dict[str, Any], ttl: float) -> None:
        self._records.pop(record["taskId"], None)
        self._records[record["taskId"]] = (time.monotonic() + ttl, json.loads(json.dumps(record)))
        while len(self._records) > self.max_tasks:
            del self._records[next(iter(self._records))]

    async def load(self, task_id: str) -> dict[str, Any] | None:
        held = self._records.get(task_id)
        if held is None:
            return None
        if held[0] < time.monotonic():
            del self._records[task_id]
            return None
        return json.loads(json.dumps(held[1]))  # type: ignore[no-any-return]

    async def owned(self, owner: str, limit: int) -> list[dict[str, Any]]:
        now = time.monotonic()
        found = [
            record
            for expires, record in reversed(self._records.values())
            if expires >= now and record.get("owner") == owner
        ]
        return found[:limit]


class RedisTaskStore:
    """Task records in Redis (redis-py's asyncio client), shared by every worker.

    Args:
        client: a ``redis.asyncio.Redis``.
        prefix: the keys' prefix.

    Example::

        store = RedisTaskStore(redis.asyncio.Redis.from_url("redis://127.0.0.1:6379/0"))
        llmapp.mcp.asgi(Shop, Shop(), stateless=True, tasks=store)
    """

    def __init__(self, client: Any, prefix: str = "llmapp:mcp:task:") -> None:
        self.client = client
        self.prefix = prefix

    async def save(self, record: dict[str, Any], ttl: float) -> None:
        milliseconds = max(1, int(ttl * 1000))
        owned = f"{self.prefix}owner:{record['owner']}"
        pipe = self.client.pipeline()
        pipe.set(self.prefix + record["taskId"], json.dumps(record), px=milliseconds)
        now = time.time()
        pipe.zadd(owned, {record["taskId"]: now})
        pipe.zremrangebyscore(owned, 0, now - MOST_TTL)  # ids whose records are gone
        pipe.pexpire(owned, milliseconds)
        await pipe.execute()

    async def load(self, task_id: str) -> dict[str, Any] | None:
        found = await self.client.get(self.prefix + task_id)
        return None if found is None else json.loads(found)

    async def owned(self, owner: str, limit: int) -> list[dict[str, Any]]:
        ids = await self.client.zrevrange(f"{self.prefix}owner:{owner}", 0, limit - 1)
        records = [await self.load(_text(task_id)) for task_id in ids]
        return [record for record in records if record is not None]


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


Run = Callable[[str, Any, Any], Awaitable["CallResult"]]
Answer = Callable[[str, "CallResult"], dict[str, Any]]


class Tasks:
    """The task handlers of one server, over one store."""

    def __init__(self, store: TaskStore, run: Run, answer: Answer) -> None:
        self.store = store
        self.run = run
        self.answer = answer
        self.running: dict[str, asyncio.Task[None]] = {}

    async def start(
        self, name: str, arguments: Any, context: Any, declared: tuple[float, float], asked: Any
    ) -> dict[str, Any]:
        """Start a call as a task; the ``CreateTaskResult`` (wire spelling)."""
        most, interval = declared
        requested = getattr(asked, "ttl", None)
        ttl = min(most, requested / 1000) if isinstance(requested, int) and requested > 0 else most
        now = _now()
        task_id = secrets.token_urlsafe(16)
        record: dict[str, Any] = {
            "taskId": task_id,
            "status": "working",
            "createdAt": now,
            "lastUpdatedAt": now,
            "ttl": int(ttl * 1000),
            "pollInterval": int(interval * 1000),
            "owner": owner(context),
        }
        await self.store.save(record, ttl)
        task = asyncio.get_running_loop().create_task(
            self._run(record, name, arguments, context, ttl, interval)
        )
        self.running[task_id] = task
        task.add_done_callback(lambda _: self.running.pop(task_id, None))
        return {"task": _shown(record)}

    async def _run(
        self,
        record: dict[str, Any],
        name: str,
        arguments: Any,
        context: Any,
        ttl: float,
        interval: float,
    ) -> None:
        call = asyncio.ensure_future(self.run(name, arguments, context))
        try:
            while not call.done():
                await asyncio.wait({call}, timeout=interval)
                if not call.done():
                    current = await self.store.load(record["taskId"])
                    if current is None or current["status"] == "cancelled":
                        return  # another worker cancelled it, or its record expired
            result = call.result()
        except Exception:  # the store failing: the record stays working until it expires
            MCP.exception("task %s of %s failed", record["taskId"], name)
            return
        finally:
            if not call.done():
                call.cancel()
        current = await self.store.load(record["taskId"])
        if current is None or current["status"] in TERMINAL:  # cancelled meanwhile
            return
        answer = self.answer(name, result)
        status = "failed" if answer.get("isError") else "completed"
        current.update(status=status, lastUpdatedAt=_now(), result=answer)
        await self.store.save(current, _left(current, ttl))

    async def get(self, context: Any, params: Any) -> dict[str, Any]:
        return _shown(await self._owned(context, params.task_id))

    async def result(self, context: Any, params: Any) -> dict[str, Any]:
        record = await self._owned(context, params.task_id)
        interval = record.get("pollInterval", 1000) / 1000
        while record["status"] not in TERMINAL:
            await asyncio.sleep(interval)
            record = await self._owned(context, params.task_id)
        if record["status"] == "cancelled":
            text = {"type": "text", "text": "The task was cancelled."}
            answer: dict[str, Any] = {"content": [text], "isError": True}
        else:
            answer = dict(record["result"])
        meta = {"io.modelcontextprotocol/related-task": {"taskId": record["taskId"]}}
        return {**answer, "_meta": meta}

    async def cancel(self, context: Any, params: Any) -> dict[str, Any]:
        record = await self._owned(context, params.task_id)
        if record["status"] in TERMINAL:
            raise _error(f"task {params.task_id} is already {record['status']}")
        record.update(status="cancelled", lastUpdatedAt=_now())
        await self.store.save(record, _left(record, record["ttl"] / 1000))
        running = self.running.get(record["taskId"])
        if running is not None:  # this worker runs it: at once, not at the next poll
            running.cancel()
        return _shown(record)

    async def list(self, context: Any, params: Any) -> dict[str, Any]:
        who = owner(context)
        records = await self.store.owned(who, 100) if who else []
        return {"tasks": [_shown(record) for record in records]}

    async def _owned(self, context: Any, task_id: str) -> dict[str, Any]:
        record = await self.store.load(task_id)
        if record is None or record.get("owner") != owner(context):
            raise _error(f"no task {task_id[:64]!r}")
        return record


def owner(context: Any) -> str:
    """Who a task belongs to: the verified token's client and subject, else the HTTP session,
    else the connection (stdio); nobody (``""``) on stateless HTTP without a token, where a
    task is reached by its unguessable id alone."""
    try:
        token = identity(context)
    except Exception:
        token = None
    if token is not None:
        return f"token:{token.client_id}:{getattr(token, 'subject', None) or ''}"
    request = getattr(context, "request", None)
    if request is None:  # stdio, in memory: the connection is the one client
        connection = getattr(getattr(context, "session", None), "_connection", None)
        return f"connection:{id(connection)}" if connection is not None else ""
    session = request.headers.get("mcp-session-id")
    return f"session:{session}" if session else ""


def _shown(record: dict[str, Any]) -> dict[str, Any]:
    """A record as the client sees a ``Task``: without its owner and result."""
    return {key: value for key, value in record.items() if key not in ("owner", "result")}


def _left(record: dict[str, Any], ttl: float) -> float:
    created = datetime.fromisoformat(record["createdAt"])
    spent = (datetime.now(timezone.utc) - created).total_seconds()
    return max(1.0, ttl - spent)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat()


def _error(message: str) -> Exception:
    error: Exception = sdk("mcp.shared.exceptions").MCPError(_INVALID_PARAMS, message)
    return error
