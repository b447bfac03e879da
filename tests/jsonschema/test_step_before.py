"""``step`` against ``f26a9cc``'s (issue 33, twelfth round).

``step`` now tells an ASCII Python identifier by ``str.isidentifier`` and
``str.isascii`` before its regular expression (a match costs about twice the two
calls): every path it writes must be ``f26a9cc``'s, for texts of identifier characters,
``$``, digits, non-ASCII letters (identifiers to Python, not to the path syntax),
punctuation, keywords, a trailing newline, a ``str`` subclass that lies about being an
identifier, integers and other keys.
"""

from __future__ import annotations

import types
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support import before

from llmapp.jsonschema import step

BEFORE = "f26a9cc"
"""The commit before this round's changes."""


@pytest.fixture(scope="module")
def old_path() -> types.ModuleType:
    before.require(BEFORE)
    return before.load(BEFORE, "llmapp/jsonschema/_path.py")


class _Liar(str):
    """A text that says it is an identifier, whatever it holds."""

    def isidentifier(self) -> bool:
        return True

    def isascii(self) -> bool:
        return True


_KEYS = st.one_of(
    st.text(alphabet="abzAZ_$09", max_size=6),
    st.text(alphabet="aZ_$0-. \n\"'éªℌ٣\u200c\x00", max_size=6),
    st.text(max_size=6),
    st.sampled_from(["class", "None", "key_0", "_", "$", "a\n", "\n", "ﬁ", "Ⅸ", "a·b"]),
    st.integers(-(10**6), 10**6),
)


@settings(max_examples=3000, deadline=None)
@given(_KEYS)
def test_step_writes_f26a9ccs_paths(old_path: types.ModuleType, key: Any) -> None:
    assert step(key) == old_path.step(key)
    if isinstance(key, str):
        assert step(_Liar(key)) == old_path.step(_Liar(key))


@pytest.mark.parametrize("key", [True, None, 1.5, ("a", 1), b"ab", frozenset()])
def test_step_of_other_keys_is_f26a9ccs(old_path: types.ModuleType, key: Any) -> None:
    assert step(key) == old_path.step(key)
