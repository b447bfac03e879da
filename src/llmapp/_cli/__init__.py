"""The ``llmapp`` command: print a class's LLM functions as JSON."""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from llmapp._cli.targets import TargetError, find, load_module, where
from llmapp._errors import LlmappError

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    A reader that stops early (``llmapp schema ... | head -1``) ends the command quietly
    with the status a program killed by ``SIGPIPE`` has, 141, and no traceback.
    """
    try:
        status = _run(argv)
        sys.stdout.flush()  # a closed pipe shows here, while the handler below still runs
    except BrokenPipeError:
        # Python flushes stdout again at exit and would complain: point it at nowhere first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return _BROKEN_PIPE
    return status


_BROKEN_PIPE = 128 + 13
"""The status of a command whose reader went away (``SIGPIPE`` is signal 13)."""


def _run(argv: Sequence[str] | None) -> int:
    parser = _parser()
    options = parser.parse_args(argv)
    if options.command == "openapi":
        return _openapi(options)
    if options.command == "mcp" and is_document(options.target):
        return _serve_mcp(None, options)
    try:
        cls = load_class(options.target)
    except (TargetError, ValueError) as error:
        print(f"llmapp: cannot load {options.target!r}: {error}", file=sys.stderr)
        return 2
    if options.command == "mcp":
        return _serve_mcp(cls, options)
    from llmapp.app import application

    try:
        if options.vendor:  # the vendor export applies its own strict rules
            app = application(cls, reference=not options.inline)
            data: object = vendor_tools(app, options.vendor, strict=options.strict)
        else:
            app = application(cls, strict=options.strict, reference=not options.inline)
            data = app.to_list()
    except LlmappError as error:
        print(f"llmapp: {error}", file=sys.stderr)
        return 1
    print(json.dumps(data, indent=options.indent, ensure_ascii=False))
    return 0


VENDORS: dict[str, tuple[str, dict[str, str]]] = {
    "openai": ("openai", {}),
    "openai-responses": ("openai", {"api": "responses"}),
    "anthropic": ("anthropic", {}),
    "gemini": ("gemini", {}),
    "gemini-openapi": ("gemini", {"schema": "openapi"}),
    "mcp": ("mcp", {}),
}
"""``--vendor`` name -> (module of ``llmapp.vendors``, keyword arguments of its ``tools``)."""


def vendor_tools(source: object, vendor: str, *, strict: bool) -> object:
    """What ``llmapp.vendors.<module>.tools(source, strict=strict, ...)`` returns for a name."""
    module, options = VENDORS[vendor]
    tools = importlib.import_module(f"llmapp.vendors.{module}").tools
    return tools(source, strict=strict, **options)


def load_class(target: str) -> type:
    """Find ``module.path:Class`` or ``path/to/file.py:Class``.

    Raises:
        TargetError: the module cannot be imported or has no such class (one line).
        ValueError: ``target`` is not of that form.
    """
    location, separator, name = target.rpartition(":")
    if not separator or not location or not name:
        raise ValueError("expected MODULE:CLASS or path/to/file.py:CLASS")
    return cast("type", find(load_module(location), name, "class", inspect.isclass))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="llmapp", description="Turn Python classes into LLM function-calling applications."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    schema = commands.add_parser("schema", help="print a class's LLM functions as JSON")
    schema.add_argument("target", help="MODULE:CLASS or path/to/file.py:CLASS")
    schema.add_argument("--strict", action="store_true", help="OpenAI structured-output rules")
    schema.add_argument("--inline", action="store_true", help="inline non-recursive named types")
    schema.add_argument("--indent", type=int, default=2, help="JSON indentation (default 2)")
    schema.add_argument(
        "--vendor", choices=sorted(VENDORS), help="print what that vendor's tools() returns"
    )
    mcp = commands.add_parser(
        "mcp", help="serve a class or an OpenAPI document as an MCP server (extra: mcp)"
    )
    mcp.add_argument(
        "target", help="MODULE:CLASS, path/to/file.py:CLASS or an OpenAPI document (.json/.yaml)"
    )
    mcp.add_argument(
        "--base-url",
        help="a document's server: where its calls are sent (default: its first server URL)",
    )
    mcp.add_argument(
        "--header-env",
        action="append",
        default=[],
        metavar="NAME=VAR",
        help="send header NAME with every call of a document, its value read from the "
        "environment variable VAR (repeatable)",
    )
    mcp.add_argument(
        "--approval",
        action="append",
        default=[],
        metavar="FUNCTION",
        help="a document's function whose calls wait for the user's approval (repeatable; "
        "an operation tagged destructive waits already)",
    )
    mcp.add_argument(
        "--disable",
        action="append",
        default=[],
        metavar="FUNCTION",
        help="a document's function that is neither listed nor called (repeatable)",
    )
    mcp.add_argument("--transport", choices=("stdio", "streamable-http"), default="stdio")
    mcp.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    mcp.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    mcp.add_argument("--path", default="/mcp", help="HTTP endpoint path (default /mcp)")
    mcp.add_argument("--name", help="the server's name (default: the class's)")
    mcp.add_argument(
        "--factory",
        help="a callable in the class's module (or MODULE:FUNCTION) returning the instance "
        "to serve (default: the class called with no arguments)",
    )
    mcp.add_argument(
        "--human",
        help="MODULE:FUNCTION (or a name in the class's module): the hook "
        "(function, context) -> values supplying each call's human side",
    )
    mcp.add_argument(
        "--no-elicit", action="store_true", help="never ask the user for human-side values"
    )
    mcp.add_argument(
        "--stateless",
        action="store_true",
        help="HTTP without sessions (JSON responses unless a method takes its McpContext)",
    )
    mcp.add_argument(
        "--workers", type=int, default=1, help="HTTP worker processes (implies --stateless)"
    )
    mcp.add_argument(
        "--token-env",
        metavar="VAR",
        help="require 'Authorization: Bearer <token>', the token read from this variable",
    )
    mcp.add_argument(
        "--allow-unauthenticated",
        action="store_true",
        help="listen on a non-loopback host without --token-env (a proxy in front checks)",
    )
    mcp.add_argument("--threads", type=int, default=32, help="worker threads (default 32)")
    mcp.add_argument("--timeout", type=float, help="seconds one call may take (default: none)")
    mcp.add_argument(
        "--log-level",
        default="info",
        choices=("debug", "info", "warning", "error"),
        help="what goes to stderr (default info: startup and failed calls; debug: every call)",
    )
    mcp.add_argument(
        "--print-config",
        action="store_true",
        help="print the client configuration entry (Claude Desktop, IDEs) and exit",
    )
    openapi = commands.add_parser("openapi", help="print an OpenAPI document's functions")
    openapi.add_argument("file", help="a Swagger 2.0 / OpenAPI 3.x document (JSON or YAML)")
    openapi.add_argument("--strict", action="store_true", help="OpenAI structured-output rules")
    openapi.add_argument("--vendor", help="print one vendor's tools (openai, anthropic, gemini)")
    openapi.add_argument("--indent", type=int, default=2, help="JSON indentation (default 2)")
    return parser


def _openapi(options: argparse.Namespace) -> int:
    """``llmapp openapi``: the functions as JSON on stdout, the errors on stderr."""
    from llmapp.http import application

    try:
        app = application(Path(options.file), strict=options.strict)
    except (LlmappError, OSError) as error:
        print(f"llmapp: cannot read {options.file!r}: {error}", file=sys.stderr)
        return 2
    for problem in app.errors:
        print(f"llmapp: {problem}", file=sys.stderr)
    if options.vendor:
        vendor = importlib.import_module(f"llmapp.vendors.{options.vendor}")
        data: object = vendor.tools(app, strict=options.strict)
    else:
        data = app.to_list()
    print(json.dumps(data, indent=options.indent, ensure_ascii=False))
    return 0


def is_document(target: str) -> bool:
    """Whether ``llmapp mcp``'s target is an OpenAPI document (not ``MODULE:CLASS``)."""
    return Path(target).suffix.lower() in (".json", ".yaml", ".yml")


