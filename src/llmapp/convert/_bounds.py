"""Numeric bounds on the other JSON forms of a number type: a ``Decimal`` written as text.

``Annotated[Decimal, Gt(0), Le(10000)]`` is a union of a ``string`` of format ``decimal``
and a ``number``; JSON Schema's bounds judge numbers only, so a validator that does not
know llmapp's ``decimal`` format lets ``"-5"`` through (llmapp's own judges the string's
number by the bounds written beside the format), and a validation hook may replace the
validator altogether. Converting is where that string becomes a number, so it is checked
here too, exactly:
each bound is read as the type itself (``0.01`` as ``Decimal("0.01")``, the decimal of
its shortest text, as a JSON number is), and a value outside is a ``ConversionError`` (with
the whole expected text) that the executor reports to the model at the value's path, like
a validation issue, before the method runs.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from llmapp._scalars.table import decimal_multiple
from llmapp.introspect.model import IntegerNode, Node, NumberNode, UnionNode

from ._error import ConversionError
from ._scalars import Converter

__all__ = ["with_bounds"]

_NUMERIC = (IntegerNode, NumberNode)
# (node field, label in expected texts, the test a value passes, its wording)
_BOUNDS: tuple[tuple[str, str, Callable[[Any, Any], bool], str], ...] = (
    ("ge", "Minimum", operator.ge, "at least"),
    ("gt", "ExclusiveMinimum", operator.gt, "greater than"),
    ("le", "Maximum", operator.le, "at most"),
    ("lt", "ExclusiveMaximum", operator.lt, "less than"),
    ("multiple_of", "MultipleOf", decimal_multiple, "a multiple of"),
)


def with_bounds(node: UnionNode, converters: list[Converter | None]) -> list[Converter | None]:
    """``converters`` (one per option of ``node``) with the numeric bounds of each number
    type also checked on its options written otherwise (the text of a ``Decimal``)."""
    checked = list(converters)
    for numeric in node.options:
        if not isinstance(numeric, _NUMERIC) or numeric.python_type is None:
            continue
        bounds = [(row, getattr(numeric, row[0])) for row in _BOUNDS]
        bounds = [(row, bound) for row, bound in bounds if bound is not None]
        if not bounds:
            continue
        for index, option in enumerate(node.options):
            converter = checked[index]
            if (
                converter is not None
                and not isinstance(option, _NUMERIC)
                and option.python_type is numeric.python_type
            ):
                checked[index] = _checking(converter, option, bounds)
    return checked


def _checking(
    converter: Converter, option: Node, bounds: list[tuple[tuple[str, str, Any, str], Any]]
) -> Converter:
    # Each bound as the type itself, read the way its JSON number form is read.
    exact = [
        (row, converter(bound if type(bound) is int else repr(bound))) for row, bound in bounds
    ]
    form = getattr(option, "format", None)
    head = f'string & Format<"{form}">' if form else "string"
    expected = " & ".join([head, *(f"{row[1]}<{bound}>" for row, bound in bounds)])

    def convert(value: Any) -> Any:
        converted = converter(value)
        for (_, _, passes, wording), bound in exact:
            try:
                ok = passes(converted, bound)
            except ArithmeticError:  # 1e999999 % 0.01: too far apart to tell, so not a multiple
                ok = False
            if not ok:
                raise ConversionError(
                    expected, value, ValueError(f"{value} is not {wording} {bound}")
                )
        return converted

    return convert
