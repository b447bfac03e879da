"""Conservative, schema-driven repair of parsed arguments before validation.

A repair is made only where the schema makes it unambiguous, and only to a value that the
schema could not accept as it is:

- a string where the schema accepts no string at all (no ``type: string`` in any branch, not an
  unconstrained ``{}``) may become: an ``integer`` (``"3"``, ``"-3"``, ``"3.0"``), a ``number``
  (a JSON number literal such as ``"3"``, ``"2.5"``, ``"1e3"``), a ``boolean`` (``"true"``/
  ``"false"``, any case), ``null`` (``"null"``, any case, only where the schema accepts null),
  or an object/array (the string holds JSON, read strictly, also when stringified twice,
  and not when an object in it writes a key twice: the validator refuses the string);
  surrounding whitespace is ignored. A string that converts to nothing the schema accepts
  stays as it is, so the validator reports it.
- a string that is exactly the name of one enum member (``x-enum-varnames``, read by
  ``llmapp.jsonschema.enum_names``: ``"HIGH"`` for ``3``) becomes its value, where the schema
  refuses the string itself; a name that is also a string value there, names two values
  (across a union's branches) or reads as a number other than its own value stays, and so
  does any other spelling (no case folding, no trimming).
- a ``null`` for an optional declared property whose schema accepts no null is dropped: the
  model meant "not given" (OpenAI's strict mode makes every optional property nullable), so
  the default applies.
- numbers, booleans and null are never changed (``3.0`` stays ``3.0``: JSON Schema counts it
  as an integer); nothing is ever turned into a string.
- unions (``anyOf``/``oneOf``) are entered only when one branch is chosen: by ``discriminator``
  (OpenAPI, with or without ``mapping``) or ``x-discriminator``, or by a property every branch
  pins to its own values (``kind: Literal["cat"]``); else by being the only branch
  whose type accepts the value; else, for objects, by being the only branch whose ``const``/
  ``enum`` properties agree with the value (Python's tagged unions). A string is converted for
  a union as for a single schema, with the union's types taken together.

``$ref`` is followed as the validator follows it (``llmapp.jsonschema.Resolver``: JSON
pointers into the root schema such as ``#/$defs/X``, ``#/definitions/X``,
``#/components/schemas/X``, ``$anchor`` and ``$id`` URIs; relative references are read
against the root's ``$id``); ``allOf`` members are merged; type arrays and OpenAPI
``nullable`` are honoured. Types, the JSON type of a value and discriminators are read
with ``llmapp.jsonschema`` (``declared_types``, ``json_type``, ``discriminator``).
The input is never mutated: dicts and lists are rebuilt, other values are shared. Cycles
in the input are returned as they are; below ``MAX_COERCE_DEPTH`` nested containers the
rest is returned unchanged. ``coerce`` never raises.

What depends on the schema alone (its ``$ref`` index, each subschema's types) is read once
per schema (``repair._index``) and kept with it: ``coercer(schema)`` is remembered by the
schema's identity, so a schema must not be changed in place once data was repaired against
it (pass a new dict). ``Coercion.checked`` is the call step's ``check(coerce(data))``
doing only the work a call needs: it validates first and repairs only what was refused.
"""

from __future__ import annotations

import operator
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Literal, NamedTuple

from llmapp._limits import MAX_COERCE_DEPTH
from llmapp._results import Validation, ValidationFailure, ValidationIssue
from llmapp._sentinels import MISSING
from llmapp.jsonschema import REMEMBERED_PATH, Segment, parse_path
from llmapp.repair._index import ANY, Kinds, SchemaIndex, value_accepted
from llmapp.repair._parse import strict_json

__all__ = ["Coercion", "coerce", "coercer"]

_CACHE_SIZE: Final = 512
_CONTAINER_KEYS: Final = (
    "properties",
    "patternProperties",
    "additionalProperties",
    "items",
    "prefixItems",
    "additionalItems",
)
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.0+)?")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")

Key = tuple[Segment, ...]

_KEPT: Final = frozenset({int, float, bool, type(None)})
"""JSON's numbers, booleans and null: never changed, by their exact type (no ABC check)."""
_CONTAINER_KIND: Final = {list: "array", dict: "object"}
_NULL_ONLY: Final = frozenset({"null"})

