"""Docstrings: every style, every tag, tags never in descriptions, never raises."""

from __future__ import annotations

import inspect
import subprocess
import sys

import docstring_parser
import pytest
from hypothesis import given
from hypothesis import strategies as st

from llmapp.introspect import _docstrings
from llmapp.introspect._docstrings import EMPTY_DOC, DocInfo, parse_docstring

GOOGLE = """Search the catalogue.

    Looks through every product
    and ranks them.

    Args:
        query (str): Words to look for.
        limit: Most results
            to return.

    Returns:
        The products, best first.

    Raises:
        ValueError: when the query is empty.
    """

NUMPY = """Search the catalogue.

    Looks through every product
    and ranks them.

    Parameters
    ----------
    query : str
        Words to look for.
    limit : int, optional
        Most results
        to return.

    Returns
    -------
    list
        The products, best first.

    Notes
    -----
    Slow on big catalogues.
    """

REST = """Search the catalogue.

    Looks through every product
    and ranks them.

    :param query: Words to look for.
    :param int limit: Most results
        to return.
    :returns: The products, best first.
    :raises ValueError: when the query is empty.
    """

EPYDOC = """Search the catalogue.

    Looks through every product
    and ranks them.

    @param query: Words to look for.
    @type query: str
    @param limit: Most results
        to return.
    @return: The products, best first.
    @rtype: list
    @raise ValueError: when the query is empty.
    """

TYPIA = """Search the catalogue.

    Looks through every product
    and ranks them.

    @param query Words to look for.
    @param limit Most results
        to return.
    @returns The products, best first.
    """

EXPECTED = DocInfo(
    description="Search the catalogue.\n\nLooks through every product\nand ranks them.",
    summary="Search the catalogue.",
    params={"query": "Words to look for.", "limit": "Most results\nto return."},
    returns="The products, best first.",
)


@pytest.mark.parametrize(
    "doc", [GOOGLE, NUMPY, REST, EPYDOC, TYPIA], ids=["google", "numpy", "rest", "epydoc", "typia"]
)
def test_every_style_gives_the_same_reading(doc: str) -> None:
    assert _plain_maps(parse_docstring(doc)) == EXPECTED


def _plain_maps(info: DocInfo) -> DocInfo:
    """DocInfo compares its mappings as given; the parser returns read-only proxies."""
    from llmapp._records.record import replace

    return replace(info, params=dict(info.params), attributes=dict(info.attributes))


def test_mappings_are_read_only() -> None:
    info = parse_docstring(GOOGLE)
    with pytest.raises(TypeError):
        info.params["query"] = "changed"  # type: ignore[index]


def test_parameter_texts_are_shared_between_methods() -> None:
    # Built at run time, so no two texts are the same object before they are read.
    first = parse_docstring("One.\n\nArgs:\n    name: " + "Name of the record" + ".\n")
    second = parse_docstring("Two.\n\nArgs:\n    name: " + "Name of the record" + ".\n")
    assert first.params["name"] is second.params["name"]
    third = parse_docstring("Three.\n\n@param name " + "Name of the record" + ".\n")
    assert third.params["name"] is first.params["name"]


def test_parameter_names_are_the_interned_names() -> None:
    # The names a reading cuts out of the text are copies; the methods' code holds them.
    first = parse_docstring("One.\n\nArgs:\n    record_name: The name.\n")
    second = parse_docstring("Two.\n\nArgs:\n    record_name: The name.\n")
    (name,) = first.params
    assert name is sys.intern("record_name") and name is next(iter(second.params))
    (tagged,) = parse_docstring("Three.\n\n@param record_name The name.\n").params
    assert tagged is name


def test_the_cache_of_readings_keeps_five_hundred() -> None:
    # A class of a thousand methods reads more docstrings than a cache could serve on its
    # next build (its readings come round in a cycle); each reading kept is a record.
    for index in range(1500):
        parse_docstring(f"Operation {index}.\n\nArgs:\n    name: The name {index}.\n")
    assert _docstrings._parse_cached.cache_info().currsize <= 512
    again = "Operation 999.\n\nArgs:\n    name: The name 999.\n"
    assert parse_docstring(again) is parse_docstring(again)


@pytest.mark.parametrize("doc", [None, "", "   \n  "])
def test_empty_docstring_is_empty_doc(doc: str | None) -> None:
    assert parse_docstring(doc) is EMPTY_DOC


