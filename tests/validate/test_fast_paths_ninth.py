"""Issue 33's ninth round: verdicts and issues that stay what they were at cac26b5.

A ``decimal`` string with numeric keywords (``decimal_text``) is read by ``Decimal`` first,
its ends, ``isascii`` and the absence of ``_`` standing for the pattern's match; its bounds
are tested by ``operator``'s functions and the exact context's ``remainder``. It is compared
with cac26b5's (read from git) on adversarial and generated texts, also under a decimal
context that traps nothing. An ``anyOf`` of branches that test only a type is written as
one type test, exact types first; its validators are compared with ones written as
cac26b5 wrote them (the old type template is kept here as the reference) on generated values.
"""

from __future__ import annotations

import decimal
import itertools
import types
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support import before
from tests.support.budget import scaled

from llmapp._codegen.compact import shared_names
from llmapp.jsonschema import JSON_TYPES
from llmapp.validate import Validator, _conditions
from llmapp.validate._expressions import Expressions
from llmapp.validate._runtime import decimal_text
from llmapp.validate._walk import WalkWriter
from llmapp.validate._writer import PathCode

ROUND_NINE = "cac26b5"
"""The commit before a decimal text was read by ``Decimal`` ahead of its pattern."""


@pytest.fixture(scope="module")
def round_nine_runtime() -> types.ModuleType:
    return before.load(ROUND_NINE, "llmapp/validate/_runtime.py")


_BOUNDS: list[tuple[tuple[str, bool, int | float], ...]] = [
    (("minimum", True, 0), ("maximum", True, 100000), ("multipleOf", False, 0.5)),
    (("minimum", True, 0), ("maximum", True, 100000)),
    (("multipleOf", False, 0.01),),
    (("multipleOf", True, 3), ("exclusiveMinimum", False, -1.5)),
    (("exclusiveMaximum", True, 10), ("minimum", False, 0.25)),
    (("maximum", True, 10**30), ("multipleOf", False, 1e-5)),
]

_CHARACTERS = "05.eE+-_ \t\n\x0b\x1c\x1f\x00\x01nNaiIfsx٣\u00a0\u2003"
"""Digits, the numeral's marks, ASCII and Unicode whitespace, control characters, the
letters of NaN, sNaN, Inf and Infinity, and a non-ASCII digit."""

ADVERSARIAL_TEXTS = [
    *("".join(chars) for size in range(4) for chars in itertools.product(_CHARACTERS, repeat=size)),
    "27667.5", "27667.0", "27667.3", "-0", "-0.0", "+.5", "5.", "0e0", "1E+5", "1e-5",
    "1_000", "1 000", " 1", "1 ", "\t1.5\n", "\x1c1\x1f", "1\u00a0", "\u20031",
    "NaN", "-nan", "sNaN12", "Inf", "-Infinity", "infinity", "nan.5",
    "１２", "1２", "٣.٥", "1e999999999999999999999", "1e-999999999999999999",
    "9" * 60, "0." + "0" * 40 + "1", "1e1000000", "100000.0000000001", "99999.5",
    "1\ud800", "\ud800", "1e", "e5", ".", "..5", "1..5", "1.5.", "--1", "+-1", "0x10",
]  # fmt: skip


class _Text(str):
    """A ``str`` subclass whose methods say the opposite: judged by its characters."""

    def isascii(self) -> bool:
        return not super().isascii()

    def __contains__(self, key: object) -> bool:
        return True

    def __getitem__(self, key: Any) -> Any:
        return "x"


def _checks(
    runtime: types.ModuleType, bounds: tuple[tuple[str, bool, int | float], ...]
) -> tuple[Any, Any]:
    return decimal_text(bounds), runtime.decimal_text(bounds)


@pytest.mark.parametrize("bounds", _BOUNDS, ids=range(len(_BOUNDS)))
def test_decimal_text_agrees_with_cac26b5(
    round_nine_runtime: types.ModuleType, bounds: tuple[tuple[str, bool, int | float], ...]
) -> None:
    today, then = _checks(round_nine_runtime, bounds)
    for text in ADVERSARIAL_TEXTS:
        assert today(text) == then(text), text
        assert today(_Text(text)) == then(_Text(text)), text


@pytest.mark.parametrize("bounds", _BOUNDS[:3], ids=range(3))
def test_decimal_text_agrees_with_cac26b5_trapping_nothing(
    round_nine_runtime: types.ModuleType, bounds: tuple[tuple[str, bool, int | float], ...]
) -> None:
    """A caller's context that traps nothing: ``Decimal`` gives NaN for what it cannot read."""
    today, then = _checks(round_nine_runtime, bounds)
    with decimal.localcontext() as context:
        context.traps = dict.fromkeys(context.traps, False)
        for text in ADVERSARIAL_TEXTS:
            assert today(text) == then(text), text


