"""Validated JSON -> Python objects, compiled once per type node into closures.

A node whose JSON value is already its Python value (``str``, ``list[int]``, a
TypedDict of plain fields) compiles to ``None`` -- "use it as it is" -- and so
does a container of such nodes, so converting them costs nothing. Named types
are compiled once per ``TypeGraph`` definition; a recursive type is reached
through a forward reference placed in the cache before its fields are compiled.
Whether a definition needs converting at all is solved first, as a least
fixed point over the definitions it reaches, because recursion makes the answer
depend on itself.
"""

from __future__ import annotations

import collections
import collections.abc as abc
from collections.abc import Callable, Iterator
from typing import Any

from .._codegen.source import Emitter, compile_function
from ..introspect.model import (
    AliasDef,
    ArrayNode,
    Definition,
    DictNode,
    EnumDef,
    Field,
    IntegerNode,
    Node,
    RefNode,
    TupleNode,
    TypeGraph,
    TypeKey,
    UnionNode,
)
from ._error import ConversionError, failure, item_at
from ._nulls import accepts_null
from ._objects import compile_object
from ._readers import PURE
from ._scalars import Converter, enum_converter, scalar_converter, to_int, type_name
from ._unions import Matchers, compile_union

__all__ = ["Compiler", "compile_converter"]


def _identity(value: Any) -> Any:
    return value


# Abstract or builtin targets of an array -> the concrete type to build; None keeps the list.
_SEQUENCE_TARGETS: dict[Any, Any] = {
    list: None,
    abc.Sequence: None,
    abc.MutableSequence: None,
    abc.Collection: None,
    abc.Iterable: None,
    tuple: tuple,
    set: set,
    abc.MutableSet: set,
    frozenset: frozenset,
    abc.Set: frozenset,
    collections.deque: collections.deque,
}
_MAPPING_TARGETS: dict[Any, Any] = {dict: None, abc.Mapping: None, abc.MutableMapping: None}


# The builtin containers an array becomes are functions of the list alone too: a list of
# sets (``list[frozenset[str]]``) is mapped as a list of readers' values is.
PURE.update({tuple, set, frozenset, collections.deque})


def _container_target(python_type: Any, table: dict[Any, Any]) -> Any:
    if python_type is None:
        return None
    return table.get(python_type, python_type)


