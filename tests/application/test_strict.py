"""strict=True: vendor-facing schemas follow OpenAI's rules; validation still checks every constraint."""

from __future__ import annotations

import pytest

from llmapp import LlmApplicationError, application


def test_strict_schema_requires_everything_and_nulls_mean_defaults(shop_module):
    app = application(shop_module.Shop, strict=True)
    search = app.function("search")
    assert search.parameters["required"] == ["query", "category", "limit"]
    limit = search.parameters["properties"]["limit"]
    assert {"type": "null"} in limit["anyOf"]
    result = app.execute(
        shop_module.Shop(), "search", {"query": "pan", "category": None, "limit": None}
    )
    assert result.success, result.feedback
    assert [product.sku for product in result.value] == ["KT-310"]


def test_strict_validation_keeps_constraints_moved_out_of_the_schema(shop_module):
    app = application(shop_module.Shop, strict=True)
    create = app.function("create_order")
    item = create.parameters["$defs"]["OrderItem"]["properties"]["sku"]
    assert "minLength" not in item and "@minLength 3" in item["description"]  # moved to the text
    result = app.execute(
        shop_module.Shop(),
        "create_order",
        {
            "customer": {"name": "A", "email": "a@b.co"},
            "items": [{"sku": "X", "quantity": None}],
            "priority": None,
        },
    )
    assert not result.success
    assert [(i.path, i.expected) for i in result.validation.errors] == [
        ("$input.items[0].sku", "string & MinLength<3> & MaxLength<32>")
    ]


def test_strict_problems_name_their_method():
    class Store:
        def put(self, values: dict[str, int]) -> None:
            """Store values."""

    with pytest.raises(LlmApplicationError) as caught:
        application(Store, strict=True)
    assert any(problem.location.startswith("Store.put") for problem in caught.value.problems)
