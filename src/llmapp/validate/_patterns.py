"""ECMA-262 patterns (JSON Schema's dialect) rewritten for Python's ``re``.

What Python reads differently is translated: ``\\d``/``\\w``/``\\b`` are ASCII in
ECMA-262, ``\\s`` has its own set, ``.`` stops at four line terminators, ``$`` only
matches at the very end, ``\\cX``, ``\\u{...}``, surrogate pairs, ``\\p{...}``
general categories, ``(?<name>`` groups and ``[]``/``[^]``. What cannot be expressed
(Python-only syntax, unknown escapes, script properties, variable-width lookbehind)
raises ``PatternError`` so the schema is reported at build time.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
import warnings

__all__ = ["PatternError", "compile_pattern", "translate"]


class PatternError(ValueError):
    """A pattern that is not ECMA-262, or that Python's ``re`` cannot express."""


_WORD = "A-Za-z0-9_"
_SPACE = "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
_NOT_DIGIT = "\\x00-/:-\\U0010ffff"
_NOT_WORD = "\\x00-/:-@\\[-^`{-\\U0010ffff"
_NOT_SPACE = (
    "\\x00-\\x08\\x0e-\\x1f!-\\x9f\\xa1-\\u167f\\u1681-\\u1fff\\u200b-\\u2027"
    "\\u202a-\\u202e\\u2030-\\u205e\\u2060-\\u2fff\\u3001-\\ufefe\\uff00-\\U0010ffff"
)
_CLASS_ESCAPES = {
    "d": "0-9",
    "D": _NOT_DIGIT,
    "w": _WORD,
    "W": _NOT_WORD,
    "s": _SPACE,
    "S": _NOT_SPACE,
}
_BOUNDARY = f"(?:(?<=[{_WORD}])(?![{_WORD}])|(?<![{_WORD}])(?=[{_WORD}]))"
_NOT_BOUNDARY = f"(?:(?<=[{_WORD}])(?=[{_WORD}])|(?<![{_WORD}])(?![{_WORD}]))"
_SIMPLE_ESCAPES = set("fnrtv0") | set("^$\\.*+?()[]{}|/-")
_DOT = "[^\\n\\r\\u2028\\u2029]"

_CATEGORY_ALIASES = {
    "letter": "L",
    "casedletter": "LC",
    "uppercaseletter": "Lu",
    "lowercaseletter": "Ll",
    "titlecaseletter": "Lt",
    "modifierletter": "Lm",
    "otherletter": "Lo",
    "mark": "M",
    "combiningmark": "M",
    "nonspacingmark": "Mn",
    "spacingmark": "Mc",
    "enclosingmark": "Me",
    "number": "N",
    "decimalnumber": "Nd",
    "digit": "Nd",
    "letternumber": "Nl",
    "othernumber": "No",
    "punctuation": "P",
    "punct": "P",
    "connectorpunctuation": "Pc",
    "dashpunctuation": "Pd",
    "openpunctuation": "Ps",
    "closepunctuation": "Pe",
    "initialpunctuation": "Pi",
    "finalpunctuation": "Pf",
    "otherpunctuation": "Po",
    "symbol": "S",
    "mathsymbol": "Sm",
    "currencysymbol": "Sc",
    "modifiersymbol": "Sk",
    "othersymbol": "So",
    "separator": "Z",
    "spaceseparator": "Zs",
    "lineseparator": "Zl",
    "paragraphseparator": "Zp",
    "other": "C",
    "control": "Cc",
    "cntrl": "Cc",
    "format": "Cf",
    "surrogate": "Cs",
    "privateuse": "Co",
    "unassigned": "Cn",
}


@functools.lru_cache(maxsize=512)
def compile_pattern(pattern: str) -> re.Pattern[str]:
    """Translate an ECMA-262 pattern and compile it; ``PatternError`` says why it cannot be."""
    translated = translate(pattern)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return re.compile(translated)
    except (re.error, OverflowError, RecursionError) as error:
        raise PatternError(f"Python's re cannot compile it: {error}") from None


def translate(pattern: str) -> str:
    """Rewrite an ECMA-262 pattern (unicode mode) as an equivalent Python pattern."""
    return _Translator(pattern).run()


