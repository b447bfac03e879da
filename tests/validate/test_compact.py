"""Compiled validators share their string constants (``llmapp._codegen.compact``), and
their unions' branches share their sets: an application of many functions holds every
one of them."""

from __future__ import annotations

import sys
import zlib
from types import CodeType
from typing import Any

import pytest

from llmapp._codegen import compact
from llmapp._codegen.compact import compiled
from llmapp.validate import validator
from llmapp.validate._filenames import _Dictionary
from llmapp.validate._unions import UnionInfo


def _schema(limit: int) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": limit},
            "tags": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
            "when": {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "integer"}]},
            "address": {"$ref": "#/$defs/Address"},
        },
        "required": ["name", "tags"],
        "additionalProperties": False,
        "$defs": {
            "Address": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "zip": {"type": "string"}},
                "required": ["city"],
            }
        },
    }


def _walked(limit: int) -> Any:
    check = validator(_schema(limit))
    assert not check({"name": 1, "tags": 2, "when": [], "address": {"zip": 3}}).success
    return check


def test_validators_share_their_string_constants() -> None:
    first, second = _walked(1_000_003), _walked(1_000_004)

    def constants(check: Any) -> dict[str, str]:
        code = check._namespace["w_root"].__code__
        return {value: value for value in code.co_consts if type(value) is str}

    mine, theirs = constants(first), constants(second)
    assert "$input.name" in mine
    assert all(mine[text] is theirs[text] for text in mine.keys() & theirs.keys())


def test_union_branches_share_their_sets() -> None:
    def unions(check: Any) -> list[UnionInfo]:
        return [value for value in check._namespace.values() if isinstance(value, UnionInfo)]

    first, second = unions(_walked(1_000_005)), unions(_walked(1_000_006))
    assert first and len(first) == len(second)
    for mine, theirs in zip(first, second):
        for a, b in zip(mine.branches, theirs.branches):
            assert a.types is b.types and a.properties is b.properties
            assert a.required is b.required


def test_a_failing_line_is_still_named_in_a_traceback() -> None:
    source = "\n" * 40 + "def f(v):\n    x = 1\n\n\n    return v['missing'] + x\n"
    namespace: dict[str, Any] = {}
    exec(compiled(source, "<compact-sample>"), namespace)
    with pytest.raises(KeyError) as raised:
        namespace["f"]({})
    assert raised.traceback[-1].lineno + 1 == 45  # pytest counts from 0


def test_a_source_is_kept_compressed_against_a_recent_one() -> None:
    checks = [_walked(1_000_100 + index) for index in range(_Dictionary.USES * 2 + 3)]
    for check in checks:  # every one reads back whole, whichever dictionary it used
        text = check._lines.text()
        assert text == "".join(check._lines)
        assert check.source.startswith(text)
        assert len(check._lines) == len(text.splitlines())
    last = checks[-1]._lines
    alone = zlib.compress(last._body().encode(), 1)
    assert len(last._packed) * 3 < len(alone)


def test_validators_share_the_descriptions_of_the_unions_they_repeat() -> None:
    def unions(check: Any) -> dict[str, UnionInfo]:
        found = check._namespace.items()
        return {name: value for name, value in found if isinstance(value, UnionInfo)}

    first, second = unions(_walked(1_000_007)), unions(_walked(1_000_008))
    assert len(first) == 2 and first.keys() == second.keys()
    assert all(first[name] is second[name] for name in first)
    other = _schema(1_000_009)
    other["properties"]["tags"]["anyOf"][1] = {"type": "boolean"}
    check = validator(other)
    assert not check({"name": 1, "tags": 2}).success
    (tags,) = [info for info in unions(check).values() if "boolean" in info.expected]
    assert tags.expected == "(Array<string> | boolean)"
    assert not any(tags is info for info in first.values())


def test_validators_share_their_sets_of_keys_and_enum_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the table forgets everything once full: tests before this one in the worker may
    # have filled it to within a set of the limit, so it starts empty here
    monkeypatch.setattr(compact, "_NAMES", {})

    def sets(check: Any) -> list[frozenset[str]]:
        return sorted(
            (value for value in check._namespace.values() if type(value) is frozenset),
            key=sorted,
        )

    def schema(limit: int, values: list[str]) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {
                "mode": {"enum": values},
                "name": {"type": "string", "maxLength": limit},
            },
            "additionalProperties": False,
        }

    small = [f"mode{index}" for index in range(3)]
    first, second = validator(schema(1_000_300, small)), validator(schema(1_000_301, small))
    for check in (first, second):
        assert not check({"mode": "other", "extra": 1}).success  # the walkers too
    mine, theirs = sets(first), sets(second)
    assert frozenset(small) in mine and len(mine) == len(theirs)
    assert all(a is b for a, b in zip(mine, theirs))
    large = [f"mode{index}" for index in range(100)]  # not remembered: bounded
    one, two = validator(schema(1_000_302, large)), validator(schema(1_000_303, large))
    enum = frozenset(large)
    assert not any(a is b for a in sets(one) if a == enum for b in sets(two) if b == enum)


