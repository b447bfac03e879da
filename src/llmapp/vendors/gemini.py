"""Gemini (google-genai): functions as ``FunctionDeclaration`` fields, and function calls back.

- ``tools(source, *, strict=False, schema="json")``: ``{"name", "description",
  "parameters_json_schema"}`` per function, for ``types.Tool(function_declarations=...)``;
  with ``schema="openapi"``, ``{"name", "description", "parameters"}`` in the older
  OpenAPI-subset ``Schema`` form, for models or API versions without JSON Schema
  support. The schema is the model's side only (``separated.llm``).
- ``call_tools(app, target, response, *, human=None)`` / ``acall_tools``: runs every
  ``function_call`` part of a ``GenerateContentResponse`` (SDK object or plain dict,
  a ``Content`` or a list of parts) and returns function-response parts
  ``{"function_response": {"id", "name", "response": {"output": text}}}``, with
  ``{"error": text}`` instead of ``output`` when the arguments were wrong or the
  method raised (Gemini's documented error key). Send them back as one content's parts.
- ``problems(schema)``: why Gemini's JSON-Schema subset would refuse a parameters
  schema; ``openapi_problems(schema)``: why ``types.Schema`` would.

``strict=True`` (JSON form) keeps to the documented JSON-Schema subset of
``parameters_json_schema``: ``$id``, ``$defs``, ``$ref``, ``$anchor``, ``type``,
``format``, ``title``, ``description``, ``enum`` (strings and numbers), ``items``,
``prefixItems``, ``minItems``, ``maxItems``, ``minimum``, ``maximum``, ``anyOf``,
``oneOf``, ``properties``, ``additionalProperties``, ``required``,
``propertyOrdering``. Other assertions and annotations move into the description
(still enforced by llmapp's validator); ``const`` becomes a one-value ``enum``; a
``$ref`` with siblings becomes ``{"anyOf": [{"$ref": ...}], ...siblings}`` (Gemini
allows no sibling beside ``$ref``). What cannot be expressed raises
``LlmApplicationError`` naming ``Class.method.param``: a recursive type reached
from a required property (Gemini unrolls cycles only through optional ones) and
keywords holding subschemas outside the subset. Gemini has no per-tool strict flag;
constrained decoding is chosen with ``FunctionCallingConfig(mode="VALIDATED")``.

The OpenAPI form (``schema="openapi"``, any ``strict``) has no ``$ref`` (definitions
are inlined; a recursive type is a build error), ``nullable: true`` instead of a
null branch or a ``null`` in a type list, upper-case type names, a tuple written as
an array of the union of its items with its length fixed, and every keyword
``types.Schema`` lacks moved into the description.

No google-genai package is needed: entries are plain dicts and responses are read by field.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Literal, cast

from llmapp.jsonschema import is_mapping, json_type, recursive_definitions, ref_name, walk
from llmapp.kernel import Audio, Image, describe, is_content
from llmapp.vendors._calls import Executor, Human, ToolCall, arun, items, per_call, read, run
from llmapp.vendors._plan import Decision, ExportPlan, moved_keywords
from llmapp.vendors._source import export_error, tools_of
from llmapp.vendors._subset import (
    Refusal,
    Subset,
    anything,
    conform,
    definitions,
    inline_refs,
    json_types,
    movable,
    note,
    refusals,
    text,
    transform,
    where,
)

if TYPE_CHECKING:
    from llmapp.vendors._types import GeminiPart, GeminiTool

__all__ = [
    "OPENAPI_SUBSET",
    "SUBSET",
    "acall_tools",
    "call_tools",
    "openapi_parameters",
    "openapi_problems",
    "plan",
    "problems",
    "strict_parameters",
    "tools",
]

Schema = dict[str, Any]
Form = Literal["json", "openapi"]


def _strings_or_numbers(value: Any) -> str | None:
    ok = isinstance(value, list) and all(
        isinstance(option, (str, int, float)) and not isinstance(option, bool) for option in value
    )
    return None if ok else "may only list strings and numbers"


SUBSET = Subset(
    "Gemini's JSON Schema support",
    {
        **dict.fromkeys(
            (
                "$id",
                "$defs",
                "$ref",
                "$anchor",
                "format",
                "title",
                "description",
                "items",
                "prefixItems",
                "minItems",
                "maxItems",
                "minimum",
                "maximum",
                "anyOf",
                "oneOf",
                "properties",
                "additionalProperties",
                "required",
                "propertyOrdering",
            ),
            anything,
        ),
        "type": json_types,
        "enum": _strings_or_numbers,
    },
)
"""The keywords of ``parameters_json_schema`` Gemini documents, with the values it accepts."""


def _upper_type(value: Any) -> str | None:
    return None if isinstance(value, str) and value.upper() in _OPENAPI_TYPES else "is not a type"


def _strings(value: Any) -> str | None:
    ok = isinstance(value, list) and all(isinstance(option, str) for option in value)
    return None if ok else "may only list strings"


_OPENAPI_TYPES = frozenset({"STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT", "NULL"})

OPENAPI_SUBSET = Subset(
    "Gemini's OpenAPI Schema",
    {
        **dict.fromkeys(
            (
                "format",
                "title",
                "description",
                "nullable",
                "maxItems",
                "minItems",
                "properties",
                "required",
                "minProperties",
                "maxProperties",
                "minLength",
                "maxLength",
                "pattern",
                "example",
                "anyOf",
                "propertyOrdering",
                "default",
                "items",
                "minimum",
                "maximum",
                "additionalProperties",
            ),
            anything,
        ),
        "type": _upper_type,
        "enum": _strings,
    },
)
"""The fields of google-genai's ``types.Schema`` (its JSON names), with the values they take."""


