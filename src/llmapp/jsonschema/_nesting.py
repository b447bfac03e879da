"""How deeply foreign JSON nests: the bound on it and the test of it (``MAX_NESTING`` and
``too_deep``, kept with every other bound in ``llmapp._limits``), and copies that cost no
stack.

A document or a tool list comes from a third party, and every stage after intake
(normalising, rewriting OpenAPI keywords, indexing references, generating validators,
the vendor exports) walks schemas by recursion. So ``normalise``, the intake of every
foreign schema, first cuts whatever nests more than ``MAX_NESTING`` containers deep
(objects and arrays, schema or not) and reports each cut with its pointer; the stages
after it then never run out of stack. The bound is twice the validator's
``MAX_SCHEMA_DEPTH`` (100 levels of subschemas, each ``properties`` level being two
containers), so nothing the validator would accept is cut.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from llmapp._limits import MAX_NESTING, too_deep

from ._pointer import escape_token

__all__ = ["MAX_NESTING", "copy_json", "pruned", "too_deep"]


def copy_json(value: Any) -> Any:
    """A copy of the mappings (as dicts) and lists (tuples too, as lists) of ``value``,
    the rest shared, without recursion (the model's data, as deep as a reader let it be,
    is copied too)."""
    if not isinstance(value, (Mapping, list, tuple)):
        return value  # most values merged are scalars: no walk to set up
    return _copy(value, None)[0]


def _copy(value: Any, limit: int | None) -> tuple[Any, list[str]]:
    """A copy of the dicts and lists of ``value``; past ``limit`` levels, each container
    is ``{}`` and its pointer listed (without a limit, nothing is cut)."""
    if not isinstance(value, (Mapping, list, tuple)):
        return value, []
    cuts: list[str] = []
    root: Any = {} if isinstance(value, Mapping) else []
    pending: list[tuple[Any, Any, str, int]] = [(value, root, "", 1)]
    while pending:
        source, target, pointer, depth = pending.pop()
        items = source.items() if isinstance(source, Mapping) else enumerate(source)
        for key, item in items:
            copied = item
            if isinstance(item, (Mapping, list, tuple)):
                where = f"{pointer}/{escape_token(str(key))}" if limit is not None else ""
                if limit is not None and depth >= limit:
                    copied = {}
                    cuts.append(where)
                else:
                    copied = {} if isinstance(item, Mapping) else []
                    pending.append((item, copied, where, depth + 1))
            if isinstance(target, dict):
                target[key] = copied
            else:
                target.append(copied)
    return root, sorted(cuts)


def pruned(value: Any, limit: int = MAX_NESTING) -> tuple[Any, list[str]]:
    """``value`` itself when it nests at most ``limit`` containers deep; else a copy in
    which each container deeper than that is ``{}``, and the JSON pointer of each cut."""
    if not too_deep(value, limit):
        return value, []
    return _copy(value, limit)
