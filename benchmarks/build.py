"""Build benchmark: time from a class of N methods to every function's schema (and validator).

Cold numbers come from fresh processes (``python -m benchmarks.build --child PEER N``):
the library is imported first (import time is its own table), the generated
module is loaded, and only then is the build timed. For llmapp, only the package is
imported first: ``import llmapp`` loads nothing of the pipeline, and the lookup of
``llmapp.application``, which loads it, is timed with the build (the "lazy imports
included" rows); the "every module imported first" rows show the build alone. Warm
numbers repeat the build in the same process on freshly loaded copies of the class
whose named types are renamed (so no schema repeats and no cache keyed by class or
schema can answer).

Peers get the same bound methods: pydantic ``create_model`` + ``model_json_schema``
(with descriptions from docstring-parser, as a tool library would),
langchain-core ``convert_to_openai_tool``, openai-agents ``function_schema`` and the
MCP SDK's tool registration (``MCPServer.add_tool``; ``FastMCP`` before mcp 2).
"""

from __future__ import annotations

import argparse
import cProfile
import importlib
import inspect
import json
import pstats
import resource
import statistics
import sys
import time
import tracemalloc
import types
from collections.abc import Callable
from typing import Any, get_type_hints

from benchmarks import _llmapp, generated
from benchmarks._report import fmt, fmt_ratio, ratio, table
from benchmarks._timing import Settings, Unavailable, run_child

__all__ = ["BUILDERS", "run"]

Phases = dict[str, float]
"""Phase name -> seconds; every builder reports ``total``."""

_NOTES: dict[str, str] = {}
"""What a builder could not do (reported by the child next to its figures)."""


def _methods(module: types.ModuleType, count: int) -> list[Callable[..., Any]]:
    instance = module.Service()
    return [getattr(instance, name) for name in generated.method_names(count)]


# ---- one builder per peer: prepare() imports the library, build() is what is timed ------


def _llmapp_prepare() -> Callable[[types.ModuleType, int], Phases]:
    import llmapp  # noqa: F401  (the package alone: each part loads when first read)

    def build(module: types.ModuleType, count: int) -> Phases:
        start = time.perf_counter()
        # Timed: reading llmapp.application loads the pipeline, as a program's
        # ``from llmapp import application`` does before its first build.
        application = _llmapp.application()
        app = application(module.Service)
        for function in app.functions:  # in case schemas are computed on first access
            function.parameters, function.output  # noqa: B018
        built = time.perf_counter()
        if len(app.functions) != count:
            raise Unavailable(f"n/a (llmapp built {len(app.functions)} of {count} functions)")
        try:
            for function in app.functions:
                function.validate(generated.VALID_ARGUMENTS)
        except Exception as exc:  # the validator has not landed (or is broken): schemas only
            _NOTES["validators"] = f"validators n/a ({type(exc).__name__}: {exc})"[:200]
            return {"schemas": built - start}
        first = time.perf_counter()
        for function in app.functions:
            function.validate(generated.VALID_ARGUMENTS)
        second = time.perf_counter()
        return {
            "schemas": built - start,
            "first_validate": first - built,
            "second_validate": second - first,
            "total": first - start,
        }

    return build


def _llmapp_preloaded_prepare() -> Callable[[types.ModuleType, int], Phases]:
    """llmapp with every module it may load lazily imported before the clock starts: its
    own, and docstring-parser, which it imports on the first docstring with sections."""
    import pkgutil

    import llmapp

    importlib.import_module("docstring_parser")
    for info in pkgutil.walk_packages(llmapp.__path__, "llmapp."):
        if info.name.endswith("__main__"):
            continue  # runs the command line
        try:
            importlib.import_module(info.name)
        except Exception:  # optional extras (vendors, http, mcp) may be missing
            continue
    return _llmapp_prepare()


def _pydantic_prepare() -> Callable[[types.ModuleType, int], Phases]:
    import docstring_parser
    from pydantic import Field, create_model

    def one(method: Callable[..., Any]) -> dict[str, Any]:
        hints = get_type_hints(method, include_extras=True)
        described = {
            p.arg_name: p.description for p in docstring_parser.parse(method.__doc__ or "").params
        }
        fields: dict[str, Any] = {}
        for name, parameter in inspect.signature(method).parameters.items():
            default = ... if parameter.default is inspect.Parameter.empty else parameter.default
            fields[name] = (hints[name], Field(default, description=described.get(name)))
        model = create_model(method.__name__, **fields)
        return model.model_json_schema()

    return _each(one)


