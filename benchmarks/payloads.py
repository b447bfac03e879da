"""The validation payloads: types S/M/L, a valid and a 3-mistake instance of each.

S is a search call (3 fields), M an order (a customer and 10 items), L a recursive
tree of 200 nodes. ``format_payloads()`` add what real tools carry: P a shipment with
two patterns (11 matches per call) and a date-time, F a contact with the formats
email, uuid and date-time; pydantic validates them strict (the model's strings for a
``UUID`` or a ``datetime`` are read as JSON would be) with extra keys forbidden. Each size is both a ``TypedDict`` (what pydantic validates) and
a method of ``Targets`` whose parameters are the same fields (what
``llmapp.application`` turns into a parameters schema), so every peer checks the
same rules: the same bounds, enums, nullability, and no extra keys.

The mistakes are ones that every peer rejects in its default mode (pydantic's lax
mode would accept ``"3"`` for an integer, so no such mistake is used).
"""

from __future__ import annotations

import copy
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Literal

from annotated_types import Ge, Gt, Le, MaxLen, MinLen
from typing_extensions import TypedDict

from llmapp.markers import Email, Pattern

__all__ = [
    "PAYLOADS",
    "Customer",
    "Item",
    "Node",
    "Order",
    "Payload",
    "Search",
    "Targets",
    "Tree",
    "format_payloads",
    "order_with_items",
]

# pydantic reads this from a TypedDict; the JSON-schema peers get additionalProperties: false.
_FORBID_EXTRA = {"extra": "forbid"}


class Search(TypedDict):
    query: str
    limit: Annotated[int, Ge(1), Le(100)]
    exact: bool


class Customer(TypedDict):
    id: Annotated[int, Ge(1)]
    name: Annotated[str, MinLen(1), MaxLen(80)]
    email: str
    vip: bool


class Item(TypedDict):
    sku: Annotated[str, MinLen(3), MaxLen(20)]
    quantity: Annotated[int, Ge(1), Le(1000)]
    price: Annotated[float, Gt(0)]
    tags: list[str]


class Order(TypedDict):
    id: str
    customer: Customer
    items: list[Item]
    priority: Literal["low", "normal", "high"]
    note: str | None


class Node(TypedDict):
    name: str
    size: Annotated[int, Ge(0)]
    kind: Literal["dir", "file"]
    children: list[Node]


class Tree(TypedDict):
    root: Node


for _typed_dict in (Search, Customer, Item, Order, Node, Tree):
    _typed_dict.__pydantic_config__ = _FORBID_EXTRA  # type: ignore[attr-defined]

ORDER_ID = r"^ORD-\d{4}-\d{6}$"
SKU = r"^SKU-\d{5}$"


class Line(TypedDict):
    sku: Annotated[str, Pattern(SKU)]
    quantity: Annotated[int, Ge(1), Le(1000)]


class Targets:
    """The same fields as methods, for ``llmapp.application``."""

    def search(self, query: str, limit: Annotated[int, Ge(1), Le(100)], exact: bool) -> None:
        """Search the catalogue."""

    def place_order(
        self,
        id: str,
        customer: Customer,
        items: list[Item],
        priority: Literal["low", "normal", "high"],
        note: str | None,
    ) -> None:
        """Place an order."""

    def save_tree(self, root: Node) -> None:
        """Save a tree."""

    def ship(
        self, id: Annotated[str, Pattern(ORDER_ID)], created_at: datetime, lines: list[Line]
    ) -> None:
        """Ship an order."""

    def save_contact(
        self,
        id: uuid.UUID,
        name: Annotated[str, MinLen(1), MaxLen(80)],
        email: Email,
        created_at: datetime,
        updated_at: datetime,
    ) -> None:
        """Save a contact."""


def _search() -> dict[str, Any]:
    return {"query": "red running shoes", "limit": 20, "exact": False}


def _item(i: int) -> dict[str, Any]:
    return {
        "sku": f"SKU-{i:05d}",
        "quantity": 1 + i % 7,
        "price": 9.99 + i,
        "tags": ["sale", f"group-{i % 3}"],
    }


def order_with_items(count: int) -> dict[str, Any]:
    """A valid order with ``count`` items (the payload of the scale benchmark)."""
    return {
        "id": "ORD-2024-000123",
        "customer": {"id": 42, "name": "Ada Lovelace", "email": "ada@example.com", "vip": True},
        "items": [_item(i) for i in range(count)],
        "priority": "normal",
        "note": None,
    }


