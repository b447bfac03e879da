"""A large document builds in time proportional to its size (issue 33, point 4).

Timings are not asserted: what would make a build super-linear is counted instead (the
validators compiled) or observed (the garbage collector's state during the build).
"""

from __future__ import annotations

import builtins
import gc
import threading
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

import llmapp.validate._validator as compiled_validators
from llmapp._collection import paused_collection
from llmapp.http import DocumentError, application
from llmapp.jsonschema import Node
from llmapp.validate._check import CheckWriter


def document(operations: int, components: int) -> dict[str, Any]:
    """``operations`` operations whose bodies go round ``components`` definitions, each
    reaching the next one of its pair."""
    schemas = {
        f"Item{i}": {
            "type": "object",
            "properties": {
                "id": {"type": "integer", "minimum": i},
                **(
                    {"next": {"$ref": f"#/components/schemas/Item{i + 1}"}}
                    if i % 2 == 0 and i + 1 < components
                    else {}
                ),
            },
        }
        for i in range(components)
    }
    paths = {
        f"/things{i}": {
            "post": {
                "requestBody": {
                    "content": {
                        "application/json": {
                            "schema": {"$ref": f"#/components/schemas/Item{i % components}"}
                        }
                    }
                },
                "responses": {"200": {"description": "ok"}},
            }
        }
        for i in range(operations)
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "scale", "version": "1"},
        "paths": paths,
        "components": {"schemas": schemas},
    }


def test_a_build_compiles_nothing_and_writes_each_shared_definition_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # More definitions than the validator cache holds, visited four times over. Before,
    # a build compiled every operation's validator; earlier still, each visit after the
    # cache had dropped the validators holding a shared definition compiled it again.
    monkeypatch.setattr(compiled_validators, "_CACHE_SIZE", 8)
    compiled_validators._cache.clear()
    application(document(operations=2, components=2))  # the modules a build imports
    compiles = 0
    real = builtins.compile

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal compiles
        compiles += 1
        return real(*args, **kwargs)

    written: Counter[str] = Counter()
    real_write = CheckWriter.function

    def writing(self: CheckWriter, node: Node, name: str) -> None:
        written[node.pointer] += 1
        real_write(self, node, name)

    monkeypatch.setattr(builtins, "compile", counting)
    monkeypatch.setattr(CheckWriter, "function", writing)
    app = application(document(operations=96, components=24))
    assert len(app.functions) == 96 and not app.errors
    assert compiles == 0  # every schema checked, each validator compiled at its first call
    definitions = {p: n for p, n in written.items() if p.startswith("/$defs/")}
    assert len(definitions) == 24 and set(definitions.values()) == {1}
    assert all(f.validate({"body": {"id": 99}}).success for f in app.functions[:3])
    assert compiles > 0


def test_the_collector_is_paused_during_a_build_and_restored() -> None:
    seen: list[bool] = []

    def separate(schema: Mapping[str, Any]) -> bool:
        seen.append(gc.isenabled())
        return False

    assert gc.isenabled()
    application(document(operations=2, components=2), separate=separate)
    assert seen and not any(seen)
    assert gc.isenabled()
    with pytest.raises(DocumentError):
        application("not a document: [")
    assert gc.isenabled()


def test_a_collector_disabled_by_the_caller_stays_disabled() -> None:
    gc.disable()
    try:
        application(document(operations=2, components=2))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_nested_and_concurrent_pauses_restore_once() -> None:
    started, release = threading.Event(), threading.Event()

    def other() -> None:
        with paused_collection():
            started.set()
            release.wait(5)

    with paused_collection():
        thread = threading.Thread(target=other)
        thread.start()
        started.wait(5)
        with paused_collection():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert not gc.isenabled()  # the other build is still running
    release.set()
    thread.join(5)
    assert gc.isenabled()


def test_many_operations_of_one_name_are_numbered_in_order() -> None:
    # Each name resumes from the last suffix its base was given (no walk over the names
    # before it); the names are the ones ``fresh_name`` gives one by one.
    ids = ["op", "op_3", *["op"] * 5, "op_2", "op"]
    raw = document(operations=len(ids), components=1)
    for (_, item), operation_id in zip(raw["paths"].items(), ids, strict=True):
        item["post"]["operationId"] = operation_id
    names = [f.name for f in application(raw, naming="operationId").functions]
    assert names == ["op", "op_3", "op_2", "op_4", "op_5", "op_6", "op_7", "op_2_2", "op_8"]


def test_many_aliases_in_one_namespace_stay_apart() -> None:
    # GET /things/{a0}, /things/{a1}, ...: one namespace, an alias for each, and a
    # child segment ``getByA0`` that takes the first alias.
    paths: dict[str, Any] = {
        f"/things/{{a{i}}}": {"get": {"responses": {"200": {"description": "ok"}}}}
        for i in range(40)
    }
    paths["/things/getByA0"] = {"get": {"responses": {"200": {"description": "ok"}}}}
    paths["/things/{b}"] = {"get": {"responses": {"200": {"description": "ok"}}}}
    raw = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths}
    names = [f.name for f in application(raw).functions]
    assert names[:2] == ["things__getByA0", "things_getByA1"]
    assert names[-2:] == ["things_getByA0_get", "things_getByB"]
    assert len(set(names)) == len(names)
