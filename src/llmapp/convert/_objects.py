"""Named objects: a JSON object -> dataclass, TypedDict, NamedTuple, pydantic model or class.

One function is generated per object type (a statement per field, see
``_generate``). Keys the JSON leaves out stay out, so Python fills in the
defaults; ``null`` for an optional field that cannot be null is left out too
(OpenAI's strict mode sends ``null`` for values not given). The object is then
built by calling its class, or by a row of ``_BUILDERS`` for its kind.
"""

from __future__ import annotations

import inspect
import sys
from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from llmapp._sentinels import MISSING

from .._codegen.source import Emitter, compile_function
from ..introspect.model import ObjectDef
from ._compiler import NodeCompiler
from ._error import failure, refused
from ._scalars import Converter, to_int

__all__ = ["compile_object"]


class _Step(NamedTuple):
    name: str
    """The keyword the value is passed under (see ``_KEEPS_JSON_NAMES``)."""
    convert: Converter | None
    drops_null: bool
    expected: str
    required: bool
    members: dict[str, Any] | None
    """An all-string Enum's members by value (``NodeCompiler.text_members``), or None."""


def _call(cls: Any) -> Callable[[dict[str, Any]], Any]:
    return lambda fields: cls(**fields)


def _pydantic(cls: Any) -> Callable[[dict[str, Any]], Any]:
    # model_validate (not model_construct): the model's own validators are part of its
    # contract. The values are already Python objects, which pydantic accepts in any mode.
    return cls.model_validate  # type: ignore[no-any-return]


def _validated_directly(cls: Any) -> bool:
    """Whether ``cls.model_validate(fields)`` is its validator's ``validate_python(fields)``:
    pydantic's own ``model_validate`` passes every option unset, so where the model does not
    override it, generated code calls the validator itself (looked up per call, as
    ``model_validate`` does: a rebuilt model has a new one)."""
    pydantic = sys.modules.get("pydantic")
    model = getattr(pydantic, "BaseModel", None)
    method = getattr(cls, "model_validate", None)
    return model is not None and getattr(method, "__func__", None) is getattr(
        model.model_validate, "__func__", model
    )


def _typeddict(cls: Any) -> Callable[[dict[str, Any]], Any]:
    return lambda fields: fields


_BUILDERS: dict[str, Callable[[Any], Callable[[dict[str, Any]], Any]]] = {
    "dataclass": _call,
    "namedtuple": _call,
    "class": _call,
    "typeddict": _typeddict,
    "pydantic": _pydantic,
}

# Kinds whose constructor takes the JSON names: a TypedDict's keys are its JSON names;
# pydantic validates by alias and an attrs class's __init__ takes each attribute's
# alias, which is what introspection makes the JSON name when the two differ.
_KEEPS_JSON_NAMES = frozenset({"typeddict", "pydantic", "class"})

# Kinds built by calling the class with the fields as keywords.
_CALLS = frozenset({"dataclass", "namedtuple", "class"})

# Kinds that can take keys beyond their declared fields.
_TAKES_EXTRA = frozenset({"typeddict", "pydantic"})


def compile_object(compiler: NodeCompiler, definition: ObjectDef) -> Converter:
    """The converter from a validated JSON object to an instance of ``definition``."""
    keeps_names = definition.kind in _KEEPS_JSON_NAMES
    steps = {
        field.name: _Step(
            name=field.name if keeps_names else (field.python_name or field.name),
            convert=compiler.compile(field.type),
            drops_null=compiler.drops_null(field),
            expected=compiler.describe(field.type),
            required=field.required,
            members=compiler.text_members(field.type),
        )
        for field in definition.fields
    }
    build = _BUILDERS[definition.kind](definition.cls)
    additional = definition.additional if definition.kind in _TAKES_EXTRA else None
    extra_allowed = additional is not None
    extra = None if additional is None else compiler.compile(additional)
    plain = extra is None and all(
        step.convert is None and not step.drops_null and step.name == key
        for key, step in steps.items()
    )
    if plain and (extra_allowed or definition.additional is None):
        return _plain(definition, build)
    expected = {key: step.expected for key, step in steps.items()}
    if additional is not None:
        expected = defaultdict(lambda: compiler.describe(additional), expected)
    cls = definition.cls if definition.kind in _CALLS else None
    instance = _instance_type(definition)
    model = definition.cls if definition.kind == "pydantic" else None
    if model is not None and not _validated_directly(model):
        model = None
    return _generate(
        definition.name, steps, build, cls, extra, expected, extra_allowed, instance, model
    )


