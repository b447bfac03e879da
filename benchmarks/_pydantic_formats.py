"""The shipment and contact payloads' types for pydantic (strict, extra keys forbidden).

The UUID and datetime fields read the model's strings (``Strict(False)``), as pydantic's
JSON mode does; email is pydantic's ``EmailStr``. A module of its own, imported only when
the format rows are measured: pydantic is an optional peer.
"""

import uuid
from datetime import datetime
from typing import Annotated

from annotated_types import Ge, Le, MaxLen, MinLen
from pydantic import ConfigDict, EmailStr, Strict, StringConstraints
from typing_extensions import TypedDict

from benchmarks.payloads import ORDER_ID, SKU

__all__ = ["PContact", "PShipment"]

_CONFIG = ConfigDict(extra="forbid", strict=True)
_Moment = Annotated[datetime, Strict(False)]


class PLine(TypedDict):
    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    sku: Annotated[str, StringConstraints(pattern=SKU)]
    quantity: Annotated[int, Ge(1), Le(1000)]


class PShipment(TypedDict):
    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    id: Annotated[str, StringConstraints(pattern=ORDER_ID)]
    created_at: _Moment
    lines: list[PLine]


class PContact(TypedDict):
    __pydantic_config__ = _CONFIG  # type: ignore[misc]
    id: Annotated[uuid.UUID, Strict(False)]
    name: Annotated[str, MinLen(1), MaxLen(80)]
    email: EmailStr
    created_at: _Moment
    updated_at: _Moment
