"""Which patterns Python's backtracking ``re`` provably matches in time linear in the text.

``re`` needs no copy of the text (RE2's binding reads only UTF-8 bytes), so a pattern
runs there when an analysis of its parsed form (``sre`` syntax, after translation)
shows that backtracking cannot blow up. The rule, ``is_linear(translated)``:

1. **Nothing that backtracks by nature**: no backreference, no conditional group, no
   atomic group or possessive repeat; a lookaround only around a body without any
   repetition (its cost at one position is then bounded by the pattern's size).
2. **Deterministic** (one-unambiguous, in Brüggemann-Klein's sense): at every choice the
   engine makes, the options start with disjoint sets of characters. A choice is an
   alternation (each branch, followed by what comes after it) or a repetition that may
   go on or stop (its body against what follows the repetition); a repeated body that
   can match the empty string is refused outright (``(a*)*``). Zero-width assertions
   (``^``, ``$``, ``\\b``, lookaround) are read as the empty string: they only ever cut
   paths, so reading them so only adds choices; after the whole pattern comes nothing
   (the first attempt to reach the end succeeds). At each text
   position at most one option can then consume the next character: every other one
   fails before it, so a match attempt costs time linear in the text (``(a|a)*``,
   ``(a+)+``, ``(.*a){12}`` and ``(a|aa)+`` are refused; ``^[a-z]+(?:\\.[a-z]+)*$`` is
   not).
   One exception, for an anchored pattern only (``_one_retry``): a repetition of a
   single character whose stop overlaps what follows, when what follows starts with
   one required character that nothing after it consumes (``[a-z0-9.-]+\\.[a-z]{2,}$``,
   the common e-mail pattern's domain). Backtracking then tries the rest at each
   character given back, but each try stops before the next place another could
   start: the tries read disjoint stretches of the text.
3. **A search tries every start**: the pattern is anchored (``^`` heads every branch:
   every other start fails at once), or what an attempt must match before the rest can
   no longer fail (a tail of optional, assertion-free items, and the required part of a
   last repetition) is at most ``MAX_UNANCHORED_WIDTH`` characters, so a failed attempt
   costs a bounded time. ``a*b`` searched unanchored is quadratic on ``aaaa...``. Or the
   attempts read disjoint stretches (``_disjoint_attempts``): past a head of at most that
   width, the pattern consumes no character an attempt can start with
   (``\\bref\\d+\\b``), so each stretch is read by the attempts begun within that
   width before it only.
4. At most ``MAX_PATTERN`` characters: a deterministic attempt still pays for every
   branch of a long alternation at each position.

An anchored pattern can only match at the start of the text, so ``re``'s ``match`` gives
the same verdict as its ``search`` without ``search``'s scan for a start:
``linear_method(translated)`` says which of the two to call (None where the rule refuses).

Anything else runs on RE2 (or on ``regex`` with a time limit, for what RE2 cannot
run). Python's parser moved in 3.11 (``re._parser``, and ``sre_parse`` warns since);
that version difference is read here only.
"""

from __future__ import annotations

from typing import Any

from llmapp._limits import MAX_PATTERN

try:  # Python 3.11+
    from re import _constants as sre_constants  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants
    import sre_parse

__all__ = ["MAX_PATTERN", "MAX_UNANCHORED_WIDTH", "is_linear", "linear_method"]

MAX_UNANCHORED_WIDTH = 64
"""Characters a failed attempt of an unanchored pattern may consume (at each start)."""

_C = sre_constants
_UNBOUNDED = 1 << 62
_ALL: tuple[tuple[int, int], ...] = ((0, 0x10FFFF),)
_REPEATS = frozenset({_C.MAX_REPEAT, _C.MIN_REPEAT})
_ASSERTS = frozenset({_C.ASSERT, _C.ASSERT_NOT})
_ANCHORS = frozenset({_C.AT_BEGINNING, _C.AT_BEGINNING_STRING})

Chars = tuple[tuple[int, int], ...]
"""Sorted, disjoint, inclusive code point ranges."""


class _Refused(Exception):
    """The pattern is outside the rule."""


def is_linear(translated: str) -> bool:
    """Whether ``re`` matches ``translated`` (Python syntax) in linear time, per the rule."""
    return linear_method(translated) is not None


def linear_method(translated: str) -> str | None:
    """The method of ``re``'s compiled ``translated`` that tells in linear time whether it
    matches a text: ``"match"`` when it is anchored (every match starts at the start),
    ``"search"`` otherwise; None when the rule refuses it."""
    if len(translated) > MAX_PATTERN:
        return None
    try:
        parsed = sre_parse.parse(translated, _C.SRE_FLAG_ASCII)
        items = list(parsed)
        if _anchored(items):
            _whole(items)
            return "match"
        _sequence(items, ())
        if _attempt_width(items) <= MAX_UNANCHORED_WIDTH or _disjoint_attempts(items):
            return "search"
        return None
    except (_Refused, _C.error, RecursionError, OverflowError):
        return None


