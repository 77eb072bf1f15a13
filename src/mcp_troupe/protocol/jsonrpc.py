"""JSON-RPC 2.0 messages: typed values, decoding from untrusted bytes, encoding, and newline framing.

Everything here is pure. ``decode`` never raises anything but :class:`MalformedMessage`, whatever the bytes
(property-tested); :class:`LineFramer` never raises anything but :class:`FrameTooLarge`.

spec: 2025-06-18 basic/index — ids are strings or integers and MUST NOT be null; notifications MUST NOT carry
an id; a response carries exactly one of ``result`` and ``error``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcp_troupe.errors import FrameTooLarge, MalformedMessage
from mcp_troupe.protocol import deepjson

__all__ = [
    "INTERNAL_ERROR",
    "INVALID_PARAMS",
    "INVALID_REQUEST",
    "METHOD_NOT_FOUND",
    "PARSE_ERROR",
    "ErrorObject",
    "ErrorResponse",
    "LineFramer",
    "Message",
    "Notification",
    "Request",
    "RequestId",
    "Response",
    "decode",
    "decode_batch",
    "encode",
    "encode_members",
    "encode_notification",
    "encode_request",
    "encode_request_with_meta",
    "recover_id",
    "split_result",
]

RequestId = int | str

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

_EXCERPT = 80


@dataclass(frozen=True, slots=True)
class Request:
    """A call that expects a response with the same ``id``."""

    id: RequestId
    method: str
    params: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Notification:
    """A one-way message; it has no id and gets no response."""

    method: str
    params: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Response:
    """A successful answer to the request with the same ``id``."""

    id: RequestId
    result: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ErrorObject:
    """The ``error`` member of an error response."""

    code: int
    message: str
    data: Any = None


@dataclass(frozen=True, slots=True)
class ErrorResponse:
    """A failed answer; ``id`` is None only when the peer could not read the request's id."""

    id: RequestId | None
    error: ErrorObject


Message = Request | Notification | Response | ErrorResponse


def _excerpt(data: bytes | str) -> str:
    text = data if isinstance(data, str) else data[: _EXCERPT * 4].decode("utf-8", "replace")
    return text if len(text) <= _EXCERPT else text[:_EXCERPT] + "…"


# One of each, made once: json.dumps/json.loads with options build an encoder per call, and loads of bytes
# first sniffs their encoding (json.detect_encoding). Both are stateless between calls (the encoder makes
# its circular-reference marks per call; json.loads itself shares one default decoder between all threads),
# so sharing them between threads is safe (the C encoder below keeps no marks at all). Issue #12: this is on
# every frame of the call path.
_DECODER = json.JSONDecoder()
_SCAN: Any = _DECODER.scan_once  # type: ignore[attr-defined]  # (set in JSONDecoder.__init__)
"""The decoder's scanner (C), called directly: ``JSONDecoder.decode`` wraps it in two Python calls and two
whitespace regex matches, about 6,500 instructions a frame that :func:`_load` does without (issue 18)."""
_TRAILING_SPACE = " \t\n\r"
"""What JSON allows after a value (RFC 8259 §2), the set ``JSONDecoder.decode`` skips."""


def compact_encoder(*, allow_nan: bool) -> tuple[json.JSONEncoder, Any]:
    """A compact encoder (``","`` and ``":"``, UTF-8 text, not ASCII escapes) and its C encoder, made once.

    ``"".join(c_encode(value, 0))`` is ``encoder.encode(value)``, the same text, without the C encoder that
    ``JSONEncoder.encode`` builds on every call (some 9,500 instructions of a request's encoding; issue 18).
    The C encoder keeps no circular check: a marks table shared by threads would take a value that two
    threads encode at once for a cycle, so a value holding itself ends in ``RecursionError`` instead of
    ``ValueError``. ``c_encode`` is None where the C accelerator is missing: use ``encoder.encode`` then.
    """
    encoder = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=allow_nan)
    make: Any = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return encoder, None
    basestring = json.encoder.encode_basestring
    return encoder, make(None, encoder.default, basestring, None, ":", ",", False, False, allow_nan)


