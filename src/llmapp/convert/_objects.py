"""Named objects: a JSON object -> dataclass, TypedDict, NamedTuple, pydantic model or class.

Each field is converted by its own compiled converter; keys the JSON leaves out
stay out, so Python fills in the defaults; ``null`` for an optional field that
cannot be null is left out too (OpenAI's strict mode sends ``null`` for values
not given). The object is then built by a row of ``_BUILDERS`` for its kind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from ..introspect.model import ObjectDef
from ._error import failure, refused
from ._scalars import Converter

if TYPE_CHECKING:
    from ._to_python import Compiler

__all__ = ["compile_object"]


class _Step(NamedTuple):
    name: str
    """The keyword the value is passed under (see ``_KEEPS_JSON_NAMES``)."""
    convert: Converter | None
    drops_null: bool
    expected: str


def _call(cls: Any) -> Callable[[dict[str, Any]], Any]:
    return lambda fields: cls(**fields)


def _pydantic(cls: Any) -> Callable[[dict[str, Any]], Any]:
    # model_validate (not model_construct): the model's own validators are part of its
    # contract. The values are already Python objects, which pydantic accepts in any mode.
    return cls.model_validate  # type: ignore[no-any-return]


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

# Kinds that can take keys beyond their declared fields.
_TAKES_EXTRA = frozenset({"typeddict", "pydantic", "class"})


def compile_object(compiler: Compiler, definition: ObjectDef) -> Converter:
    """The converter from a validated JSON object to an instance of ``definition``."""
    keeps_names = definition.kind in _KEEPS_JSON_NAMES
    steps = {
        field.name: _Step(
            name=field.name if keeps_names else (field.python_name or field.name),
            convert=compiler.compile(field.type),
            drops_null=compiler.drops_null(field),
            expected=compiler.describe(field.type),
        )
        for field in definition.fields
    }
    build = _BUILDERS[definition.kind](definition.cls)
    extra_allowed = definition.additional is not None and definition.kind in _TAKES_EXTRA
    extra = compiler.compile(definition.additional) if definition.additional is not None else None
    extra_step = _Step(name="", convert=extra, drops_null=False, expected="")
    name = definition.name

    plain = not extra and all(
        step.convert is None and not step.drops_null and step.name == key
        for key, step in steps.items()
    )
    if plain and (extra_allowed or definition.additional is None):
        return _plain(definition, build)

    def convert(value: Any) -> Any:
        fields: dict[str, Any] = {}
        key: Any = None
        try:
            for key, item in value.items():
                step = steps.get(key)
                if step is None:
                    if not extra_allowed:
                        continue  # validation already refused extra keys; never pass them on
                    fields[key] = item if extra is None else extra(item)
                    continue
                if item is None and step.drops_null:
                    continue
                fields[step.name] = item if step.convert is None else step.convert(item)
        except Exception as error:
            expected = steps[key].expected if key in steps else extra_step.expected
            raise failure(error, key, expected or name, value[key]) from None
        try:
            return build(fields)
        except Exception as error:
            raise refused(error, name, value) from None

    return convert


def _plain(definition: ObjectDef, build: Callable[[dict[str, Any]], Any]) -> Converter:
    """Nothing to convert field by field: hand the object to the constructor as it is."""
    name = definition.name
    if definition.kind in ("dataclass", "namedtuple", "class"):
        cls = definition.cls

        def call(value: Any) -> Any:
            try:
                return cls(**value)
            except Exception as error:
                raise refused(error, name, value) from None

        return call

    def copy(value: Any) -> Any:
        try:
            return build(dict(value))
        except Exception as error:
            raise refused(error, name, value) from None

    return copy
