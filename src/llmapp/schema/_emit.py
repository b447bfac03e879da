"""The type model -> LLM schemas (JSON Schema 2020-12 dicts with ``$defs``/``$ref``).

This module reads ``llmapp.introspect.model`` only. Each node kind has one
row in ``_EMITTERS``. Names of ``$defs`` are fixed once per emitter over the
whole graph (``_naming``), and each schema carries only the definitions it
reaches, so the same classes always give byte-identical JSON.

``reference=False`` copies every named type in place except recursive ones,
which always stay ``$ref``s. ``strict=True`` applies OpenAI's structured-output
rules to parameters schemas; ``_strict`` documents exactly what that changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, NamedTuple

from llmapp._errors import BuildProblem
from llmapp._scalars.table import NUMERIC_TEXT_FORMATS
from llmapp.introspect.model import (
    NO_DEFAULT,
    NO_META,
    AnyNode,
    ArrayNode,
    BooleanNode,
    Definition,
    DictNode,
    EnumDef,
    Field,
    IntegerNode,
    LiteralNode,
    Meta,
    Node,
    NullNode,
    NumberNode,
    ObjectDef,
    ParameterSpec,
    RefNode,
    StringNode,
    TupleNode,
    TypeGraph,
    TypeKey,
    UnionNode,
)
from llmapp.jsonschema import ENUM_NAMES
from llmapp.schema._discriminators import declare_discriminators
from llmapp.schema._naming import assign_names, recursive_keys
from llmapp.schema._predicates import HUMAN_KEYWORD
from llmapp.schema._strict import make_strict
from llmapp.schema._values import UNREPRESENTABLE, json_value

__all__ = ["EmittedParameters", "SchemaEmitter", "enum_schema"]


Schema = dict[str, Any]


class _Emitted(NamedTuple):
    """A node's schema as first emitted, and what emitting it recorded on its run."""

    node: Node  # held, so that its id is not reused while the emitter remembers it
    copy: Callable[[], Schema]  # a fresh copy of the schema
    reached: dict[TypeKey, None]
    unions: bool
    human_marked: bool


class EmittedParameters(NamedTuple):
    """A parameters schema, and whether a ``Human()`` marker sits anywhere in it."""

    schema: Schema
    human_marked: bool


class SchemaEmitter:
    """Emits parameters and output schemas for the nodes of one ``TypeGraph``.

    Args:
        graph: every named type the nodes may refer to.
        reference: keep named types as ``$defs`` + ``$ref`` (recursive ones always are).
        strict: apply OpenAI structured-output rules to parameters schemas;
            what they cannot express is added to ``problems``.

    Example:
        >>> emitter = SchemaEmitter(builder.graph())
        >>> emitter.parameters(method.parameters)["properties"]["limit"]
        {'type': 'integer', 'minimum': 1, 'description': 'Most results.', 'default': 10}
    """

    def __init__(self, graph: TypeGraph, *, reference: bool = True, strict: bool = False) -> None:
        self.graph = graph
        self.reference = reference
        self.strict = strict
        self.problems: list[BuildProblem] = []
        self.names: dict[TypeKey, str] = assign_names(graph.definitions)
        self._inline_never = recursive_keys(graph.definitions) if not reference else frozenset()
        self._reported: set[tuple[str, str]] = set()
        # By id: the introspector gives one node object to every use of a type.
        self._emitted: dict[int, _Emitted] = {}

    def parameters(
        self,
        params: Sequence[ParameterSpec],
        *,
        location: str = "",
        human: Callable[[Mapping[str, Any]], bool] | None = None,
    ) -> Schema:
        """The parameters object of one function, with the ``$defs`` it reaches.

        Args:
            params: the function's parameters, in order.
            location: ``Class.method``, for problems found in strict mode.
            human: in strict mode, says which values a human supplies: strict rules
                apply to what the model sees, so these are left as they are.
        """
        return self.emit_parameters(params, location=location, human=human).schema

    def emit_parameters(
        self,
        params: Sequence[ParameterSpec],
        *,
        location: str = "",
        human: Callable[[Mapping[str, Any]], bool] | None = None,
    ) -> EmittedParameters:
        """``parameters``, saying too whether a value is marked ``Human()``: the emitter
        writes every marker, so nobody has to search the schema for one."""
        run = _Run(self)
        properties = {param.name: run.field(param) for param in params}
        schema: Schema = {
            "type": "object",
            "properties": properties,
            "required": [param.name for param in params if param.required],
            "additionalProperties": False,
        }
        defs = run.definitions()
        if defs:
            schema["$defs"] = defs
        if run.unions:
            declare_discriminators(schema)
        if self.strict:
            schema = make_strict(schema, partial(self._report, location), human=human)
        return EmittedParameters(schema, run.human_marked)

    def output(self, node: Node | None, *, location: str = "") -> Schema | None:
        """The schema of a return type with its own ``$defs``; ``None`` for ``None``."""
        if node is None:
            return None
        run = _Run(self)
        schema = run.shared(node)
        defs = run.definitions()
        if defs:
            schema["$defs"] = defs
        if run.unions:
            declare_discriminators(schema)
        return schema

    def _report(self, location: str, path: str, reason: str, in_definition: bool) -> None:
        if in_definition:  # once per emitter, not once per method that reaches it
            if (path, reason) in self._reported:
                return
            self._reported.add((path, reason))
            self.problems.append(
                BuildProblem(location or path.partition(".")[0], f"{path}: {reason}")
            )
            return
        where = ".".join(part for part in (location, path) if part)
        self.problems.append(BuildProblem(where or "parameters", reason))