# allow_nan=False: JSON has no NaN or infinities (RFC 8259 §6), and a peer's parser refuses the frame with an
# error that names no request, so the call would wait out its timeout; a ValueError here names it at once.
# A value holding itself ends in RecursionError (compact_encoder), which RequestEngine.prepare refuses alike.
_ENCODER, _C_ENCODE = compact_encoder(allow_nan=False)
_ASCII_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def _load(data: bytes | str) -> Any:
    try:
        if type(data) is bytes and data[:1] == b"{" and data[1:2] != b"\x00":
            # What json.loads does with such bytes (detect_encoding says UTF-8 for a leading `{` that is not
            # UTF-16), without sniffing: a frame is one JSON object (spec: stdio — UTF-8). The scanner is
            # called as JSONDecoder.decode calls it, and what follows the object is checked as it checks it:
            # nothing but whitespace, else "Extra data" at the same position.
            text = data.decode("utf-8", "surrogatepass")
            try:
                obj, end = _SCAN(text, 0)
            except StopIteration as stop:  # (a leading `{` always starts an object; kept as decode has it)
                raise json.JSONDecodeError("Expecting value", text, stop.value) from None
            if end != len(text):
                extra = len(text) - len(text[end:].lstrip(_TRAILING_SPACE))
                if extra != len(text):
                    raise json.JSONDecodeError("Extra data", text, extra)
            return obj
        return json.loads(data)
    except RecursionError:
        # Valid JSON, only deeper than this thread's stack allows: decode it without recursion, with
        # containers past deepjson.MAX_DEPTH replaced by markers that the policy rejects by name (issue 15).
        try:
            return deepjson.loads(data)
        except ValueError as exc:
            reason = f"JSON nested too deeply, and not valid JSON either ({exc})"
            raise MalformedMessage(reason, excerpt=_excerpt(data)) from None
    except ValueError as exc:  # JSONDecodeError and UnicodeDecodeError are both ValueErrors
        raise MalformedMessage(f"not JSON ({exc})", excerpt=_excerpt(data)) from None


def decode(data: bytes | str) -> Message:
    """Parse one JSON-RPC message; raise :class:`MalformedMessage` saying what was wrong."""
    obj = _load(data)
    if isinstance(obj, list):
        raise MalformedMessage("a JSON-RPC batch, which this protocol revision does not allow")
    return from_object(obj)


def decode_answer(data: bytes | str) -> tuple[RequestId, dict[str, Any]] | Message:
    """Like :func:`decode`, but a successful response comes back as ``(id, result)``, no message built.

    The answers of calls in flight are most of what a client reads; this checks exactly what
    :func:`from_object` checks of a response (``jsonrpc`` is "2.0", no ``method``, no ``error``, a string
    or integer id, an object result) and leaves everything else, errors included, to it.
    """
    obj = _load(data)
    if type(obj) is dict and "method" not in obj and "error" not in obj and obj.get("jsonrpc") == "2.0":
        response_id = obj.get("id")
        result = obj.get("result")
        if type(result) is dict and (type(response_id) is int or type(response_id) is str):
            return response_id, result
    if isinstance(obj, list):
        raise MalformedMessage("a JSON-RPC batch, which this protocol revision does not allow")
    return from_object(obj)


_RESULT_KEY = b'"result"'


def split_result(frame: bytes) -> tuple[RequestId, bytes] | None:
    """Split a response frame into its id and its tail: the bytes from the top-level ``"result"`` key on.

    Two answers whose tails are the same bytes carry the same result, so a client that has decoded one can
    reuse that decoding for the other without parsing it again (a re-listing of an unchanged catalog). The
    split holds when the frame has the common shape ``{"jsonrpc":"2.0","id":<id>,"result":...}`` (``jsonrpc``
    and ``id`` in either order, before ``result``); otherwise None, and the frame is simply decoded.

    Only the head is parsed, with ``"result":null}`` appended: it must be a complete object with exactly
    ``jsonrpc`` "2.0", an id and our ``result``, which proves the head ends where a top-level member starts.
    The tail is not checked here: whoever caches a decoding checks it once, by decoding the whole frame.
    """
    position = frame.find(_RESULT_KEY)
    if position <= 0:
        return None
    try:
        head = json.loads(frame[:position] + b'"result":null}')
    except (ValueError, RecursionError):
        return None
    if type(head) is not dict or len(head) != 3 or head.get("jsonrpc") != "2.0" or "result" not in head:
        return None
    request_id = head.get("id")
    if not isinstance(request_id, int | str) or isinstance(request_id, bool):
        return None
    return request_id, frame[position:]


