"""Hypothesis strategies for the texts the fast-path tests compare old and new code on."""

from __future__ import annotations

from hypothesis import strategies as st

__all__ = ["decimal_texts"]


def decimal_texts(max_digits: int) -> st.SearchStrategy[str]:
    """Decimal numbers as a model writes them: a sign, digits, a fraction and an exponent,
    each optional but the digits (up to ``max_digits`` of them, a side of the point)."""
    digits = st.text(alphabet="0123456789", min_size=1, max_size=max_digits)
    return st.builds(
        lambda sign, whole, fraction, exponent: f"{sign}{whole}{fraction}{exponent}",
        st.sampled_from(["", "-", "+"]),
        digits,
        st.one_of(st.just(""), digits.map(lambda found: "." + found)),
        st.one_of(st.just(""), st.integers(-(10**10), 10**10).map(lambda e: f"e{e}")),
    )
