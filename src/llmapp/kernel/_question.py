"""The one approval question: what a user approves is what will run.

Every door that asks a human (the MCP server's elicitation, FastMCP, LlamaIndex's and
LangGraph's human in the loop) shows ``Approval.question``, built here from the function's
schema and the call's checked arguments:

- every argument the method will receive from the model, one per line as ``name: value``
  (JSON, on one line), in the order of the function's schema, never in the order the model
  wrote them; a parameter the model left out that has a default is shown with it,
  ``(default)`` after it; the human side's parameters are named, their values never shown
  (they are the application's, and the question leaves the server);
- the decisive arguments first, whole: the ones declared with
  ``@controls(decisive=("to", "amount"))``, or by default every argument whose schema is a
  scalar (a string, number, integer, boolean, null, or enum of them);
- the others after them, within a budget of characters: a value past it is cut with
  ``… [cut: N of M characters not shown]``, and one with no budget left is listed as
  ``name: … [not shown: M characters]``, so the user always sees that there is more.

Characters that could disguise a value (bidirectional overrides, zero-width characters,
line and paragraph separators, controls) are written as their escapes, as JSON writes
a newline: one argument stays one line, and reads as it will be received.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from llmapp._limits import MAX_DECISIVE_DEPTH
from llmapp.jsonschema import Resolver

__all__ = ["Approval", "approval_question"]

BUDGET: Final = 2_000
"""Characters of the non-decisive arguments shown before the rest is cut."""

_SCALARS: Final = frozenset({"string", "number", "integer", "boolean", "null"})
_HIDDEN_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_NOT_PLAIN: Final = re.compile(r"[^\x20-\x7e]")


@dataclass(frozen=True)
class Approval:
    """A call that waits for a human's approval; the method has not run.

    Attributes:
        name: the function the model called.
        arguments: the model's own arguments (never a human-side value), in the order of
            the function's schema.
        description: the function's description.
        question: what to ask the human: every argument that will run, the decisive ones
            first and whole (``llmapp.kernel._question``). Every door that asks shows this.
    """

    name: str
    arguments: Any
    description: str | None = None
    question: str = ""

    def message(self) -> str:
        """The text for the model until the human decides."""
        return f"The call of {self.name} needs a human's approval and has not run."


def approval_question(
    name: str,
    arguments: Any,
    schema: Mapping[str, Any],
    *,
    decisive: Iterable[str] = (),
    human: Iterable[str] = (),
) -> str:
    """The question a human answers before the call of ``name`` with ``arguments`` runs.

    Args:
        name: the function's name.
        arguments: the model's checked arguments (never a human-side value).
        schema: the parameters schema the model wrote them against (its order and types).
        decisive: the arguments to show first and whole; empty: every scalar one.
        human: the names of the human-side parameters (shown as names only).

    Example::

        approval_question("transfer", {"note": "rent", "to": "ann", "amount": 9}, schema)
        # 'Approve the call of transfer?\\nto: "ann"\\namount: 9\\nnote: "rent"' (declared)
    """
    lines = [f"Approve the call of {name}?"]
    if not isinstance(arguments, Mapping):
        lines.append(_cut("arguments", _shown(arguments), BUDGET)[0])
        return "\n".join(lines)
    properties: Mapping[str, Any] = schema.get("properties") or {}
    entries = _ordered(arguments, properties)
    declared = frozenset(decisive)
    refs = _References(schema)
    first = [
        entry
        for entry in entries
        if (entry[0] in declared if declared else _scalar(properties.get(entry[0]), refs))
    ]
    firsts = {entry[0] for entry in first}
    lines += [f"{key}: {text}" for key, text in first]
    budget = BUDGET
    for key, text in entries:
        if key not in firsts:
            line, budget = _cut(key, text, budget)
            lines.append(line)
    named = [key for key in human if key not in arguments]
    if named:
        lines.append(f"Also supplied by the application (not shown): {', '.join(named)}.")
    return "\n".join(lines)


def _ordered(arguments: Mapping[str, Any], properties: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(name, shown value)`` in the schema's order, then any key it lacks, sorted."""
    entries: list[tuple[str, str]] = []
    for key, schema in properties.items():
        if key in arguments:
            entries.append((key, _shown(arguments[key])))
        elif isinstance(schema, Mapping) and "default" in schema:
            entries.append((key, f"{_shown(schema['default'])} (default)"))
    extra = sorted(str(key) for key in arguments if key not in properties)
    return entries + [(_plain(key), _shown(arguments[key])) for key in extra]


def _cut(key: str, text: str, budget: int) -> tuple[str, int]:
    """One argument's line within ``budget`` characters, and the budget left."""
    if len(text) <= budget:
        return f"{key}: {text}", budget - len(text)
    if budget <= 0:
        return f"{key}: … [not shown: {len(text):,} characters]", 0
    hidden = len(text) - budget
    return f"{key}: {text[:budget]}… [cut: {hidden:,} of {len(text):,} characters not shown]", 0


def _shown(value: Any) -> str:
    return _plain(json.dumps(value, ensure_ascii=False, default=str, separators=(", ", ": ")))


def _plain(text: str) -> str:
    """``text`` with each character that could hide or move what is around it escaped."""
    if text.isascii() and text.isprintable():
        return text
    return _NOT_PLAIN.sub(_escape, text)


def _escape(found: re.Match[str]) -> str:
    char = found[0]
    if unicodedata.category(char) not in _HIDDEN_CATEGORIES:
        return char
    point = ord(char)
    return f"\\u{point:04x}" if point <= 0xFFFF else f"\\U{point:08x}"


def _scalar(schema: Any, refs: _References, depth: int = 0) -> bool:
    """Whether ``schema`` takes only scalars: a type, enum or const of them, a union of those,
    or a reference to one (followed within the parameters' schema)."""
    if not isinstance(schema, Mapping) or depth > MAX_DECISIVE_DEPTH:
        return False
    ref = schema.get("$ref")
    if isinstance(ref, str):
        return _scalar(refs.target(ref), refs, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, str):
        return kind in _SCALARS
    if isinstance(kind, list):
        return bool(kind) and all(each in _SCALARS for each in kind)
    if "enum" in schema or "const" in schema:
        values = schema.get("enum", [schema.get("const")])
        return isinstance(values, list) and not any(isinstance(v, (dict, list)) for v in values)
    branches = schema.get("anyOf", schema.get("oneOf"))
    if isinstance(branches, list) and branches:
        return all(_scalar(branch, refs, depth + 1) for branch in branches)
    return False


class _References:
    """The parameters' references, followed by the one follower (``Resolver.chase``); the
    schema is indexed only when a question first meets a reference."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self._root = root
        self._resolver: Resolver | None = None

    def target(self, ref: str) -> Any:
        """The schema ``ref`` leads to, every reference on the way followed; None when none."""
        if self._resolver is None:
            self._resolver = Resolver(self._root)
        node = self._resolver.chase(ref)
        return None if node is None else node.schema
