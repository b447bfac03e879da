"""Helpers the generated validators call: JSON type tests, equality, paths, number rules.

Everything here is total: for any Python value it returns an answer (the generated
code's own safety net catches what a hostile ``__eq__`` or ``__iter__`` might raise).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterator, Mapping
from functools import cache, lru_cache
from itertools import islice
from sys import exc_info
from typing import TYPE_CHECKING, Any, Final

from llmapp._limits import MAX_EQUALITY_DEPTH
from llmapp._scalars.table import (
    DECIMAL_DIGITS,
    DECIMAL_PATTERN,
    decimal_multiple,
    exact_context,
    is_decimal,
)

if TYPE_CHECKING:
    from decimal import Decimal
    from fractions import Fraction

__all__ = [
    "NAMED_REFUSALS",
    "WHOLE",
    "DepthExceeded",
    "FailedValues",
    "Memo",
    "Refusal",
    "WorkExceeded",
    "as_dict",
    "count_true",
    "decimal_text",
    "exactly_one",
    "in_enum",
    "is_array",
    "is_integer",
    "is_number",
    "is_object",
    "items_from",
    "json_equal",
    "missed",
    "missed_whole",
    "multiple_check",
    "multiple_of",
    "nonstr_keys",
    "numeric_text",
    "outside",
    "passes",
    "refusal_at",
    "refusal_in",
    "str_keys",
    "unique",
    "within",
]


class FailedValues:
    """The values that checkers of recursive definitions refused, by ``id``.

    A refusal propagates up a recursive checker's calls, so the set holds the whole
    path from the root down to the first mistake. The walkers read it: a value in it
    is walked straight away instead of being checked again first, and a bare ``$ref``
    in a union takes the refusal as its check's answer (``Generator.safe_check``).
    Without it, every level of an invalid chain ``{"next": {"next": ...}}`` would check
    the rest of the chain once more (quadratic in its length).

    One set per validator, emptied before each validation: during a walk every id in
    it is a value of the input being walked (input values are alive throughout, so no
    other object can carry their id), refused by that same checker. A value missing
    from it (another thread emptied the set, or it reached ``LIMIT``) is checked as
    before, which costs time, never correctness. It is emptied again after the walk.

    ``deep`` holds the values whose check hit the depth limit during a walk: a cyclic
    input meets them again at every turn and is then walked without a check (linear
    up to the limit instead of quadratic). Only walking reads it, never a union test:
    a value too deep from one place may be fine from a shallower one.
    """

    LIMIT = 4096

    __slots__ = ("deep", "ids")

    def __init__(self) -> None:
        self.ids: set[int] = set()
        self.deep: set[int] = set()

    def clear(self) -> None:
        self.ids.clear()
        self.deep.clear()

    def note(self, value: object) -> bool:
        """Record ``value`` as refused; returns False, what the checker returns."""
        ids = self.ids
        if len(ids) >= self.LIMIT:
            ids.clear()
        ids.add(id(value))
        return False


class WorkExceeded(Exception):
    """Stops a call that ran more checks than ``Memo.BUDGET``; the ``Validator`` reports
    the value as not checked."""


class Refusal(int):
    """What a checker of an object returns where it refuses the value: falsy (an ``int``
    equal to 0, so ``not``, ``and`` and ``if`` test it by ``int``'s own C test and a valid
    value pays nothing more), naming in ``at`` how many of the object's ``properties``, in
    their written order, the checker had found valid before it refused. The walker of
    that very object takes it (its ``m``) and judges those properties no more: they hold
    no issue. ``at`` is 0 where nothing is known (``WHOLE``): the walk judges them all.
    ``inside`` is ``at`` again where the checker refused while judging that property's own
    value (``refusal_in``): the value is wrong by the property's schema, so the walk asks
    no test of it again before its issues; -1 where the refusal came after the
    properties, or before them (not an object, a key missing, a length). A walker reads
    both in ``place`` (``2 * at``, plus 1 inside): one attribute read, as an ``int``
    subclass's attributes are read by the generic lookup, never a specialised one.
    ``inner`` is, where the refused property is a record reached by ``$ref``, that record's
    own checker's answer (``within``): its walker starts from there rather than check the
    record again; for a union of such records, a tuple of each branch's answer, read for
    the branch the walk picks; ``WHOLE`` (read from the class) on the kept, shared refusals,
    which keep in ``made`` the refusals ``within`` made from them.

    Hashed and compared by identity (``object``'s own C slots), not by ``int``'s value:
    ``within`` keys what it made by the answers themselves, where ``id``s cost an ``int``
    apiece. Against a plain ``int`` or ``bool`` a refusal still equals 0 (``int``'s own
    comparison answers there)."""

    at: int
    inside: int
    place: int
    inner: Refusal | tuple[Refusal, ...]
    made: dict[object, Refusal]

    __hash__ = object.__hash__
    __eq__ = object.__eq__
    __ne__ = object.__ne__

    def __repr__(self) -> str:
        return f"Refusal({self.at}{', inside' if self.inside >= 0 else ''})"


_REFUSALS: list[Refusal] = []
_INSIDE: list[Refusal] = []


def _kept(kept: list[Refusal], at: int, inside: bool) -> Refusal:
    """The one ``Refusal`` of ``kept`` whose ``at`` is ``at`` (made once, kept)."""
    while len(kept) <= at:
        made = int.__new__(Refusal, 0)
        made.at = len(kept)
        made.inside = made.at if inside else -1
        made.place = 2 * made.at + inside
        made.made = {}
        kept.append(made)
    return kept[at]


def refusal_at(at: int) -> Refusal:
    """The one ``Refusal`` whose ``at`` is ``at``, refused outside any property."""
    return _kept(_REFUSALS, at, inside=False)


def refusal_in(at: int) -> Refusal:
    """The one ``Refusal`` refused inside the property ``at``, those before it passed."""
    return _kept(_INSIDE, at, inside=True)


def outside(refused: Refusal) -> Refusal:
    """``refused`` without its ``inside``: for a walk whose tests may answer otherwise than
    the check did (a pattern search that gave up there may not in the walk)."""
    return refusal_at(refused.at)


NAMED_REFUSALS: Final = 24
"""The refusals generated code names among its helpers (``_R0``... and ``_I0``... for
``refusal_in``): a checker's ``return _R3`` then binds no constant of its own in each
validator's namespace."""

WHOLE: Final = refusal_at(0)
"""The refusal that knows nothing: a walker given it judges every property."""

Refusal.inner = WHOLE

MISSED: Final = int.__new__(Refusal, 0)
"""``WHOLE`` again (nothing known), as a root checker reading its required keys at once
(``_check._GETTER_KEYS``) answers a dict lacking one: the validator then asks
``refilled`` what the check passes (a checker reading fewer keys where each property is
checked answers ``missed`` instead)."""
MISSED.at, MISSED.inside, MISSED.place = 0, -1, 0


def within(refused: Refusal, inner: object) -> Refusal:
    """``refused`` (a property's ``refusal_in``, a kept one) holding in ``inner`` what the
    checker of the record in that property answered (a ``Refusal``; anything else knows
    nothing), or for a union of records a tuple of each branch's answer: asked on the
    failure path only, where a checker refuses a property by its ``$ref`` or its union's.
    Made once for each answer and kept (``Refusal.made``), since a new ``int`` subclass
    instance costs several times the lookup. Keyed by the answers themselves (a key holds
    them alive, and a refusal is hashed and compared by identity), a tuple's with their
    types beside them: a refusal and ``False`` in one place are equal ``int``s, never
    the same types; answers that are not refusals all know nothing, whichever they are."""
    if type(inner) is tuple:
        key: object = (inner, tuple(map(type, inner)))
    else:
        key = inner if type(inner) is Refusal else None
    made = refused.made.get(key)
    if made is None:
        made = int.__new__(Refusal, 0)
        made.at, made.inside, made.place = refused.at, refused.inside, refused.place
        made.inner = tuple(map(_known, inner)) if type(inner) is tuple else _known(inner)
        if len(refused.made) >= _MADE_LIMIT:
            refused.made.clear()  # the entries left hold their own keys' objects
        refused.made[key] = made
    return made


_MADE_LIMIT: Final = 512
"""How many refusals ``within`` keeps for one kept refusal before it starts again: each
answer of a nested checker is a kept refusal or one made here, so few ever differ."""


def _known(answer: object) -> Refusal:
    """A checker's answer as a ``Refusal``: ``WHOLE`` for any other (``False``)."""
    return answer if type(answer) is Refusal else WHOLE


def refilled(
    check: Callable[[Any, int], object], value: Any, names: Any, properties: Any = ()
) -> Refusal:
    """The refusal of the root ``check`` (``Analysis.ranks``) for ``value``, which it
    answered ``MISSED``: its answer for a copy holding ``None`` at each of the required
    ``names`` missing. The properties it passes before it refuses are then known valid,
    present ones by their own values (a missing one gets its issue from the walk whatever
    the check said of ``None``), and the walk skips them rather than judge each again; a
    check that raises or passes the copy knows nothing (``WHOLE``), as ``MISSED``. Not
    asked where no property ``value`` holds comes before the first required one it lacks
    (``properties``: the schema's, in their written order, the checker's ranks): the
    check would then stop before any the walk could skip."""
    try:
        if not _present_before_missing(value, names, properties):
            return WHOLE
        filled = dict(value)  # (a mapping the check read through ``as_dict``)
        for name in names if isinstance(names, list) else ():
            if isinstance(name, str) and name not in filled:
                filled[name] = None
        refused = check(filled, 0)
    except Exception:
        return WHOLE
    return refused if type(refused) is Refusal and refused is not MISSED else WHOLE


def _present_before_missing(value: Any, names: Any, properties: Any) -> bool:
    """Whether a property ``value`` holds comes, in the written order of ``properties``,
    before the first of the required ``names`` it lacks (any, where that one is not among
    the properties: the checker asks for those after them)."""
    if not isinstance(names, list):
        return False  # nothing is refilled
    for name in properties:
        if name in value:
            return True
        if name in names:  # (a schema's names: a few texts, read in place)
            return False
    return False


def missed(value: Mapping[Any, Any], *keys: object) -> Refusal:
    """The refusal of a checker whose ``except KeyError`` it is called from, given the
    dict ``value`` it read and its properties' keys in their written order up to the last
    required one (None for an optional one). The checker reads each required key where
    that property is checked, so where the error is its subscript's own (raised in the
    checker's frame, not in a function it called, naming a key ``value`` lacks), every
    property before that key's was found valid: ``refusal_in`` its rank (the walk reports
    a missing key before, and outside, its skip by rank). Any other ``KeyError`` (a
    hostile key's ``__eq__``, a helper's own) knows nothing: ``WHOLE``."""
    error = exc_info()[1]
    if type(error) is not KeyError:
        return WHOLE
    traceback = error.__traceback__
    try:
        (key,) = error.args
        if traceback is None or traceback.tb_next is not None or key in value:
            return WHOLE
        at = keys.index(key)
    except Exception:  # not one key, not among them, or a hostile key compared with it
        return WHOLE
    return _INSIDE[at] if at < len(_INSIDE) else refusal_in(at)


def missed_whole(value: Mapping[Any, Any], *keys: object) -> Refusal:
    """``missed`` where the walk must ask every test the check asked (a pattern budget, a
    memo: ``Validator``'s ``_outside_only``): ``WHOLE``, as ``MISSED`` is there."""
    return WHOLE


class DepthExceeded(Exception):
    """Unwinds a validation that went past the depth limit (or round a cycle).

    It is the one exception generated code raises, and only after the walker has
    recorded the depth issue: it stops the work (a cyclic input would otherwise be
    explored along every branch) without losing what was found. The ``Validator``
    catches it; it never reaches users.
    """


def is_integer(value: object) -> bool:
    """A JSON integer: an int that is not a bool, or a float with no fractional part."""
    if isinstance(value, int):
        return not isinstance(value, bool)
    return isinstance(value, float) and value.is_integer()


def is_number(value: object) -> bool:
    """A JSON number: an int that is not a bool, or a finite float (NaN and ±inf are not)."""
    if isinstance(value, int):
        return not isinstance(value, bool)
    return isinstance(value, float) and value - value == 0.0


def is_object(value: object) -> bool:
    return isinstance(value, dict)


def is_array(value: object) -> bool:
    return isinstance(value, (list, tuple))


def as_dict(value: object) -> dict[Any, Any] | None:
    """A dict subclass copied to a plain ``dict`` (its own ``get`` and ``__missing__``
    left behind), or None for anything that is not a dict."""
    return dict(value) if isinstance(value, dict) else None


def str_keys(value: Mapping[Any, Any]) -> bool:
    """True when every key of a dict is a string, as JSON object keys are."""
    return all(type(key) is str or isinstance(key, str) for key in value)


def nonstr_keys(value: Mapping[Any, Any]) -> list[Any]:
    return [key for key in value if not isinstance(key, str)]


def json_equal(left: object, right: object, depth: int = 0) -> bool:
    """JSON equality: 1 == 1.0, but true != 1; arrays and tuples compare alike."""
    if depth > MAX_EQUALITY_DEPTH:
        return left is right
    kind = _kind(left)
    if kind != _kind(right):
        return False
    if kind == "array":
        assert isinstance(left, (list, tuple)) and isinstance(right, (list, tuple))
        if len(left) != len(right):
            return False
        return all(json_equal(a, b, depth + 1) for a, b in zip(left, right, strict=True))
    if kind == "object":
        assert isinstance(left, dict) and isinstance(right, dict)
        if len(left) != len(right):
            return False
        for key, item in left.items():
            if key not in right or not json_equal(item, right[key], depth + 1):
                return False
        return True
    if kind == "other":
        return left is right
    return bool(left == right)


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if value is True or value is False:
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "other"


def in_enum(value: object, choices: tuple[Any, ...]) -> bool:
    return any(json_equal(value, choice) for choice in choices)


class _Unfreezable(Exception):
    pass


def _freeze(value: object, depth: int) -> object:
    """A hashable key equal for JSON-equal values, as ``json_equal`` reads them."""
    if depth > MAX_EQUALITY_DEPTH:
        # json_equal reads a value this deep as itself: so does its key, and items deeper
        # than that still cost one pass, not a comparison of every pair.
        return ("is", id(value))
    if value is None or isinstance(value, str):
        return value
    if value is True or value is False:
        return ("b", value)
    if isinstance(value, (int, float)):  # bare, as a plain item's key: no other key is one
        return value
    if isinstance(value, (list, tuple)):
        return ("a", tuple(_freeze(item, depth + 1) for item in value))
    if isinstance(value, dict):
        return ("o", frozenset((key, _freeze(item, depth + 1)) for key, item in value.items()))
    raise _Unfreezable


_PLAIN_ITEMS: Final = frozenset({str, int, float, type(None)})
"""Items whose Python equality is JSON equality: a set of them tells ``unique`` at once."""

_OTHER_KINDS: Final = {bool: "boolean", list: "array", tuple: "array", dict: "object"}
"""The kind of an item that is not plain, by its exact type: items of two kinds are never
JSON-equal, so an item alone of its kind needs no key (no freezing of a record)."""


def unique(items: list[Any] | tuple[Any, ...]) -> bool:
    """True when no two items are JSON-equal (uniqueItems)."""
    count = len(items)
    if count < 2:  # often a set of one wrong item (a record), which would be frozen
        return True
    if count < 4 and type(items) is list:
        # Two or three plain items: the pairs a set would compare (``is``, then ``==``:
        # a NaN is its own duplicate), without building one.
        if count == 2:
            first, second = items
            if type(first) in _PLAIN_ITEMS and type(second) in _PLAIN_ITEMS:
                return first is not second and first != second
        else:
            first, second, third = items
            if (
                type(first) in _PLAIN_ITEMS
                and type(second) in _PLAIN_ITEMS
                and type(third) in _PLAIN_ITEMS
            ):
                return (
                    first is not second
                    and first != second
                    and first is not third
                    and first != third
                    and second is not third
                    and second != third
                )
        # Not every item plain: no scan of their types to find it again.
    elif _PLAIN_ITEMS.issuperset(map(type, items)):  # no bool among them: ``True == 1``
        return len(set(items)) == len(items)
    if _alone_of_their_kinds(items):
        return True
    try:
        # A plain item is its own key: only the others (a record, a bool) pay a call.
        frozen = [item if type(item) in _PLAIN_ITEMS else _freeze(item, 0) for item in items]
        return len(set(frozen)) == len(frozen)
    except (_Unfreezable, TypeError):
        pass
    for index, item in enumerate(items):
        for other in items[index + 1 :]:
            if json_equal(item, other):
                return False
    return True


def _alone_of_their_kinds(items: list[Any] | tuple[Any, ...]) -> bool:
    """Whether the plain items are distinct and each other item (a record among strings)
    is the only one of its kind: then no two items are JSON-equal, whether the keys below
    could be built or the pairs compared. False sends every other case to them, a
    duplicate among the plain items too (a NaN is its own duplicate in a set, not by
    ``==``: the path below decides which answer stands)."""
    plain = []
    kinds = []
    for item in items:
        kind = type(item)
        if kind in _PLAIN_ITEMS:
            plain.append(item)
        elif (other := _OTHER_KINDS.get(kind)) is None or other in kinds:
            return False
        else:
            kinds.append(other)
    return len(set(plain)) == len(plain)


def unique_plain(items: list[Any] | tuple[Any, ...]) -> bool:
    """``unique(items)`` for items a checker has found to be strings or JSON numbers (no
    bool): a set of them tells at once (their equality is JSON equality, ``1 == 1.0``),
    without ``unique``'s look at every item's type; an item a set cannot hold (a
    subclass's hash) goes to ``unique``."""
    try:
        return len(set(items)) == len(items)
    except TypeError:
        return unique(items)


def multiple_of(value: int | float, divisor: int | float) -> bool:
    """Exact multipleOf, reading floats as the decimals they print as (0.0075 / 0.0001)."""
    if type(value) is int and type(divisor) is int:
        return value % divisor == 0
    # Decimal arithmetic with digits enough for the quotient and the remainder of any two
    # floats is exact, and many times cheaper than two ``Fraction``s read from text.
    if value - value == 0 and divisor - divisor == 0:  # finite: NaN and infinities raise below
        context = exact_context(_FLOAT_DIGITS)
        read = context.create_decimal
        try:
            return bool(context.remainder(read(_text(value)), read(_text(divisor))) == 0)
        except ArithmeticError:  # an int longer than any float: exact fractions decide
            pass
    quotient = _exact(value) / _exact(divisor)
    return quotient.denominator == 1


_FLOAT_DIGITS = 700
"""Digits of the quotient of the largest float by the smallest, and of their remainder."""


@lru_cache(maxsize=256, typed=True)
def multiple_check(divisor: int | float) -> Callable[[Any], bool]:
    """``multiple_of(value, divisor)`` for one schema's divisor: read once, not per value.

    A finite float takes one remainder in the exact context (what ``multiple_of`` does
    with it); a whole float needs none where 1 is a multiple of the divisor, since the
    decimal a whole float prints as is whole too. Anything else is ``multiple_of``'s.
    """
    context = exact_context(_FLOAT_DIGITS)
    read, remainder = context.create_decimal, context.remainder
    try:
        exact = read(_text(divisor))
        units = remainder(read(1), exact) == 0
    except ArithmeticError:  # an int longer than any float: ``multiple_of`` alone
        exact, units = None, False

    def check(value: Any) -> bool:
        if type(value) is float and value - value == 0 and exact is not None:
            if units and value.is_integer():
                return True
            try:
                return bool(remainder(read(repr(value)), exact) == 0)
            except ArithmeticError:  # too far apart for the context: exact fractions decide
                pass
        return multiple_of(value, divisor)

    check.__qualname__ = check.__name__ = f"multiple_check({divisor!r})"
    return check


def _text(number: int | float) -> int | str:
    return int(number) if isinstance(number, int) else repr(float(number))


def _exact(number: int | float) -> Fraction:
    from fractions import Fraction

    return Fraction(int(number)) if isinstance(number, int) else Fraction(repr(float(number)))


_COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    "minimum": operator.ge,
    "exclusiveMinimum": operator.gt,
    "maximum": operator.le,
    "exclusiveMaximum": operator.lt,
}
"""The bounds' tests as C functions: a ``lambda`` is a Python frame per keyword and value."""

