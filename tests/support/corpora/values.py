"""Values to feed two validators: valid ones, near misses, and plain random JSON.

* ``json_values()``: a hypothesis strategy for any JSON value (no NaN or infinities).
* ``guided(schema, rnd)``: a value that follows the schema loosely (``$ref``, ``enum``, ``const``,
  ``anyOf``/``oneOf``/``allOf``, ``type`` lists, properties, items, bounds), so many are valid and
  the rest miss by a little: boundary numbers, a required key left out now and then, strings
  around ``minLength``/``maxLength``.
* ``mutations(value, rnd)``: copies of a value with one change at a random place: a value of
  another type, a removed key, an extra key, a number pushed out of range, a number as a string,
  an integer as ``3.0``, ``null``, an array with one more item equal to one of its items in JSON
  (``1`` and ``1.0``) or equal only to Python (``True`` and ``1``).

Everything here is deterministic given the ``random.Random`` passed in.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

Json = Any

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**53), max_value=2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)


def json_values() -> st.SearchStrategy[Json]:
    """Any JSON value, small."""
    return st.recursive(
        _SCALARS,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
        ),
        max_leaves=12,
    )


_STRINGS = (
    "",
    "a",
    "abc",
    "Hello",
    "3",
    "3.5",
    "true",
    "null",
    "2024-01-31",
    "2024-01-31T12:00:00Z",
    "a@example.com",
    "https://example.com",
    "00000000-0000-0000-0000-000000000000",
    "ä€𝄞",
    " ",
    "x" * 40,
)
_NOISE = (None, True, False, 0, -1, 1.5, "", "x", [], {}, [1], {"k": "v"})


def _resolve(root: Json, ref: str) -> Json:
    """A local JSON pointer (``#/$defs/X``); ``{}`` for anything else."""
    if not ref.startswith("#"):
        return {}
    node = root
    for raw in ref[1:].split("/")[1:]:
        step = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and step in node:
            node = node[step]
        elif isinstance(node, list) and step.isdigit() and int(step) < len(node):
            node = node[int(step)]
        else:
            return {}
    return node


def guided(schema: Json, rnd: random.Random, root: Json = None, depth: int = 0) -> Json:
    """A value shaped by the schema: valid often, a near miss otherwise."""
    root = schema if root is None else root
    if schema is True or schema == {} or depth > 6:
        return rnd.choice(_NOISE) if depth <= 6 else None
    if schema is False or not isinstance(schema, dict):
        return rnd.choice(_NOISE)
    if rnd.random() < 0.03:
        return rnd.choice(_NOISE)
    if "$ref" in schema and rnd.random() < 0.9:
        return guided(_resolve(root, schema["$ref"]), rnd, root, depth + 1)
    if "const" in schema and rnd.random() < 0.9:
        return copy.deepcopy(schema["const"])
    if isinstance(schema.get("enum"), list) and schema["enum"] and rnd.random() < 0.9:
        return copy.deepcopy(rnd.choice(schema["enum"]))
    for keyword in ("anyOf", "oneOf", "allOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and branches and rnd.random() < 0.9:
            rest = {k: v for k, v in schema.items() if k != keyword}
            branch = rnd.choice(branches)
            if rest.get("type") is None and isinstance(branch, dict):
                return guided({**rest, **branch}, rnd, root, depth + 1)
            return guided(branch, rnd, root, depth + 1)
    return _typed(schema, _pick_type(schema, rnd), rnd, root, depth)


def _pick_type(schema: dict[str, Any], rnd: random.Random) -> str:
    declared = schema.get("type")
    if isinstance(declared, list) and declared:
        return str(rnd.choice(declared))
    if isinstance(declared, str):
        return declared
    if "properties" in schema or "required" in schema or "additionalProperties" in schema:
        return "object"
    if "items" in schema or "prefixItems" in schema:
        return "array"
    if any(k in schema for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")):
        return "number"
    if any(k in schema for k in ("minLength", "maxLength", "pattern")):
        return "string"
    return rnd.choice(("null", "boolean", "integer", "number", "string", "array", "object"))


def _typed(schema: dict[str, Any], kind: str, rnd: random.Random, root: Json, depth: int) -> Json:
    maker = _MAKERS.get(kind)
    return rnd.choice(_NOISE) if maker is None else maker(schema, rnd, root, depth)


def _number(schema: dict[str, Any], rnd: random.Random, integer: bool) -> Json:
    bounds = [
        v
        for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
        if isinstance(v := schema.get(k), (int, float)) and not isinstance(v, bool)
    ]
    candidates: list[float] = [0, 1, -1, 7, 100, 2.5, -0.5, 1e9, -0.0, 0.1, 1e308, 5e-324]
    candidates += [2**53 + 1, 2**64, 1.0000000000000014e17]  # past float precision
    for bound in bounds:
        candidates += [bound, bound - 1, bound + 1, bound - 0.5, bound + 0.5]
    step = schema.get("multipleOf")
    if isinstance(step, (int, float)) and not isinstance(step, bool) and step > 0:
        candidates += [step * rnd.randint(-3, 10) for _ in range(3)]
    value = rnd.choice(candidates)
    if integer and rnd.random() < 0.95:
        return int(value)
    return value


def _string(schema: dict[str, Any], rnd: random.Random, root: Json, depth: int) -> Json:
    lengths = [v for k in ("minLength", "maxLength") if isinstance(v := schema.get(k), int)]
    if lengths and rnd.random() < 0.5:
        return "s" * max(0, rnd.choice(lengths) + rnd.choice((-1, 0, 0, 1)))
    return rnd.choice(_STRINGS)


def _object(schema: dict[str, Any], rnd: random.Random, root: Json, depth: int) -> Json:
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required = schema.get("required") if isinstance(schema.get("required"), list) else []
    value: dict[str, Json] = {}
    for key, inner in properties.items():
        wanted = 0.97 if key in required else 0.5
        if rnd.random() < wanted:
            value[key] = guided(inner, rnd, root, depth + 1)
    for key in required:
        if key not in value and key not in properties and rnd.random() < 0.97:
            value[key] = rnd.choice(_NOISE)
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict) and rnd.random() < 0.5:
        value[rnd.choice(("k", "key", "x-y", "Δ"))] = guided(extra, rnd, root, depth + 1)
    elif rnd.random() < 0.05:
        value["unexpected"] = 1
    return value


def _array(schema: dict[str, Any], rnd: random.Random, root: Json, depth: int) -> Json:
    prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else []
    items = schema.get("items")
    low = schema.get("minItems", 0) if isinstance(schema.get("minItems"), int) else 0
    high = schema.get("maxItems") if isinstance(schema.get("maxItems"), int) else low + 3
    size = rnd.randint(max(0, low - 1), max(low, min(high + 1, low + 4)))
    value = [guided(prefix[i], rnd, root, depth + 1) for i in range(min(size, len(prefix)))]
    while len(value) < size:
        value.append(guided(items if items is not None else {}, rnd, root, depth + 1))
    if schema.get("uniqueItems") and rnd.random() < 0.7:
        unique: list[Json] = []
        for item in value:
            if item not in unique:
                unique.append(item)
        value = unique
    return value


_MAKERS: dict[str, Callable[[dict[str, Any], random.Random, Json, int], Json]] = {
    "null": lambda s, rnd, root, depth: None,
    "boolean": lambda s, rnd, root, depth: rnd.random() < 0.5,
    "integer": lambda s, rnd, root, depth: _number(s, rnd, integer=True),
    "number": lambda s, rnd, root, depth: _number(s, rnd, integer=False),
    "string": _string,
    "object": _object,
    "array": _array,
}


def _places(value: Json, location: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Json]]:
    found = [(location, value)]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _places(item, (*location, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _places(item, (*location, index))
    return found


def _set(value: Json, location: tuple[Any, ...], new: Json) -> Json:
    if not location:
        return new
    altered = copy.deepcopy(value)
    parent = altered
    for step in location[:-1]:
        parent = parent[step]
    parent[location[-1]] = new
    return altered


def _twin(item: Json) -> Json:
    """An item equal to this one in JSON (1 and 1.0), or one Python alone confuses (True and 1)."""
    if isinstance(item, bool):
        return int(item)
    if isinstance(item, int):
        return float(item)
    if isinstance(item, float) and item.is_integer() and abs(item) < 2**53:
        return int(item)
    if isinstance(item, dict):
        return {key: _twin(inner) for key, inner in item.items()}
    return copy.deepcopy(item)


def _other_type(current: Json, rnd: random.Random) -> Json:
    options = [v for v in _NOISE if type(v) is not type(current)]
    return rnd.choice(options)


def mutations(value: Json, rnd: random.Random, count: int = 4) -> list[Json]:
    """``count`` copies of the value, each with one random change at a random place."""
    places = _places(value)
    made = []
    for _ in range(count):
        location, current = rnd.choice(places)
        made.append(_mutate(value, location, current, rnd))
    return made


def _mutate(value: Json, location: tuple[Any, ...], current: Json, rnd: random.Random) -> Json:
    if isinstance(current, dict) and current and rnd.random() < 0.4:
        altered = copy.deepcopy(current)
        del altered[rnd.choice(list(altered))]
        return _set(value, location, altered)
    if isinstance(current, dict) and rnd.random() < 0.5:
        return _set(
            value, location, {**current, rnd.choice(("extra", "zz", "a b")): rnd.choice(_NOISE)}
        )
    if isinstance(current, (int, float)) and not isinstance(current, bool):
        choice = rnd.random()
        if choice < 0.25:
            return _set(value, location, json.dumps(current))
        if choice < 0.45 and float(current).is_integer():
            return _set(value, location, float(current))
        if choice < 0.8:
            return _set(value, location, current + rnd.choice((-1e12, -1, -0.5, 0.5, 1, 1e12)))
    if isinstance(current, str) and current and rnd.random() < 0.3:
        return _set(value, location, current[:-1] if rnd.random() < 0.5 else current + current[-1])
    if isinstance(current, list) and current and rnd.random() < 0.4:
        return _set(value, location, [*current, _twin(rnd.choice(current))])
    if rnd.random() < 0.2:
        return _set(value, location, None)
    return _set(value, location, _other_type(current, rnd))
