"""``python -m benchmarks [--quick] [--json out.json] [--only validation,build,import,scale,memory,corpus]``.

Runs every benchmark side by side in one run, prints markdown tables of medians
and ratios, then the targets with whether each holds. Installs nothing: a peer
that is not installed (or an llmapp part that has not landed) shows ``n/a``, and
the command still exits 0.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from importlib import metadata
from pathlib import Path
from typing import Any

from benchmarks import build, corpus_bench, imports, memory, scale, validation
from benchmarks._report import table
from benchmarks._targets import targets
from benchmarks._timing import ROOT, Settings

SECTIONS = {
    "validation": validation.run,
    "build": build.run,
    "import": imports.run,
    "scale": scale.run,
    "memory": memory.run,
    "corpus": corpus_bench.run,
}
_DISTRIBUTIONS = [
    "llmapp",
    "pydantic",
    "pydantic-core",
    "msgspec",
    "fastjsonschema",
    "jsonschema",
    "langchain-core",
    "openai-agents",
    "mcp",
    "docstring-parser",
]


def _compile_llmapp() -> None:
    """Write llmapp's bytecode, as installing a package does for every peer.

    An editable install under ``PYTHONDONTWRITEBYTECODE=1`` (as on this project's
    machines) would otherwise compile llmapp's sources in every cold process,
    while the peers in site-packages load bytecode pip wrote at install time. Forced:
    a cache file whose source changed within the same second (a checkout, a stash)
    keeps its timestamp, so compileall would keep it, and the import system, which
    also compares the size, would reject it and compile the source in every process.
    """
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("llmapp")
    if spec is not None and spec.origin is not None:
        compileall.compile_dir(Path(spec.origin).parent, quiet=1, force=True)


def _environment() -> dict[str, Any]:
    versions = {}
    for name in _DISTRIBUTIONS:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=False,
        ).stdout.strip()
    except OSError:
        commit = ""
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "commit": commit or None,
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "versions": versions,
    }


def _load(environment: dict[str, Any]) -> str:
    found = environment["load_average"]
    return "n/a" if not found else " / ".join(f"{value:.2f}" for value in found)


def _header(environment: dict[str, Any], settings: Settings) -> str:
    versions = ", ".join(
        f"{name} {version or 'n/a'}" for name, version in environment["versions"].items()
    )
    return "\n\n".join(
        [
            "# llmapp benchmarks",
            f"{environment['implementation']} {environment['python']} on {environment['platform']}; "
            f"commit {environment['commit'] or 'n/a'}; {'quick' if settings.quick else 'full'} run; "
            f"{environment['cpus']} CPUs, load average at start {_load(environment)}.",
            f"Versions: {versions}.",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--quick", action="store_true", help="shorter timings (what CI runs; about 5 minutes)"
    )
    parser.add_argument("--json", metavar="PATH", help="also write every figure as JSON")
    parser.add_argument(
        "--only",
        metavar="NAMES",
        help=f"comma-separated subset of: {','.join(SECTIONS)}",
    )
    args = parser.parse_args(argv)
    chosen = list(SECTIONS) if not args.only else [name.strip() for name in args.only.split(",")]
    unknown = [name for name in chosen if name not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")

    settings = Settings(quick=args.quick)
    _compile_llmapp()
    environment = _environment()
    print(_header(environment, settings), flush=True)
    results: dict[str, Any] = {"environment": environment, "quick": settings.quick}
    started = time.perf_counter()
    for name in SECTIONS:
        if name in chosen:
            section_start = time.perf_counter()
            try:
                text, results[name] = SECTIONS[name](settings)
            except Exception:  # a broken section must not hide the others (nor fail CI)
                text = f"## {name}\n\nn/a: the section failed\n\n```\n{traceback.format_exc()}```"
                results[name] = {"failed": traceback.format_exc()}
            print(
                f"\n{text}\n\n_({name}: {time.perf_counter() - section_start:.0f} s)_", flush=True
            )
        if name == "import" and not args.only:
            print(_SEPARATE_COMMANDS, flush=True)
    rows = targets(results)
    results["targets"] = [
        dict(zip(("target", "measured", "holds"), row, strict=True)) for row in rows
    ]
    results["seconds"] = time.perf_counter() - started
    print("\n## Targets\n\n" + table(["target", "measured", "holds"], rows), flush=True)
    print(f"\n_(total: {results['seconds']:.0f} s)_")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(results, out, indent=2, default=repr)
        print(f"\nJSON written to {args.json}")
    return 0


_SEPARATE_COMMANDS = """
## 4. Measured by their own commands (each runs fresh processes or servers)

- `python -m benchmarks.openapi_bench`: converting Stripe's OpenAPI document, beside FastMCP.
- `python -m benchmarks.openapi_corpus`: every corpus document's operations, functions, errors.
- `python -m benchmarks.openapi_corpus_bench`: each corpus document and 1,000/5,000-operation ones, beside @samchon/openapi 6 under node.
- `python -m benchmarks.mcp_bench`: MCP tools/call round trips over stdio, beside the SDK's server.
- `python -m benchmarks.cold_start`: the first `application(cls)` of a fresh process.
- `python -m benchmarks.validator_differential`: verdicts and issues against commit 1d22dbe."""


if __name__ == "__main__":
    sys.exit(main())
