"""What the object and union converters ask of the compiler that calls them.

``Compiler`` (``_to_python``) hands a named object to ``compile_object`` and a union to
``compile_union``, which compile their fields and branches with it in turn. They know it
by this protocol alone, so neither imports the module that imports them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from ..introspect.model import Definition, Field, Node, TypeKey
from ._scalars import Converter

__all__ = ["NodeCompiler", "ShapeMatchers"]


class ShapeMatchers(Protocol):
    """Structural matchers for the nodes of one graph (``_unions.Matchers``)."""

    def of(self, node: Node) -> Callable[[Any], bool]:
        """Whether a JSON value has the shape of ``node``."""
        ...

    def fidelity(self, node: Node) -> int:
        """What ``of(node)`` says of a value validated against ``node``."""
        ...


class NodeCompiler(Protocol):
    """The compiler of one ``TypeGraph``'s nodes (``_to_python.Compiler``)."""

    @property
    def matchers(self) -> ShapeMatchers:
        """The graph's structural matchers, shared by every union."""
        ...

    def compile(self, node: Node) -> Converter | None:
        """The converter for ``node``, or ``None`` when its JSON value is used as it is."""
        ...

    def definition(self, key: TypeKey) -> Definition:
        """The named type ``key`` of the graph."""
        ...

    def describe(self, node: Node) -> str:
        """What ``node`` becomes, for error messages."""
        ...

    def text_members(self, node: Node) -> dict[str, Any] | None:
        """Value -> member of an all-string Enum, when ``node`` is one."""
        ...

    def drops_null(self, field: Field) -> bool:
        """Whether ``null`` for ``field`` means "not given"."""
        ...
