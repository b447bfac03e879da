"""Where ``aexecute`` runs a call: llmapp's own bounded worker threads, within a time limit."""

from __future__ import annotations

import asyncio
import threading

import pytest

from llmapp import Runner, application, llm_application
from llmapp.vendors import openai as vendor

WAIT = 10  # seconds a test waits for something that should happen at once


@llm_application
class Work:
    def __init__(self) -> None:
        self.release = threading.Event()
        self.barrier = threading.Barrier(4, timeout=WAIT)
        self.started = 0
        self.threads: set[str] = set()

    def meet(self, n: int) -> int:
        """Wait until four calls are inside at once (sequential calls break the barrier)."""
        self.threads.add(threading.current_thread().name)
        self.barrier.wait()
        return n

    def block(self, n: int) -> int:
        """Wait until released."""
        self.started += 1
        self.release.wait(WAIT)
        return n

    def echo(self, text: str) -> str:
        """Echo."""
        return text

    async def forever(self) -> str:
        """Never returns."""
        await asyncio.sleep(3600)
        return "late"

    def ready(self) -> str:
        """Returns an awaitable from a plain method."""
        return self.forever()  # type: ignore[return-value]


app = application(Work)


def test_sync_methods_run_concurrently_in_worker_threads():
    work = Work()

    async def main():
        return await asyncio.gather(*(app.aexecute(work, "meet", {"n": n}) for n in range(4)))

    results = asyncio.run(main())
    assert [r.value for r in results] == [0, 1, 2, 3]
    assert threading.current_thread().name not in work.threads
    assert work.threads <= {"llmapp worker"}


def test_acall_tools_runs_sync_calls_concurrently():
    work = Work()
    response = {
        "choices": [
            {
                "message": {
                    "tool_calls": [
                        {"id": f"c{n}", "function": {"name": "meet", "arguments": f'{{"n": {n}}}'}}
                        for n in range(4)
                    ]
                }
            }
        ]
    }
    answers = asyncio.run(vendor.acall_tools(app, work, response))
    assert [a["content"] for a in answers] == ["0", "1", "2", "3"]


def test_many_slow_calls_of_one_function_leave_threads_for_a_quick_one():
    work = Work()
    runner = Runner(threads=8)

    async def main():
        slow = [
            asyncio.ensure_future(app.aexecute(work, "block", {"n": n}, runner=runner))
            for n in range(60)
        ]
        while work.started < runner.per_function:
            await asyncio.sleep(0.01)
        quick = await app.aexecute(work, "echo", {"text": "fast"}, runner=runner)
        still_blocked = not any(task.done() for task in slow)
        work.release.set()
        return quick, still_blocked, await asyncio.gather(*slow)

    quick, still_blocked, slow = asyncio.run(main())
    assert quick.value == "fast" and still_blocked
    assert [r.value for r in slow] == list(range(60))
    assert work.started == 60 and runner.busy == 0


def test_an_async_method_past_the_timeout_is_answered_as_timed_out():
    result = asyncio.run(app.aexecute(Work(), "forever", {}, runner=Runner(timeout=0.05)))
    assert not result.success and isinstance(result.error, TimeoutError)
    assert (
        result.message() == "The function raised TimeoutError: forever did not finish within 0.05 s"
    )


def test_an_awaitable_from_a_plain_method_is_bounded_too():
    result = asyncio.run(app.aexecute(Work(), "ready", {}, runner=Runner(timeout=0.05)))
    assert isinstance(result.error, TimeoutError)


def test_a_timed_out_sync_method_keeps_its_thread_and_a_queued_call_never_runs():
    work = Work()
    runner = Runner(threads=1, timeout=0.1)

    async def main():
        first = await app.aexecute(work, "block", {"n": 1}, runner=runner)
        busy_after = runner.busy  # the method still runs: its thread is still counted
        queued = await app.aexecute(work, "echo", {"text": "x"}, runner=runner)
        return first, busy_after, queued

    first, busy_after, queued = asyncio.run(main())
    assert isinstance(first.error, TimeoutError) and busy_after == 1
    assert isinstance(queued.error, TimeoutError)  # it waited for the one thread
    assert work.started == 1
    work.release.set()


