"""The one separation builder: a function's parameters split between the model and a human.

Every source (a class, an OpenAPI document, an MCP tool list) splits the same way:
``refusals`` first (a human value inside a union or tuple cannot be kept from the model,
so the function is a build problem), then ``separation``: the LLM side the model is
shown, the human side, and the model's side of the schema validated against, every
constraint kept, which the call kernel repairs and checks against.
"""

from __future__ import annotations

from typing import Any

from llmapp import separate
from llmapp.kernel._config import SchemaPredicate
from llmapp.kernel._function import OnFirstUse, Separated, compile_validator

__all__ = ["refusals", "separation"]

Schema = dict[str, Any]


def refusals(checked: Schema, predicate: SchemaPredicate) -> list[tuple[str, str]]:
    """``(parameter, reason)`` for each human value the split cannot keep from the model."""
    return separate.human_inside_whole(checked, predicate)


def separation(
    parameters: Schema, checked: Schema, predicate: SchemaPredicate, *, keep_empty: bool = False
) -> tuple[Separated | None, Schema]:
    """The split of ``parameters`` and the model's side of ``checked``.

    Args:
        parameters: the parameters as the model is shown them (strict when strict).
        checked: the parameters validated against (``parameters`` unless strict).
        predicate: ``True`` for a schema whose value a human supplies.
        keep_empty: a function with no human value is still separated (a class whose
            ``separate=`` was configured says so of each of its functions).

    Returns:
        The ``Separated`` (``None`` when nothing is human-side and not ``keep_empty``),
        with ``validate`` compiled on first use from the model's side and
        ``validate_human`` from the human side; and the model's side.
    """
    llm, human = separate.split_parameters(parameters, predicate)
    if human is None and not keep_empty:
        return None, checked
    model_side = llm if checked is parameters else separate.split_parameters(checked, predicate)[0]
    check = OnFirstUse(compile_validator, model_side)
    human_check = OnFirstUse(compile_validator, human) if human is not None else None
    return Separated(llm=llm, human=human, validate=check, validate_human=human_check), model_side
