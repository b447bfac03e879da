"""The call step's faster paths (issue 33) accept and refuse exactly what the old ones did.

Each old path is read from git at the commit before the change (``tests/support/before``)
and run beside today's on generated (hypothesis) and adversarial inputs: ``multipleOf``
on floats and on decimal strings (read with ``Decimal`` arithmetic instead of
``Fraction``), the date and date-time readers, and the patterns ``re`` now runs.
"""

from __future__ import annotations

import math
import sys
import types
from decimal import Decimal

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tests.support import before
from tests.support.budget import scaled
from tests.support.texts import decimal_texts
from tests.validate.test_regex_safety import finishes

from llmapp._patterns import matching as _patterns
from llmapp._patterns.ecma import LINEAR, STDLIB, translate
from llmapp._patterns.linear import linear_method
from llmapp._patterns.matching import compile_pattern
from llmapp._scalars import iso8601 as iso
from llmapp._scalars import table as _scalar_types
from llmapp.validate import _formats, _runtime

BEFORE = "2627079"
"""The commit before issue 33's fast paths."""


@pytest.fixture(scope="module")
def old_scalars() -> types.ModuleType:
    return before.load(BEFORE, "llmapp/_scalar_types.py")


@pytest.fixture(scope="module")
def old_runtime(old_scalars: types.ModuleType) -> types.ModuleType:
    scalars = old_scalars
    runtime = before.load(BEFORE, "llmapp/validate/_runtime.py")
    # The old runtime imported today's ``decimal_multiple``: give it its own.
    runtime._NUMERIC_TESTS["multipleOf"] = scalars.decimal_multiple
    runtime.decimal_multiple = scalars.decimal_multiple
    return runtime


def _outcome(check: object, *args: object) -> object:
    """The answer, or the kind of exception raised (both paths must raise alike)."""
    try:
        return check(*args)  # type: ignore[operator]
    except Exception as error:  # the kind is what is compared
        return type(error)


ADVERSARIAL_FLOATS = [
    0.0,
    -0.0,
    5e-324,
    1.7976931348623157e308,
    -1.7976931348623157e308,
    0.1,
    0.3,
    0.0075,
    0.0001,
    1e-300,
    1e300,
    123456789.01,
    2.5,
    3,
    10**40,
    -(10**30),
    10**800,
    True,
    math.inf,
    -math.inf,
    math.nan,
]


@pytest.mark.parametrize("value", ADVERSARIAL_FLOATS)
@pytest.mark.parametrize("divisor", [0.01, 0.1, 0.3, 5e-324, 1e300, 2.5, 7, 10**30, 1e-7])
def test_float_multiple_of_agrees_on_adversarial_numbers(
    old_runtime: types.ModuleType, value: float, divisor: float
) -> None:
    assert _outcome(_runtime.multiple_of, value, divisor) == _outcome(
        old_runtime.multiple_of, value, divisor
    )


@pytest.mark.budgeted
@settings(max_examples=scaled(100, 400), deadline=None)
@given(
    value=st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.integers()),
    divisor=st.one_of(
        st.floats(min_value=1e-320, max_value=1e308),
        st.sampled_from([0.01, 0.05, 0.1, 0.25, 0.5, 1.5, 1e-10]),
        st.integers(min_value=1, max_value=10**20),
    ),
)
@example(value=4.02, divisor=0.01)
@example(value=0.07, divisor=0.01)
def test_float_multiple_of_agrees_on_generated_numbers(
    old_runtime: types.ModuleType, value: float, divisor: float
) -> None:
    assert _outcome(_runtime.multiple_of, value, divisor) == _outcome(
        old_runtime.multiple_of, value, divisor
    )


ADVERSARIAL_TEXTS = [
    "0",
    "-0",
    "0.00",
    "12.34",
    "12.345",
    "1e-999999999",
    "-1e-999999999",
    "1e999999",
    "1e-999999",
    "9" * 27 + ".99",
    "9" * 28 + ".99",
    "9" * 29 + ".00",
    "1.00000000000000000000000000000000000",
    "1.000000000000000000000000000000000001",
    "0." + "0" * 40 + "1",
    "1E+27",
    "1E+28",
    "1E+29",
    ".5",
    "5.",
    "+3.0",
    "12.3e1",
    "NaN",
    "Infinity",
    "1_000",
    "١٢",
    " 1",
]


@pytest.mark.parametrize("text", ADVERSARIAL_TEXTS)
@pytest.mark.parametrize(
    ("keyword", "bound"),
    [
        ("multipleOf", 0.01),
        ("multipleOf", 0.5),
        ("multipleOf", 1),
        ("multipleOf", 3),
        ("multipleOf", 1e-7),
        ("multipleOf", 1e300),
        ("minimum", 0),
        ("maximum", 100000),
        ("exclusiveMinimum", 0.0),
        ("exclusiveMaximum", 1e300),
    ],
)
def test_decimal_text_agrees_on_adversarial_texts(
    old_runtime: types.ModuleType, text: str, keyword: str, bound: float
) -> None:
    assert _outcome(_runtime.numeric_text, text, keyword, bound) == _outcome(
        old_runtime.numeric_text, text, keyword, bound
    )


@pytest.mark.budgeted
@settings(max_examples=scaled(100, 400), deadline=None)
@given(text=decimal_texts(40), bound=st.sampled_from([0.01, 0.05, 0.5, 1, 7, 1e-12, 1e20, 0.3]))
def test_decimal_text_multiple_of_agrees_on_generated_texts(
    old_runtime: types.ModuleType, text: str, bound: float
) -> None:
    assert _outcome(_runtime.numeric_text, text, "multipleOf", bound) == _outcome(
        old_runtime.numeric_text, text, "multipleOf", bound
    )


@pytest.mark.budgeted
@settings(max_examples=scaled(75, 300), deadline=None)
@given(
    value=st.decimals(allow_nan=False, allow_infinity=False),
    bound=st.decimals(min_value=Decimal("1e-30"), max_value=Decimal("1e30"), places=None),
)
def test_decimal_multiple_agrees_on_generated_decimals(
    old_scalars: types.ModuleType, value: Decimal, bound: Decimal
) -> None:
    old = old_scalars.decimal_multiple
    assert _outcome(_scalar_types.decimal_multiple, value, bound) == _outcome(old, value, bound)


