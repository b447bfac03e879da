"""YAML text read as JSON data, with YAML 1.2 meaning (OpenAPI 3.1 says YAML 1.2).

PyYAML's parser gives the events; this module builds the values from them, without
recursion, and resolves untagged plain scalars by the YAML 1.2 core schema alone:
``null``/``~``, ``true``/``false``, decimal, ``0o`` and ``0x`` integers and decimal
floats; everything else is a string. So ``2021-01-30T08:30:00Z`` stays a string (YAML 1.1
made it a ``datetime``), ``NO`` and ``on`` stay strings (YAML 1.1 made them booleans),
``0755`` is the integer 755, and ``1.10`` is the float 1.1, as the same text is in JSON.

Refused, each a ``ValueError`` naming its line and column, since the data has no JSON
form or would not mean what the text says:

- tags other than the core ones (``!!binary``, ``!!timestamp``, ``!!set``, ``!!omap``,
  application tags), ``.inf`` and ``.nan``, and a value tagged ``!!int`` that is not one;
- a key that is a mapping or a sequence (a scalar key is its text: ``200:`` is ``"200"``),
  the YAML 1.1 merge key ``<<``, and a key given twice;
- aliases that would expand the document by more than ``MAX_ALIAS_NODES`` values in all
  (a kilobyte of nested aliases expands to gigabytes: a "billion laughs"), and an alias
  to a node that contains it;
- more than one document in the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from llmapp._limits import MAX_ALIAS_NODES

__all__ = ["MAX_ALIAS_NODES", "read_yaml"]


_CORE = "tag:yaml.org,2002:"
_NULL = re.compile(r"~|null|Null|NULL|")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_NOT_FINITE = re.compile(r"[-+]?\.(inf|Inf|INF)|\.nan|\.NaN|\.NAN")


def _integer(text: str) -> int:
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return int(text, 10)


_NOT_TEXT_STARTS = frozenset("~nNtTfF+-.0123456789")
"""The first characters of every plain scalar that is not a string (null, booleans,
numbers, and the refused ``.inf``/``.nan``): any other first character is a string."""


def _plain(text: str) -> Any:
    """A plain (unquoted, untagged) scalar by the YAML 1.2 core schema."""
    if text and text[0] not in _NOT_TEXT_STARTS:
        return text
    if _NULL.fullmatch(text):
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT.fullmatch(text):
        return _integer(text)
    if _FLOAT.fullmatch(text):
        return float(text)
    if _NOT_FINITE.fullmatch(text):
        raise ValueError(f"{text} is not a JSON number")
    return text


def _tagged(kind: Callable[[str], object], convert: Callable[[str], Any]) -> Callable[[str], Any]:
    def read(text: str) -> Any:
        if not kind(text):
            raise ValueError(f"{text!r} is not of its tag's type")
        return convert(text)

    return read


_TAGS: dict[str, Callable[[str], Any]] = {
    _CORE + "str": str,
    _CORE + "null": _tagged(_NULL.fullmatch, lambda text: None),
    _CORE + "bool": _tagged(_BOOL.__contains__, _BOOL.__getitem__),
    _CORE + "int": _tagged(_INT.fullmatch, _integer),
    _CORE + "float": _tagged(lambda t: _FLOAT.fullmatch(t) or _INT.fullmatch(t), float),
}
"""Scalars with an explicit core tag, each checked against its tag's form."""

_COLLECTIONS = {"MappingStartEvent": _CORE + "map", "SequenceStartEvent": _CORE + "seq"}


class _Frame:
    """A mapping or sequence being built: its value, its anchor, the key awaiting its
    value (mappings), and how many values it holds once expanded."""

    __slots__ = ("anchor", "key", "size", "value")

    def __init__(self, value: dict[str, Any] | list[Any], anchor: str | None) -> None:
        self.value = value
        self.anchor = anchor
        self.key: str | None = None
        self.size = 1


def read_yaml(text: str, where: str) -> Any:
    """The data of one YAML document, with YAML 1.2 meaning (see the module docstring).

    Raises:
        ValueError: the text is not YAML, or holds something refused above; the
            message names ``where``, the line and the column.
    """
    import yaml  # type: ignore[import-untyped,unused-ignore]

    # The C parser when built: a large YAML document reads several times faster.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    parser = None
    try:
        parser = loader(text)
        # Events straight from the parser until it has none (what ``yaml.parse`` yields,
        # without a generator between).
        return _Builder(where).run(iter(parser.get_event, None))
    except yaml.YAMLError as error:
        raise ValueError(f"{where} is neither JSON nor YAML: {error}") from error
    finally:
        if parser is not None:
            parser.dispose()


