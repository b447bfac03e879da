"""``python -m benchmarks.stream_bench [--quick]``: checking a tool call while it is written.

Three tables:

1. **Feed cost**: ``ArgumentStream.feed`` over the whole text in deltas of 1, 16 and 256
   characters, divided by the call step on the whole text (``check_arguments``: read,
   repair, validate), on the payloads of the validation benchmark (S, M, L, P, F, valid
   and with three mistakes). Targets: at most 25x, 10x and 5x.
2. **Linear**: the same feed on the order with 10, 20 and 40 items and the tree with 100
   and 200 nodes: twice the text, twice the cost (within 20%); beside it, the way streamed
   JSON is checked in Python today, re-reading the prefix at every delta with
   ``pydantic_core.from_json(prefix, allow_partial=True)`` and validating it with
   ``TypeAdapter.validate_python(..., experimental_allow_partial=True)``: its cost grows
   with the square of the text.
3. **Saved**: on wrong arguments, the share of the text written before the first
   definite mistake (median, 90th percentile): the share of the generation a caller who
   stops there saves. Over the invalid payloads, over generated wrong arguments (one
   mistake put into a valid value of each function of the samchon shopping application:
   a wrong type, a value outside its enum, a key that must not be there, a required key
   left out), and over the recorded mistakes of ``../shared/corpora/samchon-openapi``
   when it holds any (the copy there has none: its ``function-calling`` folder was left
   out).

Each timing is the median of the repeats, in µs of this process's CPU time per call (the
time other processes take the shared cores is not counted); the runs compared are timed
in the same rounds, and a ratio is the median of the rounds' ratios. Not part of
``python -m benchmarks``.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks._report import fmt, fmt_ratio, table
from benchmarks.payloads import PAYLOADS, Payload, Targets, format_payloads, order_with_items

__all__ = ["main"]

SIZES = (1, 16, 256)
TARGETS = {1: 25.0, 16: 10.0, 256: 5.0}
_HOMES = Path(__file__).resolve().parents[2:4]  # beside the project, or beside its worktrees
CORPUS = next(
    (
        home / "shared" / "corpora" / "samchon-openapi"
        for home in _HOMES
        if (home / "shared" / "corpora").exists()
    ),
    _HOMES[0] / "shared" / "corpora" / "samchon-openapi",
)


def _calibrated(run: Callable[[], Any], seconds: float) -> int:
    """How many calls of ``run`` (warmed: its first call compiles) take about ``seconds``:
    long enough that the CPU clock, which may tick by milliseconds, reads them right."""
    run()
    count = 1
    while True:
        started = time.perf_counter()
        for _ in range(count):
            run()
        elapsed = time.perf_counter() - started
        if elapsed >= seconds / 4:
            return max(1, int(count * seconds / elapsed))
        count *= 4


def _median_us(run: Callable[[], Any], repeats: int, budget: float = 0.05) -> float:
    """Median µs of CPU time per call of ``run`` over ``repeats`` rounds of about ``budget``."""
    number = _calibrated(run, budget)
    rounds = []
    for _ in range(repeats):
        started = time.process_time()
        for _ in range(number):
            run()
        rounds.append((time.process_time() - started) / number * 1e6)
    return statistics.median(rounds)


def _deltas(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def _feeder(function: Any, deltas: list[str]) -> Callable[[], Any]:
    from llmapp import stream

    def run() -> Any:
        arguments = stream(function)
        feed = arguments.feed
        for delta in deltas:
            feed(delta)
        return arguments

    return run


def _whole(function: Any, text: str) -> Callable[[], Any]:
    from llmapp.kernel import check_arguments, model_side

    side = model_side(function)
    return lambda: check_arguments(function, text, side)


def _reparse(adapter: Any, deltas: list[str]) -> Callable[[], Any]:
    from pydantic import ValidationError
    from pydantic_core import from_json

    prefixes = []
    text = ""
    for delta in deltas:
        text += delta
        prefixes.append(text)

    def run() -> None:
        for prefix in prefixes:
            try:
                data = from_json(prefix, allow_partial=True)
                adapter.validate_python(data, experimental_allow_partial=True)
            except (ValidationError, ValueError):
                pass

    return run


def _interleaved(runs: dict[str, Callable[[], Any]], rounds: int) -> dict[str, list[float]]:
    """µs per call of each run, round by round, the runs of one round timed one after the
    other: the machine's load, which moves from second to second on shared cores, weighs
    on the runs of a round alike, so their ratios per round hold where the times do not."""
    numbers = {name: _calibrated(run, 0.04) for name, run in runs.items()}
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            started = time.process_time()
            for _ in range(numbers[name]):
                run()
            times[name].append((time.process_time() - started) / numbers[name] * 1e6)
    return times


def feed_cost(payloads: list[Payload], repeats: int) -> tuple[str, list[tuple[str, float, bool]]]:
    """Each payload's whole-text check and its feeds, interleaved; the ratio is the median
    of the ratios of the rounds."""
    from llmapp import application

    app = application(Targets)
    rows, verdicts = [], []
    for payload in payloads:
        function = app.function(payload.method)
        text = json.dumps(payload.data)
        runs = {"whole": _whole(function, text)}
        runs.update({str(size): _feeder(function, _deltas(text, size)) for size in SIZES})
        times = _interleaved(runs, repeats)
        whole = times["whole"]
        cells = [payload.label, f"{len(text):,}", fmt(statistics.median(whole))]
        for size in SIZES:
            fed = times[str(size)]
            share = statistics.median(f / w for f, w in zip(fed, whole, strict=True))
            cells += [fmt(statistics.median(fed)), fmt_ratio(share)]
            verdicts.append((f"{payload.label} {size}-char", share, share <= TARGETS[size]))
        rows.append(cells)
    headers = ["payload", "chars", "whole µs"]
    for size in SIZES:
        headers += [f"feed {size} µs", f"÷ whole (≤{TARGETS[size]:g}x)"]
    return table(headers, rows), verdicts


def linear(repeats: int, quick: bool) -> str:
    """Feeds of texts 1x, 2x and 4x long, timed in the same rounds (growth: the median of
    the rounds' ratios), beside re-reading the prefix at every delta."""
    from pydantic import TypeAdapter

    from benchmarks.payloads import Order, Tree, _tree
    from llmapp import application

    app = application(Targets)
    families = [
        ("order", "place_order", Order, [(n, order_with_items(n)) for n in (10, 20, 40)]),
        ("tree", "save_tree", Tree, [(n, {"root": _tree(n)["root"]}) for n in (100, 200, 400)]),
    ]
    rows = []
    for name, method, kind, sizes in families:
        function = app.function(method)
        adapter = TypeAdapter(kind)
        texts = {count: json.dumps(data) for count, data in sizes}
        for size in (1, 16):
            runs = {str(c): _feeder(function, _deltas(t, size)) for c, t in texts.items()}
            times = _interleaved(runs, repeats)
            previous: list[float] | None = None
            for count, text in texts.items():
                fed = times[str(count)]
                growth = ""
                if previous is not None:
                    ratios = [b / a for a, b in zip(previous, fed, strict=True)]
                    growth = f" ({statistics.median(ratios):.2f}x)"
                previous = fed
                if size == 1 and len(text) > (2_000 if quick else 6_000):
                    reread = None  # minutes a round: the square of the text
                else:
                    deltas = _deltas(text, size)
                    reread = _median_us(_reparse(adapter, deltas), max(1, repeats // 3), 0.01)
                median = statistics.median(fed)
                rows.append(
                    [f"{name} ×{count}", f"{len(text):,}", str(size), fmt(median) + growth,
                     fmt(reread), fmt_ratio(reread / median if reread else None)]
                )  # fmt: skip
    headers = ["text", "chars", "delta", "feed µs (growth)", "re-read µs", "re-read ÷ feed"]
    return table(headers, rows)


# --- the share of the text read before the first definite mistake -------------------------


def first_mistake(function: Any, text: str) -> float | None:
    """The share of ``text`` fed when the first definite mistake was reported, or None."""
    from llmapp import stream

    arguments = stream(function)
    for position, char in enumerate(text, 1):
        if arguments.feed(char):
            return position / len(text)
    return None


def _example(schema: Any, root: Any, rng: random.Random, depth: int = 0) -> Any:
    """A value ``schema`` accepts, most of the time (checked by the caller)."""
    if isinstance(schema, dict) and "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        return _example(root["$defs"][name], root, rng, depth + 1)
    if not isinstance(schema, dict) or depth > 12:
        return None
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return rng.choice(schema["enum"])
    for keyword in ("oneOf", "anyOf"):
        if keyword in schema:
            branches = [b for b in schema[keyword] if b.get("type") != "null"] or schema[keyword]
            return _example(rng.choice(branches), root, rng, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in schema:
        properties = schema.get("properties", {})
        required = set(schema.get("required", ()))
        return {
            key: _example(sub, root, rng, depth + 1)
            for key, sub in properties.items()
            if key in required or rng.random() < 0.5
        }
    if kind == "array":
        count = max(schema.get("minItems", 0), rng.randint(1, 3))
        count = min(count, schema.get("maxItems", count))
        return [_example(schema.get("items", {}), root, rng, depth + 1) for _ in range(count)]
    if kind == "integer":
        low = schema.get("minimum", 0)
        return int(max(low, min(schema.get("maximum", low + 100), low + rng.randint(0, 50))))
    if kind == "number":
        low = schema.get("minimum", 0)
        return float(min(schema.get("maximum", low + 100), low + rng.random() * 50))
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "null":
        return None
    return _string(schema, rng)


def _string(schema: dict[str, Any], rng: random.Random) -> str:
    formats = {
        "uuid": "5f0c6f4e-8e1b-4d5e-9a53-2b3c4d5e6f70",
        "date-time": "2024-05-01T12:30:00Z",
        "date": "2024-05-01",
        "email": "ada@example.com",
        "uri": "https://example.com/a",
        "ipv4": "127.0.0.1",
        "ipv6": "::1",
    }
    text = formats.get(schema.get("format", ""), "word " * rng.randint(1, 4))
    return text[: schema.get("maxLength", len(text))].ljust(schema.get("minLength", 0), "x")


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        found = [path] if path else []
        for key, item in value.items():
            found += _leaves(item, (*path, key))
        return found
    if isinstance(value, list):
        return [path] + [p for i, item in enumerate(value) for p in _leaves(item, (*path, i))]
    return [path]


def _wrong(value: dict[str, Any], rng: random.Random, mistake: str) -> dict[str, Any]:
    """``value`` with one mistake of the kind asked, at a random place: a value of a wrong
    type, a key that must not be there (at a random place among its siblings), a
    required key left out."""
    wrong = copy.deepcopy(value)
    paths = _leaves(wrong) or [()]
    if mistake == "extra":
        paths = [p for p in paths if isinstance(_at(wrong, p), dict)] or [()]
    path = rng.choice(paths)
    if mistake == "extra":
        target = _at(wrong, path)
        items = list(target.items())
        items.insert(rng.randint(0, len(items)), ("unexpectedKey", 1))
        target.clear()
        target.update(items)
        return wrong
    if not path:
        return wrong
    holder, last = _at(wrong, path[:-1]), path[-1]
    if mistake == "missing" and isinstance(holder, dict):
        del holder[last]
    elif mistake == "type":
        holder[last] = "wrong" if not isinstance(holder[last], str) else 12345
    return wrong


def _at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def generated(count: int, mistake: str) -> tuple[list[float], int]:
    """Shares for wrong arguments generated for the samchon shopping functions."""
    from llmapp import LlmFunction

    path = CORPUS / "test" / "examples" / "mcp" / "3.1.application.json"
    if not path.exists():
        return [], 0
    functions = json.loads(path.read_text())["functions"]
    rng = random.Random(7)
    shares: list[float] = []
    never = 0
    tries = 0
    while len(shares) + never < count and tries < count * 20:
        tries += 1
        spec = rng.choice(functions)
        function = LlmFunction(spec["name"], None, spec["parameters"])
        value = _example(function.parameters, function.parameters, rng)
        if not isinstance(value, dict) or not function.validate(value).success:
            continue
        wrong = _wrong(value, rng, mistake)
        if function.validate(wrong).success:
            continue
        share = first_mistake(function, json.dumps(wrong, indent=1))
        if share is None:
            never += 1
        else:
            shares.append(share)
    return shares, never


def saved(quick: bool) -> str:
    from llmapp import application

    app = application(Targets)
    rows = []
    invalid = [p for p in [*PAYLOADS, *format_payloads()] if not p.valid]
    shares = [first_mistake(app.function(p.method), json.dumps(p.data)) for p in invalid]
    seen = [s for s in shares if s is not None]
    rows.append(_share_row("invalid payloads (S, M, L, P, F)", seen, len(shares) - len(seen)))
    labels = {"type": "a wrong type", "extra": "a key not allowed", "missing": "a key left out"}
    for mistake, label in labels.items():
        found, never = generated(40 if quick else 300, mistake)
        rows.append(_share_row(f"generated for samchon shopping: {label}", found, never))
    rows.append(["recorded mistakes, samchon-openapi", "0", "n/a", "n/a", "none in the copy"])
    return table(["wrong arguments", "calls", "median read", "p90 read", "no early mistake"], rows)


def _share_row(label: str, shares: list[float], never: int) -> list[str]:
    if not shares:
        return [label, str(never), "n/a", "n/a", str(never)]
    ordered = sorted(shares)
    p90 = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
    median = statistics.median(ordered)
    return [label, str(len(shares) + never), f"{median:.0%}", f"{p90:.0%}", str(never)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and payloads")
    options = parser.parse_args()
    repeats = 5 if options.quick else 15
    payloads = [*PAYLOADS, *format_payloads()]
    text, verdicts = feed_cost(payloads, repeats)
    print("## Feed cost (÷ the call step on the whole text)\n")
    print(text)
    print("\n## Linear: feed against re-reading the prefix at every delta\n")
    print(linear(repeats, options.quick))
    print("\n## Saved: share of the text written before the first definite mistake\n")
    print(saved(options.quick))
    print("\n## Targets\n")
    missed = [label for label, _, held in verdicts if not held]
    print(f"{len(verdicts) - len(missed)}/{len(verdicts)} feed-cost targets hold", end="")
    print(f"; missed: {', '.join(missed)}" if missed else "")


if __name__ == "__main__":
    main()