_UNCHANGED: Final = MISSING
"""No conversion applies (``None`` is a conversion result)."""


def coerce(data: Any, schema: Mapping[str, Any]) -> Any:
    """Return a repaired copy of ``data`` where ``schema`` makes a repair unambiguous.

    Args:
        data: parsed JSON arguments (typically ``parse(text).data``).
        schema: the JSON schema the data should match; ``$ref`` resolves against it.
            What it says is read once and remembered with it (``coercer``).

    Returns:
        A copy of ``data`` with unambiguous repairs made; ``data`` itself is never mutated.
        Never raises.

    Example:
        >>> coerce({"n": "3", "tags": '["a"]'}, {"type": "object", "properties": {
        ...     "n": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}}})
        {'n': 3, 'tags': ['a']}
    """
    return coercer(schema)(data)


_cache: OrderedDict[int, Coercion] = OrderedDict()
_cache_lock = threading.Lock()


def coercer(schema: Any) -> Coercion:
    """The ``Coercion`` of a schema, remembered by the schema's identity (the last 512 made)."""
    key = id(schema)
    found = _cache.get(key)  # read without the lock: one dict lookup is atomic
    if found is not None and found.schema is schema:
        return found
    made = Coercion(schema)
    with _cache_lock:
        _cache[key] = made  # holds the schema: its id is not reused while it is here
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return made


def _remember(cache: dict[Any, Any], path: Key, key: Any, value: Any) -> None:
    """Keep ``value`` under ``key``, what the schema says along ``path``: at most
    ``_CACHE_SIZE * 8`` entries (paths come from the model), and none for a path of long
    keys (the model's long keys are not kept alive)."""
    if sum(len(segment) for segment in path if type(segment) is str) > REMEMBERED_PATH:
        return
    if len(cache) >= _CACHE_SIZE * 8:
        cache.clear()
    cache[key] = value