_RECOVER_SCAN = 4096
_TRAILING_ID = re.compile(rb'"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,256}")\s*}\s*\Z')
_INT = re.compile(rb"-?\d{1,18}")
_SCALAR = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")


def recover_id(frame: bytes) -> RequestId | None:
    """The top-level ``id`` of a frame that does not decode (too deep, too large, broken), if it shows.

    Looked for in two places only, both of which are unambiguously the top level: among the members before
    the first nested value in the first 4 KiB (the common ``{"jsonrpc":"2.0","id":7,"result":...}``), and as
    the very last member (``..., "id": 7}``). Anything else gives None: guessing an id from inside a result
    could fail the wrong call.
    """
    head = _scan_head_id(frame[:_RECOVER_SCAN])
    if head is not None:
        return head
    match = _TRAILING_ID.search(frame[-512:])
    return _id_value(match.group(1)) if match else None


def _scan_head_id(data: bytes) -> RequestId | None:
    index = data.find(b"{")
    if index < 0 or data[:index].strip():
        return None
    index += 1
    length = len(data)
    while index < length:
        # At depth 1, expecting a key (after '{' or ',').
        while index < length and data[index] in b" \t\r\n,":
            index += 1
        if index >= length or data[index] != 0x22:  # '"'
            return None
        end = _string_end(data, index)
        if end < 0:
            return None
        key = data[index + 1 : end]
        index = end + 1
        while index < length and data[index] in b" \t\r\n":
            index += 1
        if index >= length or data[index] != 0x3A:  # ':'
            return None
        index += 1
        while index < length and data[index] in b" \t\r\n":
            index += 1
        if index >= length:
            return None
        if key == b"id":
            if data[index] == 0x22:
                end = _string_end(data, index)
                return _id_value(data[index : end + 1]) if end >= 0 else None
            match = _INT.match(data, index)
            return _id_value(match.group(0)) if match else None
        if data[index] == 0x22:  # a string member: skip it and go on to the next key
            end = _string_end(data, index)
            if end < 0:
                return None
            index = end + 1
            continue
        # A nested value (or a number, true, false, null) comes first: the id is not before it.
        match = _SCALAR.match(data, index)
        if match is None:
            return None
        index = match.end()
    return None


def _string_end(data: bytes, start: int) -> int:
    index = start + 1
    length = len(data)
    while index < length:
        byte = data[index]
        if byte == 0x5C:  # backslash
            index += 2
            continue
        if byte == 0x22:
            return index
        index += 1
    return -1


def _id_value(raw: bytes) -> RequestId | None:
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    return value


def decode_batch(data: bytes | str) -> list[Message]:
    """Parse one message or a non-empty batch of them (2025-03-26 only allows batches)."""
    obj = _load(data)
    if isinstance(obj, list):
        if not obj:
            raise MalformedMessage("an empty JSON-RPC batch")
        return [from_object(item) for item in obj]
    return [from_object(obj)]