class _Run:
    """One schema being emitted: which definitions it reached so far."""

    __slots__ = ("emitter", "human_marked", "reached", "unions")

    def __init__(self, emitter: SchemaEmitter) -> None:
        self.emitter = emitter
        self.reached: dict[TypeKey, None] = {}
        self.unions = False  # a union that may be tagged was written: look for tags
        self.human_marked = False  # a Human() marker was written

    def node(self, node: Node) -> Schema:
        schema = _EMITTERS[type(node)](self, node)
        meta = node.meta
        if meta is NO_META:
            return schema
        self.human_marked = self.human_marked or meta.human
        return _decorate(schema, meta)

    def shared(self, node: Node) -> Schema:
        """``node(node)``, written once per emitter and copied after: a node object (the
        ``str``, the ``datetime`` of many parameters) is shared by every use of its type."""
        emitted = self.emitter._emitted.get(id(node)) or self._first(node)
        # What emitting the node recorded on its run is recorded on this one.
        if emitted.reached:
            self.reached.update(emitted.reached)
        if emitted.unions:
            self.unions = True
        if emitted.human_marked:
            self.human_marked = True
        return emitted.copy()

    def _first(self, node: Node) -> _Emitted:
        """The node emitted on a run of its own; remembered unless it reported a problem
        (which is then reported again at every use, as it is written again)."""
        emitter = self.emitter
        run = _Run(emitter)
        reported = len(emitter.problems)
        schema = run.node(node)
        emitted = _Emitted(node, _copier(schema), run.reached, run.unions, run.human_marked)
        if len(emitter.problems) == reported:
            emitter._emitted[id(node)] = emitted
        return emitted

    def field(self, field: Field) -> Schema:
        schema = self.shared(field.type)
        if field.description:
            schema["description"] = field.description
        if field.default is not NO_DEFAULT:
            default = json_value(field.default)
            if default is not UNREPRESENTABLE:
                schema["default"] = default
        return schema

    def ref(self, node: RefNode) -> Schema:
        key = node.key
        emitter = self.emitter
        if key not in emitter.names:  # a graph taken before the type was built: say so, go on
            reason = f"no definition for {key!r} in the type graph"
            emitter.problems.append(BuildProblem("schema", reason))
            return {}
        if not emitter.reference and key not in emitter._inline_never:
            return self.definition(emitter.graph.definitions[key])
        self.reached[key] = None
        return {"$ref": f"#/$defs/{emitter.names[key]}"}

    def definitions(self) -> Schema:
        """Every definition reached, transitively, sorted by name."""
        if not self.reached:
            return {}
        emitted: dict[str, Schema] = {}
        done: set[TypeKey] = set()
        while len(done) < len(self.reached):
            for key in [k for k in self.reached if k not in done]:
                done.add(key)
                definition = self.emitter.graph.definitions[key]
                emitted[self.emitter.names[key]] = self.definition(definition)
        return {name: emitted[name] for name in sorted(emitted)}

    def definition(self, definition: Definition) -> Schema:
        if isinstance(definition, ObjectDef):
            schema = self.object(definition)
        elif isinstance(definition, EnumDef):
            schema = enum_schema(definition.values, definition.names)
        else:
            schema = self.node(definition.type)
        if definition.description:
            schema["description"] = definition.description
        if definition.title:
            schema["title"] = definition.title
        return schema

    def object(self, definition: ObjectDef) -> Schema:
        additional = definition.additional
        return {
            "type": "object",
            "properties": {field.name: self.field(field) for field in definition.fields},
            "required": [field.name for field in definition.fields if field.required],
            "additionalProperties": False if additional is None else self.node(additional),
        }


