"""The modules of llmapp import each other one way: no circle, no reach back to the root.

The graph is read from the source (``ast``), so an import inside a function counts as
much as one at the top of a module; an import under ``if TYPE_CHECKING:`` does not (it
never runs). ``from package import name`` is an edge to ``package.name`` when that is a
module, else to the package itself.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
from collections.abc import Iterable, Iterator
from pathlib import Path

from tests.support.imports import from_target, package_of, type_checking_only

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
LEAVES = ("llmapp._results", "llmapp._patterns", "llmapp.jsonschema")
"""Shared vocabulary: what a leaf reaches is other leaves and llmapp's own small helper
modules at the root (``llmapp._sentinels``, ``llmapp._lazy``), never a pipeline stage."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted((SRC / "llmapp").rglob("*.py"))}


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import that can run, at any depth (functions, classes, ``try``)."""
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                yield child
            elif isinstance(child, ast.If) and type_checking_only(child):
                pending.extend(child.orelse)
            else:
                pending.append(child)


@functools.cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of ``path``, read once for every graph and test that looks at it."""
    return ast.parse(path.read_text(encoding="utf-8"))


def imports_of(name: str) -> set[str]:
    """The llmapp modules ``name`` imports."""
    tree = parsed(MODULES[name])
    return _modules_named(name, _import_nodes(tree), set())


def _modules_named(name: str, nodes: Iterable[ast.stmt], found: set[str]) -> set[str]:
    """The llmapp modules the import ``nodes`` of ``name`` name, added to ``found``."""
    package = package_of(name, MODULES[name])
    for node in nodes:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
            continue
        assert isinstance(node, ast.ImportFrom)
        target = from_target(node, package)
        for alias in node.names:
            submodule = f"{target}.{alias.name}"
            found.add(submodule if submodule in MODULES else target)
    return {module for module in found if module in MODULES and module != name}


@functools.cache
def graph() -> dict[str, set[str]]:
    """Each llmapp module's imports that run: built on first use, so that only the worker
    that runs these tests reads the sources."""
    return {name: imports_of(name) for name in MODULES}


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
    assert "llmapp.validate" in graph()["llmapp.mcp._call"]
    # llmapp.jsonschema names its modules for type checkers only, and loads them lazily.
    assert graph()["llmapp.jsonschema"] == {"llmapp._lazy", "llmapp._sentinels"}


def test_circles_are_found_through_function_level_imports() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [frozenset({"a", "b", "c"})]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_anywhere() -> None:
    """Function-level imports count: an import moved into a function still closes a circle."""
    assert circles(graph()) == []


def test_no_subpackage_imports_the_root_package() -> None:
    reaching = {name for name, found in graph().items() if "." in name and "llmapp" in found}
    assert reaching == set(KNOWN_ROOT_IMPORTS)


def test_no_source_imports_a_sink() -> None:
    found = {
        (name, target)
        for name, targets in graph().items()
        if _within(name, SOURCES)
        for target in targets
        if _within(target, SINKS)
    }
    assert found == set(KNOWN_SINK_IMPORTS)


def reachable(name: str) -> set[str]:
    seen: set[str] = set()
    pending = [name]
    while pending:
        for target in graph()[pending.pop()] - seen:
            seen.add(target)
            pending.append(target)
    return seen


def _helper(name: str) -> bool:
    """A module of llmapp's own root helpers: a private module or subpackage at the root
    (``llmapp._lazy``, ``llmapp._codegen.source``)."""
    return name.split(".")[1].startswith("_") if name.count(".") >= 1 else False


def test_shared_vocabulary_lives_in_leaves() -> None:
    for leaf in (name for name in graph() if _within(name, LEAVES)):
        stages = {t for t in reachable(leaf) if not _within(t, LEAVES) and not _helper(t)}
        assert stages == set(), leaf


def test_a_stage_reads_results_and_patterns_from_the_leaves() -> None:
    for name, targets in graph().items():
        if _within(name, ("llmapp.repair", "llmapp.explain")):
            assert not {"llmapp.validate._result", "llmapp.validate._patterns"} & targets, name


# Every import, type-only ones included, and the homes of lazy tables.


