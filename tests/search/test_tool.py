"""``ToolSearch``: the search function, what it loads, and calls through the application."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from llmapp import application, llm_application
from llmapp.search import SearchIndex, ToolSearch
from llmapp.search._tool import short_description
from llmapp.vendors import anthropic, gemini, mcp, openai


@llm_application
class Shop:
    """A shop with many counters."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def search_products(self, query: str) -> list[str]:
        """Search the catalogue for products."""
        self.calls.append("search_products")
        return [query]

    def refund_order(self, order_id: str) -> str:
        """Give a customer their money back for an order.

        More text that the short description leaves out.
        """
        self.calls.append("refund_order")
        return order_id

    def weather(self, city: str) -> str:
        """Tomorrow's forecast for a city."""
        return "sunny"

    def help(self) -> str:
        """What this shop can do."""
        return "everything"


def test_functions_are_the_search_then_the_always_shown_then_the_loaded() -> None:
    searching = ToolSearch(application(Shop), always=["help"])
    assert [f.name for f in searching.functions] == ["search_tools", "help"]
    result = searching.execute(Shop(), "search_tools", '{"query": "refund an order", "k": 1}')
    assert result.success
    assert result.data == {
        "functions": [
            {
                "name": "refund_order",
                "description": "Give a customer their money back for an order.",
            }
        ],
        "note": "These functions can be called now.",
    }
    assert json.loads(result.message())["functions"][0]["name"] == "refund_order"
    assert [f.name for f in searching.functions] == ["search_tools", "help", "refund_order"]


def test_a_call_goes_to_the_application_and_loads_its_function() -> None:
    app, shop = application(Shop), Shop()
    searching = ToolSearch(app)
    result = searching.execute(shop, "weather", {"city": "Paris"})
    assert result.success and result.data == "sunny"
    assert searching.loaded == ["weather"] and searching.most_used(3) == ["weather"]
    wrong = searching.execute(shop, "weather", {"city": 3})
    assert not wrong.success and "$input.city" in wrong.message()
    assert searching.used["weather"] == 1
    unknown = searching.execute(shop, "nope", {})
    assert not unknown.success and searching.loaded == ["weather"]


def test_aexecute_runs_searches_and_calls() -> None:
    searching, shop = ToolSearch(application(Shop)), Shop()

    async def main() -> list[Any]:
        found = await searching.aexecute(shop, "search_tools", {"query": "products"})
        called = await searching.aexecute(shop, "search_products", {"query": "socks"})
        return [found, called]

    found, called = asyncio.run(main())
    assert found.data["functions"][0]["name"] == "search_products"
    assert called.data == ["socks"] and shop.calls == ["search_products"]


def test_the_loaded_set_is_bounded_and_can_be_reset() -> None:
    searching = ToolSearch(application(Shop), max_loaded=2)
    searching.load(["weather", "help", "refund_order"])
    assert searching.loaded == ["help", "refund_order"]
    searching.load(["help"])  # found again: the most recent
    assert searching.loaded == ["refund_order", "help"]
    revision = searching.revision
    searching.reset()
    assert searching.loaded == [] and searching.revision == revision + 1


def test_nothing_found_says_so_and_loads_nothing() -> None:
    searching = ToolSearch(application(Shop))
    result = searching.execute(None, "search_tools", {"query": "zzzz"})
    assert result.data == {"functions": [], "note": "No function matches; try other words."}
    assert searching.revision == 0


def test_misuse_is_refused_at_construction() -> None:
    app = application(Shop)
    with pytest.raises(ValueError, match="already a function"):
        ToolSearch(app, name="weather")
    with pytest.raises(ValueError, match="between 1 and 20"):
        ToolSearch(app, k=0)
    with pytest.raises(ValueError, match="not a function"):
        ToolSearch(app, always=["nope"])


def test_an_index_is_shared_between_conversations() -> None:
    app = application(Shop)
    index = SearchIndex(app)
    first, second = ToolSearch(app, index=index), ToolSearch(app, index=index)
    first.find("weather")
    assert first.loaded == ["weather"] and second.loaded == []
    assert first.index is second.index


def test_every_vendor_exports_it() -> None:
    searching = ToolSearch(application(Shop), name="find_tools", k=2)
    searching.find("products")
    for names in (
        [entry["function"]["name"] for entry in openai.tools(searching)],
        [entry["name"] for entry in openai.tools(searching, api="responses", strict=True)],
        [entry["name"] for entry in anthropic.tools(searching, strict=True)],
        [entry["name"] for entry in gemini.tools(searching, strict=True)],
        [entry["name"] for entry in mcp.tools(searching)],
    ):
        assert names == ["find_tools", "search_products"]


def test_short_descriptions() -> None:
    assert short_description(None) == ""
    assert short_description("One. Two.") == "One."
    assert short_description("First paragraph\ncontinued.\n\nSecond.") == (
        "First paragraph continued."
    )
    assert len(short_description("x" * 500)) == 200


def test_tool_searches_of_one_application_share_its_index() -> None:
    app = application(Shop)
    assert ToolSearch(app).index is ToolSearch(app).index
    assert ToolSearch(app).index is not SearchIndex(app)


def test_defer_names_must_be_a_list() -> None:
    with pytest.raises(TypeError, match="not one string"):
        anthropic.tools(application(Shop), defer="weather")