def problems(schema: Mapping[str, Any]) -> list[str]:
    """Why Gemini's JSON-Schema subset (``parameters_json_schema``) would refuse a schema.

    Returns:
        One ``"/json/pointer: reason"`` per problem; empty when it would be accepted.
    """
    return [str(refusal) for refusal in _refusals(schema)]


def _refusals(schema: Mapping[str, Any]) -> list[Refusal]:
    found = refusals(schema, SUBSET, _node_refusals)
    found.extend(_required_cycles(schema))
    return found


def _node_refusals(node: Mapping[str, Any]) -> list[str]:
    if "$ref" in node and any(not key.startswith("$") for key in node):
        return ["a `$ref` cannot have sibling keywords (other than `$`-keywords)"]
    return []


def _required_cycles(schema: Mapping[str, Any]) -> list[Refusal]:
    """Required properties of a recursive definition that lead straight back into a cycle."""
    defs = definitions(schema)
    cyclic = recursive_definitions(defs)
    found: list[Refusal] = []
    for name in sorted(cyclic):
        for tokens, node in walk(defs[name], ("$defs", name)):
            for key in node.get("required", ()):
                if _reaches(node.get("properties", {}).get(key), cyclic):
                    found.append(
                        Refusal(
                            (*tokens, "properties", key),
                            "a recursive reference in a required property (Gemini unrolls"
                            " cycles only through optional properties; nullable is not enough)",
                        )
                    )
    return found


def _reaches(schema: Any, cyclic: frozenset[str]) -> bool:
    """Whether a property's value is itself (or is one branch of) a recursive reference."""
    if not is_mapping(schema):
        return False
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref_name(ref) in cyclic:
        return True
    branches = [*schema.get("anyOf", ()), *schema.get("oneOf", ())]
    return any(_reaches(branch, cyclic) for branch in branches)


def strict_parameters(schema: Mapping[str, Any]) -> tuple[Schema, list[tuple[str, str]]]:
    """A parameters schema kept to Gemini's JSON-Schema subset, with what it cannot express.

    Returns:
        The schema and ``(path, reason)`` pairs, the path written ``param.path``.
    """
    result = _wrapped_refs(conform(_const_as_enum(schema), SUBSET))
    return result, [(where(refusal.tokens), refusal.reason) for refusal in _refusals(result)]


def _const_as_enum(schema: Any) -> Any:
    if not is_mapping(schema):
        return schema
    result = transform(schema, _const_as_enum)
    if "const" in result and "enum" not in result:
        value = result.pop("const")
        result.setdefault("type", json_type(value))
        result["enum"] = [value]
    return result


