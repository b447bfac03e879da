"""The tolerant JSON reader behind ``parse``: a state machine on an explicit stack.

Each repair is noted (``Notes``). A repair that cannot change the meaning of what the
model wrote (a comment removed, a trailing comma, a single-quoted string, ``True``) is
only noted; one that drops or invents part of it (text after the value, a bracket closed
by another kind, a key with no value, a key written twice, ``1e`` read as ``1``, ``NaN``
read as ``null``) also sets ``Read.unread``: what was not read as written and where, the
first one met.
The call step runs nothing from such a reading (``_parse`` says where the line lies).
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, Final, NamedTuple

from llmapp._limits import cut
from llmapp.jsonschema import Path

__all__ = ["Notes", "Read", "read_lenient"]

_NOTES: Final[dict[str, tuple[str, str]]] = {
    "decode": ("replaced invalid UTF-8 bytes", "replaced invalid UTF-8 bytes"),
    "bom": ("removed a byte-order mark", "removed a byte-order mark"),
    "fence": ("removed a Markdown code fence", "removed a Markdown code fence"),
    "prefix": ("skipped text before the JSON", "skipped text before the JSON"),
    "suffix": ("ignored text after the JSON", "ignored text after the JSON"),
    "comment": ("removed a comment", "removed {n} comments"),
    "trailing_comma": ("removed a trailing comma", "removed {n} trailing commas"),
    "extra_comma": ("removed an extra comma", "removed {n} extra commas"),
    "missing_comma": ("inserted a missing comma", "inserted {n} missing commas"),
    "missing_colon": ("inserted a missing colon", "inserted {n} missing colons"),
    "single_quote": ("read a single-quoted string", "read {n} single-quoted strings"),
    "unquoted_key": ("quoted an unquoted key", "quoted {n} unquoted keys"),
    "bare_word": ("quoted a bare word", "quoted {n} bare words"),
    "python_literal": (
        "read a Python literal (True/False/None)",
        "read {n} Python literals (True/False/None)",
    ),
    "undefined": ("read undefined as null", "read {n} undefined values as null"),
    "nonfinite": ("read NaN/Infinity as null", "read {n} NaN/Infinity values as null"),
    "huge_number": ("read a number too long to convert as null", "read {n} such numbers as null"),
    "number": ("read a non-standard number", "read {n} non-standard numbers"),
    "truncated_literal": ("completed a truncated true/false/null", "completed a truncated literal"),
    "unclosed_string": ("closed an unterminated string", "closed an unterminated string"),
    "unclosed_bracket": ("closed an unclosed bracket", "closed {n} unclosed brackets"),
    "stray_bracket": ("removed a stray closing bracket", "removed {n} stray closing brackets"),
    "incomplete_key": ("dropped a key that had no value", "dropped {n} keys that had no value"),
    "duplicate_key": (
        "kept the last value of a key written twice",
        "kept the last value of {n} keys written twice",
    ),
    "control_char": (
        "kept a raw control character inside a string",
        "kept {n} raw control characters inside strings",
    ),
    "bad_escape": ("kept an invalid escape as written", "kept {n} invalid escapes as written"),
    "unexpected": ("skipped an unexpected character", "skipped {n} unexpected characters"),
}

_SPACE = re.compile(r"\s*")
_CHUNK = {'"': re.compile(r'[^"\\\x00-\x1f]*'), "'": re.compile(r"[^'\\\x00-\x1f]*")}
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_HEX4 = re.compile(r"[0-9a-fA-F]{4}")
_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d*)?")
_STRICT_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
_BARE = re.compile(r'(?:[^,}\]\r\n/"]|/(?!/))+')
_KEY = re.compile(r"[^\s:,{}\[\]\"'/#]+")
_LITERALS: Final[dict[str, tuple[Any, str | None]]] = {
    "true": (True, None),
    "false": (False, None),
    "null": (None, None),
    "True": (True, "python_literal"),
    "False": (False, "python_literal"),
    "None": (None, "python_literal"),
    "NaN": (None, "nonfinite"),
    "Infinity": (None, "nonfinite"),
    "undefined": (None, "undefined"),
}
_TRUNCATABLE = ("true", "false", "null")
_VALUE_START = frozenset("{[\"'-+.0123456789")
_LEADING_ZEROS = re.compile(r"[-+]?0\d")
_QUOTED: Final = 40

# Parser states. An object frame cycles KEY -> COLON -> VALUE -> NEXT -> KEY; an array
# frame cycles ITEM -> NEXT -> ITEM.
_KEY_STATE, _COLON, _VALUE, _OBJ_NEXT, _ITEM, _ARR_NEXT = range(6)


class _Nothing:
    """Marks "no value could be read here" (``None`` is a value)."""


_NOTHING: Final = _Nothing()


class Notes:
    """Counts repairs by kind and renders them as human-readable notes."""

    __slots__ = ("_counts",)

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}

    def add(self, kind: str, count: int = 1) -> None:
        self._counts[kind] = self._counts.get(kind, 0) + count

    def render(self) -> tuple[str, ...]:
        return tuple(
            _NOTES[kind][0] if count == 1 else _NOTES[kind][1].format(n=count)
            for kind, count in self._counts.items()
        )


class _Frame:
    __slots__ = ("after_comma", "closer", "container", "key", "key_at", "state")

    def __init__(self, opener: str) -> None:
        self.container: Any = {} if opener == "{" else []
        self.closer = "}" if opener == "{" else "]"
        self.state = _KEY_STATE if opener == "{" else _ITEM
        self.key: str | None = None
        self.key_at = 0  # where the key starts: a key written twice is named there
        self.after_comma = False


class Read(NamedTuple):
    """What the tolerant reader read: a value, or why nothing could be read."""

    value: Any
    error: str | None = None
    cut: str | None = None
    """Where the text ended inside a value (output cut off), or ``None`` when it is whole."""
    unread: str | None = None
    """What of the text the value does not hold as written (dropped or invented), and
    where: the first such place; ``None`` when every repair kept the meaning."""
    twice: tuple[Path, int] | None = None
    """The first key written twice in one object: its path and its character (from 1)."""


def read_lenient(text: str, notes: Notes, max_depth: int, offset: int = 0) -> Read:
    """Read one JSON-like value from ``text`` (never raises on any text).

    ``offset``: where ``text`` starts in the model's whole text (a fence's body), so that
    the characters ``unread`` names are counted in the text the model wrote.
    """
    return _Reader(text, notes, max_depth, offset).run()


def quoted(text: str) -> str:
    """A short piece of the model's text, quoted as JSON writes a string."""
    return cut(text, _QUOTED, quote=_json_string)


