"""``llmapp schema MODULE:CLASS --vendor NAME [--strict]`` prints exactly what ``tools()`` returns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llmapp import application
from llmapp._cli import VENDORS, load_class, main
from llmapp.vendors import anthropic, gemini, openai

SHOP = str(Path(__file__).resolve().parents[2] / "examples" / "shop.py") + ":Shop"


def expected(vendor: str, strict: bool) -> object:
    app = application(load_class(SHOP))
    exports = {
        "openai": lambda: openai.tools(app, strict=strict),
        "openai-responses": lambda: openai.tools(app, strict=strict, api="responses"),
        "anthropic": lambda: anthropic.tools(app, strict=strict),
        "gemini": lambda: gemini.tools(app, strict=strict),
        "gemini-openapi": lambda: gemini.tools(app, strict=strict, schema="openapi"),
    }
    if vendor == "mcp":
        from llmapp.vendors import mcp

        return mcp.tools(app, strict=strict)
    return exports[vendor]()


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize("vendor", sorted(VENDORS))
def test_vendor_option_prints_tools(
    vendor: str, strict: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["schema", SHOP, "--vendor", vendor] + (["--strict"] if strict else [])
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) == expected(vendor, strict)


def test_unknown_vendor_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["schema", SHOP, "--vendor", "mistral"])
    assert "invalid choice" in capsys.readouterr().err


def test_a_strict_export_that_fails_is_reported(
    load: object, capsys: pytest.CaptureFixture[str]
) -> None:
    module = load(  # type: ignore[operator]
        "llmapp_cli_vendor_free_keys",
        """
        class Notes:
            def keep(self, labels: dict[str, str]) -> None:
                '''Keep labels.'''
        """,
    )
    target = f"{module.__file__}:Notes"
    assert main(["schema", target, "--vendor", "openai", "--strict"]) == 1
    assert "Notes.keep.labels: free-form keys" in capsys.readouterr().err
