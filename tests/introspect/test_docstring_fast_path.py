"""The fast Google reader gives exactly docstring-parser's reading, and falls back on the unusual.

Every comparison runs one docstring through both paths: ``_parse(doc)`` (the fast
reader when it accepts the text) and ``_parse(doc, fast=False)`` (docstring-parser
for every docstring with sections, as before the fast reader), and asserts the two
``DocInfo`` are equal, mapping order included.
"""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import llmapp
from llmapp.introspect import _docstrings
from llmapp.introspect._docstrings import DocInfo
from llmapp.introspect._google import _SECTIONS, SECTION_TITLES, has_odd_whitespace, read_google


def _fast_path_reads(doc: str) -> bool:
    """Whether ``parse_docstring`` reads ``doc`` without asking docstring-parser."""
    with mock.patch.object(_docstrings, "_parser", side_effect=_docstrings._parser) as parser:
        _docstrings._parse(doc)
    return not parser.called


def _assert_same_reading(doc: str) -> DocInfo:
    fast, slow = _docstrings._parse(doc), _docstrings._parse(doc, fast=False)
    assert fast == slow
    assert list(fast.params.items()) == list(slow.params.items())
    assert list(fast.attributes.items()) == list(slow.attributes.items())
    return fast


# --- (a) a table of realistic docstrings --------------------------------------------------------

REGULAR = {
    "benchmark method": """Run operation 3 on a named record.

        Looks the record up by name, applies operation 3 with the given
        options and returns a one-line report of what changed.

        Args:
            name: Name of the record to change.
            ratio: Share of the record to process, from 0 to 1.
            when: When the change takes effect (ISO 8601).
            count: How many times to repeat the operation.

        Returns:
            A one-line report.
        """,
    "dataclass attributes": """A postal address.

        Attributes:
            street: Street and number.
            city: City or town.
        """,
    "typed entries": """Search the catalogue.

        Args:
            query (str): Words to look for.
            limit (int, optional): Most results to return. Defaults to 10.
            order (Literal["asc", "desc"]): Sort order.
            filters (dict[str, list[str]] | None): Facets to keep.
        """,
    "continuation lines": """Ship an order.

        Args:
            order: The order to ship, with every line
                item and its quantity.

                A second paragraph about the order.
            carrier: Who carries it.
              Deeper lines keep their place:
                  even deeper.

        Returns:
            The tracking number, once the carrier
            has accepted the parcel.
        """,
    "stars and kwargs sections": """Call it.

        Args:
            *args: Positional values.
            **kwargs: Options.

        Keyword Args:
            color: The colour.

        Keyword Arguments:
            size: The size.

        Other Parameters:
            weight: The weight.
        """,
    "two-space indentation": """Do it.

        Args:
          first: The first.
          second: The second, a long text that goes on
            to a second line.
        """,
    "returns with a type": """Count.

        Returns:
            int: How many there are.
        """,
    "returns with a generic type": """Count.

        Returns:
            dict[str, int]: Counts by name.
        """,
    "raises, yields and examples": """Stream rows.

        Args:
            path: Where the rows are.

        Yields:
            One row at a time.

        Raises:
            ValueError: When the file is empty.
            io.UnsupportedOperation: When it cannot be read.

        Examples:
            >>> for row in stream("rows.csv"):
            ...     print(row)

        Example:
            stream("x")
        """,
    "aliases": """Do.

        Arguments:
            a: A.

        Parameters:
            b: B.

        Params:
            c: C.

        Return:
            Something.
        """,
    "section-only docstring": """
        Args:
            x: The x.
        """,
    "section-only docstring, title on the opening line": """Args:
            x: The x.
        Returns:
            It.
        """,
    "note after a section is dropped, as docstring-parser does": """Do.

        Args:
            x: The x.

        Note:
            This text is not a section docstring-parser knows.
        """,
    "note before sections is description": """Do.

        Note:
            Slow on big inputs.

        Args:
            x: The x.
        """,
    "no blank line after the summary": """Do the thing
        with two summary lines.
        Args:
            x: The x.
        """,
    "entry without text": """Do.

        Args:
            x:
            y: The y.
            z:
                On the next line.
        """,
    "trailing spaces and blank runs": "Do.   \n\n\n\n    More.  \n\n    Args:   \n        x:  The x.  \n\n\n",
    "unicode text": """Résumé d'une commande — “quoted”.

        Args:
            café: Le café ☕.
            naïve: Une valeur naïve.
        """,
    "colons and parentheses in texts": """Do: really (now).

        Args:
            url: Like https://example.com:8080/path (a URL).
            pair: Key: value (both strings).
        """,
    # inspect.cleandoc expands tabs and the normalized text has no line-end "\r".
    "tab indentation": "Do.\n\nArgs:\n\tx: The x.\n\t\tMore.\n",
    "tab in a text": "Do.\n\nArgs:\n    x: The\tx.\n",
    "carriage returns": "Do.\r\n\r\nArgs:\r\n    x: The x.\r\n",
    # Tags (typia's and Epydoc's) are taken out first; the rest is read as usual.
    "tags": "Do.\n\n@tag t\n@param x: The x.\n\nArgs:\n    y: Y.\n@deprecated old\n",
    "returns first of two": """Do.

        Returns:
            The first.

        Return:
            The second.
        """,
}


