"""Rich results: what a method returns to an MCP client besides JSON.

A method (a tool or a prompt) returns one of these, or a list mixing them with texts::

    def chart(self, month: str) -> Image:
        return Image(render(month), "image/png")

    def report(self, month: str) -> list[str | Image | EmbeddedResource]:
        return ["March:", Image(png), EmbeddedResource("bank://march.csv", csv, "text/csv")]

Each becomes one MCP content block: ``Image`` an ``image`` block, ``Audio`` an ``audio``
block (their bytes in base64), ``EmbeddedResource`` a ``resource`` block (a text, or bytes
as ``blob``), ``ResourceLink`` a ``resource_link`` block, a text a ``text`` block, any
other value a ``text`` block of its JSON. A function declared to return such content has
no ``outputSchema``: its answer is the blocks, not structured content (MCP's
``structuredContent`` is an object the schema describes; an image is not one).

No MCP package is needed here: these are plain values. The MCP server answers them as
content blocks; ``llmapp.mcp.call`` reads an upstream tool's content blocks back into them;
the vendors' ``call_tools`` give them to the model as the vendor's own blocks where it has
them (images to Anthropic and OpenAI's Responses API).
"""

from __future__ import annotations

import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from llmapp import convert
from llmapp._scalars.iso8601 import encode_base64

__all__ = [
    "CONTENT_TYPES",
    "Audio",
    "EmbeddedResource",
    "Image",
    "ResourceLink",
    "block",
    "blocks",
    "describe",
    "from_blocks",
    "is_content",
    "returns_content",
]


@dataclass(frozen=True)
class Image:
    """An image result: its bytes and media type (``image/png``, ``image/jpeg``...)."""

    data: bytes
    mime_type: str = "image/png"


@dataclass(frozen=True)
class Audio:
    """An audio result: its bytes and media type (``audio/wav``, ``audio/mpeg``...)."""

    data: bytes
    mime_type: str = "audio/wav"


@dataclass(frozen=True)
class EmbeddedResource:
    """A resource's content carried in the result: a text, or bytes (sent as ``blob``).

    ``mime_type`` defaults to ``text/plain`` for a text, ``application/octet-stream``
    for bytes.
    """

    uri: str
    content: str | bytes
    mime_type: str | None = None


@dataclass(frozen=True)
class ResourceLink:
    """A link to a resource the client may read (``resources/read``), not its content."""

    uri: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None


CONTENT_TYPES = (Image, Audio, EmbeddedResource, ResourceLink)


def is_content(value: Any) -> bool:
    """Whether ``value`` is content, or a list holding content (so not plain JSON)."""
    if isinstance(value, CONTENT_TYPES):
        return True
    return isinstance(value, (list, tuple)) and any(isinstance(v, CONTENT_TYPES) for v in value)


def returns_content(annotation: Any) -> bool:
    """Whether a return annotation declares content: a content type, or a list or union of
    content types and ``str`` with at least one content type in it."""
    found = _content_members(annotation)
    return found is not None and found


def _content_members(annotation: Any) -> bool | None:
    """``True``: content is in it; ``False``: only ``str``; ``None``: something else."""
    if annotation is str:
        return False
    if isinstance(annotation, type) and issubclass(annotation, CONTENT_TYPES):
        return True
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        return _content_members(typing.get_args(annotation)[0])
    args = typing.get_args(annotation)
    sequence = isinstance(origin, type) and issubclass(origin, Sequence) and origin is not str
    if not args or not (sequence or _is_union(annotation)):
        return None
    members = [_content_members(arg) for arg in args if arg is not Ellipsis]
    if any(member is None for member in members):
        return None
    return any(members)


def _is_union(annotation: Any) -> bool:
    import types

    origin = typing.get_origin(annotation)
    return origin is typing.Union or (hasattr(types, "UnionType") and origin is types.UnionType)


