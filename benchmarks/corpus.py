"""A seeded corpus of tool signatures, for the call step's rows (``corpus_bench.py``).

The benchmark's hand-picked payloads were chosen by the hands that tuned the code; this
generator draws tool signatures the way real tools are written instead: every row of
the scalar table (dates, date-times with and without an offset, times, durations,
``Decimal`` with bounds and ``MultipleOf``, UUIDs, e-mails, URLs, IP addresses, bytes),
every annotated-types constraint (``Gt``, ``Ge``, ``Lt``, ``Le``, ``Interval``,
``MultipleOf``, ``MinLen``, ``MaxLen``, ``Len``), simple and complex patterns, enums and
literals, nested dataclasses, TypedDicts and pydantic models, lists, dicts, tuples, sets,
optionals, discriminated and plain unions and recursive records, from 1 to about 200
values a call.

Each signature is written twice as Python source: the tool as llmapp reads it (a method
of one class), and its arguments as a pydantic model, strict with extra keys forbidden
at every level (the types JSON writes as text read it: ``Strict(False)``, as
pydantic's JSON mode does; ``bytes``, which llmapp reads as base64 text, is pydantic's
own base64 type, so both sides decode it and hand the call the same bytes). Each comes
with three argument texts: valid, with one mistake and with three, every mistake one
that both sides refuse and that llmapp's repair cannot mend (a value of another JSON
type, a broken bound, pattern, format or enum, a missing or an extra key).

``generate(count, seed)`` is deterministic: the same seed gives the same corpus.
"""

from __future__ import annotations

import base64
import json
import random
import sys
import types
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["COUNT", "NAMED", "SEED", "Case", "Corpus", "generate"]

COUNT = 300
SEED = 33
_MOST_VALUES = 200
"""A call's valid arguments hold at most this many values (an item, a key's value...)."""

Json = Any
Rng = random.Random

_WRONG_SCALAR: Json = {"wrong": True}
"""What a scalar never accepts, and llmapp's repair never turns into one."""
_WRONG_CONTAINER = "not a container"
"""What a list, set, tuple, dict or record never accepts (no JSON inside to repair)."""


# --- the type model: each node writes both annotations, a valid value and a mistake ----


class Type:
    """One annotation of the corpus."""

    def ours(self) -> str:
        """The annotation in the tool's module (llmapp)."""
        raise NotImplementedError

    def theirs(self) -> str:
        """The annotation in the peer's module (pydantic, strict, extra keys forbidden)."""
        return self.ours()

    def value(self, rng: Rng, scale: int) -> Json:
        raise NotImplementedError

    def mistake(self, rng: Rng, value: Json) -> Json:
        """``value`` (valid) with one mistake in it."""
        return _WRONG_SCALAR


@dataclass
class Scalar(Type):
    """A leaf: its annotations and how to draw a valid and a refused value."""

    mine: str
    peer: str
    draw: Callable[[Rng], Json]
    bad: Callable[[Rng], Json] | None = None
    """A value of the right JSON type that the constraints or the format refuse."""

    def ours(self) -> str:
        return self.mine

    def theirs(self) -> str:
        return self.peer

    def value(self, rng: Rng, scale: int) -> Json:
        return self.draw(rng)

    def mistake(self, rng: Rng, value: Json) -> Json:
        if self.bad is not None and rng.random() < 0.6:
            return self.bad(rng)
        return _WRONG_SCALAR