_NUMERIC_TESTS: dict[str, Any] = {**_COMPARISONS, "multipleOf": decimal_multiple}


@cache
def _decimal_pattern() -> re.Pattern[str]:
    return re.compile(DECIMAL_PATTERN)


@cache
def _decimal_class() -> type[Decimal]:
    # Looked up once: an import statement in the per-value path cost more than the check.
    from decimal import Decimal  # only once a bounded decimal string is checked

    return Decimal


@lru_cache(maxsize=256)
def _decimal_bound(integer: bool, bound: int | float) -> Decimal:
    """A schema's bound as the decimal it prints as (keyed by its kind: ``1`` is not ``1.0``)."""
    return _decimal_class()(bound if integer else repr(float(bound)))


def numeric_text(text: str, keyword: str, bound: int | float) -> bool:
    """Whether the number a ``decimal`` string writes passes a numeric keyword, read
    exactly as ``Decimal`` (the bound as the decimal it prints as). Text that is not a
    decimal passes: the ``format`` keyword refuses it."""
    value = _short_decimal(text) if len(text) <= _SHORT_DECIMAL else _read_decimal(text)
    if value is None:
        return True
    if value is _UNREADABLE:
        return False
    try:
        exact = _decimal_bound(type(bound) is int, bound)
        return bool(_NUMERIC_TESTS[keyword](value, exact))
    except ArithmeticError:  # "1e999999" % 0.01: too far apart to tell, so not a multiple
        return False


