"""``python -m benchmarks.feedback_instructions [--against TREE] [--quick]``: the corpus's
wrong calls in CPU instructions, counted by valgrind's callgrind, so two trees compare exactly.

Two figures, each the instructions of a counted loop (callgrind collects inside
``functools.reduce`` only, so building the corpus and warming are not counted):

- **feedback**: the ``ValidationFailure`` of every wrong call of the corpus (1 and 3
  mistakes, as ``execute`` answers them), each rendered by ``explain.feedback`` 40 times
  to warm (the interpreter specialises a code object after a few runs, and a
  benchmark's loop runs it thousands of times), then 4 times counted;
- **wrong execute**: ``app.execute`` on each wrong call's text, 2 times to warm, then 4
  times counted (the whole refusal: read, repair, validate, feedback, result).

Figures per call; ``--quick`` takes every fifth signature (120 wrong calls), ``--only NAME``
(repeatable) the signatures named (a worst row of ``corpus_bench``). Needs
``valgrind`` on the PATH; a few minutes a tree. Not part of ``python -m benchmarks``.
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

__all__ = ["main"]

_CHILD = """
import functools, gc, sys
from benchmarks.corpus import generate
from llmapp import application
from llmapp.explain import feedback
figure, quick, only = sys.argv[1], sys.argv[2] == "quick", sys.argv[3:]
built = generate()
app, tools = application(built.tools), built.tools()
cases = [c for n, c in enumerate(built.cases) if not quick or n % 5 == 0]
cases = [c for c in cases if not only or c.name in only]
gc.collect()
gc.freeze()  # a full collection inside a counted loop would count the corpus's objects
count = 0
for case in cases:
    for label in ("1 mistake", "3 mistakes"):
        text = case.texts[label]
        if figure == "feedback":
            failure = app.execute(tools, case.name, text).validation
            for _ in range(40):
                feedback(failure)
            functools.reduce(lambda _, value: feedback(value), [failure] * 4, None)
        else:
            for _ in range(2):
                app.execute(tools, case.name, text)
            step = lambda _, value, name=case.name: app.execute(tools, name, value)
            functools.reduce(step, [text] * 4, None)
        count += 4
print(count)
"""
_FIGURES = ("feedback", "wrong execute")


def _per_call(source: str | None, figure: str, quick: bool, only: list[str]) -> float:
    env = dict(os.environ, PYTHONHASHSEED="0")
    paths = [source, str(ROOT), env.get("PYTHONPATH")]
    env["PYTHONPATH"] = os.pathsep.join(path for path in paths if path)
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    command += ["--toggle-collect=functools_reduce", sys.executable, "-c", _CHILD]
    command += [figure, "quick" if quick else "all", *only]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    return collected(done.stderr) / int(done.stdout.split()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.feedback_instructions")
    parser.add_argument("--against", type=Path, help="another source tree (its src/ is used)")
    parser.add_argument("--quick", action="store_true", help="every fifth signature")
    parser.add_argument(
        "--only", action="append", default=[], metavar="NAME", help="this signature (repeatable)"
    )
    args = parser.parse_args(argv)
    trees = trees_counted(args.against)
    if trees is None:
        return 1
    runs = [(name, figure) for name in trees for figure in _FIGURES]
    with ThreadPoolExecutor(max_workers=len(runs)) as pool:  # one process a run
        counted = pool.map(
            lambda run: _per_call(trees[run[0]], run[1], args.quick, args.only), runs
        )
        found = dict(zip(runs, counted, strict=True))
    rows = [[figure, *(f"{found[name, figure]:,.0f}" for name in trees)] for figure in _FIGURES]
    print(table(["instructions a call", *trees], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
