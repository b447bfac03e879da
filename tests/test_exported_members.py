"""The public surface: every name in ``llmapp.__all__`` exists, the list is sorted and complete."""

from __future__ import annotations

import subprocess
import sys

import llmapp

CONTRACT = {
    "llm_application",
    "application",
    "LlmApplication",
    "LlmFunction",
    "Separated",
    "Validation",
    "ValidationSuccess",
    "ValidationFailure",
    "ValidationIssue",
    "LlmApplicationError",
    "CallResult",
    "validator",
    "parse",
    "coerce",
    "feedback",
    "merge_parameters",
}


def test_all_is_unique_and_resolves():
    # The order itself is ruff's RUF022 (isort-style) check.
    assert len(set(llmapp.__all__)) == len(llmapp.__all__)
    for name in llmapp.__all__:
        assert hasattr(llmapp, name), name


def test_public_names_are_exported():
    public = {
        name
        for name, value in vars(llmapp).items()
        if not name.startswith("_") and getattr(value, "__module__", "").startswith("llmapp")
    }
    assert public <= set(llmapp.__all__)


def test_design_contract_names_are_exported():
    assert set(llmapp.__all__) >= CONTRACT


def test_schema_predicates_are_public():
    from llmapp import schema

    for name in (
        "is_string",
        "is_integer",
        "is_number",
        "is_boolean",
        "is_array",
        "is_object",
        "is_reference",
        "is_union",
        "is_null",
        "is_unknown",
        "is_file",
        "is_human",
    ):
        assert callable(getattr(schema, name))


def test_import_does_not_load_optional_dependencies():
    code = (
        "import sys, llmapp; heavy = [m for m in ('pydantic', 'httpx', 'mcp', 'yaml', 'docstring_parser') "
        "if m in sys.modules]; print(','.join(heavy))"
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert completed.stdout.strip() == ""


def test_building_schemas_does_not_load_the_validator_compiler():
    code = "\n".join(
        [
            "import sys, llmapp",
            "class Shop:",
            "    def search(self, query: str, limit: int = 10) -> list[str]:",
            "        '''Search the catalogue.'''",
            "        return []",
            "app = llmapp.application(Shop)",
            "assert app.functions[0].parameters['required'] == ['query']",
            "print('llmapp.validate._validator' in sys.modules)",
            "app.functions[0].validate({'query': 'socks'})",
            "print('llmapp.validate._validator' in sys.modules)",
        ]
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert completed.stdout.split() == ["False", "True"]


def test_building_schemas_leaves_optional_type_modules_unimported_until_the_code_uses_them():
    code = "\n".join(
        [
            "import sys, llmapp",
            "class Shop:",
            "    def search(self, query: str, data: bytes = b'ab') -> list[str]:",
            "        '''Search the catalogue.'''",
            "        return []",
            "llmapp.application(Shop).functions[0].parameters",
            "loaded = ('uuid', 'decimal', 'ipaddress', 'annotated_types')",
            "print(sorted(m for m in loaded if m in sys.modules))",
            "import uuid, decimal",
            "class Ledger:",
            "    def book(self, id: uuid.UUID, amount: decimal.Decimal = decimal.Decimal('1.5')) -> None:",
            "        '''Book an amount.'''",
            "properties = llmapp.application(Ledger).functions[0].parameters['properties']",
            "print(properties['id']['format'], properties['amount']['anyOf'][0]['format'],"
            " properties['amount']['default'])",
        ]
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert completed.stdout.splitlines() == ["[]", "uuid decimal 1.5"]


def test_no_public_name_is_also_a_subpackage():
    # Importing a subpackage sets it as an attribute of its parent: a public name and a
    # subpackage of the same name would make the name stop being the function.
    import pkgutil

    subpackages = {module.name for module in pkgutil.iter_modules(llmapp.__path__)}
    assert not subpackages & set(llmapp.__all__)


def test_every_public_name_still_works_after_an_execute():
    code = "\n".join(
        [
            "import llmapp",
            "class Shop:",
            "    def search(self, query: str) -> list[str]:",
            "        '''Search the catalogue.'''",
            "        return [query]",
            "app = llmapp.application(Shop)",
            "failed = app.execute(Shop(), 'search', {'query': 3})",
            "assert not failed.success",
            "assert app.execute(Shop(), 'search', {'query': 'a'}).data == ['a']",
            "for name in llmapp.__all__:",
            "    assert getattr(llmapp, name) is not None, name",
            "text = llmapp.feedback(failed.validation)",
            "assert '$input.query' in text",
            "print(llmapp.parse('{\"a\": 1,}').data, llmapp.coerce({'n': '3'}, "
            "{'properties': {'n': {'type': 'integer'}}}), llmapp.validator({'type': 'integer'})(1).success)",
        ]
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert completed.stdout.split() == ["{'a':", "1}", "{'n':", "3}", "True"]


def test_every_public_exception_is_importable_from_llmapp_and_is_an_llmapp_error() -> None:
    names = [
        "SchemaError",
        "HttpError",
        "ArgumentError",
        "DocumentError",
        "McpToolError",
        "ConversionError",
        "ResponseError",
        "ExecutionError",
        "FeedbackError",
        "LlmApplicationError",
    ]
    for name in names:
        assert name in llmapp.__all__
        error = getattr(llmapp, name)
        assert issubclass(error, llmapp.LlmappError), name
        assert error.__name__ in (llmapp._errors.__doc__ or ""), name


def test_every_exception_lives_in_one_module() -> None:
    import llmapp._errors

    for name in llmapp._errors.__all__:
        value = getattr(llmapp._errors, name)
        if isinstance(value, type) and issubclass(value, BaseException):
            assert value.__module__ == "llmapp._errors", name
            assert getattr(llmapp, name) is value
    exceptions = {
        name
        for name in llmapp.__all__
        if isinstance(getattr(llmapp, name), type)
        and issubclass(getattr(llmapp, name), BaseException)
    }
    assert exceptions <= set(llmapp._errors.__all__)
    assert llmapp.validate.SchemaError is llmapp.SchemaError


def test_streaming_is_exported():
    from llmapp.streaming import ArgumentStream, stream

    assert llmapp.stream is stream and llmapp.ArgumentStream is ArgumentStream


def test_tool_search_names_are_exported_and_load_on_first_use():
    # ``import llmapp`` loads no search code; the first use of a name loads its module.
    code = "\n".join(
        [
            "import sys, llmapp",
            "print('llmapp.search._index' in sys.modules)",
            "print(llmapp.SearchIndex.__module__, llmapp.ToolSearch.__module__)",
            "print(llmapp.EmbeddingRanker is llmapp.search.EmbeddingRanker)",
        ]
    )
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert completed.stdout.splitlines() == [
        "False",
        "llmapp.search._index llmapp.search._tool",
        "True",
    ]
