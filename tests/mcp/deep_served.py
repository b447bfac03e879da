"""A tool that takes any JSON, served over stdio by ``test_call_bounds``."""

from __future__ import annotations

from typing import Any


class Notes:
    """Keeps notes."""

    def keep(self, note: Any) -> int:
        """Keep a note of any shape."""
        return 1
