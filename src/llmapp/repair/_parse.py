"""Lenient reading of a model's argument text: strict JSON first, a tolerant reader on failure.

What the tolerant reader repairs, each recorded in ``Parsed.repairs``:

- a Markdown code fence around the JSON (with or without a language tag), text before the
  first ``{``/``[`` and text after the value;
- ``//``, ``/* */`` and ``#`` comments; a byte-order mark; invalid UTF-8 bytes;
- trailing, doubled and missing commas; missing colons;
- unclosed brackets and strings (truncated output), stray closing brackets;
- single-quoted strings, unquoted keys, bare words as values (``{"status": active}``);
- Python literals ``True``/``False``/``None``, ``undefined``, truncated ``tru``/``fals``/``nul``
  at the very end of the text;
- lenient numbers (``+1``, ``.5``, ``5.``, ``007``).

Decisions:

- Valid JSON takes the fast path (the standard decoder) and reports no repairs.
- ``NaN``, ``Infinity`` and ``-Infinity`` (and numbers too large for a float) are not JSON: they
  are read as ``null`` with a repair note, as JavaScript's ``JSON.stringify`` would write them.
  The validator then reports the ``null`` where a number was expected.
- A lone surrogate escape (``"\\ud800"``) is read as written, as ``json.loads`` reads it:
  no repair can know the character meant. ``lone_surrogates`` finds each one with its
  path, and the call step refuses such arguments with that feedback.
- Integers stay ``int`` (arbitrary size up to Python's digit limit); numbers with a fraction or
  exponent become ``float``.
- A key given without a value at the end of a truncated text is dropped (so the validator
  reports it missing), not set to ``null``.
- Text that ends inside a value (in a string, a literal, or with containers still open: a
  model that hit its token limit) is read and closed as far as it goes, and ``truncated``
  says where it was cut (``the text ends inside a string that was never closed at
  $input.body``). Such data is incomplete: ``execute`` refuses it rather than calling with it.
- Nesting deeper than ``max_depth`` containers or text longer than ``max_length`` characters
  is refused with ``error`` set; ``parse`` never raises and never evaluates the text.
  ``MAX_LENGTH``, the default, bounds the tolerant reader's work, which grows with the
  text (valid JSON goes through the standard decoder, far quicker).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from llmapp.repair import MAX_DEPTH, MAX_LENGTH
from llmapp.repair._reader import Notes, read_lenient

__all__ = ["Parsed", "Reading", "parse", "read_text"]

_CLOSING_FENCE = re.compile(r"^[ \t]*```", re.MULTILINE)
_FENCE = re.compile(r"```[ \t]*(?:[A-Za-z][\w+.#-]*(?=[\s{\[]))?[ \t]*\r?\n?")


@dataclass(frozen=True, slots=True)
class Parsed:
    """What ``parse`` read.

    Attributes:
        data: the value read, or ``None`` when nothing could be read.
        repairs: a human-readable note for each kind of repair made, in the order first met.
        error: why the text could not be read at all (``data`` is then ``None``).
        truncated: where the text was cut off inside a value, or ``None`` when it is
            whole; ``data`` then holds what was read, closed where the text ended.
    """

    data: Any
    repairs: tuple[str, ...]
    error: str | None = None
    truncated: str | None = None

    @property
    def success(self) -> bool:
        """True when a value was read (possibly with repairs)."""
        return self.error is None


def parse(
    text: str | bytes | bytearray, *, max_depth: int = MAX_DEPTH, max_length: int = MAX_LENGTH
) -> Parsed:
    """Read a model's raw argument text as JSON, repairing what models commonly get wrong.

    Args:
        text: the raw text (or UTF-8 bytes) the model produced.
        max_depth: most nested objects/arrays accepted.
        max_length: most characters (bytes for ``bytes``) accepted; the default bounds
            the cost of reading any text to well under a second.

    Returns:
        ``Parsed(data, repairs)``; ``repairs`` is empty when the text was valid JSON.
        When nothing can be read, ``Parsed(None, repairs, error=...)``. Never raises.

    Example:
        >>> parse('```json\\n{"a": 1,}\\n```').data
        {'a': 1}
    """
    return Parsed(*read_text(text, max_depth=max_depth, max_length=max_length))


Reading = tuple[Any, tuple[str, ...], str | None, str | None]
"""``Parsed``'s fields as a tuple: (data, repairs, error, truncated)."""


