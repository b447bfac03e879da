"""String formats the validators assert: one checker per format name (a table).

Each checker takes a ``str`` and returns whether it is in the format; the generated
code calls them only for strings (formats say nothing about other types). A format
that is not in ``STRING_FORMATS`` or ``NUMBER_FORMATS`` is accepted as annotation.
"""

from __future__ import annotations

import binascii
import ipaddress
import re
import unicodedata
from collections.abc import Callable
from typing import Any, cast

from ._patterns import is_pattern

__all__ = ["NUMBER_FORMATS", "STRING_FORMATS"]


class _Deferred:
    """A pattern compiled on first use, which then takes its own place in this module's
    globals: importing the formats compiles no regex (about 2 ms), and once a checker
    has run it reads the compiled pattern directly, at no cost."""

    __slots__ = ("_name", "_source")

    def __init__(self, name: str, source: str) -> None:
        self._name = name
        self._source = source

    def __getattr__(self, attribute: str) -> Any:
        compiled = re.compile(self._source)
        globals()[self._name] = compiled
        return getattr(compiled, attribute)


def _lazy(name: str, source: str) -> re.Pattern[str]:
    """``re.compile(source)`` on first use, for the module global ``name``."""
    return cast("re.Pattern[str]", _Deferred(name, source))


_DATE_PART = r"([0-9]{4})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
_TIME_PART = (
    r"([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9]|60)(?:\.[0-9]+)?"
    r"(?:[zZ]|([+-])([01][0-9]|2[0-3]):([0-5][0-9]))"
)
_DATE = _lazy("_DATE", _DATE_PART + r"\Z")
_TIME = _lazy("_TIME", _TIME_PART + r"\Z")
_DATE_TIME = _lazy("_DATE_TIME", _DATE_PART + "[Tt]" + _TIME_PART + r"\Z")
_DAYS_IN_MONTH = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)

_DURATION_DATE = r"(?:[0-9]+D|[0-9]+M(?:[0-9]+D)?|[0-9]+Y(?:[0-9]+M(?:[0-9]+D)?)?)"
_DURATION_TIME = r"T(?:[0-9]+H(?:[0-9]+M(?:[0-9]+S)?)?|[0-9]+M(?:[0-9]+S)?|[0-9]+S)"
_DURATION = _lazy(
    "_DURATION", rf"P(?:{_DURATION_DATE}(?:{_DURATION_TIME})?|{_DURATION_TIME}|[0-9]+W)\Z"
)

_UUID = _lazy(
    "_UUID", r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\Z"
)
_IPV4 = _lazy(
    "_IPV4",
    r"(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}"
    r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\Z",
)
_LABEL_TEXT = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_LABEL = _lazy("_LABEL", _LABEL_TEXT + r"\Z")
_HOSTNAME = _lazy("_HOSTNAME", rf"(?:{_LABEL_TEXT}\.)*{_LABEL_TEXT}\Z")
_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
_DOT_ATOM = _lazy("_DOT_ATOM", rf"{_ATEXT}(?:\.{_ATEXT})*\Z")
_PLAIN_EMAIL = _lazy(
    "_PLAIN_EMAIL", rf"{_ATEXT}(?:\.{_ATEXT})*@((?:{_LABEL_TEXT}\.)*{_LABEL_TEXT})\Z"
)
_QUOTED = _lazy("_QUOTED", r'"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"\Z')
_BASE64 = _lazy("_BASE64", r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?\Z")
_DECIMAL = _lazy("_DECIMAL", r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
_JSON_POINTER = _lazy("_JSON_POINTER", r"(?:/(?:[^~/]|~[01])*)*\Z")
_RELATIVE_POINTER = _lazy("_RELATIVE_POINTER", r"(?:0|[1-9][0-9]*)(?:#|(?:/(?:[^~/]|~[01])*)*)\Z")

# RFC 3986, ASCII only.
_UNRESERVED = r"A-Za-z0-9\-._~"
_SUB_DELIMS = r"!$&'()*+,;="
_PCT = r"%[0-9A-Fa-f]{2}"
_PCHAR = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}:@]|{_PCT})"
_SCHEME = r"[A-Za-z][A-Za-z0-9+\-.]*"
_USERINFO = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}:]|{_PCT})*"
_REG_NAME = rf"(?:[{_UNRESERVED}{_SUB_DELIMS}]|{_PCT})*"
_AUTHORITY = _lazy("_AUTHORITY", rf"(?:({_USERINFO})@)?(\[[^\]]*\]|{_REG_NAME})(?::([0-9]*))?\Z")
_PATH = _lazy("_PATH", rf"(?:{_PCHAR}|/)*\Z")
_QUERY = _lazy("_QUERY", rf"(?:{_PCHAR}|[/?])*\Z")
_SCHEME_RE = _lazy("_SCHEME_RE", rf"{_SCHEME}\Z")


def _is_leap(year: int) -> bool:
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def _day_ok(year: str, month: str, day: str) -> bool:
    if year == "0000":
        return False  # RFC 3339 allows it, but no Python date (nor most parsers) does
    if day <= "28":
        return True
    number = int(month)
    days = 29 if number == 2 and _is_leap(int(year)) else _DAYS_IN_MONTH[number - 1]
    return int(day) <= days


def _leap_second_ok(hour: str, minute: str, sign: str | None, off_h: str, off_m: str) -> bool:
    """Second 60 is only valid at 23:59 UTC."""
    offset = 0 if sign is None else (int(off_h) * 60 + int(off_m)) * (1 if sign == "+" else -1)
    return (int(hour) * 60 + int(minute) - offset) % (24 * 60) == 23 * 60 + 59


