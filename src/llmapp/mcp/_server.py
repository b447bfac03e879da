"""An application served as an MCP server: ``server(app, target)`` builds it, ``serve`` runs it.

Any application is served (``llmapp.Application``): a class's on its instance, an OpenAPI
document's on its ``Connection`` (each call that passes the checks is sent to the HTTP
server; a wrong one is answered with the feedback and nothing is sent), another MCP
server's tools on a live ``ClientSession`` to it (a validating proxy: the model's mistakes
are explained before anything reaches the upstream server), and a composition
(``llmapp.compose``, whose parts carry their targets: ``server(composed)``). What only a
class has (prompts, resources, context parameters, ``@long_running``, icons, content
blocks, controls) is served where the function has it. A call of a class function runs
in the server's ``Runner`` and is logged by the server; the other doors' calls are
awaited on the loop (their own I/O) within the same runner's time limit, and logged by
their door, which masks what only it knows (a connection's headers and query keys).

The server is the SDK's low-level ``mcp.server.Server``; the class's docstring (another
application's ``description``) is its ``instructions``. Its handlers:

- ``tools/list``: ``llmapp.vendors.mcp.tools`` of the functions it serves, built once:
  the model's side of each function's parameters as ``inputSchema``, ``outputSchema``
  from the return type, title, description and annotations from ``@tag`` lines (see
  ``llmapp.vendors.mcp``). Left out: prompts and resources (``_prompts``), and a
  function whose human side nobody can supply (no ``human`` hook, and a human side an
  elicitation form cannot ask for).
- ``tools/call``: the application's own execution (read, repair, validate, convert,
  call), through ``LlmApplication.aexecute`` and a ``Runner`` of the server's own:
  small arguments are checked on the event loop (cheaper than a thread's round trip),
  larger ones and the plain, static and class methods in the runner's bounded worker
  threads, so neither an expensive validation nor a slow method holds up the calls
  beside it; ``async`` methods run on the loop; each call is bounded by the runner's
  timeout. Wrong arguments are answered
  ``isError: true`` with the feedback text and the method does not run; an exception in
  the method is answered ``isError: true`` with its bounded message, and the server
  goes on answering. Each call is logged to ``llmapp.mcp`` (``llmapp.kernel._log``).
- ``prompts/*`` and ``resources/*`` for methods tagged ``@tag prompt`` and
  ``@tag resource URI-TEMPLATE``, through the same call step (``_prompts``).

Human-side parameters never come from the model. A ``human`` hook supplies them: it is
called for each call of a function that has a human side, with the function and the
SDK's ``ServerRequestContext`` (``context.request`` is the HTTP request over
streamable HTTP, ``identity(context)`` the verified bearer token, ``context.meta`` the
request's ``_meta``), and returns the values (or an awaitable of them)::

    def human(function, context):
        return {"user_id": identity(context).subject}

Per-tool controls (``llmapp.kernel._controls``) read the call's context: the
``ServerRequestContext`` and the verified ``AccessToken`` (``identity``). ``tools/list``
leaves out, per request, a function whose ``enabled`` predicate says no (and its calls are
answered as unknown); a call that needs approval is asked of the user with an elicitation
form (approve: yes / no) and runs only on yes; a client that cannot be asked gets the
approval message, ``isError: true``, and the method does not run. A context parameter of
type ``ServerRequestContext`` or ``AccessToken`` receives it.

What the hook leaves out, when the client supports elicitation and each missing value is
a primitive a form can hold, is asked of the user with the SDK's ``elicit_form`` and
merged into the call; the model never sees the form or the answer. A value has one
source: the answer may fill only the fields the form asked, each checked against the
human side's schema; a key it was not asked (one the hook or the token supplied) or a
value that does not fit refuses the call, which does not run (``_elicit.checked``). A
hook that raises is answered ``isError: true`` with a generic text (hooks read secrets:
the exception and its traceback go to the ``llmapp.mcp`` logger only); a value still
missing is answered with the path that lacks one, never a value.
"""

from __future__ import annotations

import inspect
import time
import warnings
import weakref
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Literal

