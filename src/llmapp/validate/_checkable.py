"""``check_schema(schema)``: raise what ``validator(schema)`` would raise, compiling nothing.

A door that turns a document into functions (an OpenAPI document's operations, an MCP
server's tools) reports a schema no validator can be compiled from as a build error, not
as a failure of the function's first call. Compiling every function's validator to learn
that cost most of such a build, and the validators were then dropped: each is compiled
again, from the cache or afresh, when its function is first called. The problems are all
found while the checkers' source is written (``Generator.checker``: the walkers read the
same subschemas, and ``compile`` of what the generator writes does not fail), so this
writes that source, as ``validator()`` does, and throws it away: no walker written,
nothing compiled, nothing kept.

Definitions shared by several schemas (``_shared``) are written once per ``Proofs``: a
closure written without a problem in one schema is bound, not written, in the next that
holds it, as a compiled validator binds a shared definition's functions. A build passes
one ``Proofs`` to every check it makes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from llmapp.jsonschema import Node

from ._codegen import Generator
from ._schema_depth import depth_problem, too_deep_here
from ._schema_error import SchemaError
from ._shared import Closures
from ._validator import cache_key

__all__ = ["Proofs", "check_schema"]


class Proofs:
    """The keys of the shared-definition closures one build has written without a problem."""

    __slots__ = ("keys",)

    def __init__(self) -> None:
        self.keys: set[str] = set()


def check_schema(
    schema: Mapping[str, Any] | bool, *, max_depth: int = 512, proofs: Proofs | None = None
) -> None:
    """Raise the ``SchemaError`` that ``validator(schema, max_depth=max_depth)`` would.

    Args:
        schema: the schema, as ``validator`` takes it.
        max_depth: as ``validator``'s (part of a shared closure's key).
        proofs: the closures already written without a problem in this build (added to).

    Raises:
        SchemaError: every problem, with its JSON pointer.
    """
    try:
        problem = depth_problem(schema, cache_key(schema, max_depth))
        if problem is None:
            _write_checkers(schema, max_depth, Proofs() if proofs is None else proofs)
            return
    except RecursionError:
        problem = too_deep_here()
    raise SchemaError([problem])


def _write_checkers(schema: Mapping[str, Any] | bool, max_depth: int, proofs: Proofs) -> None:
    generator = Generator(schema, max_depth)
    closures = Closures(generator.analysis)
    written: list[str] = []
    proven = proofs.keys

    def share(node: Node, mode: str) -> Any:
        found = closures.key(node.pointer)
        if found is None:
            return None
        key = f"{max_depth}:{found}"
        if key in proven:
            return _written_elsewhere
        written.append(key)
        return None

    generator.functions.share = share
    generator.checker()
    proven.update(written)  # every definition they reach was written here too


def _written_elsewhere(*_: object) -> bool:
    """What a proven closure's functions are bound to: the source is never compiled."""
    raise AssertionError("a checked schema's source is never run")
