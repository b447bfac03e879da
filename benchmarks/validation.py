"""Validation benchmark: S/M/L payloads, valid and with 3 mistakes, every peer in one run.

Every peer is asked for all the errors it can report, and the time includes
collecting them (pydantic's ``errors()``, jsonschema's ``list(iter_errors())``).
fastjsonschema and msgspec stop at the first error; the table says so. The three
JSON-schema validators (llmapp, fastjsonschema, jsonschema) get one and the same
schema: llmapp's own parameters schema of the ``Targets`` method when
``llmapp.application`` is available, otherwise pydantic's schema of the
TypedDict with titles removed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from benchmarks import _llmapp
from benchmarks._report import NA, fmt, fmt_ratio, ratio, table
from benchmarks._timing import Call, Settings, Unavailable, measure_all
from benchmarks.handwritten import HANDWRITTEN
from benchmarks.payloads import PAYLOADS, Payload, Targets, format_payloads

__all__ = ["run"]

Check = Callable[[Any], int]
"""Validates one value; returns how many errors were reported (0 when valid)."""


@dataclass
class Peer:
    name: str
    make: Callable[[Payload, dict[str, Any]], Check]
    """(payload, JSON schema of its type) -> check; raises Unavailable (or ImportError)."""
    note: str = ""
    raw_text: bool = False
    """True when the check takes the JSON text rather than Python data."""


@dataclass
class Row:
    peer: str
    note: str
    us: dict[str, float | None] = field(default_factory=dict)
    errors: dict[str, int | None] = field(default_factory=dict)
    unavailable: str | None = None


# ---- the one schema every JSON-schema validator gets ------------------------------------


def _strip_titles(node: Any) -> Any:
    """Drop pydantic's generated ``title`` keywords (not property names called title)."""
    if isinstance(node, list):
        return [_strip_titles(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "title" and isinstance(value, str):
            continue
        if key in ("properties", "$defs"):
            out[key] = {name: _strip_titles(sub) for name, sub in value.items()}
        else:
            out[key] = _strip_titles(value)
    return out


def schemas() -> tuple[dict[str, dict[str, Any]], str]:
    """Targets method -> JSON schema, and where the schemas came from."""
    try:
        app = _llmapp.application()(Targets)
        found = {function.name: function.parameters for function in app.functions}
        return found, "llmapp.application(Targets) parameters"
    except Exception as exc:  # llmapp's part not there yet, or not working yet
        reason = f"{type(exc).__name__}: {exc}"[:120]
    from pydantic import TypeAdapter

    found = {
        payload.method: _strip_titles(TypeAdapter(payload.type).json_schema())
        for payload in [*PAYLOADS, *format_payloads()]
    }
    return found, f"pydantic TypeAdapter(...).json_schema(), titles removed (llmapp: {reason})"


# ---- peers ----------------------------------------------------------------------------------


def _counting(validate: Callable[[Any], Any]) -> Check:
    """``validate`` -> a check returning the number of issues (no helper call in between)."""

    def check(data: Any) -> int:
        result = validate(data)
        return 0 if result.success else len(result.errors)

    return check


def _llmapp_validator(payload: Payload, schema: dict[str, Any]) -> Check:
    return _counting(_llmapp.validator()(schema))


def _llmapp_function(payload: Payload, schema: dict[str, Any]) -> Check:
    try:
        function = _llmapp.application()(Targets).function(payload.method)
    except Unavailable:
        raise
    except Exception as exc:
        raise Unavailable(f"n/a ({type(exc).__name__}: {exc})"[:120]) from exc
    return _counting(function.validate)


def _handwritten(payload: Payload, schema: dict[str, Any]) -> Check:
    check = HANDWRITTEN[payload.method]
    return lambda data: len(check(data))


def _result_floor(payload: Payload, schema: dict[str, Any]) -> Check:
    """No validation at all: only llmapp's result objects for this payload, built directly.

    What any pure-Python validator returning these objects pays at the least: a valid
    payload gets its ``ValidationSuccess``, an invalid one its 3 ``ValidationIssue``s
    (known in advance here) in a ``ValidationFailure``.
    """
    from llmapp.validate import ValidationFailure, ValidationIssue, ValidationSuccess

    if payload.valid:
        return lambda data: 0 if ValidationSuccess(data).success else 1
    found = _llmapp.validator()(schema)(payload.fresh()).errors
    (p1, e1, v1), (p2, e2, v2), (p3, e3, v3) = [(i.path, i.expected, i.value) for i in found]

    def check(data: Any) -> int:
        issues = [ValidationIssue(p1, e1, v1), ValidationIssue(p2, e2, v2)]
        issues.append(ValidationIssue(p3, e3, v3))
        result = ValidationFailure(data, issues)
        return 0 if result.success else len(result.errors)

    return check


def _raising(
    validate: Callable[[Any], object], error: type[Exception], *, listed: bool = False
) -> Check:
    """A check for a peer that raises ``error`` on invalid data: the number of the
    exception's ``errors()`` when ``listed`` (pydantic), else 1 (it stops at the first)."""
    if listed:

        def count_all(data: Any) -> int:
            try:
                validate(data)
                return 0
            except error as exc:
                return len(exc.errors())  # type: ignore[attr-defined]

        return count_all

    def count_first(data: Any) -> int:
        try:
            validate(data)
            return 0
        except error:
            return 1

    return count_first


def _pydantic(payload: Payload, schema: dict[str, Any]) -> Check:
    from pydantic import TypeAdapter, ValidationError

    return _raising(TypeAdapter(payload.type).validate_python, ValidationError, listed=True)


def _msgspec(payload: Payload, schema: dict[str, Any]) -> Check:
    import msgspec

    from benchmarks._msgspec_types import MSGSPEC_TYPES

    target, convert, error = MSGSPEC_TYPES[payload.method], msgspec.convert, msgspec.ValidationError

    def check(data: Any) -> int:
        try:
            convert(data, target)
            return 0
        except error:
            return 1

    return check


def _fastjsonschema(payload: Payload, schema: dict[str, Any]) -> Check:
    import fastjsonschema

    return _raising(fastjsonschema.compile(schema), fastjsonschema.JsonSchemaValueException)


def _jsonschema(payload: Payload, schema: dict[str, Any]) -> Check:
    import jsonschema

    iter_errors = jsonschema.Draft202012Validator(schema).iter_errors
    return lambda data: len(list(iter_errors(data)))


PEERS = [
    Peer("llmapp validator(schema)", _llmapp_validator),
    Peer("llmapp LlmFunction.validate", _llmapp_function),
    Peer("hand-written isinstance", _handwritten, "the pure-Python limit"),
    Peer("result objects only", _result_floor, "no checks: the allocation floor"),
    Peer("pydantic TypeAdapter.validate_python", _pydantic, "+ errors()"),
    Peer("msgspec.convert (Struct)", _msgspec, "C; stops at first error"),
    Peer("fastjsonschema", _fastjsonschema, "stops at first error"),
    Peer("jsonschema iter_errors", _jsonschema, "list(iter_errors())"),
]


# ---- end to end: the model's raw JSON text ---------------------------------------------


def _llmapp_parse(payload: Payload, schema: dict[str, Any]) -> Check:
    parse, check = _llmapp.parse(), _counting(_llmapp.validator()(schema))
    return lambda text: check(parse(text).data)


def _json_llmapp(payload: Payload, schema: dict[str, Any]) -> Check:
    loads, check = json.loads, _counting(_llmapp.validator()(schema))
    return lambda text: check(loads(text))


def _json_handwritten(payload: Payload, schema: dict[str, Any]) -> Check:
    loads, check = json.loads, HANDWRITTEN[payload.method]
    return lambda text: len(check(loads(text)))


def _pydantic_json(payload: Payload, schema: dict[str, Any]) -> Check:
    from pydantic import TypeAdapter, ValidationError

    return _raising(TypeAdapter(payload.type).validate_json, ValidationError, listed=True)


def _msgspec_json(payload: Payload, schema: dict[str, Any]) -> Check:
    import msgspec

    from benchmarks._msgspec_types import MSGSPEC_TYPES

    decoder = msgspec.json.Decoder(MSGSPEC_TYPES[payload.method])
    return _raising(decoder.decode, msgspec.ValidationError)


FORMAT_PEERS = [
    peer for peer in PEERS if not peer.name.startswith(("hand-written", "msgspec", "pydantic"))
]
FORMAT_PEERS.insert(
    3, Peer("pydantic strict+forbid", _pydantic, "+ errors(); EmailStr, UUID, datetime")
)
"""The peers of the pattern and format rows (no hand-written or msgspec types for them)."""

END_TO_END = [
    Peer("llmapp parse + validator", _llmapp_parse, "lenient parse", raw_text=True),
    Peer("json.loads + llmapp validator", _json_llmapp, "stdlib parse", raw_text=True),
    Peer("json.loads + hand-written", _json_handwritten, "the pure-Python limit", raw_text=True),
    Peer("pydantic validate_json", _pydantic_json, "Rust parser; + errors()", raw_text=True),
    Peer("msgspec.json.decode (Struct)", _msgspec_json, "C; stops at first error", raw_text=True),
]


# ---- running --------------------------------------------------------------------------------


def _measure(
    peers: list[Peer],
    schema_of: dict[str, dict[str, Any]],
    settings: Settings,
    payloads: list[Payload] = PAYLOADS,
) -> list[Row]:
    """Every peer on every payload; the peers of one payload are timed interleaved."""
    rows = [Row(peer.name, peer.note) for peer in peers]
    for payload in payloads:
        checks: dict[str, Call] = {}
        for peer, row in zip(peers, rows, strict=True):
            if row.unavailable:
                continue
            value: Any = json.dumps(payload.data) if peer.raw_text else payload.fresh()
            try:
                check = peer.make(payload, schema_of[payload.method])
                row.errors[payload.label] = check(value)
            except Exception as exc:  # missing peer, or an llmapp part not landed / not working
                row.unavailable = (
                    str(exc)
                    if isinstance(exc, Unavailable)
                    else f"n/a ({type(exc).__name__}: {exc})"
                )[:200]
                continue
            checks[peer.name] = (check, value)
        found = measure_all(checks, settings)
        for row in rows:
            row.us[payload.label] = found.get(row.peer)
    for row in rows:
        if row.unavailable:
            row.us = dict.fromkeys(row.us, None)
            row.errors = dict.fromkeys((p.label for p in payloads), None)
    return rows


def _section(rows: list[Row], title: str, payloads: list[Payload] = PAYLOADS) -> str:
    labels = [payload.label for payload in payloads]
    base = rows[0].us
    times = [[row.peer, row.note, *(fmt(row.us[label]) for label in labels)] for row in rows]
    ratios = [
        [row.peer, *(fmt_ratio(ratio(base[label], row.us[label])) for label in labels)]
        for row in rows[1:]
    ]
    invalid = [label for label in labels if label.endswith("invalid")]
    counts = [
        [
            row.peer,
            *(NA if row.errors[label] is None else str(row.errors[label]) for label in invalid),
        ]
        for row in rows
    ]
    missing = [f"- {row.peer}: {row.unavailable}" for row in rows if row.unavailable]
    return "\n\n".join(
        filter(
            None,
            [
                f"### {title}: median µs per call",
                table(["peer", "note", *labels], times),
                f"Ratio: {rows[0].peer} time ÷ peer time (below 1.00x: llmapp is faster)",
                table(["peer", *labels], ratios),
                "Errors reported on the invalid payloads (3 mistakes each)",
                table(["peer", *invalid], counts),
                "\n".join(missing),
            ],
        )
    )


def run(settings: Settings) -> tuple[str, dict[str, Any]]:
    """Measure every peer on every payload; returns (markdown, JSON-ready results)."""
    schema_of, source = schemas()
    in_memory = _measure(PEERS, schema_of, settings)
    try:
        extra = format_payloads()
    except ImportError:  # pydantic (or its email-validator) is not installed
        extra = []
    formats = _measure(FORMAT_PEERS, schema_of, settings, extra) if extra else []
    from_text = _measure(END_TO_END, schema_of, settings)
    text = "\n\n".join(
        [
            "## 1. Validation",
            f"Schema for the JSON-schema validators: {source}.",
            _section(in_memory, "Python data (already parsed)"),
            _section(formats, "Patterns, formats and datetimes (Python data)", extra)
            if extra
            else "",
            _section(from_text, "End to end from the model's raw JSON text (parse + validate)"),
        ]
    )
    results = {
        "schema_source": source,
        "schemas": schema_of,
        "payloads": [payload.label for payload in PAYLOADS],
        "python_data": [row.__dict__ for row in in_memory],
        "formats": [row.__dict__ for row in formats],
        "raw_text": [row.__dict__ for row in from_text],
    }
    return text, results
