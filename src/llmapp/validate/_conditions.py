"""Boolean expressions for the keywords that judge one value on its own.

``type``, ``enum``, ``const`` and the constraint keywords (bounds, lengths, pattern,
format, sizes, uniqueness) each become one Python expression over a variable. Both
generated functions use them: the checker returns False when one is false, the
walker reports one issue (the whole expected text) for the value.

A constraint applies only to its own type family; when the declared types do not
already guarantee that family, the expression is guarded (``not isinstance(v, str)
or len(v) >= 3``), and when they exclude it, the keyword is dropped. A string of a
format that writes a number (``decimal``, ``NUMERIC_TEXT_FORMATS``) is judged by the
numeric keywords beside the format too: the number it writes must pass them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from llmapp._codegen.compact import shared_names
from llmapp._scalars.table import MATCHED_FORMATS, NUMERIC_TEXT_FORMATS
from llmapp.jsonschema import JSON_TYPES, KEYWORDS, Node, declared_types

from .._codegen.source import Emitter, literal
from ._formats import NUMBER_FORMATS, STRING_FORMATS
from ._patterns import PatternError, compile_pattern, search_test
from ._runtime import decimal_text, multiple_check
from ._vocabulary import CONDITION_KEYWORDS

__all__ = ["BUILDERS", "Builder", "Conditions", "conjunction", "finite_bounds", "type_test"]

_TYPE_TESTS = {
    "string": "isinstance({v}, str)",
    "integer": "(type({v}) is int or _is_integer({v}))",
    "number": "(type({v}) is float and {v} - {v} == 0.0 or type({v}) is int or _is_number({v}))",
    "boolean": "({v} is True or {v} is False)",
    "null": "{v} is None",
    "object": "(type({v}) is dict or isinstance({v}, dict))",
    "array": "(type({v}) is list or isinstance({v}, (list, tuple)))",
}
_STRICT_OBJECT = "((type({v}) is dict or isinstance({v}, dict)) and _str_keys({v}))"
_FAMILY_GUARDS = {
    "string": "isinstance({v}, str)",
    "number": "_is_number({v})",
    "array": "isinstance({v}, (list, tuple))",
    "object": "isinstance({v}, dict)",
}
_FAMILY_TYPES = {
    "string": {"string"},
    "number": {"integer", "number"},
    "array": {"array"},
    "object": {"object"},
}

Report = Callable[[Node, str, str], None]
"""Records a build problem: (node, keyword, reason)."""


def conjunction(tests: list[str]) -> str:
    """``tests`` joined by ``and``, as one operand for ``if not ...`` (parenthesised unless
    it already is one: a parenthesised expression or a plain call)."""
    if len(tests) == 1 and _single_operand(tests[0]):
        return tests[0]
    return "(" + " and ".join(tests) + ")"


_CALLEE = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*(?=\()")


def _single_operand(text: str) -> bool:
    """Whether ``text`` is ``( ... )`` or ``name( ... )`` with that parenthesis closing last."""
    callee = _CALLEE.match(text)
    start = callee.end() if callee else 0
    if not (text.startswith("(", start) and text.endswith(")")):
        return False
    depth, quote = 0, ""
    for index in range(start, len(text)):
        char = text[index]
        if quote:
            if char == quote and text[index - 1] != "\\":
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0 and index != len(text) - 1:
                return False
    return True


def type_test(types: frozenset[str], v: str, *, strict_keys: bool, bounded: bool = False) -> str:
    """An expression true when ``v`` has one of ``types``. ``bounded``: the conditions
    written after it (``finite_bounds``) refuse a number that is not finite, so a number
    alone (``integer``, ``number``) leaves out a float's own finiteness test."""
    if bounded and "number" in types and types <= _NUMBER_TYPES:
        return _BOUNDED_NUMBER.format(v=v)
    key = (types, strict_keys)
    template = _type_templates.get(key)
    if template is None:
        template = _type_templates[key] = _type_template(types, strict_keys)
    return template.format(v=v)


_type_templates: dict[tuple[frozenset[str], bool], str] = {}
"""``_type_template`` of each set of types met so far (at most the 2 x 2**7 there are):
a validator asks for the same few with each of its values."""
_NUMBER_TYPES = frozenset({"integer", "number"})
_BOUNDED_NUMBER = "(type({v}) is float or type({v}) is int or _is_number({v}))"


