"""ECMA-262 patterns (JSON Schema's dialect) rewritten for RE2, ``regex`` or ``re``.

One translator, three dialects (``LINEAR`` for RE2, ``BACKTRACKING`` for ``regex``,
``STDLIB`` for Python's ``re`` compiled with ``re.ASCII``) that differ only in how they
write a code point, the end of the text, a word boundary and the categories they know.
What ECMA-262 (unicode mode) reads differently is translated:
``\\d``/``\\w``/``\\b`` are ASCII, ``\\s`` has its own set, ``.`` stops at four line
terminators, ``$`` only matches at the very end, ``\\cX``, ``\\u{...}``, surrogate pairs,
``\\p{...}`` general categories, ``(?<name>`` groups and ``[]``/``[^]``. Python-only
syntax, unknown escapes and script properties raise ``PatternError``; what RE2 cannot
run (lookaround, backreferences, lone surrogates, the ``C``/``Cn``/``LC`` categories)
raises ``Unsupported`` in the ``LINEAR`` dialect, as ``\\p{...}`` does in ``STDLIB``.
The ``*_SYNTAX`` dialects approximate every class, for "is this a pattern" checks that
never match anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import NamedTuple

__all__ = [
    "BACKTRACKING",
    "BACKTRACKING_SYNTAX",
    "LINEAR",
    "LINEAR_SYNTAX",
    "STDLIB",
    "Dialect",
    "PatternError",
    "Unsupported",
    "translate",
]


class PatternError(ValueError):
    """A pattern that is not ECMA-262, or that no engine here can run."""


class Unsupported(Exception):
    """The dialect being written cannot express this pattern: use the other engine."""


# --- the two dialects ---------------------------------------------------------------------

_Ranges = tuple[tuple[int, int], ...]
_LAST = 0x10FFFF
_DIGIT: _Ranges = ((0x30, 0x39),)
_WORD: _Ranges = ((0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A))
_SPACE: _Ranges = (
    (0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
    (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF),
)  # fmt: skip
_LINE_ENDS: _Ranges = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))


def _complement(ranges: _Ranges) -> _Ranges:
    out, start = [], 0
    for low, high in ranges:
        if low > start:
            out.append((start, low - 1))
        start = high + 1
    return (*out, (start, _LAST)) if start <= _LAST else tuple(out)


def _re2_code(code: int) -> str:
    return f"\\x{{{code:x}}}"


def _python_code(code: int) -> str:
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


_RE2_CATEGORIES = frozenset({
    "L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No",
    "P", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So",
    "Z", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co",
})  # fmt: skip
"""RE2's general categories: no Cn (unassigned), so no C either, and no LC."""


# A NamedTuple, not a frozen dataclass: a dataclass compiles its methods at import, on
# the way to the first validator of the process.
class Dialect(NamedTuple):
    """What differs between the engines' syntax; everything else is written once."""

    code: Callable[[int], str]
    end: str
    boundary: str | None  # None: the engine lacks lookaround, so \\b must be native
    categories: frozenset[str] | None  # None: every general category
    backtracking: bool
    never: str  # what never matches
    native: str = ""  # class escapes the engine reads as ECMA-262 does
    syntax_only: bool = False  # for "is it a pattern": every class may be approximated

    def ranges(self, ranges: _Ranges) -> str:
        """A character-class body (no brackets) for code point ranges."""
        code = self.code
        return "".join(code(a) if a == b else f"{code(a)}-{code(b)}" for a, b in ranges)


def _boundary(ranges: str) -> tuple[str, str]:
    word = f"[{ranges}]"
    return (
        f"(?:(?<={word})(?!{word})|(?<!{word})(?={word}))",
        f"(?:(?<={word})(?={word})|(?<!{word})(?!{word}))",
    )