def _tree(count: int) -> dict[str, Any]:
    """A tree of ``count`` nodes filled breadth-first, up to 4 children per node."""
    nodes = [
        {"name": f"node-{i}", "size": i * 10, "kind": "dir", "children": []} for i in range(count)
    ]
    for i in range(1, count):
        parent = nodes[(i - 1) // 4]
        parent["children"].append(nodes[i])
    for node in nodes:
        if not node["children"]:
            node["kind"] = "file"
    return {"root": nodes[0]}


def _nodes(tree: dict[str, Any]) -> list[dict[str, Any]]:
    """The tree's nodes in breadth-first order (the order ``_tree`` numbered them)."""
    out = [tree["root"]]
    for node in out:
        out.extend(node["children"])
    return out


def _invalid_search() -> dict[str, Any]:
    data = _search()
    data["query"] = None  # not a string
    data["limit"] = 500  # above Le(100)
    data["exact"] = "maybe"  # not a boolean (pydantic's lax mode rejects it too)
    return data


def _invalid_order() -> dict[str, Any]:
    data = order_with_items(10)
    data["customer"]["email"] = None  # not a string
    data["items"][4]["quantity"] = 0  # below Ge(1)
    del data["items"][8]["price"]  # a required key missing
    return data


def _invalid_tree() -> dict[str, Any]:
    data = _tree(200)
    nodes = _nodes(data)
    nodes[30]["size"] = -5  # below Ge(0)
    nodes[110]["kind"] = "folder"  # not in the enum
    nodes[190]["owner"] = "root"  # a key that must not be there
    return data


def _shipment() -> dict[str, Any]:
    lines = [{"sku": f"SKU-{i:05d}", "quantity": 1 + i % 7} for i in range(10)]
    return {"id": "ORD-2024-000123", "created_at": "2024-05-01T12:30:00Z", "lines": lines}


def _invalid_shipment() -> dict[str, Any]:
    data = _shipment()
    data["id"] = "ORD-24-123"  # does not match the pattern
    data["lines"][3]["sku"] = "SKU-12"  # does not match the pattern
    data["created_at"] = "2024-05-01 noon"  # not a date-time
    return data


def _contact() -> dict[str, Any]:
    return {
        "id": "5f0c6f4e-8e1b-4d5e-9a53-2b3c4d5e6f70",
        "name": "Ada Lovelace",
        "email": "ada@example.com",
        "created_at": "2024-05-01T12:30:00.123456+02:00",
        "updated_at": "2024-06-01T08:00:00Z",
    }


def _invalid_contact() -> dict[str, Any]:
    data = _contact()
    data["id"] = "5f0c6f4e-8e1b"  # not a uuid
    data["email"] = "ada.example.com"  # not an email
    data["updated_at"] = "2024-06-31T08:00:00Z"  # no 31st of June
    return data


@dataclass(frozen=True)
class Payload:
    """One row of the validation table."""

    size: str  # "S" | "M" | "L" | "P" | "F"
    valid: bool
    type: Any  # the TypedDict pydantic validates
    method: str  # the Targets method whose parameters are the same fields
    data: dict[str, Any]

    @property
    def label(self) -> str:
        return f"{self.size} {'valid' if self.valid else 'invalid'}"

    def fresh(self) -> dict[str, Any]:
        return copy.deepcopy(self.data)


PAYLOADS: list[Payload] = [
    Payload("S", True, Search, "search", _search()),
    Payload("S", False, Search, "search", _invalid_search()),
    Payload("M", True, Order, "place_order", order_with_items(10)),
    Payload("M", False, Order, "place_order", _invalid_order()),
    Payload("L", True, Tree, "save_tree", _tree(200)),
    Payload("L", False, Tree, "save_tree", _invalid_tree()),
]
"""Every validation row, in table order; invalid rows carry exactly 3 mistakes."""


def format_payloads() -> list[Payload]:
    """The pattern, format and datetime rows (pydantic's types are built on first use)."""
    from benchmarks._pydantic_formats import PContact as contact
    from benchmarks._pydantic_formats import PShipment as shipment

    return [
        Payload("P", True, shipment, "ship", _shipment()),
        Payload("P", False, shipment, "ship", _invalid_shipment()),
        Payload("F", True, contact, "save_contact", _contact()),
        Payload("F", False, contact, "save_contact", _invalid_contact()),
    ]
