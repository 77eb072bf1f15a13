"""The incremental Server-Sent Events parser (``mcp_troupe.protocol.sse``).

It reads event streams from untrusted servers, in whatever chunks the network delivers: the events it returns
must not depend on where the chunks were cut, and it raises nothing but :class:`FrameTooLarge`. The rules are
WHATWG HTML §9.2.6 ("Interpreting an event stream").
"""

from __future__ import annotations

import contextlib
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_troupe.errors import FrameTooLarge
from mcp_troupe.protocol.sse import SseEvent, SseParser

pytestmark = pytest.mark.timeout(60)

PROPERTY = settings(max_examples=200, deadline=None)


def parse(stream: bytes, *, max_event_bytes: int = 1 << 20) -> list[SseEvent]:
    """All events of ``stream`` fed at once."""
    return SseParser(max_event_bytes).feed(stream)


def parse_chunks(chunks: list[bytes], *, max_event_bytes: int = 1 << 20) -> list[SseEvent]:
    parser = SseParser(max_event_bytes)
    events: list[SseEvent] = []
    for chunk in chunks:
        events.extend(parser.feed(chunk))
    return events


def split_at(stream: bytes, cuts: list[int]) -> list[bytes]:
    bounds = [0, *sorted(cuts), len(stream)]
    return [stream[start:end] for start, end in itertools.pairwise(bounds)]


# --- the standard's rules, one table ------------------------------------------------------------------

CASES: list[tuple[str, bytes, list[SseEvent]]] = [
    ("one message", b"data: hello\n\n", [SseEvent("message", "hello")]),
    ("CRLF line ends", b"data: hello\r\n\r\n", [SseEvent("message", "hello")]),
    ("CR line ends", b"data: hello\r\r", [SseEvent("message", "hello")]),
    ("mixed line ends", b"data: a\rdata: b\r\ndata: c\n\n", [SseEvent("message", "a\nb\nc")]),
    ("multi-line data joined with LF", b"data: one\ndata: two\n\n", [SseEvent("message", "one\ntwo")]),
    ("one space after the colon stripped", b"data:  two spaces\n\n", [SseEvent("message", " two spaces")]),
    ("no space after the colon", b"data:tight\n\n", [SseEvent("message", "tight")]),
    ("field without a colon: empty value", b"data\n\n", [SseEvent("message", "")]),
    ("empty data still dispatches", b"data:\n\n", [SseEvent("message", "")]),
    ("a data line of only a colon value", b"data: :x\n\n", [SseEvent("message", ":x")]),
    ("comments ignored", b": keep-alive\ndata: x\n: another\n\n", [SseEvent("message", "x")]),
    ("only a comment: nothing", b": ping\n\n", []),
    ("no data field: no event", b"event: ping\nid: 3\n\n", []),
    ("event type", b"event: update\ndata: x\n\n", [SseEvent("update", "x")]),
    ("empty event type is message", b"event:\ndata: x\n\n", [SseEvent("message", "x")]),
    ("event type resets after dispatch", b"event: a\ndata: 1\n\ndata: 2\n\n",
     [SseEvent("a", "1"), SseEvent("message", "2")]),
    ("id", b"id: 7\ndata: x\n\n", [SseEvent("message", "x", id="7")]),
    ("id persists across events", b"id: 7\ndata: x\n\ndata: y\n\n",
     [SseEvent("message", "x", id="7"), SseEvent("message", "y", id="7")]),
    ("empty id resets it", b"id: 7\ndata: x\n\nid\ndata: y\n\n",
     [SseEvent("message", "x", id="7"), SseEvent("message", "y", id="")]),
    ("id with NUL ignored", b"id: 1\ndata: a\n\nid: 2\x003\ndata: b\n\n",
     [SseEvent("message", "a", id="1"), SseEvent("message", "b", id="1")]),
    ("retry", b"retry: 1500\ndata: x\n\n", [SseEvent("message", "x", retry=1500)]),
    ("retry with a non-digit ignored", b"retry: 15a\ndata: x\n\n", [SseEvent("message", "x")]),
    ("retry empty ignored", b"retry:\ndata: x\n\n", [SseEvent("message", "x")]),
    ("retry negative ignored", b"retry: -5\ndata: x\n\n", [SseEvent("message", "x")]),
    ("unknown fields ignored", b"foo: bar\ndata: x\n\n", [SseEvent("message", "x")]),
    ("field names are case-sensitive", b"Data: x\n\n", []),
    ("leading BOM dropped", b"\xef\xbb\xbfdata: x\n\n", [SseEvent("message", "x")]),
    ("only one BOM dropped", b"\xef\xbb\xbf\xef\xbb\xbfdata: x\n\n", []),
    ("invalid UTF-8 replaced", b"data: \xff\xfe ok\n\n", [SseEvent("message", "\ufffd\ufffd ok")]),
    ("UTF-8 text", "data: héllo, wörld ✓\n\n".encode(), [SseEvent("message", "héllo, wörld ✓")]),
    ("incomplete event at the end discarded", b"data: x\n\ndata: y\n", [SseEvent("message", "x")]),
    ("blank lines between events", b"\n\n\ndata: x\n\n\n\n", [SseEvent("message", "x")]),
    ("a JSON-RPC message", b'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
     [SseEvent("message", '{"jsonrpc":"2.0","id":1,"result":{}}')]),
]  # fmt: skip


