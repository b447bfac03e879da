"""``python -m benchmarks.openapi_corpus``: every corpus document as an HTTP application.

Prints one row per document: its version, operations, functions, errors by cause
(``method``: HEAD/OPTIONS/TRACE; ``media type``: no supported request body type;
``reference``: a ``$ref`` the document cannot resolve), and the conversion time.
Reads ``../shared/corpora/openapi`` and ``../shared/corpora/samchon-openapi`` beside the
repository; exits 1 if a document raises.
"""

from __future__ import annotations

import collections
import json
import re
import sys
import time
from pathlib import Path

from benchmarks._report import table
from benchmarks._timing import ROOT
from llmapp.http import application

CORPORA = next(
    (p / "shared" / "corpora" for p in ROOT.parents if (p / "shared" / "corpora").is_dir()),
    ROOT.parent / "shared" / "corpora",
)
"""``shared/corpora`` beside the repository or beside a folder holding it (a worktree)."""


def is_document(path: Path) -> bool:
    """A whole document, not a fragment of a split one (its top level names the version)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return bool({"swagger", "openapi"} & set(json.loads(text)))
    return re.search(r"""^["']?(swagger|openapi)["']?\s*:""", text, re.MULTILINE) is not None


def documents() -> list[Path]:
    """The OpenAPI/Swagger documents of the corpora (fragments of split documents left out)."""
    found = []
    for folder in ("openapi", "samchon-openapi"):
        for path in sorted((CORPORA / folder).rglob("*")):
            mcp_output = "/mcp/" in path.as_posix()
            if path.suffix in (".json", ".yaml") and not mcp_output and is_document(path):
                found.append(path)
    return found


def main() -> int:
    if not CORPORA.exists():
        print(f"corpora not found at {CORPORA}", file=sys.stderr)
        return 1
    rows = []
    totals: collections.Counter[str] = collections.Counter()
    failed = 0
    for path in documents():
        name = path.relative_to(CORPORA).as_posix()
        started = time.perf_counter()
        try:
            app = application(path)
        except Exception as error:  # the table reports it; the exit status says it
            rows.append([name, "", "", "", f"raised {type(error).__name__}: {error}", ""])
            failed += 1
            continue
        elapsed = (time.perf_counter() - started) * 1000
        causes = collections.Counter(error.cause for error in app.errors)
        operations = len(app.functions) + len(app.errors)
        totals.update(operations=operations, functions=len(app.functions), **causes)
        by_cause = ", ".join(f"{cause}: {count}" for cause, count in sorted(causes.items()))
        rows.append(
            [name, str(operations), str(len(app.functions)), by_cause or "-", f"{elapsed:.1f}"]
        )
    rows.append(
        ["**total**", str(totals.pop("operations", 0)), str(totals.pop("functions", 0)),
         ", ".join(f"{c}: {n}" for c, n in sorted(totals.items())) or "-", ""]
    )  # fmt: skip
    print(table(["document", "operations", "functions", "errors by cause", "ms"], rows))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