LINEAR = Dialect(
    _re2_code, "\\z", None, _RE2_CATEGORIES, False, "[^\\x{0}-\\x{10ffff}]", native="dDwW"
)
BACKTRACKING = Dialect(_python_code, "\\Z", "A-Za-z0-9_", None, True, "(?!)")
# Python's re has no \\p{...}; with re.ASCII its \\b is ECMA-262's.
STDLIB = BACKTRACKING._replace(boundary=None, categories=frozenset())
# Checking that a text is a pattern needs no exact class: the engines' own shorthands
# keep the compiled program small, so even a long pattern of \\S compiles quickly.
LINEAR_SYNTAX = LINEAR._replace(native="dDwWsS", syntax_only=True)
BACKTRACKING_SYNTAX = BACKTRACKING._replace(native="dDwWsS", syntax_only=True)


# --- translation --------------------------------------------------------------------------

_SIMPLE_ESCAPES = frozenset("^$\\.*+?()[]{}|/-")
_CODES = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_CLASS_ESCAPES: dict[str, _Ranges] = {
    "d": _DIGIT,
    "D": _complement(_DIGIT),
    "w": _WORD,
    "W": _complement(_WORD),
    "s": _SPACE,
    "S": _complement(_SPACE),
}
_GROUP_NAME = re.compile(r"<([A-Za-z_$][A-Za-z0-9_$]*)>")
_BRACES = re.compile(r"([0-9]+)(,([0-9]*))?\}")
_HEX2 = re.compile("[0-9A-Fa-f]{2}")
_HEX4 = re.compile("[0-9A-Fa-f]{4}")
_BRACED_HEX = re.compile(r"\{([0-9A-Fa-f]{1,6})\}")
_LOW_SURROGATE = re.compile(r"\\u(d[c-f][0-9a-f]{2})", re.IGNORECASE)
_OPENERS = ("?:", "?=", "?!", "?<=", "?<!")
_PROPERTY = re.compile(r"\{([A-Za-z_=]+)\}")
_DIGITS = re.compile("[0-9]*")


def translate(pattern: str, dialect: Dialect = BACKTRACKING) -> str:
    """Rewrite an ECMA-262 pattern (unicode mode) in ``dialect``.

    Raises:
        PatternError: the pattern is not ECMA-262.
        Unsupported: the dialect's engine cannot run it (only ever for RE2).
    """
    return _Translator(pattern, dialect).run()


