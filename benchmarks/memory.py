"""Memory benchmark: what compiled validators hold, in fresh processes.

``python -m benchmarks.memory [--against TREE]`` (also ``--only memory`` of ``python -m
benchmarks``). Two measurements, each in a fresh process, the garbage collector run before each reading:

- **distinct validators** (memory traced by ``tracemalloc``, exact: freed memory that the
  allocator keeps would hide nothing and blur everything): 512 distinct schemas compiled
  and each called once with a failing value (so their walkers are compiled too): what
  the validator cache holds when full; then 10,000 more compiled and dropped through the
  cache. The growth after the 10,512 should be no more than what the 512 held: nothing a
  dropped validator made (its source in ``linecache``, say) may stay behind; the
  milliseconds per validator are under ``tracemalloc``. Last, the cache is emptied:
  what is left then is what no validator holds. Both readings are taken alike: tracing
  starts before llmapp is imported and the warm-up's validator leaves the cache before
  the first reading, because CPython's free lists (lists, tuples, dict keys) hand a
  block allocated while nothing traced to the next object of its size, which then
  holds memory no reading counts until it is dropped and replaced (the warm-up's freed
  blocks, reused by the 512, made them look 248 B smaller than every later 512); and
  the readings, the clock and the loops' counters live in arrays made
  before the first reading or in frames gone before each, so no number the benchmark
  keeps is counted in one reading and not in the other.
- **a 1,000-operation OpenAPI document** (``document()``; resident memory, RSS from
  ``/proc/self/statm``): 60 component schemas in a
  chain (each refers to the one before), every operation's body one of them and a
  query parameter of its own, so the 1,000 parameter schemas are distinct and each
  holds a growing ``$ref`` closure; RSS growth over ``application()`` (which checks
  every function's schema, compiling nothing, and converts the document: the growth
  holds that too) and each function's first ``validate`` (which compiles the checkers,
  fails and so compiles the walkers), and the seconds ``application()`` takes.
- **a 1,000-method class** (``benchmarks.generated``: nine parameters a method, an Enum
  and a dataclass of its own each): RSS growth over ``application()`` with every
  function's schemas made, then each function called valid and wrong (its checkers
  and walkers compiled), and the part of it the second step added.

``--against TREE`` runs the same children on another tree's ``src`` (a checkout of an
older commit: ``git worktree add ../old COMMIT``), side by side.
"""

from __future__ import annotations

import argparse
import array
import gc
import json
import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from benchmarks._report import fmt, table
from benchmarks._timing import ROOT, Settings

__all__ = ["document", "run"]

DISTINCT = 10_000
CACHED = 512


def document(operations: int = 1000, components: int = 60) -> dict[str, Any]:
    """An OpenAPI 3.1 document whose operations reach a growing ``$ref`` closure."""
    schemas: dict[str, Any] = {}
    for index in range(components):
        properties: dict[str, Any] = {
            "id": {"type": "integer", "minimum": 1},
            "name": {"type": "string", "maxLength": 80},
            "code": {"type": "string", "pattern": "^[A-Z]{3}-\\d+$"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "status": {"type": "string", "enum": ["new", "open", "closed"]},
        }
        if index:
            properties["parent"] = {"$ref": f"#/components/schemas/S{index - 1}"}
        schemas[f"S{index}"] = {"type": "object", "properties": properties, "required": ["id"]}
    paths = {
        f"/things{index}": {
            "post": {
                "operationId": f"op{index}",
                "parameters": [
                    {
                        "name": "limit",
                        "in": "query",
                        "schema": {"type": "integer", "maximum": index},
                    }
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {
                            "schema": {"$ref": f"#/components/schemas/S{index % components}"}
                        }
                    },
                },
                "responses": {"200": {"description": "ok"}},
            }
        }
        for index in range(operations)
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "memory", "version": "1"},
        "servers": [{"url": "http://127.0.0.1:1"}],
        "paths": paths,
        "components": {"schemas": schemas},
    }


def _rss() -> int:
    gc.collect()
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def _traced() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


