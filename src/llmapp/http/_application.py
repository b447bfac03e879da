"""``application(document)``: every operation of an OpenAPI document as an LLM function."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Any, Literal

from llmapp._collection import paused_collection
from llmapp._errors import LlmappError
from llmapp._text.untrusted import clean_text
from llmapp.http._compose import Draft, describe, draft
from llmapp.http._connection import Connection
from llmapp.http._document import load_document
from llmapp.http._function import HttpLlmFunction, OperationError
from llmapp.http._naming import Naming, assign_names
from llmapp.http._schemas import SchemaTable
from llmapp.http._upgrade import Document, upgrade
from llmapp.jsonschema import Path
from llmapp.kernel import (
    DEFAULT_RUNNER,
    HTTP,
    Application,
    FunctionControls,
    Runner,
    given_controls,
    refusals,
    separation,
)
from llmapp.repair import MAX_LENGTH
from llmapp.schema import is_file, is_human, strict_form

if TYPE_CHECKING:
    from llmapp import CallResult
    from llmapp.validate import Proofs

__all__ = ["HttpLlmApplication", "HttpLlmConfig", "application"]

Schema = dict[str, Any]
SchemaPredicate = Callable[[Mapping[str, Any]], bool]
ValidationHook = Callable[[Any], Any]
"""``arguments -> Validation`` (``ValidationSuccess`` or ``ValidationFailure``)."""


@dataclass(frozen=True)
class HttpLlmConfig:
    """How an application was built (see ``application``)."""

    strict: bool = False
    separate: SchemaPredicate | None = None
    max_name_length: int = 64
    naming: Literal["accessor", "operationId"] = "accessor"
    validate: Mapping[str, ValidationHook] = field(default_factory=dict)
    max_length: int = MAX_LENGTH
    controls: FunctionControls | None = None


class HttpLlmApplication(Application[HttpLlmFunction, Connection, Connection]):
    """The functions of an OpenAPI document, the operations that could not become one,
    and execution of the calls an LLM makes against a server.

    Attributes:
        functions: one ``HttpLlmFunction`` per converted operation, in document order.
        errors: one ``OperationError`` per operation that could not be converted.
        config: the configuration it was built with.
        servers: the server URLs the document declares.
        name: the document's ``info.title`` (default ``"openapi"``).
        description: the document's ``info.description``, or ``None``.
    """

    errors: list[OperationError]

    def __init__(
        self,
        functions: list[HttpLlmFunction],
        errors: list[OperationError],
        config: HttpLlmConfig,
        servers: list[str],
        name: str = "openapi",
        description: str | None = None,
    ) -> None:
        super().__init__(functions, errors)
        self.config = config
        self.servers = servers
        self.name = name
        self.description = description

    def __repr__(self) -> str:
        return f"<HttpLlmApplication: {len(self.functions)} functions, {len(self.errors)} errors>"

    def execute(
        self,
        connection: Connection,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool = False,
        context: Any = None,
        approved: bool = False,
    ) -> CallResult:
        from llmapp.http._execute import call

        return call(self, connection, name, arguments, human, raise_errors, context, approved)

    async def aexecute(
        self,
        connection: Connection,
        name: str,
        arguments: Any,
        human: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool = False,
        runner: Runner | None = None,
        context: Any = None,
        approved: bool = False,
    ) -> CallResult:
        from llmapp.http._execute import acall

        call = acall(self, connection, name, arguments, human, raise_errors, context, approved)
        function = self.function(name)
        if function is None:
            return await call
        # The request is awaited on the loop (no thread), within the runner's time limit
        # and the function's own.
        return await (runner or DEFAULT_RUNNER).awaited(function, call, raise_errors, HTTP)


def application(
    document: Mapping[str, Any] | str | FilePath,
    *,
    strict: bool = False,
    separate: SchemaPredicate | None = None,
    max_name_length: int = 64,
    naming: Literal["accessor", "operationId"] = "accessor",
    validate: Mapping[str, ValidationHook] | None = None,
    roots: Iterable[str | FilePath] | None = None,
    max_length: int = MAX_LENGTH,
    controls: FunctionControls | None = None,
) -> HttpLlmApplication:
    """The LLM functions of a Swagger 2.0 / OpenAPI 3.0 / 3.1 document.

    Each function's validator is compiled here: a schema the validator refuses (a
    Swagger-style ``required: true`` on a property, ``minimum: "5"``, a pattern that does
    not compile, a ``$ref`` cycle) makes its operation an error, so ``execute`` never
    fails on the document's mistakes.

    Args:
        document: the document as a dict, a path to a JSON or YAML file (references to
            other files are read relative to it, inside ``roots``), or its text.
        strict: OpenAI structured-output rules for ``parameters`` (arguments are still
            checked against every constraint).
        separate: a predicate over a schema: ``True`` for values a human supplies.
            File parts of ``multipart/form-data`` bodies are always human-side.
        max_name_length: the longest function name (at least 16); not ``max_length``,
            which is argument characters elsewhere.
        naming: ``"accessor"`` (the reference's rule from the path and method) or
            ``"operationId"`` (the operation's id where it has one).
        validate: function name -> a hook that replaces that function's generated
            validation (``arguments -> Validation``); it runs before any request.
        roots: the folders references to other files may read from (default: the
            document's own folder); only regular files are read, never URLs. An
            operation using a reference that is not read is an error saying why.
        max_length: most characters of argument text one call reads (as
            ``@llm_application(max_length=...)``); longer text is refused, nothing sent.
        controls: each function's ``llmapp.Controls`` (enabled per call, approval,
            timeout), as a class's ``@controls`` declares them: a mapping of function
            names to them, or ``function -> Controls | None`` (one rule for every
            DELETE: ``lambda f: Controls(approval=True) if f.method == "delete" else
            None``). An operation tagged ``destructive`` waits for approval unless they
            say otherwise, as a method tagged ``@tag destructive`` does.

    Returns:
        An ``HttpLlmApplication``; operations that cannot be converted are in ``errors``,
        each located in the document, and the others still convert. So is a name of
        ``controls`` that is no function (``cause == "controls"``).

    Raises:
        DocumentError: the document cannot be read, or is not OpenAPI/Swagger.
        ValueError: a ``validate`` hook names no function, ``max_name_length`` < 16, or
            a control's timeout is not a positive number.
        TypeError: ``controls`` gives something that is not ``llmapp.Controls``.

    Example::

        app = application("openapi.json")
        for function in app.functions:
            print(function.name, function.method, function.path)
    """
    if max_name_length < 16:
        raise ValueError(f"max_name_length must be at least 16, not {max_name_length}")
    config = HttpLlmConfig(
        strict, separate, max_name_length, naming, dict(validate or {}), max_length, controls
    )
    with paused_collection():
        loaded = load_document(document, roots=roots)
        parsed = upgrade(loaded.document)
        built, errors = _convert(parsed, config, loaded.refused)
        named = _named(built, config)
        functions, wrong = given_controls(named, controls)
    errors += [_control_error(named, name, reason) for name, reason in wrong]
    name, description = _info(loaded.document)
    return HttpLlmApplication(functions, errors, config, parsed.servers, name, description)


def _info(document: Any) -> tuple[str, str | None]:
    """The document's title (the name it is served under) and description, cleaned."""
    info = document.get("info") if isinstance(document, Mapping) else None
    info = info if isinstance(info, Mapping) else {}
    title, description = info.get("title"), info.get("description")
    name = clean_text(title).strip() if isinstance(title, str) else ""
    text = clean_text(description).strip() if isinstance(description, str) else ""
    return name or "openapi", text or None


def _convert(
    parsed: Document, config: HttpLlmConfig, refused: Mapping[str, str]
) -> tuple[list[tuple[Draft, HttpLlmFunction]], list[OperationError]]:
    """Every operation drafted, all their schemas normalised at once, then assembled."""
    section = Path(("definitions",)) if parsed.version == "2.0" else Path(("components", "schemas"))
    drafts = [draft(op, parsed.schemas) for op in parsed.operations if not op.human]
    pieces: list[tuple[Any, Path]] = []
    offsets: list[int] = []
    for each in drafts:
        offsets.append(len(pieces))
        pieces.extend(each.pieces if each.error is None else ())
    table = SchemaTable(parsed.schemas, pieces, section)
    errors: list[OperationError] = []
    built: list[tuple[Draft, HttpLlmFunction]] = []
    # Every function's schema is checked as a validator would compile it, compiling
    # nothing (each validator is compiled at its function's first call); a definition
    # several operations reach is written once per build.
    proofs = _proofs()
    for each, offset in zip(drafts, offsets, strict=True):
        outcome = _assemble(each, table, offset, config, proofs)
        if isinstance(outcome, HttpLlmFunction):
            built.append((each, outcome))
        else:
            errors.append(_error(each, outcome[0], _with_reasons(outcome[1], refused)))
    return built, errors


def _with_reasons(messages: list[str], refused: Mapping[str, str]) -> list[str]:
    """Each message about a reference to a file that was not read, with the reason."""
    if not refused:
        return messages
    out = []
    for message in messages:
        reasons = [f"{ref!r}: {why}" for ref, why in refused.items() if repr(ref) in message]
        out.append(f"{message} (not read: {'; '.join(reasons)})" if reasons else message)
    return out


def _named(
    built: list[tuple[Draft, HttpLlmFunction]], config: HttpLlmConfig
) -> list[HttpLlmFunction]:
    """The functions with their unique names and their validation hooks."""
    namings = [
        Naming(
            each.operation.method,
            each.operation.path,
            each.keys,
            _predefined(each.operation.original),
            _operation_id(each.operation.original),
        )
        for each, _ in built
    ]
    names = assign_names(namings, config.max_name_length, config.naming == "operationId")
    functions = [
        replace(function, name=name, hook=config.validate.get(name))
        for (_, function), name in zip(built, names, strict=True)
    ]
    unknown = sorted(set(config.validate) - set(names))
    if unknown:
        raise ValueError(f"validation hooks name no function: {unknown}")
    return functions


def _control_error(functions: list[HttpLlmFunction], name: str, reason: str) -> OperationError:
    """A mistake of ``controls=``, at its operation when it names one."""
    found = next((function for function in functions if function.name == name), None)
    message = f"controls[{name!r}]: {reason}"
    if found is None:
        return OperationError("", "", (message,), "controls")
    return OperationError(found.method, found.path, (message,), "controls", found.operation())


def _error(each: Draft, cause: str, messages: list[str]) -> OperationError:
    operation = each.operation
    return OperationError(
        operation.method, operation.path, tuple(messages), cause, operation.original
    )


def _predefined(raw: Mapping[str, Any]) -> list[str] | None:
    accessor = raw.get("x-samchon-accessor")
    if isinstance(accessor, list) and accessor and all(isinstance(a, str) for a in accessor):
        return accessor
    return None


def _operation_id(raw: Mapping[str, Any]) -> str | None:
    found = raw.get("operationId")
    return found if isinstance(found, str) and found else None


def _assemble(
    each: Draft, table: SchemaTable, offset: int, config: HttpLlmConfig, proofs: Proofs
) -> HttpLlmFunction | tuple[str, list[str]]:
    """The function of a draft whose schemas were normalised, or its error."""
    if each.error is not None:
        return each.error
    pieces = table.pieces
    properties: dict[str, Any] = {}
    required: list[str] = []
    for key, index in zip(each.keys, each.path_schemas, strict=True):
        schema = pieces[offset + index]
        text = clean_text(each.descriptions.get(key) or "")
        properties[key] = {**schema, "description": text} if text else schema
        required.append(key)
    route = each.route
    if route.query:
        if route.query_spread is not None:
            properties["query"] = pieces[offset + each.query_schemas[0]]
        else:
            properties["query"] = {
                "type": "object",
                "properties": {
                    p.name: pieces[offset + i]
                    for p, i in zip(route.query, each.query_schemas, strict=True)
                },
                "required": [p.name for p in route.query if p.required],
                "additionalProperties": False,
            }
        if each.query_required:
            required.append("query")
    if each.body_schema is not None:
        properties["body"] = pieces[offset + each.body_schema]
        if route.body is not None and route.body.required:
            required.append("body")
    output = pieces[offset + each.output_schema] if each.output_schema is not None else None
    defs = table.reached([properties])
    used = [offset + i for i in range(len(each.pieces))]
    problems = table.problems(used, defs)
    if problems:
        return ("reference", problems)
    parameters: Schema = {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
        "$defs": {name: table.defs[name] for name in defs},
    }
    if output is not None:
        reached = table.reached([output])
        if reached:
            output = {**output, "$defs": {name: table.defs[name] for name in reached}}
    raw = each.operation.original
    described = describe(each.operation, each)
    function = HttpLlmFunction(
        max_length=config.max_length,
        method=each.operation.method,
        path=each.operation.path,
        name="",
        description=clean_text(described) if described is not None else None,
        parameters=parameters,
        output=output,
        deprecated=raw.get("deprecated") is True,
        tags=[clean_text(t) for t in raw.get("tags", ()) if isinstance(t, str)]
        if isinstance(raw.get("tags"), list)
        else [],
        summary=clean_text(raw["summary"]) if isinstance(raw.get("summary"), str) else None,
        _operation=each.operation.normalised(),
        _route=route,
    )
    if config.strict:
        strict, refused = strict_form(parameters)
        if refused:
            where = each.operation.where
            return ("strict", [f"{where}: {path or 'parameters'}: {why}" for path, why in refused])
        function = replace(function, parameters=strict, checked_parameters=parameters)
    predicate = _predicate(config.separate, route, table.marks_human([properties], defs))
    if predicate is not None:
        # The class door's rule: a human value inside a union or tuple cannot be kept
        # from the model (the split would hand the model the whole value).
        inside = refusals(function.checked_parameters, predicate)
        if inside:
            return ("separation", [f"{each.operation.where}: {p}: {r}" for p, r in inside])
        split, _ = separation(function.parameters, function.checked_parameters, predicate)
        function = replace(function, separated=split)
    unchecked = _uncompilable(function.checked_parameters, proofs)
    if unchecked:
        return ("schema", [f"{each.operation.where}: parameters{p}" for p in unchecked])
    return function


def _proofs() -> Proofs:
    from llmapp.validate import Proofs

    return Proofs()


def _uncompilable(parameters: Schema, proofs: Proofs) -> list[str]:
    """What would keep the validator of ``parameters`` from compiling at the function's
    first call (``check_schema``: nothing compiled now)."""
    from llmapp.validate import SchemaError, check_schema

    try:
        check_schema(parameters, proofs=proofs)
    except SchemaError as error:
        return [str(problem) for problem in error.problems]
    except (LlmappError, RecursionError) as error:
        return [f"#: {' '.join(str(error).split())}"]
    return []


def _predicate(
    separate: SchemaPredicate | None, route: Any, marked: bool
) -> SchemaPredicate | None:
    """What is human-side: what the document marks (``x-llmapp-human``, as ``Human()``
    marks a class's parameter: honoured with or without ``separate``), file parts of a
    multipart or raw body, and what ``separate`` says; None when nothing can be."""
    multipart = route.body is not None and route.body.kind in ("multipart", "raw")
    if separate is None and not multipart and not marked:
        return None
    configured = separate

    def predicate(schema: Mapping[str, Any]) -> bool:
        return (
            is_human(schema)
            or (multipart and is_file(schema))
            or (configured is not None and configured(schema))
        )

    return predicate