@pytest.mark.parametrize("doc", list(REGULAR.values()), ids=list(REGULAR))
def test_regular_docstrings_take_the_fast_path_and_read_the_same(doc: str) -> None:
    assert _fast_path_reads(doc)
    _assert_same_reading(doc)


def test_the_benchmark_reading() -> None:
    info = _assert_same_reading(REGULAR["benchmark method"])
    assert info.summary == "Run operation 3 on a named record."
    assert info.description is not None and info.description.endswith("of what changed.")
    assert list(info.params) == ["name", "ratio", "when", "count"]
    assert info.params["when"] == "When the change takes effect (ISO 8601)."
    assert info.returns == "A one-line report."


def test_continuation_lines_read_as_docstring_parser_reads_them() -> None:
    info = _assert_same_reading(REGULAR["continuation lines"])
    assert info.params["order"] == (
        "The order to ship, with every line\nitem and its quantity.\n\n"
        "A second paragraph about the order."
    )
    # docstring-parser dedents the continuation lines by the indentation of the
    # second and later ones (inspect.cleandoc): the deeper line loses its place.
    assert info.params["carrier"] == "Who carries it.\nDeeper lines keep their place:\neven deeper."
    assert info.returns == "The tracking number, once the carrier\nhas accepted the parcel."


def test_typed_names_and_typed_returns() -> None:
    info = _assert_same_reading(REGULAR["typed entries"])
    assert list(info.params) == ["query", "limit", "order", "filters"]
    assert info.params["limit"] == "Most results to return. Defaults to 10."
    assert _assert_same_reading(REGULAR["returns with a type"]).returns == "How many there are."


def test_what_docstring_parser_drops_is_dropped() -> None:
    info = _assert_same_reading(
        REGULAR["note after a section is dropped, as docstring-parser does"]
    )
    assert info.description == "Do." and dict(info.params) == {"x": "The x."}
    info = _assert_same_reading(REGULAR["entry without text"])
    assert dict(info.params) == {"y": "The y.", "z": "On the next line."}


