"""Render a ``tools/call`` result into the text the model reads, keeping the raw result beside it.

Pure code. Every content type becomes something readable: text as is, binary data as a typed placeholder
(the bytes stay in ``raw``), links and embedded resources as their URI and metadata, ``structuredContent`` as
JSON when the server sent no text for it.

Two checks and one bound are applied on the way:

- ``structuredContent`` is validated against the tool's ``outputSchema`` when it has one (spec: 2025-06-18
  server/tools, "clients SHOULD validate structured results against this schema"). A mismatch is reported in a
  line of the text, never hidden and never raised: the model and the operator both get to see it.
- The text is bounded by an output budget (``max_chars``). A longer text is cut, and a marker says how much
  is shown and where the whole of it can be read (an in-process ``troupe://results/<id>`` resource), so
  nothing is lost silently.
"""

from __future__ import annotations

import base64
import binascii
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, Final

import jsonschema
from jsonschema.exceptions import best_match
from jsonschema.protocols import Validator

from mcp_troupe.policy.patterns import UnverifiablePattern, safe_validator
from mcp_troupe.types import ToolResult

__all__ = [
    "RESULTS_URI_PREFIX",
    "render_block",
    "render_call_result",
    "structured_content_problem",
    "truncation_marker",
]

RESULTS_URI_PREFIX: Final = "troupe://results/"
"""Where the full text of a truncated result is kept (read it with ``mcp_resources action=read``)."""

# Validators are built once per schema object: a tool's outputSchema is one object for as long as its catalog
# stands, and building a validator costs far more than running it on a small result.
VALIDATOR_CACHE_SIZE: Final = 256
_validators: OrderedDict[int, tuple[Mapping[str, Any], Validator | None, str | None]] = OrderedDict()
_validators_lock = threading.Lock()
# A validation error message quotes the offending value, which may be huge; the report keeps its start.
_PROBLEM_LIMIT: Final = 300


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
        size = block.get("size")
        if isinstance(size, int) and not isinstance(size, bool):
            parts.append(f"size={size}")
        return "[resource link: " + ", ".join(parts) + "; readable with mcp_resources action=read]"
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


def _validator_for(schema: Mapping[str, Any]) -> tuple[Validator | None, str | None]:
    """A validator for ``schema`` (cached by identity), or the reason the schema itself is unusable."""
    key = id(schema)
    with _validators_lock:
        entry = _validators.get(key)
        # The schema is kept in the entry, so its id cannot be reused by another object while cached.
        if entry is not None and entry[0] is schema:
            _validators.move_to_end(key)
            return entry[1], entry[2]
    validator: Validator | None = None
    problem: str | None = None
    try:
        # Patterns run in RE2, never in re: one catastrophic pattern would stall every thread (issue 15).
        validator = safe_validator(schema)
    except jsonschema.SchemaError as exc:
        problem = f"the tool's outputSchema is not a valid JSON Schema: {_short(exc.message)}"
    except UnverifiablePattern as exc:
        problem = f"structuredContent could not be checked in bounded time: {_short(str(exc))}"
    with _validators_lock:
        _validators[key] = (schema, validator, problem)
        while len(_validators) > VALIDATOR_CACHE_SIZE:
            _validators.popitem(last=False)
    return validator, problem


def _short(text: str) -> str:
    return text if len(text) <= _PROBLEM_LIMIT else text[: _PROBLEM_LIMIT - 1] + "…"


def structured_content_problem(result: Mapping[str, Any], output_schema: Mapping[str, Any]) -> str | None:
    """Why ``result`` breaks the tool's ``output_schema``, as one line; ``None`` when it conforms.

    spec: 2025-06-18 server/tools — a tool with an outputSchema MUST return conforming structuredContent.
    An error result (``isError``) is exempt: it reports a failure, not the tool's output.
    """
    if result.get("isError") is True:
        return None
    if "structuredContent" not in result:
        return "the tool declares an outputSchema but sent no structuredContent"
    validator, problem = _validator_for(output_schema)
    if validator is None:
        return problem
    try:
        error = best_match(validator.iter_errors(result["structuredContent"]))
    except UnverifiablePattern as exc:  # a pattern that needs backtracking: not run, and said so
        return f"structuredContent could not be checked in bounded time: {_short(str(exc))}"
    except Exception as exc:  # e.g. a $ref that cannot be resolved: we never fetch remote references
        return f"structuredContent could not be checked against the tool's outputSchema: {_short(str(exc))}"
    if error is None:
        return None
    where = "".join(f"[{part!r}]" for part in error.absolute_path)
    at = f" (at structuredContent{where})" if where else ""
    return f"structuredContent does not match the tool's outputSchema: {_short(error.message)}{at}"


def truncation_marker(shown: int, total: int, uri: str) -> str:
    """The line that ends a truncated text: how much is shown, and where the rest is."""
    return (
        f"[truncated: showing {shown} of {total} characters; full text: mcp_resources action=read uri={uri}]"
    )


def render_call_result(
    result: Mapping[str, Any],
    *,
    max_chars: int | None = None,
    output_schema: Mapping[str, Any] | None = None,
    new_result_uri: Callable[[], str] | None = None,
) -> ToolResult:
    """Turn a ``CallToolResult`` into a :class:`ToolResult`.

    Args:
        result: The server's result, untouched (it becomes ``raw``).
        max_chars: The output budget. A longer text is cut and ends with a :func:`truncation_marker`; the
            whole text is then in ``full_text`` and ``result_uri`` says where the caller is to keep it.
        output_schema: The tool's ``outputSchema``; ``structuredContent`` is checked against it and a
            mismatch is reported on a line of its own (kept even when the text is cut).
        new_result_uri: Makes the ``troupe://results/<id>`` URI of a truncated result; called only when the
            text is cut. Required with ``max_chars``.
    """
    content = result.get("content")
    blocks = content if isinstance(content, list) else []
    text = "\n".join([render_block(block) for block in blocks])
    structured = result.get("structuredContent")
    if structured is not None and not text:
        text = json.dumps(structured, ensure_ascii=False, sort_keys=True)
    is_error = result.get("isError") is True
    note = structured_content_problem(result, output_schema) if output_schema is not None else None
    if note is not None:
        text = f"{text}\n{note}" if text else note
    if max_chars is None or len(text) <= max_chars:
        return ToolResult(text=text, is_error=is_error, raw=result, structured=structured)
    if new_result_uri is None:
        raise ValueError("max_chars needs new_result_uri: a cut text must say where the whole of it is")
    uri = new_result_uri()
    tail = "" if note is None else f"\n{note}"
    # The marker's length depends on the number it shows; sizing it with the total (the larger number) keeps
    # the whole answer within the budget.
    reserve = len(tail) + 1 + len(truncation_marker(len(text), len(text), uri))
    shown = max(0, max_chars - reserve)
    cut = f"{text[:shown]}{tail}\n{truncation_marker(shown, len(text), uri)}"
    return ToolResult(
        text=cut,
        is_error=is_error,
        raw=result,
        structured=structured,
        full_text=text,
        result_uri=uri,
    )
