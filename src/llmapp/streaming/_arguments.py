"""``ArgumentStream``: one function's arguments read and checked while the model writes them.

The text is read delta by delta on an explicit stack (one frame per open object or
array). Most of it is read member by member (``_members``): one regular-expression match
in C takes a whole ``"key": value`` or item, a scalar's value is judged by its place's
generated checker alone (``Position.valid``), a container whole in the piece is read by
json's C scanner and judged likewise, any other is entered. A member cut at a piece's end
that shows nothing definite yet (its key not closed, or closed and allowed, its value's
first character of a type its place takes) is kept, at most ``_CARRY_MAX`` characters,
and read again with the next piece; anything else (a mistake, an escape cut in two, a
long string) goes through a JSON state machine that takes a run of string characters,
digits or blanks by one match. So a delta costs what its own characters cost, whatever
came before it. A frame holds its container (the ``partial`` value: complete leaves
only), its place in the arguments and its ``Position`` (what its schema lets the stream
judge). Kept: the frames of the open containers, the value read, the start of a member
carried and the text (which ``finish`` reads whole).

A mistake is reported by ``feed`` once no continuation of the text can mend it:

- a value of a JSON type its place refuses, at its first character (an object, an array,
  a number, ``true``/``false``; a string and ``null`` wait until they are complete, since
  the call step repairs ``"3"``, a stringified object and a ``null`` for an optional key);
- a complete value its schema refuses, as the call step's check of that schema alone
  says it (repaired where refused, then validated: ``Position.check``);
- a key its object does not allow, once the key is closed; a key written twice;
- too many items, once the item past ``maxItems`` starts; a required key, too few items,
  once their container closes.

An issue seen before its value was complete has ``UNDEFINED`` for its value.

Anything the stream does not read as strict JSON (a comment, a single quote, a second
value...) stops its judging for good: what the lenient reader makes of it is
``finish``'s answer alone. ``finish`` is the call step itself (``llmapp.kernel``) on the
whole text, so it answers exactly as ``execute`` would (a key written twice included:
the call step refuses it as read only in part).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable
from typing import Any, Final

from llmapp import explain, repair
from llmapp._results import UNDEFINED, ValidationFailure, ValidationIssue
from llmapp.jsonschema import ROOT, step
from llmapp.kernel import CallResult, Checked, check_arguments, model_side
from llmapp.streaming._positions import Position, Positions

__all__ = ["ArgumentStream", "stream"]

_BLANK = re.compile(r"[ \t\n\r]*")
_RUN = re.compile(r'[^"\\\x00-\x1f]*')
_NUMBER_RUN = re.compile(r"[-+0-9.eE]*")
_WORD_RUN = re.compile(r"[a-z]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_WORDS: Final = {"true": True, "false": False, "null": None}
_STARTS_NUMBER = frozenset("-0123456789")
_NOT_VALUES = frozenset("]},:")

# What may come next in a frame, by its state (_COLON, _VALUE, _KEY, _NEXT, _ITEM), read by
# one match (see ``_members``). A member whole in the piece: group 1 its key (empty where
# the state has none), one group per kind of value (2 to 8: an empty container is read as
# a scalar is). Else, the start of a member cut at the piece's end: group 1 its key once
# closed, 9 the start of its value (a number or a word being written, or in an array a
# string). 10 a closer. A group that cannot match keeps the numbers. Numbers are taken up
# to lengths that int() and float() read exactly, longer ones the long way; a key only
# without an escape (read as written, then), one with an escape the long way. Written for
# the engine's cheap steps: an optional part is an alternative with an empty branch, not
# ``?`` on a group (a repeat the engine keeps a stack for), and a string with escapes is
# tried only where a backslash is ahead (a cut string would be taken back character by
# character through the repeat otherwise), so that a member cut at the end fails its
# alternative soon. A member and its start cut at the end share their key's match (the
# cut is what follows the key, not a second reading of it).
_WS = r"[ \t\n\r]*"
_ESCAPE = r'\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})'  # only what json reads: a conversion never fails
_PLAIN = r'[^"\\\x00-\x1f]*'
_BODY = rf"{_PLAIN}(?:{_ESCAPE}{_PLAIN})*"
_ENDS = r"(?=[ \t\n\r,\]}])"  # a number or a word is whole once what follows it is seen
_STRINGS = rf'"({_PLAIN})"|"(?={_PLAIN}\\)({_BODY})"'
_OTHERS = (
    rf"(-?(?:0|[1-9][0-9]{{0,999}})){_ENDS}"
    rf"|(-?(?:0|[1-9][0-9]{{0,99}})(?:\.[0-9]+|)(?:[eE][-+]?[0-9]{{1,2}}|)){_ENDS}"
    rf"|(true|false|null){_ENDS}"
    rf"|(\[{_WS}\]|\{{{_WS}\}})"
    r"|([{\[])"
)
_NEVER = r"((?!))"
_BEGUN = rf'(?:("{_PLAIN}|[-0-9][-+.0-9eE]*|[tfn][a-z]*)|)'
_VALUE_OR_BEGUN = rf"(?:{_STRINGS}|{_OTHERS}|{_BEGUN}\Z)"
# In an object, a string value cut at the end is told without its text, right after the
# strings fail (its first character is never one a place refuses: see ``_quiet``).
_MEMBER_OR_BEGUN = rf'(?:{_STRINGS}|"{_PLAIN}\Z|{_OTHERS}|{_BEGUN}\Z)'
_KEYED = rf'"({_PLAIN})"{_WS}(?::{_WS}{_MEMBER_OR_BEGUN}|\Z)|"{_PLAIN}\Z'
"""A key and its value, or cut at the end: the key not closed, or closed and what follows."""
(_STRING_VALUE, _ESCAPED, _INTEGER, _FLOAT, _WORD_VALUE, _EMPTY, _OPENER) = range(2, 9)
_BEGUN_GROUP, _CLOSER = 9, 10

# Typed as tuples of any length: compiled by mypyc, a tuple of known length is unboxed and
# made anew where it is read, so the identity tests of ``_members`` would never hold.
_OBJECT_MEMBERS: Final[tuple[re.Pattern[str] | None, ...]] = (
    re.compile(rf"(){_WS}(?::{_WS}{_MEMBER_OR_BEGUN}|{_NEVER}|\Z)"),
    re.compile(rf"(){_WS}(?:{_MEMBER_OR_BEGUN}|{_NEVER})"),
    re.compile(rf"{_WS}(?:{_KEYED}|(\}})|\Z)"),
    re.compile(rf"{_WS}(?:,{_WS}(?:{_KEYED}|\Z)|(\}})|\Z)"),
    None,
)
_ARRAY_MEMBERS: Final[tuple[re.Pattern[str] | None, ...]] = (
    None,
    None,
    None,
    re.compile(rf"(){_WS}(?:,{_WS}{_VALUE_OR_BEGUN}|(\])|\Z)"),
    re.compile(rf"(){_WS}(?:{_VALUE_OR_BEGUN}|(\]))"),
)
"""By state: a member whole, else a closer or a member cut at the end, in one match."""


def _unescaped(raw: str) -> str:
    return json.loads('"' + raw + '"')  # type: ignore[no-any-return]


_READ: Final[tuple[Callable[[str], Any], ...]] = (
    str,  # unused: 0
    str,  # unused: 1
    str,  # a string without escapes
    _unescaped,
    int,
    float,
    {"true": True, "false": False, "null": None}.__getitem__,
    lambda written: [] if written[0] == "[" else {},  # a new one each time
)
"""The value of a member's text, by its group."""
_CARRY_MAX: Final = 64
"""The longest start of a member carried to the next piece, to be read again with it."""


