"""Compiling generated source into code objects that share what validators repeat.

Every validator compiles code of its own, and an application of a thousand functions
keeps thousands of code objects alive. Each compile makes its own copy of every string
literal that is not an identifier, and the validators of one application repeat the
same paths and expected types (``'$input.name'``, ``'string'``): ``compiled`` interns
them, so one copy serves them all.

Validators of functions taking types of one shape (the same fields, other class names)
write the same source but for those names. ``compiled`` given the names compiles the
source with each name replaced by a stand-in of the same length (a template, compiled
once for all of them) and makes each validator's code from it, putting the names back
into the code's names, strings and function names: the line and column tables, the
exception tables and the local names are then one copy for all of them, and the
compile runs once.

The sets of names generated code tests against (property names, enum values) are
globals, not constants of the code; ``shared_names`` gives the validators of an
application one set of each.
"""

from __future__ import annotations

import hashlib
import keyword
import re
import sys
import threading
from collections import OrderedDict
from collections.abc import Iterable
from operator import is_, itemgetter
from types import CodeType
from typing import Any

__all__ = ["compiled", "shared_getter", "shared_names"]


def compiled(source: str, filename: str, names: Iterable[str] = ()) -> CodeType:
    """``compile(source, filename, "exec")``, the string constants of each code object
    interned.

    ``names`` (the generated functions' stems) may differ between sources that are
    otherwise the same: the code is then made from the template those sources share.
    """
    made = _stand_ins(source, names)
    if made is None:
        return _compact(compile(source, filename, "exec"))
    stand_ins, template = made
    key = hashlib.blake2b(template.encode(), digest_size=16).digest()
    with _lock:
        code = _TEMPLATES.get(key)
        if code is not None:
            _TEMPLATES.move_to_end(key)
        elif _first_time(key):  # kept from its second use on: most sources come once
            return _compact(compile(source, filename, "exec"))
    if code is None:
        try:
            code = _compact(compile(template, "<llmapp template>", "exec"))
        except SyntaxError:  # the source's own error is raised by compiling it
            code = _UNSHAREABLE
        if any(_named(code, stand_ins.values())):
            code = _UNSHAREABLE  # a local bears a name: each source compiles its own
        with _lock:
            _TEMPLATES[key] = code
            while len(_TEMPLATES) > _TEMPLATES_SIZE:
                _TEMPLATES.popitem(False)
    if code is _UNSHAREABLE:
        return _compact(compile(source, filename, "exec"))
    back = {stand_in: name for name, stand_in in stand_ins.items()}
    return _instance(code, filename, back)


def _first_time(key: bytes) -> bool:
    """Whether the template ``key`` is seen for the first time (noted now), in a bounded
    memory of the templates seen once."""
    if key in _ONCE:
        del _ONCE[key]
        return False
    _ONCE[key] = None
    while len(_ONCE) > _ONCE_SIZE:
        _ONCE.popitem(False)
    return True


def shared_names(names: frozenset[str]) -> frozenset[str]:
    """``names``, or an equal set that code generated earlier holds (a global of generated
    code is never changed): the validators of an application test keys and enum values
    against the same sets, each 200 B and more. Small sets only, at most
    ``_NAMES_SIZE`` of them remembered, so what stays once no validator holds them is
    bounded."""
    if len(names) > _NAMES_LONGEST:
        return names
    found = _NAMES.get(names)
    if found is None:
        if len(_NAMES) >= _NAMES_SIZE:
            _NAMES.clear()
        found = _NAMES[names] = names
    return found


def shared_getter(keys: tuple[str, ...]) -> itemgetter[Any]:
    """``itemgetter(*keys)``, or the one code generated earlier holds for the same keys
    (the validators of an application read the same properties), from a table bounded
    as ``shared_names``'s is."""
    found = _GETTERS.get(keys)
    if found is None:
        if len(_GETTERS) >= _NAMES_SIZE:
            _GETTERS.clear()
        found = _GETTERS[keys] = itemgetter(*keys)
    return found


_NAMES: dict[frozenset[str], frozenset[str]] = {}
_GETTERS: dict[tuple[str, ...], itemgetter[Any]] = {}
_NAMES_SIZE = 512
_NAMES_LONGEST = 32

