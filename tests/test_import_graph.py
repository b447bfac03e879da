"""The modules of llmapp import each other one way: no circle, no reach back to the root.

The graph is read from the source (``ast``), so an import inside a function counts as
much as one at the top of a module; an import under ``if TYPE_CHECKING:`` does not (it
never runs). ``from package import name`` is an edge to ``package.name`` when that is a
module, else to the package itself.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import llmapp

SRC = Path(llmapp.__file__).resolve().parent.parent

KNOWN_ROOT_IMPORTS: dict[str, str] = {}
"""Modules inside a subpackage that still import the root package ``llmapp``."""

KNOWN_SINK_IMPORTS: dict[tuple[str, str], str] = {}
"""(source module, sink module) imports the call kernel's rewrite removes."""

SOURCES = ("llmapp.http", "llmapp.mcp._call", "llmapp.mcp._functions")
"""Where functions come from (the OpenAPI and MCP doors); the MCP server is a sink."""
SINKS = ("llmapp.vendors", "llmapp.agents", "llmapp.streaming")
"""Where functions go (vendor exports, agent-framework toolsets)."""
LEAVES = ("llmapp._results", "llmapp._patterns", "llmapp._ecma", "llmapp.jsonschema")
"""Shared vocabulary: what a leaf reaches is other leaves and llmapp's own small helper
modules at the root (``llmapp._sentinels``, ``llmapp._lazy``), never a pipeline stage."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted((SRC / "llmapp").rglob("*.py"))}


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import that can run, at any depth (functions, classes, ``try``)."""
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child
            elif isinstance(child, ast.If) and _type_checking_only(child):
                pending.extend(child.orelse)
            else:
                pending.append(child)


def imports_of(name: str) -> set[str]:
    """The llmapp modules ``name`` imports."""
    path = MODULES[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
            continue
        if node.level:
            base = package[: len(package) - node.level + 1]
            target = ".".join([*base, node.module] if node.module else base)
        else:
            target = node.module or ""
        for alias in node.names:
            submodule = f"{target}.{alias.name}"
            found.add(submodule if submodule in MODULES else target)
    return {module for module in found if module in MODULES and module != name}


GRAPH = {name: imports_of(name) for name in MODULES}


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for start in graph:
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(frozenset(component))
    return found


def _within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def test_the_graph_reads_function_level_imports_and_skips_type_checking_ones() -> None:
    # llmapp.mcp._call imports the validator inside a function only.
    assert "llmapp.validate" in GRAPH["llmapp.mcp._call"]
    # llmapp.jsonschema names its modules for type checkers only, and loads them lazily.
    assert GRAPH["llmapp.jsonschema"] == {"llmapp._lazy", "llmapp._sentinels"}


def test_circles_are_found_through_function_level_imports() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [frozenset({"a", "b", "c"})]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_anywhere() -> None:
    """Function-level imports count: an import moved into a function still closes a circle."""
    assert circles(GRAPH) == []


def test_no_subpackage_imports_the_root_package() -> None:
    reaching = {name for name, found in GRAPH.items() if "." in name and "llmapp" in found}
    assert reaching == set(KNOWN_ROOT_IMPORTS)


def test_no_source_imports_a_sink() -> None:
    found = {
        (name, target)
        for name, targets in GRAPH.items()
        if _within(name, SOURCES)
        for target in targets
        if _within(target, SINKS)
    }
    assert found == set(KNOWN_SINK_IMPORTS)


def reachable(name: str) -> set[str]:
    seen: set[str] = set()
    pending = [name]
    while pending:
        for target in GRAPH[pending.pop()] - seen:
            seen.add(target)
            pending.append(target)
    return seen


def _helper(name: str) -> bool:
    """A module at the root of llmapp other than the package itself (``llmapp._lazy``)."""
    return name.count(".") == 1 and name.split(".")[1].startswith("_")


def test_shared_vocabulary_lives_in_leaves() -> None:
    for leaf in (name for name in GRAPH if _within(name, LEAVES)):
        stages = {t for t in reachable(leaf) if not _within(t, LEAVES) and not _helper(t)}
        assert stages == set(), leaf


def test_a_stage_reads_results_and_patterns_from_the_leaves() -> None:
    for name, targets in GRAPH.items():
        if _within(name, ("llmapp.repair", "llmapp.explain")):
            assert not {"llmapp.validate._result", "llmapp.validate._patterns"} & targets, name