def test_every_tag() -> None:
    info = parse_docstring(
        """Search the catalogue.

        @tag catalog
        @tag sale
        @tag catalog
        @deprecated use find() instead
        @summary Find products
        @title Catalogue search
        @human

        More text after the tags.
        """
    )
    assert info.tags == ("catalog", "sale")  # repeatable, duplicates kept once, in order
    assert info.deprecated and info.deprecation == "use find() instead"
    assert info.summary == "Find products"
    assert info.title == "Catalogue search"
    assert info.human and not info.hidden
    assert info.description == (
        "Find products\n\nSearch the catalogue.\n\nMore text after the tags."
    )


@pytest.mark.parametrize("tag", ["@hidden", "@internal"])
def test_hidden_and_internal(tag: str) -> None:
    info = parse_docstring(f"Do the thing.\n\n{tag}\n")
    assert info.hidden
    assert info.description == "Do the thing."


def test_bare_deprecated_has_no_reason() -> None:
    info = parse_docstring("Old.\n\n@deprecated\n")
    assert info.deprecated and info.deprecation is None
    assert info.description == "Old."


def test_tags_in_the_middle_of_google_sections_never_leak() -> None:
    info = parse_docstring(
        """Search.

        @tag catalog
        Args:
            query: Words.
        @deprecated since 2.0
        Returns:
            Products.
        @param limit How many.
        """
    )
    assert info.description == "Search."
    assert dict(info.params) == {"query": "Words.", "limit": "How many."}
    assert info.returns == "Products."
    assert info.tags == ("catalog",) and info.deprecated


def test_no_tag_text_in_any_field() -> None:
    info = parse_docstring(
        """Summary line.

        Body that mentions an email like a@b.c inline stays text.

        @tag one
        @title T
        @summary S
        @param x X text
        @returns R text
        @deprecated D text
        @human
        """
    )
    texts = [info.description, info.summary, info.title, info.returns, *info.params.values()]
    assert all("@" not in text.replace("a@b.c", "") for text in texts if text)
    assert "a@b.c" in (info.description or "")


def test_summary_tag_already_at_the_start_is_not_repeated() -> None:
    info = parse_docstring("Search the catalogue.\n\nBody.\n\n@summary Search the catalogue.\n")
    assert info.summary == "Search the catalogue."
    assert info.description == "Search the catalogue.\n\nBody."


def test_summary_tag_alone_is_the_description() -> None:
    info = parse_docstring("@summary Find products.")
    assert info.description == "Find products." == info.summary


def test_summary_is_the_first_paragraph_joined() -> None:
    info = parse_docstring(
        """Search the catalogue for products that
        match the words.

        Ranked by relevance.
        """
    )
    assert info.summary == "Search the catalogue for products that match the words."
    assert info.description == (
        "Search the catalogue for products that\nmatch the words.\n\nRanked by relevance."
    )


def test_param_tag_spellings() -> None:
    info = parse_docstring(
        """Do.

        @param a plain typia text
        @param b: epydoc text
        @param {string} c - jsdoc text
        @param **d keyword splat
        @keyword e: epydoc keyword
        @param f
        """
    )
    assert dict(info.params) == {
        "a": "plain typia text",
        "b": "epydoc text",
        "c": "jsdoc text",
        "d": "keyword splat",
        "e": "epydoc keyword",
    }  # "@param f" with no text documents nothing


def test_param_tag_overrides_section() -> None:
    info = parse_docstring("Do.\n\nArgs:\n    x: from the section.\n\n@param x from the tag\n")
    assert info.params["x"] == "from the tag"


def test_returns_spellings() -> None:
    assert parse_docstring("Do.\n\n@returns it").returns == "it"
    assert parse_docstring("Do.\n\n@return it").returns == "it"
    assert parse_docstring("Do.\n\n@return: it").returns == "it"


def test_unknown_at_lines_stay_text() -> None:
    info = parse_docstring(
        """Decorate things.

        Example use::

            @cache
            def f(): ...

        @deprecated("not a tag: a call in example code")
        """
    )
    assert "@cache" in (info.description or "")
    assert '@deprecated("not a tag' in (info.description or "")
    assert not info.deprecated


def test_continuation_lines_belong_to_the_tag_only_when_indented() -> None:
    info = parse_docstring(
        """Do.

        @param x first line
            second line
        Back to the description.
        """
    )
    assert info.params["x"] == "first line\nsecond line"
    assert info.description == "Do.\n\nBack to the description."


