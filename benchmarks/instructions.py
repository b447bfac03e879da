"""``python -m benchmarks.instructions [--against TREE] [--methods N]``: the build's work in
CPU instructions, counted by valgrind's callgrind, so that two trees compare exactly.

Timings on a shared 2-core machine move by ±10% from run to run, more than most changes
to the build; an instruction count does not move (the same program, inputs and
environment give the same count) and, for this CPU-bound work, time follows it closely
(about 0.135 ns an instruction here). Each figure is the difference between two runs of
one fresh process that differ only in the step measured:

- **cold build**: the first ``application(cls)`` of the process from the lookup of
  ``llmapp.application`` on (``import llmapp``, the package alone, comes before), what
  ``cold_start`` times; it is the sum of the next three:
- **imports and first runs**: what the first build imports (llmapp's pipeline, most of it
  when ``llmapp.application`` is read, and docstring-parser) and runs once only (the cold
  build, less the next two); the pipeline's import alone is shown beside it;
- **docstrings**: parsing the class's docstrings, once the pipeline is loaded (a
  one-method class built first);
- **build proper**: the rest (introspection, schemas, plans), docstrings parsed;
- **warm build**: the same build on new classes from the same code (docstrings cached);
- **first validates**: each function's first ``validate`` (its validator compiled);
- **toolset build**: ``agents_bench``'s kind of build, one a figure: a variant of the class
  whose named types and their docstrings are new (``generated.load(count, variant)``) built
  as an Agents SDK toolset (``application(cls)`` and ``llmapp.agents.openai_agents.tools``),
  after a first such build and with the heap collected and frozen; half of two builds.

Needs ``valgrind`` on the PATH; takes about a minute per tree (runs in parallel
with ``--against``). Not part of ``python -m benchmarks``.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks import generated
from benchmarks.__main__ import _compile_llmapp
from benchmarks._report import table
from benchmarks._timing import ROOT

__all__ = ["main", "measure"]

# One child program; each figure compares two runs that differ by one step.
_CHILD = """
import sys
import typing, dataclasses, enum, datetime, annotated_types
import llmapp  # the package alone; reading llmapp.application loads the pipeline
from benchmarks import generated
count, steps = int(sys.argv[1]), set(sys.argv[2].split(","))
module = generated.load(count)
second = generated.load(count) if "second" in steps else None  # new classes, same code
if "lookup" in steps:
    llmapp.application
if "prime" in steps:  # a one-method class: the pipeline and docstring-parser imported
    class Tiny:
        def ping(self, times: int) -> int:
            \"\"\"Ping.

            Args:
                times: how often.
            \"\"\"
            return times
    llmapp.application(Tiny)
if "docstrings" in steps:  # what the build reads: each method's, each named type's
    from llmapp.introspect._docstrings import parse_docstring
    for name in generated.method_names(count):
        parse_docstring(getattr(module.Service, name).__doc__)
    for value in vars(module).values():
        if isinstance(value, type) and value.__module__ == module.__name__:
            parse_docstring(value.__dict__.get("__doc__"))
if "build" in steps:
    app = llmapp.application(module.Service)
if "warm" in steps:  # nothing is cached by class; the docstrings are
    llmapp.application(second.Service)
if "validate" in steps:
    for function in app.functions:
        function.validate(generated.VALID_ARGUMENTS)
if "variants" in steps:  # agents_bench's build: new named types, the heap frozen
    import gc
    from llmapp.agents.openai_agents import tools
    fresh = [generated.load(count, variant).Service for variant in (1, 2, 3)]
    tools(llmapp.application(fresh[0]), fresh[0]())
    gc.collect()
    gc.freeze()
    if "toolsets" in steps:
        for cls in fresh[1:]:
            tools(llmapp.application(cls), cls())
"""

# (figure, the run's steps, the run it is compared with); "imports and first runs" is
# the cold build less its docstrings and the build proper.
_FIGURES = (
    ("cold build", "build", ""),
    ("pipeline import", "lookup", ""),
    ("docstrings", "prime,docstrings", "prime"),
    ("build proper", "prime,docstrings,build", "prime,docstrings"),
    ("warm build", "second,build,warm", "second,build"),
    ("first validates", "build,validate", "build"),
    ("toolset build", "variants,toolsets", "variants"),
)
_HALVED = frozenset({"toolset build"})
"""Figures whose runs differ by two builds."""
_DERIVED = "imports and first runs"
_COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def collected(stderr: str) -> int:
    """The instructions a callgrind run counted, read from what it printed."""
    found = _COLLECTED.search(stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count:\n{stderr[-2000:]}")
    return int(found.group(1))


def trees_counted(against: Path | None) -> dict[str, str | None] | None:
    """The trees a counting command compares (name -> its ``src``; None: this one), or
    None, said, where valgrind is not installed."""
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing to count")
        return None
    trees: dict[str, str | None] = {"this tree": None}
    if against is not None:
        trees[str(against)] = str(against.resolve() / "src")
    return trees


def _instructions(source: str | None, count: int, steps: str) -> int:
    env = dict(os.environ)
    paths = [source, str(ROOT), env.get("PYTHONPATH")]
    env["PYTHONPATH"] = os.pathsep.join(path for path in paths if path)
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    command += [sys.executable, "-c", _CHILD, str(count), steps]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, check=True)
    return collected(done.stderr)


def measure(count: int, source: str | None = None) -> dict[str, int]:
    """Instructions of each figure for one tree (``source``: its ``src`` directory)."""
    generated.prepare(count)
    # Bytecode first: a run that compiled a changed module would count the compiler.
    if source is None:
        _compile_llmapp()
    else:
        compileall.compile_dir(Path(source) / "llmapp", quiet=1, force=True)
    runs = sorted({steps for _, a, b in _FIGURES for steps in (a, b)})
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        totals = pool.map(lambda steps: _instructions(source, count, steps), runs)
        counted = dict(zip(runs, totals, strict=True))
    found = {figure: counted[steps] - counted[base] for figure, steps, base in _FIGURES}
    for figure in _HALVED:
        found[figure] //= 2
    found[_DERIVED] = found["cold build"] - found["docstrings"] - found["build proper"]
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.instructions")
    parser.add_argument("--methods", type=int, default=100, help="methods in the class (100)")
    parser.add_argument("--against", type=Path, help="another source tree (its src/ is used)")
    args = parser.parse_args(argv)
    trees = trees_counted(args.against)
    if trees is None:
        return 1
    found = {name: measure(args.methods, source) for name, source in trees.items()}
    figures = [
        "cold build",
        _DERIVED,
        "pipeline import",
        "docstrings",
        "build proper",
        "warm build",
        "first validates",
        "toolset build",
    ]
    labels = {
        _DERIVED: "- imports and first runs",
        "pipeline import": "  - of which reading llmapp.application",
        "docstrings": "- docstrings",
        "build proper": "- build proper",
    }
    rows = [
        [labels.get(figure, figure), *(f"{found[name][figure] / 1e6:,.1f}" for name in trees)]
        for figure in figures
    ]
    print(f"Millions of instructions, {args.methods} methods x 9 parameters (callgrind):")
    print(table(["figure", *trees], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
