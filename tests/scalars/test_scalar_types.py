"""The one table of scalar types, read by every stage: each row round-trips, end to end.

The proof of the table: ``IPv4Network`` and its kin, added by adding rows only.
"""

from __future__ import annotations

import ipaddress
import uuid
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal
from pathlib import PurePosixPath
from typing import Any

import pytest

import llmapp
from llmapp._scalars.table import SCALARS, scalar_of
from llmapp.convert import to_json
from llmapp.validate._formats import STRING_FORMATS

SAMPLES: list[Any] = [
    True,
    7,
    2.5,
    "text",
    b"\x00\xffbytes",
    bytearray(b"ab"),
    datetime(2024, 5, 1, 10, 0, tzinfo=timezone.utc),
    datetime(2024, 5, 1, 10, 0, 30, 123456),
    date(2024, 2, 29),
    time(8, 30, tzinfo=timezone(timedelta(hours=2))),
    time(8, 30),
    timedelta(days=1, hours=2, minutes=3, seconds=4),
    uuid.UUID(int=12345),
    Decimal("1.10"),
    PurePosixPath("/tmp/x"),
    ipaddress.IPv4Address("10.1.2.3"),
    ipaddress.IPv6Address("2001:db8::1"),
    ipaddress.IPv4Network("10.0.0.0/8"),
    ipaddress.IPv6Network("2001:db8::/32"),
    ipaddress.IPv4Interface("10.0.0.1/8"),
    ipaddress.IPv6Interface("2001:db8::1/64"),
]


def test_every_row_has_a_sample() -> None:
    rows = {scalar_of(type(sample))[0] for sample in SAMPLES}  # type: ignore[index]
    assert rows == set(SCALARS)


def test_every_format_of_the_table_is_checked_by_the_validator() -> None:
    for row in SCALARS:
        for form in row.forms:
            if form.format is not None:
                assert STRING_FORMATS[form.format] is form.check


@pytest.mark.parametrize("value", SAMPLES, ids=repr)
def test_each_type_round_trips_through_schema_validator_and_conversion(value: Any) -> None:
    """A method taking and returning the type: the value's JSON passes the parameter
    schema, converts back to an equal value, and the result passes the output schema."""
    kind = type(value)

    class Echo:
        def echo(self, value: Any) -> Any:
            """Give the value back."""
            return value

    Echo.echo.__annotations__ = {"value": kind, "return": kind}

    app = llmapp.application(Echo)
    function = app.function("echo")
    sent = to_json(value)
    result = app.execute(Echo(), "echo", {"value": sent})
    assert result.success, result.feedback
    assert result.value == value and type(result.value) is kind
    assert llmapp.validator(function.output)(result.data).success


# -- the proof: IP networks and interfaces are rows of the table ---------------------------


class Firewall:
    def allow(
        self, network: ipaddress.IPv4Network, gateway: ipaddress.IPv6Interface
    ) -> ipaddress.IPv4Network:
        """Open a network."""
        return network


def test_ip_networks_have_a_schema_a_check_and_a_conversion() -> None:
    app = llmapp.application(Firewall)
    properties = app.function("allow").parameters["properties"]
    assert properties["network"] == {"type": "string", "format": "ipv4network"}
    assert properties["gateway"] == {"type": "string", "format": "ipv6interface"}
    result = app.execute(
        Firewall(), "allow", {"network": "10.0.0.0/8", "gateway": "2001:db8::1/64"}
    )
    assert result.success and result.value == ipaddress.IPv4Network("10.0.0.0/8")
    assert result.data == "10.0.0.0/8"
    refused = app.execute(Firewall(), "allow", {"network": "10.0.0.1/8", "gateway": "x"})
    assert [issue.path for issue in refused.validation.errors] == [  # type: ignore[union-attr]
        "$input.network",
        "$input.gateway",
    ]
