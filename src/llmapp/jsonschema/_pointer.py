"""JSON pointers (RFC 6901): tokens, escaping and lookup in a document."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from llmapp._sentinels import MISSING

__all__ = [
    "escape_token",
    "normal_fragment",
    "percent_decoded",
    "pointer_from",
    "pointer_tokens",
    "resolve_pointer",
    "unescape_token",
]


def percent_decoded(text: str) -> str:
    """``urllib.parse.unquote(text)``, importing ``urllib.parse`` only when there is a ``%``.

    ``urllib.parse`` imports ``ipaddress``; schemas whose references are plain local
    pointers are read (and applications built) without either.
    """
    if "%" not in text:
        return text
    from urllib.parse import unquote

    return unquote(text)


def normal_fragment(fragment: str) -> str:
    """One spelling for every way of writing a fragment that names the same target:
    percent-decoded first (``/%5Aonk`` -> ``/Zonk``, ``/%7E1`` -> ``/~1``), then a JSON
    pointer's tokens escaped only where they must be."""
    text = percent_decoded(fragment[1:] if fragment.startswith("#") else fragment)
    if not text.startswith("/"):
        return text  # empty, or an anchor's name
    return pointer_from(unescape_token(token) for token in text[1:].split("/"))


def escape_token(token: str) -> str:
    """One reference token as a pointer writes it (``a/b`` -> ``a~1b``)."""
    if "~" in token or "/" in token:
        return token.replace("~", "~0").replace("/", "~1")
    return token


def unescape_token(token: str) -> str:
    """One reference token as the document spells it (``a~1b`` -> ``a/b``)."""
    if "~" in token:
        return token.replace("~1", "/").replace("~0", "~")
    return token


def pointer_tokens(pointer: str, *, fragment: bool = False) -> list[str]:
    """The reference tokens of a pointer (``/a~1b/0`` -> ``["a/b", "0"]``).

    Args:
        pointer: ``""`` (the whole document) or text starting with ``/``; with
            ``fragment=True`` it may start with ``#`` and is percent-decoded first,
            as a URI fragment is.
        fragment: read the pointer as a URI fragment.

    Raises:
        ValueError: when the text is not a JSON pointer.
    """
    if fragment:
        pointer = percent_decoded(pointer[1:] if pointer.startswith("#") else pointer)
    if not pointer:
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"not a JSON pointer: {pointer!r}")
    return [unescape_token(token) for token in pointer[1:].split("/")]


def pointer_from(tokens: Iterable[str | int]) -> str:
    """The pointer of a list of tokens (``["a/b", 0]`` -> ``/a~1b/0``)."""
    return "".join("/" + escape_token(str(token)) for token in tokens)


def resolve_pointer(document: Any, pointer: str, *, fragment: bool = False) -> Any:
    """The value at ``pointer`` in ``document``, or ``MISSING`` when nothing is there.

    ``pointer`` may also be a local reference (``#/$defs/X``) with ``fragment=True``.
    Never raises.
    """
    try:
        tokens = pointer_tokens(pointer, fragment=fragment)
    except ValueError:
        return MISSING
    node = document
    for token in tokens:
        if isinstance(node, Mapping):
            if token not in node:
                return MISSING
            node = node[token]
        elif isinstance(node, (list, tuple)) and token.isdigit() and int(token) < len(node):
            if len(token) > 1 and token.startswith("0"):
                return MISSING
            node = node[int(token)]
        else:
            return MISSING
    return node