UNUSUAL = {
    "carriage return in a text": "Do.\n\nArgs:\n    x: The\rx.\n",
    "non-breaking space": "Do.\n\nArgs:\n    x: The\xa0x.\n",
    "line separator": "Do.\n\nArgs:\n    x: The\u2028x.\n",
    "numpy": "Do.\n\nParameters\n----------\nx : int\n    The x.\n\nArgs:\n    y: Y.\n",
    "rest": "Do.\n\n:param x: The x.\n\nArgs:\n    y: Y.\n",
    "deprecated directive": "Do.\n\n.. deprecated:: 1.0\n\nArgs:\n    y: Y.\n",
    "title twice": "Do.\n\nArgs:\n    x: X.\n\nReturns:\n    R.\n\nArgs:\n    y: Y.\n",
    "entry without a colon": "Do.\n\nArgs:\n    x The x.\n",
    "colon on a continuation line": "Do.\n\nArgs:\n    x the\n        x: yes.\n",
    "raises without a colon": "Do.\n\nRaises:\n    ValueError if bad.\n",
    "several names": "Do.\n\nArgs:\n    x, y: Coordinates.\n",
    "name with a dash": "Do.\n\nArgs:\n    content-type: The type.\n",
    "space before the colon": "Do.\n\nArgs:\n    x : The x.\n",
    "colon in the type": "Do.\n\nArgs:\n    x (dict of str: int): The x.\n",
    "parentheses in the type": "Do.\n\nArgs:\n    f (Callable[(int), str]): F.\n",
    "empty type": "Do.\n\nArgs:\n    x (): The x.\n",
    "less indented line": "Do.\n\nArgs:\n    x: The x.\n  odd: line.\n    y: Y.\n",
    "empty entry section": "Do.\n\nArgs:\n\nReturns:\n    R.\n",
    "section not indented": "Do.\n\nArgs:\nx: not indented\n",
    "bullets": "Do.\n\nArgs:\n    - x: The x.\n",
    "title at the very end": "Do.\n\nArgs:",
    # inspect.cleandoc dedents the lines after the opening one: the entries land at column 0.
    "title on the opening line, body dedented": "Args:\n    x: The x.\n",
}


@pytest.mark.parametrize("doc", list(UNUSUAL.values()), ids=list(UNUSUAL))
def test_unusual_docstrings_fall_back_and_read_the_same(doc: str) -> None:
    assert not _fast_path_reads(doc)
    _assert_same_reading(doc)


def test_fallback_still_reads_sections() -> None:
    info = _assert_same_reading(UNUSUAL["non-breaking space"])
    assert dict(info.params) == {"x": "The\xa0x."}
    info = _assert_same_reading(UNUSUAL["several names"])
    assert dict(info.params) == {"x": "Coordinates.", "y": "Coordinates."}


# --- (b) generated Google-style docstrings -----------------------------------------------------

_WORDS = ["the", "value", "Of", "x:", "(int)", "a.b", "—", "ünï", "[1]", "`code`", "50%", "it's"]
_TITLES = [*SECTION_TITLES, "Note", "Notes", "See Also", "Todo", "Warning"]
_ENTRY_TITLES = [
    title for title, kind in _SECTIONS.items() if kind in ("params", "attributes", "raises")
]
_NAMES = ["x", "_private", "camelCase", "name2", "*args", "**kwargs", "café"]
_TYPES = ["int", "str, optional", "list[int] | None", 'Literal["a", "b"]', "Dict[str, Any]"]
_ODD_NAMES = ["x, y", "na-me", "x (a: b)", "f (g(x))", "- x", "x ()", "`x`", "x :", "1x"]
_ODD_LINES = ["\tx: tab", ":param x: y", "-----", ".. deprecated:: 1", "@tag t", "x\xa0y", "a\rb"]


def _text(draw: st.DrawFn, regular: bool) -> str:
    """Words of a text line; a regular one starts with a lowercase word (no title, no hint)."""
    words = draw(st.lists(st.sampled_from(_WORDS), max_size=6))
    first = draw(st.sampled_from(["see", "then", "a", "ok"] if regular else [*_WORDS, ":", "-"]))
    return " ".join([first, *words])


def _spaces(draw: st.DrawFn) -> str:
    """Trailing whitespace, which every reader ignores."""
    return draw(st.sampled_from(["", "", "", " ", "   "]))


