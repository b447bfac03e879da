"""The feedback text is byte for byte what it was before it was made to cost what the
mistakes cost (``BEFORE``, read from git), for every failure the validator differential's
schemas and values produce, and for the same failures on long arrays and objects, deep
nesting and long texts, where the renderer's cut rules apply.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable
from typing import Any

import pytest
from benchmarks import validator_differential
from benchmarks.corpus import generate
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support import before
from tests.support.budget import scaled

from llmapp import application, explain, validator
from llmapp._results import UNDEFINED, ValidationFailure, ValidationIssue
from llmapp.validate import SchemaError

BEFORE = "be8e0e1"
"""The last commit whose feedback rendered every value through one walk."""
MEMBERWISE = "648de17"
"""The last commit whose feedback wrote every member without a mistake one at a time (it
writes lone surrogates as their escapes, which ``BEFORE`` did not)."""


@pytest.fixture(scope="module")
def old_feedback() -> Callable[[ValidationFailure], str]:
    render: Callable[[ValidationFailure], str] = before.load(
        BEFORE, "llmapp/explain/_text.py"
    ).feedback
    return render


def _failures() -> list[ValidationFailure]:
    found = []
    for _, schema, made in validator_differential.entries(2):
        try:
            check = validator(schema)
        except (SchemaError, RecursionError):
            continue
        found += [v for v in map(check, made) if isinstance(v, ValidationFailure)]
    return found


@pytest.mark.slow  # about 30 s: every corpus schema compiled; CI runs the slow tests
def test_every_failure_of_the_corpora_reads_as_before(
    old_feedback: Callable[[ValidationFailure], str],
) -> None:
    failures = _failures()
    assert len(failures) > 2_000
    for failure in failures:
        assert explain.feedback(failure) == old_feedback(failure), failure


def _wide(rnd: random.Random, level: int = 0) -> Any:
    """Data with long arrays, wide objects, long strings and odd scalars, nested."""
    kinds = ["int", "float", "str", "long", "none", "bool", "set", "big"]
    if level < 3:
        kinds += ["list", "dict", "list", "dict"]
    kind = rnd.choice(kinds)
    size = rnd.choice([0, 1, 3, 12, 13, 14, 25])
    if kind == "list":
        return [_wide(rnd, level + 1) for _ in range(size)]
    if kind == "dict":
        return {f"k{i}" if i % 5 else f"key {i}": _wide(rnd, level + 1) for i in range(size)}
    return {
        "int": rnd.randint(-(10**20), 10**20),
        "float": rnd.choice([0.1, -2.5e300, 1e-7, float("inf"), float("nan"), 3.0]),
        "str": 'é\n"x"' * rnd.randint(0, 3),
        "long": "y" * rnd.randint(190, 230),
        "none": None,
        "bool": rnd.random() < 0.5,
        "set": {1, 2},
        "big": 10 ** rnd.choice([17, 18, 19, 5000]),
    }[kind]


def _places(value: Any, path: str = "$input") -> list[str]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            name = str(key)
            found += _places(item, f"{path}.{name}" if " " not in name else f'{path}["{name}"]')
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _places(item, f"{path}[{index}]")
    return found


@pytest.mark.budgeted
def test_large_and_odd_arguments_read_as_before(
    old_feedback: Callable[[ValidationFailure], str],
) -> None:
    rnd = random.Random(22)
    for _ in range(scaled(75, 150)):
        data = {"root": _wide(rnd), "other": [_wide(rnd) for _ in range(rnd.choice([2, 30]))]}
        places = _places(data)
        issues = [
            ValidationIssue(rnd.choice(places) + rnd.choice(["", "", ".missing"]), "string", 1)
            for _ in range(rnd.choice([0, 1, 3, 60]))
        ]
        failure = ValidationFailure(data, issues or [ValidationIssue("$nowhere", "x", 1)])
        assert explain.feedback(failure) == old_feedback(failure)


class _Mapping(dict):  # type: ignore[type-arg]
    """A dict subclass: shown as a mapping."""


def _small(rnd: random.Random, level: int = 0) -> Any:
    """Small containers, each written whole (``_Renderer._whole``), and their near misses:
    brackets and quotes in texts and keys, strings at the cut, odd keys and types, empty
    containers, nesting past the depth bound."""
    kinds = ["int", "float", "str", "bracket", "cut", "none", "bool", "odd"]
    if level < 3:
        kinds += ["list", "dict", "list", "dict", "tuple", "deep"] * 2
    kind = rnd.choice(kinds)
    size = rnd.choice([0, 1, 2, 5, 11, 12, 13])
    if kind == "deep":  # a chain of arrays around a small value, 28 to 36 levels deep
        value = _small(rnd, 3)
        for _ in range(rnd.randint(28, 36)):
            value = [value]
        return value
    if kind in ("list", "tuple"):
        items = [_small(rnd, level + 1) for _ in range(size)]
        return items if kind == "list" else tuple(items)
    if kind == "dict":
        keys = ["a", "b c", "[x]", "{", 'q"', "é", "k" * rnd.choice([1, 150, 199, 200, 201])]
        made = {f"{rnd.choice(keys)}{i}": _small(rnd, level + 1) for i in range(size)}
        odd: dict[Any, Any] = {1: 2, False: 3, None: 4} if rnd.random() < 0.1 else {}
        return _Mapping(made) if rnd.random() < 0.05 else {**made, **odd}
    return {
        "int": rnd.choice([0, -7, 10**18, 10**19, 10**5000]),
        "float": rnd.choice([0.1, 2.5e300, float("inf"), float("nan"), -0.0]),
        "str": rnd.choice(["", "x", "a\nb", "\ud800", 'tab\tq"', "é" * 100]),
        "bracket": rnd.choice(["[", "]", "{}", "a[1]", "}{"]),
        "cut": "z" * rnd.choice([190, 196, 197, 198, 199, 200, 201]),
        "none": None,
        "bool": rnd.random() < 0.5,
        "odd": rnd.choice([{1, 2}, b"x", Color.RED, Level.HIGH]),
    }[kind]


class Color(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


@pytest.mark.budgeted
def test_small_arguments_read_as_before() -> None:
    old_feedback = before.load(MEMBERWISE, "llmapp/explain/_text.py").feedback
    rnd = random.Random(8)
    for _ in range(scaled(75, 150)):
        data = {"root": _small(rnd), "other": [_small(rnd) for _ in range(rnd.choice([1, 3, 12]))]}
        places = _places(data)
        issues = [
            ValidationIssue(rnd.choice(places) + rnd.choice(["", ".missing"]), "string", 1)
            for _ in range(rnd.choice([1, 2, 5]))
        ]
        failure = ValidationFailure(data, issues)
        assert explain.feedback(failure) == old_feedback(failure)


SURROGATES = "1593ae1"
"""The last commit whose feedback made its whole text encodable in one pass at the end."""


class _Odd:
    """A value JSON cannot show, whose ``repr`` holds a lone surrogate."""

    def __repr__(self) -> str:
        return "<odd \udc80>"


def _lone(rnd: random.Random) -> str:
    """A text with a lone surrogate somewhere, of any length around the cuts."""
    size = rnd.choice([0, 1, 5, 150, 199, 200, 201, 320])
    text = "é" * (size // 2) + "x" * (size - size // 2)
    at = rnd.randint(0, len(text))
    return text[:at] + rnd.choice(["\ud800", "\udfff", "\ud83d"]) + text[at:]


def _with_lone(rnd: random.Random, level: int = 0) -> Any:
    """Data whose keys, texts and odd values hold lone surrogates, in every container
    shape the renderer writes (small, long, nested, a mapping that is no dict, a tuple)."""
    kinds = ["text", "text", "int", "odd", "plain"]
    if level < 3:
        kinds += ["list", "dict", "dict", "mapping", "tuple"]
    kind = rnd.choice(kinds)
    size = rnd.choice([1, 3, 12, 13, 20])
    members = [_with_lone(rnd, level + 1) for _ in range(size)] if level < 3 else []
    if kind == "list" or kind == "tuple":
        return members if kind == "list" else tuple(members)
    if kind in ("dict", "mapping"):
        made = {(_lone(rnd) if rnd.random() < 0.5 else f"k{i}"): m for i, m in enumerate(members)}
        return _Mapping(made) if kind == "mapping" else made
    return {"text": _lone(rnd), "int": 3, "odd": _Odd(), "plain": "plain"}[kind]


@pytest.mark.budgeted
def test_lone_surrogates_are_escaped_where_they_are_written() -> None:
    """Every lone surrogate is written as its escape wherever it sits (a key, a value, a
    value's ``repr``, an issue's path, ``expected`` or description, an unplaced value),
    as when the whole text was escaped at the end."""
    old_feedback = before.load(SURROGATES, "llmapp/explain/_text.py").feedback
    rnd = random.Random(12)
    for _ in range(scaled(100, 200)):
        data = {"root": _with_lone(rnd), "other": [_with_lone(rnd) for _ in range(3)]}
        places = _places(data)
        issues = [
            ValidationIssue(
                rnd.choice([*places, "$input.nowhere.x", f"$input.{_lone(rnd)}"]),
                rnd.choice(["string", _lone(rnd)]),
                rnd.choice([1, _lone(rnd), _Odd(), UNDEFINED]),
                rnd.choice([None, _lone(rnd)]),
            )
            for _ in range(rnd.choice([1, 2, 5]))
        ]
        failure = ValidationFailure(data, issues)
        text = explain.feedback(failure)
        text.encode("utf-8")  # raises if a surrogate was left raw
        assert text == old_feedback(failure)


def _chain(rnd: random.Random, depth: int) -> tuple[Any, str]:
    """Containers nested ``depth`` levels along one way, each with cold members beside it
    (empty containers, null, booleans, numbers, texts, a small object): the data and the
    path of its innermost container."""
    inner: Any = rnd.choice([[], {}, [1, None], {"a": True}, [[], {}], "x"])
    path = ""
    ways = []
    for _ in range(depth):
        if rnd.random() < 0.5:
            ways.append(0)
            inner = [inner, None, False, [], {}, 2.5, "t", {"k": []}][: rnd.choice([1, 3, 8, 13])]
        else:
            ways.append("k")
            beside = {"n": None, "b": True, "e": [], "o": {}, "s": "t", "i": -3}
            inner = {"k": inner, **dict(list(beside.items())[: rnd.choice([0, 2, 6])])}
    for way in reversed(ways):
        path += f"[{way}]" if type(way) is int else f".{way}"
    return inner, path


@pytest.mark.budgeted
def test_nested_mistakes_and_items_missing_past_the_end_read_as_before() -> None:
    """Containers with a mistake under them nested along one way, down to the depth where
    containers are cut (``MAX_SHOWN_DEPTH``) and past the line budget, each written by
    its parent's loop; issues at, inside and just past the end of the innermost one."""
    old_feedback = before.load(MEMBERWISE, "llmapp/explain/_text.py").feedback
    rnd = random.Random(33)
    for _ in range(scaled(150, 300)):
        data, path = _chain(rnd, rnd.choice([1, 2, 3, 5, 30, 31, 32, 33]))
        if rnd.random() < 0.2:  # past the line budget: the cold members are cut
            data = {"long": [list(range(12))] * 60, "way": data}
            path = ".way" + path
        ends = ["", "[0]", "[1]", "[2]", "[3]", ".a", ".missing", "[0][0]"]
        issues = [
            ValidationIssue("$input" + path + rnd.choice(ends), rnd.choice(["x", "undefined"]), 1)
            for _ in range(rnd.choice([1, 2, 4]))
        ]
        failure = ValidationFailure(data, issues)
        assert explain.feedback(failure) == old_feedback(failure)


