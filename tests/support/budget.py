"""How much the long property, corpus and before/after tests do in one run.

The README's test command runs each of them on a spread, deterministic share of its inputs
(every property still checked, on fewer cases), so the suite stays fast on two cores;
``LLMAPP_THOROUGH=1`` runs them on everything, as CI's thorough step does.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

THOROUGH = os.environ.get("LLMAPP_THOROUGH") == "1"


def scaled(quick: int, thorough: int) -> int:
    """``thorough`` under ``LLMAPP_THOROUGH=1``, else ``quick``."""
    return thorough if THOROUGH else quick


def spread(items: Sequence[T], share: int) -> list[T]:
    """Every item under ``LLMAPP_THOROUGH=1``, else one in ``share``, from the first on."""
    return list(items) if THOROUGH else list(items[::share])