_NUMERALS = st.from_regex(r"[+-]?(?:[0-9]{1,8}(?:\.[0-9]{0,4})?|\.[0-9]{1,4})(?:[eE][+-]?[0-9]{1,3})?", fullmatch=True)  # fmt: skip


@pytest.mark.parametrize("bounds", _BOUNDS, ids=range(len(_BOUNDS)))
@settings(max_examples=scaled(200, 2000), deadline=None)
@given(
    text=st.one_of(
        _NUMERALS,
        st.tuples(_NUMERALS, st.sampled_from(_CHARACTERS), st.integers(0, 12)).map(
            lambda parts: parts[0][: parts[2]] + parts[1] + parts[0][parts[2] :]
        ),
        st.text(alphabet=_CHARACTERS, max_size=8),
        st.text(max_size=6),
    )
)
def test_decimal_text_agrees_with_cac26b5_on_generated_texts(
    round_nine_runtime: types.ModuleType,
    bounds: tuple[tuple[str, bool, int | float], ...],
    text: str,
) -> None:
    today, then = _checks(round_nine_runtime, bounds)
    assert today(text) == then(text)


def _cac26b5_type_template(types_: frozenset[str], strict_keys: bool) -> str:
    """``_conditions._type_template`` at cac26b5: the tests in ``JSON_TYPES``'s order."""
    names = set(types_)
    if "number" in names:
        names.discard("integer")
    tests = []
    for name in JSON_TYPES:
        if name in names:
            strict = name == "object" and strict_keys
            tests.append(_conditions._STRICT_OBJECT if strict else _conditions._TYPE_TESTS[name])
    if not tests:
        return "False"
    return tests[0] if len(tests) == 1 else "(" + " or ".join(tests) + ")"