def _serve_mcp(cls: type | None, options: argparse.Namespace) -> int:
    """``llmapp mcp``: serve ``cls()`` (or ``factory()``), or a document (``cls`` None)
    on its server, until stopped."""
    if options.print_config:
        print(json.dumps(mcp_config(cls, options), indent=2))
        return 0
    try:
        settings = _mcp_settings(cls, options)
        if options.workers > 1:
            return _serve_workers(cls, options, settings)
        from llmapp.mcp import serve

        serve(
            settings.pop("app"),
            settings.pop("target"),
            options.transport,
            host=options.host,
            port=options.port,
            log_level=options.log_level,
            **settings,
        )
    except (LlmappError, TargetError, TypeError, ValueError, ImportError, OSError) as error:
        print(f"llmapp: cannot serve {options.target!r}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:  # Ctrl-C before or after the server ran: a quiet stop too
        return 0
    return 0


def _mcp_settings(cls: type | None, options: argparse.Namespace) -> dict[str, Any]:
    """What ``serve``/``asgi`` are given for these options (the app, target and hook loaded;
    for a document, ``cls`` is None: its application on a ``Connection``)."""
    from llmapp.app import Runner, application
    from llmapp.mcp import Auth, StaticTokens

    if cls is None:
        app, target = _document(options)
    else:
        if options.base_url or options.header_env:
            raise ValueError("--base-url and --header-env are for an OpenAPI document")
        if options.approval or options.disable:
            raise ValueError(
                "--approval and --disable are for an OpenAPI document: a class declares "
                "its controls (@approval, @controls(enabled=...))"
            )
        app = application(cls)
        target = _instance(cls, options.factory)
    settings: dict[str, Any] = {
        "app": app,
        "target": target,
        "name": options.name,
        "path": options.path,
        "stateless": options.stateless or options.workers > 1,
        "allow_unauthenticated": options.allow_unauthenticated,
        "elicit": not options.no_elicit,
        "runner": Runner(threads=options.threads, timeout=options.timeout),
    }
    if options.human:
        if cls is None:
            raise ValueError("--human MODULE:FUNCTION is for a class (a document has no module)")
        settings["human"] = load_callable(cls, options.human)
    if options.token_env:
        token = os.environ.get(options.token_env, "").strip()
        if not token:
            raise ValueError(f"--token-env {options.token_env}: the variable is empty or unset")
        settings["auth"] = Auth(StaticTokens({token: options.token_env}))
    if options.transport == "stdio":
        for key in ("path", "stateless", "allow_unauthenticated", "auth"):
            settings.pop(key, None)
    return settings


def _instance(cls: type, factory: str | None) -> object:
    """What is served: ``factory()`` or ``cls()``, an exception in either one line."""
    make = load_callable(cls, factory) if factory else cls
    try:
        return make()
    except Exception as error:
        raise TargetError(f"{factory or cls.__name__}() failed: {where(error)}") from None


def _document(options: argparse.Namespace) -> tuple[Any, Any]:
    """A document's application and the ``Connection`` its calls are sent on."""
    from llmapp.http import Connection, application

    if options.factory:
        raise ValueError("--factory is for a class; a document is served on --base-url")
    app = application(Path(options.target), controls=_controls(options))
    for problem in app.errors:  # a name of --approval or --disable that is no function too
        print(f"llmapp: {problem}", file=sys.stderr)
    host = options.base_url or (app.servers[0] if app.servers else None)
    if not host:
        raise ValueError("the document declares no server: give --base-url")
    headers: dict[str, str] = {}
    for spec in options.header_env:
        name, equals, variable = spec.partition("=")
        if not equals or not name.strip() or not variable.strip():
            raise ValueError(f"--header-env {spec!r}: expected NAME=VARIABLE")
        value = os.environ.get(variable.strip(), "")
        if not value:  # the value is a secret: only the variable is named
            raise ValueError(f"--header-env {spec}: the variable is empty or unset")
        headers[name.strip()] = value
    return app, Connection(host, headers=headers)


def _never(context: Any) -> bool:
    return False


def _controls(options: argparse.Namespace) -> dict[str, Any]:
    """``--approval`` and ``--disable`` as ``application(controls=)``: name -> ``Controls``."""
    from llmapp.kernel import Controls

    names = dict.fromkeys([*options.approval, *options.disable])
    return {
        name: Controls(
            approval=name in options.approval, enabled=_never if name in options.disable else None
        )
        for name in names
    }


def load_callable(cls: type, spec: str) -> Any:
    """``MODULE:NAME`` or ``path/to/file.py:NAME``, or a bare name in the class's module."""
    if ":" in spec:
        location, _, name = spec.rpartition(":")
        module = load_module(location)
    else:
        module, name = sys.modules[cls.__module__], spec
    return find(module, name, "callable", callable)


_WORKER_ENV = "LLMAPP_MCP_WORKER"


def _serve_workers(cls: type | None, options: argparse.Namespace, settings: dict[str, Any]) -> int:
    """``--workers N``: uvicorn's worker processes, each building the same stateless app."""
    import uvicorn
    import uvicorn.supervisors

    from llmapp.kernel import MCP, log_to_stderr
    from llmapp.mcp import asgi, quietly, served, url

    if options.transport != "streamable-http":
        raise ValueError("--workers needs --transport streamable-http")
    log_to_stderr(options.log_level)
    settings.pop("runner")  # each worker builds its own
    probe = asgi(settings.pop("app"), settings.pop("target"), host=options.host, **settings)
    os.environ[_WORKER_ENV] = json.dumps({**vars(options), "target": _absolute(options.target)})
    secured = ", bearer auth" if options.token_env else ""
    where = (
        f"over streamable-http at {url(options.host, options.port, options.path)}, stateless, "
        f"JSON responses, {options.workers} workers{secured}"
    )
    MCP.info("%s", served(probe.server, where))
    config = uvicorn.Config(
        "llmapp._cli:mcp_worker_app",
        factory=True,
        host=options.host,
        port=options.port,
        workers=options.workers,
        log_level="warning",
    )
    # What uvicorn.run does for workers, but with TCP_NODELAY on the shared socket (the
    # connections inherit it): without it every answer waits for the client's delayed ACK.
    sock = config.bind_socket()
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    quietly(uvicorn.supervisors.Multiprocess(config, sockets=[sock]).run)
    return 0


def mcp_worker_app() -> Any:
    """The app each ``--workers`` process serves, from the options its parent set."""
    from llmapp.kernel import log_to_stderr
    from llmapp.mcp import asgi

    options = argparse.Namespace(**json.loads(os.environ[_WORKER_ENV]))
    log_to_stderr(options.log_level)
    cls = None if is_document(options.target) else load_class(options.target)
    settings = _mcp_settings(cls, options)
    return asgi(settings.pop("app"), settings.pop("target"), host=options.host, **settings)


def mcp_config(cls: type | None, options: argparse.Namespace) -> dict[str, Any]:
    """The ``mcpServers`` entry of Claude Desktop's (and most IDEs') client configuration."""
    name = options.name or (cls.__name__ if cls is not None else Path(options.target).stem)
    if options.transport == "streamable-http":
        entry: dict[str, Any] = {
            "type": "http",
            "url": f"http://{options.host}:{options.port}{options.path}",
        }
        if options.token_env:
            entry["headers"] = {"Authorization": f"Bearer ${{{options.token_env}}}"}
        return {"mcpServers": {name: entry}}
    args = ["-m", "llmapp", "mcp", _absolute(options.target)]
    for flag in ("name", "factory", "human", "timeout"):
        value = getattr(options, flag)
        if value is not None:
            args += [f"--{flag}", _absolute(str(value))]
    if options.base_url:
        args += ["--base-url", options.base_url]
    for spec in options.header_env:
        args += ["--header-env", spec]
    for flag in ("approval", "disable"):
        for name in getattr(options, flag):
            args += [f"--{flag}", name]
    if options.no_elicit:
        args.append("--no-elicit")
    entry = {"command": sys.executable, "args": args}
    if not is_document(options.target) and not options.target.rpartition(":")[0].endswith(".py"):
        entry["env"] = {"PYTHONPATH": os.pathsep.join(filter(None, [str(Path.cwd())]))}
    return {"mcpServers": {name: entry}}


def _absolute(target: str) -> str:
    if is_document(target):
        return str(Path(target).resolve())
    location, _, name = target.rpartition(":")
    if location.endswith(".py"):
        return f"{Path(location).resolve()}:{name}"
    return target
