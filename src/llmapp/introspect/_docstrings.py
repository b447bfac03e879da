"""Docstrings: description, parameter texts and typia-style ``@tags``.

A docstring is read in two steps:

1. **Tags.** Lines of their own starting with a known ``@name`` are taken out
   of the text (with their more-indented continuation lines): typia's tags
   (``@tag NAME``, ``@deprecated [reason]``, ``@param NAME TEXT``,
   ``@returns TEXT``, ``@summary``, ``@title``, ``@hidden``, ``@internal``,
   ``@human``), llmapp's per-call controls (``@approval``: a human approves each call
   before it runs; ``@timeout SECONDS``), llmapp's overrides (``@name NAME``: the
   function's name as the model sees it; ``@description TEXT``: the model's
   description, in place of the text) and
   Epydoc's fields (``@param NAME: TEXT``, ``@return: TEXT``,
   ``@ivar NAME: TEXT``, ``@type ...``, ...). Both ``@param`` spellings give the
   same result. Unknown ``@words`` (a decorator in an example) stay text.
2. **Sections.** What is left is read by docstring-parser (Google, NumPy,
   reST): the styles whose section hints the text shows are tried, and the one
   that finds the most sections wins. Text with no section hint is split into
   summary and description here, so docstring-parser is imported only when a
   docstring has sections.

Parsing never raises: a docstring the parser rejects is read as plain text.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from functools import cache, lru_cache
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING

from llmapp._records.record import Record

if TYPE_CHECKING:
    import docstring_parser

__all__ = ["EMPTY_DOC", "DocInfo", "DocstringWarning", "parse_docstring"]

_NOTHING: Mapping[str, str] = MappingProxyType({})


class DocstringWarning(UserWarning):
    """A docstring says something that does not fit its function (never an error)."""


class DocInfo(Record):
    """What a docstring says, with every tag removed from the texts."""

    description: str | None = None
    """Summary + long description; no tags, no Args/Returns/Raises sections."""
    summary: str | None = None
    title: str | None = None
    name: str | None = None
    """``@name NAME``: the function's name as the model sees it, when not the method's."""
    params: Mapping[str, str] = _NOTHING
    """Parameter texts from Args/Parameters/:param:/@param NAME TEXT."""
    attributes: Mapping[str, str] = _NOTHING
    """Attribute texts (the Attributes section), for dataclass/TypedDict fields."""
    returns: str | None = None
    tags: tuple[str, ...] = ()
    deprecated: bool = False
    hidden: bool = False
    """``@hidden`` or ``@internal``: never a function."""
    human: bool = False
    deprecation: str | None = None
    """The reason given with ``@deprecated`` (or a ``.. deprecated::`` section)."""
    approval: bool = False
    """``@approval``: each call waits for a human's approval before it runs."""
    timeout: str | None = None
    """``@timeout SECONDS``: the text after the tag, read (and checked) by introspection."""


EMPTY_DOC = DocInfo()


def parse_docstring(doc: str | None) -> DocInfo:
    """Parse a docstring; never raises. Empty or ``None`` gives ``EMPTY_DOC``.

    Args:
        doc: the raw ``__doc__`` (indented or not).

    Returns:
        The description (summary + long description, sections and tags
        removed), parameter and attribute texts, and the tags.

    Example::

        info = parse_docstring('''Search.

        @tag catalog
        Args:
            query: Words to look for.
        ''')
        assert info.tags == ("catalog",) and info.params["query"] == "Words to look for."
    """
    if not doc or doc.isspace():
        return EMPTY_DOC
    return _parse_cached(doc)


_PARSED_SIZE = 512


# Enough for the docstrings of a class of a hundred methods and their types, built again
# and again; a class of a thousand reads more than any such cache holds (its readings come
# round in a cycle, so a least-recently-used cache of any smaller size gives it nothing),
# and each entry kept is a record of its own.
@lru_cache(maxsize=_PARSED_SIZE)
def _parse_cached(doc: str) -> DocInfo:
    tags = _NO_TAGS
    text = _clean(doc)
    if "@" in text:
        tags = _Tags()
        text = _normalize(_take_tags(text, tags))
    styles = _styles(text)
    if not styles and tags is _NO_TAGS:
        return _plain_info(text)
    try:
        body = _read_with_parsers(text, styles) if styles else _plain(text)
    except Exception:  # docstring-parser rejected it: the text is still a description
        body = _plain(text)
    return _combine(body, tags)


# --- step 1: tags -----------------------------------------------------------------------------