ROUND_START = "ac0984b"
"""main before the eighth round on the feedback text (branch feedback8), whose hot
containers were written line by line, without a plan remembered per layout and shape."""


@pytest.fixture(scope="module")
def start_feedback() -> Callable[[ValidationFailure], str]:
    render: Callable[[ValidationFailure], str] = before.load(
        ROUND_START, "llmapp/explain/_text.py"
    ).feedback
    return render


@pytest.mark.slow  # about 10 s: 600 calls of 300 signatures built; CI runs the slow tests
def test_every_wrong_call_of_the_corpus_reads_as_at_the_round_start(
    start_feedback: Callable[[ValidationFailure], str],
) -> None:
    """Each wrong call of the corpus three times: the first makes the plans of its
    containers, the others read them."""
    built = generate()
    app, tools = application(built.tools), built.tools()
    for case in built.cases:
        for label in ("1 mistake", "3 mistakes"):
            failure = app.execute(tools, case.name, case.texts[label]).validation
            assert isinstance(failure, ValidationFailure), (case.name, label)
            expected = start_feedback(failure)
            for _ in range(3):
                assert explain.feedback(failure) == expected, (case.name, label)


_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([0, -7, 10**18 - 1, 10**18, 10**400, 0.5, float("inf"), float("nan")]),
    st.sampled_from(["", "x", "é", "\ud800", 'q"\\', "%s", "z" * 200, "z" * 201]),
)
_MEMBERS = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=14),
        st.dictionaries(st.sampled_from(["a", "b", "c d", "%", "k" * 201, "é"]), inner, max_size=6),
    ),
    max_leaves=40,
)


