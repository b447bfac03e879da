"""Cold start: ``application(cls)`` in a fresh process, from bytecode, after the user's imports.

``python -m benchmarks.cold_start [--runs N] [--methods N] [--importtime] [--against TREE]``

Each run is a fresh process (``build.py``'s llmapp child): the user's own imports
(``typing``, ``dataclasses``, ``enum``, ``datetime``, ``annotated_types``) and
``import llmapp`` (the package alone, which loads nothing of the pipeline) happen
first, the generated class (``generated.py``: methods x 9 parameters with enums,
optional lists, dataclasses, datetimes and constraints) is loaded, and only then is the
clock started, before ``llmapp.application`` is read: what it measures is what a
program pays from ``from llmapp import application`` to its first built application,
the pipeline's own imports and the build itself.
The median of the runs is reported, with the warm figure of the same process (a
second build on fresh copies of the class) and the first ``validate`` of each
function, which must not grow: work moved to the first call is no saving.

``--importtime`` also prints the llmapp modules that the build imports, by their own
import time under ``-X importtime`` (slowest first). ``--against TREE`` measures the
llmapp of another source tree (``TREE/src/llmapp``, e.g. a ``git worktree`` of an
older commit) in the same rounds, alternating with this one, so that a change in the
machine's load lands on both alike.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from benchmarks import build, generated
from benchmarks.__main__ import _compile_llmapp
from benchmarks._timing import ROOT

__all__ = ["main", "measure"]

_USER_IMPORTS = "import typing, dataclasses, enum, datetime, annotated_types"
_MARK = "-- build starts --"
_IMPORTTIME = f"""
{_USER_IMPORTS}
import sys
import llmapp
from benchmarks import generated
module = generated.load({{count}})
print({_MARK!r}, file=sys.stderr, flush=True)
app = llmapp.application(module.Service)
"""


def measure(runs: int, count: int, against: Path | None = None) -> dict[str, dict[str, Any]]:
    """Median ms/method of ``runs`` fresh processes per tree: cold and warm schemas, and the
    cold first validate; keys ``this`` and, with ``against``, ``against``."""
    _compile_llmapp()
    trees: dict[str, str | None] = {"this": None}
    if against is not None:
        other = against.resolve() / "src"
        compileall.compile_dir(other / "llmapp", quiet=1, force=True)
        trees["against"] = str(other)
    found: dict[str, list[dict[str, Any]]] = {name: [] for name in trees}
    for _ in range(runs):
        for name, source in trees.items():
            found[name].append(_child(count, source))
    return {name: _summary(runs, count, found[name]) for name in trees}


def _child(count: int, source: str | None) -> dict[str, Any]:
    """One fresh process; ``source`` (a ``src`` directory) comes first on the path if given."""
    saved = os.environ.get("PYTHONPATH")
    if source is not None:
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [source, saved]))
    try:
        return build.child_run("llmapp", count, 1)
    finally:
        if saved is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = saved


def _summary(runs: int, count: int, found: list[dict[str, Any]]) -> dict[str, Any]:
    def median_ms(when: str, phase: str) -> float:
        return float(statistics.median(run[when][phase] for run in found)) * 1000 / count

    return {
        "runs": runs,
        "methods": count,
        "cold_ms_per_method": median_ms("cold", "schemas"),
        "warm_ms_per_method": median_ms("warm", "schemas"),
        "cold_first_validate_ms_per_method": median_ms("cold", "first_validate"),
    }


def import_times(count: int) -> list[tuple[int, str]]:
    """(self µs, module) of each module the cold build imports (llmapp's, docstring-parser's),
    slowest first, from the lookup of ``llmapp.application`` on, as ``measure`` times it."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    generated.prepare(count)
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", _IMPORTTIME.format(count=count)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=True,
    )
    rows = []
    for line in proc.stderr.partition(_MARK)[2].splitlines():
        parts = line.removeprefix("import time:").split("|")
        if len(parts) == 3 and parts[2].strip().startswith(("llmapp", "docstring_parser")):
            rows.append((int(parts[0]), parts[2].strip()))
    return sorted(rows, reverse=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="fresh processes (default 15)")
    parser.add_argument("--methods", type=int, default=100, help="methods in the class")
    parser.add_argument("--importtime", action="store_true", help="list the modules imported")
    parser.add_argument("--against", type=Path, help="another source tree, measured alternately")
    args = parser.parse_args(argv)
    for name, result in measure(args.runs, args.methods, args.against).items():
        label = "this tree" if name == "this" else str(args.against)
        print(
            f"{label}: {result['methods']} methods, median of {result['runs']} fresh processes: "
            f"cold {result['cold_ms_per_method']:.3f} ms/method, "
            f"warm {result['warm_ms_per_method']:.3f} ms/method, "
            f"first validate (cold) {result['cold_first_validate_ms_per_method']:.3f} ms/method"
        )
    if args.importtime:
        rows = import_times(args.methods)
        print(f"llmapp modules imported by the build: {sum(us for us, _ in rows) / 1000:.1f} ms")
        for micros, name in rows[:15]:
            print(f"  {micros / 1000:6.2f} ms  {name}")


if __name__ == "__main__":
    main()