def test_a_tiny_decimal_is_still_not_a_multiple_of_a_cent() -> None:
    assert _runtime.numeric_text("1e-999999999", "multipleOf", 0.01) is False
    assert _runtime.numeric_text("4.02", "multipleOf", 0.01) is True
    assert _runtime.multiple_of(4.02, 0.01) is True
    assert _runtime.multiple_of(1e-300, 0.01) is False


# -- dates and date-times -----------------------------------------------------------------

_DATE_CHECKS = ("is_date", "is_date_time", "is_date_time_local", "is_time", "is_time_local")


@pytest.fixture(scope="module")
def old_iso() -> types.ModuleType:
    return before.load(BEFORE, "llmapp/_iso8601.py")


ADVERSARIAL_MOMENTS = [
    "2024-05-01T12:30:00Z",
    "2024-05-01T12:30:00z",
    "2024-05-01t12:30:00Z",
    "2024-05-01T12:30:00+02:00",
    "2024-05-01T12:30:00-05:30",
    "2024-05-01T12:30:00+05:60",
    "2024-05-01T12:30:00+24:00",
    "2024-05-01T12:30:00+23:59",
    "2024-05-01T12:30:00+0530",
    "2024-05-01T12:30:00+05",
    "2024-05-01T12:30:00+05:30:15",
    "2024-05-01T12:30:00.123456Z",
    "2024-05-01T12:30:00.000Z",
    "2024-05-01T12:30:00.1٢3Z",
    "2024-05-01T12:30:00.12aZ",
    "2024-05-01T12:30:00,000Z",
    "2024-05-01T24:00:00.000Z",
    "2016-12-31T23:59:60.000Z",
    "2024-05-01T12:30:00.123456789-00:00",
    "2024-05-01T12:30:00.Z",
    "2024-05-01T12:30:00,5Z",
    "2024-05-01T12:30:00.5+02:00Z",
    "2024-05-01T12:30:00Z+02:00",
    "2024-05-01T12:30:00.1234567x+02:00",
    "2024-05-01T12:30:00.١٢Z",
    "2024-05-01T12:30:00.12+0٥:30",
    "2024-05-01T12:30:00+02:3٥",
    "2024-05-01T24:00:00Z",
    "2024-05-01T24:00:00+02:00",
    "2024-05-01T23:59:60Z",
    "2016-12-31T23:59:60Z",
    "2016-12-31T23:59:60+00:00",
    "2016-12-31T18:59:60-05:00",
    "0000-01-01T00:00:00Z",
    "2023-02-29T00:00:00Z",
    "2024-02-29T00:00:00+01:00",
    "2024-04-31T00:00:00Z",
    "2024-05-01 12:30:00+02:00",
    "2024-05-01T12:30+02:00",
    "2024-05-01T12:30:0+02:00",
    "20240501T123000Z",
    "2024-W18-3T12:30:00Z",
    "２０２４-05-01T12:30:00Z",
    "2024-05-01T12:30:00 +02:00",
    "2024-05-01T12:30:00",
    "2024-05-01T12:30:00.25",
    "2024-05-01T12:30:00.",
    "2024-05-01",
    "2024-5-01",
    "2024-05-01\n",
    "0000-01-01",
    "2023-02-29",
    "12:30:00Z",
    "12:30:00+02:00",
    "12:30:00.5-05:30",
    "12:30:00+05:60",
    "23:59:60Z",
    "24:00:00Z",
    "12:30:00",
    "12:30:00.999",
    "12:30:00.",
    "12:30",
    "",
]


@pytest.mark.parametrize("text", ADVERSARIAL_MOMENTS)
@pytest.mark.parametrize("name", _DATE_CHECKS)
def test_date_checks_agree_on_adversarial_texts(
    old_iso: types.ModuleType, name: str, text: str
) -> None:
    assert getattr(iso, name)(text) == getattr(old_iso, name)(text), (name, text)


_MOMENT_PIECES = st.sampled_from(
    ["2024", "0000", "-", "05", "02", "13", "29", "31", "T", "t", " ", ":", "12", "23",
     "24", "59", "60", "00", ".", ",", "5", "123456", "Z", "z", "+", "-05:00", "+23:59",
     "+05", "0530", "+05:60", "٥", "２", "W18", "\n"]
)  # fmt: skip


def _moments() -> st.SearchStrategy[str]:
    usual = st.builds(
        lambda d, c, f, z: d + c + f + z,
        st.sampled_from(["2024-05-01T", "2016-12-31T", "2023-02-29T", "2024-13-01T", ""]),
        st.sampled_from(["12:30:00", "23:59:60", "24:00:00", "12:30", "123000", "18:59:60"]),
        st.sampled_from(["", ".5", ".000", ".123456789", ",5", ".", ".1234567x", ".1٢", " "]),
        st.sampled_from(["", "Z", "z", "+05:00", "-05:30", "+05", "+0530", "+05:60", "+0٥:00"]),
    )
    return st.one_of(
        usual,
        st.lists(_MOMENT_PIECES, max_size=9).map("".join),
        st.datetimes(timezones=st.none() | st.timezones()).map(lambda d: d.isoformat()),
        st.dates().map(str),
        st.times(timezones=st.none() | st.timezones()).map(lambda t: t.isoformat()),
    )


@pytest.mark.budgeted
@settings(max_examples=scaled(300, 1500), deadline=None)
@given(name=st.sampled_from(_DATE_CHECKS), text=_moments())
def test_date_checks_agree_on_generated_texts(
    old_iso: types.ModuleType, name: str, text: str
) -> None:
    assert getattr(iso, name)(text) == getattr(old_iso, name)(text), (name, text)


# -- patterns -------------------------------------------------------------------------------

ONE_RETRY = [
    "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$",
    "^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$",
    "^[a-z0-9-.]+\\.(?:com|org|net)$",
    "^\\d*\\d$",
    "^[0-9a-f:]+:[0-9]{2,5}$",
]
"""Patterns the one-retry rule moved from RE2 to ``re``."""


