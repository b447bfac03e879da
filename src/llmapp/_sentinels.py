"""The project's one sentinel: a value that is not there.

``MISSING`` stands for an absent key, an absent default or an option not given,
wherever ``None`` is a real value (JSON ``null``). The public name of the same object
is ``llmapp.UNDEFINED``: the ``value`` of a ``ValidationIssue`` for a key the model
left out, shown to the model as ``undefined``. A leaf module, so every stage can
share it.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["MISSING", "UNDEFINED"]


class _Missing:
    """The type of ``MISSING``: one instance, falsy, shown as ``undefined``."""

    __slots__ = ()
    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "undefined"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "MISSING"


MISSING: Final[Any] = _Missing()
UNDEFINED: Final[Any] = MISSING
