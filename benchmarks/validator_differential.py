"""Old and new validators, same values: the same verdicts and the same issues?

``python -m benchmarks.validator_differential [--base 1d22dbe] [--values 12] [--names]``

The proof of the validator redesign (issue 9): ``src/`` of the base commit (by
default ``1d22dbe``, the last commit before the redesign) is extracted into a
temporary directory with ``git archive``; every schema of the corpora
(``tests/support/corpora``: BFCL, MCP, OpenAPI 3.1, the JSON-Schema-Test-Suite) and
of the catalogue snapshots (``tests/catalogue/snapshots``: every function's
parameters and output) gets the same values (the test suite's own data, values
shaped by the schema and near misses of them, fixed seeds); ``_verdicts.py`` judges
them once with the old ``src/`` and once with this tree's, each in its own process;
then every outcome is compared: the schema error (its problems), or per value the
verdict and each issue's path, expected text, value and description.

Formats are the one part of the validator that issue 9 changes on purpose (the
table of scalar types adds ``date-time-local`` and ``time-local``, which the base
commit accepted as unknown, annotation-only formats). By default the old tree gets
this tree's format checks (``FORMAT_FILES``) so that the comparison covers
everything else; ``--formats base`` keeps the base commit's own and shows those
differences too.

The names of enum members (``x-enum-varnames``, issue 37) are a later, deliberate change
to the catalogue's schemas that the base commit cannot read: they only add ``3 (HIGH)``
to expected texts. By default the catalogue schemas reach both trees without them, so the
comparison covers everything else; ``--names`` keeps them and shows those differences.

Prints the counts and every difference (up to ``--show``); exits 1 on a difference.
Needs the corpora beside the repository (``../shared/corpora``) and git history.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CHILD = Path(__file__).with_name("_verdicts.py")
BASE = "1d22dbe"
FORMAT_FILES = (
    "llmapp/_scalars/__init__.py",
    "llmapp/_scalars/table.py",
    "llmapp/_scalars/iso8601.py",
    "llmapp/validate/_formats.py",
)
"""The format checks: the scalar-type table and what the validator adds to it."""
FORMAT_ENGINE = (
    "llmapp/_limits.py",
    "llmapp/_patterns/__init__.py",
    "llmapp/_patterns/ecma.py",
    "llmapp/_patterns/linear.py",
    "llmapp/_patterns/matching.py",
    "llmapp/_results.py",
    "llmapp/_sentinels.py",
)
"""What ``format: "regex"`` runs on (``_formats`` asks ``_patterns.is_pattern``), copied
beside the base commit's own pattern engine, which its ``pattern`` keyword keeps."""

Entry = tuple[str, Any, list[Any]]


def _suite_data() -> dict[str, list[Any]]:
    """The JSON-Schema-Test-Suite's own test values, by corpus schema id."""
    from tests.support.corpora.schemas import SUITE

    found: dict[str, list[Any]] = {}
    for draft in ("draft2020-12", "draft4"):
        for path in sorted((SUITE / draft).glob("*.json")):
            for group in json.loads(path.read_text(encoding="utf-8")):
                key = f"suite:{draft}/{path.name}:{group['description']}"
                found.setdefault(key, []).extend(test["data"] for test in group["tests"])
    return found


def _catalogue(names: bool) -> list[tuple[str, Any]]:
    """Every function schema of the catalogue snapshots: parameters and output (without the
    names of enum members unless ``names``)."""
    from llmapp.vendors._source import without_enum_names

    found = []
    for path in sorted((ROOT / "tests" / "catalogue" / "snapshots").glob("*.json")):
        for function in json.loads(path.read_text(encoding="utf-8")):
            for part in ("parameters", "output"):
                schema = function.get(part)
                if schema is not None:
                    schema = schema if names else without_enum_names(schema)
                    found.append((f"catalogue:{path.stem}:{function['name']}:{part}", schema))
    return found


def _values(schema_id: str, schema: Any, count: int, given: list[Any]) -> list[Any]:
    from tests.support.corpora import values

    rnd = random.Random(schema_id)
    made = list(given)
    for _ in range(count):
        try:
            value = values.guided(schema, rnd)
        except (RecursionError, KeyError, TypeError, ValueError, IndexError):
            continue
        made.append(value)
        made.extend(values.mutations(value, rnd, 2))
    made.extend(rnd.choice(values._NOISE) for _ in range(3))
    return made


