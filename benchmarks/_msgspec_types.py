"""The S/M/L types as msgspec Structs (msgspec's own constraints; unknown keys forbidden)."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

__all__ = ["MSGSPEC_TYPES"]


class Search(Struct, forbid_unknown_fields=True):
    query: str
    limit: Annotated[int, Meta(ge=1, le=100)]
    exact: bool


class Customer(Struct, forbid_unknown_fields=True):
    id: Annotated[int, Meta(ge=1)]
    name: Annotated[str, Meta(min_length=1, max_length=80)]
    email: str
    vip: bool


class Item(Struct, forbid_unknown_fields=True):
    sku: Annotated[str, Meta(min_length=3, max_length=20)]
    quantity: Annotated[int, Meta(ge=1, le=1000)]
    price: Annotated[float, Meta(gt=0)]
    tags: list[str]


class Order(Struct, forbid_unknown_fields=True):
    id: str
    customer: Customer
    items: list[Item]
    priority: Literal["low", "normal", "high"]
    note: str | None


class Node(Struct, forbid_unknown_fields=True):
    name: str
    size: Annotated[int, Meta(ge=0)]
    kind: Literal["dir", "file"]
    children: list[Node]


class Tree(Struct, forbid_unknown_fields=True):
    root: Node


MSGSPEC_TYPES = {"search": Search, "place_order": Order, "save_tree": Tree}
"""Targets method name -> the Struct msgspec converts to."""