class Coercion:
    """The repairs one schema allows, prepared once and used for every call.

    Attributes:
        schema: the schema repaired against.
    """

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        self._index = SchemaIndex(schema)
        # an issue's path read, and what it leads to, by its text (``_walked``)
        self._ends: dict[str, tuple[Key, End | None]] = {}
        # ... and past unions a declared discriminator decides, by path and the branches taken
        self._tagged: dict[tuple[Key, tuple[int, ...]], End | None] = {}
        self._onlies: dict[tuple[int, str], Mapping[str, Any] | None] = {}  # ``_only_branch``
        self._unions: dict[tuple[Key, tuple[int, ...]], UnionAt | None] = {}  # ``_next_union``
        self._firsts: dict[Key, FirstUnion | None] = {}  # ``_first_union``
        self._exact = False  # ``exact_when_valid`` once it holds (every checked call asks)

    def __call__(self, data: Any) -> Any:
        """A repaired copy of ``data`` (``coerce``); never raises."""
        try:
            with self._index.lock:
                return _Walk(self._index).value(data, self.schema, 0)
        except Exception:  # a hostile value or schema (items() that raises, a nesting past
            return data  # the stack): repairing is optional, and the validator reports it

    def exact_when_valid(self) -> bool:
        """Whether every value the schema's validator accepts is left exactly as it is, so
        a value checked valid needs no repair walk (``SchemaIndex.exact_when_valid``)."""
        return self._exact or self._exact_now()

    def _exact_now(self) -> bool:
        exact = self._exact = self._index.exact_when_valid()  # decided once
        return exact

    def drops_null(self, schema: Any, key: str) -> bool:
        """Whether a null for ``key`` of an object against ``schema`` (a subschema of this
        one) is dropped as "not given": an optional declared property that cannot be null.
        Elsewhere a null stays, and the validator judges it."""
        index = self._index
        with index.lock:
            resolved = index.resolve(schema)
            required = resolved.get("required")
            if isinstance(required, list) and key in required:
                return False
            return index.null_means_absent(resolved, key, index.property_schema(resolved, key))

    def repair(self, data: Any, issues: Sequence[ValidationIssue]) -> Any:
        """What ``coerce`` makes of data the validator refused with ``issues``.

        Only the containers on the way to an issue are walked, and each value with an
        issue (or a union on that way) is repaired whole: elsewhere the data is valid,
        and coerce leaves valid values alone where ``exact_when_valid`` holds. Returns
        ``data`` itself when nothing was repaired. Never raises.
        """
        walked = self._walked(data, issues)
        if walked is None:  # a place that cannot be found: repair everything
            return self(data)
        if not walked:
            return data
        at: set[Key] = set()
        children: dict[Key, dict[Segment, None]] = {}  # the members on the way, in order
        for path in walked:
            at.add(path)
            for length in range(len(path)):
                children.setdefault(path[:length], {})[path[length]] = None
        try:
            with self._index.lock:
                return _Walk(self._index, children, at).hot(data, self.schema, 0, ())
        except Exception:
            return data

    def _walked(self, data: Any, issues: Sequence[ValidationIssue]) -> list[Key] | None:
        """The paths of the issues ``repair`` must walk to, in order: the others' repair
        provably leaves the data as it is (``_unchanged``), so a walk along them would
        only read. None when an issue's path cannot be found."""
        walked: list[Key] = []
        whole: bool | None = None  # no issue says the walk was cut short (read once)
        for issue in issues:
            text = issue._path  # the slot, not the property (``llmapp._results``)
            try:  # by the text: no path read, no tuple hashed, when met before
                path, end = self._ends[text]
            except KeyError:
                found = parse_path(text)
                if found is None:
                    return None
                path, end = found, self._end(found)
                _remember(self._ends, path, text, (path, end))
            if end is None:
                end = self._tagged_end(data, path)
            if end is None:
                if not self._unchosen(data, path):
                    walked.append(path)
                continue
            # Any value kept there (``End.settled``), or none there (a key left out): what
            # ``_unchanged`` answers without the data, so no walk to it.
            kept = end.settled or issue._value is MISSING
            if kept and not end.through:
                continue
            if (end.through or end.shaped or end.union) and whole is None:
                whole = all(issue._description is None for issue in issues)
            if kept and whole:
                continue
            if not self._unchanged(data, path, end, bool(whole)):
                walked.append(path)
        return walked

    def _unchanged(self, data: Any, path: Key, end: End, whole: bool) -> bool:
        """Whether ``repair`` leaves the data as it is along one issue's path, known
        without its walk (``whole``: no issue says the validator's walk was cut short).

        True when the path runs through plain dicts and lists, past no union (``_end``,
        read once per path), to nothing, a number or boolean (never changed), a null its
        key keeps, a string where its schema accepts strings or that reads as nothing the
        schema there takes (``_kept_text``: no walk to try it), or a dict or list where its
        schema is no union (or a union that takes it by one branch, or by none:
        ``_entered_by_none``): the only values ``repair`` may change are at the issues, and none
        of these changes.

        ``repair`` walks such a container's members. Where the schema says nothing of
        members (a dict where a string is), each is walked against any schema, which
        changes nothing. Where it does and takes the container, it changes only a member
        the validator refuses, whose issue is then in the list too (and walked to, where
        its own repair may change it): the validator reports every member it refuses
        (``checked``'s check), unless an issue says its walk was cut short or bounded
        (such an issue carries a description, so a list that holds one walks the
        containers). So too for an optional container (``X | None``) on an issue's way,
        which ``repair`` walks whole: its other members are valid.
        """
        if end.through and not whole:  # an optional container on the way is walked whole
            return False
        node = data
        for segment in path:
            if type(segment) is int:
                if type(node) is not list:
                    return False
                if not 0 <= segment < len(node):
                    node = MISSING  # no value there: nothing repaired under it
                    break
            elif type(node) is not dict:
                return False
            elif segment not in node:
                node = MISSING
                break
            node = node[segment]
        kind = type(node)
        if node is MISSING or kind is int or kind is float or kind is bool:
            return True
        if node is None:
            return not end.drops_null
        if kind is list or kind is dict:
            kinds, shaped = end.kinds, end.shaped
            if end.union:  # repaired whole as its one branch (``_only_branch``), if any
                taken = end.optional.get(kind)
                if taken is None:
                    return self._entered_by_none(node, end)
                kinds, shaped = taken
            if shaped:
                return (kinds is None or _CONTAINER_KIND[kind] in kinds) and whole
            return True
        if kind is not str or node in end.names:
            return False
        kinds = end.kinds
        return kinds is None or "string" in kinds or _kept_text(node, kinds)

    def _entered_by_none(self, node: Any, end: End) -> bool:
        """Whether the union at an issue's end holds a dict or list (``node``) that
        ``repair`` can enter by no branch: it then walks its members against any schema,
        which changes nothing (``_unchosen``). Past the optional containers on the way
        (``End.through``), which ``repair`` walks whole, this union is the one that decides:
        their other members are valid."""
        if end.shaped:  # its own members are repaired first
            return False
        index, schema = self._index, end.schema
        try:
            with index.lock:
                branches = index.branches(schema)
                return branches is not None and index.choose(node, schema, branches) is None
        except Exception:  # a hostile value or schema: the walk decides, as before
            return False

    def _unchosen(self, data: Any, path: Key) -> bool:
        """Whether the first union on ``path`` (or at its end) holds, in ``data``, a dict
        or list that ``repair`` can enter by no branch (``SchemaIndex.choose``): it then
        walks that container's members against any schema (``_Walk._container``), which
        changes nothing, whatever the issue under it. Where that union sits is read from
        the schema once per path (``_first_union``); the data is read here, every call."""
        index = self._index
        try:
            with index.lock:
                union = self._firsts.get(path, MISSING)
                if union is MISSING:
                    union = self._first_union(path)
                if union is None:
                    return False
                position, resolved, branches = union
                node = data
                for segment in path[:position]:
                    if type(segment) is int:
                        if type(node) is not list or not 0 <= segment < len(node):
                            return False
                    elif type(node) is not dict or segment not in node:
                        return False
                    node = node[segment]
                if type(node) is not dict and type(node) is not list:
                    return False
                return index.choose(node, resolved, branches) is None
        except Exception:  # a hostile value or schema: the walk decides, as before
            return False

    def _first_union(self, path: Key) -> FirstUnion | None:
        """Where the first union on ``path`` (or at its end) sits, for ``_unchosen``: its
        position in the path, its schema resolved and its branches; None when there is
        none, or when it has members of its own (repaired first: ``_unchosen`` is then
        False whatever the data). Remembered, as ``_end`` is."""
        index, sub = self._index, self.schema
        found: FirstUnion | None = None
        for position, segment in enumerate((*path, None)):
            resolved = index.resolve(sub)
            branches = index.branches(resolved)
            if branches is not None:
                if not any(keyword in resolved for keyword in _CONTAINER_KEYS):
                    found = (position, resolved, branches)
                break
            if segment is None:  # the end, and no union on the way
                break
            if type(segment) is int:
                sub = index.item_schema(resolved, segment)
            else:
                sub = index.property_schema(resolved, segment)
        _remember(self._firsts, path, path, found)
        return found

    def _tagged_end(self, data: Any, path: Key) -> End | None:
        """``_end`` of a path with unions on the way that are no optional container, where
        in ``data`` a declared discriminator names the branch of each (``_choices``): the
        validator walked that branch, ``repair`` walks the union's value whole as that
        branch, so it is judged as an optional container on the way is (``End.through``).
        None when a union names no branch so."""
        choices = self._choices(data, path)
        if choices is None:
            return None
        try:
            return self._tagged[path, choices]
        except KeyError:
            return self._end(path, choices)

    def _choices(self, data: Any, path: Key) -> tuple[int, ...] | None:
        """The branch each union on ``path`` that is no optional container takes for
        ``data`` (``SchemaIndex.declared_choice``), in order; None where one is not so
        named, or the path leaves the data before it. Where each union sits is read from
        the schema once per path and branches taken (``_next_union``); the data is read
        here, every call."""
        if len(path) > MAX_COERCE_DEPTH:
            return None
        index, node, at = self._index, data, 0
        choices: tuple[int, ...] = ()
        try:
            with index.lock:
                while True:
                    union = self._unions.get((path, choices), MISSING)
                    if union is MISSING:
                        union = self._next_union(path, choices)
                    if union is None:
                        return choices or None
                    if union is False:
                        return None
                    position, schema, branches = union
                    for segment in path[at:position]:
                        if type(segment) is int:
                            if type(node) is not list or not 0 <= segment < len(node):
                                return None
                        elif type(node) is not dict or segment not in node:
                            return None
                        node = node[segment]
                    at = position
                    choice = index.declared_choice(node, schema, branches)
                    if choice is None:
                        return None
                    choices = (*choices, choice)
        except Exception:  # a hostile value or schema: the walk decides, as before
            return None

    def _next_union(self, path: Key, choices: tuple[int, ...]) -> UnionAt | None:
        """Where, past the branches ``choices`` takes, the next union on ``path`` that is
        no optional container sits (``_end``'s way): its position, schema and branches;
        None when there is none, False when a branch taken cannot be walked alone
        (``_chosen``). Remembered, as ``_end`` is."""
        index = self._index
        resolved = index.resolve(self.schema)
        named = iter(choices)
        found: UnionAt | None = None
        for position, segment in enumerate(path):
            branches = index.branches(resolved)
            if branches is not None:
                kind = "array" if type(segment) is int else "object"
                only = self._only_branch(resolved, branches, kind)
                if only is None:
                    choice = next(named, None)
                    if choice is None:
                        found = (position, resolved, branches)
                        break
                    only = self._chosen(resolved, branches, choice)
                    if only is None:
                        found = False
                        break
                resolved = only
            if type(segment) is int:
                resolved = index.resolve(index.item_schema(resolved, segment))
            else:
                resolved = index.resolve(index.property_schema(resolved, segment))
        _remember(self._unions, path, (path, choices), found)
        return found

    def _chosen(
        self, schema: Mapping[str, Any], branches: list[Any], choice: int | None
    ) -> Mapping[str, Any] | None:
        """The branch ``choice`` of a union, resolved, where ``repair`` walks the union's
        value as that branch alone: the union has no members of its own to repair first,
        and the branch is no union itself."""
        if choice is None or any(keyword in schema for keyword in _CONTAINER_KEYS):
            return None
        branch = self._index.resolve(branches[choice])
        return None if self._index.branches(branch) is not None else branch

    def _end(self, path: Key, choices: tuple[int, ...] | None = None) -> End | None:
        """What the schema says at the end of ``path``, followed as ``repair`` follows it;
        None when a union is on the way (``repair`` may take the branch whole), unless it
        is an optional container (``_only_branch``), which ``repair`` walks whole, or
        ``choices`` names its branch (``_tagged_end``). Remembered by ``_walked`` under the
        issue's path text, or here in ``_tagged`` by the path and the branches taken."""
        index = self._index
        if len(path) > MAX_COERCE_DEPTH:
            return None
        named = iter(choices or ())
        with index.lock:
            resolved = index.resolve(self.schema)
            parent: Mapping[str, Any] | None = None
            sub: Any = self.schema
            through = False
            for segment in path:
                branches = index.branches(resolved)
                if branches is not None:
                    kind = "array" if type(segment) is int else "object"
                    only = self._only_branch(resolved, branches, kind)
                    if only is None and choices is not None:
                        only = self._chosen(resolved, branches, next(named, None))
                    if only is None:
                        end = None
                        break
                    resolved, through = only, True
                parent = resolved
                if type(segment) is int:
                    sub = index.item_schema(resolved, segment)
                else:
                    sub = index.property_schema(resolved, segment)
                resolved = index.resolve(sub)
            else:
                key = path[-1] if path else None
                drops = False
                if parent is not None and type(key) is str:
                    required = parent.get("required")
                    needed = required if isinstance(required, list) else ()
                    drops = key not in needed and index.null_means_absent(parent, key, sub)
                names = index.resolved_names(resolved)
                branches = index.branches(resolved)
                shaped = any(keyword in resolved for keyword in _CONTAINER_KEYS)
                optional: dict[type, tuple[Kinds | None, bool]] = {}
                for container, kind in ((list, "array"), (dict, "object")):
                    only = None if branches is None else self._only_branch(resolved, branches, kind)
                    if only is not None:
                        taken = any(keyword in only for keyword in _CONTAINER_KEYS)
                        optional[container] = (index.kinds(only), taken)
                union = branches is not None
                kinds = index.kinds(resolved)
                # a union there settles too where it enters no container by any branch
                entered = union and (bool(optional) or _enters(index, resolved, branches))
                settled = not (drops or names or entered or shaped) and (
                    kinds is None or "string" in kinds
                )
                end = End(kinds, drops, names, union, shaped, through, optional, resolved, settled)
        if choices is not None:
            _remember(self._tagged, path, (path, choices), end)
        return end

    def _only_branch(
        self, schema: Mapping[str, Any], branches: list[Any], kind: str
    ) -> Mapping[str, Any] | None:
        """The branch ``repair`` takes for a container of ``kind`` in an optional union
        (``X | None``: every other branch takes null alone), resolved; else None.
        Remembered by the union's identity (a subschema of the root, kept alive by it):
        ``_choices`` asks at each union on an issue's way, every call."""
        key = (id(schema), kind)
        try:
            return self._onlies[key]
        except KeyError:
            found = self._onlies[key] = self._find_only_branch(schema, branches, kind)
            return found

    def _find_only_branch(
        self, schema: Mapping[str, Any], branches: list[Any], kind: str
    ) -> Mapping[str, Any] | None:
        index = self._index
        if any(keyword in schema for keyword in _CONTAINER_KEYS):
            return None  # the union's own members are repaired first
        found = None
        for branch in branches:
            kinds = index.kinds(branch)
            if kinds == _NULL_ONLY:
                continue
            if found is not None or kinds is None or kind not in kinds:
                return None
            found = index.resolve(branch)
        if found is None or index.branches(found) is not None:
            return None
        return found

    def checked(
        self, data: Any, check: Callable[[Any], Validation], first: Validation | None = None
    ) -> Validation:
        """``check(coerce(data))``, the same result, doing only the work it needs.

        Valid data is checked once and not walked (``coerce`` would leave it as it is);
        refused data is repaired only along the issues, and checked again only when a
        repair was made. Where the schema has a union that ``coerce`` may enter by a
        branch the value was not valid under, it repairs first and checks once, as
        ``coerce`` then ``check``.

        ``check`` is llmapp's validator of ``schema`` (``validate.validator``), or one that,
        as it does, reports every member it refuses: what it did not name is taken as valid,
        so a container whose repair could change only valid members is not walked.
        ``first`` is ``check(data)`` when the caller has it already.
        """
        if not (self._exact or self._exact_now()):
            return check(self(data))
        if first is None:
            first = check(data)
        if not isinstance(first, ValidationFailure):
            return first
        repaired = self.repair(data, first._errors)
        return first if repaired is data else check(repaired)