def read_text(
    text: str | bytes | bytearray, *, max_depth: int = MAX_DEPTH, max_length: int = MAX_LENGTH
) -> Reading:
    """``parse`` as a ``Reading`` tuple: what the call step uses, without a ``Parsed`` per call."""
    notes: Notes | None = None  # made only when a repair is noted: valid text needs none
    if not isinstance(text, str):
        if not isinstance(text, (bytes, bytearray)):
            return None, (), f"expected str or bytes, got {type(text).__name__}", None
        if len(text) > max_length:
            return _too_long(len(text), max_length)
        notes = Notes()
        text = _decode(bytes(text), notes)
    if len(text) > max_length:
        return _too_long(len(text), max_length)
    if text.startswith("\ufeff"):
        text, notes = text[1:], notes or Notes()
        notes.add("bom")
    try:
        data = _strict(text)
    except (ValueError, RecursionError, StopIteration):
        return _read_slowly(text, notes or Notes(), max_depth)
    repairs = () if notes is None else notes.render()
    deep = len(text) > 2 * max_depth and _may_nest_deeper(text, max_depth)
    if deep and _deeper_than(data, max_depth):
        return None, repairs, f"nesting deeper than {max_depth} levels", None
    return data, repairs, None, None


def _read_slowly(text: str, notes: Notes, max_depth: int) -> Reading:
    text = _unfence(text, notes)
    try:
        found = read_lenient(text, notes, max_depth)
    except Exception as exc:  # a bug in the reader must not break the caller's loop
        return None, notes.render(), f"internal error while reading: {exc!r}", None
    if found.error is not None:
        return None, notes.render(), found.error, None
    return found.value, notes.render(), None, found.cut


def _unfence(text: str, notes: Notes) -> str:
    """The body of the first Markdown code fence, when no JSON precedes the fence."""
    start = text.find("```")
    if start == -1 or "{" in text[:start] or "[" in text[:start]:
        return text
    opening = _FENCE.match(text, start)
    body_start = opening.end() if opening else start + 3
    closing = _CLOSING_FENCE.search(text, body_start)
    end = closing.start() if closing else text.rfind("```", body_start)
    notes.add("fence")
    if text[:start].strip():
        notes.add("prefix")
    if end == -1:
        return text[body_start:]
    if text[end + 3 :].strip():
        notes.add("suffix")
    return text[body_start:end]


def _decode(raw: bytes, notes: Notes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        notes.add("decode")
        return raw.decode("utf-8", "replace")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_float(written: str) -> float:
    value = float(written)
    if math.isinf(value):  # 1e999: the tolerant reader turns it into null with a note
        raise ValueError(f"{written} overflows a float")
    return value


# One decoder for every call: json.loads with options builds a new one each time.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=_finite_float)
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
_BLANK = " \t\n\r"  # JSON's whitespace


def _strict(text: str) -> Any:
    """``_DECODER.decode(text)``: JSON text with nothing but whitespace around one value.

    Its scanner is called directly: ``decode`` matches a whitespace regex on each side
    and adds two Python calls, most of the cost of reading a short text. It raises
    ``StopIteration`` where no value starts, ``ValueError`` for anything else amiss.
    """
    start = len(text) - len(text.lstrip(_BLANK)) if text[:1] in _BLANK else 0
    data, end = _SCAN(text, start)
    if end != len(text) and text[end:].strip(_BLANK):
        raise ValueError("extra data after the value")
    return data


def _too_long(length: int, max_length: int) -> Reading:
    return (
        None,
        (),
        f"the text has {length:,} characters, more than the {max_length:,} accepted",
        None,
    )


def _may_nest_deeper(text: str, max_depth: int) -> bool:
    """A fast bound: JSON with at most ``max_depth`` opening brackets cannot nest deeper
    (nor can text of at most twice as many characters: the caller tests that first)."""
    return text.count("{") + text.count("[") > max_depth


def _deeper_than(data: Any, max_depth: int) -> bool:
    """Whether parsed JSON nests containers more than ``max_depth`` deep, level by level."""
    level = [data] if isinstance(data, (dict, list)) else []
    for _ in range(max_depth):
        below: list[Any] = []
        for container in level:
            members = container.values() if isinstance(container, dict) else container
            below.extend(m for m in members if isinstance(m, (dict, list)))
        if not below:
            return False
        level = below
    return True
