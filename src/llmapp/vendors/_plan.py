"""Exports that fit: what a vendor is sent, decided per function, and why.

A vendor's strict mode refuses some keywords, some shapes and requests past its limits
(Anthropic: 20 strict tools, 24 optional properties, 16 union-typed properties over
all strict tools; OpenAI: properties and nesting per schema). ``tools(strict=True)``
refuses the whole export when one function does not fit; each vendor's ``plan(source)``
decides per function instead, so the request is accepted:

- strict or not (a function strict mode cannot express, or one past the limits the
  functions before it used up, goes as a plain schema: the vendor accepts it, without
  constrained decoding);
- which constraints move into descriptions (``@keyword value`` lines the model reads);
- ``$ref`` kept or definitions inlined.

Whatever was decided, llmapp's validator checks every constraint when the call is
executed: the export changes what the vendor is shown, never what a call must satisfy.

``ExportPlan`` holds the entries (``tools``) and one ``Decision`` per function;
``report()`` writes them one line each. ``Limits`` are the budgets a planner keeps to.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from llmapp.jsonschema import walk
from llmapp.vendors._subset import Subset, movable, where

__all__ = ["Decision", "ExportPlan", "Limits", "moved_keywords", "nesting"]


@dataclass(frozen=True, slots=True)
class Limits:
    """Budgets of one request (``None``: no limit).

    Attributes:
        strict_tools: most strict tools.
        optional_properties: most optional properties, over all strict tools.
        union_properties: most schemas with ``anyOf`` or a list of types, over all strict tools.
        properties: most properties in one strict schema.
        depth: most levels of nested objects in one strict schema.
    """

    strict_tools: int | None = None
    optional_properties: int | None = None
    union_properties: int | None = None
    properties: int | None = None
    depth: int | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    """What one function was sent as.

    Attributes:
        name: the function.
        strict: sent in strict mode.
        moved: the constraints moved into descriptions, each ``param.path: keyword``
            (llmapp's validator still checks them).
        refs: ``"kept"`` (``$ref`` and ``$defs`` sent), ``"inlined"``, or ``"none"``.
        form: the schema form where a vendor has several (Gemini: ``"json"``,
            ``"openapi"``, or ``"described"``: the schema in the description alone).
        reason: why it is not strict (or not in its first form), or ``None``.
    """

    name: str
    strict: bool
    moved: tuple[str, ...] = ()
    refs: str = "none"
    form: str = "json"
    reason: str | None = None

    def line(self) -> str:
        """The decision as one line of ``ExportPlan.report()``."""
        mode = "strict" if self.strict else "plain"
        parts = [f"{self.name}: {mode}, {self.form}, refs {self.refs}"]
        if self.moved:
            parts.append(f"moved to descriptions: {', '.join(self.moved)}")
        if self.reason:
            parts.append(f"because {self.reason}")
        return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class ExportPlan:
    """A vendor export that fits, and what was decided for each function.

    Attributes:
        vendor: whose request.
        tools: the entries, in the functions' order, ready for the SDK.
        decisions: one per function, in the same order.
    """

    vendor: str
    tools: list[dict[str, Any]]
    decisions: list[Decision] = field(default_factory=list)

    def decision(self, name: str) -> Decision | None:
        """The decision made for the function ``name``."""
        return next((each for each in self.decisions if each.name == name), None)

    @property
    def strict(self) -> list[str]:
        """The functions sent in strict mode."""
        return [each.name for each in self.decisions if each.strict]

    def report(self) -> str:
        """One line per function: strict or plain, the form, the refs, what moved, why."""
        lines = [f"{self.vendor}: {len(self.strict)} of {len(self.decisions)} strict"]
        return "\n".join([*lines, *(f"  {each.line()}" for each in self.decisions)])


def moved_keywords(schema: Mapping[str, Any], subset: Subset) -> tuple[str, ...]:
    """The constraints of ``schema`` that ``conform(schema, subset)`` moves into descriptions,
    each ``param.path: keyword``."""
    moved: dict[str, None] = {}
    for tokens, node in walk(schema):
        for keyword, value in node.items():
            if keyword == "description" or not movable(keyword):
                continue
            if keyword == "default" and value is None:
                continue  # dropped, not moved (see conform)
            if subset.refusal(keyword, value) is not None:
                moved[f"{where(tokens) or '(root)'}: {keyword}"] = None
    return tuple(moved)


def nesting(schema: Mapping[str, Any]) -> int:
    """How many levels of ``properties`` the deepest object of ``schema`` sits under
    (definitions counted where they are written, not where they are used)."""
    deepest = 0
    for tokens, node in walk(schema):
        if "properties" in node:
            level = sum(1 for token in tokens if token == "properties") + 1
            deepest = max(deepest, level)
    return deepest
