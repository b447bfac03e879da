"""The one masker: values the model must never read, replaced by ``***`` in any text.

Every text built for the model from something other than its own arguments (a method's
exception message, a refused conversion's reason, an HTTP error's body) goes through
``Masker.mask``. ``Masker.of(*sources)`` takes the values to keep out: the human-side
values of a call, and any other secret a door holds (an HTTP connection's headers,
query and cookie values). Nothing is computed until a text is masked, so a call that
succeeds pays only for keeping a reference.

What is masked, for every value found in the sources:

- where it is found: the sources themselves, the values (not the keys) of mappings, the
  items of lists, tuples and sets, the fields of dataclasses, NamedTuples, attrs classes
  and pydantic models, the attributes of other objects (``vars()`` and ``__slots__``), at most
  ``MAX_VALUES`` values and ``MAX_LEVELS`` levels deep;
- texts and numbers as written (``str``, ``repr`` of a number, and the JSON text of
  dates, UUIDs, decimals and enums, as ``llmapp.convert.to_json`` writes them, and the
  ``str()`` of any other value whose class writes its own, as an f-string shows it:
  ``2031-07-04 13:37:11``, ``3 days, 4:05:06``); bytes
  decoded as UTF-8 where they decode; bytes, and texts as their UTF-8 bytes, as ``repr``
  shows them (``b'...'``), in hex and in base64;
- each of those in its escaped forms too: as a JSON string holds it (``json.dumps``,
  with and without ``ensure_ascii``), as Python's ``repr`` quotes it, and URL-encoded
  (``quote``, with and without its ``/`` kept, and ``quote_plus``);
- a form of four characters or more wherever it appears; a form of two or three (a
  CVV, a short PIN) only as a whole word, so ``123`` in ``cvv 123`` is masked but not
  in ``1234``; a single character, ``True``/``False`` and ``None`` are not masked
  (nothing could be kept out of a text by masking them);
- a form longer than ``_LONG`` characters (a document, a file) also in part: every run
  of ``_GRAM`` characters or more of the text that is also in the form is masked, so an
  error quoting the start or a slice of an upload shows none of it; only its first
  ``MAX_SCANNED`` characters are indexed.

Example::

    masker = Masker.of({"token": "sk-live-1", "creds": Creds("ann", "p4ss")})
    masker.mask("refused sk-live-1 for Creds(user='ann', token='p4ss')")
    # "refused *** for Creds(user='***', token='***')"
"""

from __future__ import annotations

import dataclasses
import enum
import json
import re
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import Any, Final

from llmapp import convert
from llmapp._limits import MAX_MASKED_LEVELS as MAX_LEVELS
from llmapp._limits import MAX_MASKED_TEXT as MAX_SCANNED
from llmapp._limits import MAX_MASKED_VALUES as MAX_VALUES

__all__ = ["FORM_REACH", "MAX_LEVELS", "MAX_SCANNED", "MAX_VALUES", "NOTHING", "Masker"]

_MIN_ANYWHERE: Final = 4
_MIN_WORD: Final = 2
_LONG: Final = 64
_GRAM: Final = 32
FORM_REACH: Final = _LONG
"""Most characters a text masked whole spans (a longer form is masked in runs of ``_GRAM``):
a text cut at ``n`` characters shows no form when its first ``n + FORM_REACH`` are masked."""
_WORD = "0-9A-Za-z_"
_MASK: Final = "***"


class Masker:
    """Values kept out of texts for the model; see the module docstring for what is masked.

    Build it with ``Masker.of(*sources)``; ``mask(text)`` never raises.
    """

    def __init__(self, sources: tuple[Any, ...]) -> None:
        self._sources = sources

    @classmethod
    def of(cls, *sources: Any) -> Masker:
        """A masker for every value in ``sources`` (``None`` sources are skipped)."""
        if len(sources) == 1:  # the call step's one source: its human values, mostly None
            return NOTHING if sources[0] is None else cls(sources)
        kept = [source for source in sources if source is not None]
        return cls(tuple(kept)) if kept else NOTHING

    def adding(self, *sources: Any) -> Masker:
        """A masker for this one's values and every value in ``sources`` too."""
        return Masker.of(*self._sources, *sources)

    def mask(self, text: str) -> str:
        """``text`` with every form of every value replaced by ``***``."""
        if not self._sources or not text:
            return text
        try:
            anywhere, words, grams = self._forms
            if grams:
                text = _mask_runs(text, grams)
            for form in anywhere:
                if form in text:
                    text = text.replace(form, _MASK)
            if words is not None:
                text = words.sub(_MASK, text)
        except Exception:  # a value whose __repr__ or __str__ raises: say nothing of it
            return _MASK
        return text

    @cached_property
    def _forms(self) -> tuple[list[str], re.Pattern[str] | None, frozenset[str]]:
        """(forms masked anywhere, longest first; one pattern of the whole-word forms;
        the runs of ``_GRAM`` characters of the long forms)."""
        forms: set[str] = set()
        for value in _values(self._sources):
            forms.update(_written(value))
        grams = frozenset(
            form[start : start + _GRAM]
            for form in forms
            if len(form) > _LONG
            for start in range(min(len(form), MAX_SCANNED) - _GRAM + 1)
        )
        anywhere = sorted(
            (f for f in forms if _MIN_ANYWHERE <= len(f) <= _LONG), key=len, reverse=True
        )
        short = sorted((f for f in forms if _MIN_WORD <= len(f) < _MIN_ANYWHERE), key=len)
        if not short:
            return anywhere, None, grams
        alternatives = "|".join(re.escape(form) for form in reversed(short))
        pattern = re.compile(f"(?<![{_WORD}])(?:{alternatives})(?![{_WORD}])")
        return anywhere, pattern, grams


