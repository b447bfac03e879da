"""Property tests: a validator never raises, its two paths agree, and it agrees with jsonschema.

* any Python value (JSON-like, plus sets, bytes, NaN, huge ints, tuples, hostile objects)
  against a set of schemas and against generated schemas: a ``Validation`` comes back,
  ``is_valid`` agrees with it, a failure has issues and every path starts at ``$input``;
* JSON values against generated schemas (no formats): the verdict is jsonschema's, with
  one deliberate difference: ``multipleOf`` reads floats as the decimals they print as
  (``0.3`` is a multiple of ``0.1``), where jsonschema divides binary floats.

The quick run uses a few hundred examples; ``-m slow`` runs many more.
"""

from __future__ import annotations

import math
import re
from collections import OrderedDict
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from llmapp.validate import SchemaError, Validator, validator

QUICK = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))


class Hostile:
    """An object whose every comparison, hash and iteration raises."""

    def __eq__(self, other: object) -> bool:
        raise RuntimeError("eq")

    def __hash__(self) -> int:
        raise RuntimeError("hash")

    def __iter__(self) -> Any:
        raise RuntimeError("iter")

    def __len__(self) -> int:
        raise RuntimeError("len")

    def __repr__(self) -> str:
        raise RuntimeError("repr")


class BadDict(dict):  # type: ignore[type-arg]
    def items(self) -> Any:
        raise RuntimeError("items")

    def get(self, *args: Any) -> Any:
        raise RuntimeError("get")


class BadList(list):  # type: ignore[type-arg]
    def __iter__(self) -> Any:
        raise RuntimeError("iter")


class FloatLike(float):
    pass


class IntLike(int):
    pass


KEYS = st.sampled_from(["a", "b", "name", "kind", "items", "x-y", "", "0", "é"])
JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
)
JSON = st.recursive(
    JSON_SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=12,
)
ODD_SCALARS = st.one_of(
    st.just(math.nan),
    st.just(math.inf),
    st.just(-math.inf),
    st.binary(max_size=3),
    st.builds(Hostile),
    st.builds(FloatLike, st.floats()),
    st.builds(IntLike, st.integers()),
    st.just(object()),
    st.just(1j),
    st.just(...),
)
ANY_VALUE = st.recursive(
    st.one_of(JSON_SCALARS, ODD_SCALARS),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.lists(inner, max_size=3).map(BadList),
        st.dictionaries(KEYS, inner, max_size=3),
        st.dictionaries(KEYS, inner, max_size=3).map(OrderedDict),
        st.dictionaries(KEYS, inner, max_size=3).map(BadDict),
        st.dictionaries(st.integers(0, 3), inner, max_size=2),
        st.frozensets(st.integers(), max_size=3),
    ),
    max_leaves=10,
)

PRODUCT = {
    "type": "object",
    "properties": {
        "sku": {"type": "string", "pattern": "^[A-Z]"},
        "qty": {"type": "integer", "minimum": 1},
    },
    "required": ["sku"],
    "additionalProperties": False,
}
FIXED_SCHEMAS: list[Any] = [
    True,
    False,
    {},
    {"type": ["string", "null"], "format": "email"},
    {
        "$defs": {"P": PRODUCT},
        "type": "array",
        "items": {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}]},
    },
    {
        "$ref": "#/$defs/N",
        "$defs": {
            "N": {
                "type": "object",
                "properties": {
                    "kind": {"const": "n"},
                    "items": {"type": "array", "items": {"$ref": "#/$defs/N"}},
                },
            }
        },
    },
    {
        "oneOf": [
            {"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
            {"type": "object", "properties": {"kind": {"const": "b"}}},
        ],
        "discriminator": {"propertyName": "kind"},
    },
    {"type": "array", "uniqueItems": True, "contains": {"type": "number"}, "maxContains": 2},
    {
        "type": "object",
        "patternProperties": {"^a": {"type": "integer"}},
        "propertyNames": {"maxLength": 3},
        "additionalProperties": {"enum": [1, "1", None, [1]]},
    },
    {"type": "number", "multipleOf": 0.1, "exclusiveMaximum": 1e300},
    {
        "not": {"type": "object"},
        "if": {"type": "string"},
        "then": {"minLength": 2},
        "else": {"type": "array"},
    },
]
COMPILED = [validator(schema) for schema in FIXED_SCHEMAS]