def _copier(value: Schema | list[Any]) -> Callable[[], Any]:
    """What makes fresh copies of an emitted schema (or of a dict or list in it) sharing no
    dict or list with it; the rest (strings, numbers) is immutable and shared. Made once
    per remembered node, so that each copy does only what the schema's shape needs."""
    if isinstance(value, dict):
        nested = [(key, _copier(item)) for key, item in value.items() if type(item) in _TREES]
        if not nested:
            return value.copy

        def copy_dict() -> Schema:
            copy = value.copy()
            for key, make in nested:
                copy[key] = make()
            return copy

        return copy_dict
    items = [(item, _copier(item) if type(item) in _TREES else None) for item in value]
    if all(make is None for _, make in items):
        return value.copy

    def copy_list() -> list[Any]:
        return [item if make is None else make() for item, make in items]

    return copy_list


_TREES = (dict, list)


# -- one emitter per node kind --------------------------------------------------------------


def _put(schema: Schema, **keywords: Any) -> Schema:
    """Add the keywords whose value is set (not ``None``)."""
    for keyword, value in keywords.items():
        if value is not None:
            schema[keyword] = value
    return schema


def _string(run: _Run, node: StringNode) -> Schema:
    return _put(
        {"type": "string"},
        minLength=node.min_length,
        maxLength=node.max_length,
        pattern=node.pattern,
        format=node.format,
        contentEncoding=node.content_encoding,
        contentMediaType=node.content_media_type,
    )


def _numeric(name: str) -> Callable[[_Run, Any], Schema]:
    def emit(run: _Run, node: IntegerNode | NumberNode) -> Schema:
        return _bounds({"type": name}, node)

    return emit


def _bounds(schema: Schema, node: IntegerNode | NumberNode) -> Schema:
    return _put(
        schema,
        minimum=node.ge,
        exclusiveMinimum=node.gt,
        maximum=node.le,
        exclusiveMaximum=node.lt,
        multipleOf=node.multiple_of,
    )


def _array(run: _Run, node: ArrayNode) -> Schema:
    schema = _put(
        {"type": "array", "items": run.node(node.item)},
        minItems=node.min_items,
        maxItems=node.max_items,
    )
    if node.unique_items:
        schema["uniqueItems"] = True
    return schema


def _tuple(run: _Run, node: TupleNode) -> Schema:
    count = len(node.items)
    items = [run.node(item) for item in node.items]
    return {"type": "array", "prefixItems": items, "minItems": count, "maxItems": count}


def _dict(run: _Run, node: DictNode) -> Schema:
    return _put(
        {"type": "object", "additionalProperties": run.node(node.value)},
        minProperties=node.min_properties,
        maxProperties=node.max_properties,
    )


