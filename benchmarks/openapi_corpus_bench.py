"""``python -m benchmarks.openapi_corpus_bench``: each corpus document converted by llmapp
and by @samchon/openapi 6 under node, side by side in one run.

```bash
python -m benchmarks.openapi_corpus_bench --install   # once: npm install into benchmarks/.node
python -m benchmarks.openapi_corpus_bench             # median of 5 fresh processes a side
python -m benchmarks.openapi_corpus_bench --only samchon-openapi   # its own test examples
python -m benchmarks.openapi_corpus_bench --runs 3 --only real-apis --sizes 1000,5000
```

Every figure is a fresh process (nothing cached between runs), the median of ``--runs``:

- llmapp: ``llmapp.http.application(path)`` (reading the file included), once the
  modules the conversion uses are imported (a two-operation document is converted
  first, as a server's first request would have done);
- @samchon/openapi: ``HttpLlm.application({document: OpenApi.convert(raw)})`` with its
  defaults, ``raw`` read by ``JSON.parse`` or js-yaml (``benchmarks/openapi_samchon.js``),
  once the package is required. A document whose first node run takes over ``--budget``
  seconds is not run again (Stripe takes minutes).

Ratios are llmapp ÷ node: below 1.00x llmapp is faster. A node row reads ``n/a`` with
the reason when node or the package is absent. The generated documents (``--sizes``)
have one component schema per four operations, each reaching at most three others, so
their size and the functions' schemas grow in proportion to the operations: the
ms/operation of the largest ÷ the smallest shows whether the build is linear.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks._report import NA, fmt, fmt_ratio, table
from benchmarks._timing import ROOT
from benchmarks.openapi_corpus import CORPORA
from benchmarks.openapi_corpus import documents as corpus_documents

NODE_FOLDER = ROOT / "benchmarks" / ".node"
NODE_SCRIPT = ROOT / "benchmarks" / "openapi_samchon.js"
PACKAGES = ("@samchon/openapi@6", "js-yaml@4")

WARM: dict[str, Any] = {
    "openapi": "3.0.0",
    "info": {"title": "warm", "version": "1"},
    "paths": {
        "/warm/{id}": {
            "post": {
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "q", "in": "query", "schema": {"type": "integer", "format": "int32"}},
                ],
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {
                                "type": "object",
                                "properties": {"x": {"type": "string", "pattern": "^a"}},
                            }
                        }
                    }
                },
                "responses": {"200": {"description": "ok"}},
            }
        },
        "/upload": {
            "post": {
                "requestBody": {
                    "content": {
                        "multipart/form-data": {
                            "schema": {
                                "type": "object",
                                "properties": {"file": {"type": "string", "format": "binary"}},
                            }
                        }
                    }
                },
                "responses": {"200": {"description": "ok"}},
            }
        },
    },
}
"""A two-operation document converted before the timed one (as YAML text, with a file
part a human sends): the lazily imported modules, as node's figures start once the
package and js-yaml are required."""


def generated(operations: int) -> dict[str, Any]:
    """An OpenAPI 3.0 document of ``operations`` operations over ``operations // 4`` components.

    Each component has scalars with constraints, an enum, an array, a nullable field and a
    ``$ref`` to the next component of its group of four, so a function reaches at most
    four definitions; operations alternate a list with path and query parameters, a
    create with a JSON body, and an update with both.
    """
    components = max(operations // 4, 1)
    schemas: dict[str, Any] = {}
    for index in range(components):
        properties: dict[str, Any] = {
            "id": {"type": "integer", "format": "int64", "minimum": 1},
            "name": {"type": "string", "maxLength": 80, "description": f"Name of item {index}."},
            "code": {"type": "string", "pattern": "^[A-Z]{3}-\\d+$"},
            "status": {"type": "string", "enum": ["new", "open", "closed"]},
            "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 20},
            "note": {"type": "string", "nullable": True},
            "created": {"type": "string", "format": "date-time"},
        }
        if (index + 1) % 4 and index + 1 < components:
            properties["child"] = {"$ref": f"#/components/schemas/Item{index + 1}"}
        schemas[f"Item{index}"] = {
            "type": "object",
            "description": f"An item of kind {index}.",
            "properties": properties,
            "required": ["id", "name"],
        }
    paths: dict[str, Any] = {}
    for index in range(operations):
        item = f"#/components/schemas/Item{index % components}"
        body = {"required": True, "content": {"application/json": {"schema": {"$ref": item}}}}
        ok = {
            "200": {
                "description": "ok",
                "content": {"application/json": {"schema": {"$ref": item}}},
            }
        }
        identifier = {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
        query = [
            {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 100}},
            {"name": "cursor", "in": "query", "schema": {"type": "string"}},
        ]
        kind = index % 3
        group = f"/group{index // 3}/things"
        if kind == 0:
            operation = {"summary": f"List things {index}.", "parameters": query, "responses": ok}
            paths.setdefault(group, {})["get"] = operation
        elif kind == 1:
            operation = {"summary": f"Create thing {index}.", "requestBody": body, "responses": ok}
            paths.setdefault(group, {})["post"] = operation
        else:
            operation = {
                "summary": f"Update thing {index}.",
                "parameters": [identifier],
                "requestBody": body,
                "responses": ok,
            }
            paths.setdefault(f"{group}/{{id}}", {})["put"] = operation
    return {
        "openapi": "3.0.3",
        "info": {"title": f"generated {operations}", "version": "1"},
        "paths": paths,
        "components": {"schemas": schemas},
    }


def llmapp_child(path: str) -> dict[str, float]:
    started = time.perf_counter()
    from llmapp.http import application

    application(json.dumps(WARM).replace('"', "'"))  # YAML flow text: the YAML reader too
    imported = time.perf_counter()
    if path == "-":
        return {"import": (imported - started) * 1000}
    app = application(Path(path))
    done = time.perf_counter()
    return {
        "import": (imported - started) * 1000,
        "build": (done - imported) * 1000,
        "functions": len(app.functions),
        "errors": len(app.errors),
    }


def _environment(tree: Path) -> dict[str, str]:
    """The children's environment: ``tree``'s ``src`` first (this benchmark from this
    tree); bytecode cached, as an installed package has it."""
    environment = dict(os.environ)
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(tree / "src"), str(ROOT), *filter(None, [environment.get("PYTHONPATH")])]
    )
    return environment


def _once(command: list[str], timeout: float, tree: Path = ROOT) -> dict[str, float] | str:
    """One fresh process's figures, or why it gave none."""
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, cwd=ROOT, timeout=timeout,
            env=_environment(tree),
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        return f"over {timeout:.0f} s"
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or ["failed"]
        error = next((line for line in lines if "Error" in line), lines[-1])
        return error.strip()[:80]
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def _median(
    command: list[str], runs: int, budget: float, timeout: float, tree: Path = ROOT
) -> dict[str, Any] | str:
    found: list[dict[str, float]] = []
    for _ in range(runs):
        started = time.perf_counter()
        one = _once(command, timeout, tree)
        if isinstance(one, str):
            return one
        found.append(one)
        if time.perf_counter() - started > budget:
            break
    return {key: statistics.median(f[key] for f in found) for key in found[0]} | {
        "runs": len(found)
    }