def _wrapped_refs(schema: Any) -> Any:
    """``{"$ref": r, ...siblings}`` -> ``{"anyOf": [{"$ref": r}], ...siblings}``."""
    if not is_mapping(schema):
        return schema
    result = transform(schema, _wrapped_refs)
    ref = result.get("$ref")
    siblings = any(not key.startswith("$") for key in result)
    if isinstance(ref, str) and siblings and "anyOf" not in result:
        del result["$ref"]
        result["anyOf"] = [{"$ref": ref}]
    return result


def openapi_problems(schema: Mapping[str, Any]) -> list[str]:
    """Why google-genai's OpenAPI-subset ``types.Schema`` would refuse a schema.

    Returns:
        One ``"/json/pointer: reason"`` per problem; empty when it would be accepted.
    """
    return [str(refusal) for refusal in refusals(schema, OPENAPI_SUBSET)]


def openapi_parameters(schema: Mapping[str, Any]) -> tuple[Schema, list[tuple[str, str]]]:
    """A parameters schema in Gemini's OpenAPI-subset form, with what it cannot express.

    Returns:
        The schema and ``(path, reason)`` pairs, the path written ``param.path``.
    """
    inlined, cyclic = inline_refs(schema)
    if cyclic:
        reason = "a recursive type needs `$ref`, which the OpenAPI form lacks (use schema='json')"
        return inlined, [(name, reason) for name in sorted(cyclic)]
    result = _openapi(inlined)
    found = refusals(result, OPENAPI_SUBSET)
    return result, [(where(refusal.tokens), refusal.reason) for refusal in found]


def _openapi(schema: Any) -> Any:
    if not is_mapping(schema):
        return schema
    node: Schema = dict(schema)
    nullable = _drop_null(node)
    node = _rewritten(node)
    node = transform(node, _openapi)
    if nullable:
        node["nullable"] = True
    moved = [
        f"@{keyword} {text(node.pop(keyword))}"
        for keyword in list(node)
        if keyword != "description"
        and movable(keyword)
        and OPENAPI_SUBSET.refusal(keyword, node[keyword]) is not None
    ]
    return note(node, moved)


def _drop_null(node: Schema) -> bool:
    """Remove ``null`` from the node's types or branches; whether it was there."""
    declared = node.get("type")
    if isinstance(declared, list) and "null" in declared:
        rest = [name for name in declared if name != "null"]
        node["type"] = rest[0] if len(rest) == 1 else rest
        return True
    branches = node.get("anyOf") or node.get("oneOf")
    key = "anyOf" if "anyOf" in node else "oneOf"
    if isinstance(branches, list) and {"type": "null"} in branches:
        rest = [branch for branch in branches if branch != {"type": "null"}]
        del node[key]
        if len(rest) == 1 and is_mapping(rest[0]):
            own = {k: v for k, v in node.items()}
            node.clear()
            node.update({**rest[0], **own})
        else:
            node["anyOf"] = rest
        return True
    return declared == "null"


def _rewritten(node: Schema) -> Schema:
    """The JSON-Schema spellings ``types.Schema`` does not have, in its own terms."""
    for keyword, rewrite in _REWRITES.items():
        if keyword in node:
            rewrite(node)
    declared = node.get("type")
    if isinstance(declared, str):
        node["type"] = declared.upper()
    elif isinstance(declared, list):  # several types: one branch each
        del node["type"]
        node["anyOf"] = [{"type": name.upper()} for name in declared]
    return node


def _const(node: Schema) -> None:
    value = node.pop("const")
    if isinstance(value, str):
        node.setdefault("type", "string")
        node["enum"] = [value]
    else:
        note(node, [f"@const {text(value)}"])


def _one_of(node: Schema) -> None:
    node["anyOf"] = node.pop("oneOf")


def _prefix_items(node: Schema) -> None:
    prefix = node.pop("prefixItems")
    options = [option for index, option in enumerate(prefix) if option not in prefix[:index]]
    node["items"] = options[0] if len(options) == 1 else {"anyOf": options}
    node["minItems"] = node["maxItems"] = len(prefix)
    note(node, [f"@prefixItems {text(prefix)}"])


