"""From a class and its configuration to one frozen plan per function, or one error listing all.

Each method becomes an ``LlmFunction`` (what the model sees) and a ``Plan`` (how its calls
run: ``_execute``); both are immutable once built. Nothing is compiled here: validators
and converters compile on their first use (``OnFirstUse``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from llmapp import convert
from llmapp._collection import paused_collection
from llmapp._errors import BuildProblem, LlmApplicationError, class_location
from llmapp.app._decorator import declared_hooks
from llmapp.introspect import inspect_class
from llmapp.introspect.model import MethodSpec, TypeGraph
from llmapp.jsonschema import declared_types
from llmapp.kernel import (
    Fused,
    LlmConfig,
    LlmFunction,
    ModelSide,
    OnFirstUse,
    Plan,
    SchemaPredicate,
    Separated,
    ValidationHook,
    bind_generated,
    compile_validator,
    declared_controls,
    hooked,
    refusals,
    separation,
)
from llmapp.schema import SchemaEmitter, is_human

__all__ = ["build"]


def build(cls: type, config: LlmConfig) -> list[Plan]:
    """Every function of ``cls``; raises ``LlmApplicationError`` listing all problems."""
    with paused_collection():
        return _build(cls, config)


def _build(cls: type, config: LlmConfig) -> list[Plan]:
    spec = inspect_class(cls)
    problems: list[BuildProblem] = list(spec.problems)
    declared = declared_hooks(cls)
    hooks: dict[str, ValidationHook] = {name: hook for name, hook in declared.values()}
    hooks.update(config.validate)
    owner = class_location(cls)
    # Values marked Human() always go to the human; a configured predicate adds its own.
    human = is_human if config.separate is None else _either(is_human, config.separate)
    emitter = SchemaEmitter(spec.graph, reference=config.reference, strict=config.strict)
    # Strict schemas move constraints into descriptions; validation keeps checking them.
    checker = SchemaEmitter(spec.graph, reference=config.reference) if config.strict else None
    plans: dict[str, Plan] = {}
    for method in spec.methods:
        if method.human or method.name in declared:
            continue
        where = f"{owner}.{method.name}"
        schemas = _Schemas(method, where, emitter, checker, human)
        human_side = config.separate is not None or schemas.human_marked
        if human_side:
            for parameter, reason in refusals(schemas.parameters, human):
                problems.append(BuildProblem(f"{where}.{parameter}", reason))
        for parameter in _spread_collisions(cls, method):
            problems.append(BuildProblem(f"{where}.{parameter}", _COLLISION))
        predicate = human if human_side else None
        plan = _plan(cls, config, method, spec.graph, schemas, hooks.get(method.name), predicate)
        plans[method.name] = plan
    problems.extend(emitter.problems)
    problems.extend(_name_clashes(owner, list(plans.values())))
    for name in hooks:
        if name not in plans:
            problems.append(
                BuildProblem(
                    f"{owner}.{name}", "a validation hook names a method that is not a function"
                )
            )
    if not plans and not problems:
        problems.append(BuildProblem(owner, "the class has no public method to become a function"))
    if problems:
        raise LlmApplicationError(owner, _unique(problems))
    return list(plans.values())


class _Schemas:
    """The schemas of one method: what vendors see, and what arguments are checked against."""

    def __init__(
        self,
        method: MethodSpec,
        where: str,
        emitter: SchemaEmitter,
        checker: SchemaEmitter | None,
        human: SchemaPredicate,
    ) -> None:
        # Strict rules apply to what the model sees: human-side values are left as they are.
        emitted = emitter.emit_parameters(method.parameters, location=where, human=human)
        self.parameters = emitted.schema
        self.human_marked = emitted.human_marked
        self.output = _described(emitter.output(method.returns, location=where), method)
        self.checked = checker.parameters(method.parameters, location=where) if checker else None


def _described(output: dict[str, Any] | None, method: MethodSpec) -> dict[str, Any] | None:
    """The return value's text (``Returns:``/``@returns``) on the output schema."""
    text = method.returns_description
    if output is None or not text or "description" in output:
        return output
    return {"description": text, **output}


def _name_clashes(owner: str, plans: list[Plan]) -> list[BuildProblem]:
    """Two functions the model would see under one name (an ``@name`` taking another's)."""
    seen: dict[str, str] = {}
    clashes = []
    for plan in plans:
        name, method = plan.function.name, plan.method.name
        if name in seen:
            reason = f"the function name {name!r} is also the name of {seen[name]}"
            clashes.append(BuildProblem(f"{owner}.{method}", reason))
        seen.setdefault(name, method)
    return clashes


