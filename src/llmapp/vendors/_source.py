"""What every vendor export reads: the functions of a source, and the schema the model composes.

Shared by ``llmapp.vendors.openai``, ``.anthropic``, ``.gemini`` and ``.mcp``; it relies
only on the attributes below, so class, HTTP and MCP applications export the same way.

- ``ToolFunction``: the protocol a function satisfies: ``name``, ``description``,
  ``parameters``, ``output``, ``separated`` (``None`` or an object with ``llm`` and
  ``human``), ``deprecated``, ``tags`` and ``validate(arguments)``.
- ``functions_of(source) -> list[ToolFunction]``: ``source`` is an application (an
  object with ``.functions``) or an iterable of functions; raises ``TypeError`` for
  anything else.
- ``model_parameters(function) -> dict``: the parameters schema the model composes:
  ``separated.llm`` when the function has a human side, ``parameters`` otherwise.
  Human-side parameters never appear in it.
- ``Tool``: one function as a vendor sees it (``name``, ``description``,
  ``parameters`` from ``model_parameters``, ``output``, ``deprecated``, ``tags``,
  and ``function`` itself); ``tools_of(source) -> list[Tool]``, whose parameters leave
  out the names of enum members (``x-enum-varnames``, ``without_enum_names``) unless
  ``enum_names=True``: llmapp's own reading aid (feedback and repair read them from the
  function's schema), which no vendor documents and every strict subset refuses; the
  MCP export keeps them, as JSON Schema annotations an llmapp client reads.
- ``owner(source)``: the class an application was built from, as build errors name
  it; ``export_error(source, vendor, [(location, reason)])``: the one
  ``LlmApplicationError`` a strict export raises for what the vendor cannot express.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from llmapp.jsonschema import ENUM_NAMES_READ, is_mapping, walk
from llmapp.kernel import Function, llm_parameters
from llmapp.vendors._subset import transform

__all__ = [
    "Tool",
    "ToolFunction",
    "export_error",
    "functions_of",
    "model_parameters",
    "owner",
    "tools_of",
    "without_enum_names",
]

Schema = dict[str, Any]


ToolFunction = Function
"""What an export needs from a function: the one function model every door shares."""


@dataclass(frozen=True, slots=True)
class Tool:
    """One function as every vendor sees it: the model's side of its parameters only."""

    name: str
    description: str | None
    parameters: Schema
    output: Schema | None
    deprecated: bool
    tags: tuple[str, ...]
    function: ToolFunction


def functions_of(source: Any) -> list[ToolFunction]:
    """The functions of an application, or of an iterable of functions.

    Raises:
        TypeError: ``source`` is neither.
    """
    functions = getattr(source, "functions", None)
    if functions is None:
        if isinstance(source, (str, bytes, Mapping)) or not isinstance(source, Iterable):
            raise TypeError(
                "source must be an application (with .functions) or an iterable of functions, "
                f"not {type(source).__name__}"
            )
        functions = source
    found: list[ToolFunction] = list(functions)
    for function in found:
        if not (hasattr(function, "name") and hasattr(function, "parameters")):
            raise TypeError(f"not an LLM function: {function!r}")
    return found


def model_parameters(function: ToolFunction) -> Schema:
    """The parameters schema the model composes (never the human side): the function's
    ``llm_parameters``, the one rule for every kind of function."""
    return llm_parameters(function)


def tools_of(source: Any, *, enum_names: bool = False) -> list[Tool]:
    """One ``Tool`` per function of ``source`` (see ``functions_of``); the names of enum
    members are left out of its parameters unless ``enum_names``."""
    return [
        Tool(
            name=function.name,
            description=function.description,
            parameters=_parameters(function, enum_names),
            output=function.output,
            deprecated=bool(function.deprecated),
            tags=tuple(function.tags or ()),
            function=function,
        )
        for function in functions_of(source)
    ]


def _parameters(function: ToolFunction, enum_names: bool) -> Schema:
    schema = model_parameters(function)
    return schema if enum_names else without_enum_names(schema)


def without_enum_names(schema: Schema) -> Schema:
    """``schema`` without the names of enum members (``x-enum-varnames``, ``x-enumNames``)
    anywhere; the schema itself when it has none (nothing is copied)."""
    if not any(key in node for _, node in walk(schema) for key in ENUM_NAMES_READ):
        return schema

    def visit(node: Any) -> Any:
        if not is_mapping(node):
            return node
        return transform({k: v for k, v in node.items() if k not in ENUM_NAMES_READ}, visit)

    stripped: Schema = visit(schema)
    return stripped


def owner(source: Any) -> str | None:
    """The class an application was built from, as build errors name it (None otherwise)."""
    cls = getattr(source, "cls", None)
    if isinstance(cls, type):
        from llmapp._errors import class_location

        return class_location(cls)
    return None


def export_error(source: Any, vendor: str, problems: list[tuple[str, str]]) -> Exception:
    """One ``LlmApplicationError`` for what a vendor (or its strict mode) cannot express.

    Args:
        source: what was exported (an application names its class in every location).
        vendor: the vendor's name, for the error's subject.
        problems: ``(location, reason)``, the location written ``method.param.path``
            (empty for a problem of the whole request).
    """
    from llmapp._errors import BuildProblem, LlmApplicationError

    prefix = owner(source)
    located = [
        BuildProblem(".".join(part for part in (prefix, where) if part) or "tools", reason)
        for where, reason in dict.fromkeys(problems)
    ]
    return LlmApplicationError(f"{prefix or 'the functions'} (exported for {vendor})", located)