@pytest.mark.parametrize(
    "doc",
    [
        "A thing.\n\nAttributes:\n    name: The name.\n    size: The size.\n",
        "A thing.\n\nAttributes\n----------\nname : str\n    The name.\nsize : int\n    The size.\n",
        "A thing.\n\n:attribute name: The name.\n:attribute size: The size.\n",
        "A thing.\n\n@ivar name: The name.\n@cvar size: The size.\n",
    ],
    ids=["google", "numpy", "rest", "epydoc"],
)
def test_attributes(doc: str) -> None:
    info = parse_docstring(doc)
    assert dict(info.attributes) == {"name": "The name.", "size": "The size."}
    assert info.description == "A thing." and not info.params


def test_keyword_args_section_is_parameters_not_description() -> None:
    info = parse_docstring("Do.\n\nArgs:\n    a: A.\n\nKeyword Args:\n    color: The color.\n")
    assert dict(info.params) == {"a": "A.", "color": "The color."}
    assert info.description == "Do."


def test_numpy_several_names_and_deprecation_directive() -> None:
    info = parse_docstring(
        """Do.

        .. deprecated:: 1.2
            Use other.

        Parameters
        ----------
        x, y : int
            Coordinates.
        """
    )
    assert dict(info.params) == {"x": "Coordinates.", "y": "Coordinates."}
    assert info.deprecated and info.deprecation == "Use other."


def test_section_only_docstring_has_no_description() -> None:
    info = parse_docstring("\n    Args:\n        x: The x.\n    ")
    assert info.description is None and info.summary is None
    assert dict(info.params) == {"x": "The x."}


def test_star_names_in_sections_are_bare() -> None:
    info = parse_docstring("Do.\n\nArgs:\n    *args: Items.\n    **kwargs: Options.\n")
    assert dict(info.params) == {"args": "Items.", "kwargs": "Options."}


def test_malformed_section_falls_back_to_text() -> None:
    doc = "Do.\n\nArgs:\nnot indented at all"
    info = parse_docstring(doc)
    assert info.description is not None and "not indented at all" in info.description


def test_blank_lines_left_by_tags_are_collapsed() -> None:
    info = parse_docstring("First.\n\n@tag a\n\n@tag b\n\nSecond.\n")
    assert info.description == "First.\n\nSecond."


PLAIN = [
    "One line.",
    "First line.\nSecond line.",
    "First.\n\nSecond paragraph\nwith two lines.\n\nThird.",
    "    Indented first.\n    Indented second.\n",
    "Summary.\n\n        Deeper second line.\n    Shallower third.\n    ",
]
"""Docstrings of plain paragraphs: nothing for a parser to find."""


@pytest.mark.parametrize("doc", PLAIN)
def test_plain_text_is_split_as_docstring_parser_splits_it(doc: str) -> None:
    parsed = docstring_parser.parse(doc)
    assert parse_docstring(doc).description == parsed.description


@given(st.text())
def test_never_raises(doc: str) -> None:
    info = parse_docstring(doc)
    assert isinstance(info, DocInfo)


@given(
    st.lists(
        st.sampled_from(
            [
                "Text.",
                "",
                "Args:",
                "    x: y",
                "@tag t",
                "@param",
                "@param x",
                "@deprecated",
                ":param x: y",
                "---",
                "Parameters",
                "  @returns z",
                "@type x:",
                "@ivar",
                ".. deprecated:: 1",
            ]
        ),
        max_size=12,
    )
)
def test_never_raises_on_section_like_text(lines: list[str]) -> None:
    info = parse_docstring("\n".join(lines))
    assert isinstance(info, DocInfo)
    for text in (info.description, info.summary):
        assert text is None or "@tag" not in text


# -- sections as docstring-parser reads them ------------------------------------------------


def test_a_google_docstring_gives_summary_description_params_and_returns() -> None:
    info = parse_docstring(
        """Run operation 3 on a named record.

        Looks the record up by name, applies operation 3 with the given
        options and returns a one-line report of what changed.

        Args:
            name: Name of the record to change.
            when: When the change takes effect (ISO 8601).

        Returns:
            A one-line report.
        """
    )
    assert info.summary == "Run operation 3 on a named record."
    assert info.description is not None and info.description.endswith("of what changed.")
    assert dict(info.params) == {
        "name": "Name of the record to change.",
        "when": "When the change takes effect (ISO 8601).",
    }
    assert info.returns == "A one-line report."


