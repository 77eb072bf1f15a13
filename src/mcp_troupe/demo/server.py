"""A dependency-free stdio MCP server for demos, benchmarks and fault-injection tests.

Run it as ``python -m mcp_troupe.demo [flags]``. It speaks newline-delimited JSON-RPC 2.0 on stdin/stdout
(UTF-8, one message per line; spec: stdio transport, "MUST NOT contain embedded newlines") and writes
nothing but MCP messages to stdout unless a misbehaviour flag asks it to. Diagnostics go to stderr, prefixed
``demo:``.

It uses the standard library only and imports nothing from ``mcp_troupe`` outside ``mcp_troupe.demo``, so that
a client under test never shares code with the server it talks to.

What it offers
--------------
Protocol versions 2025-06-18, 2025-03-26 and 2024-11-05 (anything else is answered with 2025-06-18).

Tools: ``echo``, ``add``, ``now``, ``word_count``, ``sleep``, ``fail``, ``get_cancelled``, ``mutate_tools``,
``storm``; plus ``tool_0000``... with ``--tools N`` and ``extra_1``... added by ``mutate_tools``.
Resources: ``demo://readme``, ``demo://config``, ``demo://logo.png`` and the template ``demo://greeting/{name}``.
Prompts: ``review`` and ``greet``.

Requests are handled in order on the reading thread, except ``sleep``, which runs on its own daemon thread
so that pings, other calls and ``notifications/cancelled`` are processed while it sleeps. A cancelled
``sleep`` is never answered. Every ``notifications/cancelled`` is recorded, in order, and ``get_cancelled``
returns them.

Misbehaviour flags (all combinable)
-----------------------------------
``--tools N``
    Publish N extra synthetic tools named ``tool_0000``, ``tool_0001``... after the built-in ones.
``--page-size K``
    Paginate every list method (tools, resources, templates, prompts) in pages of K items with opaque cursors.
    0 (the default) returns everything in one page. An unknown cursor gets -32602.
``--crash-after N``
    Answer the first N ``tools/call`` requests, then ``os._exit(3)`` on receiving call N+1, before answering
    it (so that call is in flight when the process dies).
``--crash-on-call``
    ``os._exit(3)`` on receiving any ``tools/call``, without answering it.
``--hang-initialize``
    Never answer ``initialize``; keep reading and answering everything else, and still exit on stdin EOF.
``--hang-tool NAME``
    Never answer calls to tool NAME (repeatable). Cancellations of those calls are still recorded.
``--garbage-every N``
    Write the line ``this is not json {{{`` to stdout before every Nth response (results and errors count,
    notifications do not; the count starts at 1, so N=1 means before every response).
``--garbage-on-start``
    Write three non-JSON lines to stdout before anything else (see ``START_GARBAGE_LINES``).
``--oversized-frame BYTES``
    Answer the first ``tools/call`` (whatever the tool) with one valid JSON-RPC result line of exactly BYTES
    bytes before its newline (or the smallest possible such line, if BYTES is smaller), text of ``x``.
``--list-changed-storm N``
    After ``notifications/initialized``, send N ``notifications/tools/list_changed`` at once.
``--protocol-version V``
    Answer ``initialize`` with version V whatever the client asked for.
``--stderr-lines N``
    Write ``demo: starting line 1`` ... ``demo: starting line N`` to stderr at startup.
``--exit-at-start CODE``
    Write ``demo: exiting at start with code CODE`` to stderr and exit with CODE before reading anything.
``--record FILE``
    Append every JSON value received on stdin, as received, one per line, to FILE (flushed per message).
``--spawn-child``
    Start a grandchild (a Python process sleeping 1000 s) in the same process group, with no inherited pipes,
    and write ``demo: child pid N`` to stderr. The server never kills it: that is the client's job.
``--ignore-sigterm``
    Ignore SIGTERM, so that only SIGKILL stops the server (inherited by the ``--spawn-child`` grandchild).
``--ignore-stdin-eof``
    Keep running after stdin closes, until killed.
``--verbose``
    Log every received message's method and id to stderr.

Startup order: SIGTERM disposition, start garbage, stderr lines, exit-at-start, child, then serving.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import datetime
import json
import os
import signal
import struct
import subprocess
import sys
import threading
import traceback
import urllib.parse
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any, BinaryIO, Final

JsonObject = dict[str, Any]

SERVER_NAME: Final = "troupe-demo"
SERVER_VERSION: Final = "0.1.0"
LATEST_PROTOCOL_VERSION: Final = "2025-06-18"
SUPPORTED_PROTOCOL_VERSIONS: Final = ("2025-06-18", "2025-03-26", "2024-11-05")

CRASH_EXIT_CODE: Final = 3
"""Exit status of ``--crash-after`` and ``--crash-on-call``."""

GARBAGE_LINE: Final = b"this is not json {{{"
"""The line ``--garbage-every`` writes (followed by a newline)."""

START_GARBAGE_LINES: Final = (
    b"troupe-demo starting up (this is not json {{{)",
    GARBAGE_LINE,
    b'{"jsonrpc": "2.0", "this is not json": {{{',
)
"""The lines ``--garbage-on-start`` writes; each contains ``this is not json`` and none parses as JSON."""

PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600
METHOD_NOT_FOUND: Final = -32601
INVALID_PARAMS: Final = -32602
INTERNAL_ERROR: Final = -32603
RESOURCE_NOT_FOUND: Final = -32002  # spec: 2025-06-18 server/resources, "Error Handling"

_CURSOR_PREFIX: Final = "troupe-demo-offset:"
_GREETING_PREFIX: Final = "demo://greeting/"

# One encoder for every message: json.dumps() would build a new one per call with these options.
_ENCODER: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)
_ASCII_ENCODER: Final = json.JSONEncoder(separators=(",", ":"))


def _encode(message: object) -> bytes:
    """Serialise one message as compact UTF-8 JSON (no newline)."""
    try:
        return _ENCODER.encode(message).encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate received in an argument (e.g. echoed "\ud800") has no UTF-8 form; escape it.
        return _ASCII_ENCODER.encode(message).encode("ascii")


def _log(text: str) -> None:
    """Write one diagnostic line to stderr, never failing."""
    try:
        sys.stderr.write(f"demo: {text}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


class RpcError(Exception):
    """A JSON-RPC error to send back as the answer to a request."""

    def __init__(self, code: int, message: str, data: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_json(self) -> JsonObject:
        """Return the JSON-RPC ``error`` object."""
        error: JsonObject = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


@dataclass(frozen=True)
class Options:
    """The command-line flags, parsed."""

    extra_tools: int = 0
    page_size: int = 0
    crash_after: int | None = None
    crash_on_call: bool = False
    hang_initialize: bool = False
    hang_tools: frozenset[str] = frozenset()
    garbage_every: int = 0
    garbage_on_start: bool = False
    oversized_frame: int | None = None
    list_changed_storm: int = 0
    protocol_version: str | None = None
    stderr_lines: int = 0
    exit_at_start: int | None = None
    record: str | None = None
    spawn_child: bool = False
    ignore_sigterm: bool = False
    ignore_stdin_eof: bool = False
    verbose: bool = False


class Output:
    """Own the protocol stream: every write to stdout goes through here, one whole line at a time."""

    def __init__(self, stream: BinaryIO, *, garbage_every: int = 0) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self._garbage_every = garbage_every
        self._responses_written = 0

    def send(self, message: JsonObject, *, is_response: bool) -> None:
        """Write one message as a line."""
        self.write_line(_encode(message), is_response=is_response)

    def send_result(self, request_id: object, result: JsonObject) -> None:
        """Answer a request with a result."""
        self.send({"jsonrpc": "2.0", "id": request_id, "result": result}, is_response=True)

    def send_error(self, request_id: object, error: RpcError) -> None:
        """Answer a request with an error."""
        self.send({"jsonrpc": "2.0", "id": request_id, "error": error.to_json()}, is_response=True)

    def send_notifications(self, messages: Sequence[JsonObject]) -> None:
        """Write several notifications back to back, in one flush."""
        if messages:
            self._write(b"".join(_encode(message) + b"\n" for message in messages))

    def write_line(self, line: bytes, *, is_response: bool) -> None:
        """Write a line (without its newline), preceded by garbage when ``--garbage-every`` says so."""
        data = line + b"\n"
        if is_response and self._garbage_every:
            with self._lock:
                self._responses_written += 1
                if self._responses_written % self._garbage_every == 0:
                    data = GARBAGE_LINE + b"\n" + data
                self._write_locked(data)
        else:
            self._write(data)

    def write_raw(self, data: bytes) -> None:
        """Write bytes as they are (used for deliberate garbage)."""
        self._write(data)

    def acquire_for_exit(self, timeout: float) -> None:
        """Wait (a bounded time) for a write in progress to finish, then keep the stream locked for exit."""
        # Exiting while a worker thread is half-way through a line would tear that message; waiting forever
        # would break "exit promptly on EOF" when the client has stopped reading our stdout.
        self._lock.acquire(timeout=timeout)

    def _write(self, data: bytes) -> None:
        with self._lock:
            self._write_locked(data)

    def _write_locked(self, data: bytes) -> None:
        try:
            self._stream.write(data)
            self._stream.flush()
        except (BrokenPipeError, ValueError):
            # The client closed our stdout: nobody can hear us any more.
            _log("stdout closed by the client, exiting")
            os._exit(0)


@dataclass
class ToolCall:
    """One ``tools/call`` being executed."""

    request_id: object
    arguments: JsonObject
    cancelled: threading.Event = field(default_factory=threading.Event)


ToolFunction = Callable[[ToolCall], JsonObject]


@dataclass(frozen=True)
class ToolEntry:
    """A tool's published definition and the function that runs it."""

    definition: JsonObject
    run: ToolFunction
    is_slow: bool = False


