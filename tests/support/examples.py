"""The Python examples of the README and the docs pages, as the tests run and type-check them.

Every ```` ```python ```` block is a program of its own: it imports what it uses and runs
from any folder, so a reader can paste it anywhere.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]

NEEDS_PYTHON_3_11 = {"fastmcp", "pydantic_ai", "langchain_core", "langchain", "langgraph"}
"""The frameworks whose extras carry ``python_version >= '3.11'`` (pyproject.toml)."""


class Example(NamedTuple):
    page: Path
    line: int
    source: str

    @property
    def name(self) -> str:
        """``README.md:32``: where the block starts, for test ids and messages."""
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    @property
    def module(self) -> str:
        """A module name for the block (mypy checks each as a file of its own)."""
        stem = re.sub(r"\W", "_", str(self.page.relative_to(ROOT).with_suffix("")))
        return f"example_{stem}_{self.line}".lower()


def examples(pages: list[Path] = PAGES) -> list[Example]:
    found = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M):
            found.append(Example(page, text.count("\n", 0, match.start()) + 2, match.group(1)))
    return found


def run(example: Example, folder: Path) -> dict[str, object]:
    """Run ``example`` as a program of its own in ``folder``; returns its globals.

    Skips (``pytest.skip``) an example whose framework is not installed on this Python
    (the extras that need 3.11 install nothing on 3.10).
    """
    import os
    import sys
    import types

    import pytest

    imported = set(re.findall(r"^(?:from|import) ([\w.]+)", example.source, re.M))
    local = {name for name in imported if name.split(".")[0] in {"examples", "tests"}}
    assert not local, f"{example.name} imports {local}: an example must run from any folder"
    module = types.ModuleType(example.module)  # dataclasses look their module up
    sys.modules[example.module] = module
    before = Path.cwd()
    configured = _logging_state()
    os.chdir(folder)
    try:
        exec(compile(example.source, example.name, "exec"), module.__dict__)
    except ModuleNotFoundError as missing:
        if missing.name not in NEEDS_PYTHON_3_11 or sys.version_info >= (3, 11):
            raise
        pytest.skip(f"{missing.name} needs Python 3.11 (the extra installs nothing on 3.10)")
    finally:
        os.chdir(before)
        del sys.modules[example.module]
        _restore_logging(configured)
    return module.__dict__


def _logging_state() -> dict[str, tuple[int, list[object], bool, bool]]:
    """Each logger's level, handlers, propagation and disabled flag: an example configures
    logging as the program it is would (``setLevel``), which must not outlive it in the
    test process (a later test of the call log would see no record)."""
    import logging

    loggers = [logging.getLogger(name) for name in list(logging.root.manager.loggerDict)]
    return {
        logger.name: (logger.level, list(logger.handlers), logger.propagate, logger.disabled)
        for logger in [logging.getLogger(), *loggers]
        if isinstance(logger, logging.Logger)
    }


def _restore_logging(state: dict[str, tuple[int, list[object], bool, bool]]) -> None:
    import logging

    for name in list(logging.root.manager.loggerDict):
        logger = logging.getLogger(name)
        if name not in state and name.split(".")[0] == "llmapp":
            logger.setLevel(logging.NOTSET)
    for name, (level, handlers, propagate, disabled) in state.items():
        logger = logging.getLogger() if name == "root" else logging.getLogger(name)
        logger.setLevel(level)
        logger.handlers[:] = handlers  # type: ignore[assignment]
        logger.propagate, logger.disabled = propagate, disabled