class _Translator:
    def __init__(self, pattern: str, dialect: Dialect) -> None:
        self.source = pattern
        self.dialect = dialect
        self.at = 0
        self.out: list[str] = []
        self.after_quantifier = False

    def run(self) -> str:
        while self.at < len(self.source):
            char = self.source[self.at]
            self.at += 1
            quantifier = False
            if char == "\\":
                self.out.append(self.escape(in_class=False))
            elif char == "[":
                self.character_class()
            elif char == "(":
                self.group()
            elif char == ".":
                self.out.append(self.dot())
            elif char == "$":
                self.out.append(self.dialect.end)
            elif char in "*+?":
                if char == "+" and self.after_quantifier:
                    raise PatternError("possessive quantifiers are not ECMA-262")
                lazy = char == "?" and self.after_quantifier
                quantifier = not lazy
                self.out.append(char)
            elif char == "{" and self.brace_quantifier():
                quantifier = True
            elif char in "^|)":
                self.out.append(char)
            else:
                self.out.append(self.literal(char))
            self.after_quantifier = quantifier
        return "".join(self.out)

    def dot(self) -> str:
        return "." if self.dialect.syntax_only else f"[^{self.dialect.ranges(_LINE_ENDS)}]"

    def literal(self, char: str) -> str:
        if char.isascii() and (char.isalnum() or char == "_"):
            return char
        if char.isascii() and char.isprintable() and char != " ":
            return "\\" + char  # both engines read an escaped ASCII punctuation as itself
        return self.dialect.code(ord(char))

    def lookaround(self) -> None:
        if not self.dialect.backtracking:
            raise Unsupported

    def brace_quantifier(self) -> bool:
        match = _BRACES.match(self.source, self.at)
        if match is None:
            raise PatternError("a lone '{' is not allowed in ECMA-262 unicode patterns")
        self.out.append("{" + match.group(0))
        self.at = match.end()
        return True

    def group(self) -> None:
        rest = self.source[self.at : self.at + 3]
        opener = next((o for o in _OPENERS if rest.startswith(o)), None)
        if not rest.startswith("?"):
            self.out.append("(")
        elif opener is not None:
            if opener != "?:":
                self.lookaround()
            self.out.append("(" + opener)
            self.at += len(opener)
        else:
            named = _GROUP_NAME.match(self.source, self.at + 1)
            if named is None:
                raise PatternError(f"'(?{rest[1:2]}' is not an ECMA-262 group")
            self.out.append(f"(?P<{named[1]}>")
            self.at = named.end()

    def character_class(self) -> None:
        source, dialect = self.source, self.dialect
        if source.startswith("]", self.at):
            self.out.append(dialect.never)
            self.at += 1
            return
        if source.startswith("^]", self.at):
            self.out.append(f"[{dialect.ranges(((0, _LAST),))}]")
            self.at += 2
            return
        parts = ["["]
        if source.startswith("^", self.at):
            parts.append("^")
            self.at += 1
        while True:
            if self.at >= len(source):
                raise PatternError("unterminated character class")
            char = source[self.at]
            self.at += 1
            if char == "]":
                break
            if char == "\\":
                parts.append(self.escape(in_class=True))
            elif char in "[&~|":
                parts.append("\\" + char)
            else:
                parts.append(char)
        parts.append("]")
        self.out.append("".join(parts))

    def escape(self, *, in_class: bool) -> str:
        source = self.source
        if self.at >= len(source):
            raise PatternError("the pattern ends with a lone backslash")
        char = source[self.at]
        self.at += 1
        handler = _ESCAPES.get(char)
        if handler is not None:
            return handler(self, char, in_class)
        if char in "123456789" and not in_class:
            more = _DIGITS.match(source, self.at)
            assert more is not None
            self.at = more.end()
            self.lookaround()  # a backreference: only a backtracking engine has them
            return "\\" + char + more.group(0)
        if char in _CODES:
            return self.dialect.code(_CODES[char])
        if char in _SIMPLE_ESCAPES:
            return "\\" + char
        raise PatternError(f"'\\{char}' is not an ECMA-262 escape")

    def class_escape(self, char: str, in_class: bool) -> str:
        if char in self.dialect.native:
            return "\\" + char
        body = self.dialect.ranges(_CLASS_ESCAPES[char])
        return body if in_class else f"[{body}]"

    def word_boundary(self, char: str, in_class: bool) -> str:
        if char == "b" and in_class:
            return "\\x08"
        if in_class:
            raise PatternError("'\\B' is not allowed in a character class")
        if self.dialect.boundary is None:
            return "\\" + char  # RE2's \b and \B are ASCII, as in ECMA-262
        yes, no = _boundary(self.dialect.boundary)
        return yes if char == "b" else no

    def control(self, char: str, in_class: bool) -> str:
        letter = self.source[self.at : self.at + 1]
        if not (letter.isascii() and letter.isalpha()):
            raise PatternError("\\c must be followed by a letter")
        self.at += 1
        return self.dialect.code(ord(letter) % 32)

    def hex_escape(self, char: str, in_class: bool) -> str:
        digits = self.source[self.at : self.at + 2]
        if not _HEX2.fullmatch(digits):
            raise PatternError("\\x must be followed by two hex digits")
        self.at += 2
        return self.dialect.code(int(digits, 16))

    def named_reference(self, char: str, in_class: bool) -> str:
        if in_class:
            raise PatternError("'\\k' is not allowed in a character class")
        named = _GROUP_NAME.match(self.source, self.at)
        if named is None:
            raise PatternError("\\k must name a group: \\k<name>")
        self.at = named.end()
        self.lookaround()
        return f"(?P={named[1]})"

    def octal(self, char: str, in_class: bool) -> str:
        if self.source[self.at : self.at + 1].isdigit():
            raise PatternError("octal escapes are not ECMA-262 (unicode mode)")
        return self.dialect.code(0)

    def unicode_escape(self, char: str, in_class: bool) -> str:
        source = self.source
        braced = _BRACED_HEX.match(source, self.at)
        if braced is not None:
            self.at = braced.end()
            code = int(braced[1], 16)
            if code > _LAST:
                raise PatternError("\\u{...} is past the last code point")
            return self.literal(chr(code))
        digits = source[self.at : self.at + 4]
        if not _HEX4.fullmatch(digits):
            raise PatternError("\\u must be followed by four hex digits or {...}")
        self.at += 4
        code = int(digits, 16)
        low = _LOW_SURROGATE.match(source, self.at)
        if 0xD800 <= code <= 0xDBFF and low is not None:
            self.at = low.end()
            code = 0x10000 + ((code - 0xD800) << 10) + (int(low[1], 16) - 0xDC00)
        elif 0xD800 <= code <= 0xDFFF and not self.dialect.backtracking:
            raise Unsupported  # RE2 matches UTF-8, where a lone surrogate cannot be
        return self.literal(chr(code))

    def property(self, char: str, in_class: bool) -> str:
        match = _PROPERTY.match(self.source, self.at)
        if match is None:
            raise PatternError("\\p must be followed by {Property}")
        self.at = match.end()
        name = match[1]
        if "=" in name:
            key, _, name = name.partition("=")
            if key not in ("gc", "General_Category"):
                raise PatternError(f"\\p{{{match[1]}}}: only general categories are supported")
        category = _category_name(name)
        known = self.dialect.categories
        if self.dialect.syntax_only:  # any class will do, and a digit compiles smallest
            return "\\d" if char == "p" else "\\D"
        if known is not None and category not in known:
            raise Unsupported
        text = f"\\{char}{{{category}}}"
        return text if in_class else f"[{text}]"