_PRINTABLE = frozenset(map(chr, range(0x20, 0x7F))) - {'"', "\\"}
_QUIET: Final[tuple[frozenset[str], ...]] = (
    frozenset(" \t\n\r"),  # no token: blanks
    _PRINTABLE,  # a string (other characters take the long way)
    _PRINTABLE,  # a key
    frozenset("0123456789"),  # a number
    frozenset("abcdefghijklmnopqrstuvwxyz"),  # a word
    frozenset(),  # stopped
    frozenset(),  # a member's start carried
)
_CLOSERS = frozenset('"}]')
_SEPARATORS = frozenset(",:")
_OPENERS = frozenset(',:"')
_GOES_ON = frozenset("-+.0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _reject(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(written: str) -> float:
    value = float(written)
    if value - value != 0.0:  # 1e999: the call step reads it otherwise
        raise ValueError(f"{written} overflows a float")
    return value


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    made = dict(pairs)
    if len(made) != len(pairs):  # a key written twice: read piece by piece, it is reported
        raise ValueError("a key written twice")
    return made


_SCAN: Callable[[str, int], tuple[Any, int]] = json.JSONDecoder(  # type: ignore[attr-defined]
    object_pairs_hook=_pairs, parse_constant=_reject, parse_float=_finite
).scan_once

# A frame's states: an object cycles KEY -> COLON -> VALUE -> NEXT, an array ITEM -> NEXT;
# a member may start in the last three.
_COLON, _VALUE, _KEY, _NEXT, _ITEM = range(5)
# The token being read across deltas.
_NONE, _STRING, _KEY_TOKEN, _NUMBER_TOKEN, _WORD, _STOPPED, _CARRIED = range(7)

_TABLES: dict[int, tuple[Any, Positions]] = {}
_TABLES_SIZE: Final = 256
_TABLES_LOCK = threading.Lock()


class _Frame:
    """One open object or array, made empty and set by ``start``: a frame closed is kept
    by its stream (``_spare``, at most the depth reached) and started again for the next
    container opened, a method call where a class call per container was."""

    __slots__ = (
        "_path",
        "closer",
        "container",
        "key",
        "members",
        "object",
        "parent",
        "position",
        "reported",
        "state",
        "step",
        "whole",
    )

    def start(
        self,
        opener: str,
        parent: _Frame | None,
        step: str | int | None,
        position: Position | None,
        whole: Position | None,
    ) -> _Frame:
        self.object = is_object = opener == "{"
        self.container: Any = {} if is_object else []
        self.state = _KEY if is_object else _ITEM
        self.members = _OBJECT_MEMBERS if is_object else _ARRAY_MEMBERS
        """What ``_members`` matches here, by state."""
        self.closer = "}" if is_object else "]"
        self.parent = parent
        self.step = step
        """Its key or index in ``parent``."""
        self._path: str | None = ROOT if parent is None else None
        self.position = position
        """Judged part by part (a plain object or array), or None."""
        self.whole = whole
        """Judged whole when it closes, or None."""
        self.key: str | None = None
        self.reported = False
        return self

    @property
    def path(self) -> str:
        """Where it is in the arguments, written when asked (an issue, ``missing``)."""
        path = self._path
        if path is None:
            path = self._path = self.parent.path + step(self.step)  # type: ignore[union-attr]
        return path


def stream(function: Any, *, max_length: int = repair.MAX_LENGTH) -> ArgumentStream:
    """An ``ArgumentStream`` for ``function`` (a class method, an HTTP operation or an MCP
    tool): feed it the model's argument text as it arrives.

    Example::

        stream = llmapp.stream(app.function("order"))
        for delta in deltas:
            for issue in stream.feed(delta):
                print("definite mistake:", issue.path, issue.expected)
        answer = stream.finish()     # what execute's check gives for the whole text
    """
    return ArgumentStream(function, max_length=max_length)


class ArgumentStream:
    """The arguments of one call, read and checked while the model writes them.

    Attributes:
        function: the function called.
        length: characters fed so far.
        stopped: why judging stopped early (text the stream does not read as strict
            JSON, too long, too deep), or None.
        issues: every definite mistake reported so far, in order.
        duplicates: the keys written twice (each also among ``issues``): the call step
            refuses such a call (``finish``).
    """

    def __init__(self, function: Any, *, max_length: int = repair.MAX_LENGTH) -> None:
        self.function = function
        self.max_length = max_length
        side = model_side(function)
        self._side = side
        self._before: Callable[[Any], Any] | None = _before_check(function)
        # A hook sees repaired data only and strict-mode nulls are removed before the
        # check: in both cases the schema alone cannot say what is definite.
        checks = not side.hooked and self._before is None
        self._table = _table(side.schema) if checks else None
        self._text: list[str] = []
        self.length = 0
        self.stopped: str | None = None
        self.issues: list[ValidationIssue] = []
        self.duplicates: list[ValidationIssue] = []
        self._new: list[ValidationIssue] = []
        self._stack: list[_Frame] = []
        self._spare: list[_Frame] = []  # closed frames, started again (at most the depth)
        self._root: Any = UNDEFINED
        self._done = False
        self._token = _NONE
        self._parts: list[str] = []
        self._escape = False
        self._early = False  # the token's mistake was reported at its first character
        self._carried = ""  # a member's start, read again with the next piece

    # --- public ----------------------------------------------------------------------

    @property
    def partial(self) -> Any:
        """The arguments read so far, complete leaves only (None before the first ``{``).

        Read it, do not change it: the stream keeps filling it.
        """
        return None if self._root is UNDEFINED else self._root

    @property
    def text(self) -> str:
        """The text fed so far, as written."""
        return "".join(self._text)

    @property
    def complete(self) -> bool:
        """Whether the arguments' outermost value is closed."""
        return self._done

    def feed(self, delta: str) -> list[ValidationIssue]:
        """Read the next piece of the text; the mistakes that became definite with it.

        Raises:
            TypeError: ``delta`` is not text (a caller's mistake, not the model's).
        """
        if type(delta) is not str and not isinstance(delta, str):
            raise TypeError(f"feed() takes text, not {type(delta).__name__}")
        self._text.append(delta)
        size = len(delta)
        if size == 1:
            # One character inside a string, a number or the blanks between values changes
            # nothing but the text kept: most pieces of one character, done in a few tests.
            token = self._token
            if delta in _QUIET[token] and not self._escape and self.length < self.max_length:
                self.length += 1
                if token:
                    self._parts.append(delta)
                return []
            if delta in _OPENERS and not token and self._stack and self.length < self.max_length:
                frame = self._stack[-1]
                state = frame.state
                if delta == '"':
                    # A key or a string in an object starts: nothing is said of it yet (the
                    # first character of a string shows no type its place refuses).
                    if state == _KEY or (state == _VALUE and frame.object):
                        self.length += 1
                        if state == _KEY:
                            self._token, self._parts = _KEY_TOKEN, []
                        else:
                            self._token, self._parts, self._early = _STRING, [], False
                        return []
                elif state == (_NEXT if delta == "," else _COLON):
                    self.length += 1  # a comma or a colon where one belongs: a state moves
                    frame.state = _VALUE if delta == ":" else _KEY if frame.object else _ITEM
                    return []
        if self._token == _CARRIED and self.length + size <= self.max_length:
            # Most pieces of more than a character: after a member's start carried (so
            # judging goes on), members whole and one cut at the end: ``_read``'s first step.
            self.length += size
            self._token = _NONE
            text = self._carried + delta
            new = self._new = []
            try:
                position = self._members(text, 0, True)
                if position < len(text) and self.stopped is None:
                    self._read(text, True, position)
            except (ValueError, RecursionError) as unread:  # a value json reads otherwise
                self._stop(str(unread))
            if new:
                self.issues.extend(new)
            return new
        self.length += size
        if self.stopped is not None:
            return []
        if self.length > self.max_length:
            self._stop(f"the text is longer than {self.max_length:,} characters")
            return []
        new = self._new = []
        try:
            if size != 1:
                token = self._token
                if token == _CARRIED:
                    delta, token = self._carried + delta, _NONE
                    self._token = _NONE
                if token == _NONE and self._stack:
                    # Most pieces are members whole and one cut at the end: ``_read``'s
                    # first step without its call.
                    position = self._members(delta, 0, True)
                    if position < len(delta) and self.stopped is None:
                        self._read(delta, True, position)
                else:
                    self._read(delta, True)
            elif not self._token and delta not in _QUIET[_NONE]:
                self._structure(delta, delta)  # what the reader's loop does with it
            elif delta == '"' and self._token in (_STRING, _KEY_TOKEN) and not self._escape:
                self._closed("".join(self._parts))  # a one-character piece that closes a string
            else:
                self._read(delta)
        except (ValueError, RecursionError) as unread:  # a value json reads otherwise
            self._stop(str(unread))
        if new:
            self.issues.extend(new)
        return new

    def finish(self) -> Checked | CallResult:
        """The call step's answer for the whole text (``execute``'s, before the call):
        ``Checked(data, repairs)``, or the failed ``CallResult`` with its feedback (a key
        written twice is refused there, as read only in part)."""
        return check_arguments(
            self.function,
            self.text,
            self._side,
            max_length=self.max_length,
            before_check=self._before,
        )

    def feedback(self) -> str:
        """Text for the model after the call was stopped at the mistakes seen so far: its
        arguments as read (complete values only), each mistake marked, and how much of
        the text was read."""
        shown = self.partial if self.partial is not None else {}
        text = explain.feedback(ValidationFailure(shown, list(self.issues)))
        return (
            f"{text}\n\nThe call was stopped after the first {self.length:,} characters of "
            "its arguments, at these mistakes, and did not run: write the whole call again "
            "with them corrected."
        )

    def missing(self) -> list[str]:
        """The paths still missing where the text stopped: the value being written and the
        required keys of every open object not written yet (what a cut call lacked)."""
        paths: list[str] = []
        for frame in self._stack:
            if frame.position is None or not frame.object:
                continue
            for key in frame.position.required:
                if key not in frame.container:
                    paths.append(frame.path + step(key))
        return paths

    # --- reading ---------------------------------------------------------------------

    def _stop(self, why: str) -> None:
        self.stopped = why
        self._token = _STOPPED

    def _read(self, text: str, carry: bool = False, tried: int = -1) -> None:
        """Read ``text``; with ``carry``, a member cut at its end that shows nothing
        definite yet is kept to be read again with the next piece (see ``_quiet``).
        ``tried``: where ``_members`` already stopped (the reading starts there)."""
        if self._token == _CARRIED:
            text = self._carried + text
            self._token = _NONE
        end = len(text)
        position = max(tried, 0)
        stack = self._stack
        while position < end and self.stopped is None:
            token = self._token
            if token == _NONE:
                if stack and end - position > 1 and position != tried:
                    position = self._members(text, position, carry)
                    if position >= end or self.stopped is not None:
                        break
                position = _BLANK.match(text, position).end()  # type: ignore[union-attr]
                if position >= end or self.stopped is not None:
                    break
                char = text[position]
                if stack:
                    frame = stack[-1]
                    if char in _SEPARATORS:
                        if frame.state == (_NEXT if char == "," else _COLON):
                            frame.state = _VALUE if char == ":" else _KEY if frame.object else _ITEM
                            position += 1
                            continue
                    elif position + 1 < end and char not in _NOT_VALUES:
                        scanned = self._scan(frame, text, position, char)
                        if scanned:
                            position = scanned
                            continue
                self._structure(char, text)
                position += 1
            elif token in (_STRING, _KEY_TOKEN):
                position = self._string(text, position)
            elif token == _NUMBER_TOKEN:
                position = self._run(text, position, _NUMBER_RUN)
            elif token == _WORD:
                position = self._run(text, position, _WORD_RUN)
            else:
                break  # stopped

    def _members(self, text: str, position: int, carry: bool) -> int:
        """Members (``"key": value`` in an object, items in an array) whole in ``text``, each
        read by one match in C, containers entered and left, from ``position``; where the
        reading stopped (a member the matches do not take, or the end). With ``carry``, a
        member cut at the end that shows nothing definite yet (``_quiet``) is kept, to be
        read again with the next piece.

        A scalar member is judged here where its place says nothing of it
        (``Position.valid``: most members); anything else goes through ``_member``. The
        frame's state, container and position are held in locals while its members are
        read (the state written back wherever the loop leaves or calls out): per member,
        the loop's lines are most of a piece's cost."""
        stack = self._stack
        frame = stack[-1]
        state = frame.state
        container = frame.container
        where = frame.position
        members, closer = frame.members, frame.closer
        end = len(text)
        member: re.Match[str]  # None only where the loop stops
        while position < end:
            if state == _NEXT and text[position] == closer:
                # A closer right after a value (most of them): no match needed.
                closed = position + 1
            else:
                member = members[state].match(text, position)  # type: ignore[union-attr,assignment]
                if member is None:
                    break
                kind = member.lastindex or 0
                if _STRING_VALUE <= kind < _OPENER and state >= _KEY:
                    # A scalar member (most of them): first, attached where its place says
                    # nothing of it (a key asked before), else read the long way below.
                    key, value = member[1], member[kind]  # indexing: no call
                    if kind != _STRING_VALUE:
                        value = _READ[kind](value)
                    # ``passes`` may raise where ``valid`` says False, and a key not asked yet
                    # is not among ``children``: the long way, then.
                    try:
                        if members is _ARRAY_MEMBERS:
                            if where is None or (
                                value is not None
                                and (where.max_items is None or len(container) < where.max_items)
                                and (
                                    type(value) in (item := where.item).free
                                    or item.passes(value, 0)
                                )
                            ):
                                container.append(value)
                                state = _NEXT
                                position = member.end()
                                continue
                        elif key not in container and (
                            where is None
                            or (
                                value is not None
                                and (child := where.children[key]) is not None
                                and (type(value) in child.free or child.passes(value, 0))
                            )
                        ):
                            container[key] = value
                            state = _NEXT
                            position = member.end()
                            continue
                    except Exception:  # the checker gave up: ``valid`` says False
                        pass
                if kind < _STRING_VALUE or kind == _BEGUN_GROUP:  # a member cut at the end
                    if not carry or end - position > _CARRY_MAX:
                        break
                    frame.state = state
                    keyed = kind and state >= _KEY and members is _OBJECT_MEMBERS
                    if keyed or kind == _BEGUN_GROUP:
                        # Most often a key closed whose place was asked before, or an item
                        # begun: said here without a call, anything else by ``_quiet``.
                        quiet = False
                        if keyed and where is not None:
                            key, begun = member[1], member[_BEGUN_GROUP]
                            found = where.children.get(key, where)
                            quiet = (
                                found is not where
                                and found is not None
                                and key not in container
                                and (begun is None or begun[0] not in found.refuses)
                            )
                        elif members is _ARRAY_MEMBERS:  # an item begun
                            quiet = where is None or (
                                (where.max_items is None or len(container) < where.max_items)
                                and member[_BEGUN_GROUP][0] not in where.item.refuses
                            )
                        if not quiet and not self._quiet(frame, member):
                            return position
                    self._carried, self._token = text[position:], _CARRIED
                    return end
                closed = 0
                if kind == _CLOSER and (state == _NEXT or not container):
                    closed = member.end()
            if closed:
                if where is None or len(stack) == 1:
                    self._close(frame)
                elif (
                    container.keys() >= where.needed
                    if members is _OBJECT_MEMBERS
                    else len(container) >= where.min_items
                ):
                    self._spare.append(stack.pop())  # ``_close`` without its call
                else:
                    self._close(frame)
                position = closed
                if not stack:
                    return position
                frame = stack[-1]
                state, container, where = frame.state, frame.container, frame.position
                members, closer = frame.members, frame.closer
                continue
            if kind == _OPENER and state >= _KEY:
                # A container at a plain place: read whole where it is whole in the
                # piece and its place says nothing of it, else entered.
                found = None
                if members is _ARRAY_MEMBERS:
                    plain = where is None or where.max_items is None
                    if not plain and len(container) < where.max_items:  # type: ignore[union-attr,operator]
                        plain = True
                    if plain and where is not None:
                        found = where.item
                else:
                    key = member[1]
                    plain = key not in container
                    if plain and where is not None:
                        found = where.children.get(key, where)
                        if found is where:
                            found = where.property(key)
                        plain = found is not None
                    frame.key = key
                if plain:
                    position = member.end()
                    start = position - 1  # the opener ends the match
                    char = text[start]
                    # Most containers opened in a short piece have no closer in it: no call
                    # (``in`` on a slice: a method call with its arguments costs more).
                    if ("}" if char == "{" else "]") in text[position:] and _may_end(
                        text, start, char
                    ):
                        value, stop = _whole(text, start)
                        if stop and (found is None or found.valid(value)):
                            if members is _ARRAY_MEMBERS:
                                container.append(value)
                            else:
                                container[key] = value
                            state = _NEXT
                            position = stop
                            continue
                    elif found is None or char not in found.refuses:
                        if found is None or len(stack) >= repair.MAX_DEPTH:
                            self._enter(frame, char, found)
                            if self.stopped is not None:
                                return end
                            frame = stack[-1]
                            state, container, where = frame.state, frame.container, frame.position
                        else:  # ``_enter`` without its call
                            where, whole = found.opened[char]
                            made = self._spare.pop() if self._spare else _Frame()
                            if members is _ARRAY_MEMBERS:
                                made.start(char, frame, len(container), where, whole)
                                container.append(made.container)
                            else:
                                made.start(char, frame, key, where, whole)
                                container[key] = made.container
                            frame.state = _NEXT
                            stack.append(made)
                            frame, state, container = made, made.state, made.container
                        members, closer = frame.members, frame.closer
                        continue
            frame.state = state
            position = self._member(frame, member, text)
            if position < 0:
                return ~position
            if not stack:
                return position
            frame = stack[-1]
            state, container, where = frame.state, frame.container, frame.position
            members, closer = frame.members, frame.closer
        frame.state = state
        return position

    def _member(self, frame: _Frame, member: re.Match[str], text: str) -> int:
        """What ``member`` (a match of ``_members``: a value, or a closer after a comma)
        says, the long way: where the reading goes on, or ``~`` where it stops."""
        state = frame.state
        kind: int = member.lastindex  # type: ignore[assignment]
        if kind == _CLOSER:  # a comma before it
            return ~member.start()
        container = frame.container
        where = frame.position
        plain = True
        if not frame.object:
            child = None
            if where is not None:
                if where.max_items is not None and len(container) >= where.max_items:
                    plain = False  # reported as the item starts
                else:
                    child = where.item
        elif state in (_KEY, _NEXT):
            key = member.group(1)
            frame.key = key
            child = where.property(key) if where is not None else None
            if key in container or (child is None and where is not None):
                self._key(key)  # reported
                plain = False
            frame.state = _VALUE
        else:
            child = where.property(frame.key) if where is not None else None  # type: ignore[arg-type]
        if kind == _OPENER:
            char = member.group(_OPENER)
            start = member.start(_OPENER)
            if _may_end(text, start, char):
                value, stop = _whole(text, start)
                if stop:
                    self._judged(frame, plain, child, char, value)
                    return stop
            if plain and (child is None or char not in child.refuses):
                self._enter(frame, char, child)
            else:
                self._value(frame, char)
            return ~len(text) if self.stopped is not None else member.end()
        written = member.group(kind)
        value = _READ[kind](written)
        self._judged(frame, plain, child, '"' if kind < _INTEGER else written[0], value)
        return member.end()

    def _judged(
        self, frame: _Frame, plain: bool, child: Position | None, char: str, value: Any
    ) -> None:
        """A complete value in ``frame``: attached where its place says nothing of it,
        else judged as the piece-by-piece reader does (``_complete``)."""
        if plain and value is not None and (child is None or child.valid(value)):
            if frame.object:
                frame.container[frame.key] = value
            else:
                frame.container.append(value)
            frame.state = _NEXT
        else:
            self._complete(frame, char, value)

    def _quiet(self, frame: _Frame, begun: re.Match[str]) -> bool:
        """Whether the start of ``frame``'s next member cut at the end of the piece (in
        ``begun``: its key once closed, the start of its value) shows
        nothing definite yet, so that read again with the next piece it says what reading
        it now would have said: a key closed and refused, a value's first character of a
        type its place refuses, an item past ``maxItems`` are not quiet."""
        value = begun.group(_BEGUN_GROUP)
        key = begun.group(1) if frame.object and frame.state >= _KEY else None
        where = frame.position
        if not frame.object:
            if value is None or where is None:
                return True
            if where.max_items is not None and len(frame.container) >= where.max_items:
                return False
            child = where.item
        elif key is not None:
            if key in frame.container:
                return False
            if where is None:
                return True
            found = where.children.get(key, where)
            if found is where:
                found = where.property(key)
            if found is None:
                return False
            child = found
        elif where is None or frame.state in (_KEY, _NEXT):
            return True
        else:
            found = where.property(frame.key)  # type: ignore[arg-type]
            if found is None:
                return True
            child = found
        return value is None or value[0] not in child.refuses

    def _scan(self, frame: _Frame, text: str, position: int, char: str) -> int:
        """Read a key or a value that is whole in ``text`` with the C scanner (where most of
        a text in long pieces is read); its end, or 0 to read it character by character
        (not whole here, a key written twice inside, or not strict JSON)."""
        state = frame.state
        if state not in (_VALUE, _ITEM) and not (state == _KEY and char == '"'):
            return 0
        if not _may_end(text, position, char):
            return 0  # no end in this piece: an exception spared
        try:
            value, stop = _SCAN(text, position)
        except (StopIteration, ValueError, RecursionError):
            return 0
        if text[stop - 1] not in _CLOSERS and (stop >= len(text) or text[stop] in _GOES_ON):
            return 0  # a number or a word that goes on (in the next piece, or wrongly)
        if state == _KEY:
            self._key(value)
        else:
            self._complete(frame, char, value)
        return stop

    def _structure(self, char: str, text: str) -> None:
        stack = self._stack
        if not stack:
            if self._done or char != "{":
                self._stop(f"unexpected {char!r} outside the arguments' object")
                return
            position = self._table.at(self._side.schema) if self._table is not None else None
            self._open(char, position)
            return
        frame = stack[-1]
        state = frame.state
        if state in (_VALUE, _ITEM):
            if char == "]" and not frame.object:
                self._close(frame)
            else:
                self._value(frame, char)
        elif state == _KEY:
            if char == '"':
                self._token, self._parts = _KEY_TOKEN, []
            elif char == "}":
                self._close(frame)
            else:
                self._stop(f"unexpected {char!r} where a key was expected")
        elif state == _COLON:
            if char == ":":
                frame.state = _VALUE
            else:
                self._stop(f"unexpected {char!r} where ':' was expected")
        elif char == ",":
            frame.state = _KEY if frame.object else _ITEM
        elif char == ("}" if frame.object else "]"):
            self._close(frame)
        else:
            self._stop(f"unexpected {char!r} after a value")

    def _value(self, frame: _Frame, char: str) -> None:
        """A value starts at ``char`` in ``frame``."""
        position = self._child_position(frame)
        self._early = self._wrong_kind(frame, position, char, UNDEFINED)
        if char in "{[":
            self._enter(frame, char, None if self._early else position)
        elif char == '"':
            self._token, self._parts = _STRING, []
        elif char in _STARTS_NUMBER:
            self._token, self._parts = _NUMBER_TOKEN, [char]
        elif char in "tfn":
            self._token, self._parts = _WORD, [char]
        else:
            self._stop(f"unexpected {char!r} where a value was expected")

    def _enter(self, frame: _Frame, char: str, position: Position | None) -> None:
        """A container starts at ``char`` in ``frame``, at ``position`` (None: not judged)."""
        stack = self._stack
        if len(stack) >= repair.MAX_DEPTH:
            self._stop(f"nesting deeper than {repair.MAX_DEPTH} levels")
            return
        judged, whole = (None, None) if position is None else position.opened[char]
        container = frame.container
        if frame.object:
            made = self._new_frame().start(char, frame, frame.key, judged, whole)
            container[frame.key] = made.container
        else:
            made = self._new_frame().start(char, frame, len(container), judged, whole)
            container.append(made.container)
        frame.state = _NEXT
        stack.append(made)

    def _item_position(self, frame: _Frame) -> Position | None:
        position = frame.position
        if position is None:
            return None
        count = len(frame.container)
        if position.max_items is not None and count >= position.max_items and not frame.reported:
            frame.reported = True
            self._issue(ValidationIssue(frame.path, position.expected, UNDEFINED))
        return position.item

    def _child_path(self, frame: _Frame) -> str:
        if frame.object:
            return frame.path + step(frame.key)
        return frame.path + "[" + str(len(frame.container)) + "]"

    def _open(self, char: str, position: Position | None) -> None:
        """The arguments' object starts."""
        frame = self._new_frame().start(char, None, None, position, None)
        self._root = frame.container
        self._stack.append(frame)

    def _attach(self, value: Any) -> None:
        frame = self._stack[-1]
        if frame.object:
            frame.container[frame.key] = value
            frame.state = _NEXT
        else:
            frame.container.append(value)
            frame.state = _NEXT

    def _close(self, frame: _Frame) -> None:
        self._stack.pop()
        position = frame.position
        if position is not None:
            if frame.object:
                if not frame.container.keys() >= position.needed:
                    for key in position.required:
                        if key not in frame.container:
                            expected = position.expected_of_property(key)
                            path = frame.path + step(key)
                            self._issue(ValidationIssue(path, expected, UNDEFINED))
            elif len(frame.container) < position.min_items and not frame.reported:
                self._issue(ValidationIssue(frame.path, position.expected, frame.container))
        elif frame.whole is not None:
            for issue in frame.whole.check(frame.container):
                self._issue(_moved(issue, frame.path))
        self._spare.append(frame)
        if not self._stack:
            self._done = True

    def _new_frame(self) -> _Frame:
        return self._spare.pop() if self._spare else _Frame()

    # --- tokens ----------------------------------------------------------------------

    def _string(self, text: str, position: int) -> int:
        parts, end = self._parts, len(text)
        while position < end:
            if self._escape:
                parts.append(text[position])
                position += 1
                self._escape = False
            run = _RUN.match(text, position)
            assert run is not None  # the pattern matches the empty string
            parts.append(run.group())
            position = run.end()
            if position >= end:
                break
            char = text[position]
            position += 1
            if char == '"':
                self._closed("".join(parts))
                return position
            if char != "\\":
                self._stop("a control character inside a string")
                return end
            parts.append(char)
            self._escape = True
        return position

    def _closed(self, raw: str) -> None:
        """A key or a string closed, ``raw`` its text between the quotes."""
        value = json.loads('"' + raw + '"') if "\\" in raw else raw
        self._token = _NONE
        if self._stack[-1].state == _KEY:
            self._key(value)
        else:
            self._scalar(value)

    def _run(self, text: str, position: int, pattern: re.Pattern[str]) -> int:
        run = pattern.match(text, position)
        assert run is not None
        self._parts.append(run.group())
        if run.end() >= len(text):
            return run.end()
        written = "".join(self._parts)
        self._token = _NONE
        if pattern is _WORD_RUN:
            if written not in _WORDS:
                self._stop(f"{written!r} is not a JSON value")
                return len(text)
            self._scalar(_WORDS[written])
            return run.end()
        number = _NUMBER.fullmatch(written)
        if number is None:
            self._stop(f"{written!r} is not a JSON number")
            return len(text)
        value: Any = float(written) if number.group(1) or number.group(2) else int(written)
        if value in (float("inf"), float("-inf")):
            self._stop(f"{written} overflows a float")
            return len(text)
        self._scalar(value)
        return run.end()

    def _key(self, key: str) -> None:
        frame = self._stack[-1]
        frame.key = key
        frame.state = _COLON
        if key in frame.container:
            issue = ValidationIssue(
                frame.path + step(key),
                "undefined",
                UNDEFINED,
                "this key was written twice: JSON keeps only the last value",
            )
            self.duplicates.append(issue)
            self._issue(issue)
            frame.position = None  # what follows in this object may vanish: not judged
            return
        position = frame.position
        if position is not None and position.property(key) is None:
            self._issue(ValidationIssue(frame.path + step(key), "undefined", UNDEFINED))

    def _scalar(self, value: Any) -> None:
        frame = self._stack[-1]
        early, self._early = self._early, False
        if frame.object:
            position = frame.position.property(frame.key) if frame.position else None  # type: ignore[arg-type]
        else:
            position = frame.position.item if frame.position else None
        if position is not None and not early:
            self._judge(frame, position, value)
        self._attach(value)

    def _complete(self, frame: _Frame, char: str, value: Any) -> None:
        """A whole value read at once: judged as the pieces of it would have been."""
        position = self._child_position(frame)
        if position is not None and not self._wrong_kind(frame, position, char, value):
            self._judge(frame, position, value)
        self._attach(value)

    def _child_position(self, frame: _Frame) -> Position | None:
        """The position of the value starting in ``frame``; an item past ``maxItems`` is
        reported here, as it starts."""
        if frame.object:
            return frame.position.property(frame.key) if frame.position else None  # type: ignore[arg-type]
        return self._item_position(frame)

    def _wrong_kind(self, frame: _Frame, position: Position | None, char: str, value: Any) -> bool:
        """Report a value whose first character shows a type its place refuses."""
        if position is None or char not in position.refuses:
            return False
        self._issue(ValidationIssue(self._child_path(frame), position.expected, value))
        return True

    def _judge(self, frame: _Frame, position: Position, value: Any) -> None:
        """Report what the call step says of a complete value in ``frame`` (before it is
        attached: its path is the next one)."""
        # A null the call step reads as "not given" (an optional declared key that cannot
        # be null) says nothing; any other null is judged, as the call step judges it.
        where = frame.position
        if value is None and where is not None and where.drops_null(frame.key):  # type: ignore[arg-type]
            return
        issues = position.check(value)
        if issues:
            path = self._child_path(frame)
            for issue in issues:
                self._issue(_moved(issue, path))

    def _issue(self, issue: ValidationIssue) -> None:
        self._new.append(issue)


def _whole(text: str, start: int) -> tuple[Any, int]:
    """The value that starts at ``start`` read whole by the C decoder, and where it ends;
    ``(None, 0)`` when it does not end within ``text`` or is no JSON."""
    try:
        return _SCAN(text, start)
    except (StopIteration, ValueError, RecursionError):
        return None, 0


def _may_end(text: str, position: int, char: str) -> bool:
    """Whether the value starting at ``position`` may end within ``text``."""
    if char == '"':
        return text.find('"', position + 1) > 0
    if char in "{[":
        # Where its brackets balance (strings not told apart: a wrong guess only costs
        # time), so that the C scanner is not sent through a container that goes on
        # past the piece, to fail at its end: one pass over the piece's closers. Nested
        # deeper than the reader goes, it is read member by member, to stop there: each
        # of its levels would otherwise walk every closer again.
        closer = "}" if char == "{" else "]"
        depth, start = 0, position
        at = text.find(closer, position)
        while at > 0:
            depth += text.count(char, start, at) - 1
            if depth <= 0:
                return True
            if depth > repair.MAX_DEPTH:
                return False
            start = at + 1
            at = text.find(closer, start)
        return False
    run = _NUMBER_RUN if char in _STARTS_NUMBER else _WORD_RUN
    return run.match(text, position + 1).end() < len(text)  # type: ignore[union-attr]


def _moved(issue: ValidationIssue, path: str) -> ValidationIssue:
    """``issue`` (its path from ``$input``) placed at ``path``."""
    return ValidationIssue(
        path + issue.path[len(ROOT) :], issue.expected, issue.value, issue.description
    )


def _table(schema: Any) -> Positions:
    key = id(schema)
    found = _TABLES.get(key)
    if found is not None and found[0] is schema:
        return found[1]
    table = Positions(schema)
    with _TABLES_LOCK:
        _TABLES[key] = (schema, table)  # holds the schema: its id is not reused meanwhile
        while len(_TABLES) > _TABLES_SIZE:
            del _TABLES[next(iter(_TABLES))]
    return table


def _before_check(function: Any) -> Callable[[Any], Any] | None:
    """The MCP door's removal of strict mode's nulls (``llmapp.mcp.call``), else None."""
    source = getattr(function, "source_parameters", None)
    if source is None:
        return None
    from llmapp.mcp import without_strict_nulls  # the MCP door, loaded only for it

    return lambda data: without_strict_nulls(data, source, source)
