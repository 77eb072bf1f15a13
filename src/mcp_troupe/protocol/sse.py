"""An incremental Server-Sent Events parser: bytes in, events out, whatever the chunking.

It follows the WHATWG HTML "Server-sent events" interpretation rules (§9.2.6, "Interpreting an event
stream"):

- one leading UTF-8 byte order mark is dropped; the rest is decoded as UTF-8 with errors replaced;
- lines end with ``\\r\\n``, ``\\n`` or ``\\r``, mixed freely; a ``\\r\\n`` split across two chunks is one
  line end, not two (the ``\\r`` ends the line at once, and a ``\\n`` opening the next chunk is skipped);
- a blank line dispatches the event; one with no ``data`` field is dropped, as browsers do;
- ``:`` opens a comment; a line without a colon is a field with an empty value; one space after the colon is
  stripped, and only one;
- ``data`` lines are joined with ``\\n``; ``event`` names the type (``message`` when absent); ``id`` sets the
  last event id, which persists across events, unless it contains NUL; ``retry`` (ASCII digits only) sets
  the reconnection time in milliseconds; other fields are ignored;
- at the end of the stream an event without its blank line is discarded.

Lines are split on bytes before decoding: ``\\r`` and ``\\n`` never occur inside a multi-byte UTF-8 sequence,
so this is exact and lets the bound be counted in bytes. The parser is pure (no I/O, no clock) and raises
nothing but :class:`~mcp_troupe.errors.FrameTooLarge`, once an event's buffered data, or a line still waiting
for its end, grows past ``max_event_bytes``.

spec: 2025-06-18 basic/transports, Streamable HTTP — the server's messages arrive as SSE events whose data is
one JSON-RPC message; ``id`` and ``retry`` drive resumption (``Last-Event-ID``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mcp_troupe.errors import FrameTooLarge

__all__ = ["DEFAULT_MAX_EVENT_BYTES", "SseEvent", "SseParser"]

DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024

_BOM = b"\xef\xbb\xbf"
_LINE_END = re.compile(rb"\r\n?|\n")


@dataclass(frozen=True, slots=True)
class SseEvent:
    """One dispatched event.

    ``id`` is the stream's last event id when the event was dispatched (it persists across events, per the
    standard), ``None`` if the stream never set one. ``retry`` is the reconnection time in milliseconds set
    by a ``retry`` field in this event's block, if any (:attr:`SseParser.retry` keeps the latest).
    """

    event: str
    data: str
    id: str | None = None
    retry: int | None = None


class SseParser:
    """Feed it the bytes of one event stream, in chunks of any size; it returns the events they complete."""

    def __init__(self, max_event_bytes: int = DEFAULT_MAX_EVENT_BYTES) -> None:
        self.max_event_bytes = max_event_bytes
        # Until three bytes have arrived we cannot tell a BOM from data; None once decided.
        self._head: bytes | None = b""
        self._skip_lf = False
        self._partial: list[bytes] = []
        self._partial_size = 0
        self._data: list[bytes] = []
        self._data_size = 0
        self._has_data = False
        self._event_type = ""
        self._block_retry: int | None = None
        self._last_event_id: str | None = None
        self._retry: int | None = None

    @property
    def last_event_id(self) -> str | None:
        """The last event id the stream set (``Last-Event-ID`` when reconnecting), ``None`` if none."""
        return self._last_event_id

    @property
    def retry(self) -> int | None:
        """The latest reconnection time (milliseconds) the stream asked for, ``None`` if none."""
        return self._retry

    def feed(self, chunk: bytes) -> list[SseEvent]:
        """Consume ``chunk``; return the events it completed, in order.

        Raises:
            FrameTooLarge: The current event's data (or an unfinished line) exceeds ``max_event_bytes``.
        """
        events: list[SseEvent] = []
        if self._head is not None:
            head = self._head + chunk
            if len(head) < len(_BOM) and _BOM.startswith(head):
                self._head = head
                return events
            self._head = None
            chunk = head[len(_BOM) :] if head.startswith(_BOM) else head
        if not chunk:
            return events
        start = 0
        if self._skip_lf:
            # The previous chunk ended in "\r": a "\n" here completes that "\r\n", it is no second line end.
            self._skip_lf = False
            if chunk[0] == 0x0A:
                start = 1
        size = len(chunk)
        for match in _LINE_END.finditer(chunk, start):
            piece = chunk[start : match.start()]
            if self._partial:
                self._partial.append(piece)
                line = b"".join(self._partial)
                self._partial = []
                self._partial_size = 0
            else:
                line = piece
            self._process_line(line, events)
            start = match.end()
            if start == size and match.end() - match.start() == 1 and chunk[-1] == 0x0D:
                self._skip_lf = True
        if start < size:
            rest = chunk[start:]
            self._partial.append(rest)
            self._partial_size += len(rest)
            self._check_size()
        return events

    def _check_size(self) -> None:
        if self._data_size + self._partial_size > self.max_event_bytes:
            raise FrameTooLarge(self.max_event_bytes)

    def _process_line(self, line: bytes, events: list[SseEvent]) -> None:
        if not line:
            self._dispatch(events)
            return
        colon = line.find(b":")
        if colon == 0:
            return  # a comment (servers send them as keep-alives)
        if colon < 0:
            field, value = line, b""
        else:
            field = line[:colon]
            value = line[colon + 1 :]
            if value[:1] == b" ":
                value = value[1:]
        if field == b"data":
            self._data.append(value)
            self._data_size += len(value) + 1
            self._has_data = True
            self._check_size()
        elif field == b"event":
            self._event_type = value.decode("utf-8", "replace")
        elif field == b"id":
            if b"\x00" not in value:
                self._last_event_id = value.decode("utf-8", "replace")
        elif field == b"retry" and value.isdigit():  # bytes.isdigit(): ASCII digits only, False when empty
            self._retry = self._block_retry = int(value)
        # Any other field is ignored, as the standard says.

    def _dispatch(self, events: list[SseEvent]) -> None:
        if self._has_data:
            data = b"\n".join(self._data).decode("utf-8", "replace")
            event_type = self._event_type or "message"
            events.append(SseEvent(event_type, data, self._last_event_id, self._block_retry))
        self._data = []
        self._data_size = 0
        self._has_data = False
        self._event_type = ""
        self._block_retry = None
