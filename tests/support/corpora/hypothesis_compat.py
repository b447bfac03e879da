"""Let hypothesis-jsonschema 0.23.1 generate objects with the installed (newer) hypothesis.

hypothesis-jsonschema's object strategy drives ``hypothesis.internal.conjecture.utils.many``
with its old protocol (``while elements.more(): ...``). Recent hypothesis releases replaced
that protocol with ``with many(...) as elements: for _ in elements: ...`` and removed
``more()``, so every object schema fails with ``AttributeError: 'many' object has no attribute
'more'``. ``install()`` adds a ``more()`` that runs the new protocol one step at a time; it does
nothing when ``more`` exists (an older hypothesis, or a fixed hypothesis-jsonschema).
"""

from __future__ import annotations

from typing import Any

from hypothesis.internal.conjecture import utils


def _more(self: Any) -> bool:
    steps = getattr(self, "_compat_steps", None)
    if steps is None:
        self.__enter__()
        steps = self._compat_steps = iter(self)
    try:
        next(steps)
    except StopIteration:
        self.__exit__(None)
        return False
    return True


def install() -> None:
    """Give ``many`` the ``more()`` method hypothesis-jsonschema calls, if it lacks one."""
    if not hasattr(utils.many, "more"):
        utils.many.more = _more  # type: ignore[attr-defined]
