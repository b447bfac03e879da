"""ECMA-262 patterns read as ECMA-262 does, and the asserted formats, table-driven."""

from __future__ import annotations

import pytest

from llmapp._patterns.matching import PatternError, compile_pattern
from llmapp.validate._formats import NUMBER_FORMATS, STRING_FORMATS

PATTERNS = [
    # (ECMA pattern, matches, does not match)
    ("^\\d+$", ["0123"], ["٣", "1\n"]),
    ("^\\w+$", ["a_Z9"], ["é", "ß"]),
    ("^\\W$", ["é", "-"], ["a"]),
    ("^\\s$", [" ", "\ufeff", "\u2028", "\u00a0"], ["\x1c", "a"]),
    ("^\\S$", ["a", "\x1c"], [" ", "\ufeff"]),
    ("^[\\d\\s]+$", ["1 2"], ["a"]),
    ("^[^\\d]$", ["a"], ["1"]),
    ("^[\\D]$", ["a", "٣"], ["1"]),
    ("\\bword\\b", ["a word here", "éwordé"], ["swordfish"]),  # é is not an ECMA word char
    ("^a.c$", ["abc", "a🐲c"], ["a\nc", "a\rc", "a\u2028c"]),
    ("^abc$", ["abc"], ["abc\n"]),
    ("^\\cJ$", ["\n"], ["J"]),
    ("^\\u00e9\\u{1F432}$", ["é🐲"], ["e🐲"]),
    ("^\\ud83d\\udc32$", ["🐲"], ["\ud83d"]),
    ("^\\p{Lu}\\p{Ll}+$", ["Éclair"], ["éclair"]),
    ("^\\P{L}+$", ["123 !"], ["a"]),
    ("^[\\p{Nd}]+$", ["١٢٣", "42"], ["x"]),
    ("^(?<year>\\d{4})-\\k<year>$", ["2024-2024"], ["2024-2025"]),
    ("^[]$", [], ["", "a"]),
    ("^[^]$", ["a", "\n"], [""]),
    ("^a{2,}$", ["aa", "aaa"], ["a"]),
    ("^[a&&b]$", ["&", "a"], ["c"]),
    ("^\\/\\.\\-$", ["/.-"], ["/x-"]),
    ("^\\0$", ["\x00"], ["0"]),
    ("a|b", ["xbx"], ["c"]),
]


@pytest.mark.parametrize(("pattern", "matches", "misses"), PATTERNS)
def test_ecma_patterns(pattern: str, matches: list[str], misses: list[str]) -> None:
    compiled = compile_pattern(pattern)
    for text in matches:
        assert compiled.search(text), (pattern, text)
    for text in misses:
        assert not compiled.search(text), (pattern, text)


@pytest.mark.parametrize(
    "pattern",
    [
        "(?P<x>a)",
        "(?i)a",
        "(?#c)",
        "\\a",
        "\\e",
        "a++",
        "a{2}+",
        "\\p{Script=Greek}",
        "(",
        "[a",
        "\\",
        "\\cé",
        "\\012",
        "x{",
    ],
)
def test_patterns_python_would_misread_are_refused(pattern: str) -> None:
    with pytest.raises(PatternError):
        compile_pattern(pattern)