@st.composite
def _entries(draw: st.DrawFn, regular: bool, raises: bool) -> list[str]:
    depth = draw(st.integers(1, 8))
    lines: list[str] = []
    for _ in range(draw(st.integers(1 if regular else 0, 4))):
        if raises:
            head = draw(st.sampled_from(["ValueError", "io.Error", "KeyError if missing"]))
        else:
            head = draw(st.sampled_from(_NAMES))
            if draw(st.booleans()):
                head += (
                    draw(st.sampled_from([" ", "", "  "])) + f"({draw(st.sampled_from(_TYPES))})"
                )
        if not regular and draw(st.integers(0, 4)) == 0:
            head = draw(st.sampled_from(_ODD_NAMES))
        separator = draw(st.sampled_from([": ", ":", ":  "] + ([] if regular else [" ", " - "])))
        first = _text(draw, regular) if draw(st.integers(0, 5)) else ""
        lines.append(" " * depth + head + separator + first + _spaces(draw))
        for _ in range(draw(st.integers(0, 3))):
            if draw(st.integers(0, 4)) == 0:
                lines.append("")
                continue
            lowest = depth + 1 if regular else 1
            lines.append(" " * draw(st.integers(lowest, depth + 6)) + _text(draw, regular))
    return lines


@st.composite
def _section(draw: st.DrawFn, regular: bool, title: str) -> list[str]:
    header = title + draw(st.sampled_from([":"] if regular else [":", "", " :", "::"]))
    if title in _ENTRY_TITLES:
        lines = draw(_entries(regular, raises=title in ("Raises", "Exceptions", "Except")))
    else:
        depth = draw(st.integers(1, 8))
        lines = [" " * draw(st.integers(depth, depth + 4)) + _text(draw, regular) for _ in "ab"]
        lines = lines[: draw(st.integers(0, 2))]
        if title.startswith("Return") and draw(st.booleans()):
            lines.insert(0, " " * depth + draw(st.sampled_from(["int: ", "list[str]: ", "X:"])))
    if draw(st.integers(0, 5)) == 0:  # a line at column 0 ends the section
        lines.append(draw(st.sampled_from(["Note:", "Some text.", "See Also:"])))
    return [header + _spaces(draw), *lines]


@st.composite
def google_docstrings(draw: st.DrawFn, regular: bool) -> str:
    """A Google-style docstring as written in source: the lines after the first indented.

    ``regular`` ones keep to the fast reader's grammar; the others mix in what it
    leaves to docstring-parser (odd whitespace, other styles, odd entries, ...).
    """
    lines = [] if draw(st.integers(0, 8)) == 0 else [_text(draw, regular).capitalize()]
    for _ in range(draw(st.integers(0, 2))):
        lines += [""] * draw(st.integers(0, 2))
        indents = st.integers(0, 3)
        lines += [
            " " * draw(indents) + _text(draw, regular) for _ in range(draw(st.integers(1, 3)))
        ]
    titles = _TITLES if not regular else SECTION_TITLES
    chosen = draw(st.lists(st.sampled_from(titles), min_size=regular, max_size=4, unique=regular))
    for title in chosen:
        lines += [""] * draw(st.integers(0, 2))
        lines += draw(_section(regular, title))
    if not regular:
        for _ in range(draw(st.integers(0, 2))):
            lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(_ODD_LINES)))
    indent = " " * draw(st.sampled_from([0, 4, 8]))
    body = "\n".join(indent + line + _spaces(draw) if line else line for line in lines[1:])
    # A title on the opening line would leave its entries at column 0 once
    # inspect.cleandoc dedents the lines after it: not regular.
    title_first = bool(lines) and lines[0].split(":")[0] in SECTION_TITLES
    opening = "\n" + indent if not lines or (regular and title_first) or draw(st.booleans()) else ""
    return opening + (lines[0] if lines else "") + ("\n" + body if body else "") + "\n" + indent


@settings(max_examples=400, deadline=None)
@given(google_docstrings(regular=True))
def test_generated_regular_docstrings_take_the_fast_path_and_read_the_same(doc: str) -> None:
    assert _fast_path_reads(doc)
    _assert_same_reading(doc)


