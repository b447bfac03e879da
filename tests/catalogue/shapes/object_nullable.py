"""ObjectNullable: fields that may be null, one of them a union of objects (typia ``ObjectNullable``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Optional, Union

from llmapp import llm_application


@dataclass
class Manufacturer:
    """Who makes a product.

    Attributes:
        type: Always "manufacturer".
    """

    type: Literal["manufacturer"]
    name: str


@dataclass
class Brand:
    """The name a product is sold under."""

    type: Literal["brand"]
    name: str


@dataclass
class Product:
    """A product whose brand may be unknown.

    Attributes:
        brand: The brand, or null when it is sold unbranded.
        similar: A brand or manufacturer it resembles, or null.
    """

    name: str
    manufacturer: Manufacturer
    brand: Brand | None
    similar: Union[Brand, Manufacturer, None]  # noqa: UP007  (the typing spelling is covered)
    note: Optional[str]  # noqa: UP045


@llm_application
class ObjectNullableApplication:
    """Products with nullable fields through the three catalogue methods."""

    def insert(self, first: Product) -> None:
        """Store one product.

        Args:
            first: The product to store.
        """

    def reduce(self, first: Product, second: Product | None) -> Product:
        """Keep the second product when there is one, else the first.

        @tag catalogue
        """
        return first if second is None else second

    def coalesce(
        self, first: Product | None, second: Product | None, third: Product | None = None
    ) -> Product | None:
        """The first product given, if any."""
        return next((item for item in (first, second, third) if item is not None), None)


APPLICATION = ObjectNullableApplication

SAMPLE = {
    "name": "Kettle",
    "manufacturer": {"type": "manufacturer", "name": "Acme"},
    "brand": {"type": "brand", "name": "Boil"},
    "similar": {"type": "manufacturer", "name": "Steam Works"},
    "note": "descales itself",
}

ALSO_VALID = [
    {**SAMPLE, "brand": None, "similar": None, "note": None},
    {**SAMPLE, "similar": {"type": "brand", "name": "Hot"}},
]

SPOILERS = [
    (("brand",), ..., [("$input.brand", "(Brand | null)")]),
    (("brand", "type"), "manufacturer", [("$input.brand.type", '"brand"')]),
    (("manufacturer",), None, [("$input.manufacturer", "Manufacturer")]),
    # An unknown tag: every allowed tag is named (the union's discriminator), not one branch's.
    (("similar", "type"), "shop", [("$input.similar.type", '("brand" | "manufacturer")')]),
    (("similar",), 1, [("$input.similar", "(Brand | Manufacturer | null)")]),
    (("note",), 3, [("$input.note", "(string | null)")]),
]
