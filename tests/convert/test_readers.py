"""The fast readers (``convert._readers``) and what uses them give the values of the general path.

Each reader is compared with the converter it stands in front of (``general``: the row's
``parse`` behind the test for a value already of the type) on generated and adversarial
texts: the same type, ``repr`` and equality, or the same exception with the same
message. Then every corpus signature's valid arguments are converted twice, by the
converter as compiled and by one compiled without readers, without the mapped lists and
with ``model_validate`` (the code before them), and the two calls' arguments and results
compared the same way.
"""

from __future__ import annotations

import base64
import json
import random
import uuid
from collections.abc import Iterator
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from ipaddress import IPv4Address, IPv6Address
from typing import Any

import pytest
from benchmarks.corpus import generate
from pydantic import BaseModel, field_validator

from llmapp import application
from llmapp._records.record import replace
from llmapp._scalars.table import scalar_of
from llmapp.convert import _objects, _readers, _to_python, compile_arguments
from llmapp.convert._readers import PURE
from llmapp.convert._scalars import _accepting, scalar_converter
from llmapp.kernel._arguments import strict_arguments
from llmapp.kernel._function import OnFirstUse


def _general(cls: type) -> Any:
    found = scalar_of(cls)
    assert found is not None
    return _accepting(cls, found[0].parse(cls))


def _outcome(convert: Any, value: Any) -> tuple[Any, ...]:
    try:
        made = convert(value)
    except Exception as error:  # the same refusal, by type and message
        return ("raised", type(error), str(error))
    try:
        itself = made == made
    except ArithmeticError:  # a signalling NaN refuses to be compared
        itself = False
    return ("made", type(made), repr(made), made if itself else None)


def _alike(cls: type, values: list[Any]) -> None:
    fast, general = scalar_converter(cls), _general(cls)
    assert fast in PURE  # a reader stands in front of the general converter
    for value in values:
        assert _outcome(fast, value) == _outcome(general, value), value


_SPACES = ["", " ", "\t", "\n", "\u00a0", "\u2003"]


def _spaced(texts: list[str]) -> list[str]:
    """Each text, and each with a space of some kind before or after it."""
    rng = random.Random(33)
    out = list(texts)
    for text in texts:
        out.append(rng.choice(_SPACES[1:]) + text)
        out.append(text + rng.choice(_SPACES[1:]))
    return out


def _date_texts(rng: random.Random, count: int) -> Iterator[str]:
    for _ in range(count):
        year = rng.choice([1, 4, 1900, 1999, 2000, 2024, 2100, 9999, rng.randint(1, 9999)])
        month, day = rng.randint(1, 12), rng.choice([1, 9, 28, 29, 30, 31])
        yield f"{year:04d}-{month:02d}-{day:02d}"


def _clock_texts(rng: random.Random, count: int) -> Iterator[str]:
    fractions = ["", ".0", ".5", ".000", ".123456", ".1234567", ",5", ".999999999"]
    offsets = ["", "Z", "z", "+00:00", "-00:00", "+02:00", "-05:30", "+23:59", "+0530", "+05"]
    for _ in range(count):
        hour = rng.choice([0, 9, 12, 23, 24])
        second = rng.choice([0, 30, 59, 60])
        yield (
            f"{hour:02d}:{rng.randint(0, 59):02d}:{second:02d}"
            + rng.choice(fractions)
            + rng.choice(offsets)
        )


_ADVERSARIAL_DATES = [
    "2024-02-29",
    "2023-02-29",
    "2000-02-29",
    "1900-02-29",
    "0000-01-01",
    "0001-01-01",
    "9999-12-31",
    "2024-13-01",
    "2024-00-10",
    "20240501",
    "2024-W18-3",
    "2024-05",
    "2024-5-1",
    "２０２４-05-01",
    "2024-05-01T00:00:00",
    "",
    "x",
]


def test_dates_read_alike() -> None:
    rng = random.Random(33)
    _alike(date, [*_spaced([*_date_texts(rng, 400), *_ADVERSARIAL_DATES]), None, 3, 1.5])
    _alike(date, [date(2024, 2, 29), datetime(2024, 2, 29, 12)])  # already values: kept


