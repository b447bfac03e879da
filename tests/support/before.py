"""A module of llmapp as it was at an earlier commit, loaded beside today's, for differentials.

``load(commit, "llmapp/explain/_text.py")`` reads the file from git and runs it as a module
of its own name (``before_<commit>_<path>``); its imports, relative ones too, are today's
llmapp. The test that
uses it fails, saying how to fetch the history, in a shallow clone (``require``); it skips,
with its reason, where there is no git repository at all (an unpacked source archive); it
fails where a name the module imports has left today's llmapp and ``MOVED`` does not say
where it went.
"""

from __future__ import annotations

import re
import subprocess
import types
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

MOVED = {
    "llmapp._body": "llmapp._text.body",
    "llmapp._ecma": "llmapp._patterns.ecma",
    "llmapp._fresh": "llmapp._codegen.fresh",
    "llmapp._iso8601": "llmapp._scalars.iso8601",
    "llmapp._linear": "llmapp._patterns.linear",
    "llmapp._patterns": "llmapp._patterns.matching",
    "llmapp._record": "llmapp._records.record",
    "llmapp._frozen": "llmapp._records.frozen",
    "llmapp._scalar_types": "llmapp._scalars.table",
    "llmapp._source": "llmapp._codegen.source",
    "llmapp._unicode": "llmapp._text.unicode",
    "llmapp._untrusted": "llmapp._text.untrusted",
}
"""Root modules grouped into subpackages since (issue 32): an earlier module's imports of
them are read at their new address."""
_MOVED = re.compile("|".join(rf"\b{re.escape(old)}\b(?!\.)" for old in MOVED))
_FROM_ROOT = re.compile(r"^(\s*)from llmapp import ([\w ,]+)$", re.M)


def _from_root(match: re.Match[str]) -> str:
    """``from llmapp import _iso8601 as iso, _patterns`` with each moved module at its
    address."""
    indent, kept, lines = match.group(1), [], []
    for imported in match.group(2).split(","):
        name, _, alias = (part.strip() for part in imported.partition(" as "))
        if f"llmapp.{name}" in MOVED:
            package, _, module = MOVED[f"llmapp.{name}"].rpartition(".")
            lines.append(f"{indent}from {package} import {module} as {alias or name}")
        else:
            kept.append(imported.strip())
    if kept:
        lines.insert(0, f"{indent}from llmapp import {', '.join(kept)}")
    return "\n".join(lines)


def rewritten(source: str) -> str:
    """An earlier module's source, its imports of moved modules at their new address."""
    return _FROM_ROOT.sub(_from_root, _MOVED.sub(lambda match: MOVED[match.group()], source))


def require(commit: str) -> None:
    """Fail (shallow clone, commit missing) or skip (no git) unless ``commit`` can be read."""
    try:
        known = subprocess.run(
            ["git", "-C", str(ROOT), "cat-file", "-e", f"{commit}^{{commit}}"],
            capture_output=True,
            check=False,
        )
        shallow = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--is-shallow-repository"],
            capture_output=True,
            text=True,
            check=False,
        )
    except FileNotFoundError:
        pytest.skip("git is not installed: the earlier commit cannot be read")
    if known.returncode == 0:
        return
    if shallow.returncode != 0:  # not a repository: a source archive
        pytest.skip(f"{ROOT} is not a git repository: commit {commit} cannot be read")
    how = (
        "this clone is shallow: `git fetch --unshallow` brings the history"
        if shallow.stdout.strip() == "true"
        else "fetch the project's full history (`git fetch origin`)"
    )
    pytest.fail(f"this test compares against commit {commit}, which is not here: {how}")


def extract(commit: str, into: Path) -> Path:
    """The ``src`` tree of ``commit`` unpacked under ``into`` (made if need be), for a
    differential run in a process of its own against that tree: its ``src`` path."""
    require(commit)
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit, "src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def same_outcomes(old: dict[Any, Any], new: dict[Any, Any]) -> int:
    """Assert that ``new`` (outcomes by schema, judged by today's tree) holds what ``old``
    (an earlier commit's) does, naming the first outcome that differs; how many values
    were judged (a schema's outcome is a list of them, or what refused the schema)."""
    assert old.keys() == new.keys()
    checked = 0
    for schema_id, was in old.items():
        now = new[schema_id]
        if was != now:
            for index, (one, other) in enumerate(zip(was, now, strict=True)):
                assert one == other, (schema_id, index, one, other)
        checked += len(was) if isinstance(was, list) else 0
    return checked


def load(commit: str, path: str) -> types.ModuleType:
    """The module at ``src/<path>`` in ``commit`` (see ``require``)."""
    require(commit)
    try:
        shown = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{commit}:src/{path}"],
            capture_output=True,
            text=True,
            check=False,
        )
    except FileNotFoundError:
        pytest.skip("git is not installed: the earlier module cannot be read")
    if shown.returncode != 0:
        pytest.fail(f"src/{path} is not in commit {commit}: {shown.stderr.strip()}")
    name = f"before_{commit}_" + path.removesuffix(".py").replace("/", "_")
    module = types.ModuleType(name)
    module.__file__ = f"<{commit}:{path}>"
    # Its relative imports read today's package (``from ._writer import ...``).
    module.__package__ = path.rpartition("/")[0].replace("/", ".")
    try:
        exec(compile(rewritten(shown.stdout), module.__file__, "exec"), module.__dict__)
    except ImportError as error:  # a name it imports from today's llmapp has moved
        pytest.fail(
            f"src/{path} at {commit} no longer imports against this tree: {error}; add"
            " where it went to MOVED in tests/support/before.py"
        )
    return module


def coercion(commit: str) -> Any:
    """``repair.Coercion`` as it was at ``commit``, over that commit's own ``SchemaIndex``
    (the two modules loaded beside today's, the index's names handed to the coercion)."""
    index = load(commit, "llmapp/repair/_index.py")
    coerce = load(commit, "llmapp/repair/_coerce.py")
    for name in ("ANY", "SchemaIndex", "value_accepted"):
        setattr(coerce, name, getattr(index, name))
    return coerce.Coercion
