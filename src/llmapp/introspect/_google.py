"""A strict reader for the common Google-style docstring: docstring-parser's reading, without it.

``read_google`` takes the text ``_docstrings`` hands to docstring-parser's Google
parser (lines right-stripped, blank runs collapsed, stripped) and, when the text
is regular, gives exactly what that parser gives (as ``_docstrings`` reads it):

- a summary line, then any text up to the first section title;
- sections whose title is a line of its own at column 0 (``Args:``,
  ``Returns:``, ``Attributes:``, ``Example:``, ...); a line at column 0 that is
  no title ends a section, and the parser drops what follows up to the next title;
- in ``Args``-like sections, entries ``name: text`` or ``name (type): text`` at
  one indentation, continuation lines indented further, blank lines between;
  ``Raises`` entries are ``anything: text``.

Anything else gives ``None`` and the caller asks docstring-parser, so unusual
text is read exactly as before: whitespace other than spaces and newlines (a
tab, a non-breaking space, ``\\r``), a title given twice, a line at an entry's
indentation that is no entry (no colon on its first line, several names, a
type with parentheses or a colon in it), a line indented less than the entries,
an empty entry section. Each step names the docstring-parser step it mirrors
(``docstring_parser/google.py``; 0.16 to 0.18 read the same here).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache

__all__ = ["SECTION_TITLES", "Body", "has_odd_whitespace", "read_google"]


@dataclass(slots=True)
class Body:
    """What the text says outside tags: description parts and section texts."""

    short: str | None = None
    long: str | None = None
    blank_after_short: bool = False
    params: dict[str, str] = field(default_factory=dict)
    attributes: dict[str, str] = field(default_factory=dict)
    returns: str | None = None
    deprecation: str | None = None
    deprecated: bool = False


# docstring-parser's DEFAULT_SECTIONS plus the ones ``_docstrings`` adds, by kind.
_SECTIONS = {
    **dict.fromkeys(("Arguments", "Args", "Parameters", "Params"), "params"),
    **dict.fromkeys(("Keyword Args", "Keyword Arguments", "Kwargs"), "params"),
    "Other Parameters": "params",
    **dict.fromkeys(("Raises", "Exceptions", "Except"), "raises"),
    "Attributes": "attributes",
    **dict.fromkeys(("Example", "Examples"), "examples"),
    **dict.fromkeys(("Returns", "Return"), "returns"),
    **dict.fromkeys(("Yields", "Yield"), "yields"),
}
SECTION_TITLES = tuple(_SECTIONS)
"""Every section title this reader (and the Google parser of ``_docstrings``) knows."""

# A title: a line of its own at column 0 (docstring-parser's ``titles_re``). Patterns
# here start with a newline and run on "\n" + text: a literal start is found far
# quicker than a ``^`` of ``re.M``.
TITLE_LINE = re.compile(r"\n(" + "|".join(SECTION_TITLES) + r"):[ \t]*(?=\n|\Z)")
"""A section title line, found in newline + text (trailing blanks allowed, as before)."""
_UNKNOWN_META = re.compile(r"\n\S")
# A regular entry head: a name, maybe a type; docstring-parser's GOOGLE_TYPED_ARG_REGEX
# reads the name of such a head as the name matched here. {0} opens a group.
_NAME = r"{0}\*{{0,2}}[A-Za-z_]\w*)(?: *\((?=[^():\n]*[^():\s])[^():\n]*\))?"
_ANY_HEAD = r"[^ \n][^:\n]*"
_RETURNS_WITH_TYPE = re.compile(r"(\s*[^:\s]+:)|([^:]*\]:.*)")
_ODD_ASCII = ("\t", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f")
_ODD_WHITESPACE = re.compile(r"[^\S \n]")


def has_odd_whitespace(text: str) -> bool:
    """Whitespace other than spaces and newlines (tabs, ``\\r``, non-breaking spaces...)."""
    if text.isascii():  # str.isspace's ASCII characters, tested one by one: much quicker
        return any(character in text for character in _ODD_ASCII)
    return _ODD_WHITESPACE.search(text) is not None


def read_google(text: str) -> Body | None:
    """Read a regular Google-style docstring; ``None`` when anything is unusual."""
    if has_odd_whitespace(text):
        return None
    padded = "\n" + text
    titles = list(TITLE_LINE.finditer(padded))
    if not titles or len({title[1] for title in titles}) < len(titles):
        return None  # no section, or one twice (the parser keeps only the last one's text)
    body = _description(padded[1 : titles[0].start() + 1])
    ends = [title.start() + 1 for title in titles[1:]] + [len(padded)]
    for title, end in zip(titles, ends, strict=True):
        details = padded[title.end() : end]
        unknown = _UNKNOWN_META.search(details)
        if unknown is not None:
            details = details[: unknown.start()]
        if not _section(body, _SECTIONS[title[1]], details.strip("\n")):
            return None
    return body


def _description(chunk: str) -> Body:
    """Short and long description: the text before the first title."""
    short, newline, long = chunk.partition("\n")
    if not newline:
        return Body(short=short or None)
    return Body(short=short or None, long=long.strip() or None, blank_after_short=long[:1] == "\n")


def _section(body: Body, kind: str, chunk: str) -> bool:
    """Record one section; ``False`` when it is not regular."""
    if kind == "params":
        return _entries(chunk, _depth(chunk), body.params)
    if kind == "attributes":
        return _entries(chunk, _depth(chunk), body.attributes)
    if kind == "raises":
        return _entries(chunk, _depth(chunk), None)
    if kind == "returns" and body.returns is None:
        part = _cleandoc(chunk)
        if _RETURNS_WITH_TYPE.match(part):  # "Type: text": the text is after the colon
            part = _entry_text(part.split(":", 1)[1])
        if part:
            body.returns = part.strip()
    return True  # Yields and Examples say nothing ``_docstrings`` keeps


def _depth(chunk: str) -> int:
    return len(chunk) - len(chunk.lstrip(" "))


@cache
def _entry_patterns(depth: int, *, named: bool) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """A section of entries, and one entry: (name,) text after the colon, more lines.

    An entry is its line at ``depth``, then blank lines and lines indented further
    (docstring-parser splits a section on lines at the first line's indentation).
    """

    def entry(group: str) -> str:
        head = _NAME.format(group) if named else _ANY_HEAD
        line_end = r"(?=\n|\Z)"  # no backtracking into a line: one way to split a section
        more = rf"{group}(?:\n(?: {{{depth + 1},}}\S.*{line_end})?)*)"
        return rf" {{{depth}}}{head}:{group}.*){line_end}{more}"

    return re.compile(f"(?:{entry('(?:')})+"), re.compile(entry("("))


def _entries(chunk: str, depth: int, target: dict[str, str] | None) -> bool:
    """Entries of an Args-like section (docstring-parser's ``_build_meta`` on each);
    ``False`` unless the section is entries from start to end."""
    section, entry = _entry_patterns(depth, named=target is not None)
    if not chunk or section.fullmatch(chunk) is None:
        return False  # docstring-parser: "No specification for ..." or "Expected a colon"
    if target is not None:
        for name, text, more in entry.findall(chunk):
            more = more.rstrip("\n")
            text = _entry_text(text + more) if more else text[1:] if text[:1] == " " else text
            if text:
                target.setdefault(name.lstrip("*"), text.strip())
    return True


def _entry_text(text: str) -> str:
    """The text after an entry's colon (docstring-parser's ``_build_meta``)."""
    if not text:
        return text
    if text[0] == " ":
        text = text[1:]
    if "\n" in text:
        first, rest = text.split("\n", 1)
        text = first + "\n" + _cleandoc(rest)
    return text.strip("\n")


def _cleandoc(text: str) -> str:
    """``inspect.cleandoc`` for text whose only whitespace is spaces and newlines."""
    lines = text.split("\n")
    margins = [len(line) - len(line.lstrip(" ")) for line in lines[1:] if line.strip(" ")]
    lines[0] = lines[0].lstrip(" ")
    if margins:
        margin = min(margins)
        lines[1:] = [line[margin:] for line in lines[1:]]
    start, end = 0, len(lines)
    while end > start and not lines[end - 1]:
        end -= 1
    while start < end and not lines[start]:
        start += 1
    return "\n".join(lines[start:end])