_TEMPLATES: OrderedDict[bytes, CodeType] = OrderedDict()
"""Template code by a digest of the template's text, the most recently used last."""
_TEMPLATES_SIZE = 64
_ONCE: OrderedDict[bytes, None] = OrderedDict()
"""Templates seen once, by digest, the most recent last."""
_ONCE_SIZE = 256
_lock = threading.Lock()
_UNSHAREABLE = compile("", "<llmapp template>", "exec")
"""Noted for a template whose code cannot be made from it (the source is compiled)."""
_STAND_IN = "Z{}_"
_MARK = _STAND_IN[0]
"""Every stand-in's first letter: a text without it holds no stand-in."""
_WORD = re.compile(r"\w+", re.ASCII)
_KEYWORDS = frozenset((*keyword.kwlist, *keyword.softkwlist))
_NUMBER_LETTERS = frozenset("0123456789_abcdefABCDEFjJoOxX")


def _stand_ins(source: str, names: Iterable[str]) -> tuple[dict[str, str], str] | None:
    """A stand-in for each name, of its length in characters and in UTF-8 bytes (the
    column tables count bytes), found nowhere in the source; longest names first, so a
    name inside another is replaced after it (names of equal length in the order given:
    the order the generator named them in). A name too short for a stand-in stays in
    the template. With the template they make; None when nothing is replaced or the
    template cannot give the source back."""
    stand_ins: dict[str, str] = {}
    fixed: list[str] | None = None
    for name in sorted(dict.fromkeys(names), key=len, reverse=True):
        stand_in = _STAND_IN.format(len(stand_ins)).ljust(len(name), "_")
        if name.isascii() and name.isidentifier() and len(stand_in) == len(name):
            # A name inside a keyword or a number would change what the template's code
            # does (only a name of a number's letters, or a keyword's part, can be).
            if _NUMBER_LETTERS.issuperset(name) or any(name in word for word in _KEYWORDS):
                if fixed is None:
                    words = set(_WORD.findall(source))
                    fixed = [word for word in words if word in _KEYWORDS or word[0].isdigit()]
                if any(name in word for word in fixed):
                    continue
            if stand_in in source:
                return None
            stand_ins[name] = stand_in
    if not stand_ins:
        return None
    # Each stand-in must come back as the name it replaced, and only there.
    template = source
    for name, stand_in in stand_ins.items():
        template = template.replace(name, stand_in)
    restored = template
    for name, stand_in in stand_ins.items():
        restored = restored.replace(stand_in, name)
    return (stand_ins, template) if restored == source else None


def _named(code: CodeType, stand_ins: Iterable[str]) -> Iterable[bool]:
    """Whether any local name of ``code`` or of the code nested in it holds a stand-in
    (``CodeType.replace`` cannot give locals other names and keep the code valid)."""
    texts = tuple(stand_ins)
    for name in (*code.co_varnames, *code.co_cellvars, *code.co_freevars):
        yield any(text in name for text in texts)
    for value in code.co_consts:
        if isinstance(value, CodeType):
            yield from _named(value, texts)


def _instance(code: CodeType, filename: str, back: dict[str, str]) -> CodeType:
    """The template's ``code`` as compiled from the source with the names put back (the
    template's own tuples where nothing changed)."""
    changes: dict[str, Any] = {
        "co_filename": filename,
        "co_name": _restored(code.co_name, back),
        "co_names": _each(code.co_names, filename, back),
        "co_consts": _each(code.co_consts, filename, back),
    }
    qualname = getattr(code, "co_qualname", None)  # Python 3.11 on
    if qualname is not None:
        changes["co_qualname"] = _restored(qualname, back)
    return code.replace(**changes)


def _each(values: tuple[Any, ...], filename: str, back: dict[str, str]) -> tuple[Any, ...]:
    # A string without a stand-in's first letter holds none: the template's own (interned
    # by ``_compact``) serves. A validator's walkers compiled again once they went cold
    # (``Validator._cool``) are made here, so this runs on such a validator's refusals.
    made = tuple(
        value if type(value) is str and _MARK not in value else _constant(value, filename, back)
        for value in values
    )
    return values if all(map(is_, made, values)) else made


def _constant(value: Any, filename: str, back: dict[str, str]) -> Any:
    if isinstance(value, CodeType):
        return _instance(value, filename, back)
    if type(value) is str:
        return _restored(value, back)
    if type(value) is tuple:
        return _each(value, filename, back)
    if type(value) is frozenset:
        made = frozenset(_constant(item, filename, back) for item in value)
        return value if made == value else made
    return value


def _restored(text: str, back: dict[str, str]) -> str:
    if _MARK in text:
        for stand_in, name in back.items():
            if stand_in in text:
                text = text.replace(stand_in, name)
    return sys.intern(text)


def _compact(code: CodeType) -> CodeType:
    consts = tuple(
        _compact(value)
        if isinstance(value, CodeType)
        else sys.intern(value)
        if type(value) is str
        else value
        for value in code.co_consts
    )
    return code.replace(co_consts=consts)
