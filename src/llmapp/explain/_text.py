"""A failed validation -> the model's own arguments as JSON, each mistake marked where it sits.

The text has this exact shape (optional lines in brackets)::

    The arguments you gave have 3 errors. They are shown below, each wrong value followed by
    // ❌ with its path and what was expected. Correct them all and call the function again.
    ["key": undefined marks a required property you left out.]
    ["expected": "undefined" marks a property that must not be there: remove it.]
    [Long values are shortened with "…".]

    ```json
    {
      "name": "Alice",
      "age": "thirty", // ❌ [{"path": "$input.age", "expected": "integer"}]
      "tags": [ // ❌ [{"path": "$input.tags", "expected": "Array<string> & MaxItems<2>"}]
        "a",
        "b",
        "c"
      ],
      "email": undefined // ❌ [{"path": "$input.email", "expected": "string"}]
    }
    ```

    [Errors that could not be placed in the JSON above:
    - {"path": "$input.a.b", "expected": "string", "value": 3}]

(the first sentence is one line in the output). Rules:

- Two-space indentation; keys in the data's order. The comment follows the comma; on an
  object or array it follows the opening bracket. All issues at one path share one
  ``// ❌ [...]`` array, in the order of ``failure.errors``; each entry has ``path`` and
  ``expected``, and ``description`` when the issue has one (cut at 300 characters).
- A missing key (an issue whose parent object exists but lacks the key) is shown as
  ``"key": undefined`` after the keys present; a missing array item just past the end of
  its array is shown as an ``undefined`` item.
- Issue paths are read (``llmapp.jsonschema.Path.parse``), not compared as text: ``.name``,
  ``["any key"]`` and ``[3]`` segments after ``$input``, so ``$input.a`` and ``$input["a"]``
  mark the same value.
- Strings longer than 200 characters are cut to 200 and end with ``…`` (keys, paths and
  ``expected`` too, at 300). Arrays of more than 12 items show the first 3, the last, and every
  item with an issue at or under it; each run of two or more hidden items becomes a line
  ``// … N items without errors``. Objects of more than 12 properties do the same with
  ``// … N properties without errors``. Containers nested deeper than 32 levels are shown as
  ``{…}``/``[…]``, and so is any container without issues once 400 lines have been written;
  past that budget a container shows only its members with issues, the rest as gaps.
- At most 50 issues are shown (the first ones, in the order of ``failure.errors``); the text
  says how many more there are. So the text is bounded whatever the input: its cost is
  linear in the number of issues and the size of what it shows.
- Issues that cannot be placed (the path does not parse, or its parent is missing or not an
  object/array) are listed after the block with their value as compact JSON (cut at 200
  characters), in the order of ``failure.errors``. No URLs, no schema dumps.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Mapping, Sequence
from contextlib import suppress
from typing import Any, Final

from llmapp._limits import MAX_SHOWN_DEPTH, cut
from llmapp._results import UNDEFINED, ValidationFailure, ValidationIssue
from llmapp._text.unicode import encodable
from llmapp.explain._literals import (
    HEAD_ITEMS,
    MAX_STRING,
    IssueKey,
    describe,
    entry_text,
    head_of,
    leaf,
    literal,
    quoted,
    remember,
    string,
    unplaced,
)
from llmapp.jsonschema import Segment, parse_path

__all__ = ["feedback"]

Key = tuple[Segment, ...]
"""A location as the renderer keys it (a ``Path`` or a plain tuple: equal, same hash)."""

_LONG_ARRAY: Final = 12
_MAX_ISSUES: Final = 50
_MAX_LINES: Final = 400
_MAX_LAYOUT: Final = 4096
"""The most characters of issue paths whose layout is remembered (``_layout``)."""
_LAYOUTS: dict[tuple[str, ...], Layout] = {}
_MAX_LAYOUTS: Final = 256
_MARK: Final = " // ❌ "


def feedback(failure: ValidationFailure) -> str:
    """Show the model its own arguments with every mistake marked in place.

    Args:
        failure: the failed validation of the model's arguments.

    Returns:
        The text to send back to the model (format in this module's docstring).

    Example:
        >>> from llmapp._results import ValidationFailure, ValidationIssue
        >>> text = feedback(ValidationFailure({"age": "x"}, [
        ...     ValidationIssue("$input.age", "integer", "x")]))
        >>> '"age": "x" // ❌ [{"path": "$input.age", "expected": "integer"}]' in text
        True
    """
    errors = failure._errors  # the slots, not the properties: see ``llmapp._results``
    count = len(errors)
    shown = errors if count <= _MAX_ISSUES else errors[:_MAX_ISSUES]
    renderer = _Renderer(shown)
    body = renderer.root(failure._data)
    undefined = False
    for issue in shown:
        if issue._expected == "undefined":
            undefined = True
            break
    key = (count, len(shown), renderer.missing, undefined, renderer.shortened)
    header = _HEADERS.get(key) or _header(*key)
    placed = renderer.placed
    if len(placed) == len(shown):
        return f"{header}\n{body}\n```"  # encodable: each text of the model's is, as written
    left = [issue for n, issue in enumerate(shown) if n not in placed]
    lines = [header, body, "```", "", "Errors that could not be placed in the JSON above:"]
    lines += [f"- {unplaced(issue)}" for issue in left]
    return "\n".join(lines)


_HEADERS: dict[tuple[int, int, bool, bool, bool], str] = {}
_MAX_HEADERS: Final = 256


def _header(count: int, shown: int, missing: bool, undefined: bool, shortened: bool) -> str:
    """The lines before the JSON (up to its opening fence), remembered (``_HEADERS``, a
    plain dict: a hit is one lookup): a function's failed calls repeat the same few."""
    lines = [
        f"The arguments you gave have {count:,} error{'' if count == 1 else 's'}. They are shown "
        "below, each wrong value followed by // ❌ with its path and what was expected. "
        "Correct them all and call the function again."
    ]
    if count > shown:
        lines.append(
            f"Only the first {shown} are shown; {count - shown:,} more are not. "
            "Fix these, then call again to see the rest."
        )
    if missing:
        lines.append('"key": undefined marks a required property you left out.')
    if undefined:
        lines.append('"expected": "undefined" marks a property that must not be there: remove it.')
    if shortened:
        lines.append('Long values are shortened with "…".')
    header = "\n".join([*lines, "", "```json"])
    if len(_HEADERS) >= _MAX_HEADERS:
        _HEADERS.clear()
    _HEADERS[count, shown, missing, undefined, shortened] = header
    return header


class _Renderer:
    """Renders data as annotated JSON lines, remembering which issues it placed."""

    def __init__(self, errors: Sequence[ValidationIssue]) -> None:
        self.errors = errors
        self.placed: set[int] = set()
        self.missing = False
        self.shortened = False
        # lines written for members without issues, counted up (not a budget counted down
        # from _MAX_LINES): a count that stays small is an int Python does not allocate
        self.lines = 0
        paths = tuple(map(_PATH, errors))
        layout = _LAYOUTS.get(paths)
        if layout is None:
            layout = _layout(paths)
        self._at, self._hot, self._children, self._hot_below, self._plans = layout

    def root(self, value: Any) -> str:
        """``render`` of the arguments: a small object with an issue under it, the usual
        case, is written by ``_whole`` at once."""
        kind = type(value)
        if (kind is dict or kind is list) and len(value) <= _LONG_ARRAY and () in self._hot:
            at = self._at.get(())
            note = self._mark(at) if at else ""
            return self._whole(value, (), 0, "", "", note, kind is dict, self._plans_at(()))
        return self.render(value, (), 0, "", "")

    def render(self, value: Any, path: Key, level: int, head: str, tail: str) -> str:
        """The lines of a value, joined: ``head`` before it, ``tail`` after it."""
        if path not in self._hot:
            return f"{_PADS[level]}{head}{self._cold_text(value, level)}{tail}"
        at = self._at.get(path)
        return self._hot_text(value, path, level, head, tail, self._mark(at) if at else "")

    def _hot_text(self, value: Any, path: Key, level: int, head: str, tail: str, note: str) -> str:
        """``render`` of a value with an issue at or under it; ``note``: the mark of the
        issues at it (placed by the caller)."""
        pad = _PADS[level]
        kind = type(value)  # exact types first: the Mapping ABC check is slow
        if kind is dict or kind is list:
            is_object = kind is dict
        elif kind in _LEAVES or not isinstance(value, (Mapping, list, tuple)):
            text = leaf(value)
            return f"{pad}{head}{self._scalar(value) if text is None else text}{tail}{note}"
        else:
            is_object = isinstance(value, Mapping)
        brackets = "{}" if is_object else "[]"
        # (a container with an issue under it is shown past the budget)
        if level >= MAX_SHOWN_DEPTH:
            self.shortened = True
            return f"{pad}{head}{brackets[0]}…{brackets[1]}{tail}{note}"
        if len(value) <= _LONG_ARRAY and self.lines < _MAX_LINES:  # every member shown: no gap
            plans = self._plans_at(path)
            return self._whole(value, path, level, head, tail, note, is_object, plans)
        if is_object:
            entries = self._object_entries(value, path)
        else:
            entries = self._array_entries(value, path)
        if not entries:
            return f"{pad}{head}{brackets}{tail}{note}"
        lines = [f"{pad}{head}{brackets[0]}{note}"]
        last = len(entries) - 1  # the last entry that is not a gap takes no comma
        while last >= 0 and entries[last][0] == "gap":
            last -= 1
        nouns = ("property", "properties") if brackets == "{}" else ("item", "items")
        for position, (kind, child_head, child, child_path) in enumerate(entries):
            comma = "," if position < last else ""
            self.lines += 1
            if kind == "gap":
                noun = nouns[0] if child == 1 else nouns[1]
                lines.append(f"{pad}  // … {child} {noun} without errors")
            elif kind == "missing":
                self.missing = self.missing or bool(child_head)
                mark = self._comment(child_path)
                lines.append(f"{pad}  {child_head}undefined{comma}{mark}")
            else:
                lines.append(self.render(child, child_path, level + 1, child_head, comma))
        lines.append(f"{pad}{brackets[1]}{tail}")
        return "\n".join(lines)

    def _whole(
        self,
        value: Any,
        path: Key,
        level: int,
        head: str,
        tail: str,
        note: str,
        is_object: bool,
        plans: Plans,
    ) -> str:
        """``render`` of a container with an issue under it whose members are all shown.

        Written as ``_cold_text`` writes a container, into the template of its plan
        (``_plan``: by its keys or size, in ``plans``, those of its path), where each member
        with an issue at or under it has a slot of its own, filled as ``render`` would write
        it, and the members missing from it stand after the others. Its lines are counted
        as ``_cold_text`` does.
        """
        shape = tuple(value) if is_object else len(value)
        plan = plans.get(shape) or self._plan(value, path, level, shape, is_object, plans)
        template, hot, missing = plan
        if not value and not missing:
            brackets = "{}" if is_object else "[]"
            return f"{_PADS[level]}{head}{brackets}{tail}{note}"
        texts: list[str] = []
        taken = 0  # members whose lines are counted
        position = -1
        for child in value.values() if is_object else value:
            position += 1
            kind = type(child)
            if position in hot:
                self.lines += position + 1 - taken
                taken = position + 1
                texts.append(self._member(child, level + 1, hot[position], kind))
                continue
            if kind is str and len(child) <= MAX_STRING:  # ``string``, without the call
                text = quoted(child)
                if not text.isascii():
                    text = encodable(text)
            elif kind is int:  # ``literal``, without the call
                try:
                    text = repr(child)
                except ValueError:  # more digits than Python prints
                    text = self._scalar(child)
            elif kind is float and child - child == 0:  # ``leaf`` (finite), without the call
                text = repr(child)
            elif kind is dict or kind is list:
                if child:
                    self.lines += position + 1 - taken
                    taken = position + 1
                    text = self._cold_container(child, level + 1, kind, kind is dict, 0)
                else:  # ``_cold_text``'s first answer, without the call (no line taken)
                    text = "{}" if kind is dict else "[]"
            elif child is None:
                text = "null"
            elif kind is bool:
                text = "true" if child else "false"
            else:
                text = leaf(child)  # type: ignore[assignment]
                if text is None:
                    self.lines += position + 1 - taken
                    taken = position + 1
                    text = self._cold_text(child, level + 1)
            texts.append(text)
        self.lines += position + 1 - taken
        if missing:
            inner = _PADS[level + 1]
            for child_head, child_path, comma in missing:
                self.lines += 1
                self.missing = self.missing or bool(child_head)
                texts.append(f"{inner}{child_head}undefined{comma}{self._comment(child_path)}")
        opening = "{" if is_object else "["
        return f"{_PADS[level]}{head}{opening}{note}{template % tuple(texts)}{tail}"

    def _member(self, child: Any, level: int, seat: Seat, kind: type) -> str:
        """A member with an issue at or under it, as ``render`` writes it: ``seat`` says
        what its line starts and ends with, the issues at it, its path and its plans."""
        child_head, comma, indices, path, plans = seat
        mark = self._mark(indices) if indices else ""
        if kind in _LEAVES:
            text = leaf(child)
            if text is None:
                text = self._scalar(child)
            return f"{_PADS[level]}{child_head}{text}{comma}{mark}"
        if (
            (kind is dict or kind is list)
            and len(child) <= _LONG_ARRAY
            and self.lines < _MAX_LINES
            and level < MAX_SHOWN_DEPTH
        ):
            return self._whole(child, path, level, child_head, comma, mark, kind is dict, plans)
        return self._hot_text(child, path, level, child_head, comma, mark)

    def _plans_at(self, path: Key) -> Plans:
        """The plans of the containers at ``path`` (``_plan``), by their keys or size."""
        plans = self._plans.get(path)
        if plans is None:
            plans = self._plans[path] = {}
        return plans

    def _plan(
        self, value: Any, path: Key, level: int, shape: Any, is_object: bool, plans: Plans
    ) -> Plan:
        """What ``_whole`` needs of a container of these keys (or this size) at this path:
        its template after the opening bracket, with a ``%s`` for each member's value and
        a line's slot for each member with an issue and each missing one; the seats of the
        members with an issue (by position: a member's seat holds its path and the plans
        there, so its container's plan is found without its path made or hashed); the
        missing members (what their line starts with, their path, their comma).
        Remembered in ``plans``, with the layout."""
        at_member = self._children.get(path, _NO_ISSUES)
        missing = self._missing(value, path, is_object)
        hot = self._hot_below.get(path, _NO_SEGMENTS)
        last = len(value) + len(missing) - 1
        inner = _PADS[level + 1]
        lines: list[str] = []
        seats: dict[int, Seat] = {}
        for position, key in enumerate(value if is_object else range(len(value))):
            comma = "," if position < last else ""
            child_head = head_of(key) if is_object else ""
            if key in hot:
                child_path = (*path, key)
                seated = self._plans_at(child_path)
                seats[position] = (child_head, comma, at_member.get(key), child_path, seated)
                lines.append("%s")
            else:
                lines.append(f"{inner}{child_head}".replace("%", "%%") + f"%s{comma}")
        missing_seats = [
            (child_head, child_path, "," if position < last else "")
            for position, (child_head, child_path) in enumerate(missing, start=len(value))
        ]
        lines += ["%s"] * len(missing_seats)
        closing = "}" if is_object else "]"
        template = "\n" + "\n".join(lines) + f"\n{_PADS[level]}{closing}"
        plan = template, seats, missing_seats
        if not is_object or all(type(key) is str and len(key) <= MAX_STRING for key in shape):
            # (a key ``1`` equals ``True`` but reads otherwise; a long key is not kept)
            if len(plans) >= _MAX_PLANS:
                plans.clear()
            plans[shape] = plan
        return plan

    def _missing(self, value: Any, path: Key, is_object: bool) -> list[tuple[str, Key]]:
        """The keys with an issue that an object lacks, or the items with an issue just
        past the end of an array: (what the line starts with, their path)."""
        children = self._children.get(path)
        if not children:
            return []
        if is_object:
            if children.keys() <= value.keys():  # the usual case, told without a loop
                return []
            return [
                (head_of(segment), (*path, segment))
                for segment in children
                if isinstance(segment, str) and segment not in value
            ]
        size = len(value)
        beyond = sorted(s for s in children if isinstance(s, int) and s >= size)
        found: list[tuple[str, Key]] = []
        for expected, segment in enumerate(beyond, start=size):
            if segment != expected:  # a gap after the end: these cannot be shown in place
                break
            found.append(("", (*path, segment)))
        return found

    def _cold_text(self, value: Any, level: int, ahead: int = 0) -> str:
        """A value with no issue at or under it as the text shows it: its first line without
        its indentation, its last without a comma, its lines joined.

        The same rules, without what only issues bring (marks, missing keys, members kept
        for their issues): so a long container shows its first members, a gap and its last.
        Most of the arguments have no issue; this keeps the text's cost in the mistakes.
        Its lines are counted (``lines``) one a member, as the other loops do; a small
        container counts its members' at once, before their turn, and tells a nested one
        how many it counted ahead (``ahead``: the count as the other loops would have it is
        ``self.lines - ahead``), since a container's test of the budget is its one reader.
        """
        kind = type(value)  # exact types first: the Mapping ABC check is slow
        if kind is dict or kind is list:
            is_object = kind is dict
        elif kind in _LEAVES:  # ``leaf`` writes the usual ones, ``_scalar`` the rest
            text = leaf(value)
            return self._scalar(value) if text is None else text
        elif not isinstance(value, (Mapping, list, tuple)):
            return self._scalar(value)
        else:
            is_object = isinstance(value, Mapping)
        if not value:
            return "{}" if is_object else "[]"
        return self._cold_container(value, level, kind, is_object, ahead)

    def _cold_container(
        self, value: Any, level: int, kind: type, is_object: bool, ahead: int
    ) -> str:
        """``_cold_text`` of a container with members (``kind``: its type), called at once
        by the loops that know it is one."""
        if level >= MAX_SHOWN_DEPTH or self.lines - ahead >= _MAX_LINES:
            self.shortened = True
            return "{…}" if is_object else "[…]"
        size = len(value)
        if size > _LONG_ARRAY:
            return self._cold_long(value, level, is_object, ahead)
        self.lines += size  # each member's line, counted ahead of its turn
        if kind is dict:
            shape = tuple(value)
            template = _OBJECTS[level].get(shape) or _object_template(shape, level)
        elif kind is list:
            template = _ARRAYS[level][size]
        else:  # another mapping, or a tuple: joined as they give their members
            template = None
        texts: list[str] = []
        for child in value.values() if is_object else value:
            kind = type(child)
            if kind is str and len(child) <= MAX_STRING:  # ``string``, without the call
                text = quoted(child)
                if not text.isascii():
                    text = encodable(text)
            elif kind is int:  # ``literal``, without the call
                try:
                    text = repr(child)
                except ValueError:  # more digits than Python prints
                    text = self._scalar(child)
            elif kind is float and child - child == 0:  # ``leaf`` (finite), without the call
                text = repr(child)
            elif kind is dict or kind is list:
                if child:  # counted ahead: the caller's, and the members after this one
                    text = self._cold_container(
                        child, level + 1, kind, kind is dict, ahead + size - 1 - len(texts)
                    )
                else:  # ``_cold_text``'s first answer, without the call (no line taken)
                    text = "{}" if kind is dict else "[]"
            elif child is None:
                text = "null"
            elif kind is bool:
                text = "true" if child else "false"
            else:
                text = leaf(child)  # type: ignore[assignment]
                if text is None:
                    text = self._cold_text(child, level + 1, ahead + size - 1 - len(texts))
            texts.append(text)
        if template is not None:
            return template % tuple(texts)
        inner = _PADS[level + 1]  # (keys that are not all short strings, or no dict or list)
        if is_object:
            body = f",\n{inner}".join(map(str.__add__, map(head_of, value), texts))
            return f"{{\n{inner}{body}\n{_PADS[level]}}}"
        return f"[\n{inner}" + f",\n{inner}".join(texts) + f"\n{_PADS[level]}]"

    def _cold_long(self, value: Any, level: int, is_object: bool, ahead: int) -> str:
        """``_cold_text`` of a container too long to show whole: its first members, a line
        for the gap, and its last member (each counted as one line)."""
        inner = _PADS[level + 1]
        parts: list[str] = []
        for key, child in _ends(value, is_object):
            if len(parts) == HEAD_ITEMS:
                self.lines += 1  # the gap's line
            self.lines += 1
            text = leaf(child)
            if text is None:
                text = self._cold_text(child, level + 1, ahead)
            parts.append(f"{inner}{head_of(key)}{text}" if is_object else inner + text)
        noun = "properties" if is_object else "items"
        gap = f"{inner}// … {len(value) - HEAD_ITEMS - 1} {noun} without errors"
        opening, closing = ("{\n", "}") if is_object else ("[\n", "]")
        head = ",\n".join(parts[:HEAD_ITEMS])
        return f"{opening}{head},\n{gap}\n{parts[-1]}\n{_PADS[level]}{closing}"

    def _object_entries(self, value: Mapping[Any, Any], path: Key) -> list[tuple[Any, ...]]:
        entries: list[tuple[Any, ...]]
        if len(value) <= _LONG_ARRAY and self.lines < _MAX_LINES:  # every member shown (``_runs``)
            entries = [("item", head_of(key), item, (*path, key)) for key, item in value.items()]
        else:
            entries = [
                ("item", head_of(key), value[key], (*path, key))
                if shown
                else ("gap", "", key, path)
                for shown, key in self._runs(list(value), path)
            ]
        for segment in self._children.get(path, {}):
            if isinstance(segment, str) and segment not in value:
                entries.append(("missing", head_of(segment), None, (*path, segment)))
        return entries

    def _runs(self, segments: Sequence[Segment], path: Key) -> list[tuple[bool, Any]]:
        """``(True, segment)`` for each member shown, ``(False, count)`` for each gap.

        A long container shows its first few members, its last, and those with an issue
        at or under it; each run of two or more hidden members becomes one gap. The
        members shown are found by their positions, so an array (``segments``: a
        ``range``) is not walked member by member.
        """
        size = len(segments)
        spent = self.lines >= _MAX_LINES  # past the line budget only members with issues are shown
        if size <= _LONG_ARRAY and not spent:
            return [(True, segment) for segment in segments]
        hot = self._hot_below.get(path, _NO_SEGMENTS)  # a member's path is not made to ask
        if type(segments) is range:  # an index with an issue is a non-negative int
            shown = {index for index in hot if type(index) is int and index < size}
        else:
            shown = {position for position, key in enumerate(segments) if key in hot}
        if not spent:
            shown.update(range(min(HEAD_ITEMS, size)))
            shown.add(size - 1)
        runs: list[tuple[bool, Any]] = []
        last = -1  # the position of the last member shown
        for position in sorted(shown):
            hidden = position - last - 1
            if hidden == 1 and not spent:  # one hidden member is shown, not a gap
                runs.append((True, segments[position - 1]))
            elif hidden:
                runs.append((False, hidden))
            runs.append((True, segments[position]))
            last = position
        if last < size - 1:
            runs.append((False, size - 1 - last))
        return runs

    def _array_entries(self, value: Sequence[Any], path: Key) -> list[tuple[Any, ...]]:
        size = len(value)
        entries: list[tuple[Any, ...]] = [
            ("item", "", value[index], (*path, index)) if shown else ("gap", "", index, path)
            for shown, index in self._runs(range(size), path)
        ]
        children = self._children.get(path, {})
        beyond = sorted(s for s in children if isinstance(s, int) and s >= size)
        for expected, segment in enumerate(beyond, start=size):
            if segment != expected:  # a gap after the end: these cannot be shown in place
                break
            entries.append(("missing", "", None, (*path, segment)))
        return entries

    def _comment(self, path: Key) -> str:
        return self._mark(self._at.get(path))

    def _mark(self, indices: list[int] | None) -> str:
        """``// ❌ [...]`` for the issues of these indices (now placed), or ""."""
        if not indices:
            return ""
        self.placed.update(indices)
        if len(indices) == 1:
            issue = self.errors[indices[0]]
            try:  # a hit is one lookup: a function's failed calls repeat their issues
                return _MARKS[issue._path, issue._expected, issue._description]
            except (KeyError, TypeError):
                return _single_mark(issue)
        return _MARK + "[" + ", ".join(entry_text(self.errors[index]) for index in indices) + "]"

    def _scalar(self, value: Any) -> str:
        if value is UNDEFINED:
            return "undefined"
        if isinstance(value, str):
            if len(value) > MAX_STRING:
                self.shortened = True
                value = cut(value, MAX_STRING)
            return string(value)
        if value is None or isinstance(value, (bool, int, float)):
            try:
                return literal(value)
            except ValueError:  # an integer with more digits than Python prints
                self.shortened = True
                return "…"
        return self._scalar(describe(value))


def _ends(value: Any, is_object: bool) -> list[tuple[Any, Any]]:
    """The first few members of a long container and its last, as (key, member) (the
    key of an array's item unused): taken from its ends, not from a list of them all."""
    kind = type(value)
    if kind is list or kind is tuple:
        return [(None, child) for child in (*value[:HEAD_ITEMS], value[-1])]
    if kind is dict:
        items = value.items()
        return [*itertools.islice(items, HEAD_ITEMS), next(reversed(items))]
    # another mapping or sequence: its members in its own order, read once
    members = list(value.items() if is_object else enumerate(value))
    return [*members[:HEAD_ITEMS], members[-1]]


_MARKS: dict[IssueKey, str] = {}


def _single_mark(issue: ValidationIssue) -> str:
    """``// ❌ [...]`` for one issue, remembered in ``_MARKS`` as its entry is."""
    mark = f"{_MARK}[{entry_text(issue)}]"
    with suppress(TypeError):  # a text that is no key: written each time
        remember(_MARKS, (issue._path, issue._expected, issue._description), mark)
    return mark


Seat = tuple[str, str, "list[int] | None", Key, "Plans"]
"""A member with an issue at or under it, in its container's plan: what its line starts
with, its comma, the issues at it, its path, the plans of the containers there."""
Plan = tuple[str, dict[int, Seat], list[tuple[str, Key, str]]]
"""``_Renderer._plan``: a container's template, its members' seats, its missing members."""
Plans = dict[Any, Plan]
"""The plans of the containers at one path, by their keys (an object) or size (an array)."""
Layout = tuple[
    dict[Key, list[int]],
    frozenset[Key],
    dict[Key, dict[Segment, list[int]]],
    dict[Key, set[Segment]],
    dict[Key, Plans],
]


def _layout(paths: tuple[str, ...]) -> Layout:
    """Where the issues of these paths sit, remembered per set of paths (a function's failed
    calls repeat theirs) unless they are too long to keep (the model writes them): the
    issues at each path (by index); every path with an issue at or under it; the last
    segments of the issue paths by parent, in error order, each with its issues (so a
    container's loop finds a member's issues without making its path); the members of
    each path with an issue at or under them; the plans of the containers at each path
    (``_Renderer._plan``), filled as they are met. Only read by the renderer."""
    at: dict[Key, list[int]] = {}
    hot: set[Key] = set()
    children: dict[Key, dict[Segment, list[int]]] = {}
    below: dict[Key, set[Segment]] = {}
    for index, text in enumerate(paths):
        path = parse_path(text)
        if path is None:
            continue
        indices = at.setdefault(path, [])
        indices.append(index)
        hot.update(path[:length] for length in range(len(path) + 1))
        for length in range(len(path)):
            below.setdefault(path[:length], set()).add(path[length])
        if path:
            children.setdefault(path[:-1], {})[path[-1]] = indices
    layout: Layout = at, frozenset(hot), children, below, {}
    if sum(map(len, paths)) <= _MAX_LAYOUT:
        if len(_LAYOUTS) >= _MAX_LAYOUTS:
            _LAYOUTS.clear()
        _LAYOUTS[paths] = layout
    return layout


_PATH: Final = operator.attrgetter("_path")
_LEAVES: Final = frozenset({str, int, float, bool, type(None)})
"""Types never shown as containers: tested by identity before the ``Mapping`` ABC."""
_NO_SEGMENTS: Final[frozenset[Segment]] = frozenset()
_NO_ISSUES: Final[dict[Segment, list[int]]] = {}
_PADS: Final = tuple("  " * level for level in range(MAX_SHOWN_DEPTH + 2))
"""The indentation of each level a value can be written at."""
_MAX_TEMPLATES: Final = 1024
_MAX_PLANS: Final = 64
_OBJECTS: Final[tuple[dict[tuple[Any, ...], str], ...]] = tuple({} for _ in range(MAX_SHOWN_DEPTH))
"""The template of each object shape met (``_object_template``), one dict a level: a
lookup hashes the keys alone, not a tuple made of them and the level."""


def _object_template(shape: tuple[Any, ...], level: int) -> str | None:
    """The text of a small object at ``level`` with a ``%s`` for each member's value, by
    its keys, remembered: a function's calls write the same few shapes, and filling a
    template costs less than joining its lines. None for keys that are not all short
    strings (a key ``1`` equals ``True`` but reads otherwise; a long key is not kept)."""
    if not all(type(key) is str and len(key) <= MAX_STRING for key in shape):
        return None
    inner, pad = _PADS[level + 1], _PADS[level]
    heads = [head_of(key).replace("%", "%%") + "%s" for key in shape]
    template = f"{{\n{inner}" + f",\n{inner}".join(heads) + f"\n{pad}}}"
    if sum(map(len, _OBJECTS)) >= _MAX_TEMPLATES:  # bounded: keys come from the model
        for kept in _OBJECTS:
            kept.clear()
    _OBJECTS[level][shape] = template
    return template


def _array_template(size: int, level: int) -> str:
    """``_object_template`` of an array of ``size`` items: made for every size a small
    array can have at every level, so an array's is found by two indexes."""
    inner, pad = _PADS[level + 1], _PADS[level]
    return f"[\n{inner}" + f",\n{inner}".join(["%s"] * size) + f"\n{pad}]"


_ARRAYS: Final = tuple(
    tuple(_array_template(size, level) for size in range(_LONG_ARRAY + 1))
    for level in range(MAX_SHOWN_DEPTH)
)
