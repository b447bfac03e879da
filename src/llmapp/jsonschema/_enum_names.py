"""The names of an ``enum``'s members: ``x-enum-varnames``, beside ``enum`` and parallel to it.

``{"type": "integer", "enum": [1, 2, 3], "x-enum-varnames": ["LOW", "NORMAL", "HIGH"]}``
is how llmapp writes a Python ``Enum`` whose names are not its values, and how OpenAPI
Generator (and the generators that follow it) read and write the same thing; NSwag's
``x-enumNames`` is read as well. The names never judge a value: they let the feedback
show ``3 (HIGH)`` and let ``coerce`` turn the name ``"HIGH"`` into ``3``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["ENUM_NAMES", "ENUM_NAMES_READ", "enum_names"]

ENUM_NAMES = "x-enum-varnames"
"""The keyword llmapp writes (OpenAPI Generator's spelling)."""

ENUM_NAMES_READ = (ENUM_NAMES, "x-enumNames")
"""Every keyword read for the names, the first found that fits winning (NSwag's second)."""


def enum_names(schema: Mapping[str, Any]) -> tuple[str, ...] | None:
    """The member names parallel to the schema's ``enum``, or None.

    None unless ``enum`` is a list and a names keyword is a list of as many strings: a
    list of another length cannot say which name is which value's.
    """
    values = schema.get("enum")
    if not isinstance(values, list):
        return None
    for keyword in ENUM_NAMES_READ:
        names = schema.get(keyword)
        if (
            isinstance(names, list)
            and len(names) == len(values)
            and all(isinstance(name, str) for name in names)
        ):
            return tuple(names)
    return None
