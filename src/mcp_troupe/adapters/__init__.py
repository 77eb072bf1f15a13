"""The tool table and tool results in the shapes of the LLM APIs' function calling: OpenAI, Anthropic, Gemini.

Pure functions over :class:`~mcp_troupe.ToolSpec` and :class:`~mcp_troupe.ToolResult`; they build plain
``dict``\\ s, so no provider SDK is needed at run time (the tests check every shape against the SDKs' own
types). One agent turn::

    from mcp_troupe import adapters

    tools = adapters.openai_tools(troupe.tools(ready_only=True), api="chat", strict=True)
    ...  # send tools, get back a tool call (name, call id, JSON arguments)
    name = adapters.troupe_name("openai", call.function.name)
    args = adapters.arguments_for("openai", call.function.name, json.loads(call.function.arguments))
    result = troupe.call(name, args)
    messages.append(adapters.openai_tool_message(call.id, result, api="chat"))

Each ``*_tools`` function returns a :class:`ProviderTools` (a ``list``) with ``excluded``: the tools it left
out, each with the reason (a schema the provider cannot take, a name clash after renaming, a quarantined
tool), and logs each exclusion. Where a conversion changes what the model sends (an optional field made
required-nullable for OpenAI strict mode, a free-form object sent as a JSON string, a parameter renamed for
Gemini), :func:`arguments_for` maps the model's arguments back; :func:`troupe_name` maps a provider-side tool
name back where it had to differ. Both also exist as methods of the returned list, which is the exact
answer for that list; the module-level functions answer for the latest list built per provider.
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import re
import threading
from collections.abc import Iterable, Mapping
from typing import Any, Final, Literal

from mcp_troupe.adapters._schema import (
    ArgumentMap,
    Unconvertible,
    anthropic_schema,
    gemini_name,
    gemini_schema,
    openai_schema,
)
from mcp_troupe.types import ToolResult, ToolSpec

__all__ = [
    "ArgumentMap",
    "Provider",
    "ProviderTools",
    "anthropic_tool_result",
    "anthropic_tools",
    "arguments_for",
    "gemini_function_response",
    "gemini_tools",
    "openai_tool_message",
    "openai_tools",
    "troupe_name",
]

log = logging.getLogger("mcp_troupe.adapters")

Provider = Literal["openai", "anthropic", "gemini"]
OpenAIApi = Literal["chat", "responses"]

OPENAI_MAX_TOOLS: Final = 128
"""Tools one OpenAI request may carry (chat and responses): more is a 400, so the rest are left out."""

_OPENAI_NAME: Final = re.compile(r"\A[A-Za-z0-9_-]{1,64}\Z")
_OPENAI_UNSAFE: Final = re.compile(r"[^A-Za-z0-9_-]")
_GEMINI_NAME: Final = re.compile(r"\A[A-Za-z_][A-Za-z0-9_.:\-]{0,63}\Z")
# Media types the Anthropic API takes in an image block of a tool result.
_ANTHROPIC_IMAGE_TYPES: Final = frozenset({"image/jpeg", "image/png", "image/gif", "image/webp"})

_lock = threading.Lock()
# Per provider, the latest list's provider name → (troupe name, argument map).
_latest: dict[str, dict[str, tuple[str, ArgumentMap]]] = {}


class ProviderTools(list[dict[str, Any]]):
    """The tool list for one provider: a ``list`` of tool definitions, with what was left out and why.

    ``excluded`` maps each left-out tool's troupe name to the reason.
    """

    def __init__(
        self,
        provider: Provider,
        tools: Iterable[dict[str, Any]] = (),
        *,
        excluded: Mapping[str, str] | None = None,
        names: Mapping[str, tuple[str, ArgumentMap]] | None = None,
    ) -> None:
        super().__init__(tools)
        self.provider: Provider = provider
        self.excluded: dict[str, str] = dict(excluded or {})
        self._names: dict[str, tuple[str, ArgumentMap]] = dict(names or {})

    def troupe_name(self, provider_name: str) -> str:
        """The troupe's name of the tool the model calls ``provider_name`` (unchanged when unknown)."""
        entry = self._names.get(provider_name)
        return entry[0] if entry is not None else provider_name

    def arguments_for(self, provider_name: str, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
        """The model's ``arguments`` for ``provider_name``, mapped back to the tool's own schema."""
        entry = self._names.get(provider_name)
        args = _arguments(provider_name, arguments)
        if entry is None or entry[1].is_identity:
            return args
        mapped = entry[1].apply(args)
        return mapped if isinstance(mapped, dict) else args


def troupe_name(provider: Provider, provider_name: str) -> str:
    """The troupe's name for a tool the model of ``provider`` called ``provider_name``.

    Answers for the latest list built for that provider; a name it did not rename comes back unchanged.
    """
    _check_provider(provider)
    with _lock:
        entry = _latest.get(provider, {}).get(provider_name)
    return entry[0] if entry is not None else provider_name


def _check_provider(provider: object) -> None:
    # Another name found no list and answered every name unchanged, as if no tool had been renamed.
    if provider not in ("openai", "anthropic", "gemini"):
        raise ValueError(f"provider must be 'openai', 'anthropic' or 'gemini', not {provider!r:.60}")


def _arguments(tool_name: str, arguments: object) -> dict[str, Any]:
    if arguments is None:
        return {}
    if not isinstance(arguments, Mapping):
        hint = " (the model's JSON text: decode it first, json.loads)" if isinstance(arguments, str) else ""
        raise TypeError(
            f"the arguments for {tool_name!r} must be a mapping or None, got {type(arguments).__name__}{hint}"
        )
    return dict(arguments)


def arguments_for(provider: Provider, tool_name: str, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
    """The model's ``arguments`` for ``tool_name`` (the provider-side name) in the tool's own schema.

    Undoes what the conversion for ``provider`` changed: nulls of optional fields made required-nullable are
    dropped, JSON strings that stand for objects are decoded, renamed parameters get their names back.
    Answers for the latest list built for that provider.
    """
    _check_provider(provider)
    with _lock:
        entry = _latest.get(provider, {}).get(tool_name)
    args = _arguments(tool_name, arguments)
    if entry is None or entry[1].is_identity:
        return args
    mapped = entry[1].apply(args)
    return mapped if isinstance(mapped, dict) else args


# ---- the tool lists ----------------------------------------------------------------------------------------


def _provider_name(provider: Provider, name: str) -> str:
    if provider == "gemini":
        return name if _GEMINI_NAME.match(name) else gemini_name(name)
    if _OPENAI_NAME.match(name):
        return name
    return (_OPENAI_UNSAFE.sub("_", name) or "_")[:64]


def _build(
    provider: Provider,
    specs: Iterable[ToolSpec],
    convert: Any,
    *,
    limit: int | None = None,
) -> ProviderTools:
    """Convert each spec with ``convert(spec, provider_name)``; collect what is left out and why."""
    if isinstance(specs, str | Mapping | ToolSpec) or not isinstance(specs, Iterable):
        raise TypeError(
            f"{provider} tools are built from a list of ToolSpec (troupe.tools()), got {type(specs).__name__}"
        )
    specs = list(specs)
    for index, spec in enumerate(specs):
        if not isinstance(spec, ToolSpec):
            # (It failed with AttributeError: 'dict' object has no attribute 'is_quarantined'.)
            raise TypeError(
                f"{provider} tools are built from ToolSpecs (troupe.tools()); item {index} is a "
                f"{type(spec).__name__}"
            )
    built: list[tuple[str, str, dict[str, Any], ArgumentMap]] = []
    excluded: dict[str, str] = {}
    holders: dict[str, list[str]] = {}
    for spec in specs:
        if spec.is_quarantined:
            excluded[spec.name] = "quarantined: its definition changed since it was approved"
            continue
        if spec.is_app_only:
            excluded[spec.name] = "visible to the server's app alone (MCP Apps _meta.ui.visibility)"
            continue
        name = _provider_name(provider, spec.name)
        try:
            definition, mapping = convert(spec, name)
        except Unconvertible as exc:
            excluded[spec.name] = f"its input schema cannot be expressed for {provider}: {exc}"
            continue
        holders.setdefault(name, []).append(spec.name)
        built.append((spec.name, name, definition, mapping))
    tools: list[dict[str, Any]] = []
    names: dict[str, tuple[str, ArgumentMap]] = {}
    for original, name, definition, mapping in built:
        clash = holders[name]
        if len(clash) > 1:
            # Both sides go, as for qualified names: a model call must never reach the wrong tool.
            others = ", ".join(repr(other) for other in clash if other != original)
            excluded[original] = f"its {provider} name {name!r} is also the name of {others}"
            continue
        if limit is not None and len(tools) >= limit:
            excluded[original] = f"{provider} accepts at most {limit} tools in one request"
            continue
        tools.append(definition)
        names[name] = (original, mapping)
    for original, reason in excluded.items():
        log.warning("%s adapter: tool %s left out: %s", provider, original, reason)
    with _lock:
        _latest[provider] = dict(names)
    return ProviderTools(provider, tools, excluded=excluded, names=names)


def openai_tools(
    specs: Iterable[ToolSpec], *, api: OpenAIApi = "chat", strict: bool = False
) -> ProviderTools:
    """The ``tools`` of an OpenAI request: Chat Completions (``api="chat"``) or Responses (``"responses"``).

    ``strict=True`` makes each schema fit structured outputs (see the module docs of the schema rules);
    the model's arguments then need :func:`arguments_for` before the call.
    """
    if api not in ("chat", "responses"):
        raise ValueError(f"api must be 'chat' or 'responses', not {api!r}")

    def convert(spec: ToolSpec, name: str) -> tuple[dict[str, Any], ArgumentMap]:
        parameters, mapping = openai_schema(spec.input_schema, strict=strict)
        function: dict[str, Any] = {"name": name, "description": spec.description, "parameters": parameters}
        if api == "responses":
            return {"type": "function", **function, "strict": strict}, mapping
        if strict:
            function["strict"] = True
        return {"type": "function", "function": function}, mapping

    return _build("openai", specs, convert, limit=OPENAI_MAX_TOOLS)


def anthropic_tools(specs: Iterable[ToolSpec]) -> ProviderTools:
    """The ``tools`` of an Anthropic Messages request."""

    def convert(spec: ToolSpec, name: str) -> tuple[dict[str, Any], ArgumentMap]:
        definition = {
            "name": name,
            "description": spec.description,
            "input_schema": anthropic_schema(spec.input_schema),
        }
        return definition, ArgumentMap()

    return _build("anthropic", specs, convert)


def gemini_tools(specs: Iterable[ToolSpec]) -> ProviderTools:
    """Gemini function declarations (camelCase, as the REST API and ``google.genai.types`` take them).

    Pass them as ``types.Tool(function_declarations=list(decls))`` or ``{"functionDeclarations": decls}``.
    """

    def convert(spec: ToolSpec, name: str) -> tuple[dict[str, Any], ArgumentMap]:
        parameters, mapping = gemini_schema(spec.input_schema)
        declaration: dict[str, Any] = {"name": name, "description": spec.description}
        if parameters is not None:
            declaration["parameters"] = parameters
        return declaration, mapping

    return _build("gemini", specs, convert)


# ---- tool results ------------------------------------------------------------------------------------------


def _images(result: ToolResult) -> list[tuple[str, str]]:
    """The ``(mime type, base64 data)`` of each image block of ``result`` whose data decodes."""
    found = []
    for block in result.content:
        if block.get("type") != "image":
            continue
        data, mime = block.get("data"), block.get("mimeType")
        if not isinstance(data, str) or not isinstance(mime, str):
            continue
        try:
            base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            continue
        found.append((mime, data))
    return found


def _is_json_of(text: str, value: Any) -> bool:
    """Whether ``text`` is a JSON document of ``value`` (so sending both says the same thing twice)."""
    if not text.lstrip().startswith(("{", "[")):
        return False
    try:
        return bool(json.loads(text) == value)
    except (ValueError, RecursionError):
        return False


def _check_result(what: str, call_id: object, result: object) -> None:
    # (A string or a raw dict failed with AttributeError: 'str' object has no attribute 'is_error'.)
    if not isinstance(call_id, str):
        raise TypeError(
            f"{what}: the tool call's id (or name) must be a string, got {type(call_id).__name__}"
        )
    if not isinstance(result, ToolResult):
        raise TypeError(
            f"{what}: result must be the ToolResult of troupe.call(), got {type(result).__name__}"
        )


def _error_text(result: ToolResult) -> str:
    # Chat Completions and Gemini have no error flag on a tool message; the text must say it.
    return f"Error: {result.text}" if result.is_error else result.text


def openai_tool_message(call_id: str, result: ToolResult, *, api: OpenAIApi = "chat") -> dict[str, Any]:
    """``result`` as the message that answers tool call ``call_id``.

    Chat Completions: a ``{"role": "tool"}`` message with text only (the API takes no images there; each
    image is named in the text). Responses: a ``function_call_output`` item whose output also carries the
    images as ``input_image`` data URLs. A failed call's text starts with ``Error:``.
    """
    _check_result("openai_tool_message", call_id, result)
    if api == "chat":
        return {"role": "tool", "tool_call_id": call_id, "content": _error_text(result)}
    if api != "responses":
        raise ValueError(f"api must be 'chat' or 'responses', not {api!r}")
    images = _images(result)
    if not images:
        return {"type": "function_call_output", "call_id": call_id, "output": _error_text(result)}
    output: list[dict[str, Any]] = [{"type": "input_text", "text": _error_text(result)}]
    output.extend({"type": "input_image", "image_url": f"data:{mime};base64,{data}"} for mime, data in images)
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def anthropic_tool_result(tool_use_id: str, result: ToolResult) -> dict[str, Any]:
    """``result`` as a ``tool_result`` content block (send it in a ``user`` message), with ``is_error`` and
    the images of types the API takes (JPEG, PNG, GIF, WebP)."""
    _check_result("anthropic_tool_result", tool_use_id, result)
    content: list[dict[str, Any]] = []
    if result.text:
        content.append({"type": "text", "text": result.text})
    for mime, data in _images(result):
        if mime in _ANTHROPIC_IMAGE_TYPES:
            content.append({"type": "image", "source": {"type": "base64", "media_type": mime, "data": data}})
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}
    if result.is_error:
        block["is_error"] = True
    return block


def gemini_function_response(name: str, result: ToolResult, *, call_id: str | None = None) -> dict[str, Any]:
    """``result`` as a Gemini ``Part`` with a ``functionResponse`` for the function ``name``.

    The response is ``{"output": text}``, or ``{"error": text}`` for a failed call (the keys the API reads);
    images become inline-data parts (raw bytes, as ``google.genai.types`` holds them). ``call_id`` is the
    function call's ``id`` when the model gave one.

    ``structuredContent`` is sent once, not twice: when the text is its JSON (servers SHOULD send both, and
    the text of a result without one is rendered from it), the output is the object itself; when the text
    says something else, the object rides along as ``structuredContent``; and when the text was cut to the
    output budget it is left out, since the whole object would bring back what the budget cut.
    """
    _check_result("gemini_function_response", name, result)
    if call_id is not None and not isinstance(call_id, str):
        raise TypeError(
            f"gemini_function_response: call_id must be a string or None, got {type(call_id).__name__}"
        )
    response: dict[str, Any] = {"error": result.text} if result.is_error else {"output": result.text}
    structured = result.structured
    if structured is not None and result.full_text is None:
        if not _is_json_of(result.text, structured):
            response["structuredContent"] = structured
        elif not result.is_error:
            response["output"] = structured
    function_response: dict[str, Any] = {"name": name, "response": response}
    if call_id is not None:
        function_response["id"] = call_id
    parts = [
        {"inlineData": {"mimeType": mime, "data": base64.b64decode(data)}} for mime, data in _images(result)
    ]
    if parts:
        function_response["parts"] = parts
    return {"functionResponse": function_response}