@pytest.mark.parametrize("pattern", ONE_RETRY)
def test_one_retry_patterns_moved_from_re2_to_re(pattern: str) -> None:
    old = before.load(BEFORE, "llmapp/_linear.py")
    translated = translate(pattern, STDLIB)
    assert old.linear_method(translated) is None
    assert linear_method(translated) == "match"
    assert compile_pattern(pattern).engine == "re"


_EMAILISH = st.lists(
    st.sampled_from(
        ["a", "Z", "0", "9", ".", "-", "_", "%", "+", "@", "com", "xy", ":", "12", " ", "é", "\n"]
    ),
    max_size=14,
).map("".join)


@pytest.mark.budgeted
@settings(max_examples=scaled(200, 800), deadline=None)
@given(pattern=st.sampled_from(ONE_RETRY), text=_EMAILISH)
def test_re_and_re2_agree_on_one_retry_patterns(pattern: str, text: str) -> None:
    ours = compile_pattern(pattern)
    program = _patterns._re2_program(pattern, LINEAR)
    assert program is not None and program.ok()
    theirs = _patterns._LinearMatcher(pattern, program)
    assert (ours.search(text) is None) == (theirs.search(text) is None), text


@pytest.mark.parametrize("pattern", ONE_RETRY)
def test_one_retry_patterns_stay_linear_on_hostile_texts(pattern: str) -> None:
    matcher, size = compile_pattern(pattern), 100_000
    texts = [
        "a@" + "." * size + "!",
        "a@" + ".a" * size + "!",
        "a@" + ".aa" * size + "!",
        "a@" + "a." * size + "!",
        "a" * size + "@" + "a" * size + "!",
        "1" * size + "x",
        "a:" * size + "1",
    ]
    for text in texts:
        finishes(lambda t=text: matcher.search(t), seconds=10)


# -- URIs and durations (the second round: the call step's overhead) ---------------------

BEFORE_OVERHEAD = "9a40277"
"""The commit before the plain-URI match and the whole-amount durations. The old URI check
is today's ``_uri_by_parts`` unchanged (its module imports relatively, so git's copy of
it cannot be loaded beside today's): the plain match must never say otherwise."""


@pytest.fixture(scope="module")
def old_durations() -> types.ModuleType:
    return before.load(BEFORE_OVERHEAD, "llmapp/_iso8601.py")


ADVERSARIAL_URIS = [
    "https://example.com/mike/120",
    "http://a.b:80/x?y=1#z",
    "http://a.b:/",
    "http://a.b:8x/",
    "http://[::1]:80/",
    "http://[v1.x]/",
    "http://user:pw@host/",
    "http://a b/",
    "http://a.b/%20",
    "http://a.b/%2",
    "http://a.b/?q=%zz",
    "http://a.b/#f#g",
    "http://a.b/?q?r#s?t",
    "http://a.b/é",
    "http://a.b/\n",
    "http:",
    "http://",
    "http:///x",
    "//a.b/",
    "1http://a.b/",
    "h+t.t-p://a.b/",
    "mailto:x@y.z",
    "urn:isbn:0451450523",
    "http://a.b/[x]",
    "http://a.b/x y",
    "HTTP://A.B/",
    "",
]


@pytest.mark.parametrize("text", ADVERSARIAL_URIS)
def test_uri_agrees_on_adversarial_texts(text: str) -> None:
    assert _formats.is_uri(text) == _formats._uri_by_parts(text), text


_URI_PIECES = st.sampled_from(
    ["http", "s", "://", ":", "/", "//", "a", "b.c", "-", "~", "80", "?", "#", "=", "&", "@",
     "%", "%2F", "%g", "[", "]", "::1", " ", "é", "!", "'", "(", "+", "\n", "v1.x"]
)  # fmt: skip


@pytest.mark.budgeted
@settings(max_examples=scaled(300, 1500), deadline=None)
@given(text=st.lists(_URI_PIECES, max_size=12).map("".join))
def test_uri_agrees_on_generated_texts(text: str) -> None:
    assert _formats.is_uri(text) == _formats._uri_by_parts(text), text


ADVERSARIAL_DURATIONS = [
    "P3DT16H",
    "PT41M",
    "-P1Y2M3W4DT5H6M7S",
    "+P1W",
    "p3d",
    "PT1.5S",
    "PT1,5S",
    "P",
    "-P",
    "PT",
    "P1DT",
    "P1D ",
    " PT5M",
    "P999999999D",
    "P999999998D",
    "P999999997DT47H",
    "-P999999999DT23H59M59S",
    "PT86399999999999S",
    "P2739726Y",
    "P" + "9" * 40 + "D",
    "P" + "9" * 63 + "D",
    "P" + "9" * 5000 + "D",
    "P١٢D",
    "pt",
    "PT",
    "P0D",
    "PT0S",
    "P1DT",
    "P999999999DT1S",
    "P999999998DT23H59M59S",
    "PT999999999H",
    "P123456789DT123456789H123456789M123456789S",
    "P1234567890D",
    "PT1H1H",
    "P1DT1M1H",
    "P12",
    "1:30:00",
    "-1 day, 2:03:04.5",
    "",
]


def _duration(module: types.ModuleType, text: str) -> object:
    """The duration read, or the kind of exception and its message (both must be alike)."""
    try:
        return module.parse_duration(text)
    except Exception as error:  # what is compared
        return type(error), str(error)


@pytest.mark.parametrize("text", ADVERSARIAL_DURATIONS)
def test_duration_agrees_on_adversarial_texts(old_durations: types.ModuleType, text: str) -> None:
    assert _duration(iso, text) == _duration(old_durations, text), text
    # A union's branch is picked by this: a clock is no duration there.
    assert iso.looks_like_duration(text) == old_durations.looks_like_duration(text), text


