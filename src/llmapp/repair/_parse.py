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

The line between a repair and a refusal: a repair that cannot change the meaning of what
the model wrote is made silently (noted in ``repairs``): a code fence and prose around it
that holds no ``{``, ``[`` or second fence, prose before the value, comments, trailing
commas, a doubled or missing comma between the members of an object, a missing colon
between a key and its value, single quotes, unquoted keys, bare words, ``True``/``False``/``None``,
``+1``/``.5``/``5.``, a byte-order mark, a raw control character or an unknown escape kept
as written. A repair that drops or invents part of what the model sent is made too, so
``data`` shows what could be read, but ``unread`` says what and where, and the call step
runs nothing: text after the value (a second value, a correction, prose), a value before
the JSON, a bracket closed by another kind, a closing bracket that closes nothing, a key
with no value, a key written twice in one object (JSON keeps the last value, and readers
that keep the first see another call), a comma with no item before it or two items with
no comma between them in an array, a character that is not JSON, ``1e`` (incomplete)
or ``010`` (a leading zero), ``NaN``, ``Infinity``, ``undefined`` and numbers too large
to read (read as ``null``), invalid UTF-8 bytes (replaced).

Decisions:

- Valid JSON takes the fast path (the standard decoder) and reports no repairs. A key
  written twice sends the text to the tolerant reader, which says where: the check is
  the decoder's ``object_pairs_hook``, which costs valid text less than any pre-scan.
  The call step's ``read_strict`` reads a text dense in keys without it, and proves by
  counting that no key was written twice (``_scan``); the hook reads it where that fails.
- ``NaN``, ``Infinity`` and ``-Infinity`` (and numbers too large for a float) are not JSON: they
  are read as ``null`` with a repair note, as JavaScript's ``JSON.stringify`` would write them,
  and ``unread`` names them: the call step runs no call with a ``null`` the model never wrote.
- A lone surrogate escape (``"\\ud800"``) is read as written, as ``json.loads`` reads it:
  no repair can know the character meant. ``lone_surrogates`` finds each one with its
  path, and the call step refuses such arguments with that feedback.
- Integers stay ``int`` (arbitrary size up to Python's digit limit); numbers with a fraction or
  exponent become ``float``.
- A value before the JSON (``'x' then {...}``) is skipped whole and named in ``unread``:
  a bracket inside it (``"{" then {...}``) is that value's, and the JSON starts at the
  first bracket after it (at the first one when none follows).
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
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from llmapp._limits import MAX_DEPTH, MAX_LENGTH
from llmapp._sentinels import MISSING
from llmapp.jsonschema import Path
from llmapp.repair._reader import Notes, quoted, read_lenient

__all__ = [
    "Parsed",
    "Reading",
    "distinct_keys",
    "parse",
    "read_strict",
    "read_text",
    "strict_json",
    "written_twice",
]

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
        unread: what of the text ``data`` does not hold as written (dropped or invented:
            text after the value, a bracket closed by another kind, ``1e``...) and where,
            the first such place; ``None`` when every repair kept the meaning. The call
            step refuses such a reading, as it refuses a truncated one.
    """

    data: Any
    repairs: tuple[str, ...]
    error: str | None = None
    truncated: str | None = None
    unread: str | None = None

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


Reading = tuple[Any, tuple[str, ...], str | None, str | None, str | None]
"""``Parsed``'s fields as a tuple: (data, repairs, error, truncated, unread)."""


def read_text(
    text: str | bytes | bytearray, *, max_depth: int = MAX_DEPTH, max_length: int = MAX_LENGTH
) -> Reading:
    """``parse`` as a ``Reading`` tuple: what the call step uses, without a ``Parsed`` per call."""
    notes: Notes | None = None  # made only when a repair is noted: valid text needs none
    unread: str | None = None
    if not isinstance(text, str):
        if not isinstance(text, (bytes, bytearray)):
            return None, (), f"expected str or bytes, got {type(text).__name__}", None, None
        if len(text) > max_length:
            return _too_long(len(text), max_length)
        notes = Notes()
        text, unread = _decode(bytes(text), notes)
    if len(text) > max_length:
        return _too_long(len(text), max_length)
    skipped = 0
    if text.startswith("\ufeff"):
        text, notes, skipped = text[1:], notes or Notes(), 1
        notes.add("bom")
    try:
        data = _strict(text)
    except (ValueError, RecursionError, StopIteration):
        return _read_slowly(text, notes or Notes(), max_depth, skipped, unread)
    repairs = () if notes is None else notes.render()
    deep = len(text) > 2 * max_depth and _may_nest_deeper(text, max_depth)
    if deep and _deeper_than(data, max_depth):
        return None, repairs, f"nesting deeper than {max_depth} levels", None, None
    return data, repairs, None, None, unread


def read_strict(text: str, max_length: int = MAX_LENGTH, max_depth: int = MAX_DEPTH) -> Any:
    """The data ``read_text`` reads from ``text`` when it notes nothing (no repair, no
    refusal): strict JSON within the bounds, without a ``Reading`` built; ``MISSING`` for
    any other text, which ``read_text`` then reads and explains."""
    size = len(text)
    if size > max_length or text[:1] == "\ufeff":
        return MISSING
    try:  # ``_strict``'s lines, without its call: this is every valid call's reading
        start = size - len(text.lstrip(_BLANK)) if text[:1] in _BLANK else 0
        if size < _FEW_CHARS:  # too short for ``_scan``'s proof to pay
            data, end = _SCAN(text, start)
            keys = 0
        else:
            data, end, keys = _scan(text, start)
        if end != size and text[end:].strip(_BLANK):
            return MISSING
    except (ValueError, RecursionError, StopIteration):
        return MISSING
    # Each container takes two brackets and each key two quotes and a colon, apart: a
    # text that holds ``keys`` keys has fewer characters left for brackets.
    deep = size - 3 * keys > 2 * max_depth and _may_nest_deeper(text, max_depth)
    return MISSING if deep and _deeper_than(data, max_depth) else data


def _read_slowly(
    text: str, notes: Notes, max_depth: int, skipped: int, unread: str | None
) -> Reading:
    body, offset, outside = _unfence(text, notes)
    try:
        found = read_lenient(body, notes, max_depth, skipped + offset)
    except Exception as exc:  # a bug in the reader must not break the caller's loop
        return None, notes.render(), f"internal error while reading: {exc!r}", None, None
    if found.error is not None:
        return None, notes.render(), found.error, None, None
    return found.value, notes.render(), None, found.cut, unread or found.unread or outside


def _unfence(text: str, notes: Notes) -> tuple[str, int, str | None]:
    """The body of the first Markdown code fence, when no JSON precedes the fence: the
    body, where it starts, and what after the fence may hold another value (or None)."""
    start = text.find("```")
    if start == -1 or "{" in text[:start] or "[" in text[:start]:
        return text, 0, None
    opening = _FENCE.match(text, start)
    body_start = opening.end() if opening else start + 3
    closing = _CLOSING_FENCE.search(text, body_start)
    end = closing.start() if closing else text.rfind("```", body_start)
    notes.add("fence")
    if text[:start].strip():
        notes.add("prefix")
    if end == -1:
        return text[body_start:], body_start, None
    after = text[end + 3 :]
    outside = None
    if after.strip():
        notes.add("suffix")
        # Prose after the fence is the model talking; a bracket or a second fence there
        # may be a second value (a correction, the real call), and no reading can choose.
        if "{" in after or "[" in after or "```" in after:
            outside = f"text after the code fence, from character {end + 4:,}: {quoted(after)}"
    return text[body_start:end], body_start, outside


def _decode(raw: bytes, notes: Notes) -> tuple[str, str | None]:
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as bad:
        notes.add("decode")
        where = f"bytes that are not UTF-8 from byte {bad.start + 1:,} (each read as \ufffd)"
        return raw.decode("utf-8", "replace"), where


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_float(written: str) -> float:
    value = float(written)
    if math.isinf(value):  # 1e999: the tolerant reader turns it into null with a note
        raise ValueError(f"{written} overflows a float")
    return value


def distinct_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's members as a dict; ``ValueError`` when a key is written twice.

    JSON keeps the last value, so the first would vanish unseen (and a reader that keeps
    the first would see another call): the tolerant reader then says where."""
    made = dict(pairs)
    if len(made) != len(pairs):
        raise ValueError("a key written twice")
    return made


# One decoder for every call: json.loads with options builds a new one each time.
_DECODER = json.JSONDecoder(
    object_pairs_hook=distinct_keys, parse_constant=_reject_constant, parse_float=_finite_float
)
_SCAN: Callable[[str, int], tuple[Any, int]] = _DECODER.scan_once  # type: ignore[attr-defined]
_BLANK = " \t\n\r"  # JSON's whitespace

# The scanner without the pairs hook, whose lists cost a valid text most of what the check
# of its keys costs: each object's dict is made directly and its size noted, one read at a
# time (the lock), for ``_scan`` to prove that no key was written twice.
_SIZES: list[int] = []
_SIZES_HELD = threading.Lock()


def _noted(made: dict[str, Any]) -> dict[str, Any]:
    _SIZES.append(len(made))
    return made


_SCAN_NOTED: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder(  # type: ignore[attr-defined]
    object_hook=_noted, parse_constant=_reject_constant, parse_float=_finite_float
).scan_once


def _scan(text: str, start: int) -> tuple[Any, int, int]:
    """``_SCAN(text, start)``: the same value, the same error, mostly without its hook; and
    how many keys the value's objects hold at least (0 when not counted).

    Every key written is a string followed by blanks and a colon: when no blank comes
    just before a colon, each key adds a ``":`` of its own to the text (a string may add
    more), so their count bounds the keys written from above. The dicts made without the
    hook hold one entry per distinct key of their object: their sizes sum to the keys
    written less one for each key written again. Equal, they prove no key written twice,
    and the dicts are the ones the hook makes (the same members in the same order). Any
    other text (a blank before a colon, a ``":`` in a string, a read by another thread
    meanwhile) is read again by ``_SCAN``. An error is the hooked scanner's too: the two
    read the same text alike up to the hook, which adds only the error of a key written
    twice.

    The counts cost a pass over the text and the hook's lists a little per key: a text
    whose first characters hold few keys for their length is read by ``_SCAN`` at once,
    as ``read_strict`` reads a short one without calling this.
    """
    sampled = text.count('":', 0, _SAMPLED)
    if sampled * _CHARS_A_KEY < _SAMPLED:
        return (*_SCAN(text, start), 0)
    if not _SIZES_HELD.acquire(False):
        return (*_SCAN(text, start), 0)
    try:
        _SIZES.clear()
        data, end = _SCAN_NOTED(text, start)
        written = sampled + text.count('":', _SAMPLED - 1)  # a pair across the cut once
        keys = sum(_SIZES)
        proven = keys == written and not _blank_before_colon(text)
    finally:
        _SIZES_HELD.release()
    return (data, end, keys) if proven else (*_SCAN(text, start), 0)


# Where the proof pays: its fixed cost and its pass over the text against the pairs lists
# it spares, one a key (measured in benchmarks/README.md, section 8zh).
_FEW_CHARS = 256
_SAMPLED = 256
_CHARS_A_KEY = 32


def _blank_before_colon(text: str) -> bool:
    """Whether a colon follows a blank anywhere in ``text`` (as in ``{"a" : 1}``)."""
    # Tabs, newlines and returns are rare in a model's JSON: a look for each alone (far
    # quicker than a look for a pair) spares most texts the look for it before a colon.
    return (
        " :" in text
        or ("\n" in text and "\n:" in text)
        or ("\t" in text and "\t:" in text)
        or ("\r" in text and "\r:" in text)
    )


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


def written_twice(text: str) -> tuple[Path, int] | None:
    """Where strict JSON text writes a key twice in one object: the key's path and its
    character (from 1); None when it writes none, or is not strict JSON.

    The call step names this in its refusal of a stringified object, which the repair
    step does not read when a key in it is written twice (``repair.coerce``)."""
    if len(text) > MAX_LENGTH:  # a framework's own string: not read past the model's bound
        return None
    try:
        strict_json(text)
    except (ValueError, RecursionError):
        try:
            _PLAIN(text)
        except (ValueError, RecursionError):
            return None  # not strict JSON: the repair step reads it as no object either
        return read_lenient(text, Notes(), MAX_DEPTH).twice
    return None


_PLAIN: Callable[[str], Any] = json.JSONDecoder(parse_constant=_reject_constant).decode
strict_json: Callable[[str], Any] = json.JSONDecoder(
    object_pairs_hook=distinct_keys, parse_constant=_reject_constant
).decode
"""Strict JSON whose objects write each key once (``ValueError`` else): the repair step's
reader of a stringified object."""


def _too_long(length: int, max_length: int) -> Reading:
    return (
        None,
        (),
        f"the text has {length:,} characters, more than the {max_length:,} accepted",
        None,
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
