"""Render a ``tools/call`` result into the text the model reads, keeping the raw result beside it.

Pure code. Every content type becomes something readable: text as is, binary data as a typed placeholder
(the bytes stay in ``raw``), links and embedded resources as their URI and metadata, ``structuredContent`` as
JSON when the server sent no text for it.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from typing import Any

from mcp_troupe.types import ToolResult

__all__ = ["render_block", "render_call_result"]


def _decoded_size(data: object) -> int | None:
    if not isinstance(data, str):
        return None
    try:
        return len(base64.b64decode(data, validate=False))
    except (binascii.Error, ValueError):
        return None


def _size_text(size: int | None) -> str:
    return "unknown size" if size is None else f"{size} bytes"


def render_block(block: object) -> str:
    """One content block as text."""
    if not isinstance(block, dict):
        return f"[unreadable content block: {type(block).__name__}]"
    kind = block.get("type")
    if kind == "text":
        text = block.get("text")
        return text if isinstance(text, str) else "[text block without text]"
    if kind in ("image", "audio"):
        mime = block.get("mimeType") or "unknown type"
        return f"[{kind}: {mime}, {_size_text(_decoded_size(block.get('data')))}]"
    if kind == "resource_link":
        parts = [f"uri={block.get('uri')}"]
        for key in ("name", "title", "mimeType", "description"):
            value = block.get(key)
            if isinstance(value, str) and value:
                parts.append(f"{key}={value}")
        return "[resource link: " + ", ".join(parts) + "]"
    if kind == "resource":
        resource = block.get("resource")
        if not isinstance(resource, dict):
            return "[embedded resource without contents]"
        uri = resource.get("uri")
        text = resource.get("text")
        if isinstance(text, str):
            return f"[resource {uri}]\n{text}"
        mime = resource.get("mimeType") or "unknown type"
        return f"[resource {uri}: {mime}, {_size_text(_decoded_size(resource.get('blob')))}]"
    return f"[unsupported content type {kind!r}]"


def render_call_result(result: Mapping[str, Any]) -> ToolResult:
    """Turn a ``CallToolResult`` into a :class:`ToolResult`."""
    content = result.get("content")
    blocks = content if isinstance(content, list) else []
    text = "\n".join(render_block(block) for block in blocks)
    structured = result.get("structuredContent")
    if structured is not None and not text:
        text = json.dumps(structured, ensure_ascii=False, sort_keys=True)
    return ToolResult(text=text, is_error=result.get("isError") is True, raw=result, structured=structured)
