"""``python -m benchmarks.corpus_bench [--quick]``: the call step over a corpus.

Every signature of the generated corpus (``corpus.py``: 300, seeded) is timed on its
three argument texts (valid, 1 mistake, 3 mistakes), two steps side by side:

| step | llmapp | peer |
|------|--------|------|
| validate | ``LlmFunction.validate(data)`` on the parsed arguments | pydantic strict, extra keys forbidden: ``TypeAdapter(Args).validate_python(data)``, ``.errors()`` on failure |
| execute | ``app.execute(tools, name, text)``: parse, repair, validate, convert, call, and the feedback text on a mistake | ``json.loads`` + the same ``validate_python`` + the call; ``.errors()`` on failure |

Each row reports the **geometric mean** of the ratios (llmapp ÷ pydantic) over the
corpus and the **worst** ratio, with the worst signature printed, so the next gap is
named by the run itself. Each ratio is the median, over five interleaved rounds, of the
ratio of the two sides' loops in one round: a preempted loop reads too long (over 1,800
ratios one would be named the worst), and a machine whose speed changes from one second
to the next (a shared core runs at half speed for seconds at a time) moves both loops of
a round alike, where each side's least time may come from a different speed. Before a
worst is named, the three worst signatures of each row are timed again with loops five
times longer (the lesser ratio kept). Before timing, each text's verdict is checked on both sides
(valid accepted, the mistakes refused); disagreements are counted in the report.

``--quick`` (part of ``python -m benchmarks --quick``) times every fifth signature with
shorter loops. The named tools (``corpus.NAMED``: an order of 50 lines with ``Decimal``
prices, a calendar event with offset date-times, a flat search) are reported row by row,
outside the means. Also a section of ``python -m benchmarks`` (``--only corpus``).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks import corpus
from benchmarks._report import fmt_ratio, table
from benchmarks._timing import Call, Settings, Unavailable, _loop_count, _time_loop

__all__ = ["run"]

PAYLOADS = ("valid", "1 mistake", "3 mistakes")
STEPS = ("validate", "execute")


@dataclass(frozen=True)
class _Brief(Settings):
    """Shorter loops than the other sections: 300 signatures x 3 texts x 2 steps x 2 peers."""

    @property
    def target_seconds(self) -> float:
        return 0.004 if self.quick else 0.005

    @property
    def repeats(self) -> int:
        return 5


@dataclass(frozen=True)
class _Longer(_Brief):
    @property
    def target_seconds(self) -> float:
        return 5 * super().target_seconds


def _peer(case: corpus.Case) -> tuple[Callable[[Any], object], Callable[[str], object]]:
    """pydantic's validate step and its execute step (``json.loads`` + validate + call)."""
    from pydantic import TypeAdapter, ValidationError

    adapter = TypeAdapter(case.peer)
    validate_python, loads, function = adapter.validate_python, json.loads, case.call
    assert function is not None
    names = list(case.peer.model_fields)

    def validate(data: Any) -> object:
        try:
            return validate_python(data)
        except ValidationError as error:
            return error.errors()

    def execute(text: str) -> object:
        try:
            args = validate_python(loads(text))
        except ValidationError as error:
            return error.errors()
        return function(**{name: getattr(args, name) for name in names})

    return validate, execute


def _agrees(case: corpus.Case, ours: Callable[[Any], Any], theirs: Callable[[Any], object]) -> int:
    """How many of the case's texts get a verdict other than intended, on either side."""
    wrong = 0
    for label, text in case.texts.items():
        data, intended = json.loads(text), label == "valid"
        refused = theirs(data)
        if ours(data).success is not intended or isinstance(refused, list) is intended:
            wrong += 1
    return wrong


def _rounds(calls: dict[str, Call], settings: Settings) -> dict[str, list[float]]:
    """The µs per call of each entry in each of ``settings.repeats`` rounds, every entry
    timed once a round, one after the other: the loops of one round ran at the machine's
    speed of that moment."""
    numbers = {}
    for name, (check, value) in calls.items():
        check(value)
        numbers[name] = _loop_count((check, value), settings.target_seconds)
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(settings.repeats):
        for name, call in calls.items():
            times[name].append(_time_loop(call, numbers[name]) / numbers[name] * 1e6)
    return times


def _ratio(ours: list[float], peer: list[float]) -> float:
    """The median over the rounds of llmapp's time ÷ the peer's in the same round."""
    return statistics.median(mine / theirs for mine, theirs in zip(ours, peer, strict=True))


