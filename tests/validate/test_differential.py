"""Differential: llmapp's validator gives jsonschema's verdict on every corpus schema.

Schemas (``tests/support/corpora/schemas.py``): every BFCL function's converted parameters, every MCP
tool's input/output schema, every OpenAPI 3.1 component schema, and the case catalogue: every
schema of the JSON-Schema-Test-Suite's required tests (draft 2020-12 and draft 4). What is
skipped is in ``schemas.SKIPPED`` with the reason. In one place each:

* ``schemas.UNSUPPORTED_BY_DESIGN``: keywords removed on both sides (format assertions off on
  both sides; unevaluated*, which llmapp documents as unsupported);
* ``reference.REFERENCE_CORRECTIONS``: where the jsonschema reference is corrected (exact
  multipleOf; 3.0 is an integer under draft 4 too, as llmapp decides).

Values (``tests/support/corpora/differential.py``): hypothesis-jsonschema's valid values and mutations of
them, schema-guided near misses, random JSON.

* quick (CI): a spread sample of each source, a few dozen values per schema, derandomized
  (four to seven times the sample under ``LLMAPP_THOROUGH=1``, see ``tests/support/budget.py``);
* ``-m slow``: every schema, sized by environment variables::

      LLMAPP_DIFFERENTIAL_EXAMPLES=25 LLMAPP_DIFFERENTIAL_SEED=7 \\
          pytest -m slow -s tests/validate/test_differential.py

  (``EXAMPLES`` hypothesis examples per schema, each with 3 mutations, plus ``2 * EXAMPLES``
  guided values each with a mutation: about ``8 * EXAMPLES`` values per schema).

Formats are compared separately (``test_format_verdicts``) with jsonschema's FormatChecker, on
the formats both libraries check.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from tests.support.budget import scaled
from tests.support.corpora import differential, schemas
from tests.support.corpora.differential import Budget, Tally

from llmapp.validate import validator

QUICK = Budget(examples=4, mutations=3, guided=8, random=1, derandomize=True)
QUICK_SAMPLE = {
    "bfcl": scaled(10, 40),
    "mcp": scaled(15, 60),
    "openapi": scaled(6, 40),
    "suite": scaled(30, 120),
}


def _slow_budget() -> Budget:
    examples = int(os.environ.get("LLMAPP_DIFFERENTIAL_EXAMPLES", "25"))
    return Budget(
        examples=examples,
        mutations=3,
        guided=2 * examples,
        random=max(1, examples // 10),
        derandomize=False,
        seed=int(os.environ.get("LLMAPP_DIFFERENTIAL_SEED", "0")),
    )


@pytest.fixture(scope="module")
def compile_ours() -> Any:
    return validator


def _entries(source: str | None = None) -> list[schemas.CorpusSchema]:
    found = [e for e in schemas.corpus_schemas() if source is None or e.source == source]
    if not found:
        pytest.skip(f"no {source or 'corpus'} schemas found under {schemas.CORPORA}")
    return found


def _assert_agreement(tally: Tally) -> None:
    found = sorted(tally.disagreements.values(), key=lambda d: d.schema_id)
    assert not found, f"{len(found)} disagreements:\n" + "\n".join(d.describe() for d in found[:25])


@pytest.mark.budgeted
@pytest.mark.parametrize("source", ["bfcl", "mcp", "openapi", "suite"])
def test_quick_differential(compile_ours, source):
    entries = differential.sample(_entries(source), QUICK_SAMPLE)
    tally = differential.run(entries, compile_ours, QUICK)
    print(tally.summary(f"quick {source}"))
    assert tally.values >= 20 * len(entries)
    _assert_agreement(tally)


@pytest.mark.slow
def test_full_differential(compile_ours):
    tally = differential.run(_entries(), compile_ours, _slow_budget())
    print(tally.summary("full"))
    print(f"skipped corpus schemas: {len(schemas.SKIPPED)}")
    _assert_agreement(tally)


# --- formats ----------------------------------------------------------------------------------

_CHECKED_BY_BOTH = ("date", "ipv4", "ipv6", "uuid", "json-pointer", "relative-json-pointer")
"""Formats jsonschema's FormatChecker checks fully without optional packages (``date-time``,
``time``, ``uri``, ``duration`` need rfc3339-validator/rfc3987/isoduration, absent here; its
``email`` only looks for an ``@``) and llmapp asserts."""

_NEAR_MISSES = (
    "",
    " ",
    "2024-02-30",
    "2024-13-01",
    "2024-1-01",
    "2023-02-29",
    "2024-02-29",
    "0000-01-01",
    "2024-01-01\n",
    "2024-01-01T00:00:00Z",
    "127.0.0.1",
    "127.0.0.01",
    "256.0.0.1",
    "1.2.3",
    "::1",
    "::ffff:127.0.0.1",
    "fe80::1%eth0",
    "1::2::3",
    "00000000-0000-0000-0000-000000000000",
    "00000000000000000000000000000000",
    "{00000000-0000-0000-0000-000000000000}",
    "urn:uuid:00000000-0000-0000-0000-000000000000",
    "/a/b~0c~1d",
    "/a~2",
    "a/b",
    "0",
    "0#",
    "1/a",
    "01/a",
    "٣",
)


@pytest.mark.parametrize("name", _CHECKED_BY_BOTH)
def test_format_verdicts(compile_ours, name):
    schema = {"type": "string", "format": name}
    ours = compile_ours(schema)
    theirs = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    disagreements: dict[str, tuple[bool, bool]] = {}

    def compare(value: str) -> None:
        verdicts = (bool(ours.is_valid(value)), bool(theirs.is_valid(value)))
        if verdicts[0] != verdicts[1]:
            disagreements[value] = verdicts

    for value in _NEAR_MISSES:
        compare(value)
    rnd = random.Random(name)

    @settings(
        max_examples=150,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.one_of(from_schema(schema), st.text(max_size=40)))
    def generated(value: str) -> None:
        compare(value)
        if value:
            at = rnd.randrange(len(value))
            compare(value[:at] + rnd.choice("0:-/.~aZ٣") + value[at + 1 :])

    generated()
    oracle = _ORACLES.get(name)
    unexplained = {
        value: verdicts
        for value, verdicts in disagreements.items()
        if oracle is None or oracle[0](value) != verdicts[0]
    }
    assert not unexplained, "\n".join(
        f"{name} {v!r}: llmapp={o} jsonschema={t}" for v, (o, t) in unexplained.items()
    )


_RELATIVE_JSON_POINTER = re.compile(r"(?:0|[1-9][0-9]*)(?:#|(?:/(?:[^~/]|~[01])*)*)", re.ASCII)

_ORACLES: dict[str, tuple[Callable[[str], bool], str]] = {
    "relative-json-pointer": (
        lambda value: _RELATIVE_JSON_POINTER.fullmatch(value) is not None,
        "jsonschema's checker is wrong: it takes any str.isdigit() character as a digit ('٣', "
        "'١/foo') and refuses every 0 that follows a digit ('100', '120/foo/bar'), against "
        "JSON-Schema-Test-Suite draft2020-12/optional/format/relative-json-pointer.json; the "
        "grammar (draft-bhutton-relative-json-pointer-00: non-negative-integer, then '#' or a "
        "JSON Pointer) arbitrates",
    ),
}
"""Format -> (the grammar's own verdict, why jsonschema may not be trusted for it). Where llmapp
and jsonschema disagree on such a format, llmapp must agree with the grammar."""


# --- disagreements the differential found where llmapp is wrong --------------------------------


@pytest.mark.parametrize("divisor", [3, 3.0])
@pytest.mark.parametrize("value", [1.0000000000000014e17, -1.636110988812114e17])
def test_multiple_of_reads_a_float_as_its_decimal_whatever_the_divisor_type(
    compile_ours, divisor, value
):
    """``1.0000000000000014e+17`` is the decimal 100000000000000140 = 3 * 33333333333333380.

    llmapp reads a float as the decimal it prints as (``multiple_of`` in its runtime), and 3 and
    3.0 are the same JSON number, so ``{"multipleOf": 3}`` must accept what
    ``{"multipleOf": 3.0}`` accepts. With an integer divisor the generated code computes
    ``value % 3`` on the binary float (100000000000000144) instead. Found by the slow
    differential on the test suite's allOf.json ("allOf combined with anyOf, oneOf":
    -1.636110988812114e+17 with multipleOf 2, 3 and 5).
    """
    check = compile_ours({"multipleOf": divisor})
    assert check.is_valid(value)
    assert check(value).success