FirstUnion = tuple[int, Mapping[str, Any], list[Any]]
"""Where the first union on an issue's path sits (``Coercion._first_union``): its position
in the path, its schema resolved and its branches."""
UnionAt = FirstUnion | Literal[False]
"""Where a union on an issue's way sits (``Coercion._next_union``): its position in the
path, its schema resolved and its branches; False where the way cannot be followed."""


class End(NamedTuple):
    """What the schema says where an issue's path ends (``Coercion._end``).

    Attributes:
        kinds: the JSON types accepted there (None: any).
        drops_null: a null there is dropped (an optional property that cannot be null).
        names: the enum members a string there names (``SchemaIndex.names``).
        union: the schema there is a union (``repair`` picks a branch for a container).
        shaped: the schema there says what a container's members are (``properties``,
            ``items``...): else they are repaired against any schema, so never changed.
        through: an optional container is on the way, which ``repair`` walks whole.
        optional: where the schema there is an optional container (``X | None``), what
            ``repair`` takes a list or a dict there as (``_only_branch``): its branch's
            ``kinds`` and ``shaped``, by the container's Python type.
        schema: the schema there, resolved (a union's branches are chosen from it).
        settled: ``_unchanged`` is true whatever the data holds there (past an optional
            container on the way, ``through``, when no issue cut its walk short): any value
            there is kept (a string where strings are taken, a null not dropped, a container
            whose members are repaired against any schema, no union there or one that
            enters no container by any branch: ``SchemaIndex.enters``; numbers and booleans
            never changed, nothing when missing). The way to an issue's path is the
            validator's own, through the containers it walked, so only the value at its
            end could change the answer.
    """

    kinds: Kinds | None
    drops_null: bool
    names: Mapping[str, Any]
    union: bool = False
    shaped: bool = True
    through: bool = False
    optional: Mapping[type, tuple[Kinds | None, bool]] = {}
    schema: Mapping[str, Any] = ANY
    settled: bool = False


