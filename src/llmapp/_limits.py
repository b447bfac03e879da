"""Every bound on how deep and how large what llmapp reads and writes may be, each with
why; ``too_deep``, the one test of how deeply a value nests; ``cut``, the one way a text
is shortened.

Third parties write what llmapp walks: the model writes arguments, servers write tool
lists, anyone writes an OpenAPI document. Each bound below keeps one walk's time or
stack bounded whatever they write. A module applying a bound imports it by this name;
the public ones keep their addresses (``llmapp.repair.MAX_DEPTH``,
``llmapp.jsonschema.MAX_NESTING``) as re-exports.

Not here: a vendor's own rules (OpenAI's ten levels of objects, Anthropic's twenty
strict tools), stated by that vendor's module with its other rules; the run controls
(timeouts, ``max_length`` per application), which are the kernel's; and how much of a
value a message shows (``explain``'s 200 characters a string, the kernel's cut of a
wrong function name, of an exception's text, of a logged refusal), which its module's
docstring describes as part of the message's form.

A leaf: it imports nothing of llmapp, so every stage may read it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

__all__ = [
    "MAX_ALIAS_NODES",
    "MAX_BODY",
    "MAX_BUNDLED_TARGETS",
    "MAX_COERCE_DEPTH",
    "MAX_COMPARED_NAMES",
    "MAX_DECISIVE_DEPTH",
    "MAX_DEPTH",
    "MAX_DIGITS",
    "MAX_DISCRIMINATOR_PARTS",
    "MAX_DOCUMENT_BYTES",
    "MAX_EQUALITY_DEPTH",
    "MAX_INDEXED_DEPTH",
    "MAX_INDEXED_PARTS",
    "MAX_INDEXED_TEXT",
    "MAX_ISSUES_PER_PATH",
    "MAX_JSON_DEPTH",
    "MAX_LENGTH",
    "MAX_MASKED_LEVELS",
    "MAX_MASKED_TEXT",
    "MAX_MASKED_VALUES",
    "MAX_MCP_NESTING",
    "MAX_MERGE_HOPS",
    "MAX_NESTING",
    "MAX_NOTED_TEXTS",
    "MAX_PATTERN",
    "MAX_REF_DEPTH",
    "MAX_REF_HOPS",
    "MAX_RESULT_ITEMS",
    "MAX_SCHEMA_DEPTH",
    "MAX_SHOWN_DEPTH",
    "MAX_STREAM_CHILDREN",
    "MAX_STREAM_HOPS",
    "MAX_UNFOLDED",
    "cut",
    "too_deep",
]

# -- the model's text and data -------------------------------------------------------------

MAX_LENGTH: Final = 100_000
"""The default most characters ``parse`` (and an application) reads: it bounds the CPU
one call's tolerant reading may take, which grows with the text."""

MAX_DEPTH: Final = 512
"""The default most levels of nested objects and arrays ``parse`` reads (a streamed call
stops there too, and the HTTP door refuses data past it)."""

MAX_COERCE_DEPTH: Final = 128
"""Levels of the model's data ``coerce`` repairs, by recursion: below it, the rest is
returned unchanged."""

MAX_EQUALITY_DEPTH: Final = 256
"""Levels ``enum``/``const``/``uniqueItems`` equality compares, by recursion: deeper
values compare by identity."""

MAX_MERGE_HOPS: Final = 64
"""Most references and ``Optional`` wrappers followed to reach one node's object or array
when the human's side is merged in."""

MAX_STREAM_HOPS: Final = 32
"""Most ``$ref``s followed to find a streamed value's subschema."""

MAX_STREAM_CHILDREN: Final = 1_000
"""Most positions one streamed subschema keeps for its children (keys, items)."""

MAX_ISSUES_PER_PATH: Final = 16
"""Most issues one path keeps; the rest are counted in one more issue there (a value
refused by many branches would otherwise list every one)."""

MAX_NOTED_TEXTS: Final = 4096
"""Texts a pattern check gave up on (timed out, not checked) remembered until a walk
explains their issues."""

MAX_COMPARED_NAMES: Final = 2_000
"""Most function names a wrong name is compared with to suggest close ones (of its first
letter, past this many functions): a model's wrong name costs a bounded search."""

MAX_MCP_NESTING: Final = 190
"""Most levels of objects and arrays in the arguments an MCP call sends. The SDK's client
cannot write a message past about 250 levels, and its server (pydantic-core's reader)
drops one past 200 unanswered, the JSON-RPC envelope holding the arguments three levels
down."""

# -- values written back -------------------------------------------------------------------

MAX_JSON_DEPTH: Final = 200
"""Containers a return value nests deeper than this are cut short when made JSON-ready
(Python's own stack would be next)."""

MAX_DIGITS: Final = 20_000
"""Most digits of a huge integer written out (converting digits costs quadratic time)."""

MAX_SHOWN_DEPTH: Final = 32
"""Levels of the model's arguments the feedback text writes out; deeper containers are
shown as ``{…}``/``[…]``."""

MAX_RESULT_ITEMS: Final = 1_000_000
"""Most items an iterator a method returns for a declared array is read into: a generator
that never ends fails the call instead of filling memory."""

# -- what the model must not read ----------------------------------------------------------

MAX_MASKED_VALUES: Final = 1_000
"""Most values the masker collects from what it keeps out of the model's texts."""

