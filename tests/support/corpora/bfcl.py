"""BFCL fixture: the non-live Berkeley Function Calling Leaderboard data as LLM functions and answers.

BFCL's function definitions use a JSON-Schema-like dialect (``dict``, ``float``, ``tuple``,
``any``, Java and JavaScript type names, a non-standard ``optional`` flag). ``to_parameters``
turns one definition into an LLM parameters schema following llmapp's conventions:

* the root is ``{"type": "object", "properties", "required", "additionalProperties": false}``;
* a nested ``dict`` with ``properties`` is closed the same way (BFCL's own checker rejects a key
  the answer does not list, and llmapp closes every object it emits); a nested ``dict`` without
  ``properties`` is a free-form map, ``{"type": "object"}``, keeping any ``required`` it has;
* ``float``/``double`` -> ``number``; ``long``/``short``/``byte``/``Bigint`` -> ``integer``;
  ``String``/``char`` -> ``string``; ``Boolean`` -> ``boolean``; ``tuple``/``Array``/``ArrayList``
  -> ``array``; ``HashMap``/``Hashtable`` -> ``object``; ``any`` and the empty type -> ``{}``
  (BFCL itself sends ``any`` as ``string``; as a schema, "any" means no constraint);
* ``optional`` is dropped: BFCL's checker goes by ``required`` alone, and the one property that is
  both ``optional: true`` and required stays required;
* an ``enum`` written on an array whose items are scalars moves to ``items``;
* ``description``, ``default``, ``enum``, ``format``, ``maximum``, ``minItems``, ``maxItems`` are
  kept as they are (keywords that do not apply to the type are ignored by JSON Schema);
* any other key or type name raises ``ValueError``, so a new BFCL release gets noticed.

Function names are sanitised the way BFCL does for OpenAI-style names: ``.`` -> ``_``.

Answers: a ``possible_answer`` line maps each parameter to a list of acceptable values, ``""``
meaning "may be omitted". Parameters of BFCL type ``dict``/``HashMap`` (and the elements of an
array of ``dict``) are themselves maps of key -> acceptable values. ``answers`` turns one call
into a few concrete argument objects.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from tests.support.corpora import CORPORA

BFCL = CORPORA / "bfcl"

CATEGORIES = (
    "simple_python",
    "simple_java",
    "simple_javascript",
    "multiple",
    "parallel",
    "parallel_multiple",
    "irrelevance",
)
"""Question files (non-live); every one but ``irrelevance`` has a possible_answer file."""

_JSON_TYPES: dict[str, str | None] = {
    "dict": "object",
    "object": "object",
    "HashMap": "object",
    "Hashtable": "object",
    "float": "number",
    "number": "number",
    "double": "number",
    "integer": "integer",
    "long": "integer",
    "short": "integer",
    "byte": "integer",
    "Bigint": "integer",
    "string": "string",
    "String": "string",
    "char": "string",
    "boolean": "boolean",
    "Boolean": "boolean",
    "bool": "boolean",
    "array": "array",
    "list": "array",
    "tuple": "array",
    "Array": "array",
    "ArrayList": "array",
    "Queue": "array",
    "Stack": "array",
    "any": None,
    "Any": None,
    "": None,
}
"""BFCL dialect type -> JSON Schema type (``None``: no type constraint)."""

_MAP_TYPES = frozenset({"dict", "HashMap", "Hashtable", "object"})
"""BFCL types whose acceptable values are themselves maps of key -> acceptable values."""

_COPIED = ("description", "default", "enum", "format", "maximum", "minItems", "maxItems")
_DIALECT_KEYS = frozenset({*_COPIED, "type", "properties", "required", "items", "optional"})


def to_parameters(parameters: dict[str, Any]) -> dict[str, Any]:
    """Convert a BFCL ``parameters`` object into an LLM parameters schema (closed at the root)."""
    schema = _convert(parameters, "parameters")
    if schema.get("type") != "object" or "properties" not in schema:
        raise ValueError(f"parameters: expected a dict with properties, got {parameters!r}")
    return schema


def _convert(node: dict[str, Any], where: str) -> dict[str, Any]:
    unknown = set(node) - _DIALECT_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown BFCL keys {sorted(unknown)}")
    bfcl_type = node.get("type", "")
    if bfcl_type not in _JSON_TYPES:
        raise ValueError(f"{where}: unknown BFCL type {bfcl_type!r}")
    json_type = _JSON_TYPES[bfcl_type]
    out: dict[str, Any] = {} if json_type is None else {"type": json_type}
    for key in _COPIED:
        if key in node:
            out[key] = node[key]
    if json_type == "object":
        _convert_object(node, out, where)
    elif json_type == "array" and "items" in node:
        out["items"] = _convert(node["items"], f"{where}[]")
        if "enum" in out and "enum" not in out["items"]:
            out["items"]["enum"] = out.pop("enum")
    return out


def _convert_object(node: dict[str, Any], out: dict[str, Any], where: str) -> None:
    properties = node.get("properties")
    required = list(node.get("required", []))
    if properties is None:
        if required:
            out["required"] = required
        return
    out["properties"] = {
        name: _convert(value, f"{where}.{name}") for name, value in properties.items()
    }
    out["required"] = required
    out["additionalProperties"] = False


def llm_name(name: str) -> str:
    """BFCL's own sanitisation of a function name for OpenAI-style tools (``.`` -> ``_``)."""
    return name.replace(".", "_")