def _as_cac26b5(schema: Any) -> Validator:
    """``Validator(schema)`` written as cac26b5 wrote it: no branches joined, the old order."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Expressions, "bare_types", lambda self, branches, v: branches)
        patch.setattr(_conditions, "_type_template", _cac26b5_type_template)
        patch.setattr(_conditions, "_type_templates", {})
        return Validator(schema)


_BARE = [{"type": name} for name in JSON_TYPES]
_DEFS = {
    "$defs": {
        "n": {"type": "integer"},
        "t": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"$ref": "#"}}]},
    }
}
_UNIONS: list[Any] = [
    {"anyOf": [{"type": "integer"}, {"type": "string"}]},
    {"type": "array", "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]}},
    {"anyOf": [{"type": "integer"}, {"type": "boolean"}]},
    {"anyOf": [{"type": "number"}, {"type": "integer"}, {"type": "null"}]},
    {"anyOf": [{"type": "string"}, {"type": "integer", "minimum": 3}, {"type": "boolean"}]},
    {"anyOf": [{"type": ["integer", "null"]}, {"type": "object"}, {"type": "array"}]},
    {"anyOf": [{"type": "integer", "title": "n"}, {"type": "string", "description": "s"}]},
    {"anyOf": [{"type": "integer"}, {"type": "string", "nullable": True}]},
    {"anyOf": [{"type": "integer"}, {"$ref": "#/$defs/n"}, {"type": "string"}], **_DEFS},
    {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "string", "format":
     "date-time-local"}, {"type": "integer"}, {"type": "boolean"}]},
    {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/t"}, {"type": "integer"}], **_DEFS},
    {"oneOf": [{"type": "integer"}, {"type": "number"}, {"type": "string"}]},
    {"type": ["integer", "string", "null"]},
    {"type": ["number", "boolean"]},
    {"type": "object", "additionalProperties": {"anyOf": [{"type": "integer"}, {"type":
     "string"}, {"type": "null"}]}, "properties": {"a": {"anyOf": _BARE[:4]}}},
    {"anyOf": _BARE},
    {"anyOf": [{"type": "object"}, {"type": "array", "items": {"type": "integer"}}, {"type":
     "number"}, {"type": "string"}]},
]  # fmt: skip


class _Str(str):
    pass


class _Int(int):
    pass


_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([1.0, 2.5, -0.0, float("nan"), float("inf"), 10**20, 1e20])
    | st.sampled_from(["", "a", "2024-05-01T12:30:00Z", "2024-05-01T12:30:00", "x" * 3])
    | st.sampled_from([_Str("s"), _Int(2), (1, "a"), {1: "a"}])
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=3)
    ),
    max_leaves=8,
)


def _verdict(validator: Validator, value: Any) -> tuple[bool, list[tuple[str, str, str, Any]]]:
    result = validator(value)
    if result.success:
        return True, []
    return False, [(i.path, i.expected, repr(i.value), i.description) for i in result.errors]


@pytest.mark.parametrize("schema", _UNIONS, ids=range(len(_UNIONS)))
@settings(max_examples=scaled(80, 500), deadline=None)
@given(value=_VALUES)
def test_bare_type_unions_keep_verdicts_and_issues(schema: Any, value: Any) -> None:
    """Today's validator and the one written as cac26b5 wrote it give the same verdict and
    issues; where the ``jsonschema`` library reads the schema alike (no ``nullable``, no
    format asserted, JSON values only), its verdict too."""
    today = Validator(schema)
    assert _verdict(today, value) == _verdict(_as_cac26b5(schema), value)
    if "nullable" not in str(schema) and "format" not in str(schema) and _plain(value):
        assert today(value).success == jsonschema.Draft202012Validator(schema).is_valid(value)


def _plain(value: Any) -> bool:
    """A value JSON writes as it is (no tuple, subclass, non-finite float or int key)."""
    if isinstance(value, list):
        return all(map(_plain, value))
    if isinstance(value, dict):
        return all(type(key) is str for key in value) and all(map(_plain, value.values()))
    if isinstance(value, float):
        return value - value == 0
    return type(value) in (type(None), bool, int, str, float)


def test_bare_types_are_joined_where_no_branch_may_raise() -> None:
    source = Validator(_UNIONS[1]).source.split("# w_")[0]
    assert (
        "type(item) is str or type(item) is int or isinstance(item, str) or _is_integer(item)"
        in source
    )
    kept = Validator(_UNIONS[10]).source.split("# w_")[0]
    assert "(isinstance(v, str) or c_t(v, d + 1) or (type(v) is int or _is_integer(v)))" in kept
    nullable = Validator(_UNIONS[3]).source.split("# w_")[0]
    assert "v is None or" in nullable  # ``null`` stays apart, asked first


def _cac26b5_key_loop(
    self: WalkWriter,
    node: Any,
    v: str,
    path: PathCode,
    props: dict[str, Any],
    refused: bool = False,
) -> None:
    """``WalkWriter._key_loop`` at cac26b5: ``key in PROPERTIES`` asked of every key, the
    set empty or not (``refused``, today's, not read: cac26b5 judged no item at once)."""
    schema = node.schema
    key, item = self.functions.local("key"), self.functions.local("item")
    where = path.dynamic(f"_step({key})")
    known = self.out.constant(shared_names(frozenset(props)), "PROPERTIES")
    with self.out.block(f"for {key}, {item} in {v}.items():"):
        with self.out.block(f"if not isinstance({key}, str):"):
            self.issue(where, "undefined", item, "object keys must be strings")
            self.out.line("continue")
        if "propertyNames" in schema:
            names = self.analysis.child(node, "propertyNames")
            with self.out.block(f"if not {self.expressions.safe(names, key)}:"):
                reason = "this key is not an allowed property name"
                self.issue(where, self.analysis.expected(names), key, reason)
        self.key_schemas(node, key, known, item, where)


_RECORDS: list[Any] = [
    {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}},
    {"type": "object", "additionalProperties": False},
    {"type": "object", "patternProperties": {"^a": {"type": "string"}},
     "additionalProperties": {"type": "integer"}},
    {"type": "object", "patternProperties": {"^a": {"type": "string"}}},
    {"type": "object", "propertyNames": {"maxLength": 1}, "additionalProperties": {"type":
     "array", "items": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}},
    {"type": "object", "properties": {"a": {"type": "null"}}, "additionalProperties":
     {"type": "string"}},
    {"type": "array", "items": {"type": "object", "additionalProperties": {"type": "boolean"}}},
]  # fmt: skip


@pytest.mark.parametrize("schema", _RECORDS, ids=range(len(_RECORDS)))
@settings(max_examples=scaled(80, 500), deadline=None)
@given(value=_VALUES | st.dictionaries(st.sampled_from(["a", "ab", "b", 1, None]), _VALUES, max_size=4))  # fmt: skip
def test_walkers_without_properties_keep_issues(schema: Any, value: Any) -> None:
    """A walker's key loop over an object with no property asks nothing of a string key
    but the patterns and ``additionalProperties``: the issues of cac26b5's walker."""
    today = Validator(schema)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(WalkWriter, "_key_loop", _cac26b5_key_loop)
        then = Validator(schema)
    assert _verdict(today, value) == _verdict(then, value)
    assert ("PROPERTIES" in today.source.split("# w_")[1]) == ("properties" in schema)