# --- character sets ---------------------------------------------------------------------


def _union(a: Chars, b: Chars) -> Chars:
    merged: list[tuple[int, int]] = []
    for low, high in sorted(a + b):
        if merged and low <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return tuple(merged)


def _overlap(a: Chars, b: Chars) -> bool:
    i = j = 0
    while i < len(a) and j < len(b):
        if a[i][1] < b[j][0]:
            i += 1
        elif b[j][1] < a[i][0]:
            j += 1
        else:
            return True
    return False


def _complement(chars: Chars) -> Chars:
    out, start = [], 0
    for low, high in chars:
        if low > start:
            out.append((start, low - 1))
        start = max(start, high + 1)
    return (*out, (start, 0x10FFFF)) if start <= 0x10FFFF else tuple(out)


def _class(items: list[tuple[Any, Any]]) -> Chars:
    """The characters an ``IN`` item matches (a category counts as every character)."""
    chars: Chars = ()
    negate = False
    for op, av in items:
        if op is _C.NEGATE:
            negate = True
        elif op is _C.LITERAL:
            chars = _union(chars, ((av, av),))
        elif op is _C.RANGE:
            chars = _union(chars, (av,))
        else:  # CATEGORY and the case-folding forms: assume the widest set
            return _ALL
    return _complement(chars) if negate else chars


# --- the analysis -----------------------------------------------------------------------


def _sequence(items: list[tuple[Any, Any]], follow: Chars, check: bool = True) -> Chars:
    """The characters ``items`` followed by ``follow`` can start with; when ``check``,
    refuses a choice whose options may start alike."""
    for op, av in reversed(items):
        follow = _item(op, av, follow, check)
    return follow


def _item(op: Any, av: Any, follow: Chars, check: bool) -> Chars:
    if op is _C.LITERAL:
        return ((av, av),)
    if op is _C.NOT_LITERAL:
        return _complement(((av, av),))
    if op is _C.ANY:
        return _ALL
    if op is _C.IN:
        return _class(av)
    if op is _C.AT:
        return follow
    if op is _C.SUBPATTERN:
        return _sequence(list(av[-1]), follow, check)
    if op is _C.BRANCH:
        starts: Chars = ()
        for branch in av[1]:
            first = _sequence(list(branch), follow, check)
            if check and _overlap(starts, first):
                raise _Refused
            starts = _union(starts, first)
        return starts
    if op in _REPEATS:
        low, high, body = av
        body_items = list(body)
        inner = _sequence(body_items, (), check=False)
        if check:
            if _nullable(body_items) or (low < high and _overlap(inner, follow)):
                raise _Refused
            _sequence(body_items, _union(inner, follow) if high > 1 else follow)
        return inner if low > 0 else _union(inner, follow)
    if op in _ASSERTS:
        if check and _repeats(list(av[1])):
            raise _Refused
        return follow
    if op is _C.FAILURE:  # ``(?!)`` on Python 3.13 and newer: zero-width, never matches
        return follow
    raise _Refused  # GROUPREF, GROUPREF_EXISTS, ATOMIC_GROUP, POSSESSIVE_REPEAT, ...


def _whole(items: list[tuple[Any, Any]]) -> None:
    """An anchored pattern's rule: deterministic (``_sequence``), or deterministic but
    for one repetition of a single character whose rest retries cheaply (``_one_retry``)."""
    try:
        _sequence(items, ())
    except _Refused:
        for index in range(len(items)):
            try:
                _one_retry(items, index)
            except _Refused:
                continue
            return
        raise


def _one_retry(items: list[tuple[Any, Any]], index: int) -> None:
    """Refuses unless ``items[index]`` is a repetition of one character ``X`` whose stop
    may overlap the rest ``S``, and ``S`` starts with one required character of a set
    ``F`` that nothing later in ``S`` consumes: ``[a-z.-]+\\.[a-z]{2,}$`` (the common
    e-mail pattern's domain).

    ``X`` then gives back one character at a time and ``S`` is tried at each: an attempt
    fails at once where the text holds no ``F``, and elsewhere consumes only non-``F``
    characters after its first, so it stops before the next ``F``: the attempts read
    disjoint stretches, linear in all. ``S`` and what precedes ``X`` are deterministic,
    so nothing else retries; the pattern is anchored, so there is one start.
    """
    op, av = items[index]
    rest = items[index + 1 :]
    if op not in _REPEATS or len(av[2]) != 1 or not rest:
        raise _Refused
    (body_op, _), (first_op, first_av) = av[2][0], rest[0]
    if body_op not in _SINGLE or first_op not in _SINGLE:
        raise _Refused
    starts = _item(first_op, first_av, (), False)
    if _overlap(starts, _consumed(rest[1:])):
        raise _Refused
    _sequence(rest, ())
    _sequence(items[:index], _sequence(items[index:], (), check=False))


_SINGLE = frozenset({_C.LITERAL, _C.NOT_LITERAL, _C.ANY, _C.IN})


