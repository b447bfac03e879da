"""An application's own description: the class docstring, tags and sections removed."""

from __future__ import annotations

from dataclasses import dataclass

from llmapp import application, llm_application


def test_the_class_docstring_is_the_applications_description():
    @llm_application
    class Library:
        """Lends books to members.

        Members borrow at most three books at a time.

        @tag library
        Attributes:
            shelves: How many shelves it has.
        """

        def lend(self, isbn: str) -> str:
            """Lend a book."""
            return isbn

    description = application(Library).description
    assert description == "Lends books to members.\n\nMembers borrow at most three books at a time."


def test_a_class_without_a_docstring_has_no_description():
    class Plain:
        def ping(self) -> str:
            return "pong"

    @dataclass
    class Generated:  # a dataclass invents a docstring; it is not documentation
        size: int = 0

        def ping(self) -> str:
            return "pong"

    assert application(Plain).description is None
    assert application(Generated).description is None


def test_the_deprecation_reason_is_shown_in_the_description_every_vendor_sends():
    from typing_extensions import deprecated

    from llmapp.vendors import anthropic, openai

    @llm_application
    class Catalogue:
        def find(self, query: str) -> str:
            """Find products."""
            return query

        def search(self, query: str) -> str:
            """Search products.

            @deprecated use find() instead
            """
            return query

        @deprecated("use find(); search_all goes in 2.0")
        def search_all(self, query: str) -> str:
            """Search every product."""
            return query

        def old(self, query: str) -> str:
            """Old search.

            @deprecated
            """
            return query

    app = application(Catalogue)
    assert app.function("find").description == "Find products."
    assert (
        app.function("search").description == "Search products.\n\nDeprecated: use find() instead"
    )
    assert app.function("search_all").description == (
        "Search every product.\n\nDeprecated: use find(); search_all goes in 2.0"
    )
    assert app.function("old").deprecated and app.function("old").description == "Old search."
    sent = {entry["function"]["name"]: entry["function"] for entry in openai.tools(app)}
    assert sent["search"]["description"].endswith("Deprecated: use find() instead")
    assert anthropic.tools(app)[1]["description"].endswith("Deprecated: use find() instead")


def test_name_and_description_overrides_are_honoured_by_execute_exports_and_toolsets():
    from llmapp import LlmApplicationError
    from llmapp.vendors import mcp, openai

    @llm_application
    class Store:
        def find(self, query: str) -> str:
            """Search the catalogue (the developers' text).

            @name search_products
            @description Search the shop's products by words.
            """
            return f"found {query}"

    app = application(Store)
    function = app.function("search_products")
    assert function is not None and app.function("find") is None
    assert function.description == "Search the shop's products by words."
    assert app.execute(Store(), "search_products", '{"query": "socks"}').value == "found socks"
    unknown = app.execute(Store(), "find", '{"query": "socks"}')
    assert not unknown.success and "search_products" in unknown.message()
    assert openai.tools(app)[0]["function"]["name"] == "search_products"
    assert mcp.tools(app)[0]["name"] == "search_products"

    @llm_application
    class Clash:
        def find(self, query: str) -> str:
            """Find.

            @name search
            """
            return query

        def search(self, query: str) -> str:
            """Search."""
            return query

        def bad(self) -> str:
            """Bad.

            @name not a name!
            """
            return ""

    try:
        application(Clash)
    except LlmApplicationError as error:
        text = str(error)
    else:
        raise AssertionError("the clash and the bad name must be build errors")
    assert "Clash.bad: invalid @name 'not a name!'" in text
    assert "the function name 'search' is also the name of" in text
