"""A method's validated JSON arguments -> the positional and keyword arguments to call it with."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from llmapp._sentinels import MISSING

from .._codegen.source import Emitter, compile_function
from ..introspect.model import NO_DEFAULT, MethodSpec, ParameterSpec, TypeGraph
from ._error import ConversionError, failure
from ._scalars import Converter, to_int
from ._to_python import Compiler

__all__ = ["ArgumentBuilder", "compile_arguments"]


class _Parameter(NamedTuple):
    name: str
    """The Python name the value is passed under."""
    convert: Converter | None
    drops_null: bool
    expected: str
    position: int | None
    """Index among the positional-only parameters, or ``None`` for a keyword."""
    default: Any


class ArgumentBuilder:
    """Turns one method's validated JSON arguments into ``(args, kwargs)``.

    Built once per method by ``compile_arguments``; each parameter's converter is
    compiled then, so a call only looks up keys and runs what needs converting.
    """

    def __init__(self, method: MethodSpec, graph: TypeGraph) -> None:
        self.method = method
        compiler = Compiler(graph)
        self._parameters: dict[str, _Parameter] = {}
        positional = [p for p in method.parameters if p.positional_only]
        self.positional_count = len(positional)
        for spec in method.parameters:
            self._parameters[spec.name] = _parameter(compiler, spec, positional)
        # The keywords reach the method in the order given, which ``**kwargs`` sees: the
        # generated function passes them in declaration order, so only where none spread.
        spread = any(spec.from_kwargs for spec in method.parameters)
        self.convert = self._walk if spread else _generate(method.name, self._parameters, self)
        """``__call__``'s work: one statement per parameter (``_generate``) where the order
        of the keywords is not seen, else the walk over the arguments given."""

    def __call__(self, arguments: Mapping[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        """Validated JSON arguments (keys are ``ParameterSpec.name``) -> ``(args, kwargs)``.

        Positional-only parameters go in the list, in order; every other parameter,
        including the keys spread from ``**kwargs: Unpack[TD]``, goes in the dict
        under its Python name. A parameter absent from ``arguments`` is left out so
        Python uses its default; so is ``null`` for an optional parameter whose type
        does not accept null (OpenAI's strict mode sends ``null`` for values not
        given). Keys that are not parameters are ignored (validation refuses them).

        Raises:
            ConversionError: the Python side refused a value the schema allowed
                (its ``path`` says where, from ``$input``).
        """
        return self.convert(arguments)

    def _walk(self, arguments: Mapping[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        """``__call__`` as a walk over the arguments given, in their order."""
        positional = [MISSING] * self.positional_count
        keywords: dict[str, Any] = {}
        for key, value in arguments.items():
            parameter = self._parameters.get(key)
            if parameter is None or (value is None and parameter.drops_null):
                continue
            if parameter.convert is not None:
                try:
                    value = parameter.convert(value)
                except Exception as error:
                    raise failure(error, key, parameter.expected, value) from None
            if parameter.position is None:
                keywords[parameter.name] = value
            else:
                positional[parameter.position] = value
        return self.fill(positional), keywords

    def fill(self, positional: list[Any]) -> list[Any]:
        """Drop trailing positional arguments not given; give earlier gaps their default."""
        while positional and positional[-1] is MISSING:
            positional.pop()
        if MISSING not in positional:
            return positional
        specs = [p for p in self._parameters.values() if p.position is not None]
        for spec in specs:
            if spec.position is not None and spec.position < len(positional):
                if positional[spec.position] is not MISSING:
                    continue
                if spec.default is NO_DEFAULT:
                    error = TypeError(f"missing positional-only argument {spec.name!r}")
                    raise failure(ConversionError(spec.expected, None, error), spec.name, "", None)
                positional[spec.position] = spec.default
        return positional

    def __repr__(self) -> str:
        return f"<ArgumentBuilder for {self.method.name}>"


def _generate(
    name: str, parameters: dict[str, _Parameter], builder: ArgumentBuilder
) -> Callable[[Mapping[str, Any]], tuple[list[Any], dict[str, Any]]]:
    """One function for the method: a statement per parameter, in declaration order."""
    namespace: dict[str, Any] = {"MISSING": MISSING, "failure": failure, "fill": builder.fill}
    emit = Emitter()
    function = emit.name(f"arguments_{name}")
    positional = any(parameter.position is not None for parameter in parameters.values())
    with emit.block(f"def {function}(arguments):"):
        emit.line("keywords = {}")
        if positional:
            emit.line(f"positional = [MISSING] * {builder.positional_count}")
        for index, (key, parameter) in enumerate(parameters.items()):
            emit.line(f"value = arguments.get({key!r}, MISSING)")
            given = "value is not MISSING"
            if parameter.drops_null:
                given += " and value is not None"
            if parameter.position is None:
                target = f"keywords[{parameter.name!r}]"
            else:
                target = f"positional[{parameter.position}]"
            with emit.block(f"if {given}:"):
                if parameter.convert is None:
                    emit.line(f"{target} = value")
                    continue
                namespace[f"c{index}"] = parameter.convert
                namespace[f"e{index}"] = parameter.expected
                if parameter.convert is not to_int:
                    _emit_converted(emit, target, index, key)
                    continue
                with emit.block("if type(value) is int:"):  # what a JSON integer mostly is
                    emit.line(f"{target} = value")
                with emit.block("else:"):
                    _emit_converted(emit, target, index, key)
        emit.line(f"return {'fill(positional)' if positional else '[]'}, keywords")
    return compile_function(function, emit.take(), namespace, origin="convert")


def _parameter(
    compiler: Compiler, spec: ParameterSpec, positional: list[ParameterSpec]
) -> _Parameter:
    return _Parameter(
        name=spec.python_name or spec.name,
        convert=compiler.compile(spec.type),
        drops_null=compiler.drops_null(spec),
        expected=compiler.describe(spec.type),
        position=positional.index(spec) if spec.positional_only else None,
        default=spec.default,
    )


def compile_arguments(method: MethodSpec, graph: TypeGraph) -> ArgumentBuilder:
    """Compile how to turn ``method``'s validated JSON arguments into a Python call.

    Args:
        method: the method, as introspection describes it.
        graph: the named types its parameters use.

    Returns:
        An ``ArgumentBuilder``: ``args, kwargs = builder(arguments)`` then
        ``function(*args, **kwargs)``.

    Example:
        >>> from llmapp.introspect.model import MethodSpec, ParameterSpec, StringNode, TypeGraph
        >>> spec = MethodSpec(name="greet", kind="static", is_async=False, returns=None,
        ...     parameters=(ParameterSpec(name="who", type=StringNode()),))
        >>> compile_arguments(spec, TypeGraph())({"who": "Ada"})
        ([], {'who': 'Ada'})
    """
    return ArgumentBuilder(method, graph)


def _emit_converted(emit: Emitter, target: str, index: int, key: str) -> None:
    """``target = c<index>(value)``, a failure naming the parameter's ``key``."""
    with emit.block("try:"):
        emit.line(f"{target} = c{index}(value)")
    with emit.block("except Exception as error:"):
        emit.line(f"raise failure(error, {key!r}, e{index}, value) from None")
