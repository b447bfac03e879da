"""String formats the validators assert: one checker per format name (a table).

Each checker takes a ``str`` and returns whether it is in the format; the generated
code calls them only for strings (formats say nothing about other types). The
formats of Python's scalar types (``date-time``, ``uuid``, ``ipv4network``, ...) come
from their rows in ``llmapp._scalars.table``; this module adds the others. A format
that is not in ``STRING_FORMATS`` or ``NUMBER_FORMATS`` is accepted as annotation.
Patterns are compiled on first use (``_regex``): importing the checks compiles none.
"""

from __future__ import annotations

import binascii
import re
import sys
import unicodedata
from collections.abc import Callable
from functools import cache
from typing import Any

from llmapp._scalars.iso8601 import (
    USUAL_FORMATS,
    DurationTexts,
    UsualTexts,
    is_date_time_either,
    is_time_either,
)
from llmapp._scalars.table import format_checks, is_ipv4, is_ipv6

from ._patterns import is_pattern

__all__ = ["NUMBER_FORMATS", "STRING_FORMATS", "either_format", "usual_texts"]

_regex = cache(re.compile)

_LABEL_TEXT = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_LABEL = _LABEL_TEXT + r"\Z"
_HOSTNAME = rf"(?:{_LABEL_TEXT}\.)*{_LABEL_TEXT}\Z"
_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_DOT_ATOM = rf"{_ATEXT}(?:\.{_ATEXT})*\Z"
_PLAIN_EMAIL = rf"{_ATEXT}(?:\.{_ATEXT})*@((?:{_LABEL_TEXT}\.)*{_LABEL_TEXT})\Z"
_QUOTED = r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"\Z'
_BASE64 = r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\Z"
_JSON_POINTER = r"(?:/(?:[^~/]|~[01])*)*\Z"
_RELATIVE_POINTER = r"(?:0|[1-9][0-9]*)(?:#|(?:/(?:[^~/]|~[01])*)*)\Z"

# RFC 3986, ASCII only.
_UNRESERVED = r"A-Za-z0-9\-._~"
_SUB_DELIMS = r"!$&'()*+,;="
_PCT = r"%[0-9A-Fa-f]{2}"
_PCHAR = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}:@]|{_PCT})"
_SCHEME = r"[A-Za-z][A-Za-z0-9+\-.]*"
_USERINFO = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}:]|{_PCT})*"
_REG_NAME = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}]|{_PCT})*"
_AUTHORITY = rf"(?:({_USERINFO})@)?(\[[^\]]*\]|{_REG_NAME})(?::([0-9]*))?\Z"
_PATH = rf"(?:{_PCHAR}|/)*\Z"
_QUERY = rf"(?:{_PCHAR}|[/?])*\Z"
_SCHEME_RE = rf"{_SCHEME}\Z"
# The usual URL in one match: a scheme, a host (a reg-name) with an optional port, then a
# path, a query and a fragment without percent-escapes. Each part is a case of the grammar
# ``is_uri`` reads part by part, so text it matches is accepted; anything else (userinfo,
# an IP literal, a percent-escape) takes the longer way, which decides alone.
_PLAIN_URI = (
    rf"{_SCHEME}://[{_UNRESERVED}{_SUB_DELIMS}]*(?::[0-9]*)?"
    rf"(?:/[{_UNRESERVED}{_SUB_DELIMS}:@/]*)?"
    rf"(?:\?[{_UNRESERVED}{_SUB_DELIMS}:@/?]*)?"
    rf"(?:#[{_UNRESERVED}{_SUB_DELIMS}:@/?]*)?\Z"
)


def is_hostname(text: str) -> bool:
    """RFC 1123 host name; ``xn--`` labels must be valid IDNA 2008 A-labels."""
    if len(text) > 253 or _regex(_HOSTNAME).match(text) is None:
        return False
    return "--" not in text or all(_is_label(label) for label in text.split("."))


def _is_label(label: str) -> bool:
    if _regex(_LABEL).match(label) is None:
        return False
    if label[:4].lower() != "xn--":
        return True
    try:
        decoded = label[4:].encode("ascii").decode("punycode")
    except (UnicodeError, ValueError):
        return False
    return _is_u_label(decoded)


_DISALLOWED = frozenset("\u0640\u07fa\u302e\u302f\u3031\u3032\u3033\u3034\u3035\u303b")