@lru_cache(maxsize=256)
def decimal_text(bounds: tuple[tuple[str, bool, int | float], ...]) -> Callable[[str], bool]:
    """One check of a ``decimal`` string with every numeric keyword beside its format:
    what ``is_decimal`` and one ``numeric_text`` per keyword answer together, with the
    text read once and no Python function called per keyword (the comparisons are
    ``operator``'s, a ``multipleOf`` the exact context's ``remainder``).

    ``bounds`` holds ``(keyword, integer, bound)``: ``integer`` tells ``1`` from ``1.0``
    (a cache key, as in ``_decimal_bound``). The check's name in the generated source
    shows the keywords. The keywords' verdicts are joined by ``and``, an exception
    counting as a refusal, so their order does not matter.
    """
    comparisons = tuple(
        (_COMPARISONS[keyword], _decimal_bound(integer, bound))
        for keyword, integer, bound in bounds
        if keyword != "multipleOf"
    )
    divisors = tuple(
        _decimal_bound(integer, bound)
        for keyword, integer, bound in bounds
        if keyword == "multipleOf"
    )
    match, read = _decimal_pattern().match, _decimal_class()
    remainder = exact_context(DECIMAL_DIGITS).remainder

    def check(text: str) -> bool:
        try:
            if type(text) is str:
                # What the pattern matches: ``Decimal`` reads it, and besides it NaN,
                # Infinity, other digits than ASCII's, ``_`` between digits and
                # whitespace around the numeral. A numeral ends in a digit or a point,
                # and ASCII's whitespace is among the characters up to the space, which
                # ``Decimal`` reads nowhere else. (A ``str`` subclass is matched: its
                # methods may answer anything.)
                if not (
                    text
                    and text[-1] in _NUMERAL_ENDS
                    and text[0] > " "
                    and text.isascii()
                    and "_" not in text
                ):
                    return False
                value = read(text)
                if not value.is_finite():
                    return False
            elif match(text) is None:
                return False
            else:
                value = read(text)
            for test, bound in comparisons:
                if not test(value, bound):
                    return False
            for divisor in divisors:
                if remainder(value, divisor):  # a remainder of zero (or -0) is falsy
                    return False
        except ArithmeticError:  # unreadable, or too far from a bound's multiple to tell
            return False
        return True

    shown = ", ".join(f"{keyword}={bound!r}" for keyword, _, bound in bounds)
    check.__qualname__ = check.__name__ = f"decimal_text({shown})"
    return check


