"""``structured_output(T)``: one Python type as the model's answer, with its schema and reader.

The counterpart of typia's ``llm.structuredOutput<T>()``. ``T`` is anything a parameter may
be (a dataclass, a TypedDict, ``list[Product]``, ``Literal[...]``...). Its schema comes from
the same type model and emitter as a method's parameters; an object type is the schema's
root, anything else is wrapped as ``{"result": ...}`` (vendors want an object at the root),
as ``llmapp.vendors.mcp.output_schema`` wraps a function's output. ``parse(text)`` reads the
model's answer through the call step every door shares (``llmapp.kernel._kernel``): the
lenient reader and its size limit, refusing an answer read only in part (text after the
value, a bracket closed by another kind...), the repairs the schema allows, the generated
validator, ``feedback`` for the next try, and then the compiled converter to ``T``. It
returns a ``CallResult``: ``value`` is the ``T``, ``data`` the JSON, ``message()`` the
feedback when the answer was wrong.

Each vendor's request fields, ready to spread into the SDK call: ``openai()`` (Chat
``response_format``; ``api="responses"`` the ``text.format``), ``anthropic()`` (a forced
tool; ``mode="output_format"`` the structured-output field) and ``gemini()`` (the
``GenerateContentConfig`` fields). ``strict=True`` gives that vendor's strict form of the
schema (every property required, optional ones nullable...), and the answer is still
checked against the full schema: constraints the strict form moved into descriptions are
enforced here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cached_property
from typing import Any, Generic, Literal, TypeVar, overload

from llmapp import convert
from llmapp._errors import LlmApplicationError
from llmapp._results import ValidationFailure, ValidationIssue
from llmapp.app import CallResult
from llmapp.introspect import TypeBuilder, type_name
from llmapp.jsonschema import Path
from llmapp.kernel import ModelSide, check_arguments, error_text, failed
from llmapp.schema import SchemaEmitter
from llmapp.validate import validator
from llmapp.vendors import anthropic, export_error, gemini, openai, without_enum_names
from llmapp.vendors.mcp import RESULT, output_schema

__all__ = ["StructuredOutput", "structured_output"]

T = TypeVar("T")
Schema = dict[str, Any]
Strict = Callable[[Schema], "tuple[Schema, list[tuple[str, str]]]"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


class StructuredOutput(Generic[T]):
    """One type as the model's answer (see the module docstring).

    Attributes:
        type: the Python type.
        name: the schema's name (``[A-Za-z0-9_-]``, at most 64 characters).
        description: what the answer is (the type's docstring, or ``None``).
        schema: the object schema the model writes, with every constraint.
        wrapped: whether the type's value sits under ``"result"`` in that schema.
    """

    def __init__(self, tp: Any, name: str | None, *, reference: bool) -> None:
        builder = TypeBuilder()
        node = builder.build(tp, location=name or type_name(tp))
        where = name or type_name(tp)
        if node is None or builder.problems:
            raise LlmApplicationError(where, builder.problems)
        graph = builder.graph()
        emitted = SchemaEmitter(graph, reference=reference).output(node)
        assert emitted is not None  # a type's node always has a schema
        self.type = tp
        self.name = (_UNSAFE.sub("_", name or type_name(tp)) or "output")[:64]
        whole = output_schema(emitted)
        assert whole is not None
        self.schema, self.wrapped = whole
        described = self.schema.get("description")
        self.description: str | None = described if isinstance(described, str) else None
        self._node, self._graph = node, graph
        self._side = ModelSide(self.schema, validator(self.schema))

    deprecated = False
    """An answer is never deprecated (what the call step reads of what it calls)."""

    def __repr__(self) -> str:
        return f"<StructuredOutput {self.name}>"

    @cached_property
    def _convert(self) -> Callable[[Any], Any]:
        return convert.compile_converter(self._node, self._graph)

    def parse(self, answer: Any) -> CallResult:
        """Read the model's answer into the type, or say what to correct.

        Args:
            answer: the model's text (read leniently), or the mapping a forced tool call
                carries (Anthropic's ``tool_use.input``).

        Returns:
            A ``CallResult``: on success ``value`` is the Python value of the type and
            ``data`` its JSON; otherwise ``feedback`` (``message()``) marks every mistake in
            the model's own answer, to send back for the next try.

        Example::

            result = output.parse(completion.choices[0].message.content)
            booking = result.value if result.success else retry_with(result.message())
        """
        checked = check_arguments(self, answer, self._side)
        if isinstance(checked, CallResult):
            return checked
        data, repairs = checked
        inner = data.get(RESULT) if self.wrapped else data
        try:
            value = self._convert(inner)
        except convert.ConversionError as refused:
            segments = [RESULT, *refused.segments[::-1]] if self.wrapped else refused.segments[::-1]
            reason = error_text(refused.cause).removeprefix("The function raised ")
            issue = ValidationIssue(
                str(Path(segments)), refused.expected, _at(data, segments), reason
            )
            return failed(self, ValidationFailure(data, [issue]), repairs)
        return CallResult(name=self.name, success=True, value=value, data=inner, repairs=repairs)

    def _vendor_schema(self, vendor: str, strict: bool, strict_form: Strict) -> Schema:
        sent = without_enum_names(self.schema)  # as every vendor export: ``vendors._source``
        if not strict:
            return sent
        schema, problems = strict_form(sent)
        if problems:
            raise export_error(
                None, vendor, [(f"{self.name}.{p}".rstrip("."), r) for p, r in problems]
            )
        return schema

    def openai(
        self, *, strict: bool = True, api: Literal["chat", "responses"] = "chat"
    ) -> dict[str, Any]:
        """OpenAI's structured-output field: ``{"response_format": ...}`` for Chat
        Completions, ``{"text": {"format": ...}}`` for the Responses API.

        Raises:
            LlmApplicationError: with ``strict=True``, what strict mode cannot express.
        """
        schema = self._vendor_schema("OpenAI", strict, openai.strict_parameters)
        spec: dict[str, Any] = {"name": self.name, "schema": schema, "strict": strict}
        if self.description:
            spec["description"] = self.description
        if api == "responses":
            return {"text": {"format": {"type": "json_schema", **spec}}}
        return {"response_format": {"type": "json_schema", "json_schema": spec}}

    def anthropic(
        self, *, strict: bool = False, mode: Literal["tool", "output_format"] = "tool"
    ) -> dict[str, Any]:
        """Anthropic's fields: a forced tool (``tools`` and ``tool_choice``; the answer is the
        ``tool_use`` block's ``input``), or ``mode="output_format"``: the structured-output
        ``output_format`` (the answer is the text).

        Raises:
            LlmApplicationError: with ``strict=True``, what strict mode cannot express.
        """
        schema = self._vendor_schema("Anthropic", strict, anthropic.strict_input_schema)
        if mode == "output_format":
            return {"output_format": {"type": "json_schema", "schema": schema}}
        tool: dict[str, Any] = {"name": self.name, "input_schema": schema}
        if self.description:
            tool["description"] = self.description
        if strict:
            tool["strict"] = True
        return {"tools": [tool], "tool_choice": {"type": "tool", "name": self.name}}

    def gemini(self, *, strict: bool = False) -> dict[str, Any]:
        """Gemini's ``GenerateContentConfig`` fields: ``response_mime_type`` and
        ``response_json_schema``.

        Raises:
            LlmApplicationError: with ``strict=True``, what Gemini's subset cannot express.
        """
        schema = self._vendor_schema("Gemini", strict, gemini.strict_parameters)
        return {"response_mime_type": "application/json", "response_json_schema": schema}


def _at(data: Any, segments: list[str | int]) -> Any:
    """The model's value at ``segments`` (``None`` where it cannot be found)."""
    for segment in segments:
        try:
            data = data[segment]
        except (LookupError, TypeError):
            return None
    return data


@overload
def structured_output(
    tp: type[T], *, name: str | None = ..., reference: bool = ...
) -> StructuredOutput[T]: ...
@overload
def structured_output(
    tp: Any, *, name: str | None = ..., reference: bool = ...
) -> StructuredOutput[Any]: ...
def structured_output(
    tp: Any, *, name: str | None = None, reference: bool = True
) -> StructuredOutput[Any]:
    """The model's answer as a Python type: its schema per vendor, and ``parse``.

    Args:
        tp: the type (anything a method's parameter may be).
        name: the schema's name (default: the type's name).
        reference: keep named types in ``$defs`` (``False`` inlines all but recursive ones).

    Raises:
        LlmApplicationError: the type cannot be expressed (listing every problem).

    Example::

        output = structured_output(Booking)
        completion = client.chat.completions.create(model=..., messages=..., **output.openai())
        result = output.parse(completion.choices[0].message.content)
    """
    return StructuredOutput(tp, name, reference=reference)
