"""``python -m benchmarks.search_bench [--quick] [--corpora PATH]``: tool search, measured.

1. Retrieval on function-calling data others wrote: every function of the BFCL question
   files (``shared/corpora/bfcl``) pooled as one application (an MCP tool list, one
   function per distinct name); for each question with an answer, is a function it
   expects in the top 1 / 3 / 5 / 10? Side by side on the same pool and questions:
   llmapp's ``SearchIndex`` (BM25F), the same BM25 without fields (every text of a
   function in one bag, llmapp's tokeniser), FastMCP's BM25 search transform (its own
   index and searchable text, ``fastmcp.server.transforms.search.bm25``), and plain
   substring matching (a function scores the words of the question found in its name
   and description). Target: recall@5 >= 0.9 and ahead of FastMCP.
2. Index build time and memory (``tracemalloc``'s peak while building) for the Stripe
   application (353 functions) and for 5,000 and 20,000 functions (Stripe's functions
   repeated under new names, each copy's text varied by a word so terms spread); query
   time at each size (eight Stripe-like questions, k = 5). Times are the thread's CPU
   time, so other processes on a shared machine do not count. Target: a query under
   1 ms at 5,000 functions.
3. Request size with and without search for the Stripe application: the characters of
   the tools of one request (OpenAI chat entries as JSON) / 4, every function against
   ``search_tools`` alone and ``search_tools`` plus the 5 functions a search loaded.

Corpora: ``--corpora`` or ``LLMAPP_CORPORA``, else ``../shared/corpora`` beside the
repository; a part whose corpus is absent prints why and is skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from benchmarks._report import table
from benchmarks._timing import ROOT

KS = (1, 3, 5, 10)


def corpora(given: str | None) -> Path:
    chosen = given or os.environ.get("LLMAPP_CORPORA")
    return Path(chosen) if chosen else ROOT.parent / "shared" / "corpora"


def _lines(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.strip()]


def bfcl_pool(root: Path) -> tuple[Any, list[tuple[str, set[str]]]]:
    """The pooled application and, per answered question, (question text, expected names)."""
    from tests.support.corpora.bfcl import CATEGORIES, llm_name, to_parameters

    from llmapp import mcp

    tools: dict[str, dict[str, Any]] = {}
    texts: dict[str, str] = {}
    for category in CATEGORIES:
        for line in _lines(root / "question" / f"BFCL_v4_{category}.json"):
            turns = line["question"]
            texts[line["id"]] = " ".join(
                message["content"]
                for turn in turns
                for message in turn
                if message.get("role") == "user"
            )
            for source in line["function"]:
                name = llm_name(source["name"])
                tools.setdefault(
                    name,
                    {
                        "name": name,
                        "description": source.get("description", ""),
                        "inputSchema": to_parameters(source["parameters"]),
                    },
                )
    app = mcp.application(list(tools.values()))
    questions = []
    for category in CATEGORIES:
        path = root / "possible_answer" / f"BFCL_v4_{category}.json"
        if not path.exists():
            continue
        for line in _lines(path):
            expected = {llm_name(name) for call in line["ground_truth"] for name in call}
            questions.append((texts[line["id"]], expected))
    return app, questions


Ranker = Callable[[str, int], list[str]]


def llmapp_ranker(app: Any) -> Ranker:
    from llmapp.search import SearchIndex

    index: SearchIndex[Any] = SearchIndex(app)
    return lambda query, k: [function.name for function in index.search(query, k)]


def flat_ranker(app: Any) -> Ranker:
    """BM25 over one bag of every text of a function (no fields), llmapp's tokeniser."""
    from llmapp.search import SearchIndex

    weights = {"name": 1.0, "tags": 1.0, "description": 1.0, "parameters": 1.0, "details": 1.0}
    index: SearchIndex[Any] = SearchIndex(app, weights=weights)
    return lambda query, k: [function.name for function in index.search(query, k)]


def fastmcp_ranker(app: Any) -> Ranker:
    from fastmcp.server.transforms.search.base import _extract_searchable_text
    from fastmcp.server.transforms.search.bm25 import _BM25Index

    tools = [
        SimpleNamespace(name=f.name, description=f.description, parameters=f.parameters)
        for f in app.functions
    ]
    index = _BM25Index()
    index.build([_extract_searchable_text(tool) for tool in tools])  # type: ignore[arg-type]
    return lambda query, k: [tools[i].name for i in index.query(query, k)]


_WORD = re.compile(r"\w{3,}")


def substring_ranker(app: Any) -> Ranker:
    """A function scores the question's words (3+ letters) found in its name or description."""
    haystacks = [
        (f.name, f"{f.name} {f.name.replace('_', ' ')} {f.description or ''}".lower())
        for f in app.functions
    ]

    def rank(query: str, k: int) -> list[str]:
        words = set(_WORD.findall(query.lower()))
        scored = [
            (sum(w in text for w in words), -i, name) for i, (name, text) in enumerate(haystacks)
        ]
        scored.sort(reverse=True)
        return [name for score, _, name in scored[:k] if score > 0]

    return rank