def _text_result(text: str, *, is_error: bool = False) -> JsonObject:
    result: JsonObject = {"content": [{"type": "text", "text": text}]}
    if is_error:
        result["isError"] = True
    return result


def _tool(
    name: str,
    title: str,
    description: str,
    properties: JsonObject,
    required: Sequence[str] = (),
    *,
    is_read_only: bool = True,
    output_schema: JsonObject | None = None,
) -> JsonObject:
    """Build a tool definition (spec: 2025-06-18 schema ``Tool``)."""
    input_schema: JsonObject = {"type": "object", "properties": properties}
    if required:
        input_schema["required"] = list(required)
    definition: JsonObject = {
        "name": name,
        "title": title,
        "description": description,
        "inputSchema": input_schema,
        "annotations": {"title": title, "readOnlyHint": is_read_only, "openWorldHint": False},
    }
    if not is_read_only:
        # Hints meaningful only when readOnlyHint is false; the defaults (destructive) would be wrong here.
        definition["annotations"].update(destructiveHint=False, idempotentHint=False)
    if output_schema is not None:
        definition["outputSchema"] = output_schema
    return definition


def _has_json_type(value: object, expected: object) -> bool:
    """Tell whether ``value`` is an instance of the JSON Schema ``type`` named ``expected``."""
    match expected:
        case "string":
            return isinstance(value, str)
        case "number":
            return isinstance(value, int | float) and not isinstance(value, bool)
        case "integer":
            return isinstance(value, int) and not isinstance(value, bool)
        case "boolean":
            return isinstance(value, bool)
        case "object":
            return isinstance(value, dict)
        case "array":
            return isinstance(value, list)
        case _:
            return True


