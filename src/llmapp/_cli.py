"""The ``llmapp`` command: print a class's LLM functions as JSON."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from llmapp._errors import LlmappError

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = _parser()
    options = parser.parse_args(argv)
    if options.command == "openapi":
        return _openapi(options)
    try:
        cls = load_class(options.target)
    except (ImportError, AttributeError, OSError, SyntaxError, ValueError) as error:
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
    """Find ``module.path:Class`` or ``path/to/file.py:Class``."""
    location, separator, name = target.rpartition(":")
    if not separator or not location or not name:
        raise ValueError("expected MODULE:CLASS or path/to/file.py:CLASS")
    module = _load_file(Path(location)) if location.endswith(".py") else _load_module(location)
    found = module
    for part in name.split("."):
        found = getattr(found, part)
    if not isinstance(found, type):
        raise ValueError(f"{name} is not a class")
    return found


def _load_module(name: str) -> object:
    if "" not in sys.path and str(Path.cwd()) not in sys.path:
        sys.path.insert(0, str(Path.cwd()))
    return importlib.import_module(name)


def _load_file(path: Path) -> object:
    if not path.is_file():
        raise OSError(f"no such file: {path}")
    module_name = f"_llmapp_cli_{path.stem}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and forward references look the module up
    spec.loader.exec_module(module)
    return module


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
    mcp = commands.add_parser("mcp", help="serve a class as an MCP server (extra: mcp)")
    mcp.add_argument("target", help="MODULE:CLASS or path/to/file.py:CLASS")
    mcp.add_argument("--transport", choices=("stdio", "streamable-http"), default="stdio")
    mcp.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    mcp.add_argument("--port", type=int, default=8000, help="HTTP port (default 8000)")
    mcp.add_argument("--name", help="the server's name (default: the class's)")
    mcp.add_argument(
        "--factory",
        help="a callable in the class's module returning the instance to serve "
        "(default: the class called with no arguments)",
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


def _serve_mcp(cls: type, options: argparse.Namespace) -> int:
    """``llmapp mcp``: serve ``cls()`` (or ``factory()``) until stopped."""
    from llmapp.app import application
    from llmapp.mcp import serve

    try:
        app = application(cls)
        module = sys.modules[cls.__module__]
        target = getattr(module, options.factory)() if options.factory else cls()
    except (LlmappError, AttributeError, TypeError) as error:
        print(f"llmapp: cannot serve {options.target!r}: {error}", file=sys.stderr)
        return 1
    serve(app, target, options.transport, host=options.host, port=options.port, name=options.name)
    return 0