def test_date_times_read_alike() -> None:
    rng = random.Random(34)
    days, clocks = list(_date_texts(rng, 300)), list(_clock_texts(rng, 300))
    texts = [day + rng.choice("Tt ") + clock for day, clock in zip(days, clocks, strict=True)]
    texts += [
        "2024-02-29T23:59:60Z",
        "2016-12-31T23:59:60+00:00",
        "2024-05-01T12:30:00.123456789Z",
        "2024-05-01T24:00:00Z",
        "2024-05-01T12:30Z",
        "2024-05-01T12Z",
        "2024-05-01 12:30:00 +02:00",
        "2024-05-01T12:30:00+24:00",
        "2024-05-01T12:30:00-00:00",
        "2024-05-01T12:30:00.000Z",
        "20240501T123000Z",
        "2024-05-01",
        "0000-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999999+14:00",
    ]
    _alike(datetime, [*_spaced(texts), None, 1, datetime(2024, 5, 1)])


def test_times_read_alike() -> None:
    rng = random.Random(35)
    texts = [*list(_clock_texts(rng, 500)), "12:30", "12", "1230", "123000Z", "23:59:60Z", ""]
    _alike(time, [*_spaced(texts), None, time(12, 30)])


def _duration_texts(rng: random.Random, count: int) -> Iterator[str]:
    amounts = [0, 1, 7, 23, 59, 60, 99, 999, 123456789, 999999999]
    for _ in range(count):
        parts = "P"
        for unit in "YMWD":
            if rng.random() < 0.3:
                parts += f"{rng.choice(amounts)}{unit}"
        if rng.random() < 0.7:
            parts += "T"
            for unit in "HMS":
                if rng.random() < 0.5:
                    parts += f"{rng.choice(amounts)}{unit}"
        yield parts


def test_durations_read_alike() -> None:
    rng = random.Random(36)
    texts = [
        *list(_duration_texts(rng, 600)),
        "P",
        "PT",
        "P1DT",
        "PT0S",
        "p1d",
        "pt30m",
        "-P3D",
        "+PT1H",
        "PT1.5H",
        "PT0,5S",
        "P1Y2M3W4DT5H6M7S",
        "P999999999D",
        "P999999998D",
        "PT86399999999999S",
        "P1000000000D",
        "PT9999999999H",
        "PT999999999H999999999M999999999S",
        "P999999999DT999999999H",
        "PT0H",
        "P0D",
        "PT1H1S",
        "1:30:00",
        "-1 day, 2:03:04.5",
        "PT1HT",
        "P1D2H",
        "",
        "Ｐ1D",
    ]
    _alike(timedelta, [*_spaced(texts), None, 90, 1.5, -0.0, timedelta(days=1)])


def test_uuids_read_alike() -> None:
    rng = random.Random(37)
    made = [uuid.UUID(int=rng.getrandbits(128)) for _ in range(200)]
    texts = [str(value) for value in made] + [value.hex for value in made[:50]]
    texts += [str(value).upper() for value in made[:50]]
    sample = str(made[0])
    texts += [
        "{" + sample + "}",
        "urn:uuid:" + sample,
        sample[:-1],
        sample + "0",
        sample.replace("-", "_"),
        "0x" + sample.replace("-", "")[2:],
        "+" + sample.replace("-", "")[1:],
        " " + sample.replace("-", "")[1:],
        sample.replace("-", "")[:31] + " ",
        "1_" + sample.replace("-", "")[2:],
        "٣" + sample.replace("-", "")[1:],
        "g" + sample[1:],
        "--" + sample,
        "-" * 36,
        "",
    ]
    _alike(uuid.UUID, [*_spaced(texts), None, 7, made[0]])
    fast = scalar_converter(uuid.UUID)
    assert fast(sample).is_safe is uuid.SafeUUID.unknown
    with pytest.raises(TypeError):  # as immutable as one made by ``UUID()``
        fast(sample).int = 1


def test_ipv4_addresses_read_alike() -> None:
    rng = random.Random(38)
    texts = [".".join(str(rng.randint(0, 255)) for _ in range(4)) for _ in range(300)]
    texts += [
        "0.0.0.0",
        "255.255.255.255",
        "256.1.1.1",
        "01.2.3.4",
        "1.2.3",
        "1.2.3.4.5",
        "1.2.3.4/32",
        "1..3.4",
        "١.2.3.4",
        "+1.2.3.4",
        "1.2.3.4 ",
        "1.2.3.4\n",
        "0x1.2.3.4",
        "1.2.3.04",
        "",
    ]
    _alike(IPv4Address, [*_spaced(texts), None, 3, IPv4Address("1.2.3.4")])