def assert_consistent(check: Validator, value: Any) -> Any:
    result = check(value)
    assert result.success in (True, False)
    assert check.is_valid(value) is result.success
    if not result.success:
        assert result.errors
        for issue in result.errors:
            assert issue.path.startswith("$input")
            assert isinstance(issue.expected, str) and issue.expected
    return result


@QUICK
@given(value=ANY_VALUE, index=st.integers(0, len(FIXED_SCHEMAS) - 1))
def test_fixed_schemas_never_raise(value: Any, index: int) -> None:
    assert_consistent(COMPILED[index], value)


def schemas(formats: bool = True) -> st.SearchStrategy[Any]:
    """Generated schemas over the supported keywords (no formats when comparing with jsonschema)."""
    scalar_types = st.sampled_from(
        ["string", "integer", "number", "boolean", "null", "array", "object"]
    )
    leaf = st.one_of(
        st.builds(lambda t: {"type": t}, scalar_types),
        st.builds(
            lambda ts: {"type": ts}, st.lists(scalar_types, min_size=1, max_size=3, unique=True)
        ),
        st.builds(lambda v: {"enum": v}, st.lists(JSON_SCALARS, min_size=1, max_size=3)),
        st.builds(lambda v: {"const": v}, JSON),
        st.builds(lambda n: {"type": "integer", "minimum": n}, st.integers(-5, 5)),
        st.builds(lambda n: {"exclusiveMaximum": n}, st.floats(-10, 10)),
        st.builds(lambda n: {"multipleOf": n}, st.sampled_from([1, 2, 0.5, 0.1])),
        st.builds(lambda n: {"minLength": n, "maxLength": n + 2}, st.integers(0, 3)),
        st.builds(lambda p: {"pattern": p}, st.sampled_from(["^a", "b$", "[0-9]", "^\\w+$", "."])),
        st.builds(lambda n: {"minItems": n, "uniqueItems": True}, st.integers(0, 2)),
        st.builds(lambda n: {"maxProperties": n}, st.integers(0, 2)),
        st.booleans(),
        st.just({}),
    )
    if formats:
        leaf = st.one_of(
            leaf,
            st.builds(
                lambda f: {"format": f},
                st.sampled_from(["email", "date", "uuid", "ipv4", "unknown"]),
            ),
        )

    def extend(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.one_of(
            st.builds(
                lambda props, req, extra: {
                    "type": "object",
                    "properties": props,
                    "required": [k for k in props if req],
                    **({"additionalProperties": extra} if extra is not None else {}),
                },
                st.dictionaries(KEYS, inner, max_size=3),
                st.booleans(),
                st.one_of(st.none(), st.just(False), inner),
            ),
            st.builds(lambda items: {"type": "array", "items": items}, inner),
            st.builds(
                lambda pre, rest: {"prefixItems": pre, "items": rest},
                st.lists(inner, min_size=1, max_size=2),
                inner,
            ),
            st.builds(lambda bs: {"anyOf": bs}, st.lists(inner, min_size=1, max_size=3)),
            st.builds(lambda bs: {"oneOf": bs}, st.lists(inner, min_size=1, max_size=3)),
            st.builds(lambda bs: {"allOf": bs}, st.lists(inner, min_size=1, max_size=2)),
            st.builds(lambda b: {"not": b}, inner),
            st.builds(lambda c, t, e: {"if": c, "then": t, "else": e}, inner, inner, inner),
            st.builds(lambda c: {"contains": c, "minContains": 1, "maxContains": 2}, inner),
            st.builds(
                lambda p, s: {"patternProperties": {p: s}}, st.sampled_from(["^a", "x"]), inner
            ),
            st.builds(lambda s: {"propertyNames": s}, inner),
            st.builds(
                lambda body: {"$ref": "#/$defs/D", "$defs": {"D": body}},
                inner,
            ),
        )

    return st.recursive(leaf, extend, max_leaves=6)


@QUICK
@given(schema=schemas(), value=ANY_VALUE)
def test_generated_schemas_never_raise(schema: Any, value: Any) -> None:
    try:
        check = validator(schema)
    except SchemaError:
        return
    assert_consistent(check, value)


def _decimal_multiple_of(
    checker: Any, divisor: Any, instance: Any, schema: Any
) -> Iterator[jsonschema.ValidationError]:
    """jsonschema's ``multipleOf`` with llmapp's semantics: numbers read as decimals."""
    if checker.is_type(instance, "number"):
        quotient = Fraction(Decimal(repr(instance))) / Fraction(Decimal(repr(divisor)))
        if quotient.denominator != 1:
            yield jsonschema.ValidationError(f"{instance!r} is not a multiple of {divisor!r}")


_AS_PYTHON = {
    "b$": r"b\Z",
    "^\\w+$": r"^[A-Za-z0-9_]+\Z",
    ".": "[^\n\r\u2028\u2029]",
}
"""The generated patterns whose ECMA-262 meaning Python's ``re`` spells otherwise: ``$``
does not match before a final newline, ``\\w`` is ASCII, ``.`` stops at every line
terminator (llmapp reads patterns as ECMA-262 does)."""


def _ecma_pattern(
    checker: Any, pattern: Any, instance: Any, schema: Any
) -> Iterator[jsonschema.ValidationError]:
    """jsonschema's ``pattern`` with the ECMA-262 meaning of the generated patterns."""
    if checker.is_type(instance, "string") and not re.search(
        _AS_PYTHON.get(pattern, pattern), instance
    ):
        yield jsonschema.ValidationError(f"{instance!r} does not match {pattern!r}")


Reference = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    {"multipleOf": _decimal_multiple_of, "pattern": _ecma_pattern},
)