@dataclass(frozen=True)
class Function:
    """One BFCL function definition and its converted LLM parameters schema."""

    question_id: str
    name: str
    description: str
    source: dict[str, Any] = field(repr=False)
    parameters: dict[str, Any] = field(repr=False)

    @property
    def llm_name(self) -> str:
        return llm_name(self.name)


@dataclass(frozen=True)
class Call:
    """One expected call of a possible_answer line: function and acceptable values per param."""

    question_id: str
    index: int
    function: Function
    choices: dict[str, list[Any]] = field(repr=False)

    @property
    def id(self) -> str:
        return f"{self.question_id}#{self.index}:{self.function.name}"


@dataclass(frozen=True)
class Answer:
    """A concrete argument object built from a call's acceptable values."""

    call: Call
    variant: str
    arguments: dict[str, Any]

    @property
    def id(self) -> str:
        return f"{self.call.id}/{self.variant}"


def available() -> bool:
    """Whether the BFCL corpus is present on this machine."""
    return BFCL.is_dir()


def _lines(path: Path) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as stream:
        for line in stream:
            if line.strip():
                yield json.loads(line)


def _function(question_id: str, source: dict[str, Any]) -> Function:
    return Function(
        question_id=question_id,
        name=source["name"],
        description=source.get("description", ""),
        source=source,
        parameters=to_parameters(source["parameters"]),
    )


@cache
def questions() -> dict[str, list[Function]]:
    """Question id -> the functions offered with it, for every non-live category."""
    offered: dict[str, list[Function]] = {}
    for category in CATEGORIES:
        for line in _lines(BFCL / "question" / f"BFCL_v4_{category}.json"):
            offered[line["id"]] = [_function(line["id"], source) for source in line["function"]]
    return offered


@cache
def multi_turn_functions() -> list[Function]:
    """The multi-turn API function docs (one function per line, no answers)."""
    found = []
    for path in sorted((BFCL / "multi_turn_func_doc").glob("*.json")):
        for source in _lines(path):
            found.append(_function(f"multi_turn:{path.stem}", source))
    return found


def functions() -> list[Function]:
    """Every function definition: each question's functions, then the multi-turn docs."""
    return [f for offered in questions().values() for f in offered] + multi_turn_functions()


@cache
def calls() -> list[Call]:
    """Every expected call of every possible_answer line."""
    offered = questions()
    found = []
    for category in CATEGORIES:
        path = BFCL / "possible_answer" / f"BFCL_v4_{category}.json"
        if not path.exists():
            continue
        for line in _lines(path):
            by_name = {f.name: f for f in offered[line["id"]]}
            for index, expected in enumerate(line["ground_truth"]):
                ((name, choices),) = expected.items()
                found.append(Call(line["id"], index, by_name[name], choices))
    return found


OMIT: Any = object()
"""A pick meaning "leave this key out" (the ``""`` of a possible answer)."""


def _pick(choices: Any, variant: int) -> Any:
    """The variant-th acceptable value (the last one past the end); ``""`` -> ``OMIT``."""
    if not isinstance(choices, list):
        # simple_java_64 lists {"format": "epoch_millis"}: a bare value, taken as the only choice.
        return choices
    if not choices:
        return OMIT
    chosen = choices[min(variant, len(choices) - 1)]
    return OMIT if chosen == "" else chosen


