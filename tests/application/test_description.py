"""An application's own description: the class docstring, tags and sections removed."""

from __future__ import annotations

from dataclasses import dataclass

from llmapp import application, llm_application


def test_the_class_docstring_is_the_applications_description():
    @llm_application
    class Library:
        """Lends books to members.

        Members borrow at most three books at a time.

        @tag library
        Attributes:
            shelves: How many shelves it has.
        """

        def lend(self, isbn: str) -> str:
            """Lend a book."""
            return isbn

    description = application(Library).description
    assert description == "Lends books to members.\n\nMembers borrow at most three books at a time."


def test_a_class_without_a_docstring_has_no_description():
    class Plain:
        def ping(self) -> str:
            return "pong"

    @dataclass
    class Generated:  # a dataclass invents a docstring; it is not documentation
        size: int = 0

        def ping(self) -> str:
            return "pong"

    assert application(Plain).description is None
    assert application(Generated).description is None