def _every_import_node(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import, at any depth, ``if TYPE_CHECKING:`` blocks included."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node


def _lazy_homes(name: str, tree: ast.Module) -> set[str]:
    """The modules a package's lazy table (``_HOMES`` / ``_LAZY``) loads on first use."""
    found: set[str] = set()
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        value = getattr(node, "value", None)
        if not (isinstance(target, ast.Name) and target.id in {"_HOMES", "_LAZY"}):
            continue
        if not isinstance(value, ast.Dict):
            continue
        for home in value.values:
            if isinstance(home, ast.Constant) and isinstance(home.value, str):
                found.add(importlib.util.resolve_name(home.value, name))
    return found


def every_import_of(name: str, path: Path) -> set[str]:
    """Each module path ``name`` (the module in ``path``) names in an import of any kind,
    llmapp's or not."""
    package = package_of(name, path)
    tree = parsed(path)
    found = _lazy_homes(name, tree)
    for node in _every_import_node(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        else:
            found.add(from_target(node, package))
    return found


def _edges(name: str) -> set[str]:
    """``every_import_of`` as edges of the module graph (``from package import module``)."""
    tree = parsed(MODULES[name])
    return _modules_named(name, _every_import_node(tree), _lazy_homes(name, tree))


@functools.cache
def full_graph() -> dict[str, set[str]]:
    """``graph()`` with type-only imports and lazy tables' homes: every edge a reader
    follows."""
    return {name: _edges(name) for name in MODULES}


KNOWN_CIRCLES: dict[frozenset[str], str] = {}
"""Circles that only type-only imports or lazy tables close, each with why it is still here.

None of them runs at import time (``test_no_import_circle_anywhere`` proves that); the list
is exact, so a new circle fails and a broken one must be taken off."""


def test_the_full_graph_reads_type_only_imports_and_lazy_tables() -> None:
    # llmapp.jsonschema names its modules for type checkers only, and loads them lazily.
    assert graph()["llmapp.jsonschema"] < full_graph()["llmapp.jsonschema"]
    assert "llmapp.kernel._kernel" in full_graph()["llmapp.kernel"]


def test_no_new_circle_counting_type_only_imports() -> None:
    found = set(circles(full_graph()))
    assert found - set(KNOWN_CIRCLES) == set(), "a new import circle"
    assert set(KNOWN_CIRCLES) - found == set(), "a known circle is broken: take it off the list"


# Private modules belong to their package.


KNOWN_REACH_INS: dict[tuple[str, str], str] = {}
"""(importer, owner package) pairs still allowed to import the owner's private modules."""


def private_owner(module: str) -> str | None:
    """The package whose private module ``module`` is (``llmapp.kernel._kernel`` -> ``llmapp.kernel``)."""
    parts = module.split(".")
    for index, part in enumerate(parts[1:], start=1):
        if part.startswith("_") and not part.startswith("__"):
            return ".".join(parts[:index])
    return None


def reach_ins(modules: dict[str, Path] = MODULES) -> set[tuple[str, str, str]]:
    """(importer, imported, owner) for every import of a package's private module from outside.

    A module may import the private modules of its own package and of the packages it is
    inside (``llmapp.mcp._call`` may use ``llmapp._errors``, the root's own helpers), not of
    another package (``llmapp.kernel._kernel`` from ``llmapp.mcp``)."""
    found = set()
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for target in every_import_of(name, path):
            owner = private_owner(target)
            if owner is None or not target.startswith("llmapp."):
                continue
            if package == owner or package.startswith(owner + "."):
                continue
            found.add((name, target, owner))
    return found


def test_private_owner() -> None:
    assert private_owner("llmapp.kernel._kernel") == "llmapp.kernel"
    assert private_owner("llmapp._errors") == "llmapp"
    assert private_owner("llmapp.vendors.openai") is None
    assert private_owner("llmapp.mcp.__main__") is None


def test_reach_ins_are_found_in_functions_type_checking_blocks_and_lazy_tables(
    tmp_path: Path,
) -> None:
    door = tmp_path / "door.py"
    door.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from llmapp.mcp._call import call\n"
        "def run():\n"
        "    from llmapp.kernel._kernel import check_arguments\n"
        "_HOMES = {'Hit': 'llmapp.search._index'}\n",
        encoding="utf-8",
    )
    assert reach_ins({"llmapp.door": door}) == {
        ("llmapp.door", "llmapp.mcp._call", "llmapp.mcp"),
        ("llmapp.door", "llmapp.kernel._kernel", "llmapp.kernel"),
        ("llmapp.door", "llmapp.search._index", "llmapp.search"),
    }


def test_no_package_imports_another_package_s_private_module() -> None:
    found = {(name, owner) for name, _, owner in reach_ins()}
    new = sorted(
        (name, target)
        for name, target, owner in reach_ins()
        if (name, owner) not in KNOWN_REACH_INS
    )
    assert new == [], "import the package's public name instead"
    assert set(KNOWN_REACH_INS) <= found, "a known reach-in is gone: take it off the list"