def _enum(node: Schema) -> None:
    if not all(isinstance(option, str) for option in node["enum"]):
        note(node, [f"@enum {text(node.pop('enum'))}"])


def _open_by_default(node: Schema) -> None:
    """``additionalProperties: false`` is left out: llmapp's validator refuses extra keys anyway."""
    if node["additionalProperties"] is False:
        del node["additionalProperties"]


_REWRITES: dict[str, Callable[[Schema], None]] = {
    "const": _const,
    "oneOf": _one_of,
    "prefixItems": _prefix_items,
    "enum": _enum,
    "additionalProperties": _open_by_default,
}


def tools(source: Any, *, strict: bool = False, schema: Form = "json") -> list[GeminiTool]:
    """Gemini ``FunctionDeclaration`` fields for an application or an iterable of functions.

    Args:
        source: an application (``.functions``) or an iterable of functions.
        strict: keep ``parameters_json_schema`` to Gemini's documented JSON-Schema subset.
        schema: ``"json"`` (``parameters_json_schema``) or ``"openapi"`` (``parameters``
            in the OpenAPI-subset ``Schema`` form).

    Returns:
        One declaration per function: ``types.Tool(function_declarations=tools(app))``.

    Raises:
        LlmApplicationError: every ``Class.method.param`` the chosen form cannot express.
        ValueError: an unknown ``schema`` form.

    Example::

        config = types.GenerateContentConfig(
            tools=[types.Tool(function_declarations=gemini.tools(app))]
        )
    """
    if schema not in ("json", "openapi"):
        raise ValueError(f"schema must be 'json' or 'openapi', not {schema!r}")
    declarations: list[dict[str, Any]] = []
    failures: list[tuple[str, str]] = []
    for tool in tools_of(source):
        parameters = tool.parameters
        found: list[tuple[str, str]] = []
        if schema == "openapi":
            parameters, found = openapi_parameters(parameters)
        elif strict:
            parameters, found = strict_parameters(parameters)
        failures.extend((f"{tool.name}.{path}".rstrip("."), reason) for path, reason in found)
        declaration: dict[str, Any] = {"name": tool.name}
        if tool.description is not None:
            declaration["description"] = tool.description
        key = "parameters" if schema == "openapi" else "parameters_json_schema"
        declaration[key] = parameters
        declarations.append(declaration)
    if failures:
        raise export_error(source, "Gemini" if schema == "json" else "Gemini OpenAPI", failures)
    return cast("list[GeminiTool]", declarations)  # the SDK's own TypedDict


_DESCRIBED = 4_000
"""Most characters of a schema written into a description (the last form a plan tries)."""


def plan(source: Any, *, prefer: Iterable[str] = ()) -> ExportPlan:
    """The export Gemini accepts whole, decided per function.

    Gemini refuses a request for one schema it cannot read, so each function goes in
    the first form its checker accepts: the JSON-Schema subset (``parameters_json_schema``,
    refused keywords moved into descriptions); the same with definitions inlined; the
    OpenAPI ``Schema`` form (``parameters``); and last, an open object whose description
    carries the schema as JSON (the model reads it; llmapp's validator enforces it).
    Gemini has no per-tool strict flag: ``Decision.strict`` is true for the JSON-Schema
    forms, which ``FunctionCallingConfig(mode="VALIDATED")`` decodes against.

    Args:
        source: an application or an iterable of functions.
        prefer: accepted for the same call as the other planners (the order changes nothing).

    Returns:
        An ``ExportPlan``: ``tools`` for ``types.Tool(function_declarations=...)`` and a
        ``Decision`` per function.
    """
    declarations: list[dict[str, Any]] = []
    decisions: list[Decision] = []
    for tool in tools_of(source):
        key, schema, decision = _planned(tool.name, tool.parameters)
        declaration: dict[str, Any] = {"name": tool.name}
        if tool.description is not None:
            declaration["description"] = tool.description
        declaration[key] = schema
        declarations.append(declaration)
        decisions.append(decision)
    return ExportPlan("Gemini", declarations, decisions)