class _Translator:
    def __init__(self, pattern: str) -> None:
        self.source = pattern
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
                self.out.append(_DOT)
            elif char == "$":
                self.out.append("\\Z")
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
                self.out.append(_literal(char))
            self.after_quantifier = quantifier
        return "".join(self.out)

    def brace_quantifier(self) -> bool:
        match = re.compile(r"([0-9]+)(,([0-9]*))?\}").match(self.source, self.at)
        if match is None:
            raise PatternError("a lone '{' is not allowed in ECMA-262 unicode patterns")
        self.out.append("{" + match.group(0))
        self.at = match.end()
        return True

    def group(self) -> None:
        rest = self.source[self.at :]
        if not rest.startswith("?"):
            self.out.append("(")
            return
        if rest.startswith(("?:", "?=", "?!", "?<=", "?<!")):
            self.out.append("(")
            return
        named = re.match(r"\?<([A-Za-z_$][A-Za-z0-9_$]*)>", rest)
        if named is not None:
            self.out.append(f"(?P<{named[1]}>")
            self.at += named.end()
            return
        raise PatternError(f"'(?{rest[1:2]}' is not an ECMA-262 group")

    def character_class(self) -> None:
        source = self.source
        if source.startswith("]", self.at):
            self.out.append("(?!)")
            self.at += 1
            return
        if source.startswith("^]", self.at):
            self.out.append("[\\s\\S]")
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
        if char in _CLASS_ESCAPES:
            body = _CLASS_ESCAPES[char]
            return body if in_class else f"[{body}]"
        if char == "b":
            return "\\x08" if in_class else _BOUNDARY
        if char == "B" and not in_class:
            return _NOT_BOUNDARY
        if char == "c":
            letter = source[self.at : self.at + 1]
            if not (letter.isascii() and letter.isalpha()):
                raise PatternError("\\c must be followed by a letter")
            self.at += 1
            return f"\\x{ord(letter) % 32:02x}"
        if char == "u":
            return _literal(self.unicode_escape())
        if char == "x":
            digits = source[self.at : self.at + 2]
            if not re.fullmatch("[0-9A-Fa-f]{2}", digits):
                raise PatternError("\\x must be followed by two hex digits")
            self.at += 2
            return f"\\x{digits}"
        if char in "pP":
            ranges = self.property_ranges(negated=char == "P")
            return ranges if in_class else f"[{ranges}]"
        if char == "k" and not in_class:
            named = re.compile(r"<([A-Za-z_$][A-Za-z0-9_$]*)>").match(source, self.at)
            if named is None:
                raise PatternError("\\k must name a group: \\k<name>")
            self.at = named.end()
            return f"(?P={named[1]})"
        if char.isdigit() and char != "0" and not in_class:
            more = re.compile("[0-9]*").match(source, self.at)
            assert more is not None
            self.at = more.end()
            return "\\" + char + more.group(0)
        if char == "0":
            if source[self.at : self.at + 1].isdigit():
                raise PatternError("octal escapes are not ECMA-262 (unicode mode)")
            return "\\x00"
        if char in _SIMPLE_ESCAPES:
            return "\\" + char if char != "v" else "\\x0b"
        raise PatternError(f"'\\{char}' is not an ECMA-262 escape")

    def unicode_escape(self) -> str:
        source = self.source
        braced = re.compile(r"\{([0-9A-Fa-f]{1,6})\}").match(source, self.at)
        if braced is not None:
            self.at = braced.end()
            code = int(braced[1], 16)
            if code > 0x10FFFF:
                raise PatternError("\\u{...} is past the last code point")
            return chr(code)
        digits = source[self.at : self.at + 4]
        if not re.fullmatch("[0-9A-Fa-f]{4}", digits):
            raise PatternError("\\u must be followed by four hex digits or {...}")
        self.at += 4
        code = int(digits, 16)
        low = re.compile(r"\\u(d[c-f][0-9a-f]{2})", re.IGNORECASE).match(source, self.at)
        if 0xD800 <= code <= 0xDBFF and low is not None:
            self.at = low.end()
            return chr(0x10000 + ((code - 0xD800) << 10) + (int(low[1], 16) - 0xDC00))
        return chr(code)

    def property_ranges(self, *, negated: bool) -> str:
        match = re.compile(r"\{([A-Za-z_=]+)\}").match(self.source, self.at)
        if match is None:
            raise PatternError("\\p must be followed by {Property}")
        self.at = match.end()
        name = match[1]
        if "=" in name:
            key, _, name = name.partition("=")
            if key not in ("gc", "General_Category"):
                raise PatternError(f"\\p{{{match[1]}}}: only general categories are supported")
        category = _category_name(name)
        return _category_ranges(category, negated)


def _literal(char: str) -> str:
    return re.escape(char) if not char.isalnum() or not char.isascii() else char


def _category_name(name: str) -> str:
    if name in _ALL_CATEGORIES or name in ("L", "LC", "M", "N", "P", "S", "Z", "C"):
        return name
    loose = name.replace("_", "").replace(" ", "").lower()
    if loose in _CATEGORY_ALIASES:
        return _CATEGORY_ALIASES[loose]
    raise PatternError(f"\\p{{{name}}}: unknown or unsupported Unicode property")


_ALL_CATEGORIES = {
    "Lu",
    "Ll",
    "Lt",
    "Lm",
    "Lo",
    "Mn",
    "Mc",
    "Me",
    "Nd",
    "Nl",
    "No",
    "Pc",
    "Pd",
    "Ps",
    "Pe",
    "Pi",
    "Pf",
    "Po",
    "Sm",
    "Sc",
    "Sk",
    "So",
    "Zs",
    "Zl",
    "Zp",
    "Cc",
    "Cf",
    "Cs",
    "Co",
    "Cn",
}


@functools.lru_cache(maxsize=64)
def _category_ranges(category: str, negated: bool) -> str:
    """A character-class body (no brackets) for a general category, from unicodedata."""
    wanted = {"LC": ("Lu", "Ll", "Lt")}.get(category)

    def matches(char: str) -> bool:
        found = unicodedata.category(char)
        hit = found in wanted if wanted else found.startswith(category)
        return hit != negated

    ranges: list[str] = []
    start = None
    for code in range(sys.maxunicode + 2):
        inside = code <= sys.maxunicode and matches(chr(code))
        if inside and start is None:
            start = code
        elif not inside and start is not None:
            last = code - 1
            ranges.append(_escape_code(start) + ("" if last == start else "-" + _escape_code(last)))
            start = None
    return "".join(ranges)


def _escape_code(code: int) -> str:
    return f"\\U{code:08x}"
