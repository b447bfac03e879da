"""Imports read from source, without running them: the package a module's relative imports
start from, the module a ``from`` statement reads, and the ``if`` blocks only a type checker
runs. The import-graph test and the collection test read imports alike through these."""

from __future__ import annotations

import ast
from pathlib import Path


def package_of(module: str, path: Path) -> list[str]:
    """The package ``module`` (the file at ``path``) resolves relative imports against."""
    parts = module.split(".")
    return parts if path.name == "__init__.py" else parts[:-1]


def from_target(node: ast.ImportFrom, package: list[str]) -> str:
    """The module ``from ... import`` reads from, its leading dots resolved in ``package``."""
    if not node.level:
        return node.module or ""
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def type_checking_only(node: ast.If) -> bool:
    """Whether ``node`` is ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )
