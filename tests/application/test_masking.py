"""Human-side values never reach the model through an error: every form of them is masked."""

from __future__ import annotations

import datetime
import decimal
import enum
import json
from dataclasses import dataclass
from typing import Annotated, Any

import pytest

from llmapp import application, llm_application
from llmapp.kernel._mask import MAX_SCANNED, Masker
from llmapp.markers import Human


@dataclass
class Creds:
    user: str
    token: str


class Vault:
    def __init__(self, key: str) -> None:
        self.key = key

    def __repr__(self) -> str:
        return f"<Vault {self.key}>"


@llm_application
class Pay:
    def charge(self, amount: int, token: Annotated[str, Human()]) -> str:
        """Charge."""
        raise ValueError(f"gateway refused token {token!r}")

    def sign(self, amount: int, key: Annotated[bytes, Human()]) -> str:
        """Sign."""
        raise ValueError(f"bad key {key!r}")

    def login(self, note: str, creds: Annotated[Creds, Human()]) -> str:
        """Login."""
        raise PermissionError(f"login failed for {creds}")

    def card(self, amount: int, cvv: Annotated[str, Human()]) -> str:
        """Card."""
        raise ValueError(f"cvv {cvv} rejected for amount 1234")

    def escaped(self, amount: int, token: Annotated[str, Human()]) -> str:
        """Escaped."""
        raise ValueError(json.dumps({"token": token}) + " " + repr(token))


CASES = [
    ("charge", '{"amount": 5}', {"token": "sk-live-ABCDEFGH"}, ["sk-live-ABCDEFGH"]),
    ("sign", '{"amount": 5}', {"key": b"RAW-KEY-BYTES"}, ["RAW-KEY-BYTES"]),
    (
        "login",
        '{"note": "x"}',
        {"creds": Creds("ann", "CRED-TOKEN-OBJ")},
        ["CRED-TOKEN-OBJ", "ann"],
    ),
    ("card", '{"amount": 5}', {"cvv": "123"}, ["cvv 123"]),
    ("escaped", '{"amount": 5}', {"token": 'p"ss\\wörd-SECRET'}, ["SECRET", "wörd", "\\u00f6"]),
]


@pytest.mark.parametrize(("name", "arguments", "human", "secrets"), CASES)
def test_the_message_holds_no_form_of_a_human_value(name, arguments, human, secrets) -> None:  # type: ignore[no-untyped-def]
    result = application(Pay).execute(Pay(), name, arguments, human=human)
    assert result.error is not None
    for text in (result.message(), result.feedback):
        assert "***" in text
        for secret in secrets:
            assert secret not in text


def test_a_short_value_is_masked_as_a_whole_word_only() -> None:
    result = application(Pay).execute(Pay(), "card", '{"amount": 5}', human={"cvv": "123"})
    assert result.message() == "The function raised ValueError: cvv *** rejected for amount 1234"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (b"\x00\xffkey", "\\x00\\xffkey"),
        (b"\x00\xffkey", "00ff6b6579"),
        (b"\x00\xffkey", "AP9rZXk="),
        ("a b&c/d", "a%20b%26c%2Fd"),
        ("a b&c/d", "a+b%26c%2Fd"),
        ("a b&c/d", "a%20b%26c/d"),  # quote() keeps "/" unless told otherwise
        # a text sent on as bytes (a header, a signature) shows as bytes do
        ("tök-1/x", "t\\xc3\\xb6k-1/x"),
        ("tök-1/x", "74c3b66b2d312f78"),
        ("tök-1/x", "dMO2ay0xL3g="),
        (Vault("VAULT-KEY"), "VAULT-KEY"),
        ({"deep": [[{"x": ("TOKEN-IN-A-TUPLE",)}]]}, "TOKEN-IN-A-TUPLE"),
        (12345, "12345"),
        (2.5, "2.5"),
    ],
)
def test_each_form_of_a_value_is_masked(value: Any, text: str) -> None:
    assert Masker.of(value).mask(f"<{text}>") == "<***>"