def _variant(rnd: random.Random, value: Any, level: int = 0) -> Any:
    """``value`` changed where a plan would go wrong if it were read for it: keys
    reordered, dropped or made keys that equal a string's neighbour (``1``, ``True``),
    items added and removed, members turned from containers to leaves and back, an
    object turned into a mapping that is no dict or a tuple."""
    if isinstance(value, dict):
        items = [(key, _variant(rnd, item, level + 1)) for key, item in value.items()]
        move = rnd.random()
        if move < 0.2:
            items.reverse()
        elif move < 0.35 and items:
            items.pop(rnd.randrange(len(items)))
        elif move < 0.45:
            items.append((rnd.choice([1, True, "new", "a"]), rnd.choice([None, [], {}, "v"])))
        made = dict(items)
        return _Mapping(made) if rnd.random() < 0.05 else made
    if isinstance(value, list):
        items = [_variant(rnd, item, level + 1) for item in value]
        move = rnd.random()
        if move < 0.2 and items:
            items.pop()
        elif move < 0.4:
            items += [rnd.choice([None, 1, [], {"a": 1}])] * rnd.choice([1, 2, 11])
        return tuple(items) if rnd.random() < 0.05 else items
    return rnd.choice([value, value, value, [], {}, {"a": value}, [value], 3, "s"])


