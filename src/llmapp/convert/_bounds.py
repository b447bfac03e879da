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
import weakref
from collections.abc import Callable
from typing import Any

from llmapp._scalars.table import decimal_multiple, exact_context
from llmapp.introspect.model import IntegerNode, Node, NumberNode, UnionNode

from .._codegen.source import Emitter, compile_function
from ._error import ConversionError
from ._readers import PURE, TEXT_READS
from ._scalars import Converter

__all__ = ["by_kind", "with_bounds"]

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
    checked = _generate(converter, exact, expected, None)
    _CHECKS[checked] = (converter, exact, expected)
    PURE.add(checked)  # the converter's value and the bounds decide: it may run again
    return checked


def by_kind(table: dict[type, Converter | None]) -> Converter | None:
    """A union's converter by the value's kind (``table``) in one function, where its text
    is a number checked here (``Annotated[Decimal, Ge(0)]``'s text) and every other kind
    converts by the converter behind that check or stays as it is; else None."""
    text = table.get(str)
    found = None if text is None else _CHECKS.get(text)
    if found is None:
        return None
    converter, exact, expected = found
    others = {kind: step for kind, step in table.items() if kind is not str}
    if any(step is not None and step is not converter for step in others.values()):
        return None
    made = _generate(converter, exact, expected, others)
    PURE.add(made)
    return made


_CHECKS: weakref.WeakKeyDictionary[Converter, tuple[Converter, list[Any], str]] = (
    weakref.WeakKeyDictionary()
)
"""Each check ``_checking`` made: the converter it checks, its bounds and expected text."""

_PRECISION = 28
"""``decimal_multiple``'s context: the default precision's digits in the quotient."""

_TESTS = {
    "ge": "converted >= {}",
    "gt": "converted > {}",
    "le": "converted <= {}",
    "lt": "converted < {}",
    "multiple_of": "remainder(converted, {}) == 0",
}
"""Each bound's test as ``_BOUNDS``' function makes it (``operator.ge(a, b)`` is
``a >= b``), written in the generated check; ``decimal_multiple``'s one line with its
context's method bound once (a call of that function per value cost as much as reading
the value)."""


def _generate(
    converter: Converter, exact: list[Any], expected: str, others: dict[type, Any] | None
) -> Converter:
    """The check as one function: the text read by its type where the converter is a
    reader that calls it (``TEXT_READS``), each bound in order, a refusal naming the first
    bound the value fails (or cannot be compared with: ``1e999999 % 0.01`` is too far
    apart to tell, so not a multiple). With ``others``, a union's whole converter: a text
    is checked, any other value converted by its kind's entry or kept as it is."""
    read = TEXT_READS.get(converter)
    namespace: dict[str, Any] = {
        "converter": converter,
        "read": read,
        "remainder": exact_context(_PRECISION).remainder,
        "ConversionError": ConversionError,
        "EXPECTED": expected,
        "OTHERS": others,
    }
    emit = Emitter()
    with emit.block("def checked(value):"):
        if others is not None:
            with emit.block("if type(value) is not str:"):
                emit.line("step = OTHERS.get(type(value))")
                emit.line("return value if step is None else step(value)")
            emit.line(f"converted = {'converter' if read is None else 'read'}(value)")
        elif read is not None:
            emit.line("converted = read(value) if type(value) is str else converter(value)")
        else:
            emit.line("converted = converter(value)")
        for index, ((field, _, _, wording), bound) in enumerate(exact):
            namespace[f"b{index}"], namespace[f"w{index}"] = bound, f" is not {wording} {bound}"
            with emit.block("try:"):
                emit.line(f"ok = {_TESTS[field].format(f'b{index}')}")
            with emit.block("except ArithmeticError:"):
                emit.line("ok = False")
            with emit.block("if not ok:"):
                emit.line(
                    f'raise ConversionError(EXPECTED, value, ValueError(f"{{value}}{{w{index}}}"))'
                )
        emit.line("return converted")
    return compile_function("checked", emit.take(), namespace, origin="convert bounds")