NOTHING: Final = Masker(())
"""The masker with nothing to mask."""


def _mask_runs(text: str, grams: frozenset[str]) -> str:
    """``text`` with every run covered by ``grams`` (slices of long forms) masked."""
    spans: list[list[int]] = []
    for start in range(len(text) - _GRAM + 1):
        if text[start : start + _GRAM] in grams:
            if spans and start <= spans[-1][1]:
                spans[-1][1] = start + _GRAM
            else:
                spans.append([start, start + _GRAM])
    if not spans:
        return text
    parts, end = [], 0
    for first, last in spans:
        parts += [text[end:first], _MASK]
        end = last
    return "".join([*parts, text[end:]])


def _values(sources: Iterable[Any]) -> list[Any]:
    """The scalar values held by ``sources``, breadth first, bounded in count and depth."""
    found: list[Any] = []
    level: list[Any] = list(sources)
    seen: set[int] = set()
    for _ in range(MAX_LEVELS):
        below: list[Any] = []
        for value in level:
            if len(found) >= MAX_VALUES:
                return found
            if value is None or isinstance(value, bool):
                continue
            if isinstance(value, (str, bytes, bytearray, memoryview, int, float)):
                found.append(value)
            elif id(value) not in seen:
                seen.add(id(value))
                below.extend(_members(value, found))
        if not below:
            break
        level = below
    return found


def _members(value: Any, found: list[Any]) -> list[Any]:
    """What a container or an object holds; its own JSON text for a scalar type."""
    if isinstance(value, Mapping):
        return list(value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        return list(value)
    if isinstance(value, enum.Enum):  # as JSON writes it, by its name, and as str() shows it
        return [value.value, value.name, str(value)]
    if dataclasses.is_dataclass(value):
        _own_str(value, None, found)
        return [getattr(value, field.name, None) for field in dataclasses.fields(value)]
    shown = convert.to_json(value)
    members: list[Any] = []
    if isinstance(shown, str):  # a date, a UUID, a Decimal, a repr: as the model would read it
        found.append(shown)
    elif isinstance(shown, (Mapping, list)):
        members.append(shown)
    _own_str(value, shown, found)
    attributes = getattr(value, "__dict__", None)
    if isinstance(attributes, dict):
        members.extend(attributes.values())
    members.extend(_slotted(value))
    return members


def _own_str(value: Any, shown: Any, found: list[Any]) -> None:
    """An f-string or a message writes ``str(value)``, which may differ from the JSON text
    (a space where ISO has "T", "3 days, 4:05:06", "1E+2", a class's own ``__str__``):
    it is a form too, when the class writes its own."""
    if getattr(type(value), "__str__", None) is not object.__str__:
        written = str(value)
        if written != shown:
            found.append(written)


def _slotted(value: Any) -> list[Any]:
    """The attributes an object keeps in ``__slots__`` (it may have no ``__dict__``)."""
    held: list[Any] = []
    for cls in type(value).__mro__[:MAX_LEVELS]:
        slots = cls.__dict__.get("__slots__", ())
        for name in (slots,) if isinstance(slots, str) else slots:
            if name not in ("__dict__", "__weakref__") and len(held) < MAX_VALUES:
                held.append(getattr(value, name, None))
    return held


def _written(value: Any) -> set[str]:
    """Every form of one value that a text may hold."""
    # Imported here, on the error path only: at the top they were most of this module's
    # share of every program's ``from llmapp import application``.
    import base64
    from urllib.parse import quote, quote_plus

    if isinstance(value, (bytes, bytearray, memoryview)):
        raw = bytes(value[: MAX_SCANNED - MAX_SCANNED % 3])  # whole base64 groups
        try:
            texts = [raw.decode("utf-8")]
        except UnicodeDecodeError:
            texts = []
    elif isinstance(value, str):
        texts = [value[:MAX_SCANNED]]
        # A text a method sends on as bytes (a header, a signature) shows as bytes do; a
        # short one's hex or base64 could be any word, so it is left to the word rule.
        encoded = texts[0].encode("utf-8", "surrogatepass") if len(value) >= _MIN_ANYWHERE else b""
        raw = encoded[: MAX_SCANNED - MAX_SCANNED % 3]
    else:
        texts, raw = [repr(value), str(value)], b""
    forms = {repr(raw)[2:-1], raw.hex(), base64.b64encode(raw).decode("ascii")} if raw else set()
    forms.update([base64.urlsafe_b64encode(raw).decode("ascii")] if raw else [])
    for text in texts:
        forms.add(text)
        forms.add(json.dumps(text)[1:-1])
        forms.add(json.dumps(text, ensure_ascii=False)[1:-1])
        forms.add(repr(text)[1:-1])
        forms.add(quote(text, safe=""))
        forms.add(quote(text))  # as a path segment, its "/" kept
        forms.add(quote_plus(text, safe=""))
    return {form for form in forms if len(form) >= _MIN_WORD}