_NUMERAL_ENDS = "0123456789."
"""The characters a decimal numeral may end with."""


_UNREADABLE: Any = object()
"""A decimal numeral ``Decimal`` refuses to read: it passes no numeric keyword."""


def _read_decimal(text: str) -> Any:
    """The ``Decimal`` a decimal string writes; None for text that is not one."""
    if not is_decimal(text):
        return None
    try:
        return _decimal_class()(text)
    except ArithmeticError:
        return _UNREADABLE


_SHORT_DECIMAL = 40
"""Texts up to this length are read once for all the bounds beside them (a money field
has a minimum, a maximum and a multipleOf: three reads of the same text before)."""
_short_decimal = lru_cache(maxsize=64)(_read_decimal)


def exactly_one(*outcomes: object) -> bool:
    """oneOf: exactly one of the branch outcomes is truthy."""
    return sum(1 for outcome in outcomes if outcome) == 1


def passes(check: Any, value: object, depth: int) -> bool:
    """Run a generated check inside a walker: hitting the depth limit means "not valid"."""
    try:
        return bool(check(value, depth))
    except DepthExceeded:
        return False


def items_from(values: Any, item: object) -> Iterator[tuple[int, Any]]:
    """``enumerate(values)`` from the first item equal to ``item`` on: a walker's scan
    found ``item`` the first one refused, so those before it passed (an equal one before
    it passed too, or the scan would have stopped there). From the start where
    ``values`` is not a plain list or tuple, whose ``index`` may answer otherwise."""
    start = values.index(item) if type(values) is list or type(values) is tuple else 0
    return enumerate(islice(values, start, None), start)