def finite_bounds(schema: Mapping[str, Any]) -> bool:
    """Whether ``schema`` has a finite lower and a finite upper bound: their comparisons
    (written after ``enum`` and ``const``, total helpers, and before every other
    condition) refuse NaN and both infinities, as a number's finiteness test does."""
    lower = ("minimum", "exclusiveMinimum")
    upper = ("maximum", "exclusiveMaximum")
    return any(_finite(schema.get(key)) for key in lower) and any(
        _finite(schema.get(key)) for key in upper
    )


def _finite(bound: Any) -> bool:
    return type(bound) is int or (type(bound) is float and math.isfinite(bound))


def _type_template(types: frozenset[str], strict_keys: bool) -> str:
    names = set(types)
    if "number" in names:
        names.discard("integer")
    tests = []
    for name in JSON_TYPES:
        if name in names:
            tests.append(_STRICT_OBJECT if name == "object" and strict_keys else _TYPE_TESTS[name])
    if not tests:
        return "False"
    if len(tests) == 1:
        return tests[0]
    # Every type's exact test before any call: a string of ``integer | string`` is
    # answered without ``_is_integer``, an integer without ``isinstance`` (the tests
    # only answer: their order is free).
    heads = [_SPLIT_TESTS.get(test, (test, ""))[0] for test in tests]
    tails = [_SPLIT_TESTS[test][1] for test in tests if test in _SPLIT_TESTS]
    return "(" + " or ".join(heads + tails) + ")"


_SPLIT_TESTS = {
    _TYPE_TESTS["string"]: ("type({v}) is str", "isinstance({v}, str)"),
    _TYPE_TESTS["integer"]: ("type({v}) is int", "_is_integer({v})"),
    _TYPE_TESTS["number"]: (
        "type({v}) is float and {v} - {v} == 0.0 or type({v}) is int",
        "_is_number({v})",
    ),
    _TYPE_TESTS["array"]: ("type({v}) is list", "isinstance({v}, (list, tuple))"),
    _TYPE_TESTS["object"]: ("type({v}) is dict", "isinstance({v}, dict)"),
}
"""Type tests as the exact type's test and the call for the rest (subclasses, whole floats)."""


def guard(family: str, known: frozenset[str] | None, v: str, condition: str) -> str | None:
    """``condition`` made safe for values outside ``family``; None when it can never apply."""
    members = _FAMILY_TYPES[family]
    if known is not None:
        if not known & members:
            return None
        if known <= members:
            return condition
    return f"(not {_FAMILY_GUARDS[family].format(v=v)} or {condition})"


