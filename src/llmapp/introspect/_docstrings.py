"""Docstrings: description, parameter texts and typia-style ``@tags``.

INTERFACE ONLY -- being written by a helper; the dataclass below is the contract.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

__all__ = ["DocInfo", "parse_docstring"]


@dataclass(frozen=True, slots=True)
class DocInfo:
    """What a docstring says, with every tag removed from the texts."""

    description: str | None = None
    """Summary + long description; no tags, no Args/Returns/Raises sections."""
    summary: str | None = None
    title: str | None = None
    params: Mapping[str, str] = field(default_factory=dict)
    """Parameter texts from Args/Parameters/:param:/@param NAME TEXT."""
    attributes: Mapping[str, str] = field(default_factory=dict)
    """Attribute texts (the Attributes section), for dataclass/TypedDict fields."""
    returns: str | None = None
    tags: tuple[str, ...] = ()
    deprecated: bool = False
    hidden: bool = False
    """``@hidden`` or ``@internal``: never a function."""
    human: bool = False


EMPTY_DOC = DocInfo()


def parse_docstring(doc: str | None) -> DocInfo:
    """Parse a docstring; never raises. Empty or ``None`` gives ``EMPTY_DOC``."""
    raise NotImplementedError
