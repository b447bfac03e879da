"""The docs' agent loops (docs/guide/vendors.md) run as written, against a local server
that plays the model.

The loops are the page's blocks that import ``llmapp.vendors``. ``OPENAI_BASE_URL`` and
``ANTHROPIC_BASE_URL`` point the unmodified code at the loopback server: its first answer
asks for an order with a mistake, the second for the corrected order, the third is the
final text; each request after the first must carry llmapp's answers to the last one.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.support.examples import ROOT, examples

LOOPS = {
    vendor: example.source
    for example in examples([ROOT / "docs" / "guide" / "vendors.md"])
    if "from llmapp.vendors import" in example.source
    for vendor in ("openai", "anthropic")
    if f"from {vendor} " in example.source
}

TURNS = [
    [("call_1", "order", {"sku": "PS-1", "quantity": "two"})],
    [("call_2", "order", {"sku": "PS-1", "quantity": 2})],
]
FINAL = "Ordered two pruning shears."


def test_the_docs_have_both_loops() -> None:
    assert sorted(LOOPS) == ["anthropic", "openai"]
    # a dozen lines of user code each, the class and the imports of the SDK's message
    # types that mypy --strict needs (tests/typing/test_mypy.py)
    for block in LOOPS.values():
        assert len([line for line in block.splitlines() if line.strip()]) <= 24


@pytest.mark.parametrize("vendor", ["openai", "anthropic"])
def test_readme_loop_runs(
    vendor: str,
    kit: Any,
    loopback: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip(vendor, reason=f"the {vendor} SDK is in the dev extra")
    respond = kit.chat if vendor == "openai" else kit.anthropic
    loopback.reply = lambda path, body: (
        respond(TURNS[len(loopback.requests) - 1])
        if len(loopback.requests) <= len(TURNS)
        else respond([], FINAL)
    )
    if vendor == "openai":
        monkeypatch.setenv("OPENAI_BASE_URL", f"{loopback.url}/v1")
        monkeypatch.setenv("OPENAI_API_KEY", "test")
    else:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", loopback.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test")
    namespace: dict[str, Any] = {"__name__": f"docs_{vendor}_loop"}
    exec(compile(LOOPS[vendor], f"docs/guide/vendors.md {vendor} loop", "exec"), namespace)

    assert capsys.readouterr().out.strip() == FINAL
    assert len(loopback.requests) == 3
    second, third = (json.dumps(body) for _, body in loopback.requests[1:])
    assert "$input.quantity" in second  # the feedback went back, naming the mistake
    assert "ordered 2 x PS-1" in third  # and then the method's answer