def _is_u_label(label: str) -> bool:
    """The IDNA 2008 rules (RFC 5891, 5892 appendix A) a decoded A-label must keep."""
    if not label or label[2:4] == "--" or unicodedata.category(label[0]).startswith("M"):
        return False
    if any(char in _DISALLOWED for char in label):
        return False
    arabic = any("\u0660" <= c <= "\u0669" for c in label)
    if arabic and any("\u06f0" <= c <= "\u06f9" for c in label):
        return False
    return all(_context_ok(label, index) for index in range(len(label)))


def _script(char: str) -> str:
    return unicodedata.name(char, "").split(" ", 1)[0]


def _context_ok(label: str, index: int) -> bool:
    char = label[index]
    before = label[index - 1] if index > 0 else ""
    after = label[index + 1] if index + 1 < len(label) else ""
    if char == "\u00b7":  # MIDDLE DOT between two l's
        return before == "l" and after == "l"
    if char == "\u0375":  # Greek KERAIA before Greek
        return bool(after) and _script(after) == "GREEK"
    if char in "\u05f3\u05f4":  # Hebrew GERESH, GERSHAYIM after Hebrew
        return bool(before) and _script(before) == "HEBREW"
    if char == "\u30fb":  # KATAKANA MIDDLE DOT with Hiragana, Katakana or Han
        return any(_script(c) in ("HIRAGANA", "KATAKANA", "CJK") for c in label if c != char)
    if char == "\u200d":  # ZERO WIDTH JOINER after a virama
        return bool(before) and unicodedata.combining(before) == 9
    if char == "\u200c":  # ZERO WIDTH NON-JOINER after a virama, or between joining letters
        if before and unicodedata.combining(before) == 9:
            return True
        return _script(before or " ") == "ARABIC" and _script(after or " ") == "ARABIC"
    return True


def is_email(text: str) -> bool:
    """RFC 5321 mailbox: dot-atom or quoted local part, host name or address literal."""
    plain = _regex(_PLAIN_EMAIL).match(text)
    if plain is not None:
        domain = plain[1]
        return len(domain) <= 253 and ("--" not in domain or is_hostname(domain))
    local, at, domain = text.rpartition("@")
    if not at or not local or not domain:
        return False
    if _regex(_DOT_ATOM).match(local) is None and _regex(_QUOTED).match(local) is None:
        return False
    if domain.startswith("[") and domain.endswith("]"):
        literal = domain[1:-1]
        if literal[:5].lower() == "ipv6:":
            return is_ipv6(literal[5:])
        return is_ipv4(literal)
    return is_hostname(domain)


def is_uri(text: str) -> bool:
    """RFC 3986 absolute URI (a scheme is required)."""
    return _regex(_PLAIN_URI).match(text) is not None or _uri_by_parts(text)


def _uri_by_parts(text: str) -> bool:
    """``is_uri`` read by RFC 3986's grammar, part by part."""
    scheme, colon, rest = text.partition(":")
    if not colon or _regex(_SCHEME_RE).match(scheme) is None:
        return False
    return _is_hier_part(rest)


def is_uri_reference(text: str) -> bool:
    scheme, colon, rest = text.partition(":")
    if colon and _regex(_SCHEME_RE).match(scheme) is not None:
        return _is_hier_part(rest)
    first_segment = text.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
    if ":" in first_segment:
        return False
    return _is_hier_part(text)


def _is_hier_part(rest: str) -> bool:
    rest, _, fragment = rest.partition("#")
    rest, _, query = rest.partition("?")
    if _regex(_QUERY).match(query) is None or _regex(_QUERY).match(fragment) is None:
        return False
    if rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        if not _is_authority(authority):
            return False
        rest = slash + path
    return _regex(_PATH).match(rest) is not None


def _is_authority(authority: str) -> bool:
    match = _regex(_AUTHORITY).match(authority)
    if match is None:
        return False
    host = match[2]
    if host.startswith("["):
        literal = host[1:-1]
        if literal[:1] in "vV" and "." in literal:
            return (
                re.match(rf"[vV][0-9A-Fa-f]+\.[{_UNRESERVED}{_SUB_DELIMS}:]+\Z", literal)
                is not None
            )
        return is_ipv6(literal)
    return True


