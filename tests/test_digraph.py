"""``llmapp._digraph``: reachability and cycles in ``{node: successors}`` graphs."""

from __future__ import annotations

from llmapp._digraph import on_cycles, reachable

EDGES = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": [], "e": ["e"], "f": ["a", "x"]}


def test_reachable_follows_every_path_and_includes_the_start_only_through_a_cycle() -> None:
    assert reachable(EDGES, "a") == {"a", "b", "c", "d"}
    assert reachable(EDGES, "d") == set()
    assert reachable(EDGES, "f") == {"a", "b", "c", "d", "x"}  # "x" has no entry: a leaf


def test_on_cycles_are_the_nodes_reaching_themselves() -> None:
    assert on_cycles(EDGES) == {"a", "b", "c", "e"}
    assert on_cycles({}) == frozenset()
