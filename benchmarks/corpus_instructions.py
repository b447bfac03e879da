"""``python -m benchmarks.corpus_instructions [--against TREE] [--quick] [--calls N]``: the
corpus rows of ``corpus_bench`` in CPU instructions, counted by valgrind's callgrind, with
every signature's ratio, so the worst ones are named exactly on a busy machine.

``corpus_bench`` times each signature for a fraction of a second; on a shared machine its
worst ratios move with the neighbours' load, and the worst of 300 noisy ratios is
mostly noise. An instruction count does not move. For each signature, payload and step
(``validate``, ``execute``) the child process calls llmapp's side and the peer's (the
same callables ``corpus_bench`` times) a few times to warm, then ``N`` times between two
callgrind client requests (the counters zeroed, then dumped under the call's label),
with the collector off. Instructions are a proxy for time: a C call and a Python step
of the same count do not take the same time, so the timed rows stay the targets' own
figures, and this command says where a change moved them and which signatures are left.

Needs ``valgrind`` (with its headers) and a C compiler, for the two client requests.
Slow: valgrind runs the corpus's build and every call many times slower, so ``--quick``
(every fifth signature) is the everyday form. Not part of ``python -m benchmarks``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks._report import fmt_ratio, table
from benchmarks._timing import ROOT
from benchmarks.corpus_bench import PAYLOADS, STEPS
from benchmarks.instructions import trees_counted

__all__ = ["main", "measure"]

_REQUESTS = """
#include <valgrind/callgrind.h>
void zero(void) { CALLGRIND_ZERO_STATS; }
void dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
"""

_CHILD = """
import ctypes, gc, json, sys
from benchmarks import corpus, corpus_bench
from llmapp import application
requests = ctypes.CDLL(sys.argv[1])
requests.dump.argtypes = [ctypes.c_char_p]
quick, calls = sys.argv[2] == "quick", int(sys.argv[3])
built = corpus.generate()
app, tools = application(built.tools), built.tools()
cases = built.cases[::5] if quick else built.cases

def count(label, call, argument):
    for _ in range(3):
        call(argument)
    gc.collect()
    gc.disable()
    requests.zero()
    for _ in range(calls):
        call(argument)
    requests.dump(label.encode())
    gc.enable()

count("empty", lambda _: None, None)
for case in cases:
    ours = app.require(case.name).validate
    validate, execute = corpus_bench._peer(case)
    for payload in corpus_bench.PAYLOADS:
        text = case.texts[payload]
        data = json.loads(text)
        count(f"{case.name}|{payload}|validate|llmapp", ours, data)
        count(f"{case.name}|{payload}|validate|peer", validate, data)
        call = lambda t, n=case.name: app.execute(tools, n, t)
        count(f"{case.name}|{payload}|execute|llmapp", call, text)
        count(f"{case.name}|{payload}|execute|peer", execute, text)
print(json.dumps({case.name: case.signature for case in cases}))
"""

_TRIGGER = re.compile(r"^desc: Trigger: Client Request: (.*)$", re.MULTILINE)
_SUMMARY = re.compile(r"^summary: (\d+)$", re.MULTILINE)
_WORST_LINE = {"validate": 1.2, "execute, valid": 2.5, "execute": 4.0}
"""Issue 33's worst ratio for each row: the count of signatures above it is reported."""


def _requests(folder: Path) -> Path | None:
    """The two client requests as a shared library, or None where they cannot be built."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not Path("/usr/include/valgrind/callgrind.h").exists():
        return None
    source, library = folder / "requests.c", folder / "requests.so"
    source.write_text(_REQUESTS)
    subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", library, source], check=True)
    return library


def measure(
    library: Path, quick: bool, calls: int, source: str | None = None
) -> tuple[dict[str, float], dict[str, str]]:
    """Instructions per call for every label, and each signature's ``def`` line."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    paths = [source, str(ROOT), env.get("PYTHONPATH")]
    env["PYTHONPATH"] = os.pathsep.join(path for path in paths if path)
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "counts"
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        command += ["--collect-atstart=yes", sys.executable, "-c", _CHILD]
        command += [str(library), "quick" if quick else "all", str(calls)]
        done = subprocess.run(
            command, capture_output=True, text=True, cwd=ROOT, env=env, check=True
        )
        counts: dict[str, float] = {}
        for dump in Path(folder).glob("counts.*"):
            text = dump.read_text()
            label, summary = _TRIGGER.search(text), _SUMMARY.search(text)
            if label and summary:
                counts[label.group(1)] = int(summary.group(1)) / calls
    signatures: dict[str, str] = json.loads(done.stdout.splitlines()[-1])
    empty = counts.pop("empty", 0.0)
    return {label: count - empty for label, count in counts.items()}, signatures


def _ratios(counts: dict[str, float]) -> dict[str, dict[str, float]]:
    """``"step, payload"`` -> signature -> llmapp's count ÷ the peer's."""
    rows: dict[str, dict[str, float]] = {f"{s}, {p}": {} for s in STEPS for p in PAYLOADS}
    for label, ours in counts.items():
        name, payload, step, side = label.split("|")
        if side == "llmapp":
            rows[f"{step}, {payload}"][name] = ours / counts[f"{name}|{payload}|{step}|peer"]
    return rows


def _line(row: str) -> float:
    return _WORST_LINE.get(row, _WORST_LINE[row.split(",")[0]])


def _report(tree: str, ratios: dict[str, dict[str, float]], signatures: dict[str, str]) -> str:
    rows, worst = [], {}
    for row, found in ratios.items():
        mean = math.exp(sum(map(math.log, found.values())) / len(found))
        ranked = sorted(found, key=found.__getitem__, reverse=True)
        above = [name for name in ranked if found[name] > _line(row)]
        worst[ranked[0]] = signatures[ranked[0]]
        rows.append(
            [
                row,
                fmt_ratio(mean),
                f"{fmt_ratio(found[ranked[0]])} `{ranked[0]}`",
                f"{len(above)} above {_line(row)}x",
                ", ".join(f"{name} {found[name]:.2f}" for name in ranked[1:6]),
            ]
        )
    head = ["step, arguments", "geometric mean", "worst", "above the line", "next five"]
    listed = "\n".join(worst.values())
    return f"### {tree}\n\n{table(head, rows)}\n\n```python\n{listed}\n```"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.corpus_instructions")
    parser.add_argument("--against", type=Path, help="another source tree (its src/ is used)")
    parser.add_argument("--quick", action="store_true", help="every fifth signature")
    parser.add_argument("--calls", type=int, default=5, help="calls counted per figure (5)")
    args = parser.parse_args(argv)
    trees = trees_counted(args.against)
    if trees is None:
        return 1
    with tempfile.TemporaryDirectory() as folder:
        library = _requests(Path(folder))
        if library is None:
            print("no C compiler or no valgrind/callgrind.h: the client requests cannot be built")
            return 1
        with ThreadPoolExecutor(max_workers=2) as pool:
            found = list(
                pool.map(lambda src: measure(library, args.quick, args.calls, src), trees.values())
            )
    print(
        "Instructions per call (callgrind), llmapp ÷ the peer of `corpus_bench`, "
        "every signature; the line is issue 33's worst ratio."
    )
    for name, (counts, signatures) in zip(trees, found, strict=True):
        print("\n" + _report(name, _ratios(counts), signatures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