def test_continuation_lines_typed_entries_and_typed_returns() -> None:
    info = parse_docstring(
        """Ship an order.

        Args:
            order (Order): The order to ship, with every line
                item and its quantity.

                A second paragraph about the order.
            limit (int, optional): Most results. Defaults to 10.

        Returns:
            int: How many there are.
        """
    )
    assert info.params["order"] == (
        "The order to ship, with every line\nitem and its quantity.\n\n"
        "A second paragraph about the order."
    )
    assert info.params["limit"] == "Most results. Defaults to 10."
    assert info.returns == "How many there are."


def test_text_after_sections_that_is_no_section_is_dropped_and_odd_whitespace_is_kept() -> None:
    info = parse_docstring("Do.\n\nArgs:\n    x: The\xa0x.\n\nNote:\n    Not a known section.\n")
    assert info.description == "Do."
    assert dict(info.params) == {"x": "The\xa0x."}


_PROGRAM = """
import sys
from llmapp.introspect._docstrings import parse_docstring
info = parse_docstring({doc!r})
print(info.summary, "docstring_parser" in sys.modules)
"""


@pytest.mark.parametrize(
    ("doc", "imported"),
    [
        ("Do.\n\n    More text, no section.\n", False),
        ("Do.\n\n    Args:\n        x: The x.\n", True),
        ("Do.\n\n    Parameters\n    ----------\n    x : int\n        The x.\n", True),
    ],
    ids=["plain", "google", "numpy"],
)
def test_docstring_parser_is_imported_only_for_a_docstring_with_sections(
    doc: str, imported: bool
) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _PROGRAM.format(doc=doc)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.split() == ["Do.", str(imported)]


# -- the plain-text shortcut gives what the full reading gives ----------------------------------


def _full_reading(doc: str) -> DocInfo:
    """The reading without shortcuts: ``inspect.cleandoc``, tags, every hinted parser (or the
    plain split) and ``_combine``, whatever the docstring holds."""
    tags = _docstrings._NO_TAGS
    text = _docstrings._normalize(inspect.cleandoc(doc))
    if "@" in text:
        tags = _docstrings._Tags()
        text = _docstrings._normalize(_docstrings._take_tags(text, tags))
    styles = _docstrings._styles(text)
    try:
        body = _docstrings._read_with_parsers(text, styles) if styles else _docstrings._plain(text)
    except Exception:
        body = _docstrings._plain(text)
    return _docstrings._combine(body, tags)


_VARIED = [
    GOOGLE,
    NUMPY,
    REST,
    EPYDOC,
    TYPIA,
    "One line.",
    "  One line\twith a tab.  ",
    "A colour for method 7.",
    "First line.\nSecond line.",
    "First.\n\nSecond paragraph\nwith two lines.\n\n\n\nThird.",
    "    Indented first.\n    Indented second.\n",
    "Summary.\n\n        Deeper second line.\n    Shallower third.\n    ",
    "Summary.\n\n    Attributes:\n        street: Street and number.\n        city: City.\n    ",
    "Ship it.\n\n    @tag orders\n    @tag shipping\n    @deprecated use send\n",
    "Ship it.\n\n    @param order The order.\n    @returns The receipt.\n    @hidden\n",
    "@summary Short.\n@title Title\n@human\n@approval\n@timeout 5\n@name other",
    "Ratio: a number.\nNot a section: text with colons.",
    "Dashes -- in a sentence.\n\n----\n",
    "Uses @decorator in an example.",
]


@pytest.mark.parametrize("doc", _VARIED)
def test_parse_gives_the_full_reading(doc: str) -> None:
    assert parse_docstring(doc) == _full_reading(doc)


@given(
    st.lists(
        st.text(alphabet="ab .:-@\t\xa0", max_size=12).map(lambda line: " " * 4 + line)
        | st.sampled_from(["", "    ", "Args:", "    x: y", "Text.", "@tag t", "\tTabbed."]),
        min_size=1,
        max_size=8,
    )
)
def test_parse_gives_the_full_reading_on_any_text(lines: list[str]) -> None:
    doc = "\n".join(lines)
    if doc.strip():
        assert parse_docstring(doc) == _full_reading(doc)


@pytest.mark.parametrize("doc", PLAIN)
def test_plain_docstrings_read_as_every_docstring_parser_style_reads_them(doc: str) -> None:
    info = parse_docstring(doc)
    for style in docstring_parser.DocstringStyle:
        if style is not docstring_parser.DocstringStyle.AUTO:
            parsed = docstring_parser.parse(doc, style)
            assert (info.description, parsed.meta) == (parsed.description, [])
