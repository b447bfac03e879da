"""What a method declares for its MCP entry beyond its schema: ``@icons``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar

__all__ = ["ICONS_ATTRIBUTE", "icons"]

ICONS_ATTRIBUTE: Final = "__llmapp_icons__"
F = TypeVar("F", bound=Callable[..., Any])


def icons(*found: str | dict[str, Any]) -> Callable[[F], F]:
    """Icons for a method's tool, prompt or resource entry, for clients that show them.

    Args:
        *found: each an icon's URL (``https:`` or a ``data:`` URI), or an MCP ``Icon``
            as a mapping (``{"src": ..., "mimeType": "image/png", "sizes": ["48x48"]}``).

    Example::

        @icons("https://example.com/search.svg")
        def search(self, query: str) -> list[str]: ...
    """
    entries = [{"src": icon} if isinstance(icon, str) else dict(icon) for icon in found]

    def mark(method: F) -> F:
        setattr(getattr(method, "__func__", method), ICONS_ATTRIBUTE, entries)
        return method

    return mark