class Conditions:
    """Builds the per-value expressions of one schema, registering constants as globals."""

    def __init__(self, emitter: Emitter, report: Report) -> None:
        self.emitter = emitter
        self._report = report
        self._node: Node | None = None
        self._bounds: tuple[tuple[str, bool, int | float], ...] | None = None
        """The numeric keywords the format's check of the node being built judges too."""

    def local(self, node: Node, v: str, known: frozenset[str] | None) -> list[str]:
        """Every per-value condition of ``node`` except ``type``, in keyword-table order."""
        conditions: list[str] = []
        schema = node.schema
        present = _CONDITIONS.intersection(schema)
        if not present:
            return conditions
        self._node = node
        numeric_text = schema.get("format") in NUMERIC_TEXT_FORMATS
        self._bounds = None
        if numeric_text and "pattern" not in schema and not _NUMERIC_TEXT.isdisjoint(present):
            # One call checks the format and the numbers together, where the format's
            # check is written (no pattern search beside it that order could change).
            self._bounds = self._text_bounds(schema, present)
            numeric_text = False
        for keyword in sorted(present, key=_RANKS.__getitem__) if len(present) > 1 else present:
            family = KEYWORDS[keyword].family
            condition = BUILDERS[keyword](self, schema, schema[keyword], v)
            if condition is None:
                continue
            if family is not None:
                condition = guard(family, known, v, condition)
            if condition is not None:
                conditions.append(condition)
            if numeric_text and keyword in _NUMERIC_TEXT:
                bound = self._text_bound(schema, keyword)
                text = None if bound is None else self._numeric_text(bound, v)
                text = None if text is None else guard("string", known, v, text)
                if text is not None:
                    conditions.append(text)
        return conditions

    def _text_bound(
        self, schema: Mapping[str, Any], keyword: str
    ) -> tuple[str, bool, int | float] | None:
        """A numeric keyword on a string of a format that writes a number (``decimal``),
        as ``(keyword, integer, bound)``: the number the string writes must pass it (see
        ``_runtime.numeric_text``); None when it judges nothing."""
        value = schema[keyword]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None  # a boolean is draft 4's modifier; a bad bound is reported above
        if keyword == "minimum" and schema.get("exclusiveMinimum") is True:
            keyword = "exclusiveMinimum"
        elif keyword == "maximum" and schema.get("exclusiveMaximum") is True:
            keyword = "exclusiveMaximum"
        if keyword == "multipleOf" and value <= 0:
            return None
        return keyword, type(value) is int, value

    def _text_bounds(
        self, schema: Mapping[str, Any], present: frozenset[str]
    ) -> tuple[tuple[str, bool, int | float], ...]:
        """``_text_bound`` of each numeric keyword of ``schema``, in keyword-table order."""
        found = (self._text_bound(schema, key) for key in _NUMERIC_ORDER if key in present)
        return tuple(bound for bound in found if bound is not None)

    def _numeric_text(self, bound: tuple[str, bool, int | float], v: str) -> str | None:
        keyword, _, value = bound
        return f"_numeric_text({v}, {literal(keyword)}, {self._number(keyword, value)})"

    def report(self, keyword: str, reason: str) -> None:
        """Record a build problem of the keyword being built."""
        assert self._node is not None
        self._report(self._node, keyword, reason)

    # -- values ------------------------------------------------------------------

    def _number(self, keyword: str, value: Any) -> str | None:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.report(keyword, f"must be a number, not {value!r}")
            return None
        if isinstance(value, float) and not math.isfinite(value):
            return self.emitter.constant(value, "BOUND")
        return literal(value)

    def _count(self, keyword: str, value: Any) -> int | None:
        integral = isinstance(value, float) and value.is_integer()
        if ((isinstance(value, int) and not isinstance(value, bool)) or integral) and value >= 0:
            return int(value)
        self.report(keyword, f"must be a non-negative integer, not {value!r}")
        return None

    # -- keyword builders --------------------------------------------------------

    def _enum(self, schema: Mapping[str, Any], values: Any, v: str) -> str | None:
        if not isinstance(values, list):
            self.report("enum", "must be an array")
            return None
        if not values:
            return "False"
        if all(isinstance(value, str) for value in values):
            name = self.emitter.constant(shared_names(frozenset(values)), "ENUM")
            if declared_types(schema) == frozenset({"string"}):
                return f"{v} in {name}"
            return f"(isinstance({v}, str) and {v} in {name})"
        name = self.emitter.constant(tuple(values), "ENUM")
        return f"_in_enum({v}, {name})"

    def _const(self, schema: Mapping[str, Any], value: Any, v: str) -> str:
        if value is None:
            return f"{v} is None"
        if value is True or value is False:
            return f"{v} is {value!r}"
        if isinstance(value, str):
            return f"(isinstance({v}, str) and {v} == {literal(value)})"
        name = self.emitter.constant(value, "CONST")
        return f"_json_equal({v}, {name})"

    def _minimum(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        bound = self._number("minimum", value)
        if bound is None:
            return None
        return f"{v} > {bound}" if schema.get("exclusiveMinimum") is True else f"{v} >= {bound}"

    def _maximum(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        bound = self._number("maximum", value)
        if bound is None:
            return None
        return f"{v} < {bound}" if schema.get("exclusiveMaximum") is True else f"{v} <= {bound}"

    def _exclusive_minimum(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        if isinstance(value, bool):
            return None  # draft 4 / OpenAPI 3.0: modifies ``minimum``
        bound = self._number("exclusiveMinimum", value)
        return None if bound is None else f"{v} > {bound}"

    def _exclusive_maximum(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        if isinstance(value, bool):
            return None
        bound = self._number("exclusiveMaximum", value)
        return None if bound is None else f"{v} < {bound}"

    def _multiple_of(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        divisor = self._number("multipleOf", value)
        if divisor is None:
            return None
        if value <= 0:
            self.report("multipleOf", "must be greater than 0")
            return None
        if isinstance(value, int):
            # Exact for ints; a float is read as the decimal it prints as, like 3.0 does.
            return f"({v} % {divisor} == 0 if type({v}) is int else _multiple_of({v}, {divisor}))"
        if not math.isfinite(value):
            return f"_multiple_of({v}, {divisor})"
        # A float divisor is read once, here (the ``decimal`` module with it), not per value.
        name = self.emitter.constant(multiple_check(value), "multiple_of")
        return f"{name}({v})"

    def _min_length(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        count = self._count("minLength", value)
        return None if count is None or count == 0 else f"len({v}) >= {count}"

    def _max_length(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        count = self._count("maxLength", value)
        return None if count is None else f"len({v}) <= {count}"

    def _pattern(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        if not isinstance(value, str):
            self.report("pattern", "must be a string")
            return None
        try:
            compiled = compile_pattern(value)
        except PatternError as error:
            self.report("pattern", f"{value!r} cannot be used: {error}")
            return None
        return search_test(self.emitter.constant, compiled, v)

    def _format(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        if not isinstance(value, str):
            return None
        checker = STRING_FORMATS.get(value)
        if checker is not None and self._bounds is not None:
            checker = decimal_text(self._bounds) if self._bounds else checker
        pattern = MATCHED_FORMATS.get(checker) if checker is not None else None
        if pattern is not None:  # one match: the pattern's own, with no check called around it
            name = self.emitter.constant(re.compile(pattern), value.upper().replace("-", "_"))
            return guard("string", declared_types(schema), v, f"{name}.match({v}) is not None")
        if checker is not None:
            hint = "decimal_text" if self._bounds else "is_" + value
            name = self.emitter.constant(checker, hint)
            return guard("string", declared_types(schema), v, f"{name}({v})")
        bounds = NUMBER_FORMATS.get(value)
        if bounds is not None:
            low, high = bounds
            return guard("number", declared_types(schema), v, f"{low} <= {v} <= {high}")
        return None  # unknown formats are annotations

    def _content_encoding(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        if value != "base64":
            return None
        name = self.emitter.constant(STRING_FORMATS["byte"], "is_base64")
        return f"{name}({v})"

    def _min_items(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        count = self._count("minItems", value)
        return None if count is None or count == 0 else f"len({v}) >= {count}"

    def _max_items(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        count = self._count("maxItems", value)
        return None if count is None else f"len({v}) <= {count}"

    def _unique_items(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        return f"_unique({v})" if value is True else None

    def _min_properties(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        count = self._count("minProperties", value)
        return None if count is None or count == 0 else f"len({v}) >= {count}"

    def _max_properties(self, schema: Mapping[str, Any], value: Any, v: str) -> str | None:
        count = self._count("maxProperties", value)
        return None if count is None else f"len({v}) <= {count}"


Builder = Callable[[Conditions, Mapping[str, Any], Any, str], "str | None"]
"""Builds the condition of one keyword: (conditions, schema, keyword value, variable) ->
an expression true when the value passes (None: nothing to check). The keyword's
type family (from ``KEYWORDS``) guards it."""

BUILDERS: dict[str, Builder] = {
    "enum": Conditions._enum,
    "const": Conditions._const,
    "minimum": Conditions._minimum,
    "exclusiveMinimum": Conditions._exclusive_minimum,
    "maximum": Conditions._maximum,
    "exclusiveMaximum": Conditions._exclusive_maximum,
    "multipleOf": Conditions._multiple_of,
    "minLength": Conditions._min_length,
    "maxLength": Conditions._max_length,
    "pattern": Conditions._pattern,
    "format": Conditions._format,
    "contentEncoding": Conditions._content_encoding,
    "minItems": Conditions._min_items,
    "maxItems": Conditions._max_items,
    "uniqueItems": Conditions._unique_items,
    "minProperties": Conditions._min_properties,
    "maxProperties": Conditions._max_properties,
}
"""The condition builder of each keyword of ``CONDITION_KEYWORDS`` (and only those)."""

_CONDITIONS = frozenset(CONDITION_KEYWORDS)
_NUMERIC_TEXT = frozenset(
    {"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf"}
)
_NUMERIC_ORDER = tuple(keyword for keyword in CONDITION_KEYWORDS if keyword in _NUMERIC_TEXT)
_RANKS = {keyword: rank for rank, keyword in enumerate(CONDITION_KEYWORDS)}
"""Conditions are written in table order: enum/const first (the most specific)."""