def _is_id(value: object) -> bool:
    # bool is an int subclass, and a JSON true is no id.
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def from_object(obj: object) -> Message:
    """Build a message from an already-parsed JSON value."""
    if not isinstance(obj, dict):
        raise MalformedMessage(f"expected a JSON object, got {type(obj).__name__}")
    if obj.get("jsonrpc") != "2.0":
        raise MalformedMessage(f"'jsonrpc' must be \"2.0\", got {obj.get('jsonrpc')!r:.40}")
    method = obj.get("method")
    if method is not None or "method" in obj:
        if not isinstance(method, str):
            raise MalformedMessage("'method' must be a string")
        params = obj.get("params")
        if params is not None and not isinstance(params, dict):
            raise MalformedMessage(f"'params' of {method!r:.60} must be an object")
        if "id" not in obj:
            return Notification(method, params)
        request_id = obj["id"]
        if request_id is None:
            raise MalformedMessage(f"request {method!r:.60} has a null id")
        if not _is_id(request_id):
            raise MalformedMessage(f"request id must be a string or an integer, got {request_id!r:.40}")
        return Request(request_id, method, params)
    if "id" not in obj:
        raise MalformedMessage("neither a request, a notification nor a response (no 'method', no 'id')")
    response_id = obj["id"]
    has_result = "result" in obj
    has_error = "error" in obj
    if has_result and has_error:
        raise MalformedMessage(f"response {response_id!r:.40} has both 'result' and 'error'")
    if has_result:
        if not _is_id(response_id):
            raise MalformedMessage(f"response id must be a string or an integer, got {response_id!r:.40}")
        result = obj["result"]
        if not isinstance(result, dict):
            raise MalformedMessage(f"'result' of response {response_id!r:.40} must be an object")
        return Response(response_id, result)
    if has_error:
        if response_id is not None and not _is_id(response_id):
            raise MalformedMessage(f"response id must be a string or an integer, got {response_id!r:.40}")
        error = obj["error"]
        if not isinstance(error, dict):
            raise MalformedMessage(f"'error' of response {response_id!r:.40} must be an object")
        code = error.get("code")
        message = error.get("message")
        if not isinstance(code, int) or isinstance(code, bool):
            raise MalformedMessage(f"error code of response {response_id!r:.40} must be an integer")
        if not isinstance(message, str):
            raise MalformedMessage(f"error message of response {response_id!r:.40} must be a string")
        return ErrorResponse(response_id, ErrorObject(code, message, error.get("data")))
    raise MalformedMessage(f"response {response_id!r:.40} has neither 'result' nor 'error'")


def to_object(message: Message) -> dict[str, Any]:
    """The JSON object of a message."""
    match message:
        case Request(id=request_id, method=method, params=params):
            obj: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
            if params is not None:
                obj["params"] = params
            return obj
        case Notification(method=method, params=params):
            obj = {"jsonrpc": "2.0", "method": method}
            if params is not None:
                obj["params"] = params
            return obj
        case Response(id=response_id, result=result):
            return {"jsonrpc": "2.0", "id": response_id, "result": result}
        case ErrorResponse(id=response_id, error=error):
            err: dict[str, Any] = {"code": error.code, "message": error.message}
            if error.data is not None:
                err["data"] = error.data
            return {"jsonrpc": "2.0", "id": response_id, "error": err}


def _dumps(obj: Mapping[str, Any]) -> bytes:
    # Compact, UTF-8; json escapes control characters, so the frame never holds a raw newline.
    text = "".join(_C_ENCODE(obj, 0)) if _C_ENCODE is not None else _ENCODER.encode(obj)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate has no UTF-8 form, yet decode accepts one (a server may send the id "\ud800", and
        # our ping reply echoes it). ASCII-escaping writes it back as the same \u escape: valid JSON that
        # decodes to the same string, so the reply goes out instead of crashing the sender.
        return _ASCII_ENCODER.encode(obj).encode("ascii")


def encode(message: Message) -> bytes:
    """Serialise a message to one frame (no trailing newline)."""
    return _dumps(to_object(message))


def encode_request(request_id: RequestId, method: str, params: Mapping[str, Any] | None) -> bytes:
    """Serialise a request without building a :class:`Request` first (the call path's shortcut)."""
    if params is None:
        return _dumps({"jsonrpc": "2.0", "id": request_id, "method": method})
    return _dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})


def encode_members(obj: Mapping[str, Any]) -> bytes:
    """A JSON object's members as they stand between its braces (see :func:`encode_request_with_meta`)."""
    return _dumps(obj)[1:-1]