def _planned(name: str, parameters: Schema) -> tuple[str, Schema, Decision]:
    """``(declaration key, schema, decision)``: the first form Gemini's checker accepts."""
    refs = "kept" if definitions(parameters) else "none"
    schema, found = strict_parameters(parameters)
    moved = moved_keywords(_const_as_enum(parameters), SUBSET)
    if not found:
        return "parameters_json_schema", schema, Decision(name, True, moved, refs)
    where_, why = found[0]
    reason = f"the JSON-Schema subset cannot express {where_ or 'the schema'} ({why})"
    inlined, cyclic = inline_refs(parameters)
    if not cyclic:
        schema, again = strict_parameters(inlined)
        if not again:
            decision = Decision(name, True, moved, "inlined", reason=reason)
            return "parameters_json_schema", schema, decision
        schema, again = openapi_parameters(parameters)
        if not again:
            moved = moved_keywords(inlined, OPENAPI_SUBSET)
            decision = Decision(name, False, moved, "inlined", "openapi", reason)
            return "parameters", schema, decision
    text = json.dumps(parameters, ensure_ascii=False)[:_DESCRIBED]
    described: Schema = {
        "type": "object",
        "description": f"The arguments follow this JSON Schema: {text}",
    }
    decision = Decision(name, False, ("(root): the whole schema",), "none", "described", reason)
    return "parameters_json_schema", described, decision


def call_tools(
    app: Executor, target: Any, response: Any, *, human: Human | None = None, context: Any = None
) -> list[GeminiPart]:
    """Run every function call of a Gemini response; return the function-response parts.

    Args:
        app: the application (anything with ``execute(target, name, arguments, human=)``).
        target: what the calls run on (the class instance).
        response: a ``GenerateContentResponse``, a ``Content`` or a list of parts;
            SDK objects or plain dicts.
        human: function name -> the human-side values for that function's calls.
        context: the calls' context (a class application's ``context=``: per-tool
            controls and context parameters read it).

    Returns:
        One ``{"function_response": {"id", "name", "response"}}`` part per call, in order.

    Example::

        contents.append(response.candidates[0].content)
        contents.append({"role": "user", "parts": gemini.call_tools(app, shop, response)})
    """
    answers = [
        _answer(*pair)
        for pair in run(app, target, _read_calls(response), human, **per_call(context))
    ]
    return cast("list[GeminiPart]", answers)  # the SDK's own TypedDicts


async def acall_tools(
    app: Executor, target: Any, response: Any, *, human: Human | None = None, context: Any = None
) -> list[GeminiPart]:
    """``call_tools`` for async code: the calls run concurrently, answers in call order."""
    pairs = await arun(app, target, _read_calls(response), human, **per_call(context))
    return cast("list[GeminiPart]", [_answer(*pair) for pair in pairs])


def _answer(call: ToolCall, result: Any) -> dict[str, Any]:
    key = "output" if result.success else "error"
    name = call.name if isinstance(call.name, str) else ""  # a part that named no function
    rich = result.success and is_content(getattr(result, "value", None))
    shown = describe(result.value) if rich else result.message()
    answer: dict[str, Any] = {"name": name, "response": {key: shown}}
    if rich:  # images, audio and binary resources as the response's own parts
        parts = [
            {"inline_data": {"mime_type": item.mime_type, "data": item.data}}
            for item in (result.value if isinstance(result.value, list) else [result.value])
            if isinstance(item, (Image, Audio))
        ]
        if parts:
            answer["parts"] = parts
    if call.id is not None:
        answer = {"id": call.id, **answer}
    return {"function_response": answer}


def _read_calls(response: Any) -> list[ToolCall]:
    candidates = items(response, "candidates")
    if candidates:
        response = read(candidates[0], "content")
    parts = response if isinstance(response, list) else items(response, "parts")
    calls = []
    for part in parts:
        call = read(part, "function_call")
        if call is None and isinstance(part, Mapping):
            call = part.get("functionCall")
        if call is not None:
            calls.append(ToolCall(read(call, "id"), read(call, "name"), read(call, "args")))
    return calls