def recall(rank: Ranker, questions: Sequence[tuple[str, set[str]]]) -> tuple[list[float], float]:
    hits = dict.fromkeys(KS, 0)
    times = []
    for text, expected in questions:
        started = time.thread_time_ns()
        found = rank(text, max(KS))
        times.append((time.thread_time_ns() - started) / 1e9)
        for k in KS:
            hits[k] += bool(expected & set(found[:k]))
    return [hits[k] / len(questions) for k in KS], statistics.median(times) * 1e3


def retrieval(root: Path) -> None:
    app, questions = bfcl_pool(root / "bfcl")
    print(
        f"\n## Retrieval: BFCL pool, {len(app.functions)} functions "
        f"({len(app.errors)} refused), {len(questions)} questions\n"
    )
    rankers: dict[str, Callable[[Any], Ranker]] = {
        "llmapp SearchIndex (BM25F)": llmapp_ranker,
        "llmapp, one field (plain BM25)": flat_ranker,
        "FastMCP BM25SearchTransform": fastmcp_ranker,
        "substring matching": substring_ranker,
    }
    rows = []
    for label, make in rankers.items():
        try:
            rank = make(app)
        except ImportError as error:
            rows.append([label, *["n/a"] * (len(KS) + 1), f"not installed: {error.name}"])
            continue
        values, median = recall(rank, questions)
        rows.append([label, *(f"{value:.3f}" for value in values), f"{median:.3f}"])
    print(table(["ranker", *(f"recall@{k}" for k in KS), "query ms (median, CPU)"], rows))


def scaled(functions: Sequence[Any], size: int) -> list[Any]:
    """``size`` functions: copies of ``functions`` under new names, each copy's text varied."""
    made = []
    for number in range(size):
        base = functions[number % len(functions)]
        copy = number // len(functions)
        made.append(
            SimpleNamespace(
                name=f"{base.name}_{copy}" if copy else base.name,
                description=f"{base.description or ''} variant{copy}",
                parameters=base.parameters,
                separated=None,
                tags=list(base.tags),
                title=None,
            )
        )
    return made


def build_and_query(root: Path, quick: bool) -> None:
    from llmapp.http import application
    from llmapp.search import SearchIndex

    stripe_path = root / "openapi" / "real-apis" / "stripe" / "spec3.json"
    if not stripe_path.exists():
        print(f"\n(skipped: the Stripe document is not at {stripe_path})")
        return
    stripe = application(stripe_path)
    queries = [
        "refund a charge",
        "list the customer's invoices",
        "cancel a subscription at period end",
        "create a payment intent for 20 euros",
        "update the billing address of a customer",
        "retrieve a payout",
        "delete a webhook endpoint",
        "search charges by metadata",
    ]
    sizes = [("Stripe", stripe.functions), ("5,000", None), ("20,000", None)]
    rows = []
    for label, given in sizes:
        functions = (
            given if given is not None else scaled(stripe.functions, int(label.replace(",", "")))
        )
        tracemalloc.start()
        index: SearchIndex[Any] = SearchIndex(functions)
        kept, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        # timed again without tracemalloc (which slows allocation), in CPU time: the
        # machine may be shared, and a query's wall time then counts other processes
        started = time.thread_time()
        index = SearchIndex(functions)
        built = time.thread_time() - started
        times = []
        for _ in range(3 if quick else 20):
            for query in queries:
                began = time.thread_time_ns()
                index.search(query, 5)
                times.append((time.thread_time_ns() - began) / 1e9)
        rows.append(
            [
                f"{label} ({len(functions):,})",
                f"{built * 1e3:.1f}",
                f"{kept / 1e6:.1f}",
                f"{peak / 1e6:.1f}",
                f"{statistics.median(times) * 1e3:.3f}",
                f"{max(times) * 1e3:.3f}",
            ]
        )
    print("\n## Index build and query (CPU time)\n")
    headers = ["functions", "build ms", "kept MB", "build peak MB", "query ms (median)"]
    print(table([*headers, "query ms (max)"], rows))
    request_size(stripe)


def request_size(stripe: Any) -> None:
    from llmapp.search import ToolSearch
    from llmapp.vendors import openai

    def tokens(entries: Any) -> int:
        return len(json.dumps(entries, ensure_ascii=False)) // 4

    searching = ToolSearch(stripe, k=5)
    alone = tokens(openai.tools(searching))
    searching.execute(None, searching.search_name, {"query": "refund a charge"})
    loaded = tokens(openai.tools(searching))
    every = tokens(openai.tools(stripe))
    print("\n## Request size, Stripe (OpenAI chat tools, characters / 4)\n")
    print(
        table(
            ["tools sent", "tokens"],
            [
                [f"every function ({len(stripe.functions)})", f"{every:,}"],
                ["search_tools alone", f"{alone:,}"],
                [f"search_tools + {len(searching.loaded)} found", f"{loaded:,}"],
            ],
        )
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--corpora", help="the shared corpora folder")
    options = parser.parse_args(argv)
    root = corpora(options.corpora)
    if (root / "bfcl").is_dir():
        retrieval(root)
    else:
        print(f"(skipped retrieval: BFCL is not at {root / 'bfcl'})")
    build_and_query(root, options.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