@settings(max_examples=400, deadline=None)
@given(google_docstrings(regular=False))
def test_generated_docstrings_read_the_same_on_either_path(doc: str) -> None:
    event("fast path" if _fast_path_reads(doc) else "docstring-parser")
    _assert_same_reading(doc)


@given(st.text())
def test_fast_reader_never_raises(text: str) -> None:
    body = read_google(text)
    assert body is None or isinstance(body, _docstrings._Body)


_PIECES = [*" \n\tabA:(),*-\xa0\r", "\nArgs:\n", "\nReturns:\n", "    ", "x: ", "\n    "]


@given(st.lists(st.sampled_from(_PIECES)).map("".join))
def test_fast_reader_never_raises_on_section_like_text(text: str) -> None:
    body = read_google(_docstrings._normalize(text))
    assert body is None or isinstance(body, _docstrings._Body)


@given(st.text(alphabet=st.sampled_from(list(" \n\tab@:\xa0\u2028"))))
def test_one_pass_cleaning_is_cleandoc_then_normalize(doc: str) -> None:
    if not has_odd_whitespace(doc):
        assert _docstrings._clean(doc) == _docstrings._normalize(inspect.cleandoc(doc))


def test_odd_whitespace_is_every_whitespace_but_space_and_newline() -> None:
    odd = [chr(code) for code in range(sys.maxunicode + 1) if chr(code).isspace()]
    odd = [character for character in odd if character not in " \n"]
    assert all(has_odd_whitespace(f"a{character}b") for character in odd)
    assert all(has_odd_whitespace(f"é{character}b") for character in odd)
    assert not has_odd_whitespace("a b\nc é ☕")


# --- real docstrings ---------------------------------------------------------------------------


def _docstrings_of(root: Path) -> list[str]:
    docs: set[str] = set()
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
                doc = ast.get_docstring(node, clean=False)
                if doc and doc.strip():
                    docs.add(doc)
    return sorted(docs)


def test_llmapps_own_docstrings_read_the_same() -> None:
    docs = _docstrings_of(Path(llmapp.__file__).parent)
    for doc in docs:
        _assert_same_reading(doc)
    assert sum(map(_fast_path_reads, docs)) > 100


def test_the_benchmark_docstrings_all_take_the_fast_path() -> None:
    benchmarks = pytest.importorskip("benchmarks.generated")
    module = benchmarks.load(3)
    classes = [value for value in vars(module).values() if isinstance(value, type)]
    docs = [function.__doc__ for function in vars(module.Service).values() if callable(function)]
    docs += [cls.__doc__ for cls in classes if cls.__name__.startswith("Address")]
    assert len(docs) == 6 and all(_fast_path_reads(doc) for doc in docs)
    for doc in docs:
        _assert_same_reading(doc)


@pytest.mark.slow
def test_installed_packages_docstrings_read_the_same() -> None:
    """Every docstring of every installed package (~30,000): the same on either path."""
    site = Path(inspect.getfile(pytest)).parent.parent
    for package in sorted(path for path in site.iterdir() if path.is_dir()):
        try:
            docs = _docstrings_of(package)
        except (SyntaxError, UnicodeDecodeError, ValueError):
            continue
        for doc in docs:
            _assert_same_reading(doc)


# --- docstring-parser stays unimported ----------------------------------------------------------

_PROGRAM = """
import sys
from llmapp.introspect._docstrings import parse_docstring
info = parse_docstring({doc!r})
print(info.params["x"], "docstring_parser" in sys.modules)
"""


@pytest.mark.parametrize(
    ("doc", "imported"),
    [
        ("Do.\n\n    Args:\n        x: The x.\n\n    Returns:\n        It.\n", False),
        ("Do.\n\n    Parameters\n    ----------\n    x : int\n        The x.\n", True),
    ],
    ids=["google", "numpy"],
)
def test_docstring_parser_is_imported_only_when_needed(doc: str, imported: bool) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _PROGRAM.format(doc=doc)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == ["The", "x.", str(imported)]
