"""HTTP/1.1 client framing, sans I/O: a request head out, a response's head and body out of the bytes in.

The shape is h11's (a pure object fed bytes, giving events back), cut down to what the Streamable HTTP
transport's hot path needs, so that a call costs microseconds of Python rather than a general client's
request and response models:

- :func:`encode_head` writes a request line and headers (names checked as tokens, values refused when they
  hold CR, LF or NUL: a line break in a value would inject headers);
- :class:`ResponseParser` reads one response per request, in order: interim ``1xx`` answers are skipped
  (``101`` is refused: we never ask to switch), the body is framed by ``Transfer-Encoding: chunked``, by
  ``Content-Length`` or by the end of the connection, and ``204``/``304`` (and answers to ``HEAD``) have
  none (RFC 9112 §6.3, in that order of precedence).

Lines may end with ``\\r\\n`` or a bare ``\\n`` (RFC 9112 §2.2 lets a recipient accept both); obsolete line
folding, a header name that is not a token, a value holding NUL or CR, an unreadable ``Content-Length`` or
chunk size, and disagreeing ``Content-Length`` values are :class:`ProtocolError`, as are heads larger than
``max_head_bytes``. Nothing here reads a clock or a socket; the tests drive it with byte strings alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

__all__ = [
    "DEFAULT_MAX_HEAD_BYTES",
    "END",
    "Headers",
    "ProtocolError",
    "ResponseHead",
    "ResponseParser",
    "encode_head",
    "is_valid_header",
]

DEFAULT_MAX_HEAD_BYTES = 64 * 1024
"""The most a response's status line and headers (or a chunked body's trailers) may take."""
_MAX_CHUNK_LINE = 1024
# RFC 9110 §5.6.2: a header name is a token.
_TOKEN_TEXT = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
# RFC 9110 §5.5: field values are visible characters, spaces and tabs (obs-text allowed on receipt).
_BAD_VALUE_TEXT = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_STATUS_LINE_TEXT = re.compile(r"HTTP/1\.([01]) ([0-9]{3})(?: (.*))?")
# A field line: a token, a colon, optional whitespace, the value (RFC 9112 §5); the value's trailing
# whitespace is stripped after the match. Greedy: a lazy value with a trailing [ \t]* tried the end of the
# line at every character, and this runs for every header of every answer.
_FIELD_LINE = re.compile(r"([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*(.*)")
_HEX = re.compile(rb"[0-9A-Fa-f]{1,16}")


class ProtocolError(ValueError):
    """The peer's bytes are not HTTP/1.1 this parser can follow; the connection cannot be used further."""


class _End:
    __slots__ = ()

    def __repr__(self) -> str:
        return "END"


END = _End()
"""The event after a response's last body byte."""


class Headers:
    """A response's headers: case-insensitive lookups, repeated fields joined with ``", "`` (RFC 9110 §5.3).

    ``raw`` keeps every field as received (lower-cased names), for ``Set-Cookie``, which must not be joined.
    """

    __slots__ = ("_values", "raw")

    def __init__(self, raw: Iterable[tuple[str, str]] = ()) -> None:
        self.raw: list[tuple[str, str]] = []
        self._values: dict[str, str] = {}
        for name, value in raw:
            self.add(name.lower(), value)

    def add(self, name: str, value: str) -> None:
        """Add one field; ``name`` must already be lower-case."""
        self.raw.append((name, value))
        known = self._values.get(name)
        self._values[name] = value if known is None else f"{known}, {value}"

    def get(self, name: str, default: str | None = None) -> str | None:
        """The value of ``name`` (any case), or ``default`` when absent."""
        value = self._values.get(name.lower())
        return default if value is None else value

    def get_list(self, name: str) -> list[str]:
        """Every value of ``name`` (any case) as received, one per field."""
        wanted = name.lower()
        return [value for key, value in self.raw if key == wanted]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._values

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def items(self) -> list[tuple[str, str]]:
        """Every (name, joined value) pair."""
        return list(self._values.items())

    def __repr__(self) -> str:
        return f"Headers({sorted(self._values)!r})"  # names only: values may be secrets


