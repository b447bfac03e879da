"""``python -m benchmarks.validation_instructions [--against TREE] [--calls N] [--rows P,F]``:
the validation rows in CPU instructions per call, counted by valgrind's callgrind.

On a shared 2-core machine a validation row's median moves by ±10% from run to run,
as much as the ratio to pydantic that a target asks about; an instruction count does
not move. For each row the child process builds the same check as
``python -m benchmarks`` (llmapp's ``validator(schema)`` with its issue count, or
pydantic's ``validate_python`` with ``errors()``), calls it twice, then ``N`` times; the
figure is the difference between a run with ``N`` calls and one with none, divided by
``N``. Rows: ``S``, ``M``, ``L`` (pydantic in its default mode) and ``P``, ``F``
(pydantic strict+forbid), valid and invalid. Needs ``valgrind`` on the PATH; not part
of ``python -m benchmarks``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks._report import table
from benchmarks._timing import ROOT
from benchmarks.instructions import collected, trees_counted

__all__ = ["main", "measure"]

_CHILD = """
import sys
label, peer, calls = sys.argv[1], sys.argv[2], int(sys.argv[3])
from benchmarks.payloads import PAYLOADS, format_payloads
from benchmarks.validation import _llmapp_validator, _pydantic, schemas
found, _ = schemas()
payload = next(p for p in [*PAYLOADS, *format_payloads()] if p.label == label)
build = _llmapp_validator if peer == "llmapp" else _pydantic
check = build(payload, found[payload.method])
data = payload.fresh()
check(data)
check(data)
for _ in range(calls):
    check(data)
"""


def _count(source: str | None, label: str, peer: str, calls: int) -> int:
    env = dict(os.environ, PYTHONHASHSEED="0")
    paths = [source, str(ROOT), env.get("PYTHONPATH")]
    env["PYTHONPATH"] = os.pathsep.join(path for path in paths if path)
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    command += [sys.executable, "-c", _CHILD, label, peer, str(calls)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    return collected(done.stderr)


def measure(label: str, peer: str, calls: int, source: str | None = None) -> int:
    """Instructions per call of ``peer`` ("llmapp" or "pydantic") on the row ``label``."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        base, loaded = pool.map(lambda n: _count(source, label, peer, n), (0, calls))
    return (loaded - base) // calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.validation_instructions")
    parser.add_argument("--against", type=Path, help="another source tree (its src/ is used)")
    parser.add_argument("--calls", type=int, default=500, help="calls counted per row (500)")
    parser.add_argument("--rows", default="S,M,L,P,F", help="row sizes (S,M,L,P,F)")
    args = parser.parse_args(argv)
    trees = trees_counted(args.against)
    if trees is None:
        return 1
    labels = [f"{size} {kind}" for size in args.rows.split(",") for kind in ("valid", "invalid")]
    rows = []
    for label in labels:
        peer = measure(label, "pydantic", args.calls)
        ours = [measure(label, "llmapp", args.calls, source) for source in trees.values()]
        rows.append(
            [label, f"{peer / 1e3:,.1f}k"]
            + [f"{count / 1e3:,.1f}k ({count / peer:.2f}x)" for count in ours]
        )
    print(f"Instructions per call (callgrind, {args.calls} calls); ratio to pydantic:")
    print(table(["row", "pydantic", *(f"llmapp, {name}" for name in trees)], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