def _enters(index: SchemaIndex, schema: Mapping[str, Any], branches: Any) -> bool:
    """Whether a union may enter a list or a dict by one of its branches (``repair``
    then walks that container as the branch: ``_entered_by_none`` reads the data)."""
    try:
        return index.enters(schema, branches, []) or index.enters(schema, branches, {})
    except Exception:  # a hostile schema: the data decides, as ``_entered_by_none`` does
        return True


def _from_string(text: str, kinds: Kinds) -> Any:
    """A scalar the string unambiguously stands for, among ``kinds``; else ``_UNCHANGED``."""
    word = text.strip()
    try:
        if "number" in kinds and _NUMBER.fullmatch(word):
            number: Any = int(word) if word.lstrip("-").isdigit() else float(word)
            if number == number and abs(number) != float("inf"):
                return number
        elif "integer" in kinds and _INTEGER.fullmatch(word):
            return int(word.split(".")[0])
    except ValueError:  # more digits than Python converts
        return _UNCHANGED
    lowered = word.lower()
    if "boolean" in kinds and lowered in ("true", "false"):
        return lowered == "true"
    if "null" in kinds and lowered == "null":
        return None
    return _UNCHANGED


def _kept_text(text: str, kinds: Kinds) -> bool:
    """Whether ``_Walk._string`` leaves ``text``, a string where ``kinds`` (no string among
    them) is, as it is, named no enum member: it reads as no scalar of ``kinds``, and holds
    no JSON container or string that could be read (the decoder skips JSON's whitespace,
    then needs one of these three to start such a value)."""
    if _from_string(text, kinds) is not _UNCHANGED:
        return False
    return not kinds & _CONTAINERS or text.lstrip(_JSON_BLANK)[:1] not in _OPENERS


