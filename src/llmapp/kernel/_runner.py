"""Where and for how long an async caller's calls run: worker threads of llmapp's own, a timeout.

``aexecute`` (and so every vendor's ``acall_tools``) and the MCP server hand each call to
a ``Runner``. The runner keeps the loop free of work whose cost it cannot bound: the
model's arguments are read, repaired and checked on the loop only when that costs less
than a worker thread's round trip (``checks_here``: arguments of at most ``HERE_LIMIT``
characters, llmapp's own validator already compiled, no pattern on the time-limited
engine, no hook), so wrong arguments are answered without a thread; otherwise in a
worker thread. Everything that runs the caller's code (a hook, building the method's
argument objects, a sync method) runs in a worker thread; an async method is awaited
back on the loop. So a slow sync method holds up neither the loop nor the calls
beside it.

The threads are the runner's own, not a pool shared with the rest of the process:

- at most ``threads`` methods run at once; more wait their turn;
- at most ``per_function`` of those are calls of one function, so many slow calls of
  one function leave threads for the others;
- a call that runs past ``timeout`` seconds (waiting for a thread included) is answered
  as failed with a ``TimeoutError`` naming the limit. An async method is cancelled. A
  sync method cannot be stopped: its thread stays counted against both limits until the
  method returns, so a method that hangs takes one of its function's threads for good,
  never a thread the limits did not allow. A call that times out while still waiting
  for a thread never runs.

The workers are daemon threads, started as calls need them and then kept for the next
calls, so a hung method never keeps the process from exiting.
"""

from __future__ import annotations

import functools
import inspect
import queue
import threading
from collections import deque
from collections.abc import Callable, Coroutine, Mapping
from logging import Logger
from time import perf_counter
from typing import TYPE_CHECKING, Any, Final, Protocol

from llmapp._cancelled import cancellation, own_cancellation
from llmapp.kernel._controls import time_limit
from llmapp.kernel._function import Function, OnFirstUse
from llmapp.kernel._kernel import Checked, ModelSide
from llmapp.kernel._log import log_call
from llmapp.kernel._result import CallResult, error_text

if TYPE_CHECKING:  # asyncio is imported where it runs: only async callers need it
    import asyncio

    from llmapp.introspect.model import MethodSpec

__all__ = [
    "DEFAULT_RUNNER",
    "HERE_LIMIT",
    "PLAIN_RESULTS",
    "CallPlan",
    "PreparedCall",
    "Runner",
    "checks_here",
    "run_within",
]

HERE_LIMIT: Final = 1_000
"""Most characters of argument text checked on the event loop (for arguments already
parsed: their strings' characters and their members, counted together)."""

PLAIN_RESULTS: Final = frozenset({dict, list, str, int, float, bool, type(None)})
"""What most methods return: neither awaitable nor an iterator (two ABC checks saved)."""


class PreparedCall(Protocol):
    """What the runner runs: a call whose arguments are checked, joined and converted
    (``_execute.Call``); the runner needs only these of it, so it sits above no plan."""

    @property
    def plan(self) -> CallPlan: ...
    @property
    def target(self) -> Callable[..., Any]: ...
    @property
    def args(self) -> list[Any]: ...
    @property
    def kwargs(self) -> dict[str, Any]: ...
    def materialised(self, value: Any) -> Any: ...
    def returned(self, value: Any) -> CallResult: ...
    def raised(self, error: BaseException) -> CallResult: ...


class CallPlan(Protocol):
    """How one function's calls run (``_execute.Plan``), as far as the runner reads it."""

    @property
    def function(self) -> Function: ...
    @property
    def method(self) -> MethodSpec: ...
    @property
    def side(self) -> ModelSide: ...
    def check(self, arguments: Any) -> Checked | CallResult: ...
    def complete(
        self, checked: Checked | CallResult, instance: Any, human: Mapping[str, Any] | None
    ) -> PreparedCall | CallResult: ...


_QUEUED: Final = "queued"
_RUNNING: Final = "running"
_ABANDONED: Final = "abandoned"