@pytest.mark.budgeted
@settings(max_examples=scaled(300, 1500), deadline=None)
@given(
    sign=st.sampled_from(["", "-", "+"]),
    amounts=st.lists(
        st.tuples(
            st.one_of(st.integers(0, 10**12).map(str), st.text("0123456789", max_size=25)),
            st.sampled_from("YMWDHMS"),
        ),
        max_size=7,
    ),
    clock=st.integers(0, 7),
)
def test_duration_agrees_on_generated_texts(
    old_durations: types.ModuleType, sign: str, amounts: list[tuple[str, str]], clock: int
) -> None:
    parts = [f"{number}{unit}" for number, unit in amounts]
    text = f"{sign}P{''.join(parts[:clock])}{'T' if clock < len(parts) else ''}"
    text += "".join(parts[clock:])
    assert _duration(iso, text) == _duration(old_durations, text), text


_AMOUNT = st.one_of(st.none(), st.integers(0, 10**12).map(str), st.text("0123456789", max_size=12))


@pytest.mark.budgeted
@settings(max_examples=scaled(300, 1500), deadline=None)
@given(
    days=_AMOUNT,
    clock=st.tuples(_AMOUNT, _AMOUNT, _AMOUNT),
    written=st.sampled_from(["P{}T{}", "p{}t{}", " P{}T{} ", "P{}T{}\n", "-P{}T{}", "P{}{}"]),
)
def test_duration_agrees_on_days_and_clocks(
    old_durations: types.ModuleType,
    days: str | None,
    clock: tuple[str | None, str | None, str | None],
    written: str,
) -> None:
    day = "" if days is None else f"{days}D"
    time = "".join("" if n is None else f"{n}{u}" for n, u in zip(clock, "HMS", strict=True))
    text = written.format(day, time)
    assert _duration(iso, text) == _duration(old_durations, text), text


# -- IPv6 addresses of hex groups, accepted without building the address ---------------------

IPV6_BEFORE = "9500972"
"""The commit before ``is_ipv6`` took hex groups by their pattern."""


@pytest.fixture(scope="module")
def old_table() -> types.ModuleType:
    return before.load(IPV6_BEFORE, "llmapp/_scalars/table.py")


ADVERSARIAL_IPV6 = [
    "::",
    "::1",
    "1::",
    ":1",
    "1:",
    ":::",
    "1:::2",
    "1::2::3",
    "1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7:8:9",
    "1:2:3:4:5:6:7::",
    "::2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7:8::",
    "::1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6::7:8",
    "1:2:3::4:5:6:7",
    "12345::1",
    "0000:0000:0000:0000:0000:0000:0000:0001",
    "00000::1",
    "FE80::1",
    "fe80::1%eth0",
    "2001:db8::/32",
    "::ffff:1.2.3.4",
    "::ffff:1.2.3.04",
    "::ffff:1.2.3",
    "1.2.3.4",
    "g::1",
    "::1\n",
    " ::1",
    "::\uff11",
    "\u0661::1",
    "",
]


def test_ipv6_agrees_on_adversarial_texts(old_table: types.ModuleType) -> None:
    for text in ADVERSARIAL_IPV6:
        assert _scalar_types.is_ipv6(text) == old_table.is_ipv6(text), text


@pytest.mark.budgeted
@settings(max_examples=scaled(300, 1500), deadline=None)
@given(
    address=st.ip_addresses(v=6),
    form=st.sampled_from(["compressed", "exploded", "upper", "dropped"]),
    noise=st.text(":0123456789abcdefABCDEF.", max_size=40),
)
def test_ipv6_agrees_on_generated_texts(
    old_table: types.ModuleType, address: object, form: str, noise: str
) -> None:
    written = str(getattr(address, "exploded", address))
    if form == "compressed":
        written = str(address)
    elif form == "upper":
        written = str(address).upper()
    elif form == "dropped":  # a group lost, or a colon doubled
        written = written.replace(":", "::", 1) if len(written) % 2 else written[5:]
    for text in (written, noise, written + noise[:3]):
        assert _scalar_types.is_ipv6(text) == old_table.is_ipv6(text), text


# -- format checks that are one match, inlined by the generated validators --------------------

_FORMAT_TEXTS = st.one_of(
    st.text("0123456789abcdefABCDEF-.:PTDHMSWYe+", max_size=40),
    st.uuids().map(str),
    st.ip_addresses(v=4).map(str),
    st.decimals(allow_nan=False, allow_infinity=False).map(str),
    st.text(max_size=12),
)


@pytest.mark.budgeted
@settings(max_examples=scaled(300, 1500), deadline=None)
@given(text=_FORMAT_TEXTS)
def test_matched_formats_are_their_patterns(text: str) -> None:
    import re

    for check, pattern in _scalar_types.MATCHED_FORMATS.items():
        assert check(text) == (re.compile(pattern).match(text) is not None), (check, text)


@pytest.mark.parametrize(
    ("fmt", "good", "bad"),
    [
        ("uuid", "1622bd06-5e91-43f8-abde-d3813e6f9426", "1622bd06-5e91-43f8-abde-d3813e6f942"),
        ("ipv4", "192.168.0.1", "192.168.0.01"),
        ("decimal", "12.50", "12,50"),
    ],
)
def test_validators_match_those_formats_inline(fmt: str, good: str, bad: str) -> None:
    from llmapp.validate import validator

    check = validator({"type": "array", "items": {"type": "string", "format": fmt}})
    assert check([good]).success
    refused = check([good, bad])
    assert not refused.success and [issue.path for issue in refused.errors] == ["$input[1]"]
    source = check.source  # type: ignore[attr-defined]
    name = fmt.upper()
    assert f"{name}.match(item) is not None" in source and f"is_{fmt}" not in source


# -- a container of date and time texts judged at once (issue 33, sixth round) ------------------

ROUND_SIX = "aed5237"
"""The commit before ``UsualTexts``: each text checked alone."""

_USUAL_UNIONS = [
    ("date-time", "date-time-local"),
    ("date-time",),
    ("date-time-local",),
    ("date-time", "date-time-local", "date"),
    ("date",),
    ("time", "time-local"),
    ("time",),
    ("time-local",),
]
_CHECK_OF = {
    "date": "is_date",
    "date-time": "is_date_time",
    "date-time-local": "is_date_time_local",
    "time": "is_time",
    "time-local": "is_time_local",
}

