"""The converters of branch execvalid6 (issue 33) give the values the converters before gave.

The whole ``llmapp.convert`` package is read from git at the commit before the change
(``BEFORE``) and loaded beside today's as a package of its own
(``llmapp._convert_before``: its ``..`` imports are today's llmapp). Both compile the same
methods; every value is converted by both and compared: the same type, ``repr`` and
equality of each argument, or the same refusal (type, message and path). The changes it
covers: durations read from tables of small amounts, a decimal's text checked against its
bounds by one generated function (the union's other kinds with it), and tuples of
readers' values converted by one expression over their positions, base64 read by the
strict decoder alone; and since (branch execvalid7) a decimal's ``multipleOf`` tested by
its context's ``remainder`` in the generated check, a UUID's slots set by their
descriptors, and records holding tagged records chosen by their tag (every corpus
signature, and ``test_tag_chosen.py``).
"""

from __future__ import annotations

import base64
import importlib.util
import random
import subprocess
import sys
import types
from datetime import timedelta
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any

import pytest
from annotated_types import Ge, Gt, Le, Lt, MultipleOf
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from tests.support import before
from tests.support.drawn import drawn

from llmapp import application
from llmapp.convert import compile_arguments
from llmapp.introspect._types import TypeBuilder
from llmapp.introspect.model import MethodSpec, ParameterSpec, TypeGraph
from llmapp.kernel._arguments import strict_arguments

BEFORE = "aed5237"
"""``main`` when branch execvalid6 started."""


@pytest.fixture(scope="module")
def old(tmp_path_factory: pytest.TempPathFactory) -> types.ModuleType:
    """``llmapp.convert`` at ``BEFORE``, as the package ``llmapp._convert_before``."""
    before.require(BEFORE)
    folder = tmp_path_factory.mktemp("convert_before")
    listed = subprocess.run(
        ["git", "-C", str(before.ROOT), "ls-tree", "--name-only", BEFORE, "src/llmapp/convert/"],
        capture_output=True,
        text=True,
        check=True,
    )
    for path in listed.stdout.split():
        shown = subprocess.run(
            ["git", "-C", str(before.ROOT), "show", f"{BEFORE}:{path}"],
            capture_output=True,
            text=True,
            check=True,
        )
        (folder / Path(path).name).write_text(shown.stdout)
    name = "llmapp._convert_before"
    spec = importlib.util.spec_from_file_location(
        name, folder / "__init__.py", submodule_search_locations=[str(folder)]
    )
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    spec.loader.exec_module(package)
    return importlib.import_module(f"{name}._arguments")


def _shown(value: Any) -> tuple[Any, ...]:
    try:
        itself = value == value
    except ArithmeticError:  # a signalling NaN refuses to be compared
        itself = False
    return (type(value), repr(value), value if itself else None)


def _outcome(convert: Any, data: Any) -> tuple[Any, ...]:
    try:
        args, kwargs = convert(data)
    except Exception as error:  # the same refusal, by type, message and place
        return ("raised", type(error), str(error), getattr(error, "path", None))
    return (
        "made",
        [_shown(value) for value in args],
        {key: _shown(value) for key, value in kwargs.items()},
    )


def _both(old: types.ModuleType, method: MethodSpec, graph: TypeGraph) -> tuple[Any, Any]:
    return compile_arguments(method, graph), old.compile_arguments(method, graph)