def _json_string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


class _Reader:
    def __init__(self, text: str, notes: Notes, max_depth: int, offset: int = 0) -> None:
        self.text = text
        self.end = len(text)
        self.pos = 0
        self.notes = notes
        self.max_depth = max_depth
        self.offset = offset
        self.stack: list[_Frame] = []
        self.root: Any = _NOTHING
        self.cut: str | None = None
        self.unread: str | None = None
        self.twice: tuple[Path, int] | None = None

    def run(self) -> Read:
        start = self._locate()
        if start is None:
            return Read(None, "no JSON value found in the text")
        self.pos = start
        if self.text[start] in "{[":
            error = self._containers()
            if error is not None:
                return Read(None, error)
        else:
            self.root = self._scalar(bare_words=False)
            if self.root is _NOTHING:
                return Read(None, "no JSON value found in the text")
        self._skip()
        if self.pos < self.end:
            self.notes.add("suffix")
            rest = self.text[self.pos :]
            self._lose(f"text after the value, from character {self._at()}: {quoted(rest)}")
        return Read(self.root, None, self.cut, self.unread, self.twice)

    def _at(self, pos: int | None = None) -> str:
        """The character at ``pos`` (the reader's position), counted from 1 in the whole text."""
        return f"{(self.pos if pos is None else pos) + self.offset + 1:,}"

    def _lose(self, what: str) -> None:
        """Record that the value does not hold part of the text as written (the first place)."""
        if self.unread is None:
            self.unread = what

    def _cut(self, inside: str, *, in_scalar: bool) -> None:
        """Record that the text ends inside a value (the first place only)."""
        if self.cut is not None:
            return
        self.cut = (
            f"the text ends inside {inside} at {self._path(in_scalar=in_scalar)}, "
            f"after {self.end + self.offset:,} characters"
        )

    def _path(self, *, in_scalar: bool) -> Path:
        """Where the reader is: the path of the value it reads (``in_scalar``) or of the
        container it is in."""
        segments: list[str | int] = []
        for depth, frame in enumerate(self.stack):
            innermost = depth == len(self.stack) - 1
            if frame.closer == "]":
                if not innermost or (in_scalar and frame.state == _ITEM):
                    segments.append(len(frame.container))
            elif (
                frame.key is not None
                and frame.state in (_COLON, _VALUE)
                and not (innermost and not in_scalar)
            ):
                segments.append(frame.key)
        return Path(segments)

    def _locate(self) -> int | None:
        """Where the value starts: a scalar that is the whole text, else the first bracket."""
        self._skip()
        if self.pos >= self.end:
            return None
        first = self._first_bracket(self.pos)
        if first == self.pos:
            return first
        if self._scalar_starts() and (first == -1 or self._scalar_is_whole()):
            return self.pos
        if first != -1:
            self.notes.add("prefix")
            after = self._scalar_end()
            if after is not None:  # "1. call it with {...}", "'x' then {...}"
                # A bracket inside that value ("'{' then {...}") is the value's own: the
                # JSON is the first one after it, when there is one.
                later = self._first_bracket(after) if after > first else -1
                first = later if later != -1 else first
                skipped = self.text[self.pos : first]
                self._lose(f"a value before the JSON, at character {self._at()}: {quoted(skipped)}")
            return first
        return None

    def _first_bracket(self, start: int) -> int:
        """Where the first ``{`` or ``[`` at or after ``start`` is, or -1."""
        brackets = (self.text.find("{", start), self.text.find("[", start))
        return min((i for i in brackets if i != -1), default=-1)

    def _scalar_end(self) -> int | None:
        """Where a value (not a word of prose, nor a bullet's dash) read here ends; None
        when none is read."""
        probe = _Reader(self.text, Notes(), self.max_depth)
        probe.pos = self.pos
        return None if probe._scalar(bare_words=False) is _NOTHING else probe.pos

    def _scalar_is_whole(self) -> bool:
        """Whether a scalar read here ends the text (``"a [b]"`` is a string, not ``["b"]``)."""
        probe = _Reader(self.text, Notes(), self.max_depth)
        probe.pos = self.pos
        if probe._scalar(bare_words=False) is _NOTHING:
            return False
        probe._skip()
        return probe.pos >= probe.end

    def _scalar_starts(self) -> bool:
        if self.text[self.pos] in _VALUE_START:
            return True
        word = _WORD.match(self.text, self.pos)
        if word is None:
            return False
        return word.group() in _LITERALS or self._is_truncated_literal(word)

    # --- the state machine -------------------------------------------------------------

    def _containers(self) -> str | None:
        """Read the root container; an error when it nests too deeply."""
        if not self._open():
            return self._too_deep()
        while self.stack:
            self._skip()
            if self.pos >= self.end:
                self._close_all()
                break
            char = self.text[self.pos]
            if char in "}]":
                self._close(char)
            elif char == ",":
                self._comma()
            elif char == ":":
                self._colon()
            elif not self._token(char):
                return self._too_deep()
        return None

    def _too_deep(self) -> str:
        return f"nesting deeper than {self.max_depth} levels"

    def _open(self) -> bool:
        if len(self.stack) >= self.max_depth:
            return False
        self.stack.append(_Frame(self.text[self.pos]))
        self.pos += 1
        return True

    def _token(self, char: str) -> bool:
        """Read a key or value in the current state; False only when nesting is too deep."""
        frame = self.stack[-1]
        state = frame.state
        if state == _KEY_STATE:
            self._key(frame)
        elif state == _COLON:
            self.notes.add("missing_colon")
            frame.state = _VALUE
        elif state in (_OBJ_NEXT, _ARR_NEXT):
            if self._value_starts(char):
                self.notes.add("missing_comma")
                if state == _ARR_NEXT:  # ["a" "b"]: two items, or one text cut in two?
                    self._lose(
                        f"two items with no comma between them at "
                        f"{self._path(in_scalar=False)}, character {self._at()}"
                    )
                frame.state = _KEY_STATE if state == _OBJ_NEXT else _ITEM
            else:
                self._unexpected()
        elif char in "{[":
            return self._open()
        else:
            value = self._scalar(bare_words=True)
            if value is _NOTHING:
                self._unexpected()
            else:
                self._attach(value)
        return True

    def _value_starts(self, char: str) -> bool:
        return char in _VALUE_START or _KEY.match(self.text, self.pos) is not None

    def _key(self, frame: _Frame) -> None:
        char = self.text[self.pos]
        frame.key_at = self.pos
        if char in "\"'":
            frame.key = self._string()
        else:
            match = _KEY.match(self.text, self.pos)
            if match is None:
                self._unexpected()
                return
            frame.key = match.group()
            self.pos = match.end()
            self.notes.add("unquoted_key")
        frame.state = _COLON
        frame.after_comma = False

    def _attach(self, value: Any) -> None:
        if not self.stack:
            self.root = value
            return
        frame = self.stack[-1]
        if frame.closer == "}":
            if frame.key in frame.container:
                self._twice(frame)
            frame.container[frame.key] = value
            frame.key = None
            frame.state = _OBJ_NEXT
        else:
            frame.container.append(value)
            frame.state = _ARR_NEXT
        frame.after_comma = False

    def _comma(self) -> None:
        self.pos += 1
        frame = self.stack[-1]
        if frame.state in (_OBJ_NEXT, _ARR_NEXT):
            frame.state = _KEY_STATE if frame.state == _OBJ_NEXT else _ITEM
            frame.after_comma = True
        elif frame.state in (_KEY_STATE, _ITEM):
            self.notes.add("extra_comma")
            if frame.state == _ITEM:  # [1,, 2]: an item left out (JavaScript reads a hole)
                self._lose(
                    f"a comma with no item before it at {self._path(in_scalar=True)}, "
                    f"character {self._at(self.pos - 1)}"
                )
        else:  # a key followed by a comma: it has no value
            self.notes.add("incomplete_key")
            self._no_value(frame, self.pos - 1)
            frame.key = None
            frame.state = _KEY_STATE
            frame.after_comma = True

    def _twice(self, frame: _Frame) -> None:
        # JSON keeps the last value: the first one, and its mistakes, would vanish unseen
        # (and readers that keep the first would see another call).
        self.notes.add("duplicate_key")
        key = frame.key if frame.key is not None else ""
        where = self._path(in_scalar=True)
        if self.twice is None:
            self.twice = (where, frame.key_at + self.offset + 1)
        self._lose(
            f"the key {quoted(key)} written a second time, at {where}, "
            f"character {self._at(frame.key_at)} (JSON keeps only the last value)"
        )

    def _no_value(self, frame: _Frame, pos: int, *, popped: bool = False) -> None:
        key = frame.key if frame.key is not None else ""
        # A popped frame is the value its parent reads: the parent's path reaches it.
        where = self._path(in_scalar=popped).key(key)
        self._lose(f"the key {quoted(key)} has no value, at {where}, character {self._at(pos)}")

    def _colon(self) -> None:
        self.pos += 1
        frame = self.stack[-1]
        if frame.state == _COLON:
            frame.state = _VALUE
        else:
            self.notes.add("unexpected")
            self._lose(
                f"a ':' where none belongs at {self._path(in_scalar=False)}, "
                f"character {self._at(self.pos - 1)}"
            )

    def _close(self, closer: str) -> None:
        self.pos += 1
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index].closer == closer:
                break
        else:
            self.notes.add("stray_bracket")
            self._lose(
                f"a {closer!r} that closes nothing at {self._path(in_scalar=False)}, "
                f"character {self._at(self.pos - 1)}"
            )
            return
        unclosed = len(self.stack) - 1 - index
        if unclosed:
            self.notes.add("unclosed_bracket", unclosed)
            kind = "an array" if self.stack[-1].closer == "]" else "an object"
            self._lose(
                f"a {closer!r} closes {kind} at {self._path(in_scalar=False)}, which only "
                f"a {self.stack[-1].closer!r} closes, at character {self._at(self.pos - 1)}"
            )
        while len(self.stack) > index:
            self._finish(self.stack.pop())

    def _close_all(self) -> None:
        kind = "an object" if self.stack[-1].closer == "}" else "an array"
        self._cut(f"{kind} that was never closed", in_scalar=False)
        self.notes.add("unclosed_bracket", len(self.stack))
        while self.stack:
            self._finish(self.stack.pop())

    def _finish(self, frame: _Frame) -> None:
        if frame.state in (_COLON, _VALUE):
            self.notes.add("incomplete_key")
            if self.cut is None:  # the text ended there: the cut says so already
                self._no_value(frame, self.pos - 1, popped=True)
        elif frame.after_comma:
            self.notes.add("trailing_comma")
        self._attach(frame.container)

    # --- lexing ------------------------------------------------------------------------

    def _skip(self) -> None:
        """Skip whitespace and comments."""
        text = self.text
        while True:
            self.pos = _SPACE.match(text, self.pos).end()  # type: ignore[union-attr]
            if text.startswith(("//", "#"), self.pos):
                newline = text.find("\n", self.pos)
                self.pos = self.end if newline == -1 else newline + 1
            elif text.startswith("/*", self.pos):
                close = text.find("*/", self.pos + 2)
                self.pos = self.end if close == -1 else close + 2
            else:
                return
            self.notes.add("comment")

    def _unexpected(self) -> None:
        self.notes.add("unexpected")
        self._lose(
            f"a character that is not JSON, {quoted(self.text[self.pos])}, at "
            f"{self._path(in_scalar=True)}, character {self._at()}"
        )
        self.pos += 1

    def _scalar(self, *, bare_words: bool) -> Any:
        text, pos = self.text, self.pos
        char = text[pos]
        if char in "\"'":
            return self._string()
        if char in "-+" and text.startswith("Infinity", pos + 1):
            self._no_such_number(text[pos : pos + 9])
            self.pos += 9
            self.notes.add("nonfinite")
            return None
        number = _NUMBER.match(text, pos)
        if number is not None:
            follows = number.end() < self.end and (text[number.end()].isalpha())
            if not (bare_words and follows):
                return self._number(number.group(), number.end())
        word = _WORD.match(text, pos)
        if word is not None:
            literal = self._literal(word)
            if literal is not _NOTHING:
                return literal
        if bare_words and (word is not None or number is not None):
            return self._bare_word()
        return _NOTHING

    def _literal(self, word: re.Match[str]) -> Any:
        found = _LITERALS.get(word.group())
        if found is not None:
            value, note = found
        elif self._is_truncated_literal(word):
            value = {"t": True, "f": False, "n": None}[word.group()[0]]
            note = "truncated_literal"
            self._cut(f"the word {word.group()!r}", in_scalar=True)
        else:
            return _NOTHING
        if note is not None:
            self.notes.add(note)
            if note in ("nonfinite", "undefined"):
                self._no_such_number(word.group())
        self.pos = word.end()
        return value

    def _no_such_number(self, written: str) -> None:
        what = "value" if written == "undefined" else "number"
        self._lose(
            f"{written} at {self._path(in_scalar=True)}, character {self._at()}: "
            f"JSON has no such {what} (it would be read as null)"
        )

    def _is_truncated_literal(self, word: re.Match[str]) -> bool:
        return word.end() == self.end and any(
            literal.startswith(word.group()) for literal in _TRUNCATABLE
        )

    def _bare_word(self) -> str:
        match = _BARE.match(self.text, self.pos)
        assert match is not None  # the caller saw a word or number here
        self.pos = match.end()
        self.notes.add("bare_word")
        return match.group().rstrip()

    def _number(self, written: str, end: int) -> Any:
        core = written.rstrip("eE+-")
        if core != written or not _STRICT_NUMBER.fullmatch(core):
            self.notes.add("number")
            # "1e" is not 1, and "010" is 8 to JavaScript: no single number was written.
            if core != written or _LEADING_ZEROS.match(core):
                why = "is incomplete" if core != written else "has a leading zero"
                self._lose(
                    f"the number {written[:_QUOTED]} {why}, at {self._path(in_scalar=True)}, "
                    f"character {self._at()}"
                )
        if "." in core or "e" in core or "E" in core:
            value = float(core)
            if math.isinf(value):
                self._lose(
                    f"the number {written[:_QUOTED]} is too large for a float, at "
                    f"{self._path(in_scalar=True)}, character {self._at()}"
                )
                self.pos = end
                self.notes.add("nonfinite")
                return None
            self.pos = end
            return value
        try:
            number: int | None = int(core)
        except ValueError:  # past Python's limit on digits converted
            self._lose(
                f"a number of {len(core):,} digits, more than can be read, at "
                f"{self._path(in_scalar=True)}, character {self._at()}"
            )
            number = None
            self.notes.add("huge_number")
        self.pos = end
        return number

    def _string(self) -> str:
        quote = self.text[self.pos]
        if quote == "'":
            self.notes.add("single_quote")
        self.pos += 1
        chunk, text, parts = _CHUNK[quote], self.text, []
        while True:
            match = chunk.match(text, self.pos)
            assert match is not None  # the pattern matches the empty string
            parts.append(match.group())
            self.pos = match.end()
            if self.pos >= self.end:
                self._cut("a string that was never closed", in_scalar=True)
                self.notes.add("unclosed_string")
                break
            char = text[self.pos]
            if char == quote:
                self.pos += 1
                break
            if char == "\\":
                parts.append(self._escape())
            else:
                self.notes.add("control_char")
                parts.append(char)
                self.pos += 1
        return "".join(parts)

    def _escape(self) -> str:
        """Decode the escape at ``pos`` (a backslash) and move past it."""
        text, pos = self.text, self.pos
        if pos + 1 >= self.end:
            self.pos = self.end
            return ""
        char = text[pos + 1]
        self.pos = pos + 2
        if char in _ESCAPES:
            return _ESCAPES[char]
        if char == "'":
            return "'"
        if char == "u" and _HEX4.fullmatch(text, pos + 2, pos + 6):
            code = int(text[pos + 2 : pos + 6], 16)
            self.pos = pos + 6
            low = pos + 8
            if (
                0xD800 <= code <= 0xDBFF
                and text.startswith("\\u", pos + 6)
                and _HEX4.fullmatch(text, low, low + 4)
                and 0xDC00 <= int(text[low : low + 4], 16) <= 0xDFFF
            ):
                self.pos = low + 4
                return chr(
                    0x10000 + ((code - 0xD800) << 10) + int(text[low : low + 4], 16) - 0xDC00
                )
            return chr(code)
        self.notes.add("bad_escape")
        return "\\" + char