from llmapp import kernel
from llmapp._errors import ExecutionError
from llmapp.app import CallResult, LlmApplication, Masker, Runner, unknown_function
from llmapp.kernel import MCP, blocks, is_content, log_call, returns_content, sending
from llmapp.mcp._auth import identity
from llmapp.mcp._completion import Completions
from llmapp.mcp._context import InputRequired, McpContext, set_level
from llmapp.mcp._elicit import Declined, WrongAnswer, ask, confirm, form
from llmapp.mcp._icons import ICONS_ATTRIBUTE
from llmapp.mcp._prompts import Templates, is_template
from llmapp.mcp._sdk import sdk
from llmapp.mcp._search import Searched, SearchOptions
from llmapp.mcp._subscriptions import Subscriptions
from llmapp.mcp._tasks import LONG_RUNNING_ATTRIBUTE, MemoryTaskStore, Tasks
from llmapp.vendors.mcp import tool_result, tools

if TYPE_CHECKING:
    from mcp.server import Server, ServerRequestContext
    from mcp.types import CallToolRequestParams, ListToolsResult

    from llmapp.kernel import Application, Function

__all__ = ["HumanHook", "Transport", "answers_only", "notifies", "served", "server", "updated"]

HumanHook = Callable[[Any, Any], "Mapping[str, Any] | Awaitable[Mapping[str, Any] | None] | None"]
"""``(function, context) -> values``: the human side of a call, from the request context."""

Transport = Literal["stdio", "streamable-http"]

_served: weakref.WeakKeyDictionary[Any, _Handlers] = weakref.WeakKeyDictionary()

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def server(
    app: Application[Any, Any, Any] | type,
    target: Any = None,
    *,
    name: str | None = None,
    version: str | None = None,
    instructions: str | None = None,
    human: HumanHook | None = None,
    runner: Runner | None = None,
    elicit: bool = True,
    title: str | None = None,
    icons: list[Mapping[str, Any]] | None = None,
    website_url: str | None = None,
    request_state: Any = None,
    subscriptions: Any = None,
    tasks: Any = None,
    search: SearchOptions | bool = False,
    page_size: int | None = None,
) -> Server[Any]:
    """The SDK server for an application, not yet running.

    Args:
        app: any application (``llmapp.Application``), or a class (its
            ``application(cls)`` is used).
        target: what the calls run on: an instance of the class (or the class itself
            when every method is static or a class method), an HTTP application's
            ``Connection``, an MCP application's ``ClientSession``; ``None`` for a
            composed application.
        name: the server's name (default: the application's ``name``: the class's).
        version: the server's version (default: none).
        instructions: what the server tells clients about using it (default: the
            class's docstring, or the application's ``description``).
        human: supplies the human side of separated functions (see the module docstring).
        runner: the worker threads and the per-call timeout (default: ``Runner()`` of its
            own: 32 threads, at most 16 for one function, no timeout).
        elicit: ask the user (MCP elicitation) for human-side values the hook left out.
        title: the server's title, for people (its ``name`` is for programs).
        icons: the server's icons: ``{"src": URL, "mimeType": ..., "sizes": [...]}``.
        website_url: the server's web site.
        request_state: the SDK's ``RequestStateSecurity`` sealing the state a
            2026-07-28 call carries between its rounds (default: a key of this
            process; several workers or replicas share ``RequestStateSecurity(keys=...)``).
        subscriptions: the SDK's ``SubscriptionBus`` resource updates are published on
            (default: one in memory; one over Redis or NATS reaches every replica).
        tasks: the ``TaskStore`` of the tasks ``@long_running`` methods run as (default:
            a ``MemoryTaskStore``; ``RedisTaskStore`` for several workers or replicas).
        search: list a ``search_tools`` function and the functions this session's
            searches found, not every function (``True``, or ``SearchOptions``; see
            ``llmapp.mcp._search``).
        page_size: most tools per ``tools/list`` page (default: one page).

    Returns:
        An ``mcp.server.Server``: run it with ``serve``, mount ``asgi(...)``, or run it
        over any transport the SDK offers.

    Example::

        llmapp.mcp.serve(application(Shop), Shop(), transport="stdio")
    """
    if isinstance(app, type):
        from llmapp.app import application

        app = application(app)
    lowlevel = sdk("mcp.server.lowlevel")
    handlers = _Handlers(app, target, human, runner or Runner(), elicit, subscriptions, tasks)
    templates = handlers.templates
    extra: dict[str, Any] = {}
    if templates.prompts:
        extra.update(on_list_prompts=templates.list_prompts, on_get_prompt=templates.get_prompt)
    if templates.resources:
        extra.update(
            on_list_resources=templates.list_resources,
            on_list_resource_templates=templates.list_resource_templates,
            on_read_resource=templates.read_resource,
            on_subscribe_resource=handlers.subscriptions.subscribe,
            on_unsubscribe_resource=handlers.subscriptions.unsubscribe,
            on_subscriptions_listen=handlers.subscriptions.listen,
        )
    list_tools, call_tool = handlers.list_tools, handlers.call_tool
    if search or page_size is not None:
        options = search if isinstance(search, SearchOptions) else SearchOptions()
        served = [function for function in app.functions if function.name in handlers.listed]
        searched = Searched(
            served, list_tools, call_tool, search=options if search else None, page_size=page_size
        )
        list_tools, call_tool = searched.list_tools, searched.call_tool
    if templates:
        extra.update(on_completion=handlers.completions.complete)
    exceptions = sdk("mcp.shared.exceptions")
    with warnings.catch_warnings():  # logging is deprecated in the 2026 protocol; 2025 has it
        warnings.simplefilter("ignore", exceptions.MCPDeprecationWarning)
        built: Server[Any] = lowlevel.Server(
            name or app.name,
            version=version or "",
            title=title,
            website_url=website_url,
            icons=[sdk("mcp.types").Icon.model_validate(icon) for icon in icons or ()] or None,
            instructions=instructions if instructions is not None else _instructions(app),
            on_list_tools=list_tools,
            on_call_tool=call_tool,
            on_set_logging_level=_set_level,
            **extra,
        )
    if handlers.tasks is not None:
        _serve_tasks(built, handlers.tasks)
        built.middleware.append(handlers.start_task)
    boundary = sdk("mcp.server.request_state")
    security = request_state or boundary.RequestStateSecurity.ephemeral()
    built.middleware.append(boundary.RequestStateBoundary(security, default_audience=built.name))
    _served[built] = handlers
    return built


