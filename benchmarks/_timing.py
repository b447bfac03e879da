"""Timing helpers: median per-call time over repeats, and a fresh-process runner."""

from __future__ import annotations

import gc
import itertools
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Call", "Settings", "Unavailable", "measure", "measure_all", "run_child"]

ROOT = Path(__file__).resolve().parent.parent


class Unavailable(Exception):
    """A peer (or an llmapp part) cannot run here; the table shows ``n/a``."""


@dataclass(frozen=True)
class Settings:
    """How long to measure: ``quick`` is what CI runs (the whole suite in < 2 minutes)."""

    quick: bool = False

    @property
    def target_seconds(self) -> float:
        """Least time one repeat should take (the loop count is grown until it does)."""
        return 0.02 if self.quick else 0.1

    @property
    def repeats(self) -> int:
        return 5 if self.quick else 9

    @property
    def cold_runs(self) -> int:
        """Fresh processes per cold measurement."""
        return 1 if self.quick else 5

    @property
    def import_runs(self) -> int:
        return 5 if self.quick else 15


Call = tuple[Callable[[Any], object], Any]
"""What is timed: ``(check, value)``, called as ``check(value)``."""


def _loop_count(call: Call, target: float) -> int:
    """Grow 1, 2, 5, 10, 20, ... until ``number`` calls take ``target`` seconds (timeit's autorange)."""
    i = 1
    while True:
        for j in (1, 2, 5):
            number = i * j
            if _time_loop(call, number) >= target:
                return number
        i *= 10


def _time_loop(call: Call, number: int) -> float:
    """Seconds for ``number`` calls; the call is written in the loop, as timeit writes its
    statement, so the only overhead timed is one loop step (no wrapper function)."""
    check, value = call
    steps = itertools.repeat(None, number)
    gc_was_enabled = gc.isenabled()
    gc.disable()  # as timeit does: collections land on whichever peer is unlucky
    try:
        start = time.perf_counter()
        for _ in steps:
            check(value)
        return time.perf_counter() - start
    finally:
        if gc_was_enabled:
            gc.enable()


def measure(call: Call, settings: Settings) -> float:
    """Median time of one ``check(value)`` call, in microseconds."""
    call[0](call[1])  # warm up: first-call compilation and caches are not the steady state
    number = _loop_count(call, settings.target_seconds)
    times = [_time_loop(call, number) / number for _ in range(settings.repeats)]
    return statistics.median(times) * 1e6


def measure_all(calls: dict[str, Call], settings: Settings) -> dict[str, float]:
    """Median µs per ``check(value)`` call of each entry, timed interleaved.

    Each repeat times one loop of every entry in turn, so a change in the
    machine's load (CI runners, other processes) lands on all of them alike and
    the ratios stay fair.
    """
    numbers = {}
    for name, call in calls.items():
        call[0](call[1])
        numbers[name] = _loop_count(call, settings.target_seconds)
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(settings.repeats):
        for name, call in calls.items():
            times[name].append(_time_loop(call, numbers[name]) / numbers[name])
    return {name: statistics.median(found) * 1e6 for name, found in times.items()}


def run_child(module: str, *args: str, timeout: float = 300) -> dict[str, Any]:
    """Run ``python -m benchmarks.<module> args`` in a fresh process; return its JSON answer.

    The child prints one JSON object on its last stdout line.

    Raises:
        Unavailable: the child failed (a peer is missing, or llmapp's part is not there yet).
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-m", f"benchmarks.{module}", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=timeout,
        check=False,
    )
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        raise Unavailable(last[:160])
    answer: dict[str, Any] = json.loads(lines[-1])
    if "unavailable" in answer:
        raise Unavailable(answer["unavailable"])
    return answer
