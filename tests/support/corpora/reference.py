"""The jsonschema side of the differential, and where it is corrected before comparing.

``reference_validator(schema)`` is jsonschema's validator for the draft the schema names (draft
2020-12 by default), with the ``REFERENCE_CORRECTIONS``. ``draft4_bounds`` rewrites draft-4
boolean ``exclusiveMinimum``/``exclusiveMaximum`` for the 2020-12 validator.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import jsonschema
from tests.support.corpora.walk import transform

_DRAFT4 = ("http://json-schema.org/draft-04/schema", "http://json-schema.org/draft-03/schema")


def draft4_bounds(schema: Any) -> Any:
    """The schema with draft-4 boolean ``exclusiveMinimum``/``exclusiveMaximum`` in 2020-12 form.

    ``{"minimum": 0, "exclusiveMinimum": true}`` (draft 4, OpenAPI 3.0; found in shopping.json
    although it is a 3.1 document) becomes ``{"exclusiveMinimum": 0}``. jsonschema's 2020-12
    validator would otherwise compare against ``True`` as the number 1; llmapp reads the draft-4
    meaning, which is what the schema's author meant.
    """
    return transform(schema, _draft4_bound)


def _draft4_bound(schema: dict[str, Any]) -> dict[str, Any]:
    out = dict(schema)
    for exclusive, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        flag = out.get(exclusive)
        if isinstance(flag, bool):
            del out[exclusive]
            if flag and bound in out:
                out[exclusive] = out.pop(bound)
    return out


def is_draft4(schema: Any) -> bool:
    return isinstance(schema, dict) and str(schema.get("$schema", "")).rstrip("#") in _DRAFT4


def _integral(checker: Any, instance: Any) -> bool:
    return jsonschema.Draft202012Validator.TYPE_CHECKER.is_type(instance, "integer")


def _exact(number: int | float) -> Fraction:
    return Fraction(number) if isinstance(number, int) else Fraction(repr(float(number)))


def _exact_multiple_of(validator: Any, divisor: Any, instance: Any, schema: Any) -> Iterator[Any]:
    if validator.is_type(instance, "number") and _exact(instance) % _exact(divisor) != 0:
        yield jsonschema.ValidationError(f"{instance!r} is not a multiple of {divisor!r}")


REFERENCE_CORRECTIONS: dict[str, str] = {
    "multipleOf": (
        "jsonschema divides floats in binary (1.9404 / 0.0001 = 19403.999999999996: refused; "
        "-2.7312000000000003 / 0.0001 = -27312.0: accepted). JSON numbers are decimals, and the "
        "spec asks whether the division gives an integer, so the reference divides exactly, "
        "reading a float as the decimal JSON writes for it (as llmapp does)"
    ),
    "integer (draft 4)": (
        "draft 4 says 3.0 is not an integer; llmapp reads it as one under every draft, by design "
        "(documented in llmapp.validate), so the draft-4 reference does too"
    ),
}
"""Where the jsonschema reference is changed before comparing, and why."""


def reference_validator(schema: Any) -> Any:
    """jsonschema's validator for a schema (the class its ``$schema`` names, else draft 2020-12),
    with the ``REFERENCE_CORRECTIONS``."""
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    type_checker = cls.TYPE_CHECKER
    if is_draft4(schema):
        type_checker = type_checker.redefine("integer", _integral)
    corrected = jsonschema.validators.extend(
        cls, validators={"multipleOf": _exact_multiple_of}, type_checker=type_checker
    )
    return corrected(schema)
