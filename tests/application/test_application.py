"""The application as a whole: decorator, configuration, caching, determinism and build errors."""

from __future__ import annotations

import json

import pytest

from llmapp import LlmApplication, LlmApplicationError, application, llm_application


def test_decorator_returns_the_class_itself(shop_module):
    shop = shop_module.Shop
    assert isinstance(shop, type) and shop.__name__ == "Shop"
    assert shop().search("pan")[0].sku == "KT-310"


def test_application_is_cached_per_class_and_config(shop_module):
    first = application(shop_module.Shop)
    assert isinstance(first, LlmApplication)
    assert application(shop_module.Shop) is first
    assert application(shop_module.Shop, reference=False) is not first


def test_functions_of_the_example(shop_module):
    app = application(shop_module.Shop)
    assert [f.name for f in app.functions] == [
        "search",
        "create_order",
        "cancel_order",
        "attach_receipt",
        "track_order",
    ]
    search = app.function("search")
    assert search.description == "Search the catalogue by words in the product name."
    assert search.tags == ["catalog"]
    assert search.parameters["required"] == ["query"]
    assert search.parameters["additionalProperties"] is False
    assert search.parameters["properties"]["limit"]["default"] == 10
    assert search.parameters["properties"]["limit"]["minimum"] == 1
    assert search.output["type"] == "array"
    track = app.function("track_order")
    assert track.deprecated and "@" not in (track.description or "")
    assert app.function("nope") is None


def test_build_is_deterministic(shop_module):
    first = json.dumps(application(shop_module.Shop, strict=False).to_list())
    second = json.dumps(application(shop_module.Shop, reference=True, strict=False).to_list())
    assert first == second


def test_class_with_no_functions_is_an_error():
    class Empty:
        def _hidden(self) -> None: ...

    with pytest.raises(LlmApplicationError, match="Empty: the class has no public method"):
        application(Empty)


def test_every_problem_is_reported_at_once():
    class Broken:
        def a(self, *args: int) -> None:
            """A."""

        def b(self, value) -> None:  # type: ignore[no-untyped-def]
            """B."""

        def c(self, value: Missing) -> None:  # type: ignore[name-defined]  # noqa: F821
            """C."""

    with pytest.raises(LlmApplicationError) as caught:
        application(Broken)
    locations = [problem.location for problem in caught.value.problems]
    assert any(location.startswith("Broken.a") for location in locations)
    assert any(location.startswith("Broken.b") for location in locations)
    assert any(location.startswith("Broken.c") for location in locations)
    assert "Missing" in str(caught.value)


def test_keyword_config_overrides_the_decorator():
    @llm_application(reference=False)
    class Tool:
        def run(self, text: str) -> str:
            """Run."""
            return text

    assert application(Tool).config.reference is False
    assert application(Tool, reference=True).config.reference is True


def test_returns_text_describes_the_output():
    class Lines:
        def read(self, path: str) -> list[str]:
            """Read a file.

            Args:
                path: Where.

            Returns:
                The file's lines.
            """
            return []

        def write(self, path: str) -> None:
            """Write a file.

            @returns nothing at all
            """

    app = application(Lines)
    assert app.function("read").output == {
        "description": "The file's lines.",
        "type": "array",
        "items": {"type": "string"},
    }
    assert app.function("write").output is None


def test_the_signature_of_application_shows_every_default() -> None:
    import inspect

    import llmapp

    signature = inspect.signature(llmapp.application)
    assert "undefined" not in str(signature)
    for name in ("strict", "reference", "separate", "validate", "max_length"):
        assert signature.parameters[name].default is None, name
