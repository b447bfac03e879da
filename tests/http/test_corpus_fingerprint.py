"""Every corpus document converts to exactly what it converted to before the conversion
was made faster (issue 33): the functions (names, descriptions, schemas with their key
order, routes, normalised operations, the human split) and the errors, by default and
with ``strict=True``, compared as one digest per document.

``corpus_fingerprints.json`` was written by the code before the change
(``python -m tests.http.test_corpus_fingerprint`` rewrites it from the current tree: do
that only for a change meant to alter a conversion, and say so in its commit).
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.http.test_corpus import documents
from tests.support.budget import THOROUGH

from llmapp.http import application

FINGERPRINTS = Path(__file__).with_name("corpus_fingerprints.json")
FOLDERS = ("openapi", "samchon-openapi")


def fingerprint(path: Path, **config: Any) -> str:
    """A digest of everything ``application(path, **config)`` gives, in order."""
    app = application(path, **config)
    functions = [
        {
            **function.to_dict(),
            "summary": function.summary,
            "validation_parameters": function.validation_parameters,
            "route": repr(function.route()),
            "operation": function.operation(),
        }
        for function in app.functions
    ]
    errors = [[error.method, error.path, error.cause, list(error.messages)] for error in app.errors]
    data = {"functions": functions, "errors": errors, "servers": app.servers}
    text = json.dumps(data, default=repr, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def names(corpora: Path) -> dict[str, Path]:
    """Every corpus document by its name under ``corpora``."""
    return {
        path.relative_to(corpora).as_posix(): path
        for folder in FOLDERS
        for path in documents(corpora / folder)
    }


def fingerprints(corpora: Path, share: int = 1) -> dict[str, dict[str, str]]:
    """The fingerprints of one document in ``share``, from the first on."""
    return {
        name: {"default": fingerprint(path), "strict": fingerprint(path, strict=True)}
        for name, path in list(names(corpora).items())[::share]
    }


@pytest.mark.budgeted
def test_every_document_converts_as_before(corpus: Callable[..., Path]) -> None:
    """Every document under ``LLMAPP_THOROUGH=1``; by default every other one (the rest
    are converted by ``test_corpus.py`` in the same run)."""
    expected = json.loads(FINGERPRINTS.read_text(encoding="utf-8"))
    roots = [corpus(folder) for folder in FOLDERS]
    corpora = roots[0].parent
    assert sorted(names(corpora)) == sorted(expected), (
        "the corpus changed: rewrite the fingerprints"
    )
    seen = fingerprints(corpora, share=1 if THOROUGH else 2)
    changed = [name for name in seen if seen[name] != expected[name]]
    assert not changed, changed


if __name__ == "__main__":
    from tests.conftest import CORPORA

    if not CORPORA.is_dir():
        pytest.exit(f"corpus not found at {CORPORA}")
    FINGERPRINTS.write_text(json.dumps(fingerprints(CORPORA), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {FINGERPRINTS}", file=sys.stderr)