def test_every_corpus_signature_converts_as_before(
    old: types.ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The 300 signatures and the named tools: the valid text, and seeded valid arguments."""
    built, records = drawn(monkeypatch)
    app = application(built.tools)
    compared = 0
    for case in [*built.cases, *built.named]:
        function = app.require(case.name)
        plan = app._plans[case.name]  # type: ignore[attr-defined]
        fast, slow = _both(old, *plan.convert.source)
        datas = [strict_arguments(case.texts["valid"], plan.max_length)]
        if case.name in records:
            arguments, scale = records[case.name]
            rng = random.Random(case.name)
            datas += [arguments.value(rng, min(scale, 4)) for _ in range(4)]
        for data in datas:
            if function.validate(data).success:
                assert _outcome(fast, data) == _outcome(slow, data), (case.name, data)
                compared += 1
    assert compared > 1200


def _method(annotation: Any) -> tuple[MethodSpec, TypeGraph]:
    builder = TypeBuilder()
    node = builder.build(annotation, location="case", globalns=globals())
    assert node is not None, builder.problems
    parameter = ParameterSpec(name="value", type=node)
    method = MethodSpec(
        name="m", kind="static", is_async=False, parameters=(parameter,), returns=None
    )
    return method, builder.graph()


_UNITS = ("D", "H", "M", "S")


def _duration_texts() -> list[str]:
    """Every form the reader and the tables take, and texts beside them they do not."""
    amounts = ["0", "1", "9", "10", "41", "99", "100", "05", "007", "999999999", "1000000000"]
    rng = random.Random(33)
    texts = []
    for _ in range(3000):
        days = rng.choice(["", *amounts])
        clock = "".join(
            rng.choice(["", *amounts]) + letter if rng.random() < 0.5 else "" for letter in "HMS"
        )
        text = "P" + (days + "D" if days else "") + ("T" + clock if clock else "")
        texts.append(text)
        texts.append(text.lower())
        texts.append(text + "T")
    texts += [
        f"P{clock}{amount}{letter}"
        for amount in range(120)
        for clock in ("", "T")
        for letter in _UNITS
    ]
    texts += [
        "P",
        "PT",
        "P1DT",
        "PT1H1S",
        "P1Y",
        "P1M",
        "P1W",
        "P2W3D",
        "-P1D",
        "+P1D",
        "-PT0S",
        " PT1M",
        "PT1M ",
        "PT1.5S",
        "PT1,5S",
        "PT٣M",
        "P٣D",
        "PT１M",
        "1:30:00",
        "-1 day, 1:00:00",
        "1 day, 0:30:00",
        "P999999998D",
        "P999999999D",
        "P999999997DT48H",
        "PT99999999999H",
        "",
        "T",
        "D",
        "P0D",
        "PT0S",
        "PT3H5H",
        "PTH25M",
        "PT3HT25M",
        "P8DT3H25M",
        "PT25M3H",
        "PT3H25M10S",
        "P8DTT3H",
        "PT3H3H3H",
        "P1DT1D",
        "PT1D",
        "P1HT1H",
        "PT0H0M",
        "P0DT0H",
        "PT99H99S",
        "PT100H1M",
        "PT1H100M",
        "P99DT99H99M",
        "PT1HM",
        "PT1H-1M",
        "PT00M",
        "P00D",
        "P-1D",
        "PT23H59M",
        "PT1H1M",
        "PT24H1M",
        "PT23H60M",
        "P3DT23H59M",
        "P99DT1H30M",
        "PT0H59M",
        "PT23H0M",
        "PT01H05M",
        "PT3H25M10S",
        "PT3H25MT",
        "PT3M25H",
        "pt3h25m",
    ]
    texts += [f"PT{hour}H{minute}M" for hour in range(0, 26) for minute in range(0, 62)]
    return texts


@pytest.mark.parametrize(
    "annotation",
    [timedelta, list[timedelta], dict[str, timedelta], timedelta | None, tuple[timedelta, int]],
    ids=["one", "list", "dict", "optional", "tuple"],
)
def test_durations_convert_as_before(old: types.ModuleType, annotation: Any) -> None:
    fast, slow = _both(old, *_method(annotation))
    texts: list[Any] = _duration_texts()
    texts += [None, 3, 3.5, True, ["PT1M"], {"a": "PT1M"}, timedelta(hours=1)]
    for text in texts:
        if annotation is list[timedelta]:
            value: Any = [text, "PT41M", "P4D"]
        elif annotation is dict[str, timedelta]:
            value = {"a": "P9DT14H", "b": text}
        elif annotation == tuple[timedelta, int]:
            value = [text, 3]
        else:
            value = text
        data = {"value": value}
        assert _outcome(fast, data) == _outcome(slow, data), text


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.from_regex(
        r"[Pp]?([0-9]{0,4}[DdWwYy])?([Tt]([0-9]{0,4}[Hh])?([0-9]{0,4}[Mm])?([0-9]{0,4}[Ss])?)?",
        fullmatch=True,
    )
)
@example("PT1H")
def test_generated_durations_convert_as_before(old: types.ModuleType, text: str) -> None:
    fast, slow = _both(old, *_method(dict[str, timedelta]))
    data = {"value": {"a": text, "b": text.upper()}}
    assert _outcome(fast, data) == _outcome(slow, data), text


BOUNDED: list[Any] = [
    Annotated[Decimal, Ge(Decimal("0")), Le(Decimal("100000"))],
    Annotated[Decimal, Ge(0), Le(100000)],
    Annotated[Decimal, Gt(Decimal("0.5")), Lt(10)],
    Annotated[Decimal, MultipleOf(Decimal("0.01"))],
    Annotated[Decimal, Ge(Decimal("0")), MultipleOf(Decimal("0.01"))],
    Annotated[Decimal, Gt(0.1), Le(2.5)],
    Annotated[Decimal, Le(Decimal("-5"))] | None,
    dict[str, Annotated[Decimal, Ge(Decimal("0")), MultipleOf(Decimal("0.5"))]],
    Annotated[Decimal, MultipleOf(Decimal("1")), Le(Decimal("100000"))] | None,
    list[tuple[Annotated[Decimal, Ge(Decimal("0")), Le(Decimal("100000"))], str]],
    tuple[Annotated[Decimal, Gt(0)], Annotated[Decimal, Lt(0)] | None, str],
]

_DECIMAL_VALUES: list[Any] = [
    "0",
    "-0",
    "0.00",
    "0E-7",
    "100000",
    "100000.0",
    "100000.0000001",
    "99999.99",
    "1e5",
    "1E+5",
    "1e-999999",
    "1e999999",
    "-1e999999",
    "NaN",
    "-NaN",
    "sNaN",
    "Infinity",
    "-Infinity",
    "inf",
    "0.5",
    "0.50",
    "0.5000001",
    "0.1",
    "0.10",
    "0.1000000000000000055",
    "2.5",
    "2.50000",
    "10",
    "9.999",
    "-5",
    "-5.0",
    "-4.99",
    "0.01",
    "0.015",
    "12.34",
    "12.345",
    " 5",
    "5 ",
    "abc",
    "",
    "1_000",
    "٣",
    0,
    1,
    -5,
    0.1,
    0.5,
    2.5,
    100000,
    100000.5,
    1e300,
    -0.0,
    True,
    None,
    [],
    {},
    Decimal("3"),
]


@pytest.mark.parametrize("annotation", BOUNDED, ids=[str(i) for i in range(len(BOUNDED))])
def test_bounded_decimals_convert_as_before(old: types.ModuleType, annotation: Any) -> None:
    fast, slow = _both(old, *_method(annotation))
    for number in _DECIMAL_VALUES:
        value: Any = number
        if "dict[" in str(annotation):
            value = {"a": "1.5", "b": number, "c": 2.5}
        elif "list[" in str(annotation):
            value = [["1.5", "a"], [number, "b"], ["2", "c"]]
        elif "tuple[" in str(annotation):
            value = [number, "-1", "x"]
        data = {"value": value}
        assert _outcome(fast, data) == _outcome(slow, data), number
    for value in ([], ["1"], ["1", "a", "extra"], "ab", {"0": "1"}, None, 5):
        data = {"value": value}
        assert _outcome(fast, data) == _outcome(slow, data), value


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.one_of(
        st.decimals(allow_nan=True, allow_infinity=True).map(str),
        st.integers(-(10**6), 10**6).map(lambda n: str(Decimal(n).scaleb(-2))),
        st.floats(allow_nan=False, allow_infinity=False),
        st.integers(),
        st.text(max_size=8),
    )
)
def test_generated_decimals_convert_as_before(old: types.ModuleType, number: Any) -> None:
    for annotation in [*BOUNDED[:7], BOUNDED[8]]:
        fast, slow = _both(old, *_method(annotation))
        data = {"value": number}
        assert _outcome(fast, data) == _outcome(slow, data), (annotation, number)


def _base64_texts() -> list[str]:
    rng = random.Random(39)
    raw = [bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 60))) for _ in range(300)]
    texts = [base64.b64encode(value).decode() for value in raw]
    texts += [base64.urlsafe_b64encode(value).decode() for value in raw[:80]]
    texts += [text.rstrip("=") for text in texts[:80]]
    texts += [text + "=" for text in texts[:40]] + [text + "====" for text in texts[:40]]
    texts += [
        "",
        "====",
        "A===",
        "AA==",
        "AAA=",
        "AAAA",
        "AAAA=",
        "AAAA==",
        "AAAA===",
        "AAAA====",
        "AAA=====",
        "A",
        "AB=C",
        "AB==AAAA",
        "=AAA",
        "AB\nCD",
        "ab-_",
        "Zm9v\n",
        "Zm9v ",
        " Zm9v",
        "é",
        "Zm9é",
        "Zm9\x00",
        "AB+/",
        "AB/=",
        "AB==",
        "AC==",
        "AAB=",
        "AAC=",
        "\u0660\u0661\u0662\u0663",
    ]
    return texts


@pytest.mark.parametrize(
    "annotation",
    [bytes, list[bytes], bytes | None, tuple[bytes, bytes], dict[str, bytes]],
    ids=["one", "list", "optional", "tuple", "dict"],
)
def test_base64_converts_as_before(old: types.ModuleType, annotation: Any) -> None:
    fast, slow = _both(old, *_method(annotation))
    values: list[Any] = _base64_texts()
    values += [None, 1, 2.5, [], {}, b"already", bytearray(b"x")]
    for text in values:
        if annotation is list[bytes]:
            value: Any = ["Zm9v", text]
        elif annotation == tuple[bytes, bytes]:
            value = [text, "Zm9v"]
        elif annotation is dict[str, bytes]:
            value = {"a": text}
        else:
            value = text
        data = {"value": value}
        assert _outcome(fast, data) == _outcome(slow, data), text


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.text(alphabet="AB+/=-_ \nz0é", max_size=12)
    | st.binary().map(lambda raw: base64.b64encode(raw).decode())
)
def test_generated_base64_converts_as_before(old: types.ModuleType, text: str) -> None:
    fast, slow = _both(old, *_method(bytes))
    data = {"value": text}
    assert _outcome(fast, data) == _outcome(slow, data), text