class _Builder:
    """Builds the values of a YAML event stream, one event at a time."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.stack: list[_Frame] = []
        self.anchors: dict[str, tuple[Any, int]] = {}  # anchor -> (value, expanded size)
        self.open_anchors: set[str] = set()
        self.added = 0  # values aliases added so far
        self.documents = 0
        self.result: Any = None

    def fail(self, event: Any, reason: str) -> ValueError:
        mark = event.start_mark
        return ValueError(f"{self.where}, line {mark.line + 1}, column {mark.column + 1}: {reason}")

    def run(self, events: Any) -> Any:
        stack = self.stack
        for event in events:
            kind = type(event).__name__
            if kind == "ScalarEvent" and event.tag is None and event.anchor is None and stack:
                # The common case, inlined: an untagged scalar placed in its parent.
                text = event.value
                if event.implicit[0]:
                    try:
                        text = _plain(text)
                    except ValueError as error:
                        raise self.fail(event, str(error)) from None
                top = stack[-1]
                top.size += 1
                held = top.value
                if isinstance(held, list):
                    held.append(text)
                elif top.key is None:
                    top.key = self.new_key(event, held)
                else:
                    held[top.key] = text
                    top.key = None
            elif kind == "DocumentStartEvent":
                self.documents += 1
                if self.documents > 1:
                    raise self.fail(event, "a second YAML document in the text")
            elif kind == "ScalarEvent":
                self.put(event, self.scalar(event), 1, event.anchor)
            elif kind in _COLLECTIONS:
                tag = event.tag
                if tag not in (None, "!", _COLLECTIONS[kind]):
                    raise self.fail(event, f"the YAML tag {tag} has no JSON form")
                container: dict[str, Any] | list[Any] = {} if kind == "MappingStartEvent" else []
                parent = self.stack[-1] if self.stack else None
                if parent is not None and isinstance(parent.value, dict) and parent.key is None:
                    raise self.fail(event, "a key that is a mapping or a sequence has no JSON form")
                self.stack.append(_Frame(container, event.anchor))
                if event.anchor is not None:
                    self.open_anchors.add(event.anchor)
            elif kind in ("MappingEndEvent", "SequenceEndEvent"):
                frame = self.stack.pop()
                if frame.anchor is not None:
                    self.open_anchors.discard(frame.anchor)
                self.put(event, frame.value, frame.size, frame.anchor)
            elif kind == "AliasEvent":
                self.alias(event)
        return self.result

    def scalar(self, event: Any) -> Any:
        text: str = event.value
        tag = event.tag
        try:
            if tag is None or tag == "!":
                plain = event.implicit[0] and tag is None
                return _plain(text) if plain else text
            read = _TAGS.get(tag)
            if read is None:
                raise ValueError(f"the YAML tag {tag} has no JSON form")
            return read(text)
        except ValueError as error:
            raise self.fail(event, str(error)) from None

    def alias(self, event: Any) -> None:
        anchor = event.anchor
        if anchor in self.open_anchors:
            raise self.fail(event, f"the alias *{anchor} is inside the node it names")
        if anchor not in self.anchors:
            raise self.fail(event, f"the alias *{anchor} names no anchor")
        value, size = self.anchors[anchor]
        self.added += size
        if self.added > MAX_ALIAS_NODES:
            raise self.fail(
                event,
                f"aliases expand the document by more than {MAX_ALIAS_NODES:,} values",
            )
        self.put(event, value, size, None)

    def key_of(self, event: Any) -> str:
        # A scalar key is its text as written: "200:" is the key "200".
        text = event.value
        if text == "<<" and event.implicit[0]:
            raise self.fail(event, "merge keys (<<) are YAML 1.1, not YAML 1.2")
        return str(text)

    def new_key(self, event: Any, mapping: dict[str, Any]) -> str:
        """The key a scalar gives, refused if the mapping has it already."""
        key = self.key_of(event)
        if key in mapping:
            raise self.fail(event, f"the key {key!r} is given twice")
        return key

    def put(self, event: Any, value: Any, size: int, anchor: str | None) -> None:
        """Place a finished value in its parent (a key, a mapping's value, an item)."""
        if anchor is not None:
            self.anchors[anchor] = (value, size)
        if not self.stack:
            self.result = value
            return
        parent = self.stack[-1]
        parent.size += size
        container = parent.value
        if isinstance(container, list):
            container.append(value)
        elif parent.key is None:
            if type(event).__name__ != "ScalarEvent":
                raise self.fail(event, "a key must be a scalar written in place, not an alias")
            parent.key = self.new_key(event, container)
        else:
            container[parent.key] = value
            parent.key = None