def count_true(*outcomes: object) -> int:
    """How many oneOf branches matched."""
    return sum(1 for outcome in outcomes if outcome)


class Memo:
    """What the checkers and walkers of some definitions found for each value, during
    one call (``_repeats``: definitions on a ``$ref`` cycle that one place in a value
    may meet twice, whose work would double at every level of the value).

    Keyed by the function and the value's ``id``, each entry holding the value itself:
    a value kept alive keeps its ``id``, so an entry answers only for that very object,
    whichever thread asks. Emptied before and after each call; a call that fills
    ``LIMIT`` entries starts afresh (time, never a wrong answer). A walker's entry also
    holds the list it appended to and what it appended: walked again at the same path
    into the same list, it appends nothing (the issues are there); into another list
    (``_unions.tie`` walks branches aside), it appends them again.
    """

    LIMIT = 1 << 16
    BUDGET = 1_000_000
    """Most checks and walks of those definitions one call runs (answers remembered do
    not count): past it the call stops with ``WorkExceeded``, reported as not checked.
    Calls running at once on one validator share it."""

    __slots__ = ("entries", "left")

    def __init__(self) -> None:
        self.entries: dict[Any, Any] = {}
        self.left = self.BUDGET

    def clear(self) -> None:
        self.entries.clear()
        self.left = self.BUDGET

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise WorkExceeded

    def check(self, function: Any) -> Any:
        """``function`` (a checker) answering once per value."""
        entries = self.entries

        def remembered(v: Any, d: int) -> bool:
            key = (function, id(v))
            found = entries.get(key)
            if found is not None and found[0] is v:
                return found[1]  # type: ignore[no-any-return]
            self.spend()
            outcome = function(v, d)
            if len(entries) >= self.LIMIT:
                entries.clear()
            entries[key] = (v, outcome)
            return outcome  # type: ignore[no-any-return]

        return remembered

    def walk(self, function: Any) -> Any:
        """``function`` (a walker) walking once per value and path."""
        entries = self.entries

        # ``m``: the checker's refusal, handed on (a walk that skips what the check
        # passed finds the same issues, so an entry answers whichever ``m`` asks).
        def remembered(v: Any, p: str, e: list[Any], d: int, m: Refusal = WHOLE) -> None:
            key = (function, id(v), p)
            found = entries.get(key)
            if found is not None and found[0] is v:
                if found[1] is not e:
                    e.extend(found[2])
                return
            self.spend()
            start = len(e)
            function(v, p, e, d, m)
            if len(entries) >= self.LIMIT:
                entries.clear()
            entries[key] = (v, e, e[start:])

        return remembered