@st.composite
def _layouts(draw: st.DrawFn) -> tuple[Any, list[ValidationIssue], int]:
    """Arguments, issues at, under, beside and past their members (50 and more of them
    sometimes, some unplaced), and a seed for variants of the arguments."""
    data = draw(st.dictionaries(st.sampled_from(["a", "b", "c", "d e"]), _MEMBERS, min_size=1))
    if draw(st.booleans()):  # past the line budget: containers without issues are cut
        data["long"] = [list(range(12))] * 40
    places = [*_places(data), "$input.nowhere.x", "$input.a.missing", "$input.b[0]", "nope"]
    issues = [
        ValidationIssue(
            draw(st.sampled_from(places)),
            draw(st.sampled_from(["string", "undefined", "% & %s"])),
            1,
            draw(st.sampled_from([None, "why"])),
        )
        for _ in range(draw(st.sampled_from([1, 2, 3, 5, 55])))
    ]
    return data, issues, draw(st.integers(0, 2**32))


@settings(
    max_examples=scaled(60, 600),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(drawn=_layouts())
def test_variants_of_one_layout_read_as_at_the_round_start(
    start_feedback: Callable[[ValidationFailure], str],
    drawn: tuple[Any, list[ValidationIssue], int],
) -> None:
    """The same issues over the arguments and their variants, each rendered twice: the
    plans remembered for one shape of a container are read only for that shape."""
    data, issues, seed = drawn
    rnd = random.Random(seed)
    for value in [data, data, *(_variant(rnd, data) for _ in range(4))]:
        failure = ValidationFailure(value, issues)
        expected = start_feedback(failure)
        assert explain.feedback(failure) == expected
        assert explain.feedback(failure) == expected


@pytest.mark.parametrize("keys", [(1, True, 1.0), ("k" * 201, "k" * 201 + "!"), (None, "None")])
def test_keys_that_compare_equal_but_read_otherwise_read_as_at_the_round_start(
    start_feedback: Callable[[ValidationFailure], str], keys: tuple[Any, ...]
) -> None:
    """Containers at one path of one layout whose keys are equal (``1 == True``) or
    alike but are written otherwise, one after the other."""
    issues = [ValidationIssue("$input.a.x", "string", 1), ValidationIssue("$input.b", "x", 2)]
    for _ in range(2):
        for key in keys:
            failure = ValidationFailure({"a": {key: [1, {}], "x": 2}, "b": 1}, issues)
            assert explain.feedback(failure) == start_feedback(failure), key


_EVERY_LEAF = [
    "".join(map(chr, range(32))) + '"\\/\x7f',  # every escape JSON writes, and its neighbours
    "é\u2028\u2029😀",
    "\ud800x",
    "z" * 199,
    "z" * 200,
    "z" * 201,
    "é" * 200,
    '"' * 150,  # a text under the cut whose JSON is longer than the cut
    1e16,
    -0.0,
    float("nan"),
    float("-inf"),
    1e-7,
    10**18 - 1,
    10**18,
    -(10**18),
    10**5000,  # past the digits Python prints
    True,
    False,
    None,
    [],
    {},
    [[]],
    {"a": {}},
    (),
    Level.HIGH,
]
_ODD_KEYS = ["a", "é", "%s", "k" * 201, 1, True, None, 1.5]


def _leafy(rnd: random.Random, level: int = 0) -> Any:
    """Containers of every kind of leaf (each escape, non-ASCII, texts and integers at
    their cuts, odd floats, nested empties), objects with keys that are not strings, and
    long ones (13 to 40 members)."""
    if level >= 3 or rnd.random() < 0.4:
        return rnd.choice(_EVERY_LEAF)
    size = rnd.choice([1, 2, 3, 12, 13, 14, 40])
    members = [_leafy(rnd, level + 1) for _ in range(size)]
    if rnd.random() < 0.5:
        return members
    keys = _ODD_KEYS if rnd.random() < 0.2 else ["a", "b", "c d"]
    return {rnd.choice(keys) if n < 3 else f"k{n}": member for n, member in enumerate(members)}


@pytest.mark.budgeted
def test_every_kind_of_leaf_and_long_containers_read_as_at_the_round_start(
    start_feedback: Callable[[ValidationFailure], str],
) -> None:
    """Members of every kind written by each loop (a container with an issue under it,
    one without, a long one), and long containers with issues at their first members,
    around the gap, at their last and past their end, before and past the line budget."""
    rnd = random.Random(9)
    for _ in range(scaled(150, 600)):
        data = {"a": _leafy(rnd), "b": [_leafy(rnd) for _ in range(rnd.choice([1, 13, 30]))]}
        if rnd.random() < 0.2:  # past the line budget: only members with issues are shown
            data["c"] = [list(range(12))] * 40
        places = [*_places(data), *(f"$input.b[{n}]" for n in range(35)), "$input.b.x"]
        issues = [
            ValidationIssue(rnd.choice(places), rnd.choice(["string", "undefined"]), 1)
            for _ in range(rnd.choice([1, 2, 3, 8]))
        ]
        failure = ValidationFailure(data, issues)
        expected = start_feedback(failure)
        assert explain.feedback(failure) == expected
        assert explain.feedback(failure) == expected


def _filler(rnd: random.Random, level: int = 0) -> Any:
    """Small containers nested in small containers, of sizes drawn at each turn: the
    lines they take add up past the budget at a member that changes with the draw."""
    if level >= 4 or rnd.random() < 0.25:
        return rnd.choice([1, "t", None, [], {}, (1,), _Mapping(a=1)])
    members = [_filler(rnd, level + 1) for _ in range(rnd.randint(1, 12))]
    if rnd.random() < 0.5:
        return members
    return {f"k{n}": member for n, member in enumerate(members)}


@pytest.mark.budgeted
def test_the_line_budget_running_out_anywhere_reads_as_at_the_round_start(
    start_feedback: Callable[[ValidationFailure], str],
) -> None:
    """The budget of lines for members without issues runs out inside nested containers
    without issues, at whichever member the draw puts it: each container after it is
    shown as ``[…]``/``{…}`` exactly where the old renderer cut it."""
    rnd = random.Random(400)
    for _ in range(scaled(120, 500)):
        data = {"pad": [_filler(rnd) for _ in range(rnd.randint(1, 12))], "x": _filler(rnd)}
        path = rnd.choice(["$input.x", "$input.pad", "$input.pad[0]", "$input.y"])
        failure = ValidationFailure(data, [ValidationIssue(path, "string", 1)])
        expected = start_feedback(failure)
        assert explain.feedback(failure) == expected
        assert explain.feedback(failure) == expected
