"""The official JSON-Schema-Test-Suite (draft 2020-12 and draft 4) against ``llmapp.validator``.

Every group of every file runs, except what ``EXCLUDED`` lists (the one place where
left-out keywords and deliberate differences are written down, each with its reason).
Each case checks the verdict of the full call, of ``is_valid`` and, for invalid data,
that at least one issue is reported. The counts are printed in the terminal summary.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.support.corpora import CORPORA

from llmapp.validate import SchemaError, validator

SUITE = CORPORA / "json-schema-test-suite"
DRAFTS = ("draft2020-12", "draft4")
DRAFT4_DIALECT = "http://json-schema.org/draft-04/schema#"

_REMOTE = "refs to other documents (remote refs, the meta-schemas) are not fetched: SchemaError"
_ANNOTATION_FORMATS = (
    "llmapp asserts formats (the LLM must get them right); the suite's default is annotation-only"
)
_UNKNOWN_FORMAT = "format not implemented (unknown formats are accepted as annotations)"

EXCLUDED: dict[tuple[str, ...], str] = {
    # (draft, file) excludes a whole file; (draft, file, group) a group; (..., case) one case.
    ("draft2020-12", "dynamicRef.json"): "$dynamicRef is resolved statically like $ref",
    ("draft2020-12", "optional/dynamicRef.json"): "$dynamicRef is resolved statically like $ref",
    ("draft2020-12", "unevaluatedItems.json"): "unevaluatedItems is not supported (ignored)",
    (
        "draft2020-12",
        "unevaluatedProperties.json",
    ): "unevaluatedProperties is not supported (ignored)",
    ("draft2020-12", "refRemote.json"): _REMOTE,
    ("draft4", "refRemote.json"): _REMOTE,
    ("draft2020-12", "optional/cross-draft.json"): _REMOTE,
    ("draft2020-12", "defs.json", "validate definition against metaschema"): _REMOTE,
    ("draft4", "definitions.json", "validate definition against metaschema"): _REMOTE,
    ("draft2020-12", "ref.json", "remote ref, containing refs itself"): _REMOTE,
    ("draft4", "ref.json", "remote ref, containing refs itself"): _REMOTE,
    ("draft2020-12", "vocabulary.json"): "$vocabulary and custom meta-schemas are not read",
    ("draft2020-12", "optional/format-assertion.json"): "$vocabulary is not read",
    (
        "draft2020-12",
        "not.json",
        "collect annotations inside a 'not', even if collection is disabled",
    ): ("uses unevaluatedProperties"),
    ("draft2020-12", "ref.json", "ref creates new scope when adjacent to keywords"): (
        "uses unevaluatedProperties"
    ),
    ("draft4", "optional/zeroTerminatedFloats.json"): (
        "3.0 is an integer in llmapp (as in draft 6 and later), not in draft 4"
    ),
    ("draft2020-12", "optional/format/idn-hostname.json"): _UNKNOWN_FORMAT,
    ("draft2020-12", "optional/format/idn-email.json"): _UNKNOWN_FORMAT,
    ("draft2020-12", "optional/format/iri.json"): _UNKNOWN_FORMAT,
    ("draft2020-12", "optional/format/iri-reference.json"): _UNKNOWN_FORMAT,
    ("draft2020-12", "optional/format/uri-template.json"): _UNKNOWN_FORMAT,
}


_BY_CASE: list[tuple[str, str, str]] = [
    # (file, words in the case description, reason): cases excluded wherever they appear.
    ("format.json", "only an annotation by default", _ANNOTATION_FORMATS),
    (
        "content.json",
        "an invalid base64 string",
        (
            "contentEncoding base64 is asserted (bytes parameters must decode); the suite treats it "
            "as an annotation"
        ),
    ),
]


def _lookup(*key: str) -> str | None:
    for size in range(2, len(key) + 1):
        if key[:size] in EXCLUDED:
            return EXCLUDED[key[:size]]
    if len(key) == 4:
        for name, words, reason in _BY_CASE:
            if key[1] == name and words in key[3]:
                return reason
    return None


def _groups() -> Iterator[Any]:
    for draft in DRAFTS:
        folder = SUITE / "tests" / draft
        if not folder.exists():
            continue
        for path in sorted(folder.rglob("*.json")):
            name = path.relative_to(folder).as_posix()
            for group in json.loads(path.read_text(encoding="utf-8")):
                yield pytest.param(draft, name, group, id=f"{draft}/{name}/{group['description']}")


GROUPS = list(_groups())


def _schema_for(draft: str, schema: Any) -> Any:
    if draft == "draft4" and isinstance(schema, dict) and "$schema" not in schema:
        return {"$schema": DRAFT4_DIALECT, **schema}
    return schema


@pytest.mark.parametrize(("draft", "name", "group"), GROUPS)
def test_group(
    corpus: Callable[..., Path],
    compile: Callable[..., Any],
    conformance_counts: Counter[str],
    draft: str,
    name: str,
    group: dict[str, Any],
) -> None:
    corpus("json-schema-test-suite", "tests", draft)
    cases = group["tests"]
    if _lookup(draft, name, group["description"]) is not None:
        conformance_counts["excluded groups"] += 1
        conformance_counts["excluded cases"] += len(cases)
        pytest.skip(_lookup(draft, name, group["description"]))
    included = [
        case
        for case in cases
        if _lookup(draft, name, group["description"], case["description"]) is None
    ]
    conformance_counts["included groups"] += 1
    conformance_counts["included cases"] += len(included)
    conformance_counts["excluded cases"] += len(cases) - len(included)
    check = compile(_schema_for(draft, group["schema"]))
    wrong = []
    for case in included:
        result = check(case["data"])
        fast = check.is_valid(case["data"])
        if result.success != case["valid"] or fast != case["valid"]:
            wrong.append(
                f"{case['description']}: want {case['valid']}, got {result.success}/{fast}"
            )
        elif not result.success and not result.errors:
            wrong.append(f"{case['description']}: a failure without issues")
        else:
            conformance_counts["passed cases"] += 1
    assert not wrong, "\n".join(wrong)


def test_the_suite_is_present(corpus: Callable[..., Path]) -> None:
    root = corpus("json-schema-test-suite", "tests")
    assert (root / "draft2020-12" / "type.json").exists()
    assert len(GROUPS) > 600


def test_every_exclusion_names_something_real(corpus: Callable[..., Path]) -> None:
    corpus("json-schema-test-suite", "tests")
    known = {(draft, name) for draft, name, _ in (p.values for p in GROUPS)}
    known |= {
        (draft, name, group["description"]) for draft, name, group in (p.values for p in GROUPS)
    }
    for key in EXCLUDED:
        assert key[:3] in known or key[:2] in known, key


def test_remote_refs_are_a_schema_error() -> None:
    with pytest.raises(SchemaError) as raised:
        validator({"$ref": "http://localhost:1234/draft2020-12/integer.json"})
    assert raised.value.problems[0].location == "#/$ref"
