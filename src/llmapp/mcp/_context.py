"""``McpContext``: what a method served over MCP can do during its call.

A parameter typed ``McpContext`` of an ``async`` method receives it (its verbs are
coroutines, run on the server's event loop) (it is in no schema, as every context
parameter); it is the call's ``CallContext`` (``get(User)``, ``values``) with the MCP
request's own verbs::

    async def import_orders(self, url: str, ctx: McpContext) -> str:
        await ctx.log("info", f"reading {url}")
        await ctx.progress(0, 100)
        answer = await ctx.elicit("Import into which ledger?", {
            "type": "object",
            "properties": {"ledger": {"type": "string", "enum": ["main", "test"]}},
            "required": ["ledger"],
        })
        if answer.action != "accept":
            return "not imported"
        summary = await ctx.sample(f"Summarise the orders at {url}", max_tokens=200)
        return summary.text or ""

- ``progress(done, total=None, message=None)``: a ``notifications/progress`` for the
  request's progress token; nothing when the client asked for none.
- ``log(level, data, logger=None)``: a ``notifications/message`` on the request's
  stream, at or above the level the client set with ``logging/setLevel`` (every level
  until it sets one; in the 2026-07-28 protocol, the level the request's ``_meta`` opts
  into, which the SDK applies).
- ``sample(prompt, max_tokens=..., system=None, temperature=None)``: the client's model
  answers (``sampling/createMessage``); a ``Sampled`` (``text``, ``model``,
  ``stop_reason``).
- ``elicit(message, schema)`` (a form: a flat object schema of strings, numbers,
  booleans and enums, with defaults) and ``elicit_url(message, url)``: the user answers
  (``elicitation/create``); an ``Elicited`` (``action``, ``content``).
- ``updated(uri)``: tell the clients subscribed to ``uri`` that it changed.

One method body serves both protocol eras. In a 2025 session, sampling and elicitation
are requests to the client while the call waits. In the 2026-07-28 protocol (and on its
stateless transport) there is no request to the client: the call ends with an
``InputRequiredResult`` naming the question, the client asks its user or model and
sends the call again with the answers, and the method runs again from its start; this
time each question already answered is answered at once, so it reaches the next one
or its end. Code before a question therefore runs once per round: keep what it does
repeatable (reads, not writes), or ask first; and let ``InputRequired`` through (an
``except Exception`` around a question would keep the round from ending). The answers are
bound to the questions the server asked (the SDK seals the round's state), so a client
cannot answer a question that was never asked.

On the stateless HTTP transport a 2025 client is asked as in a session, on the call's
event stream (``_stateless``: its answer finds the call in this process). A request
answered with one JSON body (``json_response``) has no room for a question: ``sample`` and
``elicit`` raise ``NotAskable``, which answers the call as failed with its message.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import warnings
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal

from llmapp.kernel import MCP, CallContext
from llmapp.mcp._sdk import sdk

if TYPE_CHECKING:
    from mcp.server import ServerRequestContext

    from llmapp.mcp._subscriptions import Subscriptions

__all__ = [
    "LEVELS",
    "Elicited",
    "InputRequired",
    "McpContext",
    "NotAskable",
    "Sampled",
    "level_of",
    "set_level",
]

LEVELS: Final = ("debug", "info", "notice", "warning", "error", "critical", "alert", "emergency")
"""MCP's log levels, least severe first."""

_LEVEL_KEY: Final = "llmapp.mcp.log_level"


class NotAskable(Exception):
    """The client cannot be asked (no capability, or no back channel): the call fails."""


@dataclass(frozen=True, slots=True)
class Elicited:
    """The user's answer to an elicitation.

    Attributes:
        action: ``"accept"`` (``content`` holds the form's values), ``"decline"`` or
            ``"cancel"``.
        content: the values the user gave (an accepted form), else ``None``.
    """

    action: Literal["accept", "decline", "cancel"]
    content: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Sampled:
    """The client's model's answer to ``sample``.

    Attributes:
        text: the answer's text (``None`` when it answered with something else).
        model: the model that answered, as the client names it.
        stop_reason: why it stopped (``"endTurn"``, ``"maxTokens"``...), when told.
        result: the SDK's ``CreateMessageResult``, for what the fields above leave out.
    """

    text: str | None
    model: str
    stop_reason: str | None = None
    result: Any = field(default=None, repr=False)


class InputRequired(Exception):
    """A 2026-07-28 call asked what its request carries no answer to: the call ends with
    an ``InputRequiredResult`` and resumes when the client sends it again."""

    def __init__(self, key: str, request: dict[str, Any], answers: dict[str, Any]) -> None:
        super().__init__(f"the call waits for the client's answer ({request['method']})")
        self.key = key
        self.request = request
        self.answers = answers

    def result(self) -> dict[str, Any]:
        """The ``InputRequiredResult`` (wire spelling) answering the call for now: the
        question, and as state the answers of the earlier rounds (a client sends back only
        the answers of the round it answers) and the question awaited."""
        state = {"answers": self.answers, "pending": self.key}
        return {
            "resultType": "input_required",
            "inputRequests": {self.key: self.request},
            "requestState": json.dumps(state, separators=(",", ":")),
        }


