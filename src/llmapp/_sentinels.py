"""The project's one sentinel: a value that is not there.

``MISSING`` stands for an absent key or an absent default wherever ``None`` is a real
value (JSON ``null``). It is a leaf module so that every stage can share it.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["MISSING"]


class _Missing:
    """The type of ``MISSING``: falsy, printed as ``MISSING``, never equal to user data."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "MISSING"


MISSING: Final[Any] = _Missing()