CONTAINER_MOMENTS = [
    *ADVERSARIAL_MOMENTS,
    "2024-02-29T12:00:00",
    "2023-02-29T12:00:00",
    "2024-02-30T12:00:00",
    "2100-02-29T12:00:00",
    "2000-02-29T12:00:00",
    "2024-04-31T12:00:00",
    "0000-01-01T00:00:00",
    "0001-01-01T00:00:00",
    "9999-12-31T23:59:59.999999999",
    "2024-05-01T24:00:00",
    "2024-05-01T23:59:60",
    "2024-05-01T23:60:00",
    " 2024-05-01T12:30:00",
    "2024-05-01T12:30:00 ",
    "2024-05-01t12:30:00",
    "2024-05-01T12:30:00z",
    "2024-05-01T12:30:00.1",
    "2024-05-01T12:30:00.12",
    "2024-05-01T12:30:00.1234",
    "2024-05-01T12:30:00.12345",
    "2024-05-01T12:30:00.1234567",
    "2024-05-01T12:30:00.12345678",
    "2024-05-01T12:30:00.123456789",
    "2024-05-01T12:30:00.1234567890",
    "2024-05-01T12:30:00.1234567890Z",
    "2024-05-01T12:30:00.12345٦",
    "2024-05-01T12:30:00.1234567٦",
    "2024-05-01T1٢:30:00",
    "2024-05-01T12:30:00-24:00",
    "2024-05-01T12:30:00+24:00",
    "2024-05-01T12:30:00-23:59",
    "2024-05-01T12:30:00+00:60",
    "2024-05-01T12:30:00+00:59",
    "2024-05-01T12:30:00.5-00:61",
    "2024-W18-3T12:30:00",
    "2024-122T12:30:00",
    "2024-05-01T12:30:00\x00",
    "2024-05-01T12:30:00\x002024-05-01T12:30:00",
    "2024-05-01T12:30:00\ud800",
    "2024-05-01",
    "2024-02-30",
    "12:30:00",
    "24:00:00",
    "23:59:60",
    "12:30:00.123456789",
    "12:30:00+05:60",
    "12:30:00-24:00",
    "12:30:00 ",
    "1230:00",
]


@pytest.fixture(scope="module")
def round_six_iso() -> types.ModuleType:
    return before.load(ROUND_SIX, "llmapp/_scalars/iso8601.py")


def _old_verdict(
    iso_before: types.ModuleType, formats: tuple[str, ...], values: list[object]
) -> bool:
    return all(
        isinstance(value, str)
        and any(getattr(iso_before, _CHECK_OF[name])(value) for name in formats)
        for value in values
    )


def _schema(formats: tuple[str, ...]) -> dict[str, object]:
    branches = [{"type": "string", "format": name} for name in formats]
    return branches[0] if len(branches) == 1 else {"anyOf": branches}


@pytest.mark.parametrize("formats", _USUAL_UNIONS)
def test_usual_texts_accept_only_what_each_check_accepts(
    round_six_iso: types.ModuleType, formats: tuple[str, ...]
) -> None:
    from llmapp.validate._formats import usual_texts

    at_once = usual_texts(_schema(formats))
    assert at_once is not None
    accepted = 0
    for text in CONTAINER_MOMENTS:
        alone = _old_verdict(round_six_iso, formats, [text])
        assert not at_once([text]) or alone, (formats, text)
        accepted += at_once([text])
    assert accepted  # the usual texts are read at once, not all left to the loop
    good = [text for text in CONTAINER_MOMENTS if at_once([text])]
    assert at_once(good) and at_once(tuple(good)) and at_once(dict.fromkeys(good).keys())
    for bad in [*CONTAINER_MOMENTS, 5, None, b"2024-05-01", ["2024-05-01T12:30:00"]]:
        if not (isinstance(bad, str) and at_once([bad])):
            assert not at_once([*good, bad]) and not at_once([bad, *good]), (formats, bad)


def test_usual_texts_are_not_offered_for_other_schemas() -> None:
    from llmapp.validate._formats import usual_texts

    for schema in [
        {
            "anyOf": [
                {"type": "string", "format": "date-time"},
                {"type": "string", "format": "time"},
            ]
        },
        {"type": "string", "format": "date-time", "maxLength": 19},
        {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]},
        {"type": "string", "format": "uuid"},
        {"anyOf": []},
        {"type": ["string"], "format": "date"},
        True,
    ]:
        assert usual_texts(schema) is None, schema


def _issues(result: object) -> object:
    errors = getattr(result, "errors", None)
    return None if errors is None else [(i.path, i.expected, i.value) for i in errors]


@pytest.mark.parametrize("formats", _USUAL_UNIONS)
@pytest.mark.parametrize("shape", ["list", "dict", "tail"])
def test_containers_of_moments_get_the_old_verdict_and_issues(
    round_six_iso: types.ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    formats: tuple[str, ...],
    shape: str,
) -> None:
    """Each container's verdict is aed5237's checks' on every value, and its issues (path,
    expected, value, in order) those of a validator written without the at-once check."""
    from llmapp.validate import _writer
    from llmapp.validate._validator import Validator

    item = _schema(formats)
    if shape == "list":
        schema: dict[str, object] = {"type": "array", "items": item}
    elif shape == "tail":
        schema = {"type": "array", "prefixItems": [{"type": "integer"}], "items": item}
    else:
        schema = {"type": "object", "additionalProperties": item}
    # Beside a refused integer, the walker walks the container too.
    wrapped = {"type": "object", "properties": {"a": schema, "b": {"type": "integer"}}}
    check, around = Validator(schema), Validator(wrapped)
    assert "usual_texts" in check.source and "usual_texts" in around.source
    with monkeypatch.context() as patched:
        patched.setattr(_writer, "usual_texts", lambda schema: None)
        one_by_one, around_one_by_one = Validator(schema), Validator(wrapped)
    assert "usual_texts" not in one_by_one.source + around_one_by_one.source
    good = [t for t in CONTAINER_MOMENTS if _old_verdict(round_six_iso, formats, [t])]
    assert good
    for extra in [None, *CONTAINER_MOMENTS, 7, None]:
        values = good if extra is None else [*good[:3], extra, *good[3:], extra]
        expected = _old_verdict(round_six_iso, formats, values)
        data: object = values
        if shape == "dict":
            data = {f"k{index}": value for index, value in enumerate(values)}
        elif shape == "tail":
            data = [0, *values]
        result = check(data)
        assert result.success == expected, (formats, shape, extra)
        assert _issues(result) == _issues(one_by_one(data)), (formats, shape, extra)
        outer = {"a": data, "b": "x"}
        assert _issues(around(outer)) == _issues(around_one_by_one(outer)), (formats, extra)


