"""Child of ``validator_differential``: judge values with whichever llmapp is importable.

Run as ``python benchmarks/_verdicts.py IN OUT`` with ``PYTHONPATH`` pointing at one
``src/`` tree. ``IN`` is a pickle of ``[(schema id, schema, [values])]``; ``OUT``
receives, per schema id, either ``("schema-error", [problem texts])`` or the list of
outcomes of its values, each ``(success, [(path, expected, repr(value), description)])``.
Imports nothing but the standard library and ``llmapp``, so it runs against any commit.
"""

from __future__ import annotations

import pickle
import sys
from typing import Any


def outcomes(entries: list[tuple[str, Any, list[Any]]]) -> dict[str, Any]:
    from llmapp.validate import SchemaError, validator

    found: dict[str, Any] = {}
    for schema_id, schema, values in entries:
        try:
            compiled = validator(schema)
        except SchemaError as error:
            found[schema_id] = ("schema-error", [str(problem) for problem in error.problems])
            continue
        judged = []
        for value in values:
            result = compiled(value)
            issues = [] if result.success else result.errors
            judged.append(
                (
                    result.success,
                    [(i.path, i.expected, repr(i.value), i.description) for i in issues],
                )
            )
        found[schema_id] = judged
    return found


def main() -> None:
    source, target = sys.argv[1], sys.argv[2]
    with open(source, "rb") as file:
        entries = pickle.load(file)
    import llmapp

    result = {"llmapp": llmapp.__file__, "outcomes": outcomes(entries)}
    with open(target, "wb") as file:
        pickle.dump(result, file)


if __name__ == "__main__":
    main()
