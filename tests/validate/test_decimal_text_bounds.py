"""A bounded ``Decimal`` holds its bounds on both JSON forms, in validation alone: the
``decimal`` string is judged by the numeric keywords beside its format, on every door."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Any

import pytest
from annotated_types import Gt, Le, MultipleOf

import llmapp
import llmapp.http
import llmapp.mcp
import llmapp.validate

mcp_types = pytest.importorskip("mcp.types")

EXPECTED = 'string & Format<"decimal"> & ExclusiveMinimum<0> & Maximum<10000>'


class Bank:
    def pay(self, amount: Annotated[Decimal, Gt(0), Le(10000)]) -> str:
        """Pay an amount."""
        return f"paid {amount}"


def _amount_schema() -> dict[str, Any]:
    return llmapp.application(Bank).functions[0].parameters["properties"]["amount"]  # type: ignore[no-any-return]


def test_the_decimal_string_carries_the_bounds_of_the_number() -> None:
    assert _amount_schema() == {
        "anyOf": [
            {"type": "string", "format": "decimal", "exclusiveMinimum": 0, "maximum": 10000},
            {"type": "number", "exclusiveMinimum": 0, "maximum": 10000},
        ]
    }


def test_validate_alone_refuses_out_of_bounds_decimal_strings() -> None:
    (function,) = llmapp.application(Bank).functions
    for text in ("-5", "0", "99999", "1e999999"):
        result = function.validate({"amount": text})
        assert not result.success, text
        assert [(i.path, i.expected) for i in result.errors] == [("$input.amount", EXPECTED)]
    for value in ("5.5", 5.5, "10000", "1e2"):
        assert function.validate({"amount": value}).success, value


def test_execute_reports_the_string_bound_before_the_method_runs() -> None:
    app = llmapp.application(Bank)
    result = app.execute(Bank(), "pay", '{"amount": "-5"}')
    assert not result.success and result.validation is not None
    assert result.validation.errors[0].expected == EXPECTED
    assert app.execute(Bank(), "pay", '{"amount": "5.5"}').value == "paid 5.5"


def _document(schema: dict[str, Any]) -> dict[str, Any]:
    body = {"type": "object", "properties": {"amount": schema}, "required": ["amount"]}
    operation = {
        "operationId": "pay",
        "requestBody": {"required": True, "content": {"application/json": {"schema": body}}},
        "responses": {"200": {"description": "ok"}},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/pay": {"post": operation}},
    }


def test_the_same_schema_in_an_openapi_document_and_an_mcp_tool_refuses_the_same() -> None:
    schema = _amount_schema()
    (http_function,) = llmapp.http.application(_document(schema)).functions
    tool = mcp_types.Tool(
        name="pay",
        inputSchema={"type": "object", "properties": {"amount": schema}, "required": ["amount"]},
    )
    (mcp_function,) = llmapp.mcp.application([tool]).functions
    for value, valid in (("-5", False), ("99999", False), ("5.5", True), (5.5, True)):
        assert http_function.validate({"body": {"amount": value}}).success is valid, value
        assert mcp_function.validate({"amount": value}).success is valid, value


def test_every_numeric_keyword_judges_the_decimal_string_exactly() -> None:
    check = llmapp.validate.validator(
        {
            "type": "string",
            "format": "decimal",
            "minimum": 1,
            "exclusiveMaximum": 2.5,
            "multipleOf": 0.01,
        }
    )
    assert check("1").success and check("2.49").success
    for text in ("0.99", "2.5", "1.001", "1e999999"):
        assert not check(text).success, text


def test_draft4_boolean_exclusive_bounds_apply_to_the_decimal_string() -> None:
    check = llmapp.validate.validator(
        {"type": "string", "format": "decimal", "minimum": 0, "exclusiveMinimum": True}
    )
    assert not check("0").success and check("0.1").success


def test_without_the_format_numeric_keywords_ignore_strings_as_json_schema_says() -> None:
    assert llmapp.validate.validator({"type": "string", "minimum": 10})("5").success


def test_strict_mode_moves_the_string_bounds_into_its_description_and_still_enforces_them() -> None:
    (function,) = llmapp.application(Bank, strict=True).functions
    text = function.parameters["properties"]["amount"]["anyOf"][0]
    assert text == {
        "type": "string",
        "description": "@format decimal\n@exclusiveMinimum 0\n@maximum 10000",
    }
    assert not function.validate({"amount": "-5"}).success


def test_multiple_of_a_decimal_bound_holds_on_the_string_form() -> None:
    class Till:
        def charge(self, amount: Annotated[Decimal, MultipleOf(Decimal("0.01"))]) -> str:
            """Charge an amount."""
            return str(amount)

    (function,) = llmapp.application(Till).functions
    assert function.validate({"amount": "1.25"}).success
    assert not function.validate({"amount": "1.255"}).success


def test_multiple_of_is_exact_for_exponents_past_the_decimal_context_s() -> None:
    # Under the default context 1e-999999999 % 0.01 underflows to 0: no multiple of 0.01
    # may pass for being too small to tell from zero.
    check = llmapp.validate.validator({"type": "string", "format": "decimal", "multipleOf": 0.01})
    for text in ("1e-999999999", "-1e-425000000"):
        assert not check(text).success, text
    assert check("0e-999999999").success and check("1.05").success