def _distinct() -> dict[str, Any]:
    tracemalloc.start()  # before llmapp allocates anything: see the module's docstring
    import linecache

    from llmapp import validator
    from llmapp.validate import _validator

    def compile_one(index: int) -> None:
        schema = {
            "type": "object",
            # Every schema the same size (and no small int CPython caches): the later
            # validators hold no more than the first 512 because of their numbers.
            "properties": {
                "n": {"type": "integer", "maximum": 1_000_000 + index},
                "s": {"type": "string"},
            },
            "required": ["n"],
        }
        validator(schema)({"s": 1})

    def compile_range(first: int, count: int) -> None:
        for index in range(first, first + count):
            compile_one(index)

    compile_one(-1)  # imports and first runs
    _validator._cache.clear()  # the cache holds the measured validators alone
    # Readings and times as machine numbers in arrays made before the first reading.
    traced = array.array("q", [0, 0, 0, 0])  # start, 512 held, after the drops, emptied
    clock = array.array("d", [0.0, 0.0])
    traced[0] = _traced()
    compile_range(0, CACHED)
    traced[1] = _traced()
    clock[0] = time.perf_counter()
    compile_range(CACHED, DISTINCT)
    clock[1] = time.perf_counter()
    traced[2] = _traced()
    entries = sum(1 for name in linecache.cache if "llmapp-validator" in name)
    _validator._cache.clear()  # what stays once no validator is held at all
    traced[3] = _traced()
    return {
        "held_512_mib": (traced[1] - traced[0]) / 2**20,
        "after_mib": (traced[2] - traced[0]) / 2**20,
        "residue_mib": (traced[3] - traced[0]) / 2**20,
        "ms_per_validator": (clock[1] - clock[0]) * 1000 / DISTINCT,
        "linecache_entries": entries,
        "held_512_b": traced[1] - traced[0],
        "after_b": traced[2] - traced[0],
    }


def _document() -> dict[str, Any]:
    from llmapp.http import application

    application(document(operations=2))  # imports and first runs
    spec = document()
    start = _rss()
    began = time.perf_counter()
    app = application(spec)  # checks every function's schema (compiles nothing)
    built = time.perf_counter() - began
    functions = app.functions
    for function in functions:
        function.validate({})  # compiles the checkers, fails: the walkers too
    seconds = time.perf_counter() - began
    grown = _rss() - start
    return {
        "functions": len(functions),
        "mib": grown / 2**20,
        "kib_per_validator": grown / 1024 / len(functions),
        "build_s": built,
        "ms_per_validator": seconds * 1000 / len(functions),
    }


def _class() -> dict[str, Any]:
    """RSS growth over a 1,000-method class's ``application`` (every schema made) and each
    function's first calls, valid then wrong (checkers, then walkers, compiled)."""
    from benchmarks import generated
    from llmapp import application

    warm = application(generated.load(2, variant=7).Service)  # imports and first runs
    for function in warm.functions:
        function.validate({"name": 1})
    service = generated.load(1000).Service
    wrong = dict(generated.VALID_ARGUMENTS, level=0, mode="never")
    start = _rss()
    app = application(service)
    for function in app.functions:
        function.parameters, function.output  # noqa: B018 - made on first use
    built = _rss()
    for function in app.functions:
        function.validate(generated.VALID_ARGUMENTS)
        function.validate(wrong)
    grown = _rss()
    return {
        "functions": len(app.functions),
        "mib": (grown - start) / 2**20,
        "validators_mib": (grown - built) / 2**20,
    }


_CHILDREN = {"distinct": _distinct, "document": _document, "class": _class}


def _child(kind: str, tree: Path) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree / "src"), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.memory", "--child", kind],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
        timeout=1800,
    )
    if done.returncode:
        return {"error": done.stderr.strip().splitlines()[-1:] or ["failed"]}
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def measure(against: Path | None = None) -> dict[str, Any]:
    """Both measurements for this tree (and ``against``), in fresh processes."""
    trees = {"this tree": ROOT} | ({str(against): against} if against else {})
    return {name: {kind: _child(kind, tree) for kind in _CHILDREN} for name, tree in trees.items()}


def report(found: dict[str, Any]) -> str:
    rows = []
    for name, kinds in found.items():
        distinct, doc, cls = kinds["distinct"], kinds["document"], kinds["class"]
        rows.append(
            [
                name,
                fmt(distinct.get("held_512_mib")),
                fmt(distinct.get("after_mib")),
                fmt(distinct.get("residue_mib")),
                str(distinct.get("linecache_entries", "n/a")),
                fmt(distinct.get("ms_per_validator"), 3),
                fmt(doc.get("mib")),
                fmt(doc.get("kib_per_validator")),
                fmt(doc.get("build_s"), 2),
                fmt(doc.get("ms_per_validator"), 3),
                fmt(cls.get("mib")),
                fmt(cls.get("validators_mib")),
            ]
        )
    header = [
        "tree",
        "512 cached: MiB held (traced)",
        f"after {DISTINCT:,} more dropped: MiB (traced)",
        "cache emptied: MiB left",
        "sources in linecache",
        "ms/validator",
        "1,000-op document: MiB (RSS)",
        "KiB/validator",
        "build s",
        "ms/validator (build and walkers)",
        "1,000-method class: MiB (RSS)",
        "of it the validators",
    ]
    return "### 6. Memory (fresh processes)\n\n" + table(header, rows)


def run(settings: Settings) -> tuple[str, dict[str, Any]]:
    found = measure()
    return report(found), found["this tree"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", type=Path, help="another tree to measure beside this one")
    parser.add_argument("--child", choices=tuple(_CHILDREN), help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.child:
        print(json.dumps(_CHILDREN[options.child]()))
        return 0
    print(report(measure(options.against)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
