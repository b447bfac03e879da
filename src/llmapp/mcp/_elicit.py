"""Asking the user, through the client, for human-side values nobody else supplied.

MCP elicitation lets a server ask the user to fill a flat form: an object whose
properties are strings (with ``format``, length bounds), numbers, integers (with
bounds), booleans or enums of strings. ``form(function)`` builds that form from the
function's human-side schema when every human-side property is one of those, and
``None`` otherwise (such a function cannot be asked for). ``ask`` sends it with the
SDK's ``session.elicit_form`` and returns the user's answer; the model never sees
the request or the answer.

The answer fills only what was asked: a key the form did not ask for (one the hook or
the token already supplied, or one the function does not have) makes the whole answer
refused (``WrongAnswer``), and so does a value the human-side schema of its field refuses
(checked with every constraint, including those a form cannot carry). The call does not
run; the refusal names paths and expected types, never a value.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final

from llmapp.validate import validator

if TYPE_CHECKING:
    from llmapp._results import Validation
    from llmapp.kernel import Approval, Function

__all__ = ["Declined", "WrongAnswer", "ask", "form"]

_KEPT: Final = {
    "string": ("title", "description", "minLength", "maxLength", "format", "default"),
    "number": ("title", "description", "minimum", "maximum", "default"),
    "integer": ("title", "description", "minimum", "maximum", "default"),
    "boolean": ("title", "description", "default"),
}
_FORMATS: Final = frozenset({"email", "uri", "date", "date-time"})


class Declined(Exception):
    """The user declined or cancelled the form, or the client cannot show one."""


class WrongAnswer(Exception):
    """The answer holds a key that was not asked for, or a value its field refuses."""


def form(function: Function, missing: frozenset[str] | None = None) -> dict[str, Any] | None:
    """The elicitation form for a function's human side (or for the ``missing`` keys of it).

    Returns:
        A flat object schema MCP elicitation accepts, or ``None`` when a human-side
        property is not a primitive the form can hold.
    """
    separated = function.separated
    human = separated.human if separated is not None else None
    if not human:
        return None
    properties: dict[str, Any] = human.get("properties") or {}
    required = [key for key in human.get("required", ()) if missing is None or key in missing]
    wanted = {k: v for k, v in properties.items() if missing is None or k in missing}
    fields: dict[str, Any] = {}
    for key, schema in wanted.items():
        field = _field(schema, key, function)
        if field is None:
            return None
        fields[key] = field
    if not fields:
        return None
    return {"type": "object", "properties": fields, "required": required}


def _field(schema: Mapping[str, Any], key: str, function: Function) -> dict[str, Any] | None:
    kind = schema.get("type")
    if isinstance(schema.get("enum"), list) and all(isinstance(v, str) for v in schema["enum"]):
        return {"type": "string", "enum": list(schema["enum"]), "title": schema.get("title", key)}
    if kind not in _KEPT or "$ref" in schema or "anyOf" in schema:
        return None
    field = {"type": kind, **{k: schema[k] for k in _KEPT[kind] if k in schema}}
    if "format" in field and field["format"] not in _FORMATS:
        del field["format"]
    field.setdefault("title", key)
    return field


async def ask(context: Any, function: Function, schema: dict[str, Any]) -> dict[str, Any]:
    """Ask the user to fill ``schema`` for a call of ``function``; their answer.

    Raises:
        Declined: the user declined or cancelled, or the client cannot be asked.
    """
    session = getattr(context, "session", None)
    capabilities = getattr(session, "client_capabilities", None)
    if session is None or getattr(capabilities, "elicitation", None) is None:
        raise Declined("this client cannot ask its user for values")
    message = f"{function.name} needs values from you (they are not shown to the model)."
    try:
        answer = await session.elicit_form(message, schema, getattr(context, "request_id", None))
    except Exception as error:  # no back channel (stateless HTTP), a closed connection
        raise Declined(f"the user could not be asked ({type(error).__name__})") from error
    if answer.action != "accept" or answer.content is None:
        raise Declined(f"the user chose {answer.action!r}")
    return checked(function, schema, dict(answer.content))


_MAX_LISTED: Final = 10


def checked(
    function: Function, schema: Mapping[str, Any], answer: dict[str, Any]
) -> dict[str, Any]:
    """``answer`` when it fills only the fields of ``schema``, each as the human side wants.

    Raises:
        WrongAnswer: a key that was not asked for, or a value its field refuses.
    """
    asked = schema.get("properties") or {}
    foreign = sum(1 for key in answer if key not in asked)
    if foreign:  # the keys are the client's text: counted, not repeated
        raise WrongAnswer(f"the user's answer holds {foreign} field(s) that were not asked for")
    outcome = _answer_check(function, frozenset(asked), tuple(schema.get("required", ())))(answer)
    if not outcome.success:
        wrong = [f"{issue.path}: {issue.expected}" for issue in outcome.errors[:_MAX_LISTED]]
        raise WrongAnswer("the user's answer does not fit: " + "; ".join(wrong))
    return answer


@functools.lru_cache(maxsize=256)
def _answer_check(
    function: Function, keys: frozenset[str], required: tuple[str, ...]
) -> Callable[[Any], Validation]:
    """The validator of an answer to the form of ``keys``: the human side's own schemas."""
    human: Mapping[str, Any] = (function.separated.human if function.separated else None) or {}
    properties = human.get("properties") or {}
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {key: properties[key] for key in sorted(keys) if key in properties},
        "required": list(required),
        "additionalProperties": False,
    }
    if "$defs" in human:
        schema["$defs"] = human["$defs"]
    return validator(schema)


_APPROVE: Final = {
    "type": "object",
    "properties": {"approve": {"type": "boolean", "title": "Run this call"}},
    "required": ["approve"],
}


async def confirm(context: Any, approval: Approval) -> bool:
    """Ask the user whether a call that needs approval may run (MCP elicitation): the
    approval's question, every argument that will run shown (``llmapp.kernel._question``).

    Raises:
        Declined: the client cannot be asked, or the user did not answer.
    """
    session = getattr(context, "session", None)
    capabilities = getattr(session, "client_capabilities", None)
    if session is None or getattr(capabilities, "elicitation", None) is None:
        raise Declined("this client cannot ask its user for an approval")
    try:
        request = getattr(context, "request_id", None)
        answer = await session.elicit_form(approval.question, _APPROVE, request)
    except Exception as error:  # no back channel (stateless HTTP), a closed connection
        raise Declined(f"the user could not be asked ({type(error).__name__})") from error
    content = answer.content if answer.action == "accept" else None
    return isinstance(content, Mapping) and content.get("approve") is True
