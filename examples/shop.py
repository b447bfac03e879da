"""An example application: a small shop an LLM agent can search and order from.

Run ``llmapp schema examples/shop.py:Shop`` to see it as LLM functions.
"""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Annotated, Literal

from annotated_types import Ge, Le, MaxLen, MinLen

from llmapp import llm_application
from llmapp.markers import ContentMediaType, Email, Human


class Category(enum.Enum):
    """A department of the shop."""

    BOOKS = "books"
    GARDEN = "garden"
    KITCHEN = "kitchen"


@dataclass(frozen=True)
class Product:
    """A product in the catalogue.

    Attributes:
        sku: Stock-keeping unit, unique per product.
        name: Name shown to customers.
        price: Unit price in euros.
        category: Department the product belongs to.
    """

    sku: str
    name: str
    price: float
    category: Category


@dataclass
class OrderItem:
    """One line of an order.

    Attributes:
        sku: The product's stock-keeping unit.
        quantity: How many to order.
    """

    sku: Annotated[str, MinLen(3), MaxLen(32)]
    quantity: Annotated[int, Ge(1), Le(100)] = 1


@dataclass
class Customer:
    """Who receives the order.

    Attributes:
        name: Full name.
        email: Address for the confirmation.
    """

    name: str
    email: Email


@dataclass
class Order:
    """An order as the shop recorded it.

    Attributes:
        id: The order's identifier.
        customer: Who receives it.
        items: What was ordered.
        priority: How fast it ships.
        created_at: When it was placed.
        status: Where it stands.
    """

    id: uuid.UUID
    customer: Customer
    items: list[OrderItem]
    priority: Literal["low", "normal", "high"]
    created_at: datetime
    status: Literal["open", "cancelled"] = "open"
    receipts: list[str] = field(default_factory=list)


CATALOGUE = [
    Product("BK-001", "The Pragmatic Gardener", 24.5, Category.BOOKS),
    Product("GD-104", "Rain barrel, 200 l", 89.0, Category.GARDEN),
    Product("GD-221", "Pruning shears", 19.9, Category.GARDEN),
    Product("KT-310", "Cast-iron pan", 45.0, Category.KITCHEN),
]


@llm_application
class Shop:
    """The shop's functions for an assistant."""

    def __init__(self) -> None:
        self.orders: dict[uuid.UUID, Order] = {}

    def search(
        self,
        query: str,
        category: Category | None = None,
        limit: Annotated[int, Ge(1), Le(50)] = 10,
    ) -> list[Product]:
        """Search the catalogue by words in the product name.

        @tag catalog

        Args:
            query: Words to look for, e.g. "shears".
            category: Only this department, when given.
            limit: Most results to return.
        """
        words = query.lower().split()
        found = [
            product
            for product in CATALOGUE
            if all(word in product.name.lower() for word in words)
            and (category is None or product.category is category)
        ]
        return found[:limit]

    def create_order(
        self,
        customer: Customer,
        items: Annotated[list[OrderItem], MinLen(1)],
        priority: Literal["low", "normal", "high"] = "normal",
    ) -> Order:
        """Place an order for a customer.

        Every item must name a product from the catalogue.

        @tag orders

        Args:
            customer: Who receives the order.
            items: Products and quantities; at least one.
            priority: How fast it ships.
        """
        known = {product.sku for product in CATALOGUE}
        unknown = [item.sku for item in items if item.sku not in known]
        if unknown:
            raise ValueError(f"unknown products: {', '.join(unknown)}")
        order = Order(uuid.uuid4(), customer, list(items), priority, datetime.now(timezone.utc))
        self.orders[order.id] = order
        return order

    def cancel_order(self, order_id: uuid.UUID, reason: str | None = None) -> Order:
        """Cancel an open order.

        @tag orders

        Args:
            order_id: The order's identifier.
            reason: Why, if the customer said.
        """
        order = self.orders[order_id]
        order.status = "cancelled"
        return order

    def attach_receipt(
        self,
        order_id: uuid.UUID,
        title: str,
        file: Annotated[bytes, ContentMediaType("application/pdf"), Human()],
    ) -> int:
        """Attach a scanned receipt to an order; the file comes from the user, not the model.

        @tag orders

        Args:
            order_id: The order's identifier.
            title: A short title for the receipt.
            file: The PDF the user uploaded.

        Returns:
            The receipt's size in bytes.
        """
        self.orders[order_id].receipts.append(title)
        return len(file)

    def track_order(self, order_id: uuid.UUID) -> str:
        """Where an order is.

        @deprecated Customers now get tracking by e-mail; use it only for old orders.
        @tag orders

        Args:
            order_id: The order's identifier.
        """
        return self.orders[order_id].status
