"""llmapp's benchmark suite: ``python -m benchmarks [--quick] [--json out.json] [--only ...]``.

See ``benchmarks/README.md`` for what each table measures.
"""
