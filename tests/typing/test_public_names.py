"""What type checkers see of a lazily loaded package is what it serves at run time.

Each package that loads its names on first use (``llmapp._lazy``) writes them twice: as
imports under ``if TYPE_CHECKING:`` (read by mypy and IDEs) and as its table of homes (read
at run time). The two must name the same objects, and ``llmapp``'s must cover ``__all__``:
a name missing from the imports is ``Any`` to mypy, one missing from the table fails on use.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest

import llmapp

SRC = Path(llmapp.__file__).resolve().parent.parent
LAZY_PACKAGES = sorted(
    ".".join(path.relative_to(SRC).parent.parts)
    for path in (SRC / "llmapp").rglob("__init__.py")
    if "_lazy_names(__name__" in path.read_text(encoding="utf-8")
)


def type_checking_imports(package: str) -> dict[str, str]:
    """Name -> absolute module of each import under ``if TYPE_CHECKING:`` in ``package``."""
    path = Path(importlib.util.find_spec(package).origin)  # type: ignore[arg-type, union-attr]
    imports: dict[str, str] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom), ast.dump(statement)
                module = "." * statement.level + (statement.module or "")
                for alias in statement.names:
                    imports[alias.asname or alias.name] = importlib.util.resolve_name(
                        module, package
                    )
    return imports


def lazy_table(package: str) -> dict[str, str]:
    module = importlib.import_module(package)
    table = getattr(module, "_HOMES", None) or module._LAZY
    return {name: importlib.util.resolve_name(home, package) for name, home in table.items()}


def test_every_lazy_package_is_checked():
    assert {"llmapp", "llmapp.repair", "llmapp.validate"} <= set(LAZY_PACKAGES)


@pytest.mark.parametrize("package", LAZY_PACKAGES)
def test_type_checking_imports_are_the_lazy_table(package: str):
    imports, table = type_checking_imports(package), lazy_table(package)
    assert sorted(imports) == sorted(table)
    for name, home in table.items():
        served = getattr(importlib.import_module(package), name)
        assert getattr(importlib.import_module(imports[name]), name) is served, name
        assert getattr(importlib.import_module(home), name) is served, name


def test_llmapp_types_every_public_name():
    assert type_checking_imports("llmapp") == lazy_table("llmapp")
    assert set(type_checking_imports("llmapp")) == set(llmapp.__all__) - {"__version__"}
    for name in ("controls", "CallContext", "Approval", "Controls"):
        assert name in type_checking_imports("llmapp")
