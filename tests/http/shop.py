"""The FastAPI application the HTTP tests run against (served by ``tests/http/conftest.py``).

A module of its own, imported when the server starts, so that collecting the HTTP tests does
not import FastAPI; its routes' annotations are read from this module's namespace.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import FastAPI, File, Form, Header, Query, Request
from pydantic import BaseModel, Field


class Item(BaseModel):
    name: str
    price: Annotated[float, Field(gt=0)]
    tags: list[str] = []


@dataclass
class Seen:
    """What the server received (requests counted, except the document itself)."""

    count: int = 0
    paths: list[str] = field(default_factory=list)


def build_app(seen: Seen) -> FastAPI:
    app = FastAPI(title="test shop")

    @app.middleware("http")
    async def count(request: Request, call_next: Any) -> Any:
        if request.url.path != "/openapi.json":
            seen.count += 1
            seen.paths.append(request.url.path)
        return await call_next(request)

    @app.get("/items")
    def list_items(limit: int = 10, tags: Annotated[list[str], Query()] = []) -> dict[str, Any]:
        """List items."""
        return {"limit": limit, "tags": tags}

    @app.post("/items", status_code=201)
    def create_item(item: Item) -> Item:
        """Create an item."""
        return item

    @app.get("/items/{item_id}")
    def get_item(item_id: int) -> dict[str, Any]:
        """Get one item."""
        if item_id == 404:
            from fastapi import HTTPException

            raise HTTPException(status_code=404, detail="no such item")
        return {"id": item_id}

    @app.put("/items/{item_id}")
    def update_item(item_id: int, item: Item) -> dict[str, Any]:
        """Replace an item."""
        return {"id": item_id, "item": item.model_dump()}

    @app.delete("/items/{item_id}")
    def delete_item(item_id: int) -> dict[str, Any]:
        """Delete an item."""
        return {"deleted": item_id}

    @app.get("/echo/{value:path}")
    def echo(value: str) -> dict[str, str]:
        """Echo a path parameter."""
        return {"value": value}

    @app.post("/login")
    def login(username: Annotated[str, Form()], password: Annotated[str, Form()]) -> dict[str, str]:
        """Log in with a form."""
        return {"user": username, "length": str(len(password))}

    @app.post("/upload")
    def upload(title: Annotated[str, Form()], file: Annotated[bytes, File()]) -> dict[str, Any]:
        """Upload a file with a title."""
        return {"title": title, "size": len(file)}

    @app.post(
        "/raw/{name}",
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"image/png": {"schema": {"type": "string", "format": "binary"}}},
            }
        },
    )
    async def raw(name: str, request: Request) -> dict[str, Any]:
        """Upload raw bytes."""
        data = await request.body()
        return {"name": name, "size": len(data), "type": request.headers["content-type"]}

    @app.get("/secure")
    def secure(x_api_key: Annotated[str, Header()]) -> dict[str, str]:
        """Needs an API key header."""
        return {"key": x_api_key}

    return app
