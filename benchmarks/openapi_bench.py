"""``python -m benchmarks.openapi_bench [--runs N]``: the Stripe document to functions.

Side by side in one run, each in a fresh process (imports included, nothing cached):

- llmapp: ``llmapp.http.application(path)`` (reading the file included);
- FastMCP: ``FastMCP.from_openapi(spec, client)`` then ``list_tools()`` (reading the file
  included), when ``fastmcp`` is installed; otherwise the row says so.

Prints the median over ``--runs`` processes of each step, the function counts and the
ratio. Target: llmapp under 1 s and at least 10x faster than FastMCP.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from benchmarks._report import table
from benchmarks._timing import ROOT

STRIPE = ROOT.parent / "shared" / "corpora" / "openapi" / "real-apis" / "stripe" / "spec3.json"


def llmapp_child(path: str) -> dict[str, float]:
    started = time.perf_counter()
    from llmapp.http import application

    imported = time.perf_counter()
    app = application(Path(path))
    done = time.perf_counter()
    return {"import": imported - started, "build": done - imported, "functions": len(app.functions)}


def fastmcp_child(path: str) -> dict[str, float]:
    import asyncio

    started = time.perf_counter()
    import httpx
    from fastmcp import FastMCP

    imported = time.perf_counter()
    spec = json.loads(Path(path).read_text(encoding="utf-8"))
    server = FastMCP.from_openapi(spec, client=httpx.AsyncClient(base_url="http://127.0.0.1:9"))
    built = time.perf_counter()
    tools = asyncio.run(server.list_tools())
    listed = time.perf_counter()
    return {
        "import": imported - started,
        "build": built - imported,
        "list": listed - built,
        "functions": len(tools),
    }


CHILDREN = {"llmapp": llmapp_child, "fastmcp": fastmcp_child}


def _run(which: str, runs: int) -> list[dict[str, float]] | str:
    results = []
    for _ in range(runs):
        command = [sys.executable, "-m", "benchmarks.openapi_bench", "--child", which]
        done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=600)
        if done.returncode != 0:
            last = (done.stderr.strip().splitlines() or ["failed"])[-1]
            return last
        results.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return results


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.openapi_bench")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", choices=sorted(CHILDREN))
    options = parser.parse_args()
    if options.child:
        print(json.dumps(CHILDREN[options.child](str(STRIPE))))
        return 0
    if not STRIPE.exists():
        print(f"the Stripe document is not at {STRIPE}", file=sys.stderr)
        return 1
    rows = []
    totals: dict[str, float] = {}
    for which in ("llmapp", "fastmcp"):
        measured = _run(which, options.runs)
        if isinstance(measured, str):
            note = "not installed" if "No module named" in measured else measured
            rows.append([which, "n/a", "n/a", "n/a", "n/a", "n/a", note])
            continue

        def median(key: str, found: list[dict[str, float]] = measured) -> float:
            return statistics.median(m.get(key, 0.0) for m in found)

        total = median("build") + median("list")
        totals[which] = total
        rows.append(
            [which, f"{median('import') * 1000:.0f}", f"{median('build') * 1000:.0f}",
             f"{median('list') * 1000:.0f}", f"{total * 1000:.0f}", str(int(median("functions"))), ""]
        )  # fmt: skip
    print(
        f"Stripe spec3.json ({STRIPE.stat().st_size / 1e6:.1f} MB), median of {options.runs} fresh processes"
    )
    print(
        table(
            [
                "peer",
                "import ms",
                "build ms",
                "list tools ms",
                "build + list ms",
                "functions",
                "note",
            ],
            rows,
        )
    )
    if "llmapp" in totals:
        held = "yes" if totals["llmapp"] < 1.0 else "NO"
        print(f"\nllmapp under 1 s: {held} ({totals['llmapp']:.3f} s)")
    if "llmapp" in totals and "fastmcp" in totals:
        speedup = totals["fastmcp"] / totals["llmapp"]
        print(
            f"llmapp vs FastMCP: {speedup:.1f}x faster ({'yes' if speedup >= 10 else 'NO'} for >= 10x)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