class Compiler:
    """Compiles nodes of one ``TypeGraph`` into converters, sharing named types."""

    def __init__(self, graph: TypeGraph) -> None:
        self.graph = graph
        self._needs: dict[TypeKey, bool] = {}
        self._definitions: dict[TypeKey, Converter | None] = {}
        self._scalars: dict[Any, Converter | None] = {}
        """One converter per Python type: the branches of ``datetime``'s union (aware or
        local text) share it, so the union knows they convert alike."""
        self.matchers = Matchers(self)

    # -- public entry points ---------------------------------------------------------------

    def compile(self, node: Node) -> Converter | None:
        """The converter for ``node``, or ``None`` when its JSON value is used as it is."""
        if not self.needs(node):
            return None
        handler = _HANDLERS.get(type(node), Compiler._scalar)
        return handler(self, node)

    def definition(self, key: TypeKey) -> Definition:
        try:
            return self.graph.definitions[key]
        except KeyError:
            raise LookupError(f"{key!r} is used but not defined in the type graph") from None

    def describe(self, node: Node) -> str:
        """What ``node`` becomes, for error messages (``datetime``, ``Order``, ``list``)."""
        if isinstance(node, RefNode):
            return self.definition(node.key).name
        if node.python_type is not None:
            return type_name(node.python_type)
        return type(node).__name__.removesuffix("Node").lower()

    def text_members(self, node: Node) -> dict[str, Any] | None:
        """Value -> member of an Enum whose values are all strings, when ``node`` is one:
        generated code looks a member up inline instead of calling its converter (a
        string never equals another type's value, so the lookup is exact)."""
        if not isinstance(node, RefNode):
            return None
        definition = self.graph.definitions.get(node.key)
        if not isinstance(definition, EnumDef):
            return None
        members = {member.value: member for member in definition.cls}
        return members if all(type(value) is str for value in members) else None

    def drops_null(self, field: Field) -> bool:
        """``null`` for an optional field that cannot be null means "not given" (strict mode)."""
        return not field.required and not accepts_null(field.type, self.graph)

    # -- does a node need converting? -----------------------------------------------------

    def needs(self, node: Node) -> bool:
        """Whether ``node``'s JSON value differs from its Python value."""
        if isinstance(node, RefNode):
            if node.key not in self._needs:
                self._solve(node.key)
            return self._needs[node.key]
        if isinstance(node, ArrayNode):
            target = _container_target(node.python_type, _SEQUENCE_TARGETS)
            return target is not None or self.needs(node.item)
        if isinstance(node, TupleNode):
            return True  # a JSON array becomes a tuple
        if isinstance(node, DictNode):
            target = _container_target(node.python_type, _MAPPING_TARGETS)
            return target is not None or self.needs(node.value)
        if isinstance(node, UnionNode):
            return any(self.needs(option) for option in node.options)
        return self._scalar(node) is not None

    def _definition_needs(self, definition: Definition) -> bool:
        if isinstance(definition, AliasDef):
            return self.needs(definition.type)
        if isinstance(definition, EnumDef) or definition.kind != "typeddict":
            return True
        # A TypedDict keeps its JSON keys, so only its values and strict-mode nulls matter.
        return any(
            self.needs(field.type) or self.drops_null(field) for field in definition.fields
        ) or (definition.additional is not None and self.needs(definition.additional))

    def _solve(self, root: TypeKey) -> None:
        # Least fixed point: assume every newly reached definition is plain, then mark
        # the ones that need converting until nothing changes.
        reached = [key for key in self._reach(root) if key not in self._needs]
        self._needs.update(dict.fromkeys(reached, False))
        changed = True
        while changed:
            changed = False
            for key in reached:
                if not self._needs[key] and self._definition_needs(self.definition(key)):
                    self._needs[key] = True
                    changed = True

    def _reach(self, root: TypeKey) -> Iterator[TypeKey]:
        seen = {root}
        stack = [root]
        while stack:
            key = stack.pop()
            yield key
            definition = self.definition(key)
            for child in _refs(_children(definition)):
                if child not in seen and child not in self._needs:
                    seen.add(child)
                    stack.append(child)

    # -- handlers, one per node kind ------------------------------------------------------

    def _scalar(self, node: Node) -> Converter | None:
        python_type = node.python_type
        if isinstance(node, IntegerNode) and python_type is None:
            # JSON Schema counts 3.0 as an integer, and the validator agrees; code that
            # declared ``int`` gets 3, as pydantic would give it.
            python_type = int
        try:
            return self._scalars[python_type]
        except KeyError:
            converter = self._scalars[python_type] = scalar_converter(python_type)
            return converter
        except TypeError:  # an unhashable callable as the type: compiled each time
            return scalar_converter(python_type)

    def _ref(self, node: RefNode) -> Converter | None:
        key = node.key
        if key in self._definitions:
            return self._definitions[key]
        cell: list[Converter] = []

        def forward(value: Any) -> Any:
            return cell[0](value)

        self._definitions[key] = forward  # recursion reaches this until the real one exists
        definition = self.definition(key)
        if isinstance(definition, EnumDef):
            converter: Converter = enum_converter(definition.cls)
        elif isinstance(definition, AliasDef):
            converter = self.compile(definition.type) or _identity
        else:
            converter = compile_object(self, definition)
        cell.append(converter)
        self._definitions[key] = converter
        return converter

    def _array(self, node: ArrayNode) -> Converter | None:
        item = self.compile(node.item)
        target = _container_target(node.python_type, _SEQUENCE_TARGETS)
        if item is None:
            return target  # type: ignore[no-any-return]
        if item is to_int:
            return _integers(target)
        expected = self.describe(node.item)

        def convert(value: Any) -> Any:
            out: list[Any] = []
            append = out.append
            try:
                for element in value:
                    append(item(element))
            except Exception as error:
                index = len(out)
                raise failure(error, index, expected, item_at(value, index)) from None
            return out if target is None else target(out)

        if item not in PURE:
            return convert

        def mapped(value: Any) -> Any:
            # The loop above, without its frame per item: a refusal is found again by it,
            # which is sound for a reader alone (it depends on its value only).
            try:
                out = list(map(item, value))
            except Exception:
                return convert(value)
            return out if target is None else target(out)

        PURE.add(mapped)
        return mapped

    def _tuple(self, node: TupleNode) -> Converter | None:
        steps = [(self.compile(item), self.describe(item)) for item in node.items]
        if all(step is None for step, _ in steps):
            return tuple

        def convert(value: Any) -> Any:
            out: list[Any] = []
            try:
                for (step, _), element in zip(steps, value, strict=False):
                    out.append(element if step is None else step(element))
            except Exception as error:
                index = len(out)
                raise failure(error, index, steps[index][1], item_at(value, index)) from None
            return tuple(out)

        if not all(step is None or step in PURE for step, _ in steps):
            return convert
        return _positions([step for step, _ in steps], convert)

    def _dict(self, node: DictNode) -> Converter | None:
        item = self.compile(node.value)
        target = _container_target(node.python_type, _MAPPING_TARGETS)
        if item is None:
            return target  # type: ignore[no-any-return]
        if item is to_int and target is None:
            return _integer_values
        expected = self.describe(node.value)

        def convert(value: Any) -> Any:
            out: dict[str, Any] = {}
            key: Any = None
            try:
                for key, element in value.items():
                    out[key] = item(element)
            except Exception as error:
                raise failure(error, key, expected, item_at(value, key)) from None
            return out if target is None else target(out)

        if item not in PURE:
            return convert

        def mapped(value: Any) -> Any:
            # As in ``_array``: the loop above finds the key of a refusal again.
            try:
                out = dict(zip(value, map(item, value.values()), strict=False))
            except Exception:
                return convert(value)
            return out if target is None else target(out)

        PURE.add(mapped)
        return mapped

    def _union(self, node: UnionNode) -> Converter | None:
        return compile_union(self, node)


