"""ObjectOptional: every key may be left out (typia ``ObjectOptional``), as a TypedDict."""

from __future__ import annotations

from typing_extensions import NotRequired, Required, TypedDict

from llmapp import llm_application
from llmapp.markers import Email


class Member(TypedDict, total=False):
    """A member record where nothing is mandatory.

    Attributes:
        id: The member's identifier, when known.
        email: Where to write to.
    """

    id: str
    name: str
    email: Email
    sequence: int


class Contact(TypedDict):
    """A total TypedDict with one key left optional.

    Attributes:
        phone: Only when the member gave one.
    """

    member: Member
    phone: NotRequired[str]
    verified: Required[bool]


@llm_application
class ObjectOptionalApplication:
    """Contacts with optional keys through the three catalogue methods."""

    def insert(self, first: Contact) -> None:
        """Store one contact.

        Args:
            first: The contact to store.
        """

    def reduce(self, first: Contact, second: Contact | None) -> Contact:
        """Keep the second contact when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Contact | None, second: Contact | None, third: Contact | None = None
    ) -> Contact | None:
        """The first contact given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = ObjectOptionalApplication

SAMPLE = {
    "member": {"id": "m-1", "name": "Ada", "email": "ada@example.com", "sequence": 3},
    "phone": "+44 20 7946 0000",
    "verified": True,
}

ALSO_VALID = [{"member": {}, "verified": False}]

SPOILERS = [
    (("member", "email"), "ada", [("$input.member.email", 'string & Format<"email">')]),
    (("member", "sequence"), 1.5, [("$input.member.sequence", "integer")]),
    (("member", "nickname"), "Ad", [("$input.member.nickname", "undefined")]),
    (("verified",), ..., [("$input.verified", "boolean")]),
    (("phone",), None, [("$input.phone", "string")]),
]


def check_python(value: Contact) -> None:
    """A TypedDict is a dict at run time."""
    assert value == SAMPLE and value is not SAMPLE