def _decode_map(choice_map: dict[str, Any], bfcl: dict[str, Any], variant: int) -> dict[str, Any]:
    """A map of key -> acceptable values, as a concrete object."""
    properties = bfcl.get("properties", {})
    decoded = {}
    for key, choices in choice_map.items():
        chosen = _pick(choices, variant)
        if chosen is not OMIT:
            decoded[key] = _decode(chosen, properties.get(key, {}), variant)
    return decoded


def _decode(chosen: Any, bfcl: dict[str, Any], variant: int) -> Any:
    """A chosen acceptable value, with the maps BFCL nests inside dict-typed values decoded."""
    bfcl_type = bfcl.get("type", "")
    if bfcl_type in _MAP_TYPES and isinstance(chosen, dict):
        return _decode_map(chosen, bfcl, variant)
    items = bfcl.get("items", {})
    if isinstance(chosen, list) and items.get("type") in _MAP_TYPES:
        return [_decode_map(e, items, variant) if isinstance(e, dict) else e for e in chosen]
    return chosen


def answers(call: Call) -> list[Answer]:
    """Concrete answers for a call: the first choices, each further choice, the minimal one.

    Variant ``first`` takes every parameter's first acceptable value (omitting it when that is
    ``""``); variant ``choice-k`` takes the k-th value of every list that has one (so every
    acceptable value of every parameter appears in some answer); ``minimal`` omits everything
    that may be omitted. Duplicates are dropped.
    """
    source = call.function.source["parameters"]
    widest = max([_width(c) for c in call.choices.values()], default=1)
    built = [("first", _decode_map(call.choices, source, 0))]
    built += [(f"choice-{k}", _decode_map(call.choices, source, k)) for k in range(1, widest)]
    minimal = {k: v for k, v in call.choices.items() if not (isinstance(v, list) and "" in v)}
    built.append(("minimal", _decode_map(minimal, source, 0)))
    unique: list[Answer] = []
    seen: set[str] = set()
    for variant, arguments in built:
        key = json.dumps(arguments, sort_keys=True)
        if key not in seen:
            seen.add(key)
            unique.append(Answer(call, variant, arguments))
    return unique


def _width(choices: Any) -> int:
    """How many variants a list of acceptable values (and the maps inside it) asks for."""
    if not isinstance(choices, list):
        return 1
    inner = [_width(v) for c in choices if isinstance(c, dict) for v in c.values()]
    inner += [
        _width(v)
        for c in choices
        if isinstance(c, list)
        for e in c
        if isinstance(e, dict)
        for v in e.values()
    ]
    return max([len(choices), *inner])


def all_answers() -> list[Answer]:
    """Every concrete answer of every call."""
    return [answer for call in calls() for answer in answers(call)]


_OMITTABLE_REQUIRED = 'the possible answer lists "" (may be omitted) for a required parameter'
_VARIABLE = (
    "the answer names a variable (a string) where the parameter is not a string; BFCL's checker "
    "takes a value of the answer's own type as a variable reference"
)
_OFF_ENUM = (
    "the answer is not in the declared enum; BFCL compares strings lower-cased without spaces "
    "or punctuation and never checks enum"
)
_UNDECLARED = "the answer gives a parameter the function does not declare"
_NOT_A_DATE = (
    'not an RFC 3339 full-date although the parameter has format "date" ("01/15/2021", '
    '"Jan 15, 2021"); BFCL never checks formats'
)