@pytest.mark.budgeted
@settings(max_examples=scaled(150, 600), deadline=None)
@given(
    formats=st.sampled_from(_USUAL_UNIONS),
    values=st.lists(_moments() | st.sampled_from(CONTAINER_MOMENTS), max_size=6),
)
def test_usual_texts_agree_with_each_check_on_generated_lists(
    round_six_iso: types.ModuleType, formats: tuple[str, ...], values: list[str]
) -> None:
    from llmapp.validate._formats import usual_texts

    at_once = usual_texts(_schema(formats))
    assert at_once is not None
    assert not at_once(values) or _old_verdict(round_six_iso, formats, values), (formats, values)


# -- the joined shapes remembered (issue 33, seventh round) ------------------------------------

ROUND_SEVEN = "e3fdaee"
"""The commit before ``UsualTexts`` remembered the joined shapes it had split."""

# Pairs of one shape: the second differs from the first in digits only, and is refused by
# a check the shape does not decide (the day of the month, hour 24, an offset's minute,
# the offset's hours), or in place of two texts holds one with the separator inside.
SAME_SHAPE_PAIRS = [
    (["2024-02-29T12:00:00"], ["2023-02-29T12:00:00"]),
    (["2024-05-01T23:00:00"], ["2024-05-01T24:00:00"]),
    (["2024-05-01T12:30:00+00:59"], ["2024-05-01T12:30:00+00:60"]),
    (["2024-05-01T12:30:00.5-00:59"], ["2024-05-01T12:30:00.5-00:69"]),
    (["2024-05-01T12:30:00+23:59"], ["2024-05-01T12:30:00+24:00"]),
    (
        ["2024-05-01T12:30:00Z", "2024-05-01T12:30:00+01:00"],
        ["2024-05-01T12:30:00Z", "2024-05-01T12:30:00+01:70"],
    ),
    (
        ["2024-05-01T12:30:00", "2024-05-01T12:30:00"],
        ["2024-05-01T12:30:00\x002024-05-01T12:30:00"],
    ),
    (["2024-05-01", "2024-05-01"], ["2024-05-01\x002024-05-01"]),
    (["2024-02-28"], ["2024-02-30"]),
    (["23:30:00"], ["24:30:00"]),
    (["12:30:00", "23:30:00"], ["12:30:00", "24:30:00"]),
    (["12:30:00+05:59"], ["12:30:00+05:60"]),
    (["12:30:00", "12:30:00"], ["12:30:00\x0012:30:00"]),
]


READS_EVERY_USUAL_SHAPE = sys.version_info >= (3, 11)
"""Whether this Python's ``fromisoformat`` reads every usual shape (``Z``, any fraction)."""


@pytest.fixture(scope="module")
def round_seven_iso() -> types.ModuleType:
    return before.load(ROUND_SEVEN, "llmapp/_scalars/iso8601.py")


@pytest.mark.parametrize("formats", _USUAL_UNIONS)
def test_a_remembered_shape_is_not_a_verdict(
    round_six_iso: types.ModuleType, formats: tuple[str, ...]
) -> None:
    """The second text of each pair has the joined shape of the first, which the check
    has just remembered: it is still refused wherever the checks refuse it."""
    for good, bad in SAME_SHAPE_PAIRS:
        at_once = iso.UsualTexts(formats)
        for values in (good, bad, good, bad, [*good, *bad], [*bad, *good]):
            verdict = at_once(values)
            assert not verdict or _old_verdict(round_six_iso, formats, values), (formats, values)
        if _old_verdict(round_six_iso, formats, good) and READS_EVERY_USUAL_SHAPE:
            assert at_once(good), (formats, good)  # the usual texts are still read at once


@pytest.mark.skipif(
    not READS_EVERY_USUAL_SHAPE,
    reason="Python 3.10's fromisoformat reads no 'Z' and fractions of 3 or 6 digits only: "
    "these texts are left to the checks there, none read at once",
)
def test_the_remembered_shapes_are_bounded() -> None:
    at_once = iso.UsualTexts(("date-time", "date-time-local"))
    texts = ["2024-05-01T12:30:00" + "." + "1" * digits for digits in range(1, 10)]
    texts.append("2024-05-01T12:30:00")
    lists = [
        [texts[a], texts[b], texts[c]] for a in range(10) for b in range(10) for c in range(10)
    ]
    assert all(at_once(values) for values in lists)  # 1,000 shapes, every one usual
    assert len(at_once._known) == iso._KNOWN_SHAPES
    long = ["2024-05-01T12:30:00Z"] * 200  # past the longest shape remembered
    assert at_once(long) and at_once(long) and len(at_once._known) == iso._KNOWN_SHAPES
    assert not at_once([*long[:-1], "2024-05-01T12:30:00+00:60"])


@pytest.mark.budgeted
@settings(max_examples=scaled(150, 600), deadline=None)
@given(
    formats=st.sampled_from(_USUAL_UNIONS),
    values=st.lists(_moments() | st.sampled_from(CONTAINER_MOMENTS), max_size=6),
    again=st.lists(_moments() | st.sampled_from(CONTAINER_MOMENTS), max_size=6),
)
def test_usual_texts_decide_as_before_they_remembered_shapes(
    round_seven_iso: types.ModuleType,
    formats: tuple[str, ...],
    values: list[str],
    again: list[str],
) -> None:
    """Today's check, on a list and then another (maybe of a shape remembered from the
    first), accepts exactly what e3fdaee's accepted, and never what a check refuses."""
    today, before_ = iso.UsualTexts(formats), round_seven_iso.UsualTexts(formats)
    for texts in (values, again, values):
        assert today(texts) == before_(texts), (formats, texts)
        assert today.mapping(dict(enumerate(texts))) is False
        as_dict = {f"k{index}": text for index, text in enumerate(texts)}
        assert today.mapping(as_dict) == before_.mapping(as_dict), (formats, texts)