MAX_MASKED_LEVELS: Final = 32
"""Most levels of containers and objects the masker looks into for such values."""

MAX_MASKED_TEXT: Final = 4_096
"""Most characters of a long value, and of each of its forms, the masker indexes (its
start) to mask any part of it."""

# -- schemas -------------------------------------------------------------------------------

MAX_NESTING: Final = 200
"""Most levels of nested objects and arrays in one foreign schema: ``normalise`` cuts the
rest, so the stages after it never run out of stack. Twice ``MAX_SCHEMA_DEPTH`` (each
``properties`` level is two containers), so nothing the validator accepts is cut."""

MAX_SCHEMA_DEPTH: Final = 100
"""Most levels of nested subschemas ``validator()`` compiles, and of nesting inside one
``enum``/``const`` value (the generator writes them as nested code)."""

MAX_REF_HOPS: Final = 500
"""Most ``$ref``s one chain of references may follow, in every stage; one more is a
reference that cannot be followed."""

MAX_REF_DEPTH: Final = MAX_REF_HOPS
"""Most ``$ref``s one chain of subschemas may follow (recursion excepted): each is a call
when a value is checked, and a valid value must not run out of stack. The same number
as ``MAX_REF_HOPS``, so a chain the resolver follows is one the validator compiles."""

MAX_UNFOLDED: Final = 100_000
"""Most subschemas checking one value may apply, every ``$ref`` followed (recursion
counted once where it is named): a value's check costs at most this many steps per place
in the value. The largest operation of the OpenAPI corpora applies under 200."""

MAX_PATTERN: Final = 1000
"""Longest translated pattern given to ``re`` (its compile time grows with the text)."""

MAX_DISCRIMINATOR_PARTS: Final = 16
"""Most schemas (a branch, what its ``$ref`` names, its ``allOf`` members) read to find
one branch's discriminating value."""

MAX_INDEXED_DEPTH: Final = 2
"""Levels of nested objects whose property names and descriptions the search index reads:
deeper words describe details, not what a function is for."""

MAX_INDEXED_TEXT: Final = 2_000
"""Most characters of one text read into the search index (a description, a parameter's)."""

MAX_INDEXED_PARTS: Final = 64
"""Most parameter names and descriptions the index reads of one function: with
``MAX_INDEXED_TEXT``, indexing a function costs a bounded time whatever its schema holds."""

MAX_DECISIVE_DEPTH: Final = 16
"""Levels of references and union branches followed to find whether a parameter takes
only scalars (shown first and whole in an approval question)."""

# -- documents and responses ---------------------------------------------------------------

MAX_DOCUMENT_BYTES: Final = 64 * 1024 * 1024
"""Most bytes read for one document: its own file, every file it references and every
target it copies from them, together."""

MAX_BUNDLED_TARGETS: Final = 10_000
"""Most targets in other files one document brings in (each becomes a definition)."""

MAX_ALIAS_NODES: Final = 100_000
"""Most values all the YAML aliases of one document may add to it, once expanded."""

MAX_BODY: Final = 4 * 1024 * 1024
"""Most bytes of a decoded response body read, by default."""


def too_deep(value: Any, limit: int) -> bool:
    """Whether ``value`` nests more than ``limit`` containers (mappings, lists, tuples)
    deep; an empty container past the limit does not count (it is what a cut leaves).

    Iterative, and linear in the value's size times the limit however it shares or loops:
    a container is walked again only when reached at a deeper level than before, so a
    shared one costs once per depth and a cyclic ``dict`` is too deep at some point.
    """
    if type(value) in _SCALARS:
        return False
    explored: dict[int, int] = {}  # id -> the deepest depth it was walked from
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        node, depth = pending.pop()
        if not isinstance(node, (Mapping, list, tuple)) or not node:
            continue
        if depth > limit:
            return True
        if explored.get(id(node), 0) >= depth:
            continue  # walked from here or deeper: nothing below is deeper this time
        explored[id(node)] = depth
        items = node.values() if isinstance(node, Mapping) else node
        pending.extend((item, depth + 1) for item in items if type(item) not in _SCALARS)
    return False


_SCALARS = frozenset((str, int, float, bool, type(None)))


def cut(
    text: str, most: int, *, within: bool = False, quote: Callable[[str], str] | None = None
) -> str:
    """``text`` when it has at most ``most`` characters, else its first ``most`` and "…".

    A message that says how much it left out writes its own count after the kept text
    (a server's answer: ``… (cut: N characters in all, <where the bound is set>)``; an
    approval question: ``… [cut: N of M characters not shown]``): what it counts, and
    when it is cut (an answer by its length before masking), are that message's form.

    Args:
        text: the text.
        most: the characters kept.
        within: the whole answer within ``most`` characters, "…" included and no blank
            before it (a field a vendor bounds, a one-line summary).
        quote: how the kept text is written (``json.dumps`` for a quoted piece of the
            model's text): "…" follows the quotes, so it never reads as the model's own.

    Example::

        >>> cut("a long description", 6)
        'a long…'
        >>> cut("a long description", 6, within=True)
        'a lon…'
    """
    if len(text) <= most:
        return text if quote is None else quote(text)
    kept = text[: most - 1].rstrip() if within else text[:most]
    return (kept if quote is None else quote(kept)) + "…"