_PARAM_TAGS = frozenset({"param", "parameter", "arg", "argument", "keyword", "kwarg", "kwparam"})
_ATTRIBUTE_TAGS = frozenset({"ivar", "cvar", "var", "ivariable", "cvariable", "variable"})
_RETURN_TAGS = frozenset({"return", "returns"})
_FLAG_TAGS = frozenset({"hidden", "internal", "human", "approval"})
_TEXT_TAGS = frozenset({"summary", "title", "name", "description", "timeout"})
# Epydoc fields read only so that they do not leak into descriptions.
_DROPPED_TAGS = frozenset(
    {
        "type", "rtype", "returntype", "raise", "raises", "except", "exception", "see",
        "seealso", "note", "attention", "bug", "warning", "warn", "version", "todo",
        "since", "status", "change", "permission", "requires", "requirement",
        "precondition", "precond", "postcondition", "postcond", "invariant", "author",
        "organization", "org", "copyright", "license", "contact", "group", "sort",
        "newfield", "undocumented", "yield", "ytype",
    }
)  # fmt: skip
_KNOWN_TAGS = (
    _PARAM_TAGS
    | _ATTRIBUTE_TAGS
    | _RETURN_TAGS
    | _FLAG_TAGS
    | _TEXT_TAGS
    | _DROPPED_TAGS
    | {"tag", "deprecated"}
)
_TAG_LINE = re.compile(r"^(?P<indent>[ \t]*)@(?P<name>[a-z]+)(?=[\s:]|$)(?P<rest>.*)$")
# "@param NAME TEXT", "@param NAME: TEXT" (Epydoc), "@param {T} NAME - TEXT" (JSDoc).
_NAMED_TEXT = re.compile(
    r"^\s*(?:\{[^}]*\}\s*)?\[?\**(?P<name>[A-Za-z_][\w-]*)\]?\s*:?\s*(?:-\s+)?(?P<text>.*)$",
    re.S,
)


class _Tags:
    """What the tag lines of one docstring say, filled in as they are read."""

    def __init__(self) -> None:
        self.tags: list[str] = []
        self.params: dict[str, str] = {}
        self.attributes: dict[str, str] = {}
        self.returns: str | None = None
        self.summary: str | None = None
        self.title: str | None = None
        self.name: str | None = None
        self.description: str | None = None
        self.timeout: str | None = None
        self.deprecated = False
        self.deprecation: str | None = None
        self.flags: set[str] = set()


_NO_TAGS = _Tags()
"""What a docstring without a tag line says in tags (never filled in)."""


def _take_tags(text: str, tags: _Tags) -> str:
    """Remove tag lines (and their continuation lines) from ``text``, recording them."""
    lines = text.split("\n")
    kept: list[str] = []
    index = 0
    while index < len(lines):
        match = _TAG_LINE.match(lines[index])
        index += 1
        if match is None or match["name"] not in _KNOWN_TAGS:
            kept.append(lines[index - 1])
            continue
        depth = len(match["indent"].expandtabs())
        parts = [match["rest"].strip()]
        while index < len(lines) and _indent(lines[index]) > depth:
            parts.append(lines[index].strip())
            index += 1
        _record(match["name"], "\n".join(part for part in parts if part), tags)
    return "\n".join(kept)


def _indent(line: str) -> int:
    stripped = line.lstrip()
    return len(line.expandtabs()) - len(stripped) if stripped else -1


def _record(name: str, text: str, tags: _Tags) -> None:
    if name == "tag":
        tag = " ".join(text.split())
        if tag and tag not in tags.tags:
            tags.tags.append(tag)
    elif name == "deprecated":
        tags.deprecated = True
        tags.deprecation = _field_text(text) or tags.deprecation
    elif name in _PARAM_TAGS or name in _ATTRIBUTE_TAGS:
        named = _NAMED_TEXT.match(text)
        if named is not None and named["text"].strip():
            target = tags.params if name in _PARAM_TAGS else tags.attributes
            target[named["name"]] = named["text"].strip()
    elif name in _RETURN_TAGS:
        tags.returns = _field_text(text) or tags.returns
    elif name == "summary":
        tags.summary = _field_text(text) or tags.summary
    elif name == "title":
        tags.title = _field_text(text) or tags.title
    elif name == "name":
        tags.name = " ".join((_field_text(text) or "").split()) or tags.name
    elif name == "description":
        tags.description = _field_text(text) or tags.description
    elif name == "timeout":
        tags.timeout = _field_text(text) or tags.timeout
    elif name in _FLAG_TAGS:
        tags.flags.add(name)