def test_small_wrong_arguments_are_answered_while_every_thread_is_busy():
    """Checking small arguments costs less than a thread's round trip: it needs no thread,
    so a mistake is answered at once; large arguments, and valid ones (the method runs),
    wait for the one thread."""
    work = Work()
    runner = Runner(threads=1, timeout=0.3)
    large = {"text": 1, "extra": "x" * 5_000}

    async def main():
        await app.aexecute(work, "echo", {"text": "warm"}, runner=runner)  # compiles on a thread
        blocked = asyncio.ensure_future(app.aexecute(work, "block", {"n": 1}, runner=runner))
        while work.started < 1:
            await asyncio.sleep(0.01)
        wrong = await app.aexecute(work, "echo", {"text": 3}, runner=runner)
        wrong_text = await app.aexecute(work, "echo", '{"text": 3}', runner=runner)
        wrong_large = await app.aexecute(work, "echo", large, runner=runner)
        valid = await app.aexecute(work, "echo", {"text": "x"}, runner=runner)
        work.release.set()
        await blocked
        return wrong, wrong_text, wrong_large, valid

    wrong, wrong_text, wrong_large, valid = asyncio.run(main())
    assert wrong.validation is not None and "$input.text" in (wrong.feedback or "")
    assert wrong_text.validation is not None
    assert isinstance(wrong_large.error, TimeoutError)  # checked on the thread: it waited
    assert isinstance(valid.error, TimeoutError)


def test_timeout_raises_with_raise_errors():
    with pytest.raises(TimeoutError):
        asyncio.run(
            app.aexecute(Work(), "forever", {}, runner=Runner(timeout=0.05), raise_errors=True)
        )


def test_arguments_are_read_and_validated_off_the_event_loop():
    seen: list[str] = []

    def hook(arguments):
        seen.append(threading.current_thread().name)
        from llmapp import ValidationSuccess

        return ValidationSuccess(arguments)

    hooked = application(Work, validate={"forever": hook, "echo": hook})

    async def main():
        await hooked.aexecute(Work(), "echo", {"text": "a"})
        await hooked.aexecute(Work(), "forever", {}, runner=Runner(timeout=0.05))

    asyncio.run(main())
    assert seen == ["llmapp worker", "llmapp worker"]


def test_wrong_arguments_and_unknown_names_answer_as_before():
    async def main():
        return (
            await app.aexecute(Work(), "echo", {"text": 3}),
            await app.aexecute(Work(), "ech", {}),
        )

    wrong, unknown = asyncio.run(main())
    assert wrong.validation is not None and "$input.text" in (wrong.feedback or "")
    assert not unknown.success and "echo" in unknown.message()


@pytest.mark.parametrize(
    "options",
    [{"threads": 0}, {"threads": True}, {"per_function": 0}, {"timeout": 0}, {"timeout": "1"}],
)
def test_limits_must_be_positive(options):
    with pytest.raises(ValueError):
        Runner(**options)


@llm_application
class Watched:
    def __init__(self) -> None:
        self.cancelled = asyncio.Event()

    async def wait(self) -> str:
        """Waits until cancelled."""
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            self.cancelled.set()
            raise
        return "late"


def test_cancelling_the_caller_cancels_the_call_under_a_timeout():
    watched = Watched()

    async def main():
        task = asyncio.ensure_future(
            application(Watched).aexecute(watched, "wait", {}, runner=Runner(timeout=WAIT))
        )
        await asyncio.sleep(0.1)
        task.cancel()
        await asyncio.wait_for(watched.cancelled.wait(), WAIT)
        return task.cancelled()

    assert asyncio.run(main())