def _langchain_prepare() -> Callable[[types.ModuleType, int], Phases]:
    from langchain_core.utils.function_calling import convert_to_openai_tool

    return _each(convert_to_openai_tool)


def _agents_prepare() -> Callable[[types.ModuleType, int], Phases]:
    from agents.function_schema import function_schema

    return _each(lambda method: function_schema(method).params_json_schema)


def _mcp_prepare() -> Callable[[types.ModuleType, int], Phases]:
    try:
        from mcp.server.mcpserver import MCPServer as Server
    except ImportError:
        from mcp.server.fastmcp import FastMCP as Server

    def build(module: types.ModuleType, count: int) -> Phases:
        methods = _methods(module, count)
        start = time.perf_counter()
        server = Server("bench")
        for method in methods:
            server.add_tool(method)
        return {"total": time.perf_counter() - start}

    return build


def _docstrings_prepare() -> Callable[[types.ModuleType, int], Phases]:
    import docstring_parser

    return _each(lambda method: docstring_parser.parse(method.__doc__ or ""))


def _each(one: Callable[[Callable[..., Any]], Any]) -> Callable[[types.ModuleType, int], Phases]:
    def build(module: types.ModuleType, count: int) -> Phases:
        methods = _methods(module, count)
        start = time.perf_counter()
        for method in methods:
            one(method)
        return {"total": time.perf_counter() - start}

    return build


BUILDERS: dict[str, tuple[str, Callable[[], Callable[[types.ModuleType, int], Phases]]]] = {
    "llmapp": ("llmapp.application (schemas + validators)", _llmapp_prepare),
    "llmapp_preloaded": ("llmapp, every module imported first", _llmapp_preloaded_prepare),
    "pydantic": ("pydantic create_model + model_json_schema", _pydantic_prepare),
    "langchain": ("langchain-core convert_to_openai_tool", _langchain_prepare),
    "agents": ("openai-agents function_schema", _agents_prepare),
    "mcp": ("MCP SDK tool registration", _mcp_prepare),
    "docstrings": ("docstring-parser alone (llmapp's dependency)", _docstrings_prepare),
}


# ---- the child process ------------------------------------------------------------------


def _current_rss_kib() -> int | None:
    """Resident set size now (Linux ``/proc``), or None elsewhere."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return pages * resource.getpagesize() // 1024


def _traced(build: Callable[[types.ModuleType, int], Phases], count: int) -> dict[str, Any]:
    """Peak of Python allocations during one build (tracemalloc; slower, so not timed)."""
    module = generated.load(count)
    tracemalloc.start()
    build(module, count)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return {"traced_peak_kib": peak // 1024}


def _child(peer: str, count: int, warm: int, profile: bool, memory: bool) -> dict[str, Any]:
    try:
        build = BUILDERS[peer][1]()
    except (Unavailable, ImportError) as exc:
        return {"unavailable": str(exc)}
    if memory:
        return _traced(build, count)
    module = generated.load(count)
    rss_loaded = _current_rss_kib()
    if profile:
        profiler = cProfile.Profile()
        profiler.runcall(build, module, count)
        stats = pstats.Stats(profiler, stream=sys.stderr)
        stats.sort_stats("tottime").print_stats(25)
        stats.sort_stats("cumulative").print_stats(40)
        return {}
    try:
        cold = build(module, count)
    except Unavailable as exc:
        return {"unavailable": str(exc)}
    rss_built = _current_rss_kib()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    warm_runs = [build(generated.load(count, variant), count) for variant in range(1, warm + 1)]
    return {
        "notes": dict(_NOTES),
        "cold": cold,
        "warm": {key: statistics.median(run[key] for run in warm_runs) for key in cold}
        if warm_runs
        else None,
        "rss_kib": {
            "peak": peak,
            "build_growth": None
            if rss_built is None or rss_loaded is None
            else rss_built - rss_loaded,
        },
    }


def child_run(peer: str, count: int, warm: int, *, memory: bool = False) -> dict[str, Any]:
    """Run one builder in a fresh process (raises Unavailable when it cannot run)."""
    generated.prepare(count)  # compile once here, not in every child
    extra = ["--memory"] if memory else []
    return run_child("build", "--child", peer, str(count), str(warm), *extra)


# ---- the table --------------------------------------------------------------------------


def _measure_all(count: int, settings: Settings) -> dict[str, Any]:
    """Every builder in fresh processes; the cold runs go round-robin over the peers so
    a change in the machine's load lands on all of them alike."""
    warm = 2 if settings.quick else 5
    runs: dict[str, list[dict[str, Any]]] = {peer: [] for peer in BUILDERS}
    results: dict[str, Any] = {}
    for i in range(settings.cold_runs):
        for peer in BUILDERS:
            if peer in results:
                continue  # unavailable
            try:
                runs[peer].append(child_run(peer, count, warm if i == 0 else 0))
            except Unavailable as exc:
                results[peer] = {"unavailable": str(exc)}
    for peer, found in runs.items():
        if peer in results:
            continue
        cold = {
            key: statistics.median(run["cold"][key] for run in found) for key in found[0]["cold"]
        }
        results[peer] = {
            "cold": cold,
            "warm": found[0]["warm"],
            "rss_kib": found[0]["rss_kib"],
            "notes": found[0].get("notes", {}),
        }
    return results


