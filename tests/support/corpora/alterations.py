"""Valid arguments altered the way LLMs get them wrong, each alteration at one known path.

``alterations(schema, arguments)`` walks a valid argument object together with its schema
(``properties`` and ``items``; no ``$ref``: the BFCL schemas have none) and makes, at every place
where it applies, one copy with a single mistake:

* ``number-as-string``: an integer or number written as a JSON string (``5`` -> ``"5"``);
* ``missing-required``: a required key dropped;
* ``enum-case``: a string enum value in the wrong case (``"Celsius"`` -> ``"CELSIUS"``);
* ``extra-key``: a key the object does not declare, added to a closed object;
* ``stringified-object`` / ``stringified-array``: an object or array sent as its JSON text.

Each alteration knows the path of the one issue a validator must report, in llmapp's notation
(``$input.a.b``, ``$input.items[3]``, ``$input["content-type"]``).
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

Location = tuple[str | int, ...]

EXTRA_KEY = "unexpected_extra_key"
"""The key ``extra-key`` adds (never declared by a corpus schema)."""

_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")


def render(location: Location) -> str:
    """A location as llmapp writes it: ``$input.a[0]["b-c"]``."""
    parts = ["$input"]
    for step in location:
        if isinstance(step, int):
            parts.append(f"[{step}]")
        elif _IDENTIFIER.fullmatch(step):
            parts.append(f".{step}")
        else:
            parts.append(f"[{json.dumps(step)}]")
    return "".join(parts)


MISSING: Any = object()
"""``Alteration.value`` of a dropped key."""


@dataclass(frozen=True)
class Alteration:
    """A copy of valid arguments with one mistake at ``location``.

    Attributes:
        kind: which mistake (see the module docstring).
        location: where the mistake is, from the argument object's root.
        arguments: the whole altered argument object.
        value: the wrong value now at ``location`` (``MISSING`` for a dropped key).
        schema: the schema of the place (the dropped property's schema; ``None`` for an extra key).
    """

    kind: str
    location: Location
    arguments: Any = field(repr=False)
    value: Any
    schema: dict[str, Any] | None = field(repr=False)

    @property
    def path(self) -> str:
        return render(self.location)


def _places(
    schema: dict[str, Any], value: Any, location: Location
) -> Iterator[tuple[Location, dict[str, Any], Any]]:
    """Every (location, schema, value) of the value that the schema describes, root first."""
    yield location, schema, value
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for key, item in value.items():
            if key in properties:
                yield from _places(properties[key], item, (*location, key))
    elif isinstance(value, list) and isinstance(schema.get("items"), dict):
        for index, item in enumerate(value):
            yield from _places(schema["items"], item, (*location, index))


def _replaced(arguments: Any, location: Location, value: Any) -> Any:
    """A deep copy of the arguments with the value at the location replaced (or dropped)."""
    altered = copy.deepcopy(arguments)
    if not location:
        return value
    parent = altered
    for step in location[:-1]:
        parent = parent[step]
    if value is MISSING:
        del parent[location[-1]]
    else:
        parent[location[-1]] = value
    return altered


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _number_as_string(
    location: Location, schema: dict[str, Any], value: Any, arguments: Any
) -> Iterator[Alteration]:
    if schema.get("type") in ("integer", "number") and _is_number(value):
        text = json.dumps(value)
        yield Alteration(
            "number-as-string", location, _replaced(arguments, location, text), text, schema
        )


def _missing_required(
    location: Location, schema: dict[str, Any], value: Any, arguments: Any
) -> Iterator[Alteration]:
    if not isinstance(value, dict):
        return
    properties = schema.get("properties", {})
    for key in schema.get("required", []):
        if key in value:
            at = (*location, key)
            yield Alteration(
                "missing-required",
                at,
                _replaced(arguments, at, MISSING),
                MISSING,
                properties.get(key, {}),
            )


def _enum_case(
    location: Location, schema: dict[str, Any], value: Any, arguments: Any
) -> Iterator[Alteration]:
    enum = schema.get("enum")
    if not isinstance(value, str) or not isinstance(enum, list) or value not in enum:
        return
    changed = value.upper() if value != value.upper() else value.lower()
    if changed != value and changed not in enum:
        yield Alteration(
            "enum-case", location, _replaced(arguments, location, changed), changed, schema
        )


def _extra_key(
    location: Location, schema: dict[str, Any], value: Any, arguments: Any
) -> Iterator[Alteration]:
    if isinstance(value, dict) and schema.get("additionalProperties") is False:
        at = (*location, EXTRA_KEY)
        yield Alteration("extra-key", at, _replaced(arguments, at, "surprise"), "surprise", None)


def _stringified(
    location: Location, schema: dict[str, Any], value: Any, arguments: Any
) -> Iterator[Alteration]:
    if not location:
        return  # the whole argument object as text is a parse problem, not a validation one
    if schema.get("type") == "object" and isinstance(value, dict):
        kind = "stringified-object"
    elif schema.get("type") == "array" and isinstance(value, list):
        kind = "stringified-array"
    else:
        return
    text = json.dumps(value)
    yield Alteration(kind, location, _replaced(arguments, location, text), text, schema)


_MAKERS = (_number_as_string, _missing_required, _enum_case, _extra_key, _stringified)


def alterations(schema: dict[str, Any], arguments: dict[str, Any]) -> list[Alteration]:
    """Every single-mistake copy of valid arguments that the schema makes checkable."""
    return [
        alteration
        for location, place_schema, value in _places(schema, arguments, ())
        for make in _MAKERS
        for alteration in make(location, place_schema, value, arguments)
    ]