def _with_deprecation(method: MethodSpec) -> str | None:
    """The description, with why the method is deprecated where a reason is given: most
    vendors have no deprecated flag, so the description is where the model can read it."""
    reason = method.deprecation.strip() if method.deprecated and method.deprecation else ""
    if not reason:
        return method.description
    note = f"Deprecated: {reason}"
    return f"{method.description}\n\n{note}" if method.description else note


def _plan(
    cls: type,
    config: LlmConfig,
    method: MethodSpec,
    graph: TypeGraph,
    schemas: _Schemas,
    hook: ValidationHook | None,
    human: SchemaPredicate | None,
) -> Plan:
    """The function the model sees and every step of its calls, decided once."""
    checked = schemas.checked or schemas.parameters
    separated, model_side = _separated(schemas.parameters, checked, human, config.separate)
    # The model's data is repaired and checked against what it writes, every constraint kept.
    generated = separated.validate if separated is not None else None
    if generated is None:
        generated = OnFirstUse(compile_validator, model_side)
    function = LlmFunction(
        name=method.exposed or method.name,
        description=_with_deprecation(method),
        parameters=schemas.parameters,
        output=schemas.output,
        deprecated=method.deprecated,
        tags=list(method.tags),
        separated=separated,
        title=method.title,
        summary=method.summary,
        checked_parameters=checked,
        hook=bind_generated(hook, generated) if hook is not None else None,
        controls=declared_controls(cls, method),
        max_length=config.max_length,
    )
    return Plan(
        function=function,
        method=method,
        owner=cls,
        max_length=config.max_length,
        side=ModelSide(
            model_side,
            hooked(function.validate, separated) if hook is not None else generated,
            hook is not None,
        ),
        convert=OnFirstUse(_converter, (method, graph)),
        returns_array=_may_be_array(schemas.output),
        plain=function.controls is None and not method.context,
        fused=Fused(),
    )


_COLLISION = (
    "a key of **kwargs: Unpack[...] has the name of one of the method's own parameters "
    "(self, cls or another): every call would fail; rename the key"
)


def _spread_collisions(cls: type, method: MethodSpec) -> list[str]:
    """Keys spread from ``**kwargs`` that name a parameter of the method itself."""
    spread = [parameter.name for parameter in method.parameters if parameter.from_kwargs]
    if not spread:
        return []
    raw = inspect.getattr_static(cls, method.name, None)
    function = inspect.unwrap(getattr(raw, "__func__", raw))
    code = getattr(function, "__code__", None)
    if code is None:
        return []
    named = set(code.co_varnames[: code.co_argcount + code.co_kwonlyargcount])
    return [name for name in spread if name in named]


def _may_be_array(output: dict[str, Any] | None) -> bool:
    """Whether the declared result may be an array (``list[T]``, ``Optional[list[T]]``...)."""
    if output is None:
        return False
    options = [output, *(o for o in output.get("anyOf", ()) if isinstance(o, dict))]
    return any("array" in (declared_types(option) or ()) for option in options)


def _converter(
    source: tuple[MethodSpec, TypeGraph],
) -> Callable[[Mapping[str, Any]], tuple[list[Any], dict[str, Any]]]:
    """``convert.compile_arguments``, looked up when called: conversion loads on first use
    (its ``convert``: the builder's own work, without the builder's ``__call__`` in between)."""
    return convert.compile_arguments(*source).convert


def _separated(
    parameters: dict[str, Any],
    checked: dict[str, Any],
    predicate: SchemaPredicate | None,
    configured: SchemaPredicate | None,
) -> tuple[Separated | None, dict[str, Any]]:
    """The LLM/human split, and the schema of what the model writes (every constraint kept).

    ``predicate`` is None when nothing can be human. Without a configured predicate, a
    function whose every value the model composes is not separated.
    """
    if predicate is None:
        return None, checked
    return separation(parameters, checked, predicate, keep_empty=configured is not None)


def _either(first: SchemaPredicate, second: SchemaPredicate) -> SchemaPredicate:
    return lambda schema: first(schema) or second(schema)


def _unique(problems: list[BuildProblem]) -> list[BuildProblem]:
    return list(dict.fromkeys(problems))