@dataclass(frozen=True, slots=True)
class ResponseHead:
    """A final response's status line and headers, and whether the connection may carry another request."""

    status: int
    reason: str
    headers: Headers
    http_version: str
    keep_alive: bool


def is_valid_header(name: str, value: str) -> bool:
    """Whether ``name: value`` can be sent as is: a token name, a value without control characters."""
    return _TOKEN_TEXT.fullmatch(name) is not None and _BAD_VALUE_TEXT.search(value) is None


def encode_head(method: str, target: str, headers: Iterable[tuple[str, str]]) -> bytes:
    """The request line and header block of one request, ending with the blank line.

    Raises:
        ProtocolError: a header name is not a token, or a value holds a control character or is not
            ASCII/Latin-1 (the request is not sent; nothing of it was written).
    """
    lines = [f"{method} {target} HTTP/1.1"]
    for name, value in headers:
        if not is_valid_header(name, value):
            raise ProtocolError(f"header {name!r} has an invalid name or value (not sent)")
        lines.append(f"{name}: {value}")
    lines.append("\r\n")
    try:
        return "\r\n".join(lines).encode("latin-1")
    except UnicodeEncodeError as exc:
        raise ProtocolError("a header value holds characters outside Latin-1 (not sent)") from exc


# Parser states.
_HEAD = 0
_LENGTH = 1
_CHUNK_SIZE = 2
_CHUNK_DATA = 3
_CHUNK_END = 4
_TRAILERS = 5
_UNTIL_CLOSE = 6
_DONE = 7

Event = ResponseHead | bytes | _End


