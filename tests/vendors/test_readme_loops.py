"""The README's agent loops run as written, against a local server that plays the model.

The loops are the README's ``py`` blocks that import ``llmapp.vendors`` (``tests/test_readme.py``
runs the ``python`` blocks, which need no key and no server). ``OPENAI_BASE_URL`` and
``ANTHROPIC_BASE_URL`` point the unmodified code at the loopback server: its first answer
asks for a search and an order with mistakes, the second for the corrected order, the third
is the final text; each request after the first must carry llmapp's answers to the last one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = [
    block
    for block in re.findall(r"```py\n(.*?)```", (ROOT / "README.md").read_text("utf-8"), re.S)
    if "from llmapp.vendors import" in block
]
LOOPS = {
    vendor: block
    for block in BLOCKS
    for vendor in ("openai", "anthropic")
    if f"from {vendor} " in block
}

ANN = {"name": "Ann Lee", "email": "ann@example.com"}
TURNS = [
    [
        ("call_1", "search", {"query": "pruning shears"}),
        (
            "call_2",
            "create_order",
            {
                "customer": {"name": "Ann Lee", "email": "ann.example.com"},
                "items": [{"sku": "GD-221", "quantity": 0}],
            },
        ),
    ],
    [("call_3", "create_order", {"customer": ANN, "items": [{"sku": "GD-221", "quantity": 2}]})],
]
FINAL = "Ordered two pruning shears for Ann Lee."


def test_the_readme_has_both_loops() -> None:
    assert sorted(LOOPS) == ["anthropic", "openai"]
    # a dozen lines of user code each, and the imports of the SDK's message types that
    # mypy --strict needs (tests/vendors/test_readme_types.py)
    for block in LOOPS.values():
        assert len([line for line in block.splitlines() if line.strip()]) <= 18


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
    monkeypatch.syspath_prepend(str(ROOT))  # "from examples.shop import Shop", as from the root

    namespace: dict[str, Any] = {"__name__": f"readme_{vendor}_loop"}
    exec(compile(LOOPS[vendor], f"README.md {vendor} loop", "exec"), namespace)

    assert capsys.readouterr().out.strip() == FINAL
    assert len(loopback.requests) == 3
    [order] = namespace["shop"].orders.values()
    assert (order.customer.email, order.items[0].quantity) == ("ann@example.com", 2)
    second, third = (json.dumps(body) for _, body in loopback.requests[1:])
    assert "GD-221" in second and "Pruning shears" in second  # the search result went back
    for path in ("$input.customer.email", "$input.items[0].quantity"):
        assert path in second
    assert str(order.id) in third
