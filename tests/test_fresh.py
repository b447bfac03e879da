"""``llmapp._codegen.fresh``: the first free name of ``base``, ``base_2``, ``base_3``..."""

from __future__ import annotations

from llmapp._codegen.fresh import fresh_name


def test_the_base_itself_when_free() -> None:
    assert fresh_name("Pet", set()) == "Pet"


def test_the_first_free_numbered_name_and_nothing_added() -> None:
    taken = {"Pet", "Pet_2", "Pet_4"}
    assert fresh_name("Pet", taken) == "Pet_3"
    assert taken == {"Pet", "Pet_2", "Pet_4"}