class _Timer:
    """Both steps of one signature on one text, llmapp's and the peer's, timed together."""

    def __init__(self, app: Any, tools: Any, case: corpus.Case) -> None:
        function = app.require(case.name)
        validate, execute = _peer(case)
        self.disagrees = _agrees(case, function.validate, validate) > 0
        self._calls = (function.validate, validate, execute, app, tools, case)

    def ratios(self, payload: str, settings: Settings) -> dict[str, float]:
        ours, validate, execute, app, tools, case = self._calls
        text = case.texts[payload]
        data = json.loads(text)
        timed = _rounds(
            {
                "validate llmapp": (ours, data),
                "validate pydantic": (validate, data),
                "execute llmapp": (lambda t, n=case.name: app.execute(tools, n, t), text),
                "execute pydantic": (execute, text),
            },
            settings,
        )
        return {step: _ratio(timed[f"{step} llmapp"], timed[f"{step} pydantic"]) for step in STEPS}


_CONFIRMED = 3
"""The worst signatures of each row timed again, with loops five times longer."""


def run(settings: Settings) -> tuple[str, dict[str, Any]]:
    """Every chosen signature timed on both steps; the report and its figures."""
    try:
        from llmapp import application
    except ImportError as exc:  # pragma: no cover - the benchmark runs from a checkout
        raise Unavailable(str(exc)) from exc
    built = corpus.generate()
    chosen = built.cases[::5] if settings.quick else built.cases
    app, tools = application(built.tools), built.tools()
    brief = _Brief(quick=settings.quick)
    ratios: dict[str, dict[str, float]] = {f"{s}, {p}": {} for s in STEPS for p in PAYLOADS}
    timers = {case.name: _Timer(app, tools, case) for case in chosen}
    for name, timer in timers.items():
        for payload in PAYLOADS:
            for step, value in timer.ratios(payload, brief).items():
                ratios[f"{step}, {payload}"][name] = value
    # A worst ratio is confirmed before it is named: the worst few again, longer.
    longer = _Longer(quick=settings.quick)
    for label, found in ratios.items():
        step, payload = label.split(", ", 1)
        for name in sorted(found, key=found.__getitem__)[-_CONFIRMED:]:
            found[name] = min(found[name], timers[name].ratios(payload, longer)[step])
    named = {}
    for case in built.named:
        timer = _Timer(app, tools, case)
        named[case.name] = {
            f"{step}, {payload}": value
            for payload in PAYLOADS
            for step, value in timer.ratios(payload, longer).items()
        }
        if timer.disagrees:
            timers[case.name] = timer
    cases = {case.name: case for case in chosen}
    rows: dict[str, dict[str, Any]] = {}
    for label, found in ratios.items():
        worst = max(found, key=found.__getitem__)
        rows[label] = {
            "geomean": math.exp(sum(math.log(value) for value in found.values()) / len(found)),
            "worst": found[worst],
            "worst_case": worst,
            "worst_signature": cases[worst].signature,
            "worst_values": cases[worst].values,
        }
    figures = {
        "cases": len(chosen),
        "of": len(built.cases),
        "seed": corpus.SEED,
        "disagreements": [name for name, timer in timers.items() if timer.disagrees],
        "rows": rows,
        "named": named,
        "named_signatures": {case.name: case.signature for case in built.named},
    }
    return _report(figures), figures


def _report(figures: dict[str, Any]) -> str:
    rows = [
        [
            label,
            fmt_ratio(row["geomean"]),
            fmt_ratio(row["worst"]),
            f"`{row['worst_case']}` ({row['worst_values']} values)",
        ]
        for label, row in figures["rows"].items()
    ]
    worst = dict.fromkeys(row["worst_signature"] for row in figures["rows"].values())
    agree = (
        "every text got its intended verdict on both sides"
        if not figures["disagreements"]
        else f"{len(figures['disagreements'])} signatures where a verdict differs: "
        + ", ".join(figures["disagreements"][:10])
    )
    return "\n\n".join(
        [
            f"## 7. The call step over a generated corpus ({figures['cases']} of "
            f"{figures['of']} signatures, seed {figures['seed']})",
            "Ratios llmapp ÷ pydantic strict+forbid (validate) and ÷ json.loads + "
            "TypeAdapter + call (execute); below 1.00x llmapp is faster. "
            f"Verdicts: {agree}.",
            table(["step, arguments", "geometric mean", "worst", "worst signature"], rows),
            "The worst signatures:\n\n```python\n" + "\n".join(worst) + "\n```",
            "The named tools (the shapes issue 33 measured by hand), outside the means:",
            table(
                ["tool", *(f"{step}, {payload}" for step in STEPS for payload in PAYLOADS)],
                [
                    [name, *(fmt_ratio(row[f"{s}, {p}"]) for s in STEPS for p in PAYLOADS)]
                    for name, row in figures["named"].items()
                ],
            ),
            "```python\n" + "\n".join(figures["named_signatures"].values()) + "\n```",
        ]
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every fifth signature, short loops")
    args = parser.parse_args(argv)
    text, _ = run(Settings(quick=args.quick))
    print(text)


if __name__ == "__main__":
    main()
