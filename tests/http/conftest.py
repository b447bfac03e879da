"""The FastAPI application of ``tests/http/shop.py``, served by uvicorn on 127.0.0.1 (a free
port) for the HTTP tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.http.shop import Seen


@dataclass
class Server:
    url: str
    seen: Seen


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    pytest.importorskip("fastapi", reason="the HTTP server tests need fastapi (the dev extra)")
    uvicorn = pytest.importorskip("uvicorn", reason="the HTTP server tests need uvicorn")
    from tests.http.shop import Seen, build_app

    seen = Seen()
    port = _free_port()
    config = uvicorn.Config(build_app(seen), host="127.0.0.1", port=port, log_level="warning")
    instance = uvicorn.Server(config)
    thread = threading.Thread(target=instance.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not instance.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    try:
        yield Server(f"http://127.0.0.1:{port}", seen)
    finally:
        instance.should_exit = True
        thread.join(timeout=10)
