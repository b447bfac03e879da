"""Differential harness: one schema, two validators, many values, every disagreement kept.

``run(entries, compile_ours, budget)`` compiles each corpus schema twice, once with the validator
under test (``compile_ours(schema)`` returning an object with ``is_valid(value)`` and
``__call__(value)`` giving a result with ``.success`` and ``.errors``) and once with jsonschema
(``reference.reference_validator``), both from the schema without the keywords of
``schemas.UNSUPPORTED_BY_DESIGN``, and compares their verdicts on:

* valid values drawn by hypothesis-jsonschema ``from_schema`` (schemas it cannot handle are
  counted in ``Tally.no_strategy``, with the reason) and ``mutations`` of each;
* ``values.guided`` values and a mutation of each;
* plain random JSON.

Nothing raises on a disagreement: each is recorded (the smallest value per schema and verdict
pair is kept), so one run lists them all.
"""

from __future__ import annotations

import json
import random
import time
import warnings
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from tests.support.corpora import hypothesis_compat
from tests.support.corpora import values as v
from tests.support.corpora.reference import reference_validator
from tests.support.corpora.schemas import CorpusSchema, without_unsupported

hypothesis_compat.install()


@dataclass(frozen=True)
class Budget:
    """How many values per schema: hypothesis examples (each with ``mutations`` mutated copies),
    guided values (each with one mutation), random JSON values."""

    examples: int = 5
    mutations: int = 3
    guided: int = 10
    random: int = 2
    derandomize: bool = True
    seed: int = 0


@dataclass
class Disagreement:
    """A value the two validators judge differently."""

    schema_id: str
    value: Any
    ours: bool | str
    reference: bool
    origin: str
    issues: list[Any] = field(default_factory=list)

    def describe(self) -> str:
        shown = json.dumps(self.value, ensure_ascii=False)
        if len(shown) > 300:
            shown = shown[:300] + "..."
        issues = "; ".join(f"{i.path}: {i.expected}" for i in self.issues[:3])
        return (
            f"{self.schema_id} [{self.origin}] llmapp={self.ours} jsonschema={self.reference} "
            f"value={shown}" + (f" issues=[{issues}]" if issues else "")
        )


@dataclass
class Tally:
    """What a run did."""

    schemas: int = 0
    values: int = 0
    valid: int = 0
    no_strategy: dict[str, str] = field(default_factory=dict)
    disagreements: dict[tuple[str, Any, bool], Disagreement] = field(default_factory=dict)
    seconds: float = 0.0

    def summary(self, label: str) -> str:
        return (
            f"differential[{label}]: {self.schemas} schemas, {self.values} values compared "
            f"({self.valid} valid per jsonschema), {len(self.disagreements)} disagreements, "
            f"{len(self.no_strategy)} schemas without a hypothesis-jsonschema strategy, "
            f"{self.seconds:.1f}s"
        )


class _Pair:
    """The two compiled validators of one schema, comparing into a tally."""

    def __init__(self, entry: CorpusSchema, compile_ours: Callable[[Any], Any], tally: Tally):
        self.entry = entry
        self.tally = tally
        self.reference = reference_validator(without_unsupported(entry.reference))
        self.ours = compile_ours(without_unsupported(entry.schema))

    def compare(self, value: Any, origin: str) -> None:
        self.tally.values += 1
        expected = bool(self.reference.is_valid(value))
        self.tally.valid += expected
        try:
            verdict: bool | str = bool(self.ours.is_valid(value))
            result = self.ours(value)
        except Exception as error:  # a validator must never raise: that is a finding too
            self._record(value, f"raised {type(error).__name__}: {error}", expected, origin, [])
            return
        issues = [] if result.success else list(result.errors)
        if result.success != verdict or (not result.success and not issues):
            verdict = (
                f"inconsistent: is_valid={verdict}, success={result.success}, {len(issues)} issues"
            )
        if verdict is not expected:
            self._record(value, verdict, expected, origin, issues)

    def _record(
        self, value: Any, ours: bool | str, expected: bool, origin: str, issues: list[Any]
    ) -> None:
        key = (self.entry.id, str(ours), expected)
        known = self.tally.disagreements.get(key)
        size = len(json.dumps(value))
        if known is None or size < len(json.dumps(known.value)):
            self.tally.disagreements[key] = Disagreement(
                self.entry.id, value, ours, expected, origin, issues
            )


def _strategy(entry: CorpusSchema) -> tuple[Any, str | None]:
    """hypothesis-jsonschema's strategy for the schema, or why there is none."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return from_schema(without_unsupported(entry.reference)), None
    except Exception as error:
        return None, f"{type(error).__name__}: {str(error)[:120]}"


def _hypothesis_values(pair: _Pair, budget: Budget, rnd: random.Random) -> None:
    strategy, problem = _strategy(pair.entry)
    if strategy is None:
        pair.tally.no_strategy[pair.entry.id] = problem or "no strategy"
        strategy = st.nothing()
    drawn = st.one_of(
        strategy.map(lambda x: ("valid", x)), v.json_values().map(lambda x: ("random", x))
    )

    @settings(
        max_examples=budget.examples + budget.random,
        deadline=None,
        database=None,
        derandomize=budget.derandomize,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def compare(data: st.DataObject) -> None:
        origin, value = data.draw(drawn)
        pair.compare(value, f"hypothesis-{origin}")
        if origin == "valid":
            for mutated in v.mutations(value, rnd, budget.mutations):
                pair.compare(mutated, "mutation")

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compare()
    except Exception as error:  # hypothesis-jsonschema failing mid-draw (unsatisfiable, ...)
        pair.tally.no_strategy.setdefault(
            pair.entry.id, f"{type(error).__name__}: {str(error)[:120]}"
        )


def _guided_values(pair: _Pair, budget: Budget, rnd: random.Random) -> None:
    schema = without_unsupported(pair.entry.reference)
    for _ in range(budget.guided):
        value = v.guided(schema, rnd)
        pair.compare(value, "guided")
        for mutated in v.mutations(value, rnd, 1):
            pair.compare(mutated, "guided-mutation")


def run(
    entries: Iterable[CorpusSchema], compile_ours: Callable[[Any], Any], budget: Budget
) -> Tally:
    """Compare the two validators on every schema; see the module docstring."""
    tally = Tally()
    started = time.perf_counter()
    for entry in entries:
        tally.schemas += 1
        rnd = random.Random(f"{budget.seed}:{entry.id}")
        try:
            pair = _Pair(entry, compile_ours, tally)
        except Exception as error:  # the corpus schema is valid: both must compile it
            key = (entry.id, "compile", True)
            problem = f"failed to compile: {type(error).__name__}: {error}"
            tally.disagreements[key] = Disagreement(entry.id, None, problem, True, "compile")
            continue
        _hypothesis_values(pair, budget, rnd)
        _guided_values(pair, budget, rnd)
    tally.seconds = time.perf_counter() - started
    return tally


def sample(entries: Iterable[CorpusSchema], per_source: dict[str, int]) -> list[CorpusSchema]:
    """An evenly spread, deterministic sample: at most ``per_source[source]`` schemas of each source."""
    by_source: dict[str, list[CorpusSchema]] = {}
    for entry in entries:
        by_source.setdefault(entry.source, []).append(entry)
    chosen = []
    for source, found in by_source.items():
        wanted = per_source.get(source, len(found))
        step = max(1, len(found) / max(1, wanted))
        chosen += [found[int(i * step)] for i in range(min(wanted, len(found)))]
    return chosen