def _field_text(text: str) -> str | None:
    """The text after an optional Epydoc colon (``@return: TEXT``)."""
    text = text[1:] if text.startswith(":") else text
    return text.strip() or None


# --- step 2: sections -------------------------------------------------------------------------


class _Body:
    """What the text says outside tags: description parts and section texts."""

    def __init__(
        self, short: str | None = None, long: str | None = None, blank_after_short: bool = False
    ) -> None:
        self.short = short
        self.long = long
        self.blank_after_short = blank_after_short
        self.params: dict[str, str] = {}
        self.attributes: dict[str, str] = {}
        self.returns: str | None = None
        self.deprecation: str | None = None
        self.deprecated = False


_MORE_PARAM_SECTIONS = ("Keyword Args", "Keyword Arguments", "Kwargs", "Other Parameters")
_MORE_SINGULAR_SECTIONS = (("Return", "returns"), ("Yield", "yields"))
# Google's section titles: docstring-parser's DEFAULT_SECTIONS plus the ones added below.
_GOOGLE_TITLES = (
    *("Arguments", "Args", "Parameters", "Params", "Raises", "Exceptions", "Except"),
    *("Attributes", "Example", "Examples", "Returns", "Yields"),
    *_MORE_PARAM_SECTIONS,
    *(title for title, _ in _MORE_SINGULAR_SECTIONS),
)
# Section hints, searched in "\n" + text: a title is a line of its own at column 0.
_GOOGLE_HINT = re.compile(r"\n(" + "|".join(_GOOGLE_TITLES) + r"):[ \t]*(?=\n|\Z)")
_NUMPY_HINT = re.compile(r"\n(?:[ \t]*-{3,}[ \t]*(?=\n|\Z)|\.\. deprecated::)")
_REST_HINT = re.compile(r"\n[ \t]*:[A-Za-z]")
_COLON_HINTS = (("rest", _REST_HINT), ("google", _GOOGLE_HINT))

_Parse = Callable[[str], "docstring_parser.Docstring"]


@cache
def _library() -> ModuleType:
    """docstring-parser, imported on first need."""
    import docstring_parser

    return docstring_parser


@cache
def _parser(style: str) -> _Parse:
    """docstring-parser's parser for one style, imported on first need."""
    from docstring_parser import google, numpydoc, rest

    if style == "rest":
        return rest.parse
    if style == "numpy":
        return numpydoc.parse
    kinds = google.SectionType
    extra = [google.Section(title, "param", kinds.MULTIPLE) for title in _MORE_PARAM_SECTIONS]
    extra += [google.Section(*pair, kinds.SINGULAR_OR_MULTIPLE) for pair in _MORE_SINGULAR_SECTIONS]
    return google.GoogleParser([*google.DEFAULT_SECTIONS, *extra]).parse


_BLANK_RUNS = re.compile(r"\n{3,}")
_ATTRIBUTE_KEYS = frozenset({"attribute", "ivar", "cvar", "var"})


_MARGIN = " " if sys.version_info >= (3, 13) else None
"""What ``inspect.cleandoc`` counts as indentation: spaces from Python 3.13 on (as the 3.13
compiler dedents docstrings), any whitespace before it (a no-break space included)."""


def _clean(doc: str) -> str:
    """``_normalize(inspect.cleandoc(doc))`` in one pass over the lines: the indentation
    common to the lines after the first removed, then as ``_normalize``."""
    if "\t" in doc:
        doc = doc.expandtabs()
    if "\n" not in doc:  # one line: no margin, no blank run
        return doc.strip()
    lines = doc.split("\n")
    margin = min(
        [len(line) - len(line.lstrip(_MARGIN)) for line in lines[1:] if line.lstrip(_MARGIN)],
        default=0,
    )
    text = "\n".join([lines[0].strip(), *[line[margin:].rstrip() for line in lines[1:]]])
    return _collapsed(text)


def _normalize(text: str) -> str:
    """Lines right-stripped, blank runs collapsed, stripped: the text every reader gets."""
    return _collapsed("\n".join([line.rstrip() for line in text.split("\n")]))


def _collapsed(text: str) -> str:
    if "\n\n\n" in text:
        text = _BLANK_RUNS.sub("\n\n", text)
    return text.strip()


def _styles(text: str) -> list[str]:
    """The styles whose section hints ``text`` shows, in docstring-parser's order of preference.

    Each hint is searched only when the text holds a substring it cannot match without (a
    colon; three dashes or the deprecated directive), which is told at C speed.
    """
    styles = []
    if ":" in text:
        padded = "\n" + text
        styles = [style for style, hint in _COLON_HINTS if hint.search(padded)]
    if ("---" in text or ".. deprecated::" in text) and _NUMPY_HINT.search("\n" + text):
        styles.append("numpy")
    return styles