def node_missing() -> str | None:
    """Why the node rows cannot run, or None."""
    if shutil.which("node") is None:
        return "node is not installed"
    if not (NODE_FOLDER / "node_modules" / "@samchon" / "openapi").is_dir():
        return "@samchon/openapi is not installed (run with --install)"
    return None


def install() -> int:
    if shutil.which("npm") is None:
        print("npm is not installed", file=sys.stderr)
        return 1
    NODE_FOLDER.mkdir(parents=True, exist_ok=True)
    manifest = NODE_FOLDER / "package.json"
    if not manifest.exists():
        manifest.write_text('{"private": true}\n', encoding="utf-8")
    command = ["npm", "install", "--no-audit", "--no-fund", *PACKAGES]
    return subprocess.run(command, cwd=NODE_FOLDER).returncode


def documents(only: str | None) -> list[Path]:
    """The corpus documents (``openapi`` and @samchon/openapi's own test examples) whose
    path holds one of ``only``'s texts (all without it)."""
    wanted = only.split(",") if only else []
    return [
        path
        for path in corpus_documents()
        if not wanted or any(w in path.as_posix() for w in wanted)
    ]


def row_name(path: Path) -> str:
    """A document's row: its path under ``openapi``, else under the corpora."""
    folder = CORPORA / "openapi"
    return path.relative_to(folder if path.is_relative_to(folder) else CORPORA).as_posix()