def entries(count: int, names: bool = False) -> list[Entry]:
    """Every schema with its values."""
    from tests.support.corpora.schemas import corpus_schemas

    suite = _suite_data()
    schemas = [(entry.id, entry.schema) for entry in corpus_schemas()] + _catalogue(names)
    return [
        (schema_id, schema, _values(schema_id, schema, count, suite.get(schema_id, [])))
        for schema_id, schema in schemas
    ]


def _judge(src: Path, source: Path, target: Path) -> dict[str, Any]:
    environment = {**os.environ, "PYTHONPATH": str(src)}
    subprocess.run(
        [sys.executable, str(CHILD), str(source), str(target)], check=True, env=environment
    )
    with target.open("rb") as file:
        result: dict[str, Any] = pickle.load(file)
    if not result["llmapp"].startswith(str(src)):
        raise SystemExit(f"the child imported {result['llmapp']}, not the tree in {src}")
    return result["outcomes"]


def compare(
    old: dict[str, Any], new: dict[str, Any], show: int
) -> tuple[dict[str, int], list[str]]:
    """The counts, and a description of each difference."""
    counts = dict.fromkeys(("schemas", "schema errors", "values", "valid", "issues"), 0)
    differences: list[str] = []
    for schema_id, before in old.items():
        after = new[schema_id]
        counts["schemas"] += 1
        if before != after and (isinstance(before, tuple) or isinstance(after, tuple)):
            differences.append(f"{schema_id}: build {before!r} became {after!r}")
            continue
        if isinstance(before, tuple):
            counts["schema errors"] += 1
            continue
        for index, (was, now) in enumerate(zip(before, after, strict=True)):
            counts["values"] += 1
            counts["valid"] += was[0]
            counts["issues"] += len(was[1])
            if was != now:
                differences.append(f"{schema_id} value #{index}: {was!r} became {now!r}")
    counts["differences"] = len(differences)
    return counts, differences[: max(show, 0)]


def _current_formats(old_src: Path) -> None:
    """Give the base commit's tree (``old_src``) this tree's format checks."""
    for name in (*FORMAT_FILES, *FORMAT_ENGINE):
        (old_src / name).parent.mkdir(exist_ok=True)
        (old_src / name).write_bytes((ROOT / "src" / name).read_bytes())
    formats = old_src / "llmapp/validate/_formats.py"
    text = formats.read_text(encoding="utf-8")
    engine = "from ._patterns import is_pattern\n"
    if engine not in text:
        raise RuntimeError(
            f"{formats.name} no longer imports {engine.strip()!r}: update FORMAT_ENGINE"
        )
    formats.write_text(text.replace(engine, "from llmapp._patterns.matching import is_pattern\n"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default=BASE, help="the commit to compare with")
    parser.add_argument("--values", type=int, default=12, help="guided values per schema")
    parser.add_argument("--show", type=int, default=20, help="differences to print")
    parser.add_argument(
        "--share", type=int, default=1, help="compare one schema in SHARE, from the first on"
    )
    parser.add_argument(
        "--formats",
        choices=("current", "base"),
        default="current",
        help="the format checks the old tree uses (default: this tree's)",
    )
    parser.add_argument(
        "--names",
        action="store_true",
        help="keep the names of enum members in the catalogue's schemas",
    )
    options = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    made = entries(options.values, options.names)[:: max(options.share, 1)]
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", options.base, "src"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(work)], input=archive, check=True)
        if options.formats == "current":
            _current_formats(work / "src")
        source = work / "entries.pickle"
        with source.open("wb") as file:
            pickle.dump(made, file)
        old = _judge(work / "src", source, work / "old.pickle")
        new = _judge(ROOT / "src", source, work / "new.pickle")
    counts, differences = compare(old, new, options.show)
    print(
        f"differential {options.base} -> working tree ({options.formats} formats): "
        f"{counts['schemas']} schemas "
        f"({counts['schema errors']} refused alike), {counts['values']} values "
        f"({counts['valid']} valid), {counts['issues']} issues, {counts['differences']} differences"
    )
    for line in differences:
        print("  " + line)
    return 1 if counts["differences"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