async def updated(built: Server[Any], uri: str) -> None:
    """Tell the clients of a server built by ``server`` subscribed to ``uri`` that it changed.

    Example::

        await llmapp.mcp.updated(mcp_server, "bank://statements/2026-03")
    """
    await _served[built].subscriptions.updated(uri)


def _serve_tasks(built: Server[Any], tasks: Tasks) -> None:
    """The 2025-11-25 spec's task methods, and the capability that says they are served."""
    types = sdk("mcp.types")
    built.add_request_handler("tasks/get", types.GetTaskRequestParams, tasks.get)
    built.add_request_handler("tasks/result", types.GetTaskPayloadRequestParams, tasks.result)
    built.add_request_handler("tasks/cancel", types.CancelTaskRequestParams, tasks.cancel)
    built.add_request_handler("tasks/list", types.PaginatedRequestParams, tasks.list)
    derive = built.get_capabilities

    def capabilities(*args: Any, **kwargs: Any) -> Any:
        # the SDK derives capabilities from the spec's handlers, which tasks are not among
        found = derive(*args, **kwargs)
        if kwargs.get("protocol_version") not in versions.MODERN_PROTOCOL_VERSIONS:
            found.tasks = types.ServerTasksCapability(
                list=types.TasksListCapability(),
                cancel=types.TasksCancelCapability(),
                requests=types.ServerTasksRequestsCapability(
                    tools=types.TasksToolsCapability(call=types.TasksCallCapability())
                ),
            )
        return found

    versions = sdk("mcp_types.version")
    built.get_capabilities = capabilities  # type: ignore[method-assign]


async def _set_level(context: ServerRequestContext[Any], params: Any) -> Any:
    set_level(context, params.level)
    return sdk("mcp.types").EmptyResult()