if sys.version_info >= (3, 11):

    def is_byte(text: str) -> bool:
        """Base64 (OpenAPI ``format: byte``, JSON Schema ``contentEncoding: base64``): groups
        of four, the last one padded (``_BASE64``), read by the strict decoder in C.

        The decoder also takes padding after a whole group (``AAAA=``, ``AAAA====``): the
        length and the last three characters refuse those, as the grammar does.
        """
        if len(text) & 3 or text[-3:] == "===":
            return False
        try:
            binascii.a2b_base64(text, strict_mode=True)
        except (binascii.Error, ValueError):  # ValueError: a character past ASCII
            return False
        return True

else:

    def is_byte(text: str) -> bool:
        """Base64 (OpenAPI ``format: byte``, JSON Schema ``contentEncoding: base64``)."""
        return _regex(_BASE64).match(text) is not None


def is_json_pointer(text: str) -> bool:
    return _regex(_JSON_POINTER).match(text) is not None


def is_relative_json_pointer(text: str) -> bool:
    return _regex(_RELATIVE_POINTER).match(text) is not None


def is_regex(text: str) -> bool:
    """An ECMA-262 pattern. The text is often the model's: checking it is bounded and
    keeps no compiled pattern (see ``_patterns.is_pattern``)."""
    return is_pattern(text)


def _anything(text: str) -> bool:
    return True


STRING_FORMATS: dict[str, Callable[[str], bool]] = {
    **format_checks(),
    "email": is_email,
    "uri": is_uri,
    "url": is_uri,
    "uri-reference": is_uri_reference,
    "hostname": is_hostname,
    "byte": is_byte,
    "binary": _anything,
    "password": _anything,
    "json-pointer": is_json_pointer,
    "relative-json-pointer": is_relative_json_pointer,
    "regex": is_regex,
}
"""Formats asserted on strings. ``binary`` and ``password`` accept any string."""

NUMBER_FORMATS: dict[str, tuple[int, int]] = {
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint32": (0, 2**32 - 1),
    "uint64": (0, 2**64 - 1),
}
"""OpenAPI integer formats, asserted as ranges on numbers."""


def usual_texts(schema: Any) -> UsualTexts | DurationTexts | None:
    """The check at once of a container whose every item is to match ``schema``, when
    that is a string in a date or time format, or a union of such strings that one
    ``fromisoformat`` reads (``datetime``'s two formats, ``time``'s), or a duration:
    else None."""
    if type(schema) is not dict:
        return None
    branches = schema.get("anyOf") if len(schema) == 1 else [schema]
    if type(branches) is not list or not branches:
        return None
    formats = []
    for branch in branches:
        format = _string_format(branch)
        if format is None or not (format in USUAL_FORMATS or format == "duration"):
            return None
        formats.append(format)
    if "duration" in formats:
        return _DURATION_TEXTS if formats == ["duration"] else None
    return _usual_texts(tuple(formats))


_DURATION_TEXTS = DurationTexts()


def _string_format(schema: Any) -> str | None:
    """The format of a schema that says only that a value is a string in it, else None."""
    if (
        type(schema) is dict
        and schema.keys() == {"type", "format"}
        and schema["type"] == "string"
        and type(schema["format"]) is str
    ):
        return schema["format"]
    return None


@cache
def _usual_texts(formats: tuple[str, ...]) -> UsualTexts | None:
    try:
        return UsualTexts(formats)
    except ValueError:
        return None  # a date-time or a time: no one reader for both


_EITHER_FORMATS: dict[frozenset[str], tuple[str, Callable[[str], bool]]] = {
    frozenset({"date-time", "date-time-local"}): ("is_date_time_either", is_date_time_either),
    frozenset({"time", "time-local"}): ("is_time_either", is_time_either),
}
"""Unions of string formats one call checks (``datetime``'s two, ``time``'s): the name and
the check."""


def either_format(branches: list[Any]) -> tuple[str, Callable[[str], bool], list[int]] | None:
    """The one check (its name, the check, the positions of the branches it stands for)
    of the plain strings among an ``anyOf``'s ``branches`` whose formats a row of
    ``_EITHER_FORMATS`` joins, else None. Other branches may be beside them
    (``datetime | date | None``)."""
    found: dict[str, int] = {}
    for index, branch in enumerate(branches):
        format = _string_format(branch)
        if format is not None:
            found.setdefault(format, index)
    for formats, (name, check) in _EITHER_FORMATS.items():
        if formats <= found.keys():
            return name, check, sorted(found[format] for format in formats)
    return None
