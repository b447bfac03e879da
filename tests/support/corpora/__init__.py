"""Readers of the shared corpora (BFCL, MCP, OpenAPI, JSON-Schema-Test-Suite), value
generators and the jsonschema reference, for the tests under ``tests/corpora`` and
``tests/validate`` and for ``benchmarks.validator_differential``."""
