"""Markdown tables and number formatting for the printed report."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["NA", "fmt", "fmt_ratio", "ratio", "table"]

NA = "n/a"


def fmt(value: float | None, digits: int = 1) -> str:
    """A number with thousands separators, or ``n/a``; below 1, two significant digits."""
    if value is None:
        return NA
    if value >= 100:
        return f"{value:,.0f}"
    if value < 1:
        return f"{value:.{max(digits, 2)}f}" if value >= 0.1 else f"{value:.{max(digits, 3)}f}"
    return f"{value:,.{digits}f}"


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or denominator is None or denominator == 0:
        return None
    return numerator / denominator


def fmt_ratio(value: float | None) -> str:
    if value is None:
        return NA
    return f"{value:.3f}x" if value < 0.1 else f"{value:.2f}x"


def table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A markdown table, columns padded so it also reads as plain text."""
    widths = [max(len(str(row[i])) for row in [headers, *rows]) for i in range(len(headers))]

    def line(cells: Sequence[str]) -> str:
        padded = (str(cell).ljust(width) for cell, width in zip(cells, widths, strict=True))
        return "| " + " | ".join(padded) + " |"

    separator = "|" + "|".join("-" * (width + 2) for width in widths) + "|"
    return "\n".join([line(headers), separator, *(line(row) for row in rows)])
