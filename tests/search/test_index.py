"""``SearchIndex``: terms, fields, ranking and the embedding ranker, on every door's functions."""

from __future__ import annotations

from typing import Annotated, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.budget import scaled

from llmapp import application, llm_application, mcp
from llmapp.search import EmbeddingRanker, SearchIndex
from llmapp.search._index import document
from llmapp.search._words import stem, terms


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("listPaymentIntents", ["list", "payment", "intent"]),
        ("get_weather_forecast", ["get", "weather", "forecast"]),
        ("HTTPServer.start", ["http", "server", "start"]),
        ("sha256sum", ["sha", "256", "sum"]),
        ("the categories of a charge", ["category", "charg"]),
        ("ÜberStraße", ["über", "strass"]),
        ("", []),
    ],
)
def test_terms_split_code_and_prose_alike(text: str, expected: list[str]) -> None:
    assert terms(text) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("payments", "payment"),
        ("categories", "category"),
        ("boxes", "box"),
        ("listing", "list"),
        ("stopped", "stop"),
        ("created", "creat"),
        ("create", "creat"),
        ("string", "string"),  # no vowel would be left: not an inflection
        ("speed", "speed"),
        ("status", "status"),
        ("analysis", "analysis"),
    ],
)
def test_the_stemmer_removes_inflections_only(word: str, expected: str) -> None:
    assert stem(word) == expected


@llm_application
class Shop:
    """A shop."""

    def search_products(self, query: str, limit: int = 10) -> list[str]:
        """Search the catalogue for products.

        @tag catalog
        Args:
            query: Words to look for.
            limit: Most results to return.
        """
        return []

    def refund_order(self, order_id: str, amount: Annotated[int, "cents"]) -> str:
        """Give a customer their money back for an order."""
        return "ok"

    def weather(self, city: str) -> str:
        """Tomorrow's forecast.

        Args:
            city: Where, for example Paris.
        """
        return "sunny"


def test_each_field_is_read_from_the_function() -> None:
    function = application(Shop).require("search_products")
    assert document(function) == {
        "name": ["search", "product"],
        "tags": ["catalog"],
        "description": ["search", "catalogu", "product"],
        "parameters": ["query", "limit"],
        "details": ["word", "look", "most", "result", "return"],
    }


def test_search_ranks_a_class_application() -> None:
    index = SearchIndex(application(Shop))
    assert [f.name for f in index.search("give the money back", 3)] == ["refund_order"]
    assert index.search("forecast for Paris", 1)[0].name == "weather"
    assert index.search("products in the catalog", 1)[0].name == "search_products"


def test_a_name_outweighs_a_parameter_description() -> None:
    # "city" is weather's parameter; a function named for cities wins a query about them.
    tools = [
        {"name": "weather", "description": "Forecast.", "inputSchema": _one("city", "A city.")},
        {"name": "list_cities", "description": "Places.", "inputSchema": _one("q", "Text.")},
    ]
    index = SearchIndex(mcp.application(tools))
    assert [f.name for f in index.search("cities", 2)] == ["list_cities", "weather"]


def _one(name: str, description: str) -> dict[str, object]:
    return {
        "type": "object",
        "properties": {name: {"type": "string", "description": description}},
        "required": [name],
    }


def test_nothing_in_common_finds_nothing() -> None:
    index = SearchIndex(application(Shop))
    assert index.search("zzz qqq", 5) == []
    assert index.search("", 5) == []
    assert index.search("refund", 0) == []


def test_hits_carry_descending_scores() -> None:
    hits = SearchIndex(application(Shop)).ranked("search products refund order", 3)
    assert [hit.function.name for hit in hits] == ["search_products", "refund_order"]
    assert hits[0].score > hits[1].score > 0


def test_weights_change_the_ranking() -> None:
    tools = [
        {"name": "alpha", "description": "Sends invoices.", "inputSchema": _one("x", "X.")},
        {"name": "invoice_tool", "description": "Other.", "inputSchema": _one("y", "Y.")},
    ]
    app = mcp.application(tools)
    assert SearchIndex(app).search("invoice", 1)[0].name == "invoice_tool"
    heavy = SearchIndex(app, weights={"name": 0.1, "description": 5.0})
    assert heavy.search("invoice", 1)[0].name == "alpha"


def test_an_iterable_of_functions_is_indexed_too() -> None:
    functions = application(Shop).functions
    index = SearchIndex(functions[:2])
    assert len(index) == 2
    assert index.search("forecast", 5) == []


def test_long_texts_cost_a_bounded_build() -> None:
    huge = {
        "type": "object",
        "properties": {
            f"p{i}": {"type": "string", "description": "x " * 10_000} for i in range(500)
        },
    }
    tools = [{"name": "big", "description": "word " * 100_000, "inputSchema": huge}]
    doc = document(mcp.application(tools).functions[0])
    assert len(doc["description"]) <= 2_000
    assert len(doc["parameters"]) + len(doc["details"]) <= 64 * 2 * 1_000


def test_an_embedding_ranker_is_fused_in() -> None:
    app = application(Shop)
    axis = {"search_products": [1.0, 0.0, 0.0], "refund_order": [0.0, 1.0, 0.0]}
    axis["weather"] = [0.0, 0.0, 1.0]
    # The question shares no word with weather's text; its vector is weather's.
    ranker = EmbeddingRanker(axis, lambda query: [0.0, 0.0, 1.0])
    index = SearchIndex(app, ranker=ranker)
    assert index.search("is it going to rain", 1)[0].name == "weather"
    assert SearchIndex(app).search("is it going to rain", 1) == []


@given(st.text(max_size=300), st.integers(min_value=-3, max_value=30))
@settings(max_examples=scaled(80, 200), deadline=None)
@pytest.mark.budgeted
def test_search_never_raises_and_keeps_to_k(query: str, k: int) -> None:
    found = _SHOP_INDEX.search(query, k)
    assert len(found) <= max(k, 0)
    assert len({f.name for f in found}) == len(found)


_SHOP_INDEX = SearchIndex(application(Shop))


def test_stripe_questions_find_their_operations(stripe: Any) -> None:
    index = SearchIndex(stripe)
    assert index.search("refund a charge", 1)[0].name == "v1_charges_refund_postByCharge"
    assert index.search("list the invoices", 1)[0].name == "v1_invoices_get"
    assert "v1_subscriptions_eraseBySubscription_exposed_id" in [
        f.name for f in index.search("cancel a subscription", 5)
    ]
