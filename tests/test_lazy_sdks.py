"""Collecting the tests imports no heavy SDK.

Every xdist worker imports every test module, so an SDK that a test module (or a module it
imports at its top, here or in ``src``) imports as it loads is paid for by every worker,
whether or not it runs one of that SDK's tests. The tests import these SDKs in the tests
and fixtures that use them, and mark what they need with ``tests.support.sdk.needs``.

Read from the source (no import), following each module's top-level imports: an import
under ``if TYPE_CHECKING:`` or inside a function does not run at collection.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from tests.support.imports import from_target, package_of, type_checking_only
from tests.support.sdk import needs

ROOT = Path(__file__).resolve().parents[1]
# Where the modules the tests import at their top are read from.
BASES = {"tests": ROOT, "benchmarks": ROOT, "llmapp": ROOT / "src"}
# Each costs a worker a second or more to import; `mcp` is left out: the MCP tests need it
# in most of their modules, so every worker imports it anyway.
HEAVY = {
    "anthropic",
    "openai",
    "google",
    "agents",
    "pydantic_ai",
    "llama_index",
    "fastmcp",
    "langchain_core",
    "langgraph",
    "langsmith",
    "fastapi",
}


def _path(module: str) -> Path | None:
    parts = module.split(".")
    base = BASES.get(parts[0])
    if base is None:
        return None
    where = base.joinpath(*parts)
    for candidate in (where.with_suffix(".py"), where / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported(node: ast.stmt, package: list[str]) -> Iterator[str]:
    """The modules one top-level statement imports (a name imported from a module may be
    a submodule: both are given)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = from_target(node, package)
        yield base
        yield from (f"{base}.{alias.name}" for alias in node.names)
    elif isinstance(node, (ast.Expr, ast.Assign)) and isinstance(node.value, ast.Call):
        call = node.value  # pytest.importorskip("x") imports x
        if ast.unparse(call.func).endswith("importorskip") and call.args:
            argument = call.args[0]
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                yield argument.value


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements that run as the module loads (conditions and ``try`` included)."""
    for node in body:
        if isinstance(node, ast.If):
            if not type_checking_only(node):
                yield from _statements(node.body)
            yield from _statements(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, *(h.body for h in node.handlers), node.orelse):
                yield from _statements(block)
            yield from _statements(node.finalbody)
        else:
            yield node


@cache
def _imports(module: str) -> tuple[str, ...]:
    """What ``module`` imports as it loads: its parent packages, then its top-level imports."""
    path = _path(module)
    if path is None:
        return ()
    package = package_of(module, path)
    parents = [".".join(module.split(".")[:i]) for i in range(1, module.count(".") + 1)]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return (*parents, *(n for s in _statements(tree.body) for n in _imported(s, package)))


CLEAN: set[str] = set()  # modules known to import no heavy SDK as they load


def _heavy(module: str) -> list[str]:
    """The chain from ``module`` to the first heavy SDK it imports as it loads, or []."""
    came_from: dict[str, str] = {module: ""}
    queue = [module]
    while queue:
        current = queue.pop(0)
        if current.split(".")[0] in HEAVY:
            chain = [current]
            while came_from[chain[0]]:
                chain.insert(0, came_from[chain[0]])
            return chain
        for name in _imports(current):
            if name not in came_from and name not in CLEAN:
                came_from[name] = current
                queue.append(name)
    CLEAN.update(came_from)  # all they reach was searched: nothing heavy
    return []


def test_no_test_module_imports_a_heavy_sdk_at_collection() -> None:
    modules = sorted(
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in (ROOT / "tests").rglob("*.py")
        if path.name.startswith("test_") or path.name == "conftest.py"
    )
    assert len(modules) > 100
    heavy = [" -> ".join(chain) for module in modules if (chain := _heavy(module))]
    assert heavy == [], "imported at collection:\n" + "\n".join(heavy)


@needs(
    "google.genai", "llama_index.core", reason="google-genai and LlamaIndex are in the dev extra"
)
def test_needs_finds_a_dotted_package_without_importing_it_or_its_parent() -> None:
    script = (
        "import sys\n"
        "from tests.support.sdk import installed, needs\n"
        "assert installed('google.genai') and installed('llama_index.core')\n"
        "assert not installed('google.no_such_sdk') and not installed('no_such_sdk.core')\n"
        "assert not {'google', 'llama_index'} & {name.split('.')[0] for name in sys.modules}\n"
        "assert needs('no_such_sdk').args == (True,)\n"
        "assert needs('json', 'google.genai').args == (False,)\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=ROOT, check=True)
