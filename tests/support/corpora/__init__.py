"""Readers of the shared corpora (BFCL, MCP, OpenAPI, JSON-Schema-Test-Suite), value
generators and the jsonschema reference, for the tests under ``tests/corpora`` and
``tests/validate`` and for ``benchmarks.validator_differential``."""

from __future__ import annotations

import os
from pathlib import Path

_REPOSITORY = Path(__file__).resolve().parents[3]

CORPORA = (
    Path(os.environ["LLMAPP_CORPORA"])
    if os.environ.get("LLMAPP_CORPORA")
    else next(
        (
            folder / "shared" / "corpora"
            for folder in _REPOSITORY.parents
            if (folder / "shared" / "corpora").is_dir()
        ),
        _REPOSITORY.parent / "shared" / "corpora",
    )
)
"""``LLMAPP_CORPORA``, or ``../shared/corpora`` beside the repository or beside a folder
holding it (a git worktree)."""