_ESCAPES: dict[str, Callable[[_Translator, str, bool], str]] = {
    **dict.fromkeys("dDwWsS", _Translator.class_escape),
    "b": _Translator.word_boundary,
    "B": _Translator.word_boundary,
    "c": _Translator.control,
    "x": _Translator.hex_escape,
    "u": _Translator.unicode_escape,
    "k": _Translator.named_reference,
    "0": _Translator.octal,
    "p": _Translator.property,
    "P": _Translator.property,
}
"""Escapes that are not a plain character, by the letter after the backslash."""


_CATEGORIES = _RE2_CATEGORIES | {"LC", "C", "Cn"}
_CATEGORY_ALIASES = {
    "letter": "L", "casedletter": "LC", "uppercaseletter": "Lu", "lowercaseletter": "Ll",
    "titlecaseletter": "Lt", "modifierletter": "Lm", "otherletter": "Lo", "mark": "M",
    "combiningmark": "M", "nonspacingmark": "Mn", "spacingmark": "Mc", "enclosingmark": "Me",
    "number": "N", "decimalnumber": "Nd", "digit": "Nd", "letternumber": "Nl",
    "othernumber": "No", "punctuation": "P", "punct": "P", "connectorpunctuation": "Pc",
    "dashpunctuation": "Pd", "openpunctuation": "Ps", "closepunctuation": "Pe",
    "initialpunctuation": "Pi", "finalpunctuation": "Pf", "otherpunctuation": "Po",
    "symbol": "S", "mathsymbol": "Sm", "currencysymbol": "Sc", "modifiersymbol": "Sk",
    "othersymbol": "So", "separator": "Z", "spaceseparator": "Zs", "lineseparator": "Zl",
    "paragraphseparator": "Zp", "other": "C", "control": "Cc", "cntrl": "Cc", "format": "Cf",
    "surrogate": "Cs", "privateuse": "Co", "unassigned": "Cn",
}  # fmt: skip


def _category_name(name: str) -> str:
    if name in _CATEGORIES:
        return name
    loose = name.replace("_", "").replace(" ", "").lower()
    if loose in _CATEGORY_ALIASES:
        return _CATEGORY_ALIASES[loose]
    raise PatternError(f"\\p{{{name}}}: unknown or unsupported Unicode property")