class ResponseParser:
    """One connection's responses, in order: :meth:`feed` bytes, get events back.

    Events are a :class:`ResponseHead`, then body chunks (``bytes``, never empty), then :data:`END`. After
    :data:`END`, call :meth:`next_response` before the bytes of the next answer arrive (the connection's
    next request). :meth:`feed_eof` ends a body framed by the connection's end; anywhere else the end of the
    connection is a :class:`ProtocolError`.
    """

    __slots__ = ("_buffer", "_remaining", "_state", "is_head_request", "keep_alive", "max_head_bytes")

    def __init__(
        self, *, max_head_bytes: int = DEFAULT_MAX_HEAD_BYTES, is_head_request: bool = False
    ) -> None:
        self.max_head_bytes = max_head_bytes
        self.is_head_request = is_head_request
        self.keep_alive = False
        self._buffer = b""
        self._state = _HEAD
        self._remaining = 0

    @property
    def is_done(self) -> bool:
        """Whether the current response ended (:data:`END` was returned)."""
        return self._state == _DONE

    @property
    def is_idle(self) -> bool:
        """Whether nothing of the current response has arrived yet."""
        return self._state == _HEAD and not self._buffer

    @property
    def is_reusable(self) -> bool:
        """Whether the response ended, said the connection persists, and nothing unasked followed it."""
        return self._state == _DONE and self.keep_alive and not self._buffer

    def next_response(self, *, is_head_request: bool = False) -> None:
        """Expect the next response on the same connection (only after :data:`END`)."""
        if self._state != _DONE:
            raise ProtocolError("the previous response has not ended")
        if self._buffer:
            raise ProtocolError("the server sent bytes after its response, unasked")
        self._state = _HEAD
        self.is_head_request = is_head_request
        self.keep_alive = False

    def feed(self, data: bytes) -> list[Event]:
        """Take the next bytes of the connection; return the events they complete."""
        if self._state == _DONE:
            self._buffer += data  # unasked bytes: the connection is not reused (see is_reusable)
            return []
        buffer = self._buffer + data if self._buffer else data
        self._buffer = b""
        events: list[Event] = []
        while True:
            state = self._state
            if state == _LENGTH:
                if not buffer:
                    break
                if len(buffer) < self._remaining:
                    self._remaining -= len(buffer)
                    events.append(buffer)
                    buffer = b""
                    break
                size = self._remaining
                events.append(buffer[:size] if len(buffer) > size else buffer)
                buffer = buffer[size:]
                self._end(events)
            elif state == _HEAD:
                end, after = _find_blank_line(buffer)
                if end < 0:
                    if len(buffer) > self.max_head_bytes:
                        raise ProtocolError(f"the response head exceeds {self.max_head_bytes} bytes")
                    break
                if end > self.max_head_bytes:
                    raise ProtocolError(f"the response head exceeds {self.max_head_bytes} bytes")
                head = self._parse_head(buffer[:end])
                buffer = buffer[after:]
                if head is not None:
                    events.append(head)
                    if self._state == _DONE:  # no body: 204, 304, an answer to HEAD
                        events.append(END)
            elif state == _CHUNK_SIZE:
                newline = buffer.find(b"\n")
                if newline < 0:
                    if len(buffer) > _MAX_CHUNK_LINE:
                        raise ProtocolError("a chunk-size line is too long")
                    break
                line = buffer[:newline].rstrip(b"\r")
                buffer = buffer[newline + 1 :]
                digits = line.split(b";", 1)[0].strip(b" \t")
                if _HEX.fullmatch(digits) is None:
                    raise ProtocolError(f"unreadable chunk size {bytes(line[:40])!r}")
                size = int(digits, 16)
                if size == 0:
                    self._state = _TRAILERS
                else:
                    self._remaining = size
                    self._state = _CHUNK_DATA
            elif state == _CHUNK_DATA:
                if not buffer:
                    break
                if len(buffer) < self._remaining:
                    self._remaining -= len(buffer)
                    events.append(buffer)
                    buffer = b""
                    break
                size = self._remaining
                events.append(buffer[:size])
                buffer = buffer[size:]
                self._state = _CHUNK_END
            elif state == _CHUNK_END:
                if buffer[:2] == b"\r\n":
                    buffer = buffer[2:]
                elif buffer[:1] == b"\n":
                    buffer = buffer[1:]
                elif len(buffer) < 2 and buffer in (b"", b"\r"):
                    break
                else:
                    raise ProtocolError("a chunk does not end with CRLF")
                self._state = _CHUNK_SIZE
            elif state == _TRAILERS:
                end, after = _find_blank_line(buffer, allow_empty=True)
                if end < 0:
                    if len(buffer) > self.max_head_bytes:
                        raise ProtocolError(f"the trailers exceed {self.max_head_bytes} bytes")
                    break
                buffer = buffer[after:]  # trailer fields carry nothing the transport uses
                self._end(events)
            elif state == _UNTIL_CLOSE:
                if buffer:
                    events.append(buffer)
                    buffer = b""
                break
            else:  # _DONE: whatever follows was not asked for (kept, so that the connection is not reused)
                break
        self._buffer = buffer
        return events

    def feed_eof(self) -> list[Event]:
        """The server closed the connection: end a close-delimited body, or fail anything else unfinished."""
        state = self._state
        if state == _UNTIL_CLOSE:
            self._state = _DONE
            return [END]
        if state == _DONE:
            return []
        if state == _HEAD and not self._buffer:
            raise ProtocolError("the server closed the connection without sending a response")
        if state == _HEAD:
            raise ProtocolError("the server closed the connection in the middle of the response head")
        raise ProtocolError("the server closed the connection in the middle of the response body")

    def _end(self, events: list[Event]) -> None:
        self._state = _DONE
        events.append(END)

    def _parse_head(self, block: bytes) -> ResponseHead | None:
        """Parse a status line and headers; None (and stay in the head state) for an interim 1xx."""
        # One decode and one regex per line: this runs for every answer of every call. Latin-1 maps bytes
        # to code points one to one, so the checks below see exactly what was received.
        # NUL anywhere, or CR other than before LF: never part of a valid head (RFC 9112 §2.2). Counted by
        # bytes methods (each CRLF holds one CR): a regex search tried both at every byte of every head.
        if b"\x00" in block or block.count(b"\r") != block.count(b"\r\n"):
            raise ProtocolError("a control character (NUL, or CR without LF) in the response head")
        lines = block.decode("latin-1").split("\n")
        status_line = lines[0].rstrip("\r")
        match = _STATUS_LINE_TEXT.fullmatch(status_line)
        if match is None:
            raise ProtocolError(f"not an HTTP/1.x status line: {status_line[:60]!r}")
        minor, code, reason = match.groups()
        status = int(code)
        headers = Headers()
        add = headers.add
        for raw_line in lines[1:]:
            line = raw_line[:-1] if raw_line[-1:] == "\r" else raw_line
            if not line:
                continue
            field = _FIELD_LINE.fullmatch(line)
            if field is None:
                if line[:1] in (" ", "\t"):
                    raise ProtocolError("obsolete line folding in the response headers")
                raise ProtocolError(f"malformed header line {line[:60]!r}")
            name, value = field.groups()
            add(name.lower(), value.rstrip(" \t"))
        if status < 200:
            if status == 101:
                raise ProtocolError("the server switched protocols (101), which was never asked for")
            return None  # 100 Continue, 103 Early Hints …: the final answer follows
        version = f"1.{minor}"
        connection = (headers.get("connection") or "").lower()
        tokens = {token.strip() for token in connection.split(",")} if connection else set()
        keep_alive = "keep-alive" in tokens if minor == "0" else "close" not in tokens
        transfer_encoding = headers.get("transfer-encoding")
        length = headers.get("content-length")
        if self.is_head_request or status in (204, 304):
            self._state = _DONE
        elif transfer_encoding is not None:
            codings = [coding.strip().lower() for coding in transfer_encoding.split(",")]
            if codings[-1] == "chunked":
                self._state = _CHUNK_SIZE
            else:
                self._state = _UNTIL_CLOSE  # RFC 9112 §6.3 ¶4: read until the connection closes
                keep_alive = False
            if length is not None:
                keep_alive = False  # both: a message smuggling attempt or a broken proxy; do not reuse
        elif length is not None:
            values = {value.strip() for value in length.split(",")}
            if len(values) != 1:
                raise ProtocolError("the response has disagreeing Content-Length values")
            (text,) = values
            if not text.isdigit() or not text.isascii() or len(text) > 18:
                raise ProtocolError(f"unreadable Content-Length {text[:30]!r}")
            self._remaining = int(text)
            self._state = _LENGTH if self._remaining else _DONE
        else:
            self._state = _UNTIL_CLOSE
            keep_alive = False
        self.keep_alive = keep_alive
        head = ResponseHead(status, reason or "", headers, version, keep_alive)
        return head


def _find_blank_line(buffer: bytes, *, allow_empty: bool = False) -> tuple[int, int]:
    """``(end, next)``: the header block is ``buffer[:end]`` and what follows starts at ``next``.

    ``(-1, 0)`` when the blank line has not arrived yet. With ``allow_empty`` a block may be empty (trailers).
    """
    if allow_empty:
        if buffer[:2] == b"\r\n":
            return 0, 2
        if buffer[:1] == b"\n":
            return 0, 1
    # The end of a header block: the line end of its last line, then an empty line (CRLF or bare LF each),
    # that is the first LF followed by an optional CR and another LF. Found with bytes.find, which a regex
    # search (trying a match at every byte of the head) cost several times over.
    crlf = buffer.find(b"\n\r\n")
    lf = buffer.find(b"\n\n", 0, crlf + 2 if crlf >= 0 else len(buffer))
    if lf >= 0 and (crlf < 0 or lf < crlf):
        newline, after = lf, lf + 2
    elif crlf >= 0:
        newline, after = crlf, crlf + 3
    else:
        return -1, 0
    return (newline - 1 if newline and buffer[newline - 1] == 0x0D else newline), after