def _agrees(schema: Any, value: Any) -> None:
    try:
        check = validator(schema)
    except SchemaError:
        return  # e.g. a $ref cycle that never consumes data (jsonschema recurses forever)
    ours = assert_consistent(check, value).success
    theirs = Reference(schema).is_valid(value)
    assert ours == theirs, (schema, value, check(value))


@pytest.mark.parametrize(
    ("pattern", "wrong", "right"),
    [("^\\w+$", "é", "a_1"), ("b$", "b\n", "ab"), (".", "\r", "x"), (".", "\u2028", "x")],
)
def test_the_reference_reads_patterns_as_ecma_does(pattern: str, wrong: str, right: str) -> None:
    assert not Reference({"pattern": pattern}).is_valid(wrong)
    assert not validator({"pattern": pattern})(wrong).success
    assert Reference({"pattern": pattern}).is_valid(right)
    assert validator({"pattern": pattern})(right).success


def test_the_reference_reads_multiple_of_as_decimals() -> None:
    assert Reference({"multipleOf": 0.1}).is_valid(0.3)
    assert not jsonschema.Draft202012Validator({"multipleOf": 0.1}).is_valid(0.3)
    assert Reference({"multipleOf": 0.1}).is_valid(1.7976931348623163e307)
    assert not Reference({"multipleOf": 0.1}).is_valid(0.35)
    assert validator({"multipleOf": 0.1})(0.3).success


@QUICK
@given(schema=schemas(formats=False), value=JSON)
def test_generated_schemas_agree_with_jsonschema(schema: Any, value: Any) -> None:
    _agrees(schema, value)


@pytest.mark.slow
@SLOW
@given(schema=schemas(), value=ANY_VALUE)
def test_generated_schemas_never_raise_slow(schema: Any, value: Any) -> None:
    test_generated_schemas_never_raise.hypothesis.inner_test(schema, value)  # type: ignore[attr-defined]


@pytest.mark.slow
@SLOW
@given(schema=schemas(formats=False), value=JSON)
def test_generated_schemas_agree_with_jsonschema_slow(schema: Any, value: Any) -> None:
    _agrees(schema, value)
