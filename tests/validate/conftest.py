"""Validator test helpers: ``compile`` records each validator so a failing test shows its source."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from llmapp.validate import Validator, validator

_SHOWN_LINES = 400


@pytest.fixture
def compile(request: pytest.FixtureRequest) -> Iterator[Callable[..., Validator]]:
    """``compile(schema, **options)`` -> Validator; its generated source is printed if the test fails."""
    made: list[Validator] = []

    def build(schema: Mapping[str, Any] | bool, **options: Any) -> Validator:
        compiled = validator(schema, **options)
        made.append(compiled)
        return compiled

    request.node._llmapp_validators = made
    yield build


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    made = getattr(item, "_llmapp_validators", None)
    if report.when == "call" and report.failed and made:
        for index, compiled in enumerate(made[-3:]):
            lines = compiled.source.splitlines()
            shown = "\n".join(lines[:_SHOWN_LINES])
            more = (
                f"\n... ({len(lines) - _SHOWN_LINES} more lines)"
                if len(lines) > _SHOWN_LINES
                else ""
            )
            report.sections.append(
                (f"generated validator source {index} ({compiled.filename})", shown + more)
            )


_COUNTS = pytest.StashKey[Counter[str]]()


@pytest.fixture(scope="session")
def conformance_counts(pytestconfig: pytest.Config) -> Counter[str]:
    """Counts of the JSON-Schema-Test-Suite run, printed in the terminal summary."""
    return pytestconfig.stash.setdefault(_COUNTS, Counter())


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    counts = config.stash.get(_COUNTS, None)
    if counts:
        terminalreporter.section("JSON-Schema-Test-Suite")
        for key, value in sorted(counts.items()):
            terminalreporter.write_line(f"{key}: {value}")