def _ipv6_texts(rng: random.Random, count: int) -> Iterator[str]:
    for _ in range(count):
        groups = [f"{rng.getrandbits(rng.choice([4, 8, 16])):x}" for _ in range(8)]
        if rng.random() < 0.3:
            groups = [group.zfill(4).upper() for group in groups]
        if rng.random() < 0.6:  # a run of groups written as ``::``, even of none or one
            start = rng.randint(0, 8)
            end = rng.randint(start, 8)
            yield ":".join(groups[:start]) + "::" + ":".join(groups[end:])
        else:
            yield ":".join(groups)


def test_ipv6_addresses_read_alike() -> None:
    rng = random.Random(40)
    texts = [*_ipv6_texts(rng, 400)]
    texts += [
        "::",
        "::1",
        "1::",
        "2001:db8::7c36",
        "1:2:3:4:5:6:7::",
        "::2:3:4:5:6:7:8",
        "1:2:3:4:5:6:7:8::",
        "::1:2:3:4:5:6:7:8",
        "1:2:3:4:5:6:7",
        "1:2:3:4:5:6:7:8:9",
        "1::2::3",
        ":1::",
        "1:::2",
        "12345::",
        "00000::",
        "::ffff:1.2.3.4",
        "fe80::1%eth0",
        "::1/128",
        "g::",
        "١::",
        "",
    ]
    _alike(IPv6Address, [*_spaced(texts), None, 3, IPv6Address("::1")])


def test_base64_read_alike() -> None:
    rng = random.Random(39)
    raw = [bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 40))) for _ in range(200)]
    texts = [base64.b64encode(value).decode() for value in raw]
    texts += [base64.urlsafe_b64encode(value).decode() for value in raw[:50]]
    texts += [text.rstrip("=") for text in texts[:50]]
    texts += ["====", "A===", "AA==", "AAA=", "AAAA", "A", "AB=C", "AB\nCD", "ab-_", "Zm9v\n", "é"]
    _alike(bytes, [*_spaced(texts), None, 1, b"already"])


# -- the converters of the corpus, with and without the readers -------------------------


