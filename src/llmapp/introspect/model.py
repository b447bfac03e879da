"""The neutral type model: what introspection learns about Python types.

One small frozen record (``_record.Record``) per kind of type, constraints as
fields, metadata in ``Meta``. Named types (dataclasses, TypedDicts, NamedTuples, pydantic models,
Enums) live once in ``TypeGraph.definitions`` and are used through ``RefNode``,
which is how recursion works: a definition's key is reserved before its fields
are built. Nothing here knows JSON Schema; the schema emitter and the
converter read this model only.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from types import MappingProxyType
from typing import Any, Literal

from llmapp._records.record import Record
from llmapp._sentinels import MISSING

__all__ = [
    "NO_DEFAULT",
    "NO_META",
    "AliasDef",
    "AnyNode",
    "ArrayNode",
    "BooleanNode",
    "ContextParameter",
    "Definition",
    "DictNode",
    "EnumDef",
    "Field",
    "IntegerNode",
    "LiteralNode",
    "Meta",
    "MethodSpec",
    "Node",
    "NullNode",
    "NumberNode",
    "ObjectDef",
    "ParameterSpec",
    "RefNode",
    "StringNode",
    "TupleNode",
    "TypeGraph",
    "TypeKey",
    "UnionNode",
]

TypeKey = Hashable
"""Identity of a named type: the class, or the parametrised generic alias."""

LiteralValue = str | int | float | bool | None


NO_DEFAULT: Any = MISSING
"""Marks a parameter or field without a default value."""


class Meta(Record):
    """Metadata that any type may carry; the schema shows it, validation ignores it."""

    title: str | None = None
    description: str | None = None
    examples: tuple[Any, ...] = ()
    human: bool = False
    """Only a human may compose this value (llmapp's ``Human`` marker)."""


NO_META = Meta()


class Node(Record):
    """Base of every type node.

    ``python_type`` is the Python type that validated JSON becomes on
    conversion (``datetime``, ``set``, ``Decimal``, ...); ``None`` means the
    JSON value is used as it is.
    """

    meta: Meta = NO_META
    python_type: Any = None


class StringNode(Node):
    min_length: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    format: str | None = None
    content_encoding: str | None = None
    content_media_type: str | None = None


class _NumericNode(Node):
    ge: int | float | None = None
    gt: int | float | None = None
    le: int | float | None = None
    lt: int | float | None = None
    multiple_of: int | float | None = None


class IntegerNode(_NumericNode):
    pass


class NumberNode(_NumericNode):
    pass


class BooleanNode(Node):
    pass


class NullNode(Node):
    pass


class AnyNode(Node):
    """Any JSON value (``Any``, ``object``)."""


class LiteralNode(Node):
    """One of a fixed set of JSON scalars (``Literal[...]``)."""

    values: tuple[LiteralValue, ...]


class ArrayNode(Node):
    """A homogeneous sequence: list, Sequence, ``tuple[T, ...]``, set, frozenset."""

    item: Node
    min_items: int | None = None
    max_items: int | None = None
    unique_items: bool = False


class TupleNode(Node):
    """A fixed-length tuple, one type per position."""

    items: tuple[Node, ...]


class DictNode(Node):
    """A mapping with string keys and values of one type."""

    value: Node
    min_properties: int | None = None
    max_properties: int | None = None


class UnionNode(Node):
    """Any one of several types (``X | Y``, ``Optional[X]``)."""

    options: tuple[Node, ...]


class RefNode(Node):
    """A use of a named type kept in ``TypeGraph.definitions``."""

    key: TypeKey


class Field(Record):
    """One field of an object type, or one parameter of a method."""

    name: str
    type: Node
    required: bool = True
    default: Any = NO_DEFAULT
    description: str | None = None
    python_name: str | None = None
    """The attribute or argument name in Python, when it differs from ``name``."""


class _NamedDef(Record):
    key: TypeKey
    name: str
    """Display name, sanitised for JSON Schema (``Page_Product_``)."""
    module: str
    qualname: str
    cls: Any
    description: str | None = None
    title: str | None = None


class ObjectDef(_NamedDef):
    """A named object: dataclass, TypedDict, NamedTuple or pydantic model."""

    kind: Literal["dataclass", "typeddict", "namedtuple", "pydantic", "class"]
    fields: tuple[Field, ...]
    additional: Node | None = None
    """Schema of extra keys, or ``None`` when extra keys are not allowed."""


class EnumDef(_NamedDef):
    """A named ``enum.Enum``; ``values`` are its members' values, in order, and ``names``
    their names, parallel to ``values`` (empty when not known)."""

    values: tuple[LiteralValue, ...]
    names: tuple[str, ...] = ()


class AliasDef(_NamedDef):
    """A type alias that refers to itself (``Tree = list["Tree"]``, a recursive ``TypeAliasType``).

    Only recursive aliases become definitions; any other alias is inlined where used.
    ``cls`` holds the alias object.
    """

    type: Node


Definition = ObjectDef | EnumDef | AliasDef


class TypeGraph(Record):
    """Every named type reached from a class's methods."""

    definitions: Mapping[TypeKey, Definition] = MappingProxyType({})


class ContextParameter(Record):
    """A parameter whose value the caller supplies per call, found by its type."""

    name: str
    type: Any
    """The class a value must be an instance of."""
    required: bool = True


class ParameterSpec(Field):
    """One parameter of a method as the LLM sees it.

    ``from_kwargs`` is true for keys spread from ``**kwargs: Unpack[TD]``.
    """

    positional_only: bool = False
    from_kwargs: bool = False


class MethodSpec(Record):
    """What introspection learned about one public method."""

    name: str
    """The method's name (what a call runs)."""
    kind: Literal["instance", "static", "class"]
    is_async: bool
    parameters: tuple[ParameterSpec, ...]
    returns: Node | None
    """``None`` when the method returns ``None``; coroutines are unwrapped."""
    description: str | None = None
    summary: str | None = None
    title: str | None = None
    returns_description: str | None = None
    tags: tuple[str, ...] = ()
    deprecated: bool = False
    deprecation: str | None = None
    """Why it is deprecated: the ``@deprecated`` text, or PEP 702's message."""
    exposed: str | None = None
    """The function's name as the model sees it (``@name``), when not ``name``."""
    human: bool = False
    """``@human``: a function for humans only, never given to the LLM."""
    approval: bool = False
    """``@approval`` (or ``@tag destructive``): each call waits for a human's approval."""
    timeout: float | None = None
    """``@timeout SECONDS``: most seconds one call may take."""
    context: tuple[ContextParameter, ...] = ()
    """Parameters the caller supplies per call by type (``llmapp.introspect._context``)."""