def blocks(value: Any) -> list[dict[str, Any]]:
    """The MCP content blocks (wire spelling) of a method's result."""
    items = value if isinstance(value, (list, tuple)) else [value]
    return [block(item) for item in items]


def block(value: Any) -> dict[str, Any]:
    """One content block: content as its kind, a text as itself, anything else as JSON."""
    if isinstance(value, Image):
        return {"type": "image", "data": encode_base64(value.data), "mimeType": value.mime_type}
    if isinstance(value, Audio):
        return {"type": "audio", "data": encode_base64(value.data), "mimeType": value.mime_type}
    if isinstance(value, EmbeddedResource):
        return {"type": "resource", "resource": resource_contents(value)}
    if isinstance(value, ResourceLink):
        link: dict[str, Any] = {"type": "resource_link", "uri": value.uri, "name": value.name}
        for key, field in (
            ("title", value.title),
            ("description", value.description),
            ("mimeType", value.mime_type),
        ):
            if field is not None:
                link[key] = field
        return link
    if isinstance(value, str):
        return {"type": "text", "text": value}
    return {"type": "text", "text": convert.json_text(convert.to_json(value))}


def resource_contents(resource: EmbeddedResource) -> dict[str, Any]:
    """A resource's contents (``uri``, ``mimeType``, and ``text`` or ``blob``)."""
    content = resource.content
    if isinstance(content, str):
        mime_type = resource.mime_type or "text/plain"
        return {"uri": resource.uri, "mimeType": mime_type, "text": content}
    return {
        "uri": resource.uri,
        "mimeType": resource.mime_type or "application/octet-stream",
        "blob": encode_base64(content),
    }


def from_blocks(found: Sequence[Any]) -> list[Any] | None:
    """An MCP result's content blocks (wire spelling) as the values they carry: a text as
    itself, an image as ``Image``...; ``None`` when every block is a text (nothing rich).
    A block of a kind not known here, or whose data is not base64, stays a mapping."""
    if all(isinstance(item, dict) and item.get("type") == "text" for item in found):
        return None
    return [_value(item) for item in found]


def _value(item: Any) -> Any:
    if not isinstance(item, dict):
        return item
    kind = item.get("type")
    try:
        if kind == "text":
            return str(item.get("text", ""))
        if kind in ("image", "audio"):
            made = Image if kind == "image" else Audio
            return made(_decoded(item["data"]), str(item.get("mimeType", "")))
        if kind == "resource":
            inner = item["resource"]
            content = inner["text"] if "text" in inner else _decoded(inner["blob"])
            return EmbeddedResource(str(inner["uri"]), content, inner.get("mimeType"))
        if kind == "resource_link":
            return ResourceLink(
                str(item["uri"]),
                str(item.get("name", "")),
                item.get("title"),
                item.get("description"),
                item.get("mimeType"),
            )
    except (KeyError, TypeError, ValueError):  # a malformed block: kept as it came
        return item
    return item


def _decoded(data: Any) -> bytes:
    import base64
    import binascii

    try:
        return base64.b64decode(str(data), validate=True)
    except binascii.Error as error:
        raise ValueError("not base64") from error


def describe(value: Any) -> str:
    """Content as a text for a model that reads only text: texts as they are, the rest
    named (``[image/png image, 68 bytes]``), never its bytes."""
    items = value if isinstance(value, (list, tuple)) else [value]
    return "\n".join(_described(item) for item in items)


def _described(item: Any) -> str:
    if isinstance(item, str):
        return item
    if isinstance(item, (Image, Audio)):
        kind = "image" if isinstance(item, Image) else "audio"
        return f"[{item.mime_type} {kind}, {len(item.data):,} bytes]"
    if isinstance(item, EmbeddedResource):
        if isinstance(item.content, str):
            return item.content
        return f"[resource {item.uri} ({item.mime_type}), {len(item.content):,} bytes]"
    if isinstance(item, ResourceLink):
        return f"[resource link: {item.uri}" + (f" ({item.name})]" if item.name else "]")
    return convert.json_text(convert.to_json(item))