class Runner:
    """Runs calls for async callers in bounded worker threads, each within a time limit.

    Args:
        threads: most methods running at once (sync methods, and the reading and
            validation of every call).
        per_function: most of those that calls of one function may hold (default:
            half of ``threads``, at least one).
        timeout: seconds one call may take, waiting for a thread included; ``None``
            for no limit.

    Raises:
        ValueError: a limit that is not a positive number.

    Example::

        runner = Runner(threads=16, timeout=30)
        result = await app.aexecute(shop, "search", text, runner=runner)
    """

    def __init__(
        self, *, threads: int = 32, per_function: int | None = None, timeout: float | None = None
    ) -> None:
        if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive integer, not {threads!r}")
        if per_function is None:
            per_function = max(1, threads // 2)
        if isinstance(per_function, bool) or not isinstance(per_function, int) or per_function < 1:
            raise ValueError(f"per_function must be a positive integer, not {per_function!r}")
        if timeout is not None and not (
            isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0
        ):
            raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
        self.threads = threads
        self.per_function = min(per_function, threads)
        self.timeout = timeout
        self._lock = threading.Lock()
        self._busy = 0
        self._busy_by: dict[str, int] = {}
        self._waiting: deque[_Job] = deque()
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._idle = 0

    def __repr__(self) -> str:
        return (
            f"Runner(threads={self.threads}, per_function={self.per_function}, "
            f"timeout={self.timeout})"
        )

    @property
    def busy(self) -> int:
        """Threads running a method now (timed-out methods still running included)."""
        return self._busy

    async def execute(
        self,
        plan: CallPlan,
        instance: Any,
        arguments: Any,
        human: Mapping[str, Any] | None,
        raise_errors: bool = False,
        *,
        admit: Callable[[PreparedCall | CallResult], PreparedCall | CallResult] | None = None,
    ) -> CallResult:
        """One call from the model's arguments to its result: checked on the loop where that
        is cheap (``checks_here``), everything else in a worker thread.

        Args:
            plan: the function's plan.
            instance: what the method runs on.
            arguments: the model's arguments.
            human: the human side.
            raise_errors: re-raise the method's exception.
            admit: a last step between preparing and running (the per-call controls).

        Raises:
            ExecutionError: the application is used wrongly (as ``execute`` raises it).
        """

        checked: Checked | CallResult | None = None  # None: checked in the worker thread
        if checks_here(plan, arguments):
            checked = plan.check(arguments)
            if isinstance(checked, CallResult):  # wrong arguments: no thread needed
                return checked

        def prepare() -> PreparedCall | CallResult:
            done = plan.check(arguments) if checked is None else checked
            prepared = plan.complete(done, instance, human)
            return admit(prepared) if admit is not None else prepared

        return await self._bounded(plan, prepare, raise_errors)

    async def run(self, call: PreparedCall, raise_errors: bool = False) -> CallResult:
        """A call already prepared (``app.prepare``), run within the same limits."""
        return await self._bounded(call.plan, lambda: call, raise_errors)

    def _bounded(
        self, plan: CallPlan, prepare: Callable[[], PreparedCall | CallResult], raise_errors: bool
    ) -> Coroutine[Any, Any, CallResult]:
        """The call within its time limit; without one, the call itself (no task to wait on)."""
        timeout = time_limit(plan.function, self.timeout)  # the function's own, if smaller
        if timeout is None:
            return self._call(plan, prepare, raise_errors)
        return self._timed(
            plan.function, self._call(plan, prepare, raise_errors), raise_errors, timeout
        )

    async def awaited(
        self,
        function: Function,
        call: Coroutine[Any, Any, CallResult],
        raise_errors: bool = False,
        log: Logger | None = None,
    ) -> CallResult:
        """A door's own awaited call (a request, a remote tool: I/O on the loop, no thread)
        within the runner's time limit and the function's own, as a method's call is.

        A call past the limit is cancelled and answered with a ``TimeoutError`` naming it,
        one record of ``log`` (the door's logger), since the cancelled call logs nothing.
        """
        timeout = time_limit(function, self.timeout)
        if timeout is None:
            return await call
        started = perf_counter()
        result, timed_out = await self._race(function, call, raise_errors, timeout)
        if timed_out and log is not None:
            log_call(log, result, perf_counter() - started)
        return result

    async def _timed(
        self,
        function: Function,
        call: Coroutine[Any, Any, CallResult],
        raise_errors: bool,
        timeout: float,
    ) -> CallResult:
        return (await self._race(function, call, raise_errors, timeout))[0]

    async def _race(
        self,
        function: Function,
        call: Coroutine[Any, Any, CallResult],
        raise_errors: bool,
        timeout: float,
    ) -> tuple[CallResult, bool]:
        """The call's own result, or past ``timeout`` the call cancelled and the answer
        that says so; ``True`` with the latter."""
        import asyncio

        task = asyncio.ensure_future(call)
        try:
            done, _ = await asyncio.wait((task,), timeout=timeout)
        except BaseException:  # the caller was cancelled: so is the call
            task.cancel()
            raise
        if done:
            return task.result(), False
        task.cancel()
        error = TimeoutError(f"{function.name} did not finish within {timeout:g} s")
        if raise_errors:
            raise error
        answer = CallResult(
            name=function.name,
            success=False,
            error=error,
            feedback=error_text(error),
            deprecated=function.deprecated,
        )
        return answer, True

    async def _call(
        self, plan: CallPlan, prepare: Callable[[], PreparedCall | CallResult], raise_errors: bool
    ) -> CallResult:
        name = plan.function.name
        if plan.method.is_async:
            prepared = await self._in_thread(name, prepare)
            if isinstance(prepared, CallResult):
                return prepared
            return await _awaited(prepared, prepared.target, raise_errors)
        outcome = await self._in_thread(name, functools.partial(_call_here, prepare, raise_errors))
        if isinstance(outcome, CallResult):
            return outcome
        call, awaitable = outcome  # a plain method that returned an awaitable: awaited here
        return await _awaited(call, lambda *_, **__: awaitable, raise_errors)

    async def _in_thread(self, name: str, work: Callable[[], Any]) -> Any:
        """``work()`` in one of the runner's threads, once the limits allow it."""
        import asyncio

        loop = asyncio.get_running_loop()
        job = _Job(name, work, loop, loop.create_future())
        with self._lock:
            start = self._busy < self.threads and self._busy_by.get(name, 0) < self.per_function
            if start:
                self._take(job)
            else:
                self._waiting.append(job)
        if start:
            self._dispatch(job)
        try:
            return await job.future
        except BaseException:  # cancelled (a timeout): a job not yet started never runs
            with self._lock:
                if job.state == _QUEUED:
                    job.state = _ABANDONED
                    self._waiting.remove(job)
            raise

    def _take(self, job: _Job) -> None:
        job.state = _RUNNING
        self._busy += 1
        self._busy_by[job.name] = self._busy_by.get(job.name, 0) + 1

    def _dispatch(self, job: _Job) -> None:
        with self._lock:
            reuse = self._idle > 0
            if reuse:
                self._idle -= 1
        if not reuse:
            threading.Thread(target=self._work, name="llmapp worker", daemon=True).start()
        self._jobs.put(job)

    def _work(self) -> None:
        while True:
            job = self._jobs.get()
            settled = job.run()
            with self._lock:
                self._idle += 1  # before the release, so the next job reuses this thread
                self._busy -= 1
                left = self._busy_by[job.name] - 1
                if left:
                    self._busy_by[job.name] = left
                else:
                    del self._busy_by[job.name]
                following = self._next() if self._waiting else None
            # Released before the outcome is handed over: a caller that has its answer
            # never sees the slot still held.
            if settled is not None:
                job.deliver(*settled)
            if following is not None:
                self._dispatch(following)

    def _next(self) -> _Job | None:
        """The first waiting job the limits now allow (under the lock), taken."""
        if self._busy >= self.threads:
            return None
        for job in self._waiting:
            if self._busy_by.get(job.name, 0) < self.per_function:
                self._waiting.remove(job)
                self._take(job)
                return job
        return None


class _Job:
    """One piece of work for a worker thread, and the loop's future that awaits it."""

    __slots__ = ("future", "loop", "name", "state", "work")

    def __init__(
        self, name: str, work: Callable[[], Any], loop: asyncio.AbstractEventLoop, future: Any
    ) -> None:
        self.name = name
        self.work = work
        self.loop = loop
        self.future: asyncio.Future[Any] = future
        self.state = _QUEUED

    def run(self) -> tuple[Any, BaseException | None] | None:
        """Run the work here: its outcome, or None when nobody waits for it any more."""
        if self.future.cancelled():  # timed out between being taken and reaching a thread
            return None
        try:
            return self.work(), None
        except BaseException as error:  # delivered to the awaiting side, which decides
            return None, error

    def deliver(self, outcome: Any, failure: BaseException | None) -> None:
        """Hand the outcome to the loop (if it still waits for it)."""
        # Not contextlib.suppress: three Python calls more on every call's way back.
        try:  # noqa: SIM105
            self.loop.call_soon_threadsafe(_deliver, self.future, outcome, failure)
        except RuntimeError:  # a closed loop: nobody waits any more
            pass


def _deliver(future: asyncio.Future[Any], outcome: Any, failure: BaseException | None) -> None:
    if future.done():  # the caller gave up (a timeout) before the method returned
        return
    if failure is not None:
        future.set_exception(failure)
    else:
        future.set_result(outcome)


def _call_here(
    prepare: Callable[[], PreparedCall | CallResult], raise_errors: bool
) -> CallResult | tuple[PreparedCall, Any]:
    """In a worker: every step before the call, then the sync method itself."""
    prepared = prepare()
    if isinstance(prepared, CallResult):
        return prepared
    try:
        value = prepared.target(*prepared.args, **prepared.kwargs)
        if type(value) not in PLAIN_RESULTS:
            if inspect.isawaitable(value):
                return prepared, value
            value = prepared.materialised(value)
    except Exception as error:
        if raise_errors:
            raise
        return prepared.raised(error)
    except BaseException as error:  # in a worker thread no task of the caller's runs
        if raise_errors or not cancellation(error):
            raise
        return prepared.raised(error)
    return prepared.returned(value)


async def _awaited(call: PreparedCall, start: Callable[..., Any], raise_errors: bool) -> CallResult:
    """On the loop: an async method (or an awaitable a plain method returned), awaited."""
    try:
        value = start(*call.args, **call.kwargs)
        if inspect.isawaitable(value):
            value = await value
        value = call.materialised(value)
    except Exception as error:
        if raise_errors:
            raise
        return call.raised(error)
    except BaseException as error:  # a CancelledError the method raised, not its task's
        if raise_errors or not own_cancellation(error):
            raise
        return call.raised(error)
    return call.returned(value)


def checks_here(plan: CallPlan, arguments: Any) -> bool:
    """Whether checking these arguments on the loop costs less than a thread's round trip.

    So it is when its cost follows their size and they are small: llmapp's own validator
    (compiled by an earlier call, since compiling is not cheap), no pattern that may run
    on the time-limited engine, no hook (the caller's code), at most ``HERE_LIMIT``
    characters.
    """
    side = plan.side
    if side.hooked:
        return False
    check = side.check
    compiled = check.compiled if isinstance(check, OnFirstUse) else check
    return bool(getattr(compiled, "bounded", False)) and _small(arguments)


def _small(arguments: Any) -> bool:
    """At most ``HERE_LIMIT`` characters of text, or of JSON values' strings and members."""
    if isinstance(arguments, (str, bytes, bytearray)):
        return len(arguments) <= HERE_LIMIT
    budget = HERE_LIMIT
    todo = [arguments]
    while todo:
        value = todo.pop()
        kind = type(value)
        if kind is dict:
            budget -= 2 * len(value)
            if budget < 0:
                return False
            todo.extend(value.keys())
            todo.extend(value.values())
        elif kind is list:
            budget -= len(value)
            if budget < 0:
                return False
            todo.extend(value)
        elif kind is str:
            budget -= len(value)
        elif value is not None and kind not in (int, float, bool):
            return False  # anything else (a caller's own mapping, say): the thread
        if budget < 0:
            return False
    return True


DEFAULT_RUNNER: Final = Runner()
"""The runner of ``aexecute`` and ``acall_tools`` when none is given."""


def run_within(call: PreparedCall, raise_errors: bool, runner: Runner) -> CallResult:
    """A sync caller's call of a function with a timeout: through ``runner`` and its limit.

    The runner's worker thread runs the method and its time limit answers the call; a sync
    method past it goes on in that thread (it cannot be stopped), the caller does not wait.
    """
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(runner.run(call, raise_errors))
    import threading  # a loop runs in this thread: the runner's loop gets one of its own

    outcome: list[CallResult] = []
    failure: list[BaseException] = []

    def drive() -> None:
        try:
            outcome.append(asyncio.run(runner.run(call, raise_errors)))
        except BaseException as error:  # handed back to the caller's thread
            failure.append(error)

    thread = threading.Thread(target=drive, name="llmapp timeout", daemon=True)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return outcome[0]