def answers_only(built: Server[Any]) -> bool:
    """Whether no call of a server built by ``server`` sends anything but its answer.

    Such a server loses nothing by answering a request with one JSON body instead of an
    event stream: nothing asks the user (approvals, human-side values), no hook and no
    method is handed the request context to notify or ask through.
    """
    return _served[built].answers_only


def notifies(built: Server[Any]) -> bool:
    """Whether a method of a server built by ``server`` is handed its call's context, so may
    send progress and log messages while it runs."""
    handlers = _served[built]
    return any(handlers.app.takes_context(function.name) for function in handlers.app.functions)


def served(built: Server[Any], where: str) -> str:
    """The startup line of a server built by ``server``, served ``where`` (``over stdio``)."""
    handlers = _served[built]
    counts = [f"{len(handlers.listing.tools)} tools"]
    if handlers.templates.prompts:
        counts.append(f"{len(handlers.templates.prompts)} prompts")
    if handlers.templates.resources:
        counts.append(f"{len(handlers.templates.resources)} resources")
    line = f"llmapp mcp: serving {handlers.app.name} ({', '.join(counts)}) {where}"
    if handlers.unlisted:
        line += f"; not listed, nobody can supply their human side: {', '.join(handlers.unlisted)}"
    return line


class _Handlers:
    """The request handlers of one served application."""

    def __init__(
        self,
        app: Application[Any, Any, Any],
        target: Any,
        human: HumanHook | None,
        runner: Runner,
        elicit: bool,
        bus: Any = None,
        store: Any = None,
    ) -> None:
        types = sdk("mcp.types")
        self.app = app
        self.target = target
        self.human = human
        self.runner = runner
        self.elicit = elicit
        listed, self.unlisted = [], []
        for function in app.functions:
            if is_template(function, app):
                continue
            if self._suppliable(function):
                listed.append(function)
            else:
                self.unlisted.append(function.name)
        self.listed = frozenset(function.name for function in listed)
        self.content = frozenset(
            function.name for function in listed if returns_content(_returns(app, function))
        )
        self.long_running: dict[str, Any] = {
            function.name: declared
            for function in listed
            if (declared := getattr(app.method(function.name), LONG_RUNNING_ATTRIBUTE, None))
        }
        self.tasks = (
            Tasks(store or MemoryTaskStore(), self.execute, self.answer)
            if self.long_running
            else None
        )
        entries = tools(listed)
        for entry in entries:
            _declared(app, entry, entry["name"] in self.content)
            if entry["name"] in self.long_running:
                entry["execution"] = {"taskSupport": "optional"}
        self.tools = [types.Tool.model_validate(entry) for entry in entries]
        self.listing: ListToolsResult = types.ListToolsResult(tools=self.tools)
        # 2025-11-25 made JSON Schema 2020-12 the schemas' dialect, and names it
        self.listing_2020_12 = types.ListToolsResult(
            tools=[_dialect(types, tool) for tool in self.tools]
        )
        self.controlled = {
            function.name: function for function in listed if kernel.declares(function, "enabled")
        }
        self.templates = Templates(app, self.execute)
        self.subscriptions = Subscriptions(self.templates.serves, bus)
        self.completions = Completions(
            app,
            self.templates.prompts,
            {uri: function for _, uri, function in self.templates.resources},
        )
        self.answers_only = not any(self._may_send(function) for function in app.functions)

    def _suppliable(self, function: Function) -> bool:
        separated = function.separated
        if separated is None or separated.human is None or self.human is not None:
            return True
        return self.elicit and form(function) is not None

    def _may_send(self, function: Function) -> bool:
        """Whether a call can send the client more than its answer while it runs."""
        if self.app.takes_context(function.name):  # the method's own use of the session
            return True
        if self.elicit and kernel.declares(function, "approval"):
            return True
        separated = function.separated
        if separated is None or separated.human is None:
            return False
        # the hook is handed the request context; what it leaves out may be asked for
        return self.human is not None or (self.elicit and form(function) is not None)

    async def list_tools(self, context: ServerRequestContext[Any], params: Any) -> ListToolsResult:
        listing = self.listing if _before_2020_12(context) else self.listing_2020_12
        if not self.controlled:
            return listing
        values = _context_of(context)
        shown = [
            tool
            for tool in listing.tools
            if tool.name not in self.controlled
            or kernel.enabled(self.controlled[tool.name], values)
        ]
        return listing.model_copy(update={"tools": shown})

    def _enabled(self, name: str, context: Any) -> bool:
        """Whether the listed tool ``name`` exists for this request (its ``enabled`` control)."""
        function = self.controlled.get(name)
        return function is None or kernel.enabled(function, _context_of(context))

    async def call_tool(
        self, context: ServerRequestContext[Any], params: CallToolRequestParams
    ) -> dict[str, Any]:
        # The wire spelling as a dict: the SDK validates it against the connection's
        # protocol era and writes that era's form (dropping ``resultType`` before the
        # 2026 era), so a model built here would only be taken apart again.
        name = params.name
        if name not in self.listed and self.app.function(name) is not None:
            result = _refused(name, f"{name} is not a tool of this server.")
            log_call(MCP, result, 0.0)
        elif name not in self.listed or not self._enabled(name, context):
            # answered with the tools this client is listed, not the prompts and resources
            listed = await self.list_tools(context, None)
            result = unknown_function(name, [tool.name for tool in listed.tools])
            log_call(MCP, result, 0.0)
        else:
            result = await self.execute(name, params.arguments, context)
        if isinstance(result.error, InputRequired):  # 2026-07-28: ask, then run again
            return result.error.result()
        answer = self.answer(name, result)
        answer["resultType"] = "complete"
        return answer

    async def start_task(self, ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        """Middleware: a ``tools/call`` asking for a task of a long-running tool starts one.

        The SDK checks a ``tools/call`` answer against ``CallToolResult`` (it carries the
        2025-11-25 tasks as types only), so the ``CreateTaskResult`` is answered here,
        before its check, as the SDK lets a middleware do.
        """
        params: Any = ctx.params
        name = params.get("name") if ctx.method == "tools/call" and params else None
        if (
            self.tasks is None
            or name not in self.long_running
            or params.get("task") is None
            or not self._enabled(name, ctx)
        ):
            return await call_next(ctx)
        try:
            asked = sdk("mcp.types").TaskMetadata.model_validate(params["task"])
        except ValueError:  # a malformed ttl: the method's own stands
            asked = None
        declared = self.long_running[name]
        return await self.tasks.start(name, params.get("arguments"), ctx, declared, asked)

    def answer(self, name: str, result: CallResult) -> dict[str, Any]:
        """The ``CallToolResult`` (wire spelling) of one call: content blocks for content."""
        if result.success and (name in self.content or is_content(result.value)):
            return {"content": blocks(result.value), "isError": False}
        return tool_result(self.app.function(name), result)

    async def execute(self, name: str, arguments: Any, context: Any) -> CallResult:
        """One call through the application, its human side supplied, logged once: by the
        server for a class (whose unlogged step it runs), else by the door itself, which
        masks what only it knows (a connection's headers and query keys)."""
        started = time.perf_counter()
        function = self.app.function(name)
        human: Mapping[str, Any] | None = None
        by_door = False
        try:
            with sending(arguments):  # the hook may ask which parameters the model sent
                human = await self._human(function, context)
            values: Any = _context_of(context)
            if self.app.takes_context(name):  # only a method that takes one is handed it
                values = McpContext(context, values[1:], self.subscriptions)
            result = await self._run(name, arguments, human, values, False)
            by_door = not isinstance(self.app, LlmApplication)
            if result.approval is not None and self.elicit:  # controls: ask the user
                if await confirm(context, result.approval):
                    result = await self._run(name, arguments, human, values, True)
                else:
                    by_door = False
                    result = _refused(
                        name, f"The user declined the call of {name}; it did not run."
                    )
        except Declined:  # the client cannot be asked: the approval message stands
            pass
        except _Unavailable as refused:
            by_door, result = False, _refused(name, str(refused))
        except ExecutionError as error:  # the server's setup; its text names paths, never values
            by_door, result = False, _refused(name, f"{name} could not run: {error}")
        if isinstance(result.error, InputRequired):  # a round of the call, not its end
            MCP.debug("call %s: waits for the client's answer", name)
            return result
        if not by_door:
            own = kernel.CallContext.of(_context_of(context)).own()  # the verified token
            log_call(MCP, result, time.perf_counter() - started, Masker.of(human, *own))
        return result

    def _run(
        self,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None,
        values: Any,
        approved: bool,
    ) -> Awaitable[CallResult]:
        if isinstance(self.app, LlmApplication):
            # The unlogged step, in the server's runner: this call's one record is the server's.
            return self.app._aexecute(
                self.target, name, arguments, human, False, self.runner, values, approved
            )
        return self.app.aexecute(
            self.target,
            name,
            arguments,
            human,
            runner=self.runner,
            context=values,
            approved=approved,
        )

    async def _human(self, function: Function | None, context: Any) -> Mapping[str, Any] | None:
        separated = function.separated if function is not None else None
        if function is None or separated is None or separated.human is None:
            return None
        values: Any = None
        if self.human is not None:
            try:
                values = self.human(function, context)
                if inspect.isawaitable(values):
                    values = await values
            except Exception as error:  # a hook reads secrets: its text stays in the log
                MCP.exception("call %s: the human hook raised", function.name)
                raise _Unavailable(
                    f"{function.name} could not run: its server-side values are unavailable."
                ) from error
        supplied: dict[str, Any] = dict(values or {})
        missing = frozenset(separated.human.get("required", ())) - supplied.keys()
        if missing and self.elicit:
            schema = form(function, missing)
            if schema is not None:
                try:
                    answer = await ask(context, function, schema)
                except Declined as declined:
                    raise _Unavailable(
                        f"{function.name} could not run: values from the user are "
                        f"missing ({declined})."
                    ) from declined
                except WrongAnswer as wrong:
                    raise _Unavailable(f"{function.name} could not run: {wrong}.") from wrong
                # Only keys that were missing: nothing the hook or the token gave is replaced.
                supplied.update(answer)
        return supplied


class _Unavailable(Exception):
    """The human side of a call cannot be had: answered with this text."""


def _returns(app: Application[Any, Any, Any], function: Function) -> Any:
    """The return annotation of the method behind ``function``, or ``None``."""
    import typing

    method = app.method(function.name)
    try:
        return typing.get_type_hints(method, include_extras=True).get("return")
    except Exception:  # an unresolvable hint: the application reported it when built
        return None


def _declared(app: Application[Any, Any, Any], entry: dict[str, Any], content: bool) -> None:
    """What a method declares for its ``tools/list`` entry beyond its schema: no
    ``outputSchema`` when it returns content blocks, its ``@icons``."""
    if content:
        entry.pop("outputSchema", None)
    found = getattr(app.method(entry["name"]), ICONS_ATTRIBUTE, None)
    if found:
        entry["icons"] = [dict(icon) for icon in found]


def _before_2020_12(context: Any) -> bool:
    version = str(getattr(context, "protocol_version", "") or "")
    return version < "2025-11-25"


def _dialect(types: Any, tool: Any) -> Any:
    schema = {"$schema": DIALECT, **tool.input_schema}
    return tool.model_copy(update={"input_schema": schema})


def _context_of(context: Any) -> tuple[Any, ...]:
    """The call's context values: the request context, and the verified token if any."""
    try:
        token = identity(context)
    except Exception:  # no auth machinery for this transport: no token
        token = None
    return (context,) if token is None else (context, token)


def _refused(name: str, text: str) -> CallResult:
    return CallResult(name=name, success=False, feedback=text)


def _instructions(app: Application[Any, Any, Any]) -> str | None:
    """A class's whole docstring; another application's description."""
    if isinstance(app, LlmApplication):
        return _docstring(app.cls)
    return app.description


def _docstring(cls: type) -> str | None:
    doc = cls.__dict__.get("__doc__")
    return inspect.cleandoc(doc) if isinstance(doc, str) and doc.strip() else None
