"""Memory stays bounded: generated source leaves ``linecache`` with its validator, and the
schemas of one document share the compiled functions of the definitions they hold alike.
"""

from __future__ import annotations

import gc
import inspect
import json
import linecache
import sys
from collections import OrderedDict
from typing import Any

import pytest

from llmapp import validator
from llmapp.validate import SchemaError, _filenames
from llmapp.validate._filenames import handing_on
from llmapp.validate._validator import _CACHE_SIZE, Validator, _cache


def _sources() -> int:
    return sum(1 for name in linecache.cache if name.startswith("<llmapp-validator-"))


def test_the_source_leaves_linecache_with_its_validator() -> None:
    check = Validator({"type": "integer", "minimum": 12345})
    name = check.filename
    assert name in linecache.cache
    del check
    gc.collect()
    assert name not in linecache.cache


def test_validators_dropped_from_the_cache_drop_their_source() -> None:
    before = _sources()  # of validators other tests still hold
    for index in range(_CACHE_SIZE + 300):
        validator({"type": "string", "maxLength": 10_000 + index})(1)  # walkers too
    gc.collect()
    assert _sources() - before <= _CACHE_SIZE  # at most the cached ones are new


def test_the_cache_keeps_the_table_a_fresh_one_takes() -> None:
    for index in range(2 * _CACHE_SIZE):  # every key of the full cache turned over
        validator({"type": "string", "maxLength": 40_000 + index})
    assert len(_cache) == _CACHE_SIZE
    assert sys.getsizeof(_cache) <= sys.getsizeof(OrderedDict(_cache))


def test_the_cache_gives_the_name_of_the_validator_it_drops_to_the_next() -> None:
    gc.collect()
    for index in range(_CACHE_SIZE):
        validator({"type": "string", "maxLength": 50_000 + index})
    oldest = next(iter(_cache.values()))
    name, names = oldest.filename, set(linecache.cache)
    del oldest
    new = validator({"type": "string", "maxLength": 60_000})
    assert new.filename is name and linecache.cache[name][2] is new._lines
    assert set(linecache.cache) == names  # an entry replaced: none removed, none added


def _fresh_serial() -> list[Validator]:
    """Validators holding every free serial: the next one built takes a new serial."""
    gc.collect()
    return [Validator(True) for _ in range(len(_filenames._free_serials))]


def test_a_validator_collected_while_one_is_built_hands_its_name_on() -> None:
    held = _fresh_serial()
    with handing_on():
        old = Validator({"type": "integer", "maximum": 77_777})
        name, entry = old.filename, linecache.cache[old.filename]
        del old
        gc.collect()
        assert linecache.cache[name] is entry  # kept until the new one is registered
        new = Validator({"type": "integer", "maximum": 77_778})
        assert new.filename is name and linecache.cache[name][2] is new._lines
    assert linecache.cache[name][2] is new._lines  # the new entry stays
    assert "77778" in "".join(linecache.getlines(name))
    assert all(other.filename != name for other in held)


def test_a_name_not_taken_again_leaves_linecache_after_the_build() -> None:
    held = _fresh_serial()
    with handing_on():
        old = Validator({"type": "integer", "maximum": 77_779, "title": "Old"})
        name = old.filename
        del old
        gc.collect()
        new = Validator({"type": "integer", "title": "New"})  # its serial, another name
        assert name in linecache.cache and new.filename != name
    assert name not in linecache.cache and new.filename in linecache.cache
    assert all(other.filename != name for other in held)


DEFS: dict[str, Any] = {
    "Address": {
        "type": "object",
        "properties": {
            "street": {"type": "string", "minLength": 1},
            "zip": {"type": "string", "pattern": "^[0-9]{5}$"},
        },
        "required": ["street", "zip"],
        "additionalProperties": False,
    },
    "Customer": {
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "home": {"$ref": "#/$defs/Address"},
            "work": {"$ref": "#/$defs/Address"},
        },
        "required": ["name", "home"],
    },
}


def _operation(index: int, defs: dict[str, Any] = DEFS) -> dict[str, Any]:
    """The parameters of one operation of a document: its own fields, shared ``$defs``."""
    return {
        "type": "object",
        "properties": {
            "customer": {"$ref": "#/$defs/Customer"},
            "limit": {"type": "integer", "maximum": index},
        },
        "required": ["customer"],
        "$defs": defs,
    }


