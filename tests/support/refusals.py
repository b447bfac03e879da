"""Every refusal the generated corpus's tools give, as a digest per tool, for a golden test.

For each of the corpus's signatures (``benchmarks.corpus``), ``execute`` is called on its
texts with mistakes and on texts made from its valid one at each top-level key (the value
replaced by an object, a number written as text, a null, an empty list; the key left
out; an extra key; the whole arguments an array), and every field of each result that a
refusal fills (success, feedback, each issue's path, expected, value and description,
repairs, name, deprecated) is written into one digest per tool. The digests of the code
before the refusal path was made cheaper (issue 33's fourth round) are kept in
``tests/application/golden/refusals.json``; regenerate them from a tree with::

    PYTHONPATH=TREE/src:. python -m tests.support.refusals > tests/application/golden/refusals.json
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterator
from typing import Any

from benchmarks.corpus import Corpus, generate

from llmapp import application


def texts(corpus: Corpus, name: str) -> Iterator[tuple[str, str]]:
    """The tool's texts with mistakes, by label: the corpus's own and those made here."""
    case = next(case for case in corpus.cases if case.name == name)
    yield "1 mistake", case.texts["1 mistake"]
    yield "3 mistakes", case.texts["3 mistakes"]
    valid = json.loads(case.texts["valid"])
    for key in valid:
        for label, wrong in (("object", {"wrong": True}), ("text", "3"), ("null", None)):
            yield f"{key}: {label}", json.dumps({**valid, key: wrong})
        yield f"{key}: empty list", json.dumps({**valid, key: []})
        yield f"{key}: left out", json.dumps({k: v for k, v in valid.items() if k != key})
    yield "extra key", json.dumps({**valid, "zz extra": [1, "two"]})
    yield "array", json.dumps([valid])


def every_text(corpus: Corpus) -> Iterator[tuple[str, str, str]]:
    """Every signature's valid text and its texts with mistakes (``texts``), as
    ``(name, label, text)``."""
    for case in corpus.cases:
        yield case.name, "valid", case.texts["valid"]
        for label, text in texts(corpus, case.name):
            yield case.name, label, text


def leaves(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every number and boolean of a value, by its place, in document order."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, (*at, index))
    elif isinstance(value, (int, float)):
        yield at, value


def written_as_text(data: Any, at: tuple[Any, ...], leaf: Any) -> Any:
    """``data`` with the value at ``at`` written as JSON text (``3`` as ``"3"``)."""
    if not at:
        return json.dumps(leaf)
    copy = list(data) if isinstance(data, list) else dict(data)
    copy[at[0]] = written_as_text(data[at[0]], at[1:], leaf)
    return copy


def record(result: Any) -> list[Any]:
    """What a result says, as JSON-ready data (an issue's value by its ``repr``)."""
    issues = None
    if result.validation is not None:
        issues = [
            [issue.path, issue.expected, repr(issue.value), issue.description]
            for issue in result.validation.errors
        ]
    return [
        result.name,
        result.success,
        result.feedback,
        issues,
        list(result.repairs),
        result.deprecated,
        repr(result.value) if result.success else None,
    ]


def digests(corpus: Corpus | None = None) -> dict[str, str]:
    """A digest of every result of every tool's texts, by tool."""
    corpus = corpus or generate()
    app, tools = application(corpus.tools), corpus.tools()
    found = {}
    for case in corpus.cases:
        made = [
            [label, record(app.execute(tools, case.name, text))]
            for label, text in texts(corpus, case.name)
        ]
        written = json.dumps(made, ensure_ascii=False, sort_keys=True)
        found[case.name] = hashlib.sha256(written.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return found


if __name__ == "__main__":
    json.dump(digests(), sys.stdout, indent=0, sort_keys=True)
    sys.stdout.write("\n")