def _consumed(items: list[tuple[Any, Any]]) -> Chars:
    """Every character ``items`` may consume; refuses a lookaround (it reads ahead)."""
    found: Chars = ()
    for op, av in items:
        if op in _SINGLE:
            found = _union(found, _item(op, av, (), False))
        elif op is _C.SUBPATTERN:
            found = _union(found, _consumed(list(av[-1])))
        elif op is _C.BRANCH:
            for branch in av[1]:
                found = _union(found, _consumed(list(branch)))
        elif op in _REPEATS:
            found = _union(found, _consumed(list(av[2])))
        elif op is not _C.AT:
            raise _Refused
    return found


def _nullable(items: list[tuple[Any, Any]]) -> bool:
    return _min_width(items) == 0


def _min_width(items: list[tuple[Any, Any]]) -> int:
    total = 0
    for op, av in items:
        if op in (_C.LITERAL, _C.NOT_LITERAL, _C.ANY, _C.IN):
            total += 1
        elif op is _C.SUBPATTERN:
            total += _min_width(list(av[-1]))
        elif op is _C.BRANCH:
            total += min(_min_width(list(branch)) for branch in av[1])
        elif op in _REPEATS:
            total += av[0] * _min_width(list(av[2]))
    return total


def _max_width(items: list[tuple[Any, Any]]) -> int:
    total = 0
    for op, av in items:
        if op in (_C.LITERAL, _C.NOT_LITERAL, _C.ANY, _C.IN):
            total += 1
        elif op is _C.SUBPATTERN:
            total += _max_width(list(av[-1]))
        elif op is _C.BRANCH:
            total += max(_max_width(list(branch)) for branch in av[1])
        elif op in _REPEATS:
            body = _max_width(list(av[2]))
            total += _UNBOUNDED if av[1] >= _C.MAXREPEAT and body else av[1] * body
    return min(total, _UNBOUNDED)


def _repeats(items: list[tuple[Any, Any]]) -> bool:
    for op, av in items:
        if op in _REPEATS:
            return True
        if op is _C.SUBPATTERN and _repeats(list(av[-1])):
            return True
        if op is _C.BRANCH and any(_repeats(list(branch)) for branch in av[1]):
            return True
        if op in _ASSERTS and _repeats(list(av[1])):
            return True
    return False


def _asserts(items: list[tuple[Any, Any]]) -> bool:
    """Whether a zero-width test (an anchor, a boundary, a lookaround) is in ``items``."""
    for op, av in items:
        if op is _C.AT or op in _ASSERTS or op is _C.FAILURE:
            return True
        if op is _C.SUBPATTERN and _asserts(list(av[-1])):
            return True
        if op is _C.BRANCH and any(_asserts(list(branch)) for branch in av[1]):
            return True
        if op in _REPEATS and _asserts(list(av[2])):
            return True
    return False


def _anchored(items: list[tuple[Any, Any]]) -> bool:
    """Whether every match must start at the start of the text."""
    if not items:
        return False
    op, av = items[0]
    if op is _C.AT:
        return av in _ANCHORS
    if op is _C.SUBPATTERN:
        return _anchored(list(av[-1]))
    if op is _C.BRANCH:
        return all(_anchored(list(branch)) for branch in av[1])
    return False


def _disjoint_attempts(items: list[tuple[Any, Any]]) -> bool:
    """Whether ``items`` split into a head of at most ``MAX_UNANCHORED_WIDTH`` characters and
    a rest that consumes no character an attempt can start with (``\\bref\\d+\\b``: the
    digits never hold an ``r``). An attempt then fails at once where the text holds none
    of those, and the rest of one begun at any other start stops before the next such
    character; a stretch of the text is read by the rests of the attempts begun at most
    ``MAX_UNANCHORED_WIDTH`` characters before it only, so the search is linear."""
    if _min_width(items) == 0:
        return False  # an attempt may start anywhere
    starts = _sequence(items, (), check=False)
    for split in range(len(items) + 1):
        if _max_width(items[:split]) > MAX_UNANCHORED_WIDTH:
            return False
        try:
            if not _overlap(_consumed(items[split:]), starts):
                return True
        except _Refused:  # a lookaround in the rest reads ahead
            continue
    return False


def _attempt_width(items: list[tuple[Any, Any]]) -> int:
    """How many characters an attempt may consume before it can no longer fail: the
    items before a tail of optional, assertion-free ones (and the required repetitions
    of a last repetition whose body tests nothing zero-width)."""
    end = len(items)
    while end and _nullable(items[end - 1 : end]) and not _asserts(items[end - 1 : end]):
        end -= 1
    width = _max_width(items[: end - 1]) if end else 0
    if end:
        op, av = items[end - 1]
        if op in _REPEATS and not _asserts(list(av[2])):
            width += av[0] * _max_width(list(av[2]))
        else:
            width += _max_width(items[end - 1 : end])
    return min(width, _UNBOUNDED)