BAD = {"customer": {"name": 5, "home": {"street": "", "zip": "1234"}, "work": 7}}


def _issues(check: Any, value: Any) -> list[tuple[str, str, Any, str | None]]:
    return [(i.path, i.expected, i.value, i.description) for i in check(value).errors]


def test_operations_share_the_functions_of_their_definitions() -> None:
    first, second, third = (Validator(_operation(index)) for index in (1, 2, 3))
    assert _issues(first, BAD) == _issues(second, BAD) == _issues(third, BAD)
    assert len(_issues(first, BAD)) == 4
    for name in ("c_Customer", "w_Customer"):
        assert second._namespace[name] is third._namespace[name]
        assert first._namespace[name] is not second._namespace[name]  # written out once
    own = "".join(linecache.getlines(third.filename))
    assert "def c_Customer(" not in own and "c_Customer in <llmapp-validator-" in own
    assert "def c_Customer(" in third.source  # the source shows what it calls
    assert third({"customer": {"name": "Ada", "home": {"street": "x", "zip": "12345"}}}).success


def test_recursive_definitions_are_written_per_validator() -> None:
    defs = {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}}
    schemas = [
        {"type": "object", "properties": {"customer": {"$ref": "#/$defs/Node"}, "n": {"const": i}}}
        | {"$defs": defs}
        for i in range(3)
    ]
    found = [Validator(schema) for schema in schemas]
    assert found[1]._namespace["c_Node"] is not found[2]._namespace["c_Node"]
    deep: dict[str, Any] = {}
    for _ in range(20):
        deep = {"next": deep}
    assert found[2]({"customer": deep}).success


def test_a_shared_definition_reports_its_problems_where_it_is() -> None:
    defs = {**DEFS, "Address": {**DEFS["Address"], "pattern": "(["}}
    problems = []
    for index in range(3):
        with pytest.raises(SchemaError) as raised:
            Validator(_operation(index, defs))
        problems.append([(p.location, p.reason) for p in raised.value.problems])
    assert problems[0] == problems[1] == problems[2]
    assert problems[0][0][0] == "#/$defs/Address/pattern"


def test_linecache_holds_the_validators_own_lines_and_one_shared_header() -> None:
    first, second = (Validator({"type": "integer", "maximum": index}) for index in (1, 2))
    first(None)  # its walkers are added to the same lines
    lines = linecache.cache[first.filename][2]
    assert lines is first._lines and "".join(lines) == first.source
    assert "def w_root(" in "".join(lines)
    other = linecache.cache[second.filename][2]
    assert lines[0] is other[0] and lines[0].startswith("# Helpers")


def test_a_reused_serial_keeps_the_same_file_name() -> None:
    name = Validator({"type": "integer", "maximum": 54321}).filename
    gc.collect()
    again = Validator({"type": "integer", "maximum": 54322})
    if again.filename == name:  # the serial was free (other tests may hold higher ones)
        assert again.filename is name


def test_linecache_holds_the_source_compressed_and_reads_it_out_whole() -> None:
    check = Validator({"type": "object", "properties": {"n": {"type": "integer", "maximum": 7}}})
    check({"n": 8})  # the walkers too
    lines = linecache.cache[check.filename][2]
    source = check.source
    assert not isinstance(lines, list) and len(lines._packed) < len(source) // 3  # type: ignore[attr-defined]
    assert "".join(lines) == source and list(lines) == source.splitlines(True)
    assert len(lines) == len(source.splitlines()) and lines[-1] == source.splitlines(True)[-1]
    assert inspect.getsource(check._check) in source  # a debugger reads slices of it
    assert linecache.getline(check.filename, 1) == source.splitlines(True)[0]


def test_the_cache_keeps_a_digest_of_the_schema_not_its_text() -> None:
    defs = {f"D{index}": {"type": "string", "maxLength": index + 1} for index in range(200)}
    schema = {"$defs": defs, "type": "object", "properties": {"n": {"type": "integer"}}}
    check = validator(schema)
    key = next(key for key, found in _cache.items() if found is check)
    assert len(key) < 100  # the schema's JSON is thousands of characters
    assert validator(json.loads(json.dumps(schema))) is check  # an equal schema: the same one
    assert validator({**schema, "properties": {}}) is not check