# -- ``datetime``'s two formats in one call (issue 33, seventh round) ----------------------------

EITHER_MOMENTS = [
    *CONTAINER_MOMENTS,
    "2024-05-01T23:59:60Z",
    "2024-05-01T23:59:60",
    "2024-05-01T22:59:60-01:00",
    "2024-05-01T23:59:60+00:00",
    "2024-05-01T12:30:00+05:30",
    "2024-05-01T12:30:00.123456+05:30",
    "2024-05-01T12:30:00.5-00:00",
    "2024-05-01T12:30:00+05:69",
    "2024-05-01T12:30:00+25:00",
    "2024-05-01T12:30:00.000Z",
    "2024-05-01T12:30:00.1234567891Z",
    "2024-05-01T12:30:00+05:30:15",
    "2024-05-01T12:30:00+0530",
    "2024-05-01T12:30:00 +05:30",
    "2024-05-01 12:30:00",
    "2024-05-01T12:30",
    "20240501T123000",
    "2024-05-01T12:30:00Z\ud800",
    "١٩٩٣-12-20T23:43:27",
    "",
]


@pytest.mark.parametrize("text", EITHER_MOMENTS)
def test_date_time_either_is_either_check(round_seven_iso: types.ModuleType, text: str) -> None:
    old = round_seven_iso.is_date_time(text) or round_seven_iso.is_date_time_local(text)
    assert iso.is_date_time_either(text) == old


TIME_MOMENTS = [
    *EITHER_MOMENTS,
    "12:30:00",
    "12:30:00Z",
    "12:30:00z",
    "12:30:00+05:30",
    "12:30:00.123456-05:30",
    "12:30:00.5-00:00",
    "12:30:00.123456789",
    "12:30:00.1234567890",
    "23:59:60Z",
    "23:59:60",
    "22:59:60-01:00",
    "12:59:60",
    "24:00:00",
    "24:00:00Z",
    "25:61:00",
    "12:61:00",
    "12:30:61",
    "12:30:00+24:00",
    "12:30:00+05:60",
    "12:30:00+05:69",
    "12:30:00+0530",
    "12:30:00+05",
    "12:30",
    "123000",
    "T12:30:00",
    " 12:30:00",
    "12:30:00 ",
    "1٢:30:00",
    "12:30:00\ud800",
    "12:30:00\x0012:30:00",
]


@pytest.mark.parametrize("text", TIME_MOMENTS)
def test_time_either_is_either_check(round_seven_iso: types.ModuleType, text: str) -> None:
    old = round_seven_iso.is_time(text) or round_seven_iso.is_time_local(text)
    assert iso.is_time_either(text) == old