def _generate(
    name: str,
    steps: dict[str, _Step],
    build: Callable[[dict[str, Any]], Any],
    cls: Any,
    extra: Converter | None,
    expected: Mapping[str, str],
    extra_allowed: bool,
    instance: type | None,
    model: Any = None,
) -> Converter:
    """Generate one function for the object: a statement per field, no loop, no lookups."""
    namespace: dict[str, Any] = {
        "MISSING": MISSING,
        "KNOWN": frozenset(steps),
        "EXPECTED": expected,
        "NAME": name,
        "build": build,
        "cls": cls,
        "INSTANCE": instance,
        "model": model,
        "extra": extra,
        "failure": failure,
        "refused": refused,
    }
    emit = Emitter()
    function = f"convert_{name}"
    # The leading required fields go by position where the constructor takes them so
    # (a call with keywords costs a dataclass about twice as much); the rest by keyword.
    by_position = _by_position(steps, cls)
    keywords = len(by_position) < len(steps) or extra_allowed or cls is None
    with emit.block(f"def {function}(value):"):
        if instance is not None:
            with emit.block("if isinstance(value, INSTANCE):"):
                emit.line("return value  # already built (a human-side value)")
        if keywords:
            emit.line("fields = {}")
        emit.line("key = None")
        with emit.block("try:"):
            for index, (key, step) in enumerate(steps.items()):
                namespace[f"c{index}"], namespace[f"m{index}"] = step.convert, step.members
                into = f"a{index}" if index < len(by_position) else f"fields[{step.name!r}]"
                _emit_field(emit, key, step, index, into)
            if extra_allowed:
                with (
                    emit.block("for key, item in value.items():"),
                    emit.block("if key not in KNOWN:"),
                ):
                    emit.line(f"fields[key] = {'item' if extra is None else 'extra(item)'}")
        with emit.block("except Exception as error:"):
            emit.line("raise failure(error, key, EXPECTED[key], value.get(key)) from None")
        arguments = [f"a{index}" for index in range(len(by_position))]
        arguments += ["**fields"] if keywords else []
        built = "build(fields)" if cls is None else f"cls({', '.join(arguments)})"
        if model is not None:  # ``model_validate(fields)`` without its frame
            built = "model.__pydantic_validator__.validate_python(fields)"
        with emit.block("try:"):
            emit.line(f"return {built}")
        with emit.block("except Exception as error:"):
            emit.line("raise refused(error, NAME, value) from None")
    return compile_function(function, emit.take(), namespace, origin="convert")


def _by_position(steps: dict[str, _Step], cls: Any) -> list[str]:
    """The leading required fields ``cls`` takes by position, in order (none when unknown).

    Only parameters that take a position or a keyword alike count, read from the
    constructor's own signature (not from a wrapped one, which a decorator's may not
    take as it says): passed either way, they are the same call.
    """
    if cls is None:
        return []
    try:
        signature = inspect.signature(cls, follow_wrapped=False)
    except (TypeError, ValueError):  # a constructor without a signature Python can read
        return []
    taken: list[str] = []
    for parameter, step in zip(signature.parameters.values(), steps.values(), strict=False):
        kind_ok = parameter.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        if not (kind_ok and step.required and parameter.name == step.name):
            break
        taken.append(step.name)
    return taken


def _emit_field(emit: Emitter, key: str, step: _Step, index: int, into: str) -> None:
    """``into = value[key]``, converted by ``c{index}`` (or found in ``m{index}``); an
    optional key only when given (and not null where null means "not given")."""
    json_key, converter = repr(key), f"c{index}"
    emit.line(f"key = {json_key}")
    if step.required and not step.drops_null:  # validated: a required key is there
        value = f"value[{json_key}]"
        if step.convert is to_int:  # what a JSON integer mostly is already: no call
            emit.line(f"{into} = {value}")
            with emit.block(f"if type({into}) is not int:"):
                emit.line(f"{into} = {converter}({into})")
            return
        if step.members is not None:  # an Enum's member by its text: no call
            members = f"m{index}"
            emit.line(f"item = {value}")
            emit.line(
                f"{into} = {members}[item] if type(item) is str and item in {members}"
                f" else {converter}(item)"
            )
            return
        emit.line(f"{into} = {value if step.convert is None else f'{converter}({value})'}")
        return
    emit.line(f"item = value.get({json_key}, MISSING)")
    condition = "item is not MISSING" + (" and item is not None" if step.drops_null else "")
    with emit.block(f"if {condition}:"):
        emit.line(f"{into} = {'item' if step.convert is None else f'{converter}(item)'}")


def _plain(definition: ObjectDef, build: Callable[[dict[str, Any]], Any]) -> Converter:
    """Nothing to convert field by field: hand the object to the constructor as it is."""
    name = definition.name
    if definition.kind in _CALLS:
        cls = definition.cls

        def call(value: Any) -> Any:
            if isinstance(value, cls):
                return value
            try:
                return cls(**value)
            except Exception as error:
                raise refused(error, name, value) from None

        return call

    instance = _instance_type(definition)

    def copy(value: Any) -> Any:
        if instance is not None and isinstance(value, instance):
            return value
        try:
            return build(dict(value))
        except Exception as error:
            raise refused(error, name, value) from None

    return copy


def _instance_type(definition: ObjectDef) -> type | None:
    """The class an already-built value is an instance of (none for a TypedDict)."""
    cls = definition.cls
    return cls if definition.kind != "typeddict" and isinstance(cls, type) else None