_CONTAINERS: Final = frozenset({"object", "array"})
_JSON_BLANK: Final = " \t\n\r"
_OPENERS: Final = frozenset({"{", "[", '"'})


class _Walk:
    """One repair run over the data: the schema's answers come from its ``SchemaIndex``."""

    __slots__ = ("_active", "_at", "_children", "_index", "_keep")

    def __init__(
        self,
        index: SchemaIndex,
        children: dict[Key, dict[Segment, None]] | None = None,
        at: set[Key] | None = None,
    ) -> None:
        self._index = index
        self._active: set[int] = set()  # containers on the current path: a cycle stops there
        self._children = children or {}  # the members with an issue at or under them, by path
        self._at = at or set()  # every path with an issue
        # ``repair`` (a walk along issues) keeps a container nothing in was repaired, so
        # its caller knows by identity that the check it already has still holds.
        self._keep = children is not None

    def value(self, value: Any, schema: Any, depth: int) -> Any:
        if depth > MAX_COERCE_DEPTH or type(value) in _KEPT:
            return value
        resolved = self._index.resolve(schema)
        if isinstance(value, str):
            return self._string(value, resolved, depth)
        # ``type(...) is dict`` first here and below: the ABC check is slow, and small
        # arguments are mostly plain dicts and lists.
        if not (type(value) is dict or isinstance(value, (list, Mapping))):
            return value
        if id(value) in self._active:
            return value
        self._active.add(id(value))
        try:
            return self._container(value, resolved, depth)
        finally:
            self._active.discard(id(value))

    def hot(self, value: Any, schema: Any, depth: int, path: Key) -> Any:
        """``value``, for a value with an issue at or under ``path``: its valid members kept."""
        if path in self._at or not (type(value) is dict or isinstance(value, (list, Mapping))):
            return self.value(value, schema, depth)
        index = self._index
        resolved = index.resolve(schema)
        if (
            depth > MAX_COERCE_DEPTH
            or index.branches(resolved) is not None
            or id(value) in self._active
        ):
            return self.value(value, schema, depth)
        self._active.add(id(value))
        try:
            return self._hot_members(value, resolved, depth, path)
        finally:
            self._active.discard(id(value))

    def _hot_members(self, value: Any, schema: Mapping[str, Any], depth: int, path: Key) -> Any:
        index, segments = self._index, self._children.get(path, ())
        if isinstance(value, list):
            items = value
            for position in segments:
                if type(position) is not int or not 0 <= position < len(value):
                    continue
                item = value[position]
                child = (*path, position)
                new = self.hot(item, index.item_schema(schema, position), depth + 1, child)
                if new is not item:
                    items = list(value) if items is value else items
                    items[position] = new
            return items
        required = schema.get("required")
        needed = required if isinstance(required, list) else ()
        members = value
        for key in segments:
            if key not in value:
                continue
            item = value[key]
            sub = index.property_schema(schema, key)
            if item is None and key not in needed and index.null_means_absent(schema, key, sub):
                members = dict(value) if members is value else members
                del members[key]
                continue
            new = self.hot(item, sub, depth + 1, (*path, key))
            if new is not item:
                members = dict(value) if members is value else members
                members[key] = new
        return members

    def _container(self, value: Any, schema: Mapping[str, Any], depth: int) -> Any:
        branches = self._index.branches(schema)
        if branches is None:
            return self._members(value, schema, depth)
        own = any(key in schema for key in _CONTAINER_KEYS)
        base = self._members(value, schema, depth) if own else value
        branch = self._index.choose(base, schema, branches)
        # a branch counts as a level: cycles end
        if branch is not None and depth < MAX_COERCE_DEPTH:
            return self._container(base, self._index.resolve(branch), depth + 1)
        return base if own else self._members(value, ANY, depth)

    def _members(self, value: Any, schema: Mapping[str, Any], depth: int) -> Any:
        index = self._index
        if isinstance(value, list):
            items = [
                self.value(item, index.item_schema(schema, position), depth + 1)
                for position, item in enumerate(value)
            ]
            if self._keep and type(value) is list and all(map(operator.is_, items, value)):
                return value
            return items
        required = schema.get("required")
        needed = required if isinstance(required, list) else ()
        members = {}
        for key, item in value.items():
            sub = index.property_schema(schema, key)
            if item is None and key not in needed and index.null_means_absent(schema, key, sub):
                continue
            members[key] = self.value(item, sub, depth + 1)
        if (
            self._keep
            and type(value) is dict
            and len(members) == len(value)
            and all(map(operator.is_, members.values(), value.values()))
        ):
            return value
        return members

    def _string(self, text: str, schema: Mapping[str, Any], depth: int) -> Any:
        kinds = self._index.kinds(schema)
        named = self._index.resolved_names(schema).get(text, _UNCHANGED)
        if kinds is None or "string" in kinds:
            return text if named is _UNCHANGED else named
        converted = _from_string(text, kinds)
        if named is not _UNCHANGED:  # a name that also reads as a number: which is meant?
            return named if converted is _UNCHANGED or _same(converted, named) else text
        if converted is not _UNCHANGED:
            return converted
        if not kinds & _CONTAINERS:
            return text
        try:
            decoded = strict_json(text)
        except (ValueError, RecursionError):  # a key written twice too: read only in part
            return text
        if isinstance(decoded, str) or (
            isinstance(decoded, (list, dict)) and value_accepted(kinds, decoded)
        ):
            repaired = self.value(decoded, schema, depth + 1)
            return text if isinstance(repaired, str) else repaired
        return text


def _same(left: Any, right: Any) -> bool:
    return type(left) is type(right) and left == right