def _read_with_parsers(text: str, styles: list[str]) -> _Body:
    """docstring-parser's reading: the style that finds the most sections wins."""
    # A leading newline keeps docstring-parser's own cleandoc from dedenting a
    # docstring that starts with a section title ("Args:" then indented lines).
    best: docstring_parser.Docstring | None = None
    for style in styles:
        try:
            parsed = _parser(style)("\n" + text)
        except _library().ParseError:
            continue
        if best is None or len(parsed.meta) > len(best.meta):
            best = parsed
    return _plain(text) if best is None else _from_parsed(best)


def _plain(text: str) -> _Body:
    """Split plain text the way docstring-parser does: first line, then the rest."""
    return _Body(*_plain_parts(text))


def _plain_parts(text: str) -> tuple[str | None, str | None, bool]:
    """``_plain``'s summary, long description and whether a blank line parts them."""
    short, _, rest_ = text.strip().partition("\n")
    return short.strip() or None, rest_.strip() or None, rest_.startswith("\n")


def _from_parsed(parsed: docstring_parser.Docstring) -> _Body:
    library = _library()
    body = _Body(
        short=parsed.short_description,
        long=parsed.long_description,
        blank_after_short=parsed.blank_after_short_description,
    )
    for meta in parsed.meta:
        if isinstance(meta, library.DocstringParam) and meta.description:
            target = body.attributes if meta.args[0] in _ATTRIBUTE_KEYS else body.params
            for name in meta.arg_name.split(","):
                target.setdefault(name.strip().lstrip("*"), meta.description.strip())
        elif isinstance(meta, library.DocstringReturns):
            if body.returns is None and meta.description and not meta.is_generator:
                body.returns = meta.description.strip()
        elif isinstance(meta, library.DocstringDeprecated):
            body.deprecated = True
            body.deprecation = meta.description
    return body


# --- combining --------------------------------------------------------------------------------


def _plain_info(text: str) -> DocInfo:
    """``_combine(_plain(text), _NO_TAGS)`` for text with no tag and no section hint (as
    most classes' and Enums' docstrings are): only the description and summary are set."""
    description = _joined(*_plain_parts(text))  # no _Body to make
    return DocInfo(description=description, summary=_first_paragraph(description))


def _text(body: _Body) -> str | None:
    """The summary and long description as one text, as docstring-parser joins them."""
    return _joined(body.short, body.long, body.blank_after_short)


def _joined(short: str | None, long: str | None, blank_after_short: bool) -> str | None:
    if not long:
        return short
    separator = "\n\n" if blank_after_short else "\n"
    return long if short is None else short + separator + long


def _combine(body: _Body, tags: _Tags) -> DocInfo:
    text = _text(body)
    summary = tags.summary or _first_paragraph(text)
    description = text
    if tags.summary and (text is None or not text.startswith(tags.summary.rstrip("."))):
        description = tags.summary if text is None else tags.summary + "\n\n" + text
    return DocInfo(
        description=tags.description or description,  # ``@description`` replaces the text
        summary=summary,
        title=tags.title,
        name=tags.name,
        params=_merged(body.params, tags.params),
        attributes=_merged(body.attributes, tags.attributes),
        returns=tags.returns or body.returns,
        tags=tuple(tags.tags),
        deprecated=tags.deprecated or body.deprecated,
        hidden=not tags.flags.isdisjoint(_HIDDEN_FLAGS),
        human="human" in tags.flags,
        deprecation=tags.deprecation or body.deprecation,
        approval="approval" in tags.flags,
        timeout=tags.timeout,
    )


_HIDDEN_FLAGS = frozenset({"hidden", "internal"})


def _merged(section: dict[str, str], tagged: dict[str, str]) -> Mapping[str, str]:
    """The texts of the sections, those of tags taking precedence, read-only. Each name
    and text is interned: the methods of a class describe the same parameter in the same
    words, every function's schema keeps its descriptions, and the parameters' names are
    the very strings the methods' code holds (each reading cuts a copy of its own)."""
    if tagged:
        section = {**section, **tagged}
    if not section:
        return _NOTHING
    return MappingProxyType({sys.intern(name): sys.intern(text) for name, text in section.items()})


def _first_paragraph(text: str | None) -> str | None:
    if not text:
        return None
    return " ".join(text.split("\n\n", 1)[0].split()) or None