KNOWN_EXCEPTIONS: dict[str, str] = {
    "simple_python_17#0:get_prime_factors/choice-1": _OMITTABLE_REQUIRED,
    "simple_python_149#0:get_stock_price/choice-1": (
        "a list of one-element lists ([['Apple'], ['Microsoft']]) for an array of strings"
    ),
    "simple_python_200#0:calculate_emissions/first": _OMITTABLE_REQUIRED,
    "simple_python_200#0:calculate_emissions/minimal": _OMITTABLE_REQUIRED,
    "simple_python_307#0:game_result.get_winner/choice-1": "a boolean answer for a string parameter",
    "simple_python_307#0:game_result.get_winner/choice-2": "a boolean answer for a string parameter",
    "simple_python_358#0:recipe_search/choice-1": _OFF_ENUM,
    "simple_python_358#0:recipe_search/choice-2": _OFF_ENUM,
    "simple_java_26#0:ProxyConnection.prepareCall/first": _VARIABLE,
    "simple_java_35#0:RedissonConnection.bitOp/first": _VARIABLE,
    "simple_java_38#0:NestedValueFetcher.createSourceMapStub/first": _VARIABLE,
    "simple_java_45#0:Basic.checkSizes/first": _VARIABLE,
    "simple_java_58#0:XContentBuilder.map/first": _VARIABLE,
    "simple_java_69#0:DurationImpl.alignSigns/first": _VARIABLE,
    "simple_java_72#0:ToTextStream.characters/first": _VARIABLE,
    "simple_java_82#0:clear001a.runIt/first": _VARIABLE,
    "simple_java_87#0:suspendpolicy017.settingVMDeathRequest/first": _VARIABLE,
    "simple_java_88#0:filter_s002.setting22MethodEntryRequest/first": _VARIABLE,
    "simple_javascript_5#0:manageReactState/first": _VARIABLE,
    "simple_javascript_9#0:validateApiResponse/first": _VARIABLE,
    "simple_javascript_11#0:prioritizeAndSort/first": _VARIABLE,
    "simple_javascript_15#0:ChartSeriesGenerator/first": _VARIABLE,
    "simple_javascript_19#0:configureShaderMaterial/first": _VARIABLE,
    "simple_javascript_32#0:pollQueue/first": _VARIABLE,
    "simple_javascript_37#0:addInitializedPropertyStatements/first": _VARIABLE,
    "simple_javascript_37#0:addInitializedPropertyStatements/choice-1": _VARIABLE,
    "simple_javascript_39#0:maybeAddJsSyntheticRestParameter/first": _VARIABLE,
    "multiple_76#0:sculpture.create_custom/choice-1": _OFF_ENUM,
    "parallel_88#0:calculate_final_speed/choice-1": _OMITTABLE_REQUIRED,
    "parallel_152#0:math.power/choice-1": "null for a parameter that is not nullable",
    "parallel_152#1:math.power/choice-1": "null for a parameter that is not nullable",
    "parallel_multiple_12#1:calculate_voltage_difference/choice-1": _UNDECLARED,
    "parallel_multiple_21#1:linear_regression_fit/first": _VARIABLE,
    "parallel_multiple_26#1:bank.calculate_balance/first": _UNDECLARED,
    "parallel_multiple_87#2:kinematics.distance/choice-1": _OMITTABLE_REQUIRED,
    "parallel_multiple_63#0:weather.get_by_coordinates_date/choice-1": _NOT_A_DATE,
    "parallel_multiple_63#0:weather.get_by_coordinates_date/choice-2": _NOT_A_DATE,
    "parallel_multiple_63#1:weather.get_by_city_date/choice-1": _NOT_A_DATE,
    "parallel_multiple_63#1:weather.get_by_city_date/choice-2": _NOT_A_DATE,
    "parallel_multiple_63#2:weather.get_by_city_date/choice-1": _NOT_A_DATE,
    "parallel_multiple_63#2:weather.get_by_city_date/choice-2": _NOT_A_DATE,
    "parallel_multiple_94#0:sort_list/first": (
        "the schema types the items as integer, but the question sorts words and the answer lists strings"
    ),
    "parallel_multiple_94#0:sort_list/choice-1": (
        "the schema types the items as integer, but the question sorts words and the answer lists strings"
    ),
    "parallel_multiple_119#2:league_stats.get_top_scorer/choice-2": _OMITTABLE_REQUIRED,
    "parallel_multiple_119#2:league_stats.get_top_scorer/choice-3": _OMITTABLE_REQUIRED,
    "parallel_multiple_119#2:league_stats.get_top_scorer/choice-4": _OMITTABLE_REQUIRED,
    "parallel_multiple_119#2:league_stats.get_top_scorer/choice-5": _OMITTABLE_REQUIRED,
    "parallel_multiple_143#1:find_flute/choice-1": _OFF_ENUM,
    "parallel_multiple_173#2:ecology_data.precipitation_stats/choice-1": _OFF_ENUM,
    "parallel_multiple_173#2:ecology_data.precipitation_stats/choice-2": _OFF_ENUM,
    "parallel_multiple_173#3:ecology_data.precipitation_stats/choice-1": _OFF_ENUM,
    "parallel_multiple_194#3:building.get_dimensions/choice-1": _OFF_ENUM,
}
"""Answers that do not fit their own function's schema (BFCL data quirks), with the reason.

Found by validating every concrete answer with ``jsonschema`` (its FormatChecker on) against the
converted schema; the tests check that each of these still fails, so the list cannot go stale.
"""
