"""Function names: @samchon/openapi's accessor rule, made unique and short enough.

The accessor of an operation is its namespace (the static path segments, each made an
identifier: ``.`` and ``-`` become ``_``, a JavaScript reserved word or a leading digit
gets a ``_`` in front, as the reference does) followed by its alias: the method
(``delete`` becomes ``erase``), then ``By`` and the path parameters' keys, each with a
capital first letter, joined by ``And``. ``GET /shoppings/sellers/sales/{saleId}/reviews/{id}``
is ``shoppings_sellers_sales_reviews_getBySaleIdAndId``. As in the reference:

- an alias equal to a sibling alias or to a deeper namespace's segment gets ``_`` in front
  (``GET /users`` beside ``GET /users/get``);
- an operation's ``x-samchon-accessor`` is used when no other operation declares the same;
- an accessor that is a prefix of another one pushes a ``_`` onto that one's segment.

Then the name is the accessor joined by ``_``, every character outside ``[A-Za-z0-9_-]``
replaced by ``_``. Names still equal get ``_2``, ``_3``... in document order. A name
over ``max_name_length`` is replaced by the longest tail of its accessor that fits and is free
(dropping leading segments), else by its first characters and a hash of the whole name:
never a random id, so the names are the same on every run.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = ["Naming", "assign_names", "identifier_key"]

_RESERVED = frozenset(
    (
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "enum",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "import",
        "in",
        "instanceof",
        "module",
        "new",
        "null",
        "package",
        "public",
        "private",
        "protected",
        "return",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "with",
    )
)
_NOT_NAME = re.compile(r"[^A-Za-z0-9_-]")
_NOT_IDENTIFIER = re.compile(r"[^A-Za-z0-9_]")
_TEMPLATE = re.compile(r"\{[^}]*\}")


@dataclass
class Naming:
    """What naming needs of one operation."""

    method: str
    path: str
    keys: Sequence[str]
    predefined: Sequence[str] | None = None
    operation_id: str | None = None
    accessor: list[str] = field(default_factory=list)


def identifier_key(name: str) -> str:
    """An argument key for a path parameter name, as the reference normalises it."""
    key = _NOT_IDENTIFIER.sub("_", _normalise(name))
    return key if key and not key[0].isdigit() else "_" + key


def _normalise(segment: str) -> str:
    text = segment.replace(".", "_").replace("-", "_").strip()
    if text in _RESERVED or (text and text[0].isdigit()):
        return "_" + text
    return text


def _namespace(path: str) -> list[str]:
    found = []
    for segment in path.split("/"):
        static = _TEMPLATE.sub("", segment) if "{" in segment else segment
        if static.strip():
            found.append(_NOT_IDENTIFIER.sub("_", _normalise(static)))
    return found


def _alias(naming: Naming) -> str:
    method = "erase" if naming.method == "delete" else naming.method
    if not naming.keys:
        return method
    return method + "By" + "And".join(key[:1].upper() + key[1:] for key in naming.keys)


class _Element:
    __slots__ = ("children", "entries")

    def __init__(self) -> None:
        self.children: set[str] = set()
        self.entries: list[tuple[Naming, str]] = []


def _accessors(namings: Sequence[Naming]) -> None:
    predefined: dict[tuple[str, ...], int] = {}
    for naming in namings:
        if naming.predefined:
            key = tuple(naming.predefined)
            predefined[key] = predefined.get(key, 0) + 1
    elements: dict[tuple[str, ...], _Element] = {}
    for naming in namings:
        namespace = tuple(_namespace(naming.path))
        elements.setdefault(namespace, _Element()).entries.append((naming, _alias(naming)))
        for end in range(1, len(namespace)):
            elements.setdefault(namespace[:end], _Element()).children.add(namespace[-1])
        if namespace:
            elements.setdefault((), _Element()).children.add(namespace[0])
    for namespace, element in elements.items():
        aliases = [alias for _, alias in element.entries]
        # Taken: the children and every other entry's alias as it stands (counted, so
        # a namespace of many entries costs no set rebuilt per entry).
        children = {_normalise(c) for c in element.children}
        others = Counter(_normalise(a) for a in aliases)
        for index, (naming, _) in enumerate(element.entries):
            alias = _normalise(aliases[index])
            others[alias] -= 1
            while alias in children or others[alias] > 0:
                alias = "_" + alias
            aliases[index] = alias
            others[alias] += 1
            declared = tuple(naming.predefined or ())
            if declared and predefined.get(declared) == 1:
                naming.accessor = [str(part) for part in declared]
            else:
                naming.accessor = [*namespace, alias]
    # An accessor that is a whole other accessor's prefix would make one name both a
    # function and a namespace in the reference's SDK; its segment there gets a "_".
    whole = Counter(tuple(naming.accessor) for naming in namings)
    for naming in namings:
        at = _prefix_end(naming.accessor, whole)
        while at is not None:
            whole[tuple(naming.accessor)] -= 1
            naming.accessor[at] = "_" + naming.accessor[at]
            whole[tuple(naming.accessor)] += 1
            at = _prefix_end(naming.accessor, whole)


def _prefix_end(accessor: list[str], whole: Counter[tuple[str, ...]]) -> int | None:
    """The last index of the shortest other accessor that begins ``accessor``, or None."""
    for end in range(1, len(accessor)):
        if whole[tuple(accessor[:end])] > 0:
            return end - 1
    return None


def _clean(name: str) -> str:
    name = _NOT_NAME.sub("_", name)
    return name if name and not name[0].isdigit() and name[0] != "-" else "_" + name


def assign_names(namings: Sequence[Naming], max_length: int, operation_id: bool) -> list[str]:
    """A unique name of at most ``max_length`` characters for each operation, in order."""
    _accessors(namings)
    names: list[str] = []
    taken: set[str] = set()
    counters: dict[str, int] = {}
    for naming in namings:
        if operation_id and naming.operation_id:
            base = _clean(naming.operation_id)
        else:
            base = _clean("_".join(naming.accessor))
        name = _fresh(base, taken, counters)
        taken.add(name)
        names.append(name)
    for index, naming in enumerate(namings):
        if len(names[index]) > max_length:
            taken.discard(names[index])
            names[index] = _shorten(names[index], naming.accessor, max_length, taken)
            taken.add(names[index])
    return names


def _fresh(base: str, taken: set[str], counters: dict[str, int]) -> str:
    """``fresh_name(base, taken)``, going on from the last suffix ``base`` was given: names
    are only added to ``taken`` meanwhile, so the ones skipped then are still taken, and
    many operations of one name cost one step each, not one per name before them."""
    counter = counters.get(base, 1)
    name = base if counter == 1 else f"{base}_{counter}"
    while name in taken:
        counter += 1
        name = f"{base}_{counter}"
    counters[base] = counter
    return name


def _shorten(name: str, accessor: Sequence[str], max_length: int, taken: set[str]) -> str:
    for start in range(1, len(accessor)):
        tail = _clean("_".join(accessor[start:]))
        if len(tail) <= max_length and tail not in taken:
            return tail
    counter = 0
    while True:
        digest = hashlib.sha1(f"{name}#{counter}".encode()).hexdigest()[:8]
        short = name[: max(max_length - 9, 1)] + "_" + digest
        if short not in taken:
            return short
        counter += 1
