"""Import benchmark: ``python -c "import X"`` over bare ``python -c pass``, in fresh processes.

Each command runs once to warm the OS file cache, then ``Settings.import_runs``
rounds go over every command, each run paired with a bare run just before it; the
table shows the median of those differences (a value near 0 or below is noise). For
langchain-core and the MCP SDK the module a tool library actually needs is timed
as well as the top-level package.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from typing import Any

from benchmarks._report import fmt, fmt_ratio, ratio, table
from benchmarks._timing import ROOT, Settings

__all__ = ["MODULES", "run"]

MODULES: list[tuple[str, str]] = [
    ("llmapp", "import llmapp"),
    ("llmapp + application()", "import llmapp; llmapp.application"),
    ("pydantic", "import pydantic"),
    ("pydantic + BaseModel", "from pydantic import BaseModel"),
    ("langchain_core", "import langchain_core"),
    ("langchain_core.utils.function_calling", "import langchain_core.utils.function_calling"),
    ("agents (openai-agents)", "import agents"),
    ("mcp", "import mcp"),
    ("mcp server (MCPServer / FastMCP)", "import mcp.server.mcpserver"),
]
"""(label, statement) pairs; a statement that fails to run shows n/a."""

_BARE = "pass"


def _time_once(statement: str) -> float | None:
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", statement], capture_output=True, cwd=ROOT, check=False
    )
    elapsed = time.perf_counter() - start
    return elapsed if proc.returncode == 0 else None


def _over_bare_ms(statements: list[str], runs: int) -> tuple[dict[str, float | None], float]:
    """Median of paired differences: each timed run comes right after a bare run, and the
    rounds go over every statement in turn, so changes in the machine's load cancel out."""
    working = [st for st in statements if _time_once(st) is not None]  # also warms caches
    differences: dict[str, list[float]] = {st: [] for st in working}
    bare: list[float] = []
    for _ in range(runs):
        for statement in working:
            before, timed = _time_once(_BARE), _time_once(statement)
            if before is not None and timed is not None:
                differences[statement].append(timed - before)
                bare.append(before)
    found: dict[str, float | None] = dict.fromkeys(statements)
    for statement, values in differences.items():
        found[statement] = statistics.median(values) * 1000 if values else None
    return found, statistics.median(bare) * 1000 if bare else 0.0


def run(settings: Settings) -> tuple[str, dict[str, Any]]:
    """Time every import; returns (markdown, JSON-ready results)."""
    by_statement, bare = _over_bare_ms([st for _, st in MODULES], settings.import_runs)
    found = {label: by_statement[statement] for label, statement in MODULES}
    base = found["llmapp"]
    rows = [
        [label, f"`{statement}`", fmt(found[label]), fmt_ratio(ratio(base, found[label]))]
        for label, statement in MODULES
    ]
    text = "\n\n".join(
        [
            "## 3. Import time over bare Python",
            f"Bare `python -c pass`: {fmt(bare)} ms. Each figure is the median over "
            f"{settings.import_runs} rounds of (import run - the bare run just before it).",
            table(["module", "statement", "ms over bare", "llmapp ÷ this"], rows),
        ]
    )
    return text, {"bare_ms": bare, "over_bare_ms": found, "runs": settings.import_runs}
