"""Import benchmark: ``python -c "import X"`` over bare ``python -c pass``, in fresh processes.

Each command runs once to warm the OS file cache, then ``Settings.import_runs``
times; the table shows the median wall time minus bare Python's median. For
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


def _median_ms(statement: str, runs: int) -> float | None:
    if _time_once(statement) is None:  # also warms the file cache and .pyc files
        return None
    times = [_time_once(statement) for _ in range(runs)]
    if any(t is None for t in times):
        return None
    return statistics.median(t for t in times if t is not None) * 1000


def run(settings: Settings) -> tuple[str, dict[str, Any]]:
    """Time every import; returns (markdown, JSON-ready results)."""
    bare = _median_ms(_BARE, settings.import_runs)
    found: dict[str, float | None] = {}
    for label, statement in MODULES:
        total = _median_ms(statement, settings.import_runs)
        found[label] = None if total is None or bare is None else max(total - bare, 0.0)
    base = found["llmapp"]
    rows = [
        [label, f"`{statement}`", fmt(found[label]), fmt_ratio(ratio(base, found[label]))]
        for label, statement in MODULES
    ]
    text = "\n\n".join(
        [
            "## 3. Import time over bare Python",
            f"Bare `python -c pass`: {fmt(bare)} ms (median of {settings.import_runs}).",
            table(["module", "statement", "ms over bare", "llmapp ÷ this"], rows),
        ]
    )
    return text, {"bare_ms": bare, "over_bare_ms": found, "runs": settings.import_runs}