@pytest.mark.parametrize(("stream", "expected"), [case[1:] for case in CASES], ids=[c[0] for c in CASES])
def test_the_standard_rules(stream: bytes, expected: list[SseEvent]) -> None:
    assert parse(stream) == expected


@pytest.mark.parametrize(("stream", "expected"), [case[1:] for case in CASES], ids=[c[0] for c in CASES])
def test_the_standard_rules_hold_one_byte_at_a_time(stream: bytes, expected: list[SseEvent]) -> None:
    assert parse_chunks([stream[i : i + 1] for i in range(len(stream))]) == expected


@pytest.mark.parametrize("separator", [b"\r\n\r\n", b"\n\n", b"\r\r"], ids=["CRLF CRLF", "LF LF", "CR CR"])
def test_each_separator_ends_an_event_at_once(separator: bytes) -> None:
    parser = SseParser()

    # The event is complete the moment its blank line arrives, even a bare "\r\r": nothing waits for a
    # following "\n" that might never come.
    assert parser.feed(b"data: x" + separator) == [SseEvent("message", "x")]
    assert parser.feed(b"data: y" + separator) == [SseEvent("message", "y")]


def test_a_crlf_split_across_chunks_is_one_line_end() -> None:
    parser = SseParser()

    assert parser.feed(b"data: a\r") == []
    # Were the "\n" a second line end, this would be a blank line and dispatch "a" now.
    assert parser.feed(b"\ndata: b\r") == []
    assert parser.feed(b"\n\r") == [SseEvent("message", "a\nb")]
    assert parser.feed(b"\n") == []


def test_a_bom_split_across_chunks_is_dropped() -> None:
    assert parse_chunks([b"\xef", b"\xbb", b"\xbfdata: x\n\n"]) == [SseEvent("message", "x")]


def test_a_bom_prefix_that_is_not_a_bom_is_kept_as_data() -> None:
    assert parse_chunks([b"\xef", b"data: x\n\n"]) == []  # "\ufffddata" is an unknown field name
    assert parse_chunks([b"\xef\xbb", b"\n"]) == []


def test_last_event_id_and_retry_are_kept_on_the_parser() -> None:
    parser = SseParser()
    assert (parser.last_event_id, parser.retry) == (None, None)

    parser.feed(b"id: e1\nretry: 250\ndata: x\n\n")
    parser.feed(b"data: y\n\nid: e2\n\n")  # an id in a block without data still counts

    assert (parser.last_event_id, parser.retry) == ("e2", 250)


