"""Schema patterns (ECMA-262, JSON Schema's dialect) matched at bounded cost.

``ecma`` translates a pattern for RE2, ``regex`` or ``re``; ``linear`` tells which
patterns ``re`` provably matches in linear time; ``matching`` compiles each pattern once
with the engine that bounds it and matches with a time limit.
"""