def is_date(text: str) -> bool:
    match = _DATE.match(text)
    return match is not None and _day_ok(*match.groups())


def is_time(text: str) -> bool:
    """RFC 3339 full-time: an offset is required; second 60 only at 23:59 UTC."""
    match = _TIME.match(text)
    if match is None:
        return False
    hour, minute, second, sign, off_h, off_m = match.groups()
    return second != "60" or _leap_second_ok(hour, minute, sign, off_h, off_m)


def is_date_time(text: str) -> bool:
    match = _DATE_TIME.match(text)
    if match is None:
        return False
    year, month, day, hour, minute, second, sign, off_h, off_m = match.groups()
    if not _day_ok(year, month, day):
        return False
    return second != "60" or _leap_second_ok(hour, minute, sign, off_h, off_m)


def is_duration(text: str) -> bool:
    return _DURATION.match(text) is not None


def is_uuid(text: str) -> bool:
    return _UUID.match(text) is not None


def is_ipv4(text: str) -> bool:
    return _IPV4.match(text) is not None


def is_ipv6(text: str) -> bool:
    if not text.isascii() or "%" in text or "/" in text:
        return False
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    tail = text.rsplit(":", 1)[-1]
    return "." not in tail or is_ipv4(tail)


def is_hostname(text: str) -> bool:
    """RFC 1123 host name; ``xn--`` labels must be valid IDNA 2008 A-labels."""
    if len(text) > 253 or _HOSTNAME.match(text) is None:
        return False
    return "--" not in text or all(_is_label(label) for label in text.split("."))


def _is_label(label: str) -> bool:
    if _LABEL.match(label) is None:
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
    plain = _PLAIN_EMAIL.match(text)
    if plain is not None:
        domain = plain[1]
        return len(domain) <= 253 and ("--" not in domain or is_hostname(domain))
    local, at, domain = text.rpartition("@")
    if not at or not local or not domain:
        return False
    if _DOT_ATOM.match(local) is None and _QUOTED.match(local) is None:
        return False
    if domain.startswith("[") and domain.endswith("]"):
        literal = domain[1:-1]
        if literal[:5].lower() == "ipv6:":
            return is_ipv6(literal[5:])
        return is_ipv4(literal)
    return is_hostname(domain)


def is_uri(text: str) -> bool:
    """RFC 3986 absolute URI (a scheme is required)."""
    scheme, colon, rest = text.partition(":")
    if not colon or _SCHEME_RE.match(scheme) is None:
        return False
    return _is_hier_part(rest)


def is_uri_reference(text: str) -> bool:
    scheme, colon, rest = text.partition(":")
    if colon and _SCHEME_RE.match(scheme) is not None:
        return _is_hier_part(rest)
    first_segment = text.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
    if ":" in first_segment:
        return False
    return _is_hier_part(text)


def _is_hier_part(rest: str) -> bool:
    rest, _, fragment = rest.partition("#")
    rest, _, query = rest.partition("?")
    if _QUERY.match(query) is None or _QUERY.match(fragment) is None:
        return False
    if rest.startswith("//"):
        authority, slash, path = rest[2:].partition("/")
        if not _is_authority(authority):
            return False
        rest = slash + path
    return _PATH.match(rest) is not None


def _is_authority(authority: str) -> bool:
    match = _AUTHORITY.match(authority)
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


def is_byte(text: str) -> bool:
    """Base64 (OpenAPI ``format: byte``, JSON Schema ``contentEncoding: base64``)."""
    if _BASE64.match(text) is None:
        return False
    try:
        binascii.a2b_base64(text.encode("ascii"))
    except (binascii.Error, ValueError):
        return False
    return True


def is_decimal(text: str) -> bool:
    """llmapp's ``decimal`` format: a decimal numeral (no NaN or Infinity)."""
    return _DECIMAL.match(text) is not None


def is_json_pointer(text: str) -> bool:
    return _JSON_POINTER.match(text) is not None


def is_relative_json_pointer(text: str) -> bool:
    return _RELATIVE_POINTER.match(text) is not None


def is_regex(text: str) -> bool:
    """An ECMA-262 pattern. The text is often the model's: checking it is bounded and
    keeps no compiled pattern (see ``_patterns.is_pattern``)."""
    return is_pattern(text)


def _anything(text: str) -> bool:
    return True


STRING_FORMATS: dict[str, Callable[[str], bool]] = {
    "date-time": is_date_time,
    "date": is_date,
    "time": is_time,
    "duration": is_duration,
    "email": is_email,
    "uuid": is_uuid,
    "uri": is_uri,
    "url": is_uri,
    "uri-reference": is_uri_reference,
    "ipv4": is_ipv4,
    "ipv6": is_ipv6,
    "hostname": is_hostname,
    "byte": is_byte,
    "binary": _anything,
    "password": _anything,
    "decimal": is_decimal,
    "path": _anything,
    "json-pointer": is_json_pointer,
    "relative-json-pointer": is_relative_json_pointer,
    "regex": is_regex,
}
"""Formats asserted on strings. ``binary``, ``password`` and ``path`` accept any string."""

NUMBER_FORMATS: dict[str, tuple[int, int]] = {
    "int32": (-(2**31), 2**31 - 1),
    "int64": (-(2**63), 2**63 - 1),
    "uint32": (0, 2**32 - 1),
    "uint64": (0, 2**64 - 1),
}
"""OpenAPI integer formats, asserted as ranges on numbers."""
