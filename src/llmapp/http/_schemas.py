"""Every schema of a document normalised in one pass, and the definitions each one reaches.

The named schemas and each operation's schemas (parameters, body, output) go through
``llmapp.jsonschema.normalise`` once, together: one root whose ``$defs`` are the named
schemas and whose ``anyOf`` lists a reference to each of them (so none is dropped), then
every operation schema. A function's parameters then take, by name, only the definitions
they reach; the definitions are shared between functions, not copied (treat them as
read-only), which is what keeps a 300-operation document well under a second.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from llmapp.jsonschema import Path, escape_token, normalise, pointer_tokens, ref_name
from llmapp.schema import HUMAN_KEYWORD

__all__ = ["SchemaTable"]

Schema = dict[str, Any]


class SchemaTable:
    """The normalised schemas of one document.

    Args:
        named: the document's named schemas (already through ``openapi_schema``).
        pieces: each operation schema with its place in the document.
        section: where the named schemas are in the document, for locating problems.
    """

    def __init__(
        self, named: Mapping[str, Any], pieces: list[tuple[Any, Path]], section: Path
    ) -> None:
        references = [{"$ref": "#/$defs/" + escape_token(name)} for name in named]
        root = {"$defs": dict(named), "anyOf": [*references, *(piece for piece, _ in pieces)]}
        normalised, problems = normalise(root)
        self.defs: dict[str, Any] = normalised.get("$defs", {})
        self.pieces: list[Any] = normalised.get("anyOf", [])[len(references) :]
        self.piece_problems: dict[int, list[str]] = {}
        self.def_problems: dict[str, list[str]] = {}
        for problem in problems:
            tokens = pointer_tokens(problem.location, fragment=True)
            if len(tokens) >= 2 and tokens[0] == "$defs":
                where = Path((*section, *tokens[1:]))
                self.def_problems.setdefault(tokens[1], []).append(f"{where}: {problem.reason}")
            elif len(tokens) >= 2 and tokens[0] == "anyOf" and int(tokens[1]) >= len(references):
                index = int(tokens[1]) - len(references)
                where = Path((*pieces[index][1], *tokens[2:]))
                self.piece_problems.setdefault(index, []).append(f"{where}: {problem.reason}")
        self._edges: dict[str, list[str]] = {}
        self._human: set[str] = set()  # definitions that mark something human-side
        for name, schema in self.defs.items():
            self._edges[name], human = _refs(schema)
            if human:
                self._human.add(name)
        self._closures: dict[str, frozenset[str]] = {}
        self._order = {name: index for index, name in enumerate(self.defs)}

    def reached(self, schemas: list[Any]) -> list[str]:
        """The names of the definitions ``schemas`` reach, directly or not, in table order."""
        found: set[str] = set()
        for name in {name for schema in schemas for name in _refs(schema)[0]}:
            if name in self._edges:
                found |= self._closure(name)
        return sorted(found, key=self._order.__getitem__)

    def _closure(self, start: str) -> frozenset[str]:
        """Every definition ``start`` reaches, itself included (computed once per name)."""
        closure = self._closures.get(start)
        if closure is None:
            found = {start}
            pending = list(self._edges[start])
            while pending:
                name = pending.pop()
                if name not in found and name in self._edges:
                    found.add(name)
                    pending.extend(self._edges[name])
            closure = self._closures[start] = frozenset(found)
        return closure

    def marks_human(self, schemas: list[Any], defs: list[str]) -> bool:
        """Whether ``schemas`` or the definitions ``defs`` mark a value human-side."""
        return any(_refs(schema)[1] for schema in schemas) or not self._human.isdisjoint(defs)

    def problems(self, pieces: list[int], defs: list[str]) -> list[str]:
        """What could not be normalised in these pieces and definitions."""
        found = [m for index in pieces for m in self.piece_problems.get(index, ())]
        found.extend(m for name in defs for m in self.def_problems.get(name, ()))
        return found


def _refs(schema: Any) -> tuple[list[str], bool]:
    """The definition names referenced anywhere inside ``schema``, and whether it marks a
    value human-side (``x-llmapp-human``) itself."""
    found: list[str] = []
    human = False
    pending = [schema]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            human = human or node.get(HUMAN_KEYWORD) is True
            ref = node.get("$ref")
            if isinstance(ref, str):
                name = ref_name(ref)
                if name is not None:
                    found.append(name)
            pending.extend(value for value in node.values() if isinstance(value, (dict, list)))
        elif isinstance(node, list):
            pending.extend(value for value in node if isinstance(value, (dict, list)))
    return found, human
