"""``llmapp._limits``: every depth and size bound in one module, one ``too_deep``, one ``cut``."""

from __future__ import annotations

import ast
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmapp import _limits
from llmapp._limits import cut, too_deep

SRC = Path(_limits.__file__).parent

VENDOR_RULES = {"vendors/openai.py", "vendors/anthropic.py"}
"""A vendor's documented rules, stated by that vendor's module with its other rules."""


def _depth_bounds_defined(path: Path) -> list[str]:
    """Names of depth bounds (``MAX_DEPTH``, ``_MAX_HOPS``...) a module binds to a number
    of its own at its top level (an import or an alias of another name is no definition)."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if not isinstance(target, ast.Name) or isinstance(value, ast.Name):
            continue
        name = target.id
        if "MAX" in name and any(word in name for word in ("DEPTH", "NESTING", "LEVEL", "HOPS")):
            found.append(name)
    return found


def test_no_depth_bound_is_defined_outside_the_limits_module() -> None:
    strays = {}
    for path in sorted(SRC.rglob("*.py")):
        relative = path.relative_to(SRC).as_posix()
        if relative == "_limits.py" or relative in VENDOR_RULES:
            continue
        names = _depth_bounds_defined(path)
        if names:
            strays[relative] = names
    assert strays == {}


_HAND_CUT = re.compile(r"""\]\s*\+\s*(["'])(…|\\u2026)\1""")


def test_no_text_is_cut_by_hand() -> None:
    # ``text[:n] + "…"`` is what ``cut`` writes; a message that tells how much it left
    # out (``… (cut: N characters in all, ...)``) writes its own count and is not matched.
    strays = [
        path.relative_to(SRC).as_posix()
        for path in sorted(SRC.rglob("*.py"))
        if path.name != "_limits.py" and _HAND_CUT.search(path.read_text(encoding="utf-8"))
    ]
    assert strays == []


def test_every_bound_is_documented_and_used() -> None:
    source = (SRC / "_limits.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    documented = {
        node.target.id
        for node, after in zip(tree.body, tree.body[1:])
        if isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and isinstance(after, ast.Expr)
        and isinstance(after.value, ast.Constant)
    }
    bounds = {name for name in _limits.__all__ if name.isupper()}
    assert bounds == documented
    users = "".join(
        path.read_text(encoding="utf-8") for path in SRC.rglob("*.py") if path.name != "_limits.py"
    )
    assert {name for name in bounds if name not in users} == set()


def _nested(levels: int, leaf: Any = 1) -> Any:
    value = leaf
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize(
    ("value", "limit", "expected"),
    [
        (1, 0, False),
        ([], 0, False),  # an empty container past the limit is what a cut leaves
        ([1], 0, True),
        (_nested(100), 100, False),
        (_nested(101), 100, True),
        (_nested(100, []), 100, False),
        (_nested(101, []), 100, True),
        ({"a": {"b": [1]}}, 3, False),
        ({"a": {"b": [1]}}, 2, True),
    ],
)
def test_too_deep_counts_non_empty_containers(value: Any, limit: int, expected: bool) -> None:
    assert too_deep(value, limit) is expected


def test_too_deep_finds_a_cycle() -> None:
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    assert too_deep(cyclic, 50)


def test_too_deep_walks_a_shared_container_once_per_depth() -> None:
    # Each level holds the next twice: walked once per place, the check would take 2**60 steps.
    value: Any = [1]
    for _ in range(60):
        value = [value, value]
    start = time.perf_counter()
    assert not too_deep(value, 100)
    assert too_deep(value, 60)
    assert time.perf_counter() - start < 1.0


def _too_deep_per_place(value: Any, limit: int) -> bool:
    """The walk before sharing was remembered: every place walked (the reference)."""
    pending = [(value, 1)]
    while pending:
        node, depth = pending.pop()
        if not isinstance(node, (dict, list)) or not node:
            continue
        if depth > limit:
            return True
        pending.extend(
            (item, depth + 1) for item in (node.values() if isinstance(node, dict) else node)
        )
    return False


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=3),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=2), children, max_size=3)
    ),
    max_leaves=30,
)


@given(json_values, st.integers(min_value=0, max_value=8))
def test_too_deep_agrees_with_walking_every_place(value: Any, limit: int) -> None:
    assert too_deep(value, limit) is _too_deep_per_place(value, limit)


def test_cut_keeps_a_short_text() -> None:
    assert cut("short", 5) == "short"
    assert cut("short", 5, within=True) == "short"
    assert cut("short", 5, quote=json.dumps) == '"short"'


def test_cut_shows_the_first_characters() -> None:
    assert cut("abcdefgh", 3) == "abc…"


def test_cut_within_a_bound_counts_the_ellipsis_and_drops_the_blank_before_it() -> None:
    assert cut("abc defgh", 5, within=True) == "abc…"
    assert len(cut("x" * 500, 200, within=True)) == 200


def test_cut_puts_the_ellipsis_after_the_quotes() -> None:
    assert cut('ab"cdef', 3, quote=json.dumps) == '"ab\\""…'