def _positions(steps: list[Converter | None], convert: Converter) -> Converter:
    """A tuple of readers' values as one expression over the positions, without the loop's
    frame work per item; any other value, or a refusal, goes to the loop (``convert``),
    which names the index (the steps depend on their value alone, so may run again)."""
    namespace: dict[str, Any] = {"loop": convert}
    items = []
    for index, step in enumerate(steps):
        namespace[f"c{index}"] = step
        items.append(f"value[{index}]" if step is None else f"c{index}(value[{index}])")
    emit = Emitter()
    with emit.block("def positions(value):"):
        with emit.block("try:"), emit.block(f"if len(value) == {len(steps)}:"):
            emit.line(f"return ({', '.join(items)},)")
        with emit.block("except Exception:"):
            emit.line("pass")
        emit.line("return loop(value)")
    made: Converter = compile_function("positions", emit.take(), namespace, origin="convert")
    PURE.add(made)
    return made


def _integers(target: Any) -> Converter:
    """A list of integers: the same list unless it holds a float like 3.0 (checked at C speed)."""

    def convert(value: Any) -> Any:
        if float in set(map(type, value)):
            value = [int(item) if type(item) is float else item for item in value]
        return value if target is None else target(value)

    return convert


def _integer_values(value: Any) -> Any:
    """A dict of integers: the same dict unless a value is a float like 3.0."""
    if float not in set(map(type, value.values())):
        return value
    return {key: int(item) if type(item) is float else item for key, item in value.items()}


def _children(definition: Definition) -> list[Node]:
    """The nodes a definition is made of."""
    if isinstance(definition, EnumDef):
        return []
    if isinstance(definition, AliasDef):
        return [definition.type]
    nodes = [field.type for field in definition.fields]
    if definition.additional is not None:
        nodes.append(definition.additional)
    return nodes


def _refs(nodes: list[Node]) -> Iterator[TypeKey]:
    """Keys of the definitions used directly by ``nodes`` (not through other definitions)."""
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, RefNode):
            yield node.key
        elif isinstance(node, ArrayNode):
            stack.append(node.item)
        elif isinstance(node, TupleNode):
            stack.extend(node.items)
        elif isinstance(node, DictNode):
            stack.append(node.value)
        elif isinstance(node, UnionNode):
            stack.extend(node.options)


_HANDLERS: dict[type[Node], Callable[[Compiler, Any], Converter | None]] = {
    RefNode: Compiler._ref,
    ArrayNode: Compiler._array,
    TupleNode: Compiler._tuple,
    DictNode: Compiler._dict,
    UnionNode: Compiler._union,
}


def compile_converter(node: Node, graph: TypeGraph) -> Callable[[Any], Any]:
    """Compile the conversion of one validated JSON value of type ``node`` to Python.

    Run it only on data that passed validation against ``node``'s schema.

    Args:
        node: the type, from the neutral type model.
        graph: the named types ``node`` may refer to.

    Returns:
        A function from the JSON value to the Python value; it returns values
        with nothing to convert as they are (the same object, not a copy).
        It raises ``ConversionError`` (with the path from ``$input``) when the
        Python side refuses a value the schema allowed.

    Example:
        >>> from datetime import datetime
        >>> from llmapp.introspect.model import StringNode, TypeGraph
        >>> when = StringNode(format="date-time", python_type=datetime)
        >>> compile_converter(when, TypeGraph())("2024-05-01T12:00:00Z").year
        2024
    """
    converter = Compiler(graph).compile(node)
    if converter is None:
        return _identity
    expected = Compiler(graph).describe(node)

    def convert(value: Any) -> Any:
        try:
            return converter(value)
        except ConversionError:
            raise
        except Exception as error:
            raise ConversionError(expected, value, error) from None

    return convert