def test_date_time_either_without_the_refusal_shortcut(
    round_seven_iso: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As on Python 3.10, whose ``fromisoformat`` reads neither ``Z`` nor most fractions:
    every text it refuses goes to the two checks, with the same verdicts."""
    monkeypatch.setattr(iso, "_READS_USUAL", {})
    monkeypatch.setattr(iso, "_reads_every", lambda read, texts: False)
    for text in EITHER_MOMENTS:
        old = round_seven_iso.is_date_time(text) or round_seven_iso.is_date_time_local(text)
        assert iso.is_date_time_either(text) == old, text
        old = round_seven_iso.is_time(text) or round_seven_iso.is_time_local(text)
        assert iso.is_time_either(text) == old, text


@pytest.mark.skipif(
    not READS_EVERY_USUAL_SHAPE,
    reason="Python 3.10's fromisoformat reads no 'Z': a refusal there is not final, every "
    "text it refuses goes to the checks (test_date_time_either_without_the_refusal_shortcut)",
)
def test_a_refused_usual_date_time_is_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Out of range in a usual shape: refused by ``fromisoformat`` alone; a leap second,
    which ``fromisoformat`` refuses and the grammar may read, still goes to the checks."""
    asked: list[str] = []
    monkeypatch.setattr(iso, "_date_time", lambda text, offset: asked.append(text) or False)
    for text in ("2024-13-01T10:00:00Z", "2024-02-30T10:00:00", "2024-05-01T12:61:00+01:00"):
        assert not iso.is_date_time_either(text) and not asked, text
    iso.is_date_time_either("2024-05-01T12:59:60Z")
    assert asked
    monkeypatch.setattr(iso, "_time", lambda text, offset: asked.append(text) or False)
    asked.clear()
    for text in ("25:61:00", "12:61:00Z", "12:30:61.5+01:00", "12:30:00+24:00"):
        assert not iso.is_time_either(text) and not asked, text
    iso.is_time_either("12:59:60Z")
    assert asked


@pytest.mark.budgeted
@settings(max_examples=scaled(300, 1500), deadline=None)
@given(text=_moments() | st.sampled_from(EITHER_MOMENTS))
def test_date_time_either_agrees_on_generated_texts(
    round_seven_iso: types.ModuleType, text: str
) -> None:
    old = round_seven_iso.is_date_time(text) or round_seven_iso.is_date_time_local(text)
    assert iso.is_date_time_either(text) == old, text
    for clock in (text, text[11:], text[:8] + text[19:]):
        old = round_seven_iso.is_time(clock) or round_seven_iso.is_time_local(clock)
        assert iso.is_time_either(clock) == old, clock


def test_only_datetimes_two_formats_are_one_call() -> None:
    def string(format: str) -> dict[str, str]:
        return {"type": "string", "format": format}

    both = ("is_date_time_either", iso.is_date_time_either)
    assert _formats.either_format([string("date-time"), string("date-time-local")]) == (
        *both,
        [0, 1],
    )
    assert _formats.either_format(
        [string("date"), string("date-time-local"), {"type": "null"}, string("date-time")]
    ) == (*both, [1, 3])
    assert _formats.either_format([string("time-local"), string("time")]) == (
        "is_time_either",
        iso.is_time_either,
        [0, 1],
    )
    for branches in (
        [string("time"), string("date-time-local")],
        [string("date-time")],
        [string("date-time"), string("date")],
        [string("date-time"), {"type": "string", "format": "date-time-local", "maxLength": 20}],
        [string("date-time"), {"type": ["string"], "format": "date-time-local"}],
        [string("date-time"), True],
    ):
        assert _formats.either_format(branches) is None, branches


@pytest.mark.parametrize("pair", [("date-time", "date-time-local"), ("time", "time-local")])
@pytest.mark.parametrize("shape", ["field", "list", "dict", "tuple", "optional", "flat", "apart"])
def test_datetime_fields_get_the_old_verdict_and_issues(
    monkeypatch: pytest.MonkeyPatch, shape: str, pair: tuple[str, str]
) -> None:
    """A validator that checks ``datetime``'s union (or ``time``'s) in one call gives the
    verdict and the issues (path, expected, value, in order) of one written with the two
    checks."""
    from llmapp.validate import _expressions
    from llmapp.validate._validator import Validator

    item: dict[str, object] = {"anyOf": [{"type": "string", "format": name} for name in pair]}
    name = "is_date_time_either" if pair[0] == "date-time" else "is_time_either"
    schemas: dict[str, object] = {
        "field": item,
        "list": {"type": "array", "items": item},
        "dict": {"type": "object", "additionalProperties": item},
        "tuple": {"type": "array", "prefixItems": [item, {"type": "string"}], "items": False},
        "optional": {"anyOf": [item, {"type": "null"}]},
        "flat": {"anyOf": [*item["anyOf"], {"type": "string", "format": "date"}, {"type": "null"}]},  # type: ignore[index]
        "apart": {"anyOf": [item["anyOf"][1], {"type": "integer"}, item["anyOf"][0]]},  # type: ignore[index]
    }
    schema = {
        "type": "object",
        "properties": {"a": schemas[shape], "b": {"type": "integer"}},
        "required": ["a"],
    }
    check = Validator(schema)
    assert name in check.source
    with monkeypatch.context() as patched:
        patched.setattr(_expressions, "either_format", lambda branches: None)
        two_checks = Validator(schema)
    assert name not in two_checks.source
    values: list[object] = [*TIME_MOMENTS, 7, 7.5, None, {"wrong": True}]
    for value in values:
        data: object = {
            "field": value,
            "list": ["2024-05-01T12:30:00", value],
            "dict": {"k": value, "l": "2024-05-01T12:30:00Z"},
            "tuple": [value, "x"],
            "optional": value,
            "flat": value,
            "apart": value,
        }[shape]
        for b in (1, "x"):
            outer = {"a": data, "b": b}
            result, before_ = check(outer), two_checks(outer)
            assert result.success == before_.success, (shape, value)
            assert _issues(result) == _issues(before_), (shape, value)


# -- a container of durations judged at once (issue 33, seventh round) --------------------------

DURATIONS = [
    "P1D",
    "PT55M",
    "P9DT14H",
    "PT23H1M",
    "P1Y2M3DT4H5M6S",
    "P2W",
    "PT0S",
    "P0D",
    "P12345678901234567890D",
    "P",
    "PT",
    "P1DT",
    "P1.5D",
    "PT1,5S",
    "p1d",
    "P1d",
    "-P1D",
    "+P1D",
    " P1D",
    "P1D ",
    "P1D\n",
    "P1W2D",
    "P1M1Y",
    "PT1S1M",
    "P١D",
    "P1D\x00",
    "P1D\x00P2D",
    "P1D\ud800",
    "",
    "1:30:00",
    "P1Y2M3D",
    "PT1H0M5S",
]


@pytest.mark.budgeted
@settings(max_examples=scaled(150, 600), deadline=None)
@given(
    values=st.lists(
        st.sampled_from(DURATIONS)
        | st.lists(st.sampled_from([*"PYMWDTHS0123456789.,-+ "]), max_size=9).map("".join),
        max_size=6,
    ),
    again=st.lists(st.sampled_from(DURATIONS), max_size=4),
)
def test_duration_texts_accept_only_durations(values: list[str], again: list[str]) -> None:
    at_once = iso.DurationTexts()
    for texts in (values, again, values, [*values, *again]):
        each = all(iso.is_duration(text) for text in texts)
        assert at_once(texts) == (each and bool(texts)), texts
        as_dict = {f"k{index}": text for index, text in enumerate(texts)}
        assert at_once.mapping(as_dict) == (each and bool(texts)), texts
    assert not at_once.mapping({1: "P1D"}) and not at_once(["P1D", 1]) and not at_once([None])


def test_duration_texts_tell_a_separator_inside_from_two_texts() -> None:
    at_once = iso.DurationTexts()
    assert at_once(["P1D", "P2D"])  # the joined shape now remembered
    assert not at_once(["P1D\x00P2D"])
    assert not at_once(["P1D\ud800"])


@pytest.mark.parametrize("shape", ["list", "dict", "tail"])
def test_containers_of_durations_get_the_old_verdict_and_issues(
    monkeypatch: pytest.MonkeyPatch, shape: str
) -> None:
    from llmapp.validate import _writer
    from llmapp.validate._validator import Validator

    item = {"type": "string", "format": "duration"}
    if shape == "list":
        schema: dict[str, object] = {"type": "array", "items": item}
    elif shape == "tail":
        schema = {"type": "array", "prefixItems": [{"type": "integer"}], "items": item}
    else:
        schema = {"type": "object", "additionalProperties": item}
    check = Validator(schema)
    assert "DurationTexts()" in check.source
    with monkeypatch.context() as patched:
        patched.setattr(_writer, "usual_texts", lambda schema: None)
        one_by_one = Validator(schema)
    good = [text for text in DURATIONS if iso.is_duration(text)]
    for extra in [None, *DURATIONS, 7, None]:
        values = good if extra is None else [*good[:3], extra, *good[3:]]
        data: object = values
        if shape == "dict":
            data = {f"k{index}": value for index, value in enumerate(values)}
        elif shape == "tail":
            data = [0, *values]
        result = check(data)
        expected = extra is None or (isinstance(extra, str) and iso.is_duration(extra))
        assert result.success == expected, extra
        assert _issues(result) == _issues(one_by_one(data)), (shape, extra)