def measure(path: Path, name: str, options: argparse.Namespace, missing: str | None) -> list[str]:
    """One row: llmapp's and node's medians and the ratio."""
    python = [sys.executable, "-m", "benchmarks.openapi_corpus_bench", "--child", str(path)]
    mine = _median(python, options.runs, options.budget, options.timeout)
    theirs: dict[str, Any] | str = missing or _median(
        ["node", str(NODE_SCRIPT), str(path)], options.runs, options.budget, options.timeout
    )
    before: list[str] = []
    if options.against is not None:
        old = _median(python, options.runs, options.budget, options.timeout, options.against)
        if isinstance(old, str) or isinstance(mine, str):
            before = [NA, NA]
        else:
            before = [fmt(old["build"]), fmt_ratio(mine["build"] / old["build"])]
    if isinstance(mine, str):
        return [name, NA, NA, NA, NA, NA, NA, NA, *before, f"llmapp: {mine}"]
    built = mine["build"]
    counts = f"{int(mine['functions'])} / {int(mine['errors'])}"
    if isinstance(theirs, str):
        imported = fmt(mine["import"], 0)
        return [name, counts, NA, fmt(built), NA, NA, imported, NA, *before, f"node: {theirs}"]
    converted = theirs["read"] + theirs["convert"] + theirs["application"]
    note = (
        "" if theirs["runs"] == options.runs else f"node: {int(theirs['runs'])} run(s), over budget"
    )
    return [
        name,
        counts,
        f"{int(theirs['functions'])} / {int(theirs['errors'])}",
        fmt(built),
        fmt(converted),
        fmt_ratio(built / converted),
        fmt(mine["import"], 0),
        fmt(theirs["import"], 0),
        *before,
        note,
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.openapi_corpus_bench")
    parser.add_argument("--runs", type=int, default=5, help="fresh processes a side (median)")
    parser.add_argument(
        "--only", help="only the documents whose path holds one of these texts (a,b)"
    )
    parser.add_argument("--sizes", default="1000,5000", help="generated documents' operations")
    parser.add_argument("--budget", type=float, default=20.0, help="seconds before no re-run")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds a process may take")
    parser.add_argument("--no-node", action="store_true", help="llmapp alone")
    parser.add_argument("--install", action="store_true", help="npm install the node peer")
    parser.add_argument(
        "--against", type=Path, help="another checkout (its src) for before/after columns"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.child:
        print(json.dumps(llmapp_child(options.child)))
        return 0
    if options.install:
        return install()
    missing = "left out (--no-node)" if options.no_node else node_missing()
    if missing:
        print(f"node rows skipped: {missing}")
    rows = []
    # A discarded run first: bytecode written, files in the page cache.
    _once([sys.executable, "-m", "benchmarks.openapi_corpus_bench", "--child", "-"], 60)
    for path in documents(options.only) if CORPORA.exists() else []:
        rows.append(measure(path, row_name(path), options, missing))
    if not CORPORA.exists():
        print(f"corpora not found at {CORPORA}: generated documents only")
    # ms/operation of the generated documents: which column of a row, by whom
    columns = {"llmapp": 3, "@samchon/openapi": 4}
    if options.against is not None:
        columns[f"llmapp at {options.against.name}"] = 8
    per_operation: dict[str, dict[int, float]] = {who: {} for who in columns}
    with tempfile.TemporaryDirectory() as folder:
        for size in (int(s) for s in options.sizes.split(",") if s):
            path = Path(folder) / f"generated-{size}.json"
            path.write_text(json.dumps(generated(size)), encoding="utf-8")
            row = measure(path, f"generated, {size:,} operations", options, missing)
            rows.append(row)
            for who, column in columns.items():
                if row[column] != NA:
                    per_operation[who][size] = float(row[column].replace(",", "")) / size
    print(f"\nmedian of {options.runs} fresh processes a side; ms")
    headers = ["document", "llmapp functions / errors", "node functions / errors",
               "llmapp build", "node read + convert + application", "llmapp ÷ node",
               "llmapp import", "node require"]  # fmt: skip
    if options.against is not None:
        headers += [f"llmapp build, {options.against.name}", "after ÷ before"]
    headers.append("note")
    print(table(headers, rows))
    print()
    for who, found in per_operation.items():
        if len(found) > 1:
            small, large = min(found), max(found)
            growth = found[large] / found[small]
            print(
                f"{who} ms/operation: {found[small]:.3f} at {small:,}, "
                f"{found[large]:.3f} at {large:,} ({growth:.2f}x)"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