def _per_method_ms(seconds: float | None, count: int) -> float | None:
    return None if seconds is None else seconds * 1000 / count


def run(settings: Settings, count: int = 100) -> tuple[str, dict[str, Any]]:
    """Build the generated class with every peer; returns (markdown, JSON-ready results)."""
    results = _measure_all(count, settings)
    llmapp_cold = results["llmapp"].get("cold", {})
    rows = []
    for peer, (label, _) in BUILDERS.items():
        found = results[peer]
        ours = peer.startswith("llmapp") or peer == "docstrings"
        for phase in ("schemas", "total") if peer.startswith("llmapp") else ("total",):
            cold = found.get("cold", {}).get(phase)
            warm = (found.get("warm") or {}).get(phase)
            rows.append(
                [
                    f"{label}: schemas only" if phase == "schemas" else label,
                    fmt(_per_method_ms(cold, count), 3),
                    fmt(_per_method_ms(warm, count), 3),
                    fmt(None if cold is None else cold * 1000),
                    "" if ours else fmt_ratio(ratio(llmapp_cold.get("schemas"), cold)),
                    "" if ours else fmt_ratio(ratio(llmapp_cold.get("total"), cold)),
                ]
            )
    headers = [
        "peer",
        "cold ms/method",
        "warm ms/method",
        "cold total ms",
        "llmapp schemas ÷ peer",
        "llmapp total ÷ peer",
    ]
    parts = [
        f"## 2. Build: a class of {count} methods x 9 parameters with Google docstrings",
        table(headers, rows),
    ]
    llmapp = results["llmapp"]
    if "cold" in llmapp:
        phases = [
            [
                phase,
                fmt(_per_method_ms(llmapp["cold"].get(phase), count), 3),
                fmt(_per_method_ms((llmapp["warm"] or {}).get(phase), count), 3),
            ]
            for phase in ("schemas", "first_validate", "second_validate", "total")
        ]
        parts += [
            "llmapp by phase (schemas: `application(cls)` with every function's parameters and "
            "output; first_validate: each function's first `validate`, which compiles its validator "
            "if that is lazy; total = schemas + first_validate)",
            table(["phase", "cold ms/method", "warm ms/method"], phases),
        ]
    parts += [
        f"- {BUILDERS[peer][0]}: {found['unavailable']}"
        for peer, found in results.items()
        if "unavailable" in found
    ]
    parts += [
        f"- {BUILDERS[peer][0]}: {note}"
        for peer, found in results.items()
        for note in found.get("notes", {}).values()
    ]
    return "\n\n".join(parts), {"methods": count, "peers": results}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=3, metavar=("PEER", "METHODS", "WARM"), required=True)
    parser.add_argument("--profile", action="store_true", help="print cProfile stats to stderr")
    parser.add_argument(
        "--memory", action="store_true", help="report tracemalloc's peak instead of times"
    )
    args = parser.parse_args(argv)
    peer, count, warm = args.child[0], int(args.child[1]), int(args.child[2])
    print(json.dumps(_child(peer, count, warm, args.profile, args.memory)))


if __name__ == "__main__":
    main()