class Slotted:
    __slots__ = ("token", "user")

    def __init__(self, user: str, token: str) -> None:
        self.user, self.token = user, token


class SlottedChild(Slotted):
    __slots__ = "pin"

    def __init__(self, user: str, token: str, pin: str) -> None:
        super().__init__(user, token)
        self.pin = pin


class Clearance(enum.Enum):
    TOP_SECRET = "level-5"


@dataclass
class Masked:
    """A dataclass whose own str() shows its value in a form of its own."""

    number: str

    def __str__(self) -> str:
        return f"card ending {self.number[-4:]}-X"


class Badge:
    """An object whose own str() is neither its repr nor its attributes."""

    def __str__(self) -> str:
        return "BADGE-0042-ZX"


@pytest.mark.parametrize(
    ("value", "text"),
    [
        # str() forms, as an f-string writes a value: not the JSON text (ISO, "P3DT...")
        (datetime.datetime(1987, 3, 14, 9, 26, 53), "1987-03-14 09:26:53"),
        (datetime.datetime(1987, 3, 14, 9, 26, 53, 120), "1987-03-14 09:26:53.000120"),
        (datetime.date(1987, 3, 14), "1987-03-14"),
        (datetime.timedelta(days=3, hours=4, minutes=5, seconds=6), "3 days, 4:05:06"),
        (datetime.timedelta(minutes=5), "0:05:00"),
        (decimal.Decimal("1E+2"), "1E+2"),
        (decimal.Decimal("12.50"), "12.50"),
        (Badge(), "BADGE-0042-ZX"),
        (Masked("4111-1111-1111-1111"), "card ending 1111-X"),
        (Clearance.TOP_SECRET, "Clearance.TOP_SECRET"),
        (Clearance.TOP_SECRET, "TOP_SECRET"),
        (Clearance.TOP_SECRET, "level-5"),
        # attributes kept in __slots__ (no vars()), the class's own and its bases'
        (Slotted("ann", "SLOTTED-TOKEN-4242"), "SLOTTED-TOKEN-4242"),
        (SlottedChild("ann", "PARENT-TOKEN", "PIN-9876"), "PARENT-TOKEN"),
        (SlottedChild("ann", "PARENT-TOKEN", "PIN-9876"), "PIN-9876"),
    ],
)
def test_str_forms_and_slotted_attributes_are_masked(value: Any, text: str) -> None:
    assert Masker.of({"value": value}).mask(f"at {text} here") == "at *** here"


def test_str_forms_are_masked_in_a_method_error() -> None:
    @llm_application
    class Clinic:
        def book(self, note: str, birth: Annotated[datetime.datetime, Human()]) -> str:
            """Book."""
            raise ValueError(f"no record born {birth}")

    born = datetime.datetime(1987, 3, 14, 9, 26, 53)
    result = application(Clinic).execute(Clinic(), "book", '{"note": "n"}', human={"birth": born})
    assert result.message() == "The function raised ValueError: no record born ***"


def test_single_characters_booleans_and_none_are_left_alone() -> None:
    masker = Masker.of({"flag": True, "nothing": None, "letter": "a", "count": 7})
    assert masker.mask("a True None 7 b") == "a True None 7 b"


def test_any_long_slice_of_a_long_value_is_masked_and_the_cost_bounded() -> None:
    document = "".join(f"line {n}: the quick brown fox jumps over it.\n" for n in range(5_000))
    start, middle = document[:200], document[MAX_SCANNED // 2 : MAX_SCANNED // 2 + 300]
    masked = Masker.of({"file": document}).mask(f"cannot parse {start!r} near {middle}")
    assert masked == "cannot parse '***' near ***"
    assert Masker.of(b"\x01" * 10_000_000).mask("short text") == "short text"


def test_an_object_whose_repr_raises_gives_no_text() -> None:
    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    assert Masker.of(Broken()).mask("anything") in ("anything", "***")
