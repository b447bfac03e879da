"""``fresh_name(base, taken)``: ``base``, else ``base_2``, ``base_3``... the first one not
taken. Generated code, ``$defs`` entries, type definitions and HTTP functions are all
named this way."""

from __future__ import annotations

from collections.abc import Container

__all__ = ["fresh_name"]


def fresh_name(base: str, taken: Container[str]) -> str:
    """The first of ``base``, ``base_2``, ``base_3``... not in ``taken`` (not added to it)."""
    name, counter = base, 1
    while name in taken:
        counter += 1
        name = f"{base}_{counter}"
    return name