class McpContext(CallContext):
    """The per-call context of an MCP request (see the module docstring).

    Attributes:
        request: the SDK's ``ServerRequestContext`` of the request.
        values: the call's context values (this object, the request context, and the
            verified ``AccessToken`` when there is one), as ``CallContext`` has them.
    """

    __slots__ = ("_answers", "_count", "_subscriptions", "request")

    def __init__(
        self,
        request: ServerRequestContext[Any],
        values: Sequence[Any] = (),
        subscriptions: Subscriptions | None = None,
    ) -> None:
        super().__init__((self, request, *values))
        self.request = request
        self._subscriptions = subscriptions
        self._count = 0
        params = request.params if isinstance(request.params, Mapping) else {}
        self._answers: dict[str, Any] = {}
        if self.modern:
            self._answers = _answered(params.get("requestState"), params.get("inputResponses"))

    @property
    def protocol_version(self) -> str:
        """The protocol version of the request's connection."""
        return str(self.request.protocol_version)

    @property
    def modern(self) -> bool:
        """Whether the request speaks the 2026-07-28 protocol (questions as input requests)."""
        return self.protocol_version in _modern()

    async def progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        """Report progress on the request (nothing when the client asked for none, or no
        longer listens: a task's request was answered with its handle)."""
        try:
            await self.request.session.report_progress(progress, total, message)
        except Exception:  # a notification is best effort: the call goes on
            MCP.debug("progress of a call not delivered", exc_info=True)

    async def log(self, level: str, data: Any, logger: str | None = None) -> None:
        """Send the client a log message, if ``level`` is at or above the level it set.

        Raises:
            ValueError: ``level`` is not one of MCP's levels.
        """
        if level not in LEVELS:
            raise ValueError(f"level must be one of {', '.join(LEVELS)}, not {level!r}")
        if not self.modern and LEVELS.index(level) < LEVELS.index(level_of(self.request)):
            return
        try:
            with _era_2025():
                await self.request.session.send_log_message(
                    level,  # type: ignore[arg-type]
                    data,
                    logger,
                    related_request_id=self.request.request_id,
                )
        except Exception:  # best effort, as progress
            MCP.debug("log message of a call not delivered", exc_info=True)

    async def sample(
        self,
        prompt: str | Sequence[Any],
        *,
        max_tokens: int = 1000,
        system: str | None = None,
        temperature: float | None = None,
    ) -> Sampled:
        """Ask the client's model (MCP sampling).

        Args:
            prompt: a text (one user message), or messages: ``{"role", "content"}``
                mappings whose content is a text, or the SDK's ``SamplingMessage``.
            max_tokens: most tokens the answer may take.
            system: a system prompt.
            temperature: the sampling temperature.

        Raises:
            NotAskable: the client has no sampling capability, or no back channel.
        """
        types = sdk("mcp.types")
        messages = _messages(types, prompt)
        if self.modern:
            params: dict[str, Any] = {"messages": messages, "maxTokens": max_tokens}
            if system is not None:
                params["systemPrompt"] = system
            if temperature is not None:
                params["temperature"] = temperature
            answer = self._answer({"method": "sampling/createMessage", "params": params})
            result = types.CreateMessageResult.model_validate(answer)
        else:
            self._require("sampling", "its model cannot be asked")
            try:
                with _era_2025():
                    result = await self.request.session.create_message(
                        [types.SamplingMessage.model_validate(m) for m in messages],
                        max_tokens=max_tokens,
                        system_prompt=system,
                        temperature=temperature,
                        related_request_id=self.request.request_id,
                    )
            except _no_back_channel() as error:
                raise NotAskable(_NO_CHANNEL) from error
        content = result.content
        text = content.text if getattr(content, "type", None) == "text" else None
        return Sampled(text, result.model, result.stop_reason, result)

    async def elicit(self, message: str, schema: Mapping[str, Any]) -> Elicited:
        """Ask the user to fill a form (MCP form elicitation).

        Args:
            message: what to tell the user.
            schema: the form: an object schema whose properties are strings, numbers,
                integers, booleans, enums (``enum``, titled ``oneOf``) or arrays of enums,
                each with an optional ``default``.

        Raises:
            NotAskable: the client has no elicitation capability, or no back channel.
        """
        if self.modern:
            params = {"mode": "form", "message": message, "requestedSchema": dict(schema)}
            return _elicited(self._answer({"method": "elicitation/create", "params": params}))
        self._require("elicitation", "its user cannot be asked")
        try:
            result = await self.request.session.elicit_form(
                message, dict(schema), self.request.request_id
            )
        except _no_back_channel() as error:
            raise NotAskable(_NO_CHANNEL) from error
        return Elicited(result.action, result.content)

    async def elicit_url(self, message: str, url: str, elicitation_id: str) -> Elicited:
        """Ask the user to visit ``url`` (MCP URL elicitation): a sign-in, a payment.

        The answer says whether the user agreed to go; what happens there reaches the
        server through the site, and ``elicitation_id`` names it.

        Raises:
            NotAskable: the client cannot be asked.
        """
        if self.modern:
            params = {
                "mode": "url",
                "message": message,
                "url": url,
                "elicitationId": elicitation_id,
            }
            return _elicited(self._answer({"method": "elicitation/create", "params": params}))
        self._require("elicitation", "its user cannot be asked")
        try:
            result = await self.request.session.elicit_url(
                message, url, elicitation_id, self.request.request_id
            )
        except _no_back_channel() as error:
            raise NotAskable(_NO_CHANNEL) from error
        return Elicited(result.action, result.content)

    async def updated(self, uri: str) -> None:
        """Tell the clients subscribed to ``uri`` that the resource changed."""
        if self._subscriptions is not None:
            await self._subscriptions.updated(uri)

    def _answer(self, request: dict[str, Any]) -> Any:
        """The client's answer to ``request`` in this round, or the end of the round."""
        digest = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()
        key = f"{self._count}-{digest[:16]}"
        self._count += 1
        if key in self._answers:
            return self._answers[key]
        raise InputRequired(key, request, self._answers)

    def _require(self, capability: str, why: str) -> None:
        session = self.request.session
        if getattr(session, "can_send_request", True) is False:
            raise NotAskable(_NO_CHANNEL)
        capabilities = getattr(session, "client_capabilities", None)
        # a stateless request carries no capabilities (they were declared at initialize, to
        # another transport): ask, and a client that cannot answers with an error
        if capabilities is not None and getattr(capabilities, capability, None) is None:
            raise NotAskable(f"the client declared no {capability} capability: {why}")


