"""Numeric bounds given as ``Decimal`` or ``Fraction`` are written as JSON numbers, or refused."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from typing import Annotated

import pytest
from annotated_types import Ge, Gt, Le, Lt, MultipleOf

from llmapp import LlmApplicationError, application, llm_application


@llm_application
class Money:
    def pay(
        self,
        amount: Annotated[Decimal, Ge(Decimal("1")), MultipleOf(Decimal("0.01"))],
        share: Annotated[float, Gt(Fraction(1, 2)), Lt(Decimal("1E+1"))] = 0.75,
    ) -> str:
        """Pay."""
        return f"paid {amount}"


def test_decimal_and_fraction_bounds_are_json_numbers() -> None:
    parameters = application(Money).function("pay").parameters
    amount, share = parameters["properties"]["amount"], parameters["properties"]["share"]
    assert amount["anyOf"][1] == {"type": "number", "minimum": 1, "multipleOf": 0.01}
    assert type(amount["anyOf"][1]["minimum"]) is int
    assert share == {
        "type": "number",
        "exclusiveMinimum": 0.5,
        "exclusiveMaximum": 10,
        "default": 0.75,
    }
    json.dumps(parameters)  # raised TypeError: Decimal is not JSON serializable


def test_a_class_with_decimal_bounds_executes() -> None:
    app = application(Money)
    assert app.execute(Money(), "pay", '{"amount": "2.50"}').message() == '"paid 2.50"'
    assert not app.execute(Money(), "pay", '{"amount": 2.505}').success


def test_the_command_line_prints_the_schema(tmp_path) -> None:  # type: ignore[no-untyped-def]
    source = tmp_path / "money.py"
    source.write_text(
        "from decimal import Decimal\nfrom typing import Annotated\n"
        "from annotated_types import Ge, MultipleOf\nfrom llmapp import llm_application\n"
        "@llm_application\nclass Money:\n"
        "    def pay(self, amount: Annotated[Decimal, Ge(Decimal('1')),"
        " MultipleOf(Decimal('0.01'))]) -> str:\n        '''Pay.'''\n        return ''\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "llmapp", "schema", f"{source}:Money"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert '"multipleOf": 0.01' in done.stdout


@pytest.mark.parametrize(
    ("constraint", "reason"),
    [
        (Ge(Decimal("0.1234567890123456789")), "cannot be written exactly as a JSON number"),
        (Le(Fraction(1, 3)), "cannot be written exactly as a JSON number"),
        (Le(Decimal("NaN")), "is not a finite number"),
        (Lt(float("inf")), "is not a finite number"),
        (Ge("5"), "is not a number"),
    ],
)
def test_a_bound_no_json_number_writes_is_one_located_problem(constraint, reason) -> None:  # type: ignore[no-untyped-def]
    def pay(self, amount):  # type: ignore[no-untyped-def]
        """Pay."""

    pay.__annotations__ = {"amount": Annotated[Decimal, constraint], "return": None}
    cls = llm_application(type("Odd", (), {"pay": pay, "__module__": __name__}))
    with pytest.raises(LlmApplicationError) as raised:
        application(cls)
    (problem,) = str(raised.value).splitlines()[1:]
    assert problem.strip().startswith("Odd.pay.amount: ")
    assert reason in problem