FORMATS = [
    # (format, valid, invalid)
    (
        "date-time",
        ["2024-02-29T23:59:60.5+00:00", "1990-12-31t15:59:59z", "2016-12-31T15:59:60-08:00"],
        [
            "2023-02-29T00:00:00Z",
            "2024-01-01T00:00:00",
            "2024-01-01 00:00:00Z",
            "2024-01-01T24:00:00Z",
            "0000-01-01T00:00:00Z",
        ],
    ),
    (
        "date-time-local",
        ["2024-05-01T10:00:00", "2024-02-29t23:59:60.5", "2024-05-01T10:00:00.123456"],
        ["2024-05-01T10:00:00Z", "2024-05-01T10:00:00+02:00", "2024-05-01 10:00:00", "2024-05-01"],
    ),
    ("date", ["2024-02-29", "2000-02-29"], ["1900-02-29", "2024-13-01", "2024-1-01", "٢٠٢٤-01-01"]),
    ("time", ["23:59:60Z", "12:00:00.123-05:30"], ["12:00:00", "12:00", "23:58:60Z"]),
    ("time-local", ["12:00:00", "23:59:60", "08:30:00.5"], ["12:00:00Z", "12:00", "24:00:00"]),
    (
        "duration",
        ["P1Y2M3DT4H5M6S", "PT0S", "P2W", "P1M2D"],
        ["P", "PT", "P1Y2W", "P1D2H", "PT1H2S"],
    ),
    (
        "email",
        ["a.b+c@example.com", '"a b"@example.com', "x@[127.0.0.1]", "x@[IPv6:::1]"],
        ["a..b@example.com", "@example.com", "a@", "a@b_c.com", "a b@example.com", "x@xn--X.com"],
    ),
    (
        "uuid",
        ["123e4567-e89b-12d3-a456-426614174000", "00000000-0000-0000-0000-000000000000"],
        ["123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g"],
    ),
    (
        "uri",
        ["https://example.com/a?b=c#d", "urn:isbn:0451450523", "mailto:x@y.z"],
        ["/relative", "http://a b", "ht_tp://x", "http://x/%zz"],
    ),
    ("uri-reference", ["/relative?x#y", "https://a", "#frag"], ["\\\\x", "a b"]),
    ("ipv4", ["0.0.0.0", "255.255.255.255"], ["256.0.0.1", "01.2.3.4", "1.2.3", "١.2.3.4"]),
    ("ipv6", ["::1", "1:2::192.168.0.1"], ["1::2::3", "fe80::1%eth0", "::ffff:192.168.0.01"]),
    (
        "ipv4network",
        ["10.0.0.0/8", "192.168.1.0/24", "1.2.3.4"],
        ["10.0.0.1/8", "10.0.0.0/33", "x"],
    ),
    ("ipv6network", ["2001:db8::/32", "::1"], ["2001:db8::1/32", "10.0.0.0/8"]),
    ("ipv4interface", ["10.0.0.1/8", "192.168.1.5/24"], ["10.0.0.1/33", "::1/64"]),
    ("ipv6interface", ["2001:db8::1/32", "::1/128"], ["2001:db8::1/129", "10.0.0.1/8"]),
    (
        "hostname",
        ["example.com", "a--b.com", "xn--9n2bp8q.xn--9t4b11yi5a"],
        ["-a.com", "a_b.com", "a.", "x" * 64 + ".com", "xn--X"],
    ),
    ("byte", ["", "aGVsbG8=", "aGk="], ["aGk", "a===", "%%%%"]),
    ("binary", ["anything at all"], []),
    ("decimal", ["3", "-3.25", "1e10", ".5", "5."], ["NaN", "Infinity", "1,5", "", "0x10"]),
    ("path", ["", "/tmp/x", "C:\\a"], []),
    ("json-pointer", ["", "/a~1b/~0"], ["a", "/~2"]),
    ("relative-json-pointer", ["0", "1/a", "2#"], ["-1", "01", "0##"]),
    ("regex", ["^a+$", "(?<=a+)b"], ["(", "(?P<x>a)"]),
]


@pytest.mark.parametrize(("name", "valid", "invalid"), FORMATS)
def test_string_formats(name: str, valid: list[str], invalid: list[str]) -> None:
    check = STRING_FORMATS[name]
    for text in valid:
        assert check(text), (name, text)
    for text in invalid:
        assert not check(text), (name, text)


def test_every_format_has_a_row() -> None:
    assert {row[0] for row in FORMATS} >= set(STRING_FORMATS) - {"url", "password"}
    assert set(NUMBER_FORMATS) == {"int32", "int64", "uint32", "uint64"}


def test_formats_apply_to_their_type_only(compile) -> None:  # type: ignore[no-untyped-def]
    check = compile({"format": "email"})
    assert check(3).success and check(None).success and not check("x").success
    check = compile({"format": "int32"})
    assert check("x").success and check(2**31 - 1).success and not check(2**31).success
    assert compile({"format": "no-such-format"})("anything").success