def encode_request_with_meta(
    request_id: RequestId,
    method: str,
    params: Mapping[str, Any],
    meta: Mapping[str, Any],
    members: bytes,
) -> bytes:
    """Serialise a request whose ``params._meta`` holds ``meta`` and then the pre-encoded ``members``.

    The modern era's per-request ``_meta`` is the same on every request of a connection: encoded once
    (:func:`encode_members`), it is spliced in rather than re-encoded each time, and ``params`` is encoded
    as it is, not copied to add the key (issue #13: a modern call costs no more than a legacy one).
    ``params`` must have no ``_meta`` of its own, and ``meta`` no key that ``members`` has (the caller
    checks: a JSON object with a key twice means whatever the reader makes of it).
    """
    body = _dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
    # `params` is the last member of the request, and compact: the frame ends with its `}` and the request's.
    if not meta:
        inner = members
    elif len(meta) == 1 and type(progress := meta.get("progressToken")) is int:
        # The common case (a call that asks for progress): its one member written directly.
        inner = b'"progressToken":%d,' % progress + members
    else:
        inner = _dumps(meta)[1:-1] + b"," + members
    return body[:-2] + (b',"_meta":{' if params else b'"_meta":{') + inner + b"}}}"


def encode_request_with_members(
    request_id: RequestId, method: str, params: Mapping[str, Any], members: bytes, more: bytes = b""
) -> bytes:
    """Serialise a request whose ``params._meta`` is exactly the pre-encoded ``members`` (not empty), then
    ``more`` (empty, or ``,`` and more members).

    The call path's shortcut for a progress token (``members``; the modern era's members are ``more``): the
    request is encoded as it is and ``,"_meta":{members more}`` spliced in before the closing braces, with no
    copy of ``params`` made to carry it. ``params`` must have no ``_meta`` of its own (the caller checks).
    """
    body = _dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
    # `params` is the last member of the request: the frame ends `...}}`, and `{}}` when params is empty.
    head = body[:-2]
    # One join, one copy of the frame (three concatenations copied it three times; a fourth had joined
    # the two parts of the members first).
    return b"".join((head, b'"_meta":{' if head.endswith(b"{") else b',"_meta":{', members, more, b"}}}"))


def encode_notification(method: str, params: Mapping[str, Any] | None = None) -> bytes:
    """Serialise a notification."""
    if params is None:
        return _dumps({"jsonrpc": "2.0", "method": method})
    return _dumps({"jsonrpc": "2.0", "method": method, "params": params})


class LineFramer:
    """Split a byte stream into newline-delimited frames, bounding the size of any one frame.

    spec: stdio transport — messages are delimited by newlines and MUST NOT contain embedded newlines.
    A trailing ``\\r`` is stripped (servers written on Windows), and blank lines are skipped.
    """

    __slots__ = ("_buffer", "max_frame")

    def __init__(self, max_frame: int = 16 * 1024 * 1024) -> None:
        self.max_frame = max_frame
        self._buffer = bytearray()

    @property
    def pending(self) -> int:
        """How many bytes of an unfinished frame are buffered."""
        return len(self._buffer)

    def feed(self, chunk: bytes) -> list[bytes]:
        """Add ``chunk``; return the frames it completed, in order."""
        if self._buffer:
            if b"\n" not in chunk:
                # A large frame arriving in many chunks: append (amortised O(1)) and only check the bound.
                # Copying and re-splitting the whole buffer on every chunk made it quadratic: a 15 MiB frame
                # held the I/O loop, and every server on it, for seconds.
                self._buffer += chunk
                if len(self._buffer) - self._buffer.endswith(b"\r") > self.max_frame:
                    self._buffer.clear()
                    raise FrameTooLarge(self.max_frame)
                return []
            self._buffer += chunk
            data = bytes(self._buffer)
            self._buffer.clear()
        else:
            data = chunk
        parts = data.split(b"\n")
        rest = parts.pop()
        # A pending trailing \r may be the first half of a \r\n terminator, which a complete line drops
        # before its size check; not counting it here keeps the verdict independent of chunk boundaries.
        if len(rest) - rest.endswith(b"\r") > self.max_frame:
            raise FrameTooLarge(self.max_frame)
        if rest:
            self._buffer += rest
        frames: list[bytes] = []
        for part in parts:
            if part.endswith(b"\r"):
                part = part[:-1]
            # Size before blankness: an oversized run of spaces is refused whether it arrives whole or
            # trickles in (the pending-rest check above cannot know it will turn out blank).
            if len(part) > self.max_frame:
                raise FrameTooLarge(self.max_frame)
            if not part or part.isspace():
                continue
            frames.append(part)
        return frames