def check_arguments(definition: JsonObject, arguments: JsonObject) -> None:
    """Validate arguments against the subset of JSON Schema the demo's tools use.

    Raises:
        RpcError: -32602 naming the tool and the offending argument.
    """
    name = definition["name"]
    schema = definition["inputSchema"]
    for required in schema.get("required", ()):
        if required not in arguments:
            raise RpcError(
                INVALID_PARAMS,
                f"Invalid arguments for tool {name!r}: missing required argument {required!r}",
                {"tool": name, "argument": required},
            )
    properties: JsonObject = schema.get("properties", {})
    for argument, value in arguments.items():
        spec = properties.get(argument)
        if spec is None:
            continue
        expected = spec.get("type")
        if not _has_json_type(value, expected):
            raise RpcError(
                INVALID_PARAMS,
                f"Invalid arguments for tool {name!r}: {argument!r} must be of type {expected}",
                {"tool": name, "argument": argument},
            )
        minimum = spec.get("minimum")
        if minimum is not None and value < minimum:
            raise RpcError(
                INVALID_PARAMS,
                f"Invalid arguments for tool {name!r}: {argument!r} must be at least {minimum}",
                {"tool": name, "argument": argument},
            )


def encode_cursor(offset: int) -> str:
    """Return the opaque cursor for a list position."""
    return base64.urlsafe_b64encode(f"{_CURSOR_PREFIX}{offset}".encode()).decode("ascii")


def decode_cursor(cursor: object, length: int) -> int:
    """Return the list position a cursor stands for.

    Raises:
        RpcError: -32602 for anything this server did not hand out (spec: pagination, invalid cursor).
    """
    try:
        if not isinstance(cursor, str):
            raise ValueError("not a string")
        text = base64.urlsafe_b64decode(cursor.encode("ascii")).decode("ascii")
        if not text.startswith(_CURSOR_PREFIX):
            raise ValueError("foreign cursor")
        offset = int(text.removeprefix(_CURSOR_PREFIX))
        if not 0 <= offset <= length:
            raise ValueError("out of range")
    except (ValueError, binascii.Error, UnicodeError) as exc:
        raise RpcError(INVALID_PARAMS, f"Invalid cursor: {cursor!r}", {"cursor": cursor}) from exc
    return offset


def tiny_png() -> bytes:
    """Return a valid 4x4 PNG image in one colour."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    width = height = 4
    row = b"\x00" + bytes((0x6A, 0x3D, 0x9A)) * width  # filter byte "none", then RGB pixels
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit truecolour
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(row * height))
        + chunk(b"IEND", b"")
    )


README_TEXT: Final = """\
# troupe-demo

A small MCP server bundled with **mcp-troupe**, to show the client working and to test it.

- Tools: `echo`, `add`, `now`, `word_count`, `sleep`, `fail`, `get_cancelled`, `mutate_tools`, `storm`.
- Resources: this page, `demo://config`, `demo://logo.png`, and `demo://greeting/{name}`.
- Prompts: `review` and `greet`.

