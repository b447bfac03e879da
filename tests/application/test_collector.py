"""A build runs with the garbage collector paused, restored as it was after."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from llmapp import application
from llmapp._collection import paused_collection
from llmapp.app import _build


@pytest.fixture
def collector() -> Iterator[None]:
    enabled = gc.isenabled()
    yield
    if enabled:
        gc.enable()
    else:
        gc.disable()


def test_the_collector_is_off_inside_and_as_it_was_after(collector: None) -> None:
    gc.enable()
    with paused_collection():
        assert not gc.isenabled()
        with paused_collection():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer pause still runs
    assert gc.isenabled()


def test_a_program_that_disabled_the_collector_keeps_it_disabled(collector: None) -> None:
    gc.disable()
    with paused_collection():
        pass
    assert not gc.isenabled()


def test_the_collector_comes_back_when_the_block_raises(collector: None) -> None:
    gc.enable()
    with pytest.raises(ValueError), paused_collection():
        raise ValueError
    assert gc.isenabled()


def test_overlapping_pauses_in_threads_end_with_the_last(collector: None) -> None:
    gc.enable()
    inside, release = threading.Event(), threading.Event()

    def other() -> None:
        with paused_collection():
            inside.set()
            release.wait(5)

    thread = threading.Thread(target=other)
    with paused_collection():
        thread.start()
        inside.wait(5)
    assert not gc.isenabled()  # the other thread's pause still runs
    release.set()
    thread.join(5)
    assert gc.isenabled()


def test_a_build_runs_with_the_collector_paused(
    collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    gc.enable()
    seen: list[bool] = []
    inner = _build._build

    def spy(cls: type, config: object) -> object:
        seen.append(gc.isenabled())
        return inner(cls, config)  # type: ignore[arg-type]

    monkeypatch.setattr(_build, "_build", spy)

    class Paused:
        def add(self, a: int, b: int) -> int:
            """Add two numbers."""
            return a + b

    function = application(Paused).require("add")
    assert seen == [False]
    assert gc.isenabled()
    assert function.validate({"a": 1, "b": 2}).success