def test_an_event_larger_than_the_bound_raises_frame_too_large() -> None:
    parser = SseParser(max_event_bytes=100)
    parser.feed(b"data: " + b"x" * 60 + b"\n")

    with pytest.raises(FrameTooLarge):
        parser.feed(b"data: " + b"y" * 60 + b"\n")


def test_a_line_that_never_ends_raises_frame_too_large() -> None:
    parser = SseParser(max_event_bytes=1000)

    with pytest.raises(FrameTooLarge):
        for _ in range(100):
            parser.feed(b"data: " + b"z" * 50)


def test_the_bound_applies_per_event_not_per_stream() -> None:
    parser = SseParser(max_event_bytes=100)

    events = [event for _ in range(50) for event in parser.feed(b"data: " + b"x" * 60 + b"\n\n")]

    assert len(events) == 50


# --- properties --------------------------------------------------------------------------------------------

line_ends = st.sampled_from([b"\r\n", b"\n", b"\r"])
# Values must not hold line-end characters; anything else goes, including non-UTF-8 bytes and colons.
values = st.binary(max_size=20).map(lambda raw: raw.replace(b"\r", b"").replace(b"\n", b""))
fields = st.one_of(
    st.tuples(st.just(b"data"), values),
    st.tuples(st.just(b"event"), values),
    st.tuples(st.just(b"id"), values),
    st.tuples(st.just(b"retry"), st.integers(0, 10**6).map(lambda n: str(n).encode())),
    st.tuples(st.just(b""), values),  # a comment
)


@st.composite
def streams(draw: st.DrawFn) -> bytes:
    """A well-formed stream: events of a few fields each, every line ending with a random line end."""
    out = b""
    if draw(st.booleans()):
        out += b"\xef\xbb\xbf"
    for _ in range(draw(st.integers(0, 6))):
        for name, value in draw(st.lists(fields, max_size=5)):
            out += name + b":" + (b" " if draw(st.booleans()) else b"") + value + draw(line_ends)
        out += draw(line_ends)
    return out


@PROPERTY
@given(stream=streams(), data=st.data())
def test_any_split_into_chunks_gives_the_same_events(stream: bytes, data: st.DataObject) -> None:
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=12))

    assert parse_chunks(split_at(stream, cuts)) == parse(stream)


@PROPERTY
@given(stream=streams())
def test_one_byte_at_a_time_gives_the_same_events(stream: bytes) -> None:
    assert parse_chunks([stream[i : i + 1] for i in range(len(stream))]) == parse(stream)


def test_a_split_at_every_byte_boundary_of_a_crlf_stream_gives_the_same_events() -> None:
    stream = (
        b"\xef\xbb\xbf: comment\r\nid: 1\r\nretry: 10\r\nevent: message\r\n"
        b'data: {"jsonrpc":"2.0",\r\ndata: "id":1,"result":{}}\r\n\r\n'
        b"data: second\r\n\r\nid: 2\r\ndata: third\r\n\r\n"
    )
    expected = parse(stream)
    assert [event.data for event in expected] == ['{"jsonrpc":"2.0",\n"id":1,"result":{}}', "second", "third"]

    for cut in range(len(stream) + 1):
        assert parse_chunks([stream[:cut], stream[cut:]]) == expected, f"split at byte {cut}"
    for first in range(len(stream) + 1):
        for second in range(first, len(stream) + 1, 7):
            assert parse_chunks(split_at(stream, [first, second])) == expected


@PROPERTY
@given(chunks=st.lists(st.binary(max_size=64), max_size=20))
def test_arbitrary_bytes_raise_nothing_but_frame_too_large(chunks: list[bytes]) -> None:
    parser = SseParser(max_event_bytes=256)
    with contextlib.suppress(FrameTooLarge):
        for chunk in chunks:
            for event in parser.feed(chunk):
                assert isinstance(event.data, str)