def _without_readers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Compile as before the readers: none made, so no list mapped, and ``model_validate``."""
    monkeypatch.setattr(_readers, "_READERS", {})
    monkeypatch.setattr(_objects, "_validated_directly", lambda cls: False)


def _same_value(fast: Any, general: Any) -> None:
    assert type(fast) is type(general)
    assert repr(fast) == repr(general)
    assert fast == general


def test_corpus_arguments_convert_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    built = generate()
    app, tools = application(built.tools), built.tools()
    for case in [*built.cases, *built.named]:
        text = case.texts["valid"]
        result = app.execute(tools, case.name, text)
        assert result.success, (case.name, result.feedback)
        plan = app.require(case.name) and app._plans[case.name]  # type: ignore[attr-defined]
        data = strict_arguments(text, plan.max_length)
        fast = plan.convert.get()(data)
        with monkeypatch.context() as patched:
            _without_readers(patched)
            before = compile_arguments(*plan.convert.source).convert
            general = before(data)
            slow = replace(plan, fused=None, convert=OnFirstUse(lambda _: before, None))
            expected = slow.execute(tools, text, None, False)
        _same_value(fast, general)
        for name in ("name", "success", "value", "data", "validation", "feedback", "error"):
            assert getattr(result, name) == getattr(expected, name), (case.name, name)


class _Checked(BaseModel):
    when: datetime
    day: date
    tag: str

    @field_validator("tag")
    @classmethod
    def _upper(cls, value: str) -> str:
        return value.upper()


class _Overridden(BaseModel):
    when: datetime

    @classmethod
    def model_validate(cls, obj: Any, **options: Any) -> _Overridden:  # type: ignore[override]
        made = super().model_validate(obj, **options)
        made.when = made.when.replace(year=2000)
        return made


class Tools:
    def record(self, item: _Checked, other: _Overridden) -> str:
        return f"{item.tag} {item.when.isoformat()} {item.day} {other.when.year}"


def test_pydantic_models_keep_their_validators_and_overrides() -> None:
    app = application(Tools)
    text = json.dumps(
        {
            "item": {"when": "2024-02-29T23:59:60Z", "day": "2024-02-29", "tag": "abc"},
            "other": {"when": "2024-05-01T12:00:00+02:00"},
        }
    )
    result = app.execute(Tools(), "record", text)
    assert result.success, result.feedback
    assert result.value == "ABC 2024-02-29T23:59:59.999999+00:00 2024-02-29 2000"


def test_a_refused_item_is_named_by_its_index() -> None:
    from llmapp.convert import ConversionError, compile_converter
    from llmapp.introspect.model import ArrayNode, StringNode, TypeGraph

    node = ArrayNode(item=StringNode(format="date", python_type=date))
    convert = compile_converter(node, TypeGraph())
    assert convert(["2024-02-29", "2024-03-01"]) == [date(2024, 2, 29), date(2024, 3, 1)]
    with pytest.raises(ConversionError) as refused:
        convert(["2024-02-29", "2023-02-29"])
    assert refused.value.path == "$input[1]"


@pytest.mark.parametrize("target", [frozenset, set, tuple])
def test_a_list_of_builtin_containers_is_mapped_as_the_loop_converts(
    target: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    from llmapp.convert import compile_converter
    from llmapp.introspect._types import TypeBuilder

    builder = TypeBuilder()
    inner = tuple[str, ...] if target is tuple else target[str]  # type: ignore[index]
    node = builder.build(list[inner], location="case", globalns={})  # type: ignore[valid-type]
    mapped = compile_converter(node, builder.graph())
    with monkeypatch.context() as patched:  # the loop: the containers not counted as readers
        patched.setattr(_readers, "PURE", PURE.__class__(set(PURE) - {tuple, set, frozenset}))
        patched.setattr(_to_python, "PURE", _readers.PURE)
        looped = compile_converter(node, builder.graph())
    assert target in PURE
    for value in ([["a", "b"], [], ["c"]], [["a"], [["x"]]], [["a"], [{"k": 1}], [["y"]]]):
        assert _outcome(mapped, value) == _outcome(looped, value), value


def test_a_refused_value_is_named_by_its_key() -> None:
    from llmapp.convert import ConversionError, compile_converter
    from llmapp.introspect.model import DictNode, StringNode, TypeGraph

    node = DictNode(value=StringNode(format="duration", python_type=timedelta))
    convert = compile_converter(node, TypeGraph())
    assert convert({"a": "PT1H", "b": "P2D"}) == {"a": timedelta(hours=1), "b": timedelta(2)}
    with pytest.raises(ConversionError) as refused:
        convert({"a": "PT1H", "b": "P1000000000D"})
    assert refused.value.path == "$input.b"


def test_decimals_read_alike() -> None:
    rng = random.Random(41)
    texts = [f"{rng.uniform(-1e6, 1e6):.{rng.randint(0, 6)}f}" for _ in range(200)]
    texts += ["0", "-0", "-0.00", "1e999999", "1E-999999999", "NaN", "-Infinity", "sNaN", "1_000"]
    texts += [" 1.5", "1.5 ", "١٢", "0x10", "", "1.2.3", "9" * 60]
    numbers = [0, -1, 10**40, 0.1, -0.0, 1e300, 5e-324, float("nan"), float("inf")]
    _alike(Decimal, [*_spaced(texts), *numbers, None, Decimal("1.10")])


def test_a_union_of_one_converting_kind_answers_as_its_table() -> None:
    """``datetime | None`` (aware or local text): the kind's test and ``_alike`` in one
    frame answer as the lookup by kind did."""
    from llmapp.convert import ConversionError, compile_converter
    from llmapp.introspect.model import NullNode, StringNode, TypeGraph, UnionNode

    aware = StringNode(format="date-time", python_type=datetime)
    local = StringNode(format="date-time-local", python_type=datetime)
    convert = compile_converter(UnionNode(options=(aware, local, NullNode())), TypeGraph())
    assert convert(None) is None
    assert convert(3) == 3  # no branch of its kind: as it is
    assert convert("2024-05-01T10:00:00Z") == datetime.fromisoformat("2024-05-01T10:00:00+00:00")
    assert convert("2024-05-01T10:00:00") == datetime(2024, 5, 1, 10)
    assert convert("not a date") == "not a date"  # no branch fits: as it is
    with pytest.raises(ConversionError):  # written as a date-time, but no day 30 in February
        convert("2024-02-30T10:00:00Z")