@dataclass
class Sequence(Type):
    """``list[T]``, ``set[T]``, ``frozenset[T]`` (JSON arrays), with optional lengths."""

    item: Type
    kind: str = "list"
    low: int = 0
    high: int | None = None
    count: int | None = None
    """Exactly this many items in the valid value (the named tools), else drawn."""

    def _constraints(self) -> list[str]:
        found = []
        if self.low and self.high is not None and self.low == self.high:
            return [f"Len({self.low}, {self.high})"]
        if self.low:
            found.append(f"MinLen({self.low})")
        if self.high is not None:
            found.append(f"MaxLen({self.high})")
        return found

    def ours(self) -> str:
        return _annotated(f"{self.kind}[{self.item.ours()}]", self._constraints())

    def theirs(self) -> str:
        # Strict pydantic takes no list for a set from Python data; JSON mode does.
        lax = [] if self.kind == "list" else ["Strict(False)"]
        return _annotated(f"{self.kind}[{self.item.theirs()}]", [*lax, *self._constraints()])

    def value(self, rng: Rng, scale: int) -> Json:
        high = self.high if self.high is not None else max(self.low, scale)
        count = self.count
        if count is None:
            count = rng.randint(self.low, max(self.low, min(high, scale)))
        items = [self.item.value(rng, max(1, scale // 4)) for _ in range(count)]
        if self.kind != "list":
            unique: list[Json] = []
            for item in items:
                if item not in unique:
                    unique.append(item)
            while len(unique) < self.low:  # a set of fewer distinct items than the bound
                extra = self.item.value(rng, 1)
                if extra not in unique:
                    unique.append(extra)
            items = unique
        return items

    def mistake(self, rng: Rng, value: Json) -> Json:
        if isinstance(value, list) and value and rng.random() < 0.8:
            index = rng.randrange(len(value))
            changed = self.item.mistake(rng, value[index])
            if self.kind == "list" or changed not in value:
                return [*value[:index], changed, *value[index + 1 :]]
        if self.high is not None and rng.random() < 0.5:
            return (
                [self.item.value(rng, 1) for _ in range(self.high + 1)]
                if self.kind == "list"
                else _WRONG_CONTAINER
            )
        return _WRONG_CONTAINER


@dataclass
class Mapping(Type):
    """``dict[str, T]``."""

    item: Type

    def ours(self) -> str:
        return f"dict[str, {self.item.ours()}]"

    def theirs(self) -> str:
        return f"dict[str, {self.item.theirs()}]"

    def value(self, rng: Rng, scale: int) -> Json:
        count = rng.randint(1, max(1, scale))
        return {f"key_{index}": self.item.value(rng, max(1, scale // 4)) for index in range(count)}

    def mistake(self, rng: Rng, value: Json) -> Json:
        if isinstance(value, dict) and value and rng.random() < 0.8:
            key = rng.choice(sorted(value))
            return {**value, key: self.item.mistake(rng, value[key])}
        return _WRONG_CONTAINER


@dataclass
class Tuple(Type):
    """``tuple[A, B, ...]``: a JSON array of fixed length."""

    items: list[Type]

    def ours(self) -> str:
        return f"tuple[{', '.join(item.ours() for item in self.items)}]"

    def theirs(self) -> str:
        inner = ", ".join(item.theirs() for item in self.items)
        return f"Annotated[tuple[{inner}], Strict(False)]"

    def value(self, rng: Rng, scale: int) -> Json:
        return [item.value(rng, 1) for item in self.items]

    def mistake(self, rng: Rng, value: Json) -> Json:
        if not isinstance(value, list) or len(value) != len(self.items):
            return _WRONG_CONTAINER
        if rng.random() < 0.8:
            index = rng.randrange(len(value))
            return [
                *value[:index],
                self.items[index].mistake(rng, value[index]),
                *value[index + 1 :],
            ]
        return value[:-1] if len(value) > 1 else _WRONG_CONTAINER


@dataclass
class Optional(Type):
    """``T | None``."""

    inner: Type

    def ours(self) -> str:
        return f"{self.inner.ours()} | None"

    def theirs(self) -> str:
        return f"{self.inner.theirs()} | None"

    def value(self, rng: Rng, scale: int) -> Json:
        return None if rng.random() < 0.25 else self.inner.value(rng, scale)

    def mistake(self, rng: Rng, value: Json) -> Json:
        if value is None:
            value = self.inner.value(rng, 1)
        return self.inner.mistake(rng, value)


@dataclass
class Union(Type):
    """A plain union of scalars of different JSON types (``int | str``)."""

    options: list[Type]

    def ours(self) -> str:
        return " | ".join(option.ours() for option in self.options)

    def theirs(self) -> str:
        return " | ".join(option.theirs() for option in self.options)

    def value(self, rng: Rng, scale: int) -> Json:
        return rng.choice(self.options).value(rng, scale)

    def mistake(self, rng: Rng, value: Json) -> Json:
        return _WRONG_SCALAR


@dataclass
class Field:
    name: str
    type: Type
    optional: bool = False
    """Has a default (``None``): may be left out."""


@dataclass
class Record(Type):
    """A dataclass, a TypedDict or a pydantic model (always a strict model for the peer)."""

    name: str
    kind: str
    fields: list[Field]
    tag: str | None = None
    """The ``kind`` literal of a discriminated union's member."""
    recursive: bool = False

    def ours(self) -> str:
        return self.name

    def theirs(self) -> str:
        return f"P{self.name}"

    def source(self) -> tuple[str, str]:
        """The class in the tool's module, and the peer's model."""
        mine, peer = [], [f"class P{self.name}(BaseModel):", "    model_config = STRICT"]
        if self.kind == "dataclass":
            mine += ["@dataclass", f"class {self.name}:"]
        elif self.kind == "typeddict":
            mine += [f"class {self.name}(TypedDict):"]
        else:
            mine += [f"class {self.name}(BaseModel):", "    model_config = FORBID"]
        mine.append(f'    """A {self.name.split("_")[0].lower()}."""')
        if self.tag is not None:
            mine.append(f"    kind: Literal[{self.tag!r}]")
            peer.append(f"    kind: Literal[{self.tag!r}]")
        for item in self.fields:
            if item.optional and self.kind == "typeddict":
                mine.append(f"    {item.name}: NotRequired[{item.type.ours()}]")
            elif item.optional:
                mine.append(f"    {item.name}: {item.type.ours()} = None")
            else:
                mine.append(f"    {item.name}: {item.type.ours()}")
            default = " = None" if item.optional else ""
            peer.append(f"    {item.name}: {item.type.theirs()}{default}")
        return "\n".join(mine), "\n".join(peer)

    def value(self, rng: Rng, scale: int) -> Json:
        found: dict[str, Json] = {} if self.tag is None else {"kind": self.tag}
        for item in self.fields:
            if item.optional and rng.random() < 0.3:
                continue
            if self.recursive and item.name == "children":
                found[item.name] = self._children(rng, scale)
            else:
                found[item.name] = item.type.value(rng, scale)
        return found

    def _children(self, rng: Rng, scale: int) -> Json:
        if scale <= 1:
            return []
        count = rng.randint(1, min(4, scale))
        return [self.value(rng, scale // (count + 1)) for _ in range(count)]

    def mistake(self, rng: Rng, value: Json) -> Json:
        if not isinstance(value, dict):
            return _WRONG_CONTAINER
        choice = rng.random()
        present = [item for item in self.fields if item.name in value]
        required = [item for item in self.fields if not item.optional]
        if choice < 0.15:
            return {**value, "unexpected": 1}
        if choice < 0.3 and required:
            gone = rng.choice(required).name
            return {key: item for key, item in value.items() if key != gone}
        if present:
            item = rng.choice(present)
            if self.recursive and item.name == "children":
                children = value["children"]
                if isinstance(children, list) and children:
                    index = rng.randrange(len(children))
                    changed = self.mistake(rng, children[index])
                    return {
                        **value,
                        "children": [*children[:index], changed, *children[index + 1 :]],
                    }
                return {**value, "children": _WRONG_CONTAINER}
            return {**value, item.name: item.type.mistake(rng, value[item.name])}
        return {**value, "unexpected": 1}


@dataclass
class Tagged(Type):
    """A discriminated union of records, each with its own ``kind`` literal."""

    members: list[Record]

    def ours(self) -> str:
        return " | ".join(member.ours() for member in self.members)

    def theirs(self) -> str:
        inner = " | ".join(member.theirs() for member in self.members)
        return f'Annotated[{inner}, Field(discriminator="kind")]'

    def value(self, rng: Rng, scale: int) -> Json:
        return rng.choice(self.members).value(rng, scale)

    def mistake(self, rng: Rng, value: Json) -> Json:
        tag = value.get("kind") if isinstance(value, dict) else None
        member = next((member for member in self.members if member.tag == tag), None)
        if member is None:
            return _WRONG_CONTAINER
        if rng.random() < 0.2:
            return {**value, "kind": "no-such-kind"}
        return member.mistake(rng, value)


def _annotated(base: str, constraints: list[str]) -> str:
    return f"Annotated[{base}, {', '.join(constraints)}]" if constraints else base


# --- the leaves ------------------------------------------------------------------------

_WORDS = [
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
    "mike",
    "november",
    "oscar",
    "papa",
    "quebec",
    "romeo",
    "sierra",
    "tango",
    "uniform",
    "victor",
    "whiskey",
    "yankee",
    "zulu",
]


def _words(rng: Rng, low: int = 1, high: int = 4) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(low, high)))


def _lax(annotation: str) -> str:
    """A type JSON writes as text, for strict pydantic reading Python data."""
    return f"Annotated[{annotation}, Strict(False)]"


# llmapp's ``bytes`` is base64 text (``contentEncoding``); pydantic's own base64 type
# decodes it too, so both sides do the same work and hand the call the same bytes.
_BASE64 = "Annotated[bytes, Strict(False), EncodedBytes(encoder=Base64Encoder)]"


def _integer(rng: Rng) -> Scalar:
    low = rng.choice([0, 1, -100, 10])
    high = low + rng.choice([10, 100, 1000, 100_000])
    step = rng.choice([1, 1, 1, 5, 10])
    form = rng.choice(["ge-le", "gt-lt", "interval", "ge", "le", "none"])
    parts = {
        "ge-le": [f"Ge({low})", f"Le({high})"],
        "gt-lt": [f"Gt({low - 1})", f"Lt({high + 1})"],
        "interval": [f"Interval(ge={low}, le={high})"],
        "ge": [f"Ge({low})"],
        "le": [f"Le({high})"],
        "none": [],
    }[form]
    if step > 1:
        parts.append(f"MultipleOf({step})")
    lo, hi = (
        (low, high)
        if form in ("ge-le", "gt-lt", "interval")
        else (
            (low, low + 1000)
            if form == "ge"
            else (high - 1000, high)
            if form == "le"
            else (-(10**6), 10**6)
        )
    )

    def draw(r: Rng) -> int:
        return r.randint(-(-lo // step), hi // step) * step

    def bad(r: Rng) -> Json:
        if form in ("ge-le", "gt-lt", "interval", "ge"):
            return low - r.randint(1, 50) * step
        if form == "le":
            return high + r.randint(1, 50) * step
        return 1.5 if step == 1 else step + 1

    annotation = _annotated("int", parts)
    return Scalar(annotation, annotation, draw, bad)


def _float(rng: Rng) -> Scalar:
    low = rng.choice([0.0, -1.0, 0.5, 100.0])
    high = low + rng.choice([1.0, 100.0, 1e6])
    parts = rng.choice(
        [
            [f"Ge({low})", f"Le({high})"],
            [f"Gt({low})", f"Lt({high})"],
            [f"Interval(gt={low}, le={high})"],
            [],
        ]
    )
    annotation = _annotated("float", parts)

    def draw(r: Rng) -> float:
        return round(r.uniform(low, high) if parts else r.uniform(-1e4, 1e4), 3) or 0.5

    def bad(r: Rng) -> Json:
        return (low - 1.25) if parts else _WRONG_SCALAR

    return Scalar(
        annotation,
        annotation,
        lambda r: max(min(draw(r), high - 0.001), low + 0.001) if parts else draw(r),
        bad,
    )


def _decimal(rng: Rng) -> Scalar:
    step = rng.choice(['Decimal("0.01")', 'Decimal("0.5")', 'Decimal("1")', None])
    places = {'Decimal("0.01")': 2, 'Decimal("0.5")': 1, 'Decimal("1")': 0, None: 4}[step]
    parts = ['Ge(Decimal("0"))', 'Le(Decimal("100000"))']
    if step is not None:
        parts.append(f"MultipleOf({step})")
    unit = 0.5 if step == 'Decimal("0.5")' else 10.0**-places

    def draw(r: Rng) -> Json:
        amount = r.randint(0, int(99_999 / unit)) * unit
        text = f"{amount:.{places}f}"
        return text if r.random() < 0.8 else float(text)

    def bad(r: Rng) -> Json:
        if step is not None and r.random() < 0.5:
            return f"{r.randint(1, 999)}.{'0' * places}3"  # not a multiple
        return f"-{r.randint(1, 99)}.00"

    return Scalar(
        _annotated("Decimal", parts), _annotated("Decimal", ["Strict(False)", *parts]), draw, bad
    )


def _string(rng: Rng) -> Scalar:
    low, high = rng.choice([(1, 100), (0, 50), (3, 3), (1, 500), (0, 0)])
    if (low, high) == (0, 0):
        return Scalar("str", "str", lambda r: _words(r))
    parts = [f"Len({low}, {high})"] if low == high else [f"MinLen({low})", f"MaxLen({high})"]
    annotation = _annotated("str", parts)

    def draw(r: Rng) -> str:
        text = _words(r)
        if len(text) < low:
            text = (text + "x" * low)[:low]
        return text[:high]

    return Scalar(annotation, annotation, draw, lambda r: "y" * (high + 1))


# (pattern, a matching text, a text that does not match): simple and complex ones
_PATTERNS: list[tuple[str, Callable[[Rng], str], str]] = [
    (r"^[A-Z]{3}-\d{4}$", lambda r: f"ABC-{r.randint(1000, 9999)}", "AB-12"),
    (r"^SKU-\d{5}$", lambda r: f"SKU-{r.randint(10000, 99999)}", "SKU-1"),
    (
        r"^[a-z0-9]+(?:-[a-z0-9]+)*$",
        lambda r: f"{r.choice(_WORDS)}-{r.randint(1, 99)}",
        "Not A Slug",
    ),
    (r"^#[0-9a-fA-F]{6}$", lambda r: f"#{r.randrange(16**6):06x}", "#zzz"),
    (r"^\+?[1-9]\d{1,14}$", lambda r: f"+{r.randint(10**9, 10**11)}", "phone"),
    (
        r"^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$",
        lambda r: f"{r.randint(0, 9)}.{r.randint(0, 30)}.{r.randint(0, 9)}",
        "v1",
    ),
    (
        r"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$",
        lambda r: f"{r.choice(_WORDS)}.{r.randint(1, 999)}@example.com",
        "not-an-email",
    ),
    (
        r"^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$",
        lambda r: f"DE{r.randint(10, 99)}{r.randint(10**17, 10**18)}",
        "DE1",
    ),
    (
        r"^(?:[01]\d|2[0-3]):[0-5]\d$",
        lambda r: f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}",
        "25:00",
    ),
    (r"\bref\d+\b", lambda r: f"see ref{r.randint(1, 999)} here", "no reference"),
]


def _pattern(rng: Rng) -> Scalar:
    regex, draw, bad = rng.choice(_PATTERNS)
    return Scalar(
        f"Annotated[str, Pattern({regex!r})]",
        f"Annotated[str, StringConstraints(pattern={regex!r})]",
        draw,
        lambda r: bad,
    )


def _moment(rng: Rng, offset: bool) -> Callable[[Rng], str]:
    def draw(r: Rng) -> str:
        text = (
            f"{r.randint(1990, 2035):04d}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}T"
            f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}"
        )
        if r.random() < 0.3:
            text += f".{r.randint(0, 999999):06d}"
        if offset:
            text += r.choice(["Z", "+02:00", "-05:30", "+00:00"])
        return text

    return draw


def _date(r: Rng) -> str:
    return f"{r.randint(1990, 2035):04d}-{r.randint(1, 12):02d}-{r.randint(1, 28):02d}"


def _duration(r: Rng) -> str:
    return r.choice(
        [
            f"PT{r.randint(1, 59)}M",
            f"P{r.randint(1, 30)}D",
            f"PT{r.randint(1, 23)}H{r.randint(1, 59)}M",
            f"P{r.randint(1, 9)}DT{r.randint(1, 23)}H",
        ]
    )


def _leaf(rng: Rng, ctx: _Context) -> Type:
    """One scalar, drawn across the scalar table and the constraints."""
    choice = rng.randrange(22)
    if choice < 3:
        return _integer(rng)
    if choice < 5:
        return _string(rng)
    if choice == 5:
        return _float(rng)
    if choice == 6:
        return Scalar("bool", "bool", lambda r: r.random() < 0.5)
    if choice == 7:
        return _decimal(rng)
    if choice == 8:
        return _pattern(rng)
    if choice == 9:
        aware = rng.random() < 0.6
        return Scalar(
            "datetime", _lax("datetime"), _moment(rng, aware), lambda r: "2024-13-01T10:00:00Z"
        )
    if choice == 10:
        return Scalar("date", _lax("date"), _date, lambda r: "2024-02-30")
    if choice == 11:
        return Scalar("timedelta", _lax("timedelta"), _duration, lambda r: "three days")
    if choice == 12:
        return Scalar(
            "UUID",
            _lax("UUID"),
            lambda r: str(uuid.UUID(int=r.getrandbits(128), version=4)),
            lambda r: "not-a-uuid",
        )
    if choice == 13:
        return Scalar(
            "Email",
            "EmailStr",
            lambda r: f"{r.choice(_WORDS)}{r.randint(1, 99)}@example.org",
            lambda r: "nobody",
        )
    if choice == 14:
        return Scalar(
            "URL",
            _lax("AnyUrl"),
            lambda r: f"https://example.com/{r.choice(_WORDS)}/{r.randint(1, 999)}",
            None,
        )
    if choice == 15:
        return Scalar(
            "IPv4Address",
            _lax("IPv4Address"),
            lambda r: ".".join(str(r.randint(1, 254)) for _ in range(4)),
            lambda r: "300.1.2.3",
        )
    if choice == 16:
        return Scalar(
            "IPv6Address",
            _lax("IPv6Address"),
            lambda r: f"2001:db8::{r.randint(1, 0xFFFF):x}",
            lambda r: "2001:db8:::1",
        )
    if choice == 17:
        return Scalar(
            "bytes",
            _BASE64,
            lambda r: base64.b64encode(r.randbytes(r.randint(1, 24))).decode(),
            None,
        )
    if choice == 18:
        return Scalar(
            "time",
            _lax("time"),
            lambda r: f"{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:00",
            lambda r: "25:61:00",
        )
    if choice == 19:
        name = ctx.enum(rng)
        members = ctx.enums[name]
        return Scalar(name, _lax(name), lambda r: r.choice(members), lambda r: "no-such-member")
    values = rng.sample(_WORDS, rng.randint(2, 5))
    literal = f"Literal[{', '.join(repr(v) for v in values)}]"
    return Scalar(literal, literal, lambda r: r.choice(values), lambda r: "no-such-literal")


@dataclass
class _Context:
    """Names and classes drawn so far for one signature's module."""

    prefix: str
    records: list[Record] = field(default_factory=list)
    enums: dict[str, list[str]] = field(default_factory=dict)

    def name(self, stem: str) -> str:
        return f"{stem}_{self.prefix}_{len(self.records) + len(self.enums)}"

    def enum(self, rng: Rng) -> str:
        name = self.name("Status")
        self.enums[name] = rng.sample(
            ["draft", "open", "paid", "shipped", "closed", "void"], rng.randint(2, 5)
        )
        return name


def _type(rng: Rng, ctx: _Context, depth: int) -> Type:
    """Any annotation, nesting less as ``depth`` grows."""
    choice = rng.random() if depth < 3 else 0.0
    if choice < 0.5:
        return _leaf(rng, ctx)
    if choice < 0.62:
        high = rng.choice([None, None, 10, 50])
        low = rng.choice([0, 0, 1])
        return Sequence(_type(rng, ctx, depth + 1), "list", low, high)
    if choice < 0.66:
        kind = rng.choice(["set", "frozenset"])
        item = rng.choice([Scalar("str", "str", lambda r: _words(r, 1, 2)), _integer(rng)])
        return Sequence(item, kind, rng.choice([0, 1]), None)
    if choice < 0.71:
        return Mapping(_type(rng, ctx, depth + 1))
    if choice < 0.75:
        return Tuple([_leaf(rng, ctx) for _ in range(rng.randint(2, 3))])
    if choice < 0.82:
        return Optional(_type(rng, ctx, depth + 1))
    if choice < 0.86:
        return Union(_plain_union(rng))
    if choice < 0.93:
        return _record(rng, ctx, depth + 1)
    if choice < 0.97:
        return _tagged(rng, ctx, depth + 1)
    return _tree(rng, ctx)


def _plain_union(rng: Rng) -> list[Type]:
    integer = Scalar("int", "int", lambda r: r.randint(-99, 99))
    text = Scalar("str", "str", lambda r: _words(r))
    flag = Scalar("bool", "bool", lambda r: r.random() < 0.5)
    moment = Scalar("datetime", _lax("datetime"), _moment(rng, True))
    day = Scalar("date", _lax("date"), _date)
    return rng.choice(
        [[integer, text], [text, flag], [integer, flag], [moment, day], [text, integer, flag]]
    )


def _fields(rng: Rng, ctx: _Context, depth: int, count: int) -> list[Field]:
    names = rng.sample(
        [
            "id",
            "name",
            "title",
            "amount",
            "price",
            "when",
            "due",
            "email",
            "tags",
            "items",
            "note",
            "status",
            "owner",
            "address",
            "code",
            "size",
            "weight",
            "window",
            "link",
            "host",
            "token",
            "score",
            "count",
            "limit",
            "start",
            "end",
            "region",
            "labels",
            "meta",
            "payload",
        ],
        count,
    )
    found = []
    for name in names:
        kind, optional = _type(rng, ctx, depth), rng.random() < 0.2
        if optional and not isinstance(kind, Optional):
            kind = Optional(kind)  # a default of None is a value of the type
        found.append(Field(name, kind, optional))
    return sorted(found, key=lambda item: item.optional)  # dataclasses: defaults last


def _record(rng: Rng, ctx: _Context, depth: int, tag: str | None = None) -> Record:
    stem = rng.choice(
        ["Customer", "Address", "Line", "Attendee", "Window", "Filter", "Money", "Contact"]
    )
    record = Record(ctx.name(stem), rng.choice(["dataclass", "typeddict", "model"]), [], tag)
    ctx.records.append(record)
    record.fields = _fields(rng, ctx, depth, rng.randint(1, 5))
    return record


def _tagged(rng: Rng, ctx: _Context, depth: int) -> Tagged:
    tags = rng.sample(["card", "bank", "cash", "voucher", "crypto"], rng.randint(2, 3))
    return Tagged([_record(rng, ctx, depth, tag) for tag in tags])


def _tree(rng: Rng, ctx: _Context) -> Record:
    """A recursive record: a node with children of its own type."""
    name = ctx.name("Node")
    node = Record(name, rng.choice(["dataclass", "typeddict", "model"]), [], recursive=True)
    ctx.records.append(node)
    node.fields = [Field("label", _string(rng)), Field("weight", _integer(rng))]
    node.fields.append(Field("children", Sequence(_Self(name))))
    return node


@dataclass
class _Self(Type):
    """The recursive record's own name, in its children's annotation."""

    name: str

    def ours(self) -> str:
        return self.name

    def theirs(self) -> str:
        return f"P{self.name}"


# --- the corpus ------------------------------------------------------------------------

_HEADER = """\
from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from enum import Enum
from ipaddress import IPv4Address, IPv6Address
from typing import Annotated, Literal
from uuid import UUID

from annotated_types import Ge, Gt, Interval, Le, Len, Lt, MaxLen, MinLen, MultipleOf
from pydantic import (
    AnyUrl, Base64Encoder, BaseModel, ConfigDict, EmailStr, EncodedBytes, Field, Strict,
    StringConstraints,
)
from typing_extensions import NotRequired, TypedDict

from llmapp.markers import URL, Email, Pattern

FORBID = ConfigDict(extra="forbid")
STRICT = ConfigDict(strict=True, extra="forbid")
"""


@dataclass
class Case:
    """One signature: its tool, its peer and its three argument texts."""

    name: str
    signature: str
    """The tool's ``def`` line, as the report prints the worst one."""
    texts: dict[str, str]
    """``valid``, ``1 mistake``, ``3 mistakes`` -> the model's argument text."""
    values: int
    """How many values the valid arguments hold (scalars and containers)."""
    peer: Any = None
    """The pydantic model of the arguments (strict, extra keys forbidden)."""
    call: Callable[..., Any] | None = None
    """The plain function the peer calls with the validated arguments."""


@dataclass
class Corpus:
    """Every case, the class that holds the tools (``application(tools)``) and the sources."""

    cases: list[Case]
    tools: type
    source: str
    named: list[Case] = field(default_factory=list)
    """The named tools (``NAMED``): reported row by row, outside the corpus's means."""


def _count(value: Json) -> int:
    if isinstance(value, dict):
        return 1 + sum(_count(item) for item in value.values())
    if isinstance(value, list):
        return 1 + sum(_count(item) for item in value)
    return 1


def _signature(rng: Rng, index: int) -> tuple[_Context, Record, int]:
    ctx = _Context(str(index))
    count = rng.choice([1, 1, 2, 3, 3, 4, 5, 6, 8])
    arguments = Record(f"tool_{index:03d}", "arguments", [])
    arguments.fields = _fields(rng, ctx, 0, count)
    scale = rng.choice([1, 2, 4, 8, 16, 40, 120])
    return ctx, arguments, scale


def _mistakes(rng: Rng, arguments: Record, valid: Json, count: int) -> Json:
    value = valid
    for _ in range(count):
        value = arguments.mistake(rng, value)
    return value


def generate(count: int = COUNT, seed: int = SEED) -> Corpus:
    """``count`` signatures from ``seed``, then the named tools (``NAMED``): the same seed,
    the same corpus."""
    rng = random.Random(seed)
    source = _Source()
    for index in range(count):
        source.add(rng, *_signature(rng, index), f"Tool {index}.")
    for name in NAMED:
        source.add(rng, *_named(rng, name), f"The {name} tool.")
    module = _load(source.text(), f"benchmarks._corpus_{seed}_{count}")
    cases = [
        Case(name, signature, texts, values, getattr(module, f"Args_{name}"), getattr(module, name))
        for name, signature, texts, values in source.drawn
    ]
    return Corpus(cases[:count], module.Tools, source.text(), cases[count:])


class _Source:
    """The module's text, one signature at a time: its tool, its peer, its texts."""

    def __init__(self) -> None:
        self.mine, self.peers, self.plain = [_HEADER], list[str](), list[str]()
        self.methods = ["class Tools:", '    """The corpus tools."""']
        self.drawn: list[tuple[str, str, dict[str, str], int]] = []

    def add(self, rng: Rng, ctx: _Context, arguments: Record, scale: int, doc: str) -> None:
        for name, members in ctx.enums.items():
            lines = "\n".join(f"    {m.upper()} = {m!r}" for m in members)
            self.mine.append(f"class {name}(Enum):\n{lines}")
        for record in ctx.records:
            ours, theirs = record.source()
            self.mine.append(ours)
            self.peers.append(theirs)
        params = [
            f"{item.name}: {item.type.ours()}" + (" = None" if item.optional else "")
            for item in arguments.fields
        ]
        name = arguments.name
        signature = f"def {name}(self, {', '.join(params)}) -> int:"
        self.methods += [f"    {signature}", f'        """{doc}"""', "        return 1", ""]
        self.plain.append(f"def {name}(**arguments: object) -> int:\n    return 1")
        peer = [f"class Args_{name}(BaseModel):", "    model_config = STRICT"]
        peer += [
            f"    {item.name}: {item.type.theirs()}" + (" = None" if item.optional else "")
            for item in arguments.fields
        ]
        self.peers.append("\n".join(peer))
        valid = arguments.value(rng, scale)
        while _count(valid) > _MOST_VALUES + 1 and scale > 1:  # a named tool may hold more
            scale = max(1, scale // 2)
            valid = arguments.value(rng, scale)
        texts = {
            "valid": json.dumps(valid),
            "1 mistake": json.dumps(_mistakes(rng, arguments, valid, 1)),
            "3 mistakes": json.dumps(_mistakes(rng, arguments, valid, 3)),
        }
        self.drawn.append((name, signature.replace("self, ", ""), texts, _count(valid) - 1))

    def text(self) -> str:
        parts = [*self.mine, *self.peers, *self.plain, "\n".join(self.methods)]
        return "\n\n\n".join(parts) + "\n"


# --- the named tools: the shapes issue 33 measured by hand ------------------------------

NAMED = ("order", "calendar", "search")


def _named(rng: Rng, name: str) -> tuple[_Context, Record, int]:
    """An order of 50 lines (``Decimal`` prices in cents, UUIDs, ``dict[str, str]``), a
    calendar event (attendees with e-mails, 20 date-times with offsets, a duration,
    enums, optionals) and a flat search of 8 scalars."""
    ctx = _Context(name)
    text = Scalar("str", "str", lambda r: _words(r))
    ident = Scalar("UUID", _lax("UUID"), lambda r: str(uuid.UUID(int=r.getrandbits(128))))
    email = Scalar("Email", "EmailStr", lambda r: f"{r.choice(_WORDS)}@example.org", lambda r: "x")
    moment = Scalar("datetime", _lax("datetime"), _moment(rng, True), lambda r: "2024-13-01")
    if name == "order":
        money = 'Annotated[Decimal, Ge(Decimal("0")), MultipleOf(Decimal("0.01"))]'
        price = Scalar(
            money,
            money.replace("Decimal, ", "Decimal, Strict(False), ", 1),
            lambda r: f"{r.randint(1, 99999) / 100:.2f}",
            lambda r: "1.005",
        )
        quantity = Scalar(
            "Annotated[int, Ge(1)]", "Annotated[int, Ge(1)]", lambda r: r.randint(1, 9)
        )
        line = Record("Line_order", "dataclass", [], None)
        line.fields = [
            Field("sku", ident),
            Field("quantity", quantity),
            Field("price", price),
            Field("attributes", Mapping(text)),
        ]
        customer = Record(
            "Customer_order", "typeddict", [Field("id", ident), Field("email", email)]
        )
        ctx.records += [line, customer]
        fields = [
            Field("id", ident),
            Field("customer", customer),
            Field("lines", Sequence(line, count=50)),
            Field("note", Optional(text), optional=True),
        ]
        return ctx, Record("order", "arguments", fields), 2
    if name == "calendar":
        role = ctx.enum(rng)
        members = ctx.enums[role]
        attendee = Record("Attendee_calendar", "model", [], None)
        attendee.fields = [
            Field("email", email),
            Field("name", text),
            Field("role", Scalar(role, _lax(role), lambda r: r.choice(members), lambda r: "?")),
            Field("optional", Optional(Scalar("bool", "bool", lambda r: r.random() < 0.5))),
        ]
        ctx.records.append(attendee)
        duration = Scalar("timedelta", _lax("timedelta"), _duration, lambda r: "soon")
        fields = [
            Field("title", text),
            Field("start", moment),
            Field("end", moment),
            Field("duration", duration),
            Field("attendees", Sequence(attendee, count=8)),
            Field("reminders", Sequence(moment, count=18)),
            Field("location", Optional(text), optional=True),
        ]
        return ctx, Record("calendar", "arguments", fields), 2
    fields = [
        Field("query", text),
        Field(
            "limit",
            Scalar(
                "Annotated[int, Ge(1), Le(100)]",
                "Annotated[int, Ge(1), Le(100)]",
                lambda r: r.randint(1, 100),
                lambda r: 500,
            ),
        ),
        Field("exact", Scalar("bool", "bool", lambda r: r.random() < 0.5)),
        Field("page", Scalar("int", "int", lambda r: r.randint(0, 9))),
        Field("since", Scalar("date", _lax("date"), _date, lambda r: "2024-02-30")),
        Field(
            "sort",
            Scalar(
                "Literal['price', 'rating']",
                "Literal['price', 'rating']",
                lambda r: r.choice(["price", "rating"]),
                lambda r: "name",
            ),
        ),
        Field("min_price", Scalar("float", "float", lambda r: round(r.uniform(0, 99), 2))),
        Field("region", Optional(text), optional=True),
    ]
    return ctx, Record("search", "arguments", fields), 1


def _load(source: str, name: str) -> types.ModuleType:
    """The generated source as a module (pydantic and llmapp resolve its names there)."""
    module = types.ModuleType(name)
    module.__file__ = f"<{name}>"
    sys.modules[name] = module
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    for value in list(module.__dict__.values()):
        rebuild = getattr(value, "model_rebuild", None)
        if isinstance(value, type) and rebuild is not None and value.__module__ == name:
            rebuild()
    return module