def _union(run: _Run, node: UnionNode) -> Schema:
    options: list[Schema] = []
    for option in node.options:
        schema = run.node(option)
        if isinstance(option, StringNode) and option.format in NUMERIC_TEXT_FORMATS:
            _bound_text(schema, option, node)
        nested = schema["anyOf"] if schema.keys() == {"anyOf"} else [schema]  # Literal groups
        options.extend(item for item in nested if item not in options)
    if len(options) == 1:
        return options[0]
    run.unions = run.unions or _may_be_tagged(options)
    return {"anyOf": options}


def _bound_text(schema: Schema, option: StringNode, node: UnionNode) -> None:
    """Put the bounds of ``option``'s type on its text form too (a ``Decimal`` written as
    a ``decimal`` string), where llmapp's validator judges the number the text writes."""
    for numeric in node.options:
        if isinstance(numeric, (IntegerNode, NumberNode)) and (
            numeric.python_type is not None and numeric.python_type is option.python_type
        ):
            _bounds(schema, numeric)
            return


def _may_be_tagged(options: list[Schema]) -> bool:
    """Whether ``declare_discriminators`` could find a tag: two non-null options at least,
    each an object (``properties``) or a reference to one, since a tag is a property.
    A union of strings (``datetime``'s two formats) or with ``null`` alone skips the walk."""
    tagged = [option for option in options if option != _NULL]
    return len(tagged) > 1 and all(
        "$ref" in option or "properties" in option or "allOf" in option for option in tagged
    )


_NULL: Schema = {"type": "null"}

_JSON_TYPES: dict[type, str] = {
    str: "string",
    bool: "boolean",
    int: "integer",
    float: "number",
    type(None): "null",
}


def enum_schema(values: Sequence[Any], names: Sequence[str] = ()) -> Schema:
    """``{"type": ..., "enum": [...]}`` per JSON type, in order of appearance; several -> anyOf.

    ``names`` (an Enum's member names, parallel to ``values``) go beside each ``enum`` as
    ``x-enum-varnames`` where one of them is not its value: the feedback shows them and
    ``coerce`` reads a name the model sends as its value (``llmapp.jsonschema.enum_names``).
    """
    groups: dict[str, list[Any]] = {}
    named: dict[str, list[str]] = {}
    for position, value in enumerate(values):
        group = groups.setdefault(_JSON_TYPES.get(type(value), "string"), [])
        if not any(type(seen) is type(value) and seen == value for seen in group):
            group.append(value)
            if position < len(names):
                named.setdefault(_JSON_TYPES.get(type(value), "string"), []).append(names[position])
    schemas = [
        {"type": "null"} if name == "null" else _enum(name, group, named.get(name, []))
        for name, group in groups.items()
    ]
    return schemas[0] if len(schemas) == 1 else {"anyOf": schemas}


def _enum(kind: str, values: list[Any], names: list[str]) -> Schema:
    schema: Schema = {"type": kind, "enum": values}
    if len(names) == len(values) and any(
        name != value for name, value in zip(names, values, strict=True)
    ):
        schema[ENUM_NAMES] = names
    return schema


_EMITTERS: dict[type, Callable[[_Run, Any], Schema]] = {
    StringNode: _string,
    IntegerNode: _numeric("integer"),
    NumberNode: _numeric("number"),
    BooleanNode: lambda run, node: {"type": "boolean"},
    NullNode: lambda run, node: {"type": "null"},
    AnyNode: lambda run, node: {},
    LiteralNode: lambda run, node: enum_schema(node.values),
    ArrayNode: _array,
    TupleNode: _tuple,
    DictNode: _dict,
    UnionNode: _union,
    RefNode: _Run.ref,
}


def _decorate(schema: Schema, meta: Meta) -> Schema:
    """Add a node's metadata: title, description, examples, the human-only flag."""
    if meta.title is not None:
        schema["title"] = meta.title
    if meta.description is not None:
        schema["description"] = meta.description
    if meta.examples:
        examples = [json_value(example) for example in meta.examples]
        schema["examples"] = [e for e in examples if e is not UNREPRESENTABLE]
    if meta.human:
        schema[HUMAN_KEYWORD] = True
    return schema
