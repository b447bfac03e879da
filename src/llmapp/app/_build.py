"""From a class and its configuration to functions and bindings, or one error with every problem."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from llmapp._errors import BuildProblem, LlmApplicationError, class_location
from llmapp.app._config import LlmConfig, SchemaPredicate, ValidationHook, bind_generated
from llmapp.app._decorator import declared_hooks
from llmapp.app._execute import Binding
from llmapp.app._function import LlmFunction, Separated, _LazyValidator
from llmapp.introspect import inspect_class
from llmapp.introspect.model import MethodSpec
from llmapp.schema import HUMAN_KEYWORD, is_human
from llmapp.schema._emit import SchemaEmitter

__all__ = ["build"]


def build(cls: type, config: LlmConfig) -> tuple[list[LlmFunction], dict[str, Binding]]:
    """Every function of ``cls``; raises ``LlmApplicationError`` listing all problems."""
    spec = inspect_class(cls)
    problems: list[BuildProblem] = list(spec.problems)
    declared = declared_hooks(cls)
    hooks: dict[str, ValidationHook] = {name: hook for name, hook in declared.values()}
    hooks.update(config.validate)
    owner = class_location(cls)
    emitter = SchemaEmitter(spec.graph, reference=config.reference, strict=config.strict)
    # Strict schemas move constraints into descriptions; validation keeps checking them.
    checker = SchemaEmitter(spec.graph, reference=config.reference) if config.strict else None
    functions: list[LlmFunction] = []
    bindings: dict[str, Binding] = {}
    for method in spec.methods:
        if method.human or method.name in declared:
            continue
        schemas = _Schemas(method, f"{owner}.{method.name}", emitter, checker)
        function = _function(method, schemas, config.separate, hooks.get(method.name))
        functions.append(function)
        bindings[function.name] = Binding(function, method, spec.graph)
    problems.extend(emitter.problems)
    for name in hooks:
        if name not in bindings:
            problems.append(
                BuildProblem(
                    f"{owner}.{name}", "a validation hook names a method that is not a function"
                )
            )
    if not functions and not problems:
        problems.append(BuildProblem(owner, "the class has no public method to become a function"))
    if problems:
        raise LlmApplicationError(owner, _unique(problems))
    return functions, bindings


class _Schemas:
    """The schemas of one method: what vendors see, and what arguments are checked against."""

    def __init__(
        self, method: MethodSpec, where: str, emitter: SchemaEmitter, checker: SchemaEmitter | None
    ) -> None:
        self.parameters = emitter.parameters(method.parameters, location=where)
        self.output = _described(emitter.output(method.returns, location=where), method)
        self.checked = checker.parameters(method.parameters, location=where) if checker else None


def _described(output: dict[str, Any] | None, method: MethodSpec) -> dict[str, Any] | None:
    """The return value's text (``Returns:``/``@returns``) on the output schema."""
    text = method.returns_description
    if output is None or not text or "description" in output:
        return output
    return {"description": text, **output}


def _function(
    method: MethodSpec,
    schemas: _Schemas,
    separate: SchemaPredicate | None,
    hook: ValidationHook | None,
) -> LlmFunction:
    function = LlmFunction(
        name=method.name,
        description=method.description,
        parameters=schemas.parameters,
        output=schemas.output,
        deprecated=method.deprecated,
        tags=list(method.tags),
        title=method.title,
        summary=method.summary,
        validation_parameters=schemas.checked,
    )
    predicate = _predicate(schemas.parameters, separate)
    if predicate is not None:
        function.separated = _separated(schemas.parameters, schemas.checked, predicate)
    generated = function.separated.validate if function.separated is not None else None
    if hook is not None:
        function.hook = bind_generated(hook, generated or function.validate_types)
    return function


def _separated(
    parameters: dict[str, Any], checked: dict[str, Any] | None, predicate: SchemaPredicate
) -> Separated:
    from llmapp.separate import split_parameters

    llm, human = split_parameters(parameters, predicate)
    llm_checked = split_parameters(checked, predicate)[0] if checked is not None else llm
    return Separated(llm=llm, human=human, validate=_LazyValidator(llm_checked))


def _predicate(
    parameters: Mapping[str, Any], separate: SchemaPredicate | None
) -> SchemaPredicate | None:
    """The configured predicate; values marked ``Human()`` always go to the human too."""
    if HUMAN_KEYWORD not in json.dumps(parameters):  # C-speed pre-check; is_human decides
        return separate
    if separate is None:
        return is_human
    configured = separate
    return lambda schema: is_human(schema) or configured(schema)


def _unique(problems: list[BuildProblem]) -> list[BuildProblem]:
    return list(dict.fromkeys(problems))