Run `python -m mcp_troupe.demo --help` for the misbehaviour flags used by fault-injection tests.
"""

INSTRUCTIONS: Final = (
    "troupe-demo is a demonstration server. Use `echo` to repeat text, `add` to add two numbers, `now` for "
    "the current UTC time and `word_count` to count words, lines and characters. `sleep` waits and `fail` "
    "returns a tool error on purpose; both exist for testing. Read `demo://readme` for an overview."
)


PROMPTS: Final[tuple[JsonObject, ...]] = (
    {
        "name": "review",
        "title": "Code review",
        "description": "Ask for a review of a piece of code.",
        "arguments": [
            {"name": "code", "description": "The code to review.", "required": True},
            {"name": "language", "description": "Its programming language.", "required": False},
        ],
    },
    {
        "name": "greet",
        "title": "Greeting",
        "description": "Ask for a friendly greeting.",
        "arguments": [{"name": "name", "description": "Who to greet.", "required": False}],
    },
)
"""The prompts the server offers (spec: 2025-06-18 schema ``Prompt``)."""


class DemoServer:
    """The protocol logic: feed it input lines, it writes answers to an ``Output``.

    All state is owned by the thread calling ``handle_line``, except the in-flight table shared with the
    ``sleep`` workers, which has its own lock.
    """

    def __init__(self, options: Options, output: Output, record: IO[bytes] | None = None) -> None:
        self._options = options
        self._output = output
        self._record = record
        self._cancellations: list[JsonObject] = []
        self._in_flight: dict[str, ToolCall] = {}
        self._in_flight_lock = threading.Lock()
        self._calls_received = 0
        self._is_oversized_frame_sent = False
        self._extras_added = 0
        self._after_response: list[JsonObject] = []
        self._tools: dict[str, ToolEntry] = {}
        self._tool_definitions: list[JsonObject] = []
        self._register_builtin_tools()
        width = max(4, len(str(max(options.extra_tools - 1, 0))))
        for index in range(options.extra_tools):
            self._add_tool(self._synthetic_tool(f"tool_{index:0{width}d}", "Synthetic"))
        self._methods: dict[str, Callable[[object, JsonObject], JsonObject | None]] = {
            "initialize": self._initialize,
            "ping": self._ping,
            "tools/list": self._list_tools,
            "tools/call": self._call_tool,
            "resources/list": self._list_resources,
            "resources/read": self._read_resource,
            "resources/templates/list": self._list_resource_templates,
            "prompts/list": self._list_prompts,
            "prompts/get": self._get_prompt,
        }
        self._png = tiny_png()

    # -- input ---------------------------------------------------------------------------------------

    def handle_line(self, line: bytes) -> None:
        """Handle one line read from stdin."""
        if not line.strip():
            return
        try:
            message = json.loads(line)
        except (ValueError, RecursionError) as exc:
            # spec: JSON-RPC 2.0 §5.1, parse error → id null.
            _log(f"cannot parse input line: {exc}")
            self._output.send_error(None, RpcError(PARSE_ERROR, f"Parse error: {exc}"))
            return
        if self._record is not None:
            self._record.write(line.rstrip(b"\r\n") + b"\n")
            self._record.flush()
        if not isinstance(message, dict):
            self._output.send_error(
                None,
                RpcError(INVALID_REQUEST, "Invalid Request: expected a JSON object (batches unsupported)"),
            )
            return
        self._handle_message(message)

    def _handle_message(self, message: JsonObject) -> None:
        method = message.get("method")
        has_id = "id" in message
        request_id = message.get("id")
        if self._options.verbose:
            _log(f"<- {method} id={request_id!r}" if has_id else f"<- {method}")
        if method is None and ("result" in message or "error" in message):
            _log(f"ignoring a response (id={request_id!r}): this server sends no requests")
            return
        is_valid_id = isinstance(request_id, str | int) and not isinstance(request_id, bool)
        if message.get("jsonrpc") != "2.0" or not isinstance(method, str) or (has_id and not is_valid_id):
            answer_id = request_id if is_valid_id else None
            self._output.send_error(answer_id, RpcError(INVALID_REQUEST, "Invalid Request"))
            return
        params = message.get("params", {})
        if not has_id:
            if isinstance(params, dict):
                self._handle_notification(method, params)
            return
        try:
            if not isinstance(params, dict):
                raise RpcError(INVALID_PARAMS, f"Invalid params for {method}: expected an object")
            handler = self._methods.get(method)
            if handler is None:
                raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method}", {"method": method})
            result = handler(request_id, params)
        except RpcError as error:
            self._output.send_error(request_id, error)
        except Exception as exc:
            _log(f"internal error handling {method}: {traceback.format_exc()}")
            self._output.send_error(request_id, RpcError(INTERNAL_ERROR, f"Internal error: {exc}"))
        else:
            if result is not None:
                self._output.send_result(request_id, result)
        if self._after_response:
            notifications, self._after_response = self._after_response, []
            self._output.send_notifications(notifications)

    def _handle_notification(self, method: str, params: JsonObject) -> None:
        if method == "notifications/cancelled":
            self._cancel(params)
        elif method == "notifications/initialized":
            storm = self._options.list_changed_storm
            if storm:
                self._output.send_notifications([_LIST_CHANGED] * storm)
        elif self._options.verbose:
            _log(f"ignoring notification {method}")

    def _cancel(self, params: JsonObject) -> None:
        request_id = params.get("requestId")
        reason = params.get("reason")
        self._cancellations.append({"requestId": request_id, "reason": reason})
        with self._in_flight_lock:
            call = self._in_flight.get(_id_key(request_id))
        if call is not None:
            call.cancelled.set()
        _log(f"cancellation of request {request_id!r} received (reason: {reason!r})")

    # -- lifecycle -------------------------------------------------------------------------------------

    def _initialize(self, request_id: object, params: JsonObject) -> JsonObject | None:
        if self._options.hang_initialize:
            _log("not answering initialize (--hang-initialize)")
            return None
        requested = params.get("protocolVersion")
        if not isinstance(requested, str):
            raise RpcError(INVALID_PARAMS, "initialize requires a string protocolVersion")
        if self._options.protocol_version is not None:
            version = self._options.protocol_version
        elif requested in SUPPORTED_PROTOCOL_VERSIONS:
            version = requested  # spec: lifecycle, "MUST respond with the same version"
        else:
            version = LATEST_PROTOCOL_VERSION
        return {
            "protocolVersion": version,
            "capabilities": {
                "tools": {"listChanged": True},
                "resources": {"listChanged": True},
                "prompts": {"listChanged": True},
            },
            "serverInfo": {"name": SERVER_NAME, "title": "Troupe demo server", "version": SERVER_VERSION},
            "instructions": INSTRUCTIONS,
        }

    def _ping(self, request_id: object, params: JsonObject) -> JsonObject:
        return {}

    # -- pagination ------------------------------------------------------------------------------------

    def _page(self, items: Sequence[JsonObject], params: JsonObject, key: str) -> JsonObject:
        cursor = params.get("cursor")
        start = 0 if cursor is None else decode_cursor(cursor, len(items))
        size = self._options.page_size
        end = len(items) if size == 0 else min(start + size, len(items))
        result: JsonObject = {key: list(items[start:end])}
        if end < len(items):
            result["nextCursor"] = encode_cursor(end)
        return result

    # -- tools -----------------------------------------------------------------------------------------

    def _add_tool(self, entry: ToolEntry) -> None:
        self._tools[entry.definition["name"]] = entry
        self._tool_definitions.append(entry.definition)

    def _list_tools(self, request_id: object, params: JsonObject) -> JsonObject:
        return self._page(self._tool_definitions, params, "tools")

    def _call_tool(self, request_id: object, params: JsonObject) -> JsonObject | None:
        self._calls_received += 1
        crash_after = self._options.crash_after
        if self._options.crash_on_call or (crash_after is not None and self._calls_received > crash_after):
            _log(f"crashing on purpose on tools/call id={request_id!r} (exit {CRASH_EXIT_CODE})")
            os._exit(CRASH_EXIT_CODE)
        if self._options.oversized_frame is not None and not self._is_oversized_frame_sent:
            self._is_oversized_frame_sent = True
            self._output.write_line(
                oversized_frame(request_id, self._options.oversized_frame), is_response=True
            )
            return None
        name = params.get("name")
        if not isinstance(name, str):
            raise RpcError(INVALID_PARAMS, "tools/call requires a string name")
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise RpcError(INVALID_PARAMS, f"Invalid arguments for tool {name!r}: expected an object")
        entry = self._tools.get(name)
        if entry is None:
            raise RpcError(INVALID_PARAMS, f"Unknown tool: {name!r}", {"tool": name})
        if name in self._options.hang_tools:
            _log(f"not answering tools/call {name} id={request_id!r} (--hang-tool)")
            return None
        check_arguments(entry.definition, arguments)
        call = ToolCall(request_id, arguments)
        if not entry.is_slow:
            return entry.run(call)
        with self._in_flight_lock:
            self._in_flight[_id_key(request_id)] = call
        threading.Thread(target=self._run_slow, args=(entry, call), daemon=True).start()
        return None

    def _run_slow(self, entry: ToolEntry, call: ToolCall) -> None:
        """Run a slow tool on its own thread and answer, unless the call was cancelled meanwhile."""
        error: RpcError | None = None
        result: JsonObject = {}
        try:
            result = entry.run(call)
        except RpcError as exc:
            error = exc
        except Exception as exc:
            _log(f"internal error in tool {entry.definition['name']}: {traceback.format_exc()}")
            error = RpcError(INTERNAL_ERROR, f"Internal error: {exc}")
        with self._in_flight_lock:
            self._in_flight.pop(_id_key(call.request_id), None)
        if call.cancelled.is_set():
            # spec: cancellation, receivers "SHOULD ... not send a response for the cancelled request".
            _log(f"not answering cancelled request {call.request_id!r}")
            return
        if error is not None:
            self._output.send_error(call.request_id, error)
        else:
            self._output.send_result(call.request_id, result)

    def _register_builtin_tools(self) -> None:
        string = {"type": "string"}
        number = {"type": "number"}
        self._add_tool(
            ToolEntry(
                _tool(
                    "echo",
                    "Echo",
                    "Return the given text unchanged. Handy to check that a server answers.",
                    {"text": {**string, "description": "The text to send back."}},
                    ["text"],
                ),
                _echo,
            )
        )
        self._add_tool(
            ToolEntry(
                _tool(
                    "add",
                    "Add two numbers",
                    "Add two numbers and return their sum, as text and as structured content.",
                    {
                        "a": {**number, "description": "The first addend."},
                        "b": {**number, "description": "The second addend."},
                    },
                    ["a", "b"],
                    output_schema={
                        "type": "object",
                        "properties": {"sum": {**number, "description": "a + b"}},
                        "required": ["sum"],
                    },
                ),
                _add,
            )
        )
        self._add_tool(
            ToolEntry(
                _tool("now", "Current time", "Return the current UTC time in ISO 8601 format.", {}),
                _now,
            )
        )
        self._add_tool(
            ToolEntry(
                _tool(
                    "word_count",
                    "Count words",
                    "Count the words (whitespace-separated), lines and characters of a text.",
                    {"text": {**string, "description": "The text to count."}},
                    ["text"],
                    output_schema={
                        "type": "object",
                        "properties": {
                            "words": {"type": "integer"},
                            "lines": {"type": "integer"},
                            "characters": {"type": "integer"},
                        },
                        "required": ["words", "lines", "characters"],
                    },
                ),
                _word_count,
            )
        )
        self._add_tool(
            ToolEntry(
                _tool(
                    "sleep",
                    "Sleep",
                    "Wait the given number of seconds, then answer. Runs concurrently with other requests "
                    "and stops early, without answering, when the request is cancelled. For timeout tests.",
                    {"seconds": {**number, "minimum": 0, "description": "How long to wait, in seconds."}},
                    ["seconds"],
                ),
                _sleep,
                is_slow=True,
            )
        )
        self._add_tool(
            ToolEntry(
                _tool(
                    "fail",
                    "Fail on purpose",
                    "Return a tool error (isError: true) carrying the given message. For error-path tests.",
                    {"message": {**string, "description": "The error message to return."}},
                ),
                _fail,
            )
        )
        self._add_tool(
            ToolEntry(
                _tool(
                    "get_cancelled",
                    "List cancellations",
                    "Return, as JSON, every notifications/cancelled received so far, in order of arrival: "
                    'a list of {"requestId": ..., "reason": ... or null}.',
                    {},
                    output_schema={
                        "type": "object",
                        "properties": {"cancelled": {"type": "array", "items": {"type": "object"}}},
                        "required": ["cancelled"],
                    },
                ),
                self._get_cancelled,
            )
        )
        self._add_tool(
            ToolEntry(
                _tool(
                    "mutate_tools",
                    "Add a tool",
                    "Add a new tool named extra_<n> (n = 1, 2, ...) to this server, then send "
                    "notifications/tools/list_changed after answering.",
                    {},
                    is_read_only=False,
                ),
                self._mutate_tools,
            )
        )
        self._add_tool(
            ToolEntry(
                _tool(
                    "storm",
                    "Notification storm",
                    "Send `count` notifications/tools/list_changed at once, after answering.",
                    {"count": {"type": "integer", "minimum": 0, "description": "How many (default 10)."}},
                ),
                self._storm,
            )
        )

    def _synthetic_tool(self, name: str, kind: str) -> ToolEntry:
        definition = _tool(
            name,
            name,
            f"{kind} tool {name}: answers with its name and the arguments it received.",
            {"value": {"type": "string", "description": "Any text."}},
        )

        def run(call: ToolCall) -> JsonObject:
            return _text_result(f"{name} called with {_encode(call.arguments).decode()}")

        return ToolEntry(definition, run)

    def _get_cancelled(self, call: ToolCall) -> JsonObject:
        cancelled = list(self._cancellations)
        result = _text_result(_encode(cancelled).decode())
        result["structuredContent"] = {"cancelled": cancelled}
        return result

    def _mutate_tools(self, call: ToolCall) -> JsonObject:
        self._extras_added += 1
        name = f"extra_{self._extras_added}"
        self._add_tool(self._synthetic_tool(name, "Added"))
        self._after_response.append(_LIST_CHANGED)
        return _text_result(f"added tool {name}")

    def _storm(self, call: ToolCall) -> JsonObject:
        count: int = call.arguments.get("count", 10)
        self._after_response.extend([_LIST_CHANGED] * count)
        return _text_result(f"sending {count} notifications/tools/list_changed")

    # -- resources -------------------------------------------------------------------------------------

    def _resources(self) -> list[JsonObject]:
        return [
            {
                "uri": "demo://readme",
                "name": "readme",
                "title": "About this server",
                "description": "What the demo server offers, in Markdown.",
                "mimeType": "text/markdown",
                "size": len(README_TEXT.encode()),
            },
            {
                "uri": "demo://config",
                "name": "config",
                "title": "Server configuration",
                "description": "The demo server's settings, as JSON.",
                "mimeType": "application/json",
            },
            {
                "uri": "demo://logo.png",
                "name": "logo",
                "title": "Logo",
                "description": "A tiny PNG image (binary resource).",
                "mimeType": "image/png",
                "size": len(self._png),
            },
        ]

    def _list_resources(self, request_id: object, params: JsonObject) -> JsonObject:
        return self._page(self._resources(), params, "resources")

    def _list_resource_templates(self, request_id: object, params: JsonObject) -> JsonObject:
        template = {
            "uriTemplate": _GREETING_PREFIX + "{name}",
            "name": "greeting",
            "title": "Greeting",
            "description": "A greeting for the given name.",
            "mimeType": "text/plain",
        }
        return self._page([template], params, "resourceTemplates")

    def _read_resource(self, request_id: object, params: JsonObject) -> JsonObject:
        uri = params.get("uri")
        if not isinstance(uri, str):
            raise RpcError(INVALID_PARAMS, "resources/read requires a string uri")
        contents: JsonObject
        if uri == "demo://readme":
            contents = {"uri": uri, "mimeType": "text/markdown", "text": README_TEXT}
        elif uri == "demo://config":
            config = {
                "server": SERVER_NAME,
                "version": SERVER_VERSION,
                "supportedProtocolVersions": list(SUPPORTED_PROTOCOL_VERSIONS),
                "pageSize": self._options.page_size,
                "syntheticTools": self._options.extra_tools,
            }
            contents = {"uri": uri, "mimeType": "application/json", "text": json.dumps(config, indent=2)}
        elif uri == "demo://logo.png":
            contents = {"uri": uri, "mimeType": "image/png", "blob": base64.b64encode(self._png).decode()}
        elif uri.startswith(_GREETING_PREFIX) and "/" not in uri.removeprefix(_GREETING_PREFIX):
            name = urllib.parse.unquote(uri.removeprefix(_GREETING_PREFIX)) or "stranger"
            contents = {"uri": uri, "mimeType": "text/plain", "text": f"Hello, {name}!"}
        else:
            raise RpcError(RESOURCE_NOT_FOUND, "Resource not found", {"uri": uri})
        return {"contents": [contents]}

    # -- prompts ---------------------------------------------------------------------------------------

    def _list_prompts(self, request_id: object, params: JsonObject) -> JsonObject:
        return self._page(PROMPTS, params, "prompts")

    def _get_prompt(self, request_id: object, params: JsonObject) -> JsonObject:
        name = params.get("name")
        arguments = params.get("arguments") or {}
        if not isinstance(arguments, dict) or not all(isinstance(v, str) for v in arguments.values()):
            raise RpcError(INVALID_PARAMS, "prompts/get arguments must map names to strings")
        prompt = next((p for p in PROMPTS if p["name"] == name), None)
        if prompt is None:
            raise RpcError(INVALID_PARAMS, f"Unknown prompt: {name!r}", {"prompt": name})
        for argument in prompt["arguments"]:
            if argument["required"] and argument["name"] not in arguments:
                raise RpcError(
                    INVALID_PARAMS,
                    f"Missing required argument {argument['name']!r} for prompt {name!r}",
                    {"prompt": name, "argument": argument["name"]},
                )
        if name == "review":
            language = arguments.get("language", "")
            request = (
                f"Please review this {language or 'code'} snippet for bugs, clarity and style:\n\n"
                f"```{language}\n{arguments['code']}\n```"
            )
            messages = [
                _prompt_message("user", request),
                _prompt_message("assistant", "Sure. I will list bugs first, then clarity, then style."),
            ]
        else:
            who = arguments.get("name", "friend")
            messages = [_prompt_message("user", f"Say hello to {who} in one friendly sentence.")]
        return {"description": prompt["description"], "messages": messages}


_LIST_CHANGED: Final[JsonObject] = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}


def _id_key(request_id: object) -> str:
    # JSON text keeps 1 and "1" apart and makes any id hashable.
    return _encode(request_id).decode()


def _prompt_message(role: str, text: str) -> JsonObject:
    return {"role": role, "content": {"type": "text", "text": text}}


def _echo(call: ToolCall) -> JsonObject:
    text: str = call.arguments["text"]
    return _text_result(text)


def _add(call: ToolCall) -> JsonObject:
    total = call.arguments["a"] + call.arguments["b"]
    result = _text_result(_encode(total).decode())
    result["structuredContent"] = {"sum": total}
    return result


def _now(call: ToolCall) -> JsonObject:
    moment = datetime.datetime.now(datetime.UTC).isoformat(timespec="milliseconds")
    return _text_result(moment.replace("+00:00", "Z"))


def _word_count(call: ToolCall) -> JsonObject:
    text: str = call.arguments["text"]
    counts = {"words": len(text.split()), "lines": len(text.splitlines()), "characters": len(text)}
    # spec: 2025-06-18 tools, structured content SHOULD also be returned serialised as text.
    result = _text_result(_encode(counts).decode())
    result["structuredContent"] = counts
    return result


def _sleep(call: ToolCall) -> JsonObject:
    seconds: float = call.arguments["seconds"]
    call.cancelled.wait(seconds)  # the answer is dropped if this returns early on cancellation
    return _text_result(f"slept {seconds:g} s")


def _fail(call: ToolCall) -> JsonObject:
    message: str = call.arguments.get("message", "the fail tool failed, as asked")
    return _text_result(message, is_error=True)


def oversized_frame(request_id: object, size: int) -> bytes:
    """Return a valid ``CallToolResult`` response of exactly ``size`` bytes (or the smallest possible)."""
    tail = b'""}]}}'
    empty = _encode(
        {"jsonrpc": "2.0", "id": request_id, "result": {"content": [{"type": "text", "text": ""}]}}
    )
    assert empty.endswith(tail)
    filler = max(0, size - len(empty))
    # Splice the filler in as bytes: encoding a string of hundreds of megabytes would double the memory.
    return empty[: -len(tail)] + b'"' + b"x" * filler + tail[1:]


# -- command line ---------------------------------------------------------------------------------------


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def build_parser() -> argparse.ArgumentParser:
    """Return the command-line parser, with every flag documented."""
    parser = argparse.ArgumentParser(
        prog="python -m mcp_troupe.demo",
        description="troupe-demo: a dependency-free stdio MCP server for demos and fault-injection tests. "
        "Misbehaviour flags can be combined.",
        epilog=f"Crashes exit with status {CRASH_EXIT_CODE}. Garbage lines contain 'this is not json'.",
    )
    add = parser.add_argument
    add(
        "--tools",
        type=_count,
        default=0,
        metavar="N",
        dest="extra_tools",
        help="publish N extra synthetic tools tool_0000, tool_0001, ... (for pagination and scale tests)",
    )
    add(
        "--page-size",
        type=_count,
        default=0,
        metavar="K",
        help="paginate every list method in pages of K items with opaque cursors (0: no pagination)",
    )
    add(
        "--crash-after",
        type=_count,
        default=None,
        metavar="N",
        help=f"answer N tools/call requests, then exit with status {CRASH_EXIT_CODE} on receiving the next "
        "one, without answering it",
    )
    add(
        "--crash-on-call",
        action="store_true",
        help=f"exit with status {CRASH_EXIT_CODE} on receiving any tools/call, without answering it",
    )
    add(
        "--hang-initialize",
        action="store_true",
        help="never answer initialize (keep reading; still exit on stdin EOF)",
    )
    add(
        "--hang-tool",
        action="append",
        default=[],
        metavar="NAME",
        help="never answer calls to tool NAME (repeatable); their cancellations are still recorded",
    )
    add(
        "--garbage-every",
        type=_positive,
        default=0,
        metavar="N",
        help="write the line 'this is not json {{{' to stdout before every Nth response",
    )
    add(
        "--garbage-on-start",
        action="store_true",
        help="write three non-JSON lines to stdout before anything else",
    )
    add(
        "--oversized-frame",
        type=_positive,
        default=None,
        metavar="BYTES",
        help="answer the first tools/call with one valid JSON line of exactly BYTES bytes (plus newline)",
    )
    add(
        "--list-changed-storm",
        type=_count,
        default=0,
        metavar="N",
        help="send N notifications/tools/list_changed right after notifications/initialized",
    )
    add(
        "--protocol-version",
        default=None,
        metavar="V",
        help="answer initialize with protocol version V whatever the client asked for",
    )
    add(
        "--stderr-lines",
        type=_count,
        default=0,
        metavar="N",
        help="write 'demo: starting line 1' ... 'demo: starting line N' to stderr at startup",
    )
    add(
        "--exit-at-start",
        type=int,
        default=None,
        metavar="CODE",
        help="write one line to stderr and exit with status CODE before reading anything",
    )
    add(
        "--record",
        default=None,
        metavar="FILE",
        help="append every received JSON message, one per line, to FILE",
    )
    add(
        "--spawn-child",
        action="store_true",
        help="start a grandchild process (sleeping 1000 s) in the same process group and write "
        "'demo: child pid N' to stderr",
    )
    add("--ignore-sigterm", action="store_true", help="ignore SIGTERM (only SIGKILL stops the server)")
    add("--ignore-stdin-eof", action="store_true", help="keep running after stdin closes, until killed")
    add("--verbose", "-v", action="store_true", help="log every received message's method and id to stderr")
    return parser


def parse_options(argv: Sequence[str] | None = None) -> Options:
    """Parse command-line flags into ``Options``."""
    namespace = build_parser().parse_args(argv)
    values = vars(namespace)
    values["hang_tools"] = frozenset(values["hang_tool"])
    del values["hang_tool"]
    return Options(**values)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the server until stdin closes; return the exit status."""
    options = parse_options(argv)
    if options.ignore_sigterm:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    stdout = sys.stdout.buffer
    # Anything print()ed by mistake must not corrupt the protocol stream (spec: stdio, stdout is MCP only).
    sys.stdout = sys.stderr
    output = Output(stdout, garbage_every=options.garbage_every)
    if options.garbage_on_start:
        output.write_raw(b"".join(line + b"\n" for line in START_GARBAGE_LINES))
    for number in range(1, options.stderr_lines + 1):
        _log(f"starting line {number}")
    if options.exit_at_start is not None:
        _log(f"exiting at start with code {options.exit_at_start}")
        return options.exit_at_start
    if options.spawn_child:
        child = subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(1000)"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
        )
        _log(f"child pid {child.pid}")
    record = open(options.record, "ab") if options.record else None  # noqa: SIM115 - lives until exit
    server = DemoServer(options, output, record)
    try:
        for line in sys.stdin.buffer:
            server.handle_line(line)
        if options.ignore_stdin_eof:
            _log("stdin closed; staying alive (--ignore-stdin-eof)")
            threading.Event().wait()
    except KeyboardInterrupt:
        return 130
    # Daemon threads may be sleeping or hanging; os._exit ends them now, and skips the interpreter's final
    # flush of stdout, which would abort the process if a worker still held the stream's lock.
    output.acquire_for_exit(timeout=1.0)
    os._exit(0)