def _shaped(name: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"address": {"$ref": f"#/$defs/{name}"}, "count": {"type": "integer"}},
        "required": ["address"],
        "additionalProperties": False,
        "$defs": {
            name: {
                "type": "object",
                "properties": {"city": {"type": "string"}, "zip": {"type": "string"}},
                "required": ["city"],
                "additionalProperties": False,
            }
        },
    }


def test_validators_of_one_shape_share_the_tables_of_their_code() -> None:
    # The first of a shape compiles its source; the template is kept from the second on.
    checks = [validator(_shaped(f"Parcel{index}")) for index in (1, 2, 3)]
    for check in checks:
        assert check({"address": {"city": 1}}).errors[0].path == "$input.address.city"
    first, second = checks[1:]
    assert second({"address": 3}).errors[0].expected == "Parcel3"
    one, other = first._namespace["c_Parcel2"], second._namespace["c_Parcel3"]
    assert one.__code__.co_linetable is other.__code__.co_linetable
    assert one.__code__.co_filename == first.filename
    assert other.__code__.co_filename == second.filename
    assert (one.__name__, other.__qualname__) == ("c_Parcel2", "c_Parcel3")
    walk = second._namespace["w_Parcel3"].__code__
    assert walk is not first._namespace["w_Parcel2"].__code__
    assert walk.co_linetable is first._namespace["w_Parcel2"].__code__.co_linetable
    assert checks[0]._namespace["c_Parcel1"].__code__.co_linetable is not one.__code__.co_linetable


def _same_code(made: CodeType, expected: CodeType) -> None:
    assert made == expected
    for attribute in ("co_filename", "co_name", "co_qualname", "co_names", "co_varnames"):
        assert getattr(made, attribute, None) == getattr(expected, attribute, None), attribute
    if sys.version_info >= (3, 11):  # the columns a traceback points at
        assert list(made.co_positions()) == list(expected.co_positions())
    assert len(made.co_consts) == len(expected.co_consts)
    for value, wanted in zip(made.co_consts, expected.co_consts):
        if isinstance(wanted, CodeType):
            _same_code(value, wanted)
        else:
            assert type(value) is type(wanted) and value == wanted


# Definition names that are keywords, builtins, numbers' parts, parts of one another,
# parts of the generated names, or the stand-ins' own text.
_AWKWARD = [
    ("Address1", "Address10"),
    ("not", "None"),
    ("True", "return"),
    ("isinstance", "int"),
    ("e10", "x0e1"),
    ("c_root", "root_"),
    ("Z0_", "Z1__"),
    ("_dict", "v_zip"),
    ("Adresse_ß", "Adresse"),
]


@pytest.mark.parametrize("names", _AWKWARD, ids="-".join)
def test_code_made_from_a_template_is_the_code_compiled_from_the_source(
    names: tuple[str, ...],
) -> None:
    schema = _shaped(names[0])
    schema["properties"]["other"] = {"$ref": f"#/$defs/{names[1]}"}
    schema["$defs"][names[1]] = {"enum": ["a", names[1]]}
    check = validator(schema)
    assert not check({"address": {"city": 1}, "other": 2}).success  # the walkers too
    source, stems = check.source, check._stems.values()
    for _ in range(3):  # the source compiled, the template compiled, then kept
        _same_code(compiled(source, "<f>", stems), compiled(source, "<f>"))


def _many_keys(name: str) -> dict[str, Any]:
    keys = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta"]
    schema = _shaped(name)
    schema["properties"].update({key: {"type": "integer"} for key in keys})
    schema["required"] = ["address", *keys]
    return schema


def test_validators_hold_their_own_globals_only() -> None:
    # The helpers are the code's builtins, one dict for all; the names are interned.
    first, second = validator(_many_keys("Crate1")), validator(_many_keys("Crate2"))
    for check in (first, second):
        assert "_is_integer" not in check._namespace and "_MISSING" not in check._namespace
        assert check({"address": {"city": "x"}}).errors[0].path == "$input.alpha"
        assert not check.is_valid({"address": {"city": "x"}, "alpha": 1})
    assert first._namespace["__builtins__"] is second._namespace["__builtins__"]
    assert first._namespace["KEYS"] is second._namespace["KEYS"]
    stem = "".join(["Cra", "te2"])  # a string of its own, not the literal's
    assert second._stems["/$defs/Crate2"] is sys.intern(stem)