_NO_CHANNEL: Final = (
    "this request has no way to ask the client (it is answered with one JSON body, or "
    "too many questions wait): serve it with event streams (json_response=False), or use "
    "a client of the 2026-07-28 protocol"
)


@contextlib.contextmanager
def _era_2025() -> Iterator[None]:
    """Quiet the SDK's warning that the 2026 protocol deprecates what a 2025 session has
    (logging, sampling): the call serves the 2025 session it is in."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", sdk("mcp.shared.exceptions").MCPDeprecationWarning)
        yield


@functools.lru_cache(maxsize=1)
def _modern() -> tuple[str, ...]:
    versions: tuple[str, ...] = sdk("mcp_types.version").MODERN_PROTOCOL_VERSIONS
    return versions


def _no_back_channel() -> type[Exception]:
    found: type[Exception] = getattr(
        sdk("mcp.shared.exceptions"), "NoBackChannelError", NotImplementedError
    )
    return found


def _answered(state: Any, responses: Any) -> dict[str, Any]:
    """The answers of every earlier round: those the ``requestState`` the SDK unsealed
    carries, and the client's answer to the question it names as awaited (an answer to any
    other question was never asked for, so is not taken)."""
    try:
        read = json.loads(state) if isinstance(state, str) else {}
    except ValueError:
        return {}
    if not isinstance(read, dict):
        return {}
    answers = dict(read["answers"]) if isinstance(read.get("answers"), dict) else {}
    pending = read.get("pending")
    if isinstance(pending, str) and isinstance(responses, Mapping) and pending in responses:
        answers[pending] = responses[pending]
    return answers


def _messages(types: Any, prompt: str | Sequence[Any]) -> list[dict[str, Any]]:
    given: Sequence[Any] = (
        [{"role": "user", "content": prompt}] if isinstance(prompt, str) else prompt
    )
    messages = []
    for message in given:
        if isinstance(message, Mapping):
            content = message.get("content", "")
            if isinstance(content, str):
                content = {"type": "text", "text": content}
            messages.append({"role": message.get("role", "user"), "content": content})
        else:  # the SDK's SamplingMessage
            messages.append(message.model_dump(by_alias=True, exclude_none=True, mode="json"))
    return messages


def _elicited(answer: Any) -> Elicited:
    read = answer if isinstance(answer, Mapping) else {}
    action: Any = read.get("action")
    content = read.get("content")
    if action not in ("accept", "decline", "cancel"):
        action = "cancel"
    return Elicited(action, dict(content) if isinstance(content, Mapping) else None)


def level_of(request: Any) -> str:
    """The log level a connection's client set (``debug``, every level, until it sets one)."""
    state = _state(request)
    level = state.get(_LEVEL_KEY) if state is not None else None
    return level if isinstance(level, str) else LEVELS[0]


def set_level(request: Any, level: str) -> None:
    """Record the level a client set with ``logging/setLevel`` on its connection."""
    state = _state(request)
    if state is not None:
        state[_LEVEL_KEY] = level


def _state(request: Any) -> dict[str, Any] | None:
    """The connection's scratch state: the SDK keeps a ``Connection`` per client, which
    the request context does not expose yet (its ``Context`` will), only its session."""
    connection = getattr(getattr(request, "session", None), "_connection", None)
    state = getattr(connection, "state", None)
    return state if isinstance(state, dict) else None
