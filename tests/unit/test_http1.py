"""The sans-I/O HTTP/1.1 framing of the lean HTTP client (protocol/http1.py): byte strings in, events out."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_troupe.protocol.http1 import (
    END,
    Headers,
    ProtocolError,
    ResponseHead,
    ResponseParser,
    _find_blank_line,
    encode_head,
    is_valid_header,
)


def parse_all(data: bytes, *, eof: bool = False, pieces: list[int] | None = None) -> list[object]:
    """Feed ``data`` (split after each offset in ``pieces``), then EOF if asked; return the events."""
    parser = ResponseParser()
    events: list[object] = []
    cuts = sorted(set(pieces or []))
    start = 0
    for cut in [*cuts, len(data)]:
        events += parser.feed(data[start:cut])
        start = cut
    if eof:
        events += parser.feed_eof()
    return events


def head_and_body(events: list[object]) -> tuple[ResponseHead, bytes]:
    assert isinstance(events[0], ResponseHead)
    assert events[-1] is END
    chunks = events[1:-1]
    assert all(isinstance(chunk, bytes) and chunk for chunk in chunks)
    return events[0], b"".join(chunk for chunk in chunks if isinstance(chunk, bytes))


# ---- framing ---------------------------------------------------------------------------------------------


def test_a_sized_response_in_one_read_gives_head_body_and_end() -> None:
    raw = b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}'
    head, body = head_and_body(parse_all(raw))
    assert (head.status, head.reason, head.http_version, head.keep_alive) == (200, "OK", "1.1", True)
    assert head.headers.get("content-type") == "application/json"
    assert head.headers.get("CONTENT-TYPE") == "application/json"
    assert body == b'{"a":1}'


def test_a_chunked_body_with_extensions_and_trailers() -> None:
    raw = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"5;name=value\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nExpires: never\r\n\r\n"
    )
    head, body = head_and_body(parse_all(raw))
    assert body == b"hello world"
    assert head.keep_alive


def test_a_body_without_length_lasts_until_the_connection_closes() -> None:
    raw = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: 1\n\n"
    parser = ResponseParser()
    events = parser.feed(raw)
    assert END not in events
    events += parser.feed(b"data: 2\n\n")
    events += parser.feed_eof()
    head, body = head_and_body(events)
    assert body == b"data: 1\n\ndata: 2\n\n"
    assert not head.keep_alive
    assert not parser.is_reusable


def test_interim_answers_are_skipped() -> None:
    raw = (
        b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n"
        b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n"
    )
    events = parse_all(raw)
    assert len(events) == 2
    assert isinstance(events[0], ResponseHead) and events[0].status == 202
    assert events[1] is END


@pytest.mark.parametrize("status", [204, 304])
def test_answers_that_have_no_body_end_with_their_head(status: int) -> None:
    events = parse_all(f"HTTP/1.1 {status} X\r\nContent-Length: 10\r\n\r\n".encode())
    assert isinstance(events[0], ResponseHead) and events[1:] == [END]


def test_an_answer_to_head_has_no_body() -> None:
    parser = ResponseParser(is_head_request=True)
    events = parser.feed(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n")
    assert events[1:] == [END]


@pytest.mark.parametrize(
    ("version", "connection", "keep_alive"),
    [
        ("1.1", None, True),
        ("1.1", "close", False),
        ("1.1", "Keep-Alive, Close", False),
        ("1.0", None, False),
        ("1.0", "keep-alive", True),
    ],
)
def test_whether_the_connection_persists(version: str, connection: str | None, keep_alive: bool) -> None:
    extra = f"Connection: {connection}\r\n" if connection else ""
    parser = ResponseParser()
    events = parser.feed(f"HTTP/{version} 200 OK\r\n{extra}Content-Length: 0\r\n\r\n".encode())
    assert isinstance(events[0], ResponseHead) and events[0].keep_alive is keep_alive
    assert parser.is_reusable is keep_alive


def test_transfer_encoding_wins_over_content_length_and_the_connection_is_not_reused() -> None:
    raw = b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n"
    parser = ResponseParser()
    head, body = head_and_body(parser.feed(raw))
    assert body == b"ok"
    assert not head.keep_alive and not parser.is_reusable


def test_bare_line_feeds_are_accepted() -> None:
    head, body = head_and_body(parse_all(b"HTTP/1.1 200 OK\nContent-Length: 2\n\nok"))
    assert head.status == 200 and body == b"ok"


def test_repeated_headers_are_joined_and_kept_apart() -> None:
    raw = b"HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Length: 0\r\n\r\n"
    head, _ = head_and_body(parse_all(raw))
    assert head.headers.get("set-cookie") == "a=1, b=2"
    assert head.headers.get_list("Set-Cookie") == ["a=1", "b=2"]
    assert "SET-COOKIE" in head.headers and "x" not in head.headers


def test_the_parser_serves_one_response_after_another() -> None:
    parser = ResponseParser()
    first = parser.feed(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\na")
    assert first[-1] is END and parser.is_reusable
    parser.next_response()
    second = parser.feed(b"HTTP/1.1 404 Not Found\r\nContent-Length: 1\r\n\r\nb")
    assert isinstance(second[0], ResponseHead) and second[0].status == 404 and second[1] == b"b"


def test_unasked_bytes_after_a_response_make_the_connection_unusable() -> None:
    parser = ResponseParser()
    events = parser.feed(b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\naHTTP/1.1 200 OK\r\n")
    assert events[-1] is END and events[1] == b"a"
    assert not parser.is_reusable
    with pytest.raises(ProtocolError, match="unasked"):
        parser.next_response()


def test_next_response_before_the_end_is_refused() -> None:
    parser = ResponseParser()
    parser.feed(b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab")
    with pytest.raises(ProtocolError, match="not ended"):
        parser.next_response()


# ---- what is refused --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"HTTP/2 200 OK\r\n\r\n", "status line"),
        (b"ICY 200 OK\r\n\r\n", "status line"),
        (b"HTTP/1.1 2000 OK\r\n\r\n", "status line"),
        (b"HTTP/1.1 200 OK\r\nX-A: 1\r\n folded\r\n\r\n", "folding"),
        (b"HTTP/1.1 200 OK\r\nBad Name: 1\r\n\r\n", "malformed header"),
        (b"HTTP/1.1 200 OK\r\nNoColon\r\n\r\n", "malformed header"),
        (b"HTTP/1.1 200 OK\r\nX-A: a\x00b\r\n\r\n", "control character"),
        (b"HTTP/1.1 200 OK\r\nX-A: a\rb\r\n\r\n", "control character"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "Content-Length"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 1e3\r\n\r\n", "Content-Length"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n", "disagreeing"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", "disagreeing"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "chunk size"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokXX", "CRLF"),
        (b"HTTP/1.1 101 Switching Protocols\r\n\r\n", "101"),
    ],
)
def test_broken_responses_are_protocol_errors(raw: bytes, message: str) -> None:
    with pytest.raises(ProtocolError, match=message):
        ResponseParser().feed(raw)


def test_same_content_length_values_repeated_are_one() -> None:
    _, body = head_and_body(parse_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\nok"))
    assert body == b"ok"


def test_a_head_larger_than_the_limit_is_refused_before_it_ends() -> None:
    parser = ResponseParser(max_head_bytes=100)
    with pytest.raises(ProtocolError, match="exceeds 100 bytes"):
        parser.feed(b"HTTP/1.1 200 OK\r\nX-Big: " + b"a" * 200)


def test_a_chunk_size_line_without_end_is_refused() -> None:
    parser = ResponseParser()
    parser.feed(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
    with pytest.raises(ProtocolError, match="too long"):
        parser.feed(b"1" * 2000)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"", "without sending a response"),
        (b"HTTP/1.1 200 OK\r\nContent-", "middle of the response head"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nab", "middle of the response body"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab", "middle of the response body"),
    ],
)
def test_the_end_of_the_connection_mid_response_is_a_protocol_error(raw: bytes, message: str) -> None:
    parser = ResponseParser()
    parser.feed(raw)
    with pytest.raises(ProtocolError, match=message):
        parser.feed_eof()


# ---- the request head -------------------------------------------------------------------------------------


def test_encode_head_writes_the_request_line_and_headers() -> None:
    head = encode_head("POST", "/mcp?x=1", [("Host", "h:1"), ("Content-Length", "2")])
    assert head == b"POST /mcp?x=1 HTTP/1.1\r\nHost: h:1\r\nContent-Length: 2\r\n\r\n"


@pytest.mark.parametrize(
    ("name", "value"),
    [("X-A", "a\r\nInjected: 1"), ("X-A", "a\nb"), ("X-A", "a\x00"), ("Bad Name", "v"), ("", "v")],
)
def test_encode_head_refuses_header_injection(name: str, value: str) -> None:
    assert not is_valid_header(name, value)
    with pytest.raises(ProtocolError, match="invalid name or value"):
        encode_head("GET", "/", [(name, value)])


def test_encode_head_refuses_values_outside_latin1() -> None:
    with pytest.raises(ProtocolError, match="Latin-1"):
        encode_head("GET", "/", [("X-A", "snow \u2603")])


def test_headers_repr_shows_no_values() -> None:
    assert "secret" not in repr(Headers([("Authorization", "Bearer secret")]))


# ---- properties over arbitrary bytes and splits -----------------------------------------------------------

_names = st.from_regex(r"X-[A-Za-z0-9-]{1,12}", fullmatch=True)
_values = st.from_regex(r"[ -~]{0,30}", fullmatch=True).map(str.strip)


@st.composite
def responses(draw: st.DrawFn) -> tuple[bytes, int, list[tuple[str, str]], bytes, str]:
    status = draw(st.integers(200, 599).filter(lambda code: code not in (204, 304)))
    headers = draw(st.lists(st.tuples(_names, _values), max_size=6))
    body = draw(st.binary(max_size=300))
    framing = draw(st.sampled_from(["length", "chunked", "close"]))
    head = f"HTTP/1.1 {status} Reason\r\n" + "".join(f"{name}: {value}\r\n" for name, value in headers)
    if framing == "length":
        raw = (head + f"Content-Length: {len(body)}\r\n\r\n").encode() + body
    elif framing == "chunked":
        sizes = draw(st.lists(st.integers(1, 50), max_size=10))
        chunks, rest = [], body
        for size in sizes:
            if rest:
                chunks.append(rest[:size])
                rest = rest[size:]
        if rest:
            chunks.append(rest)
        encoded = b"".join(b"%x\r\n%s\r\n" % (len(chunk), chunk) for chunk in chunks)
        raw = (head + "Transfer-Encoding: chunked\r\n\r\n").encode() + encoded + b"0\r\n\r\n"
    else:
        raw = (head + "\r\n").encode() + body
    return raw, status, headers, body, framing


@settings(max_examples=200, deadline=None)
@given(responses(), st.lists(st.integers(0, 700), max_size=12))
def test_any_split_of_a_response_gives_the_same_head_and_body(
    response: tuple[bytes, int, list[tuple[str, str]], bytes, str], cuts: list[int]
) -> None:
    raw, status, headers, body, framing = response
    events = parse_all(raw, eof=framing == "close", pieces=[cut for cut in cuts if cut < len(raw)])
    head, received = head_and_body(events)
    assert head.status == status
    assert received == body
    for name, value in headers:
        assert value in (head.headers.get_list(name))
    assert head.keep_alive is (framing != "close")


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400), st.booleans())
def test_arbitrary_bytes_raise_nothing_but_protocol_errors(data: bytes, with_eof: bool) -> None:
    parser = ResponseParser(max_head_bytes=256)
    try:
        parser.feed(data)
        if with_eof:
            parser.feed_eof()
    except ProtocolError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_arbitrary_bytes_after_a_valid_head_raise_nothing_but_protocol_errors(data: bytes) -> None:
    parser = ResponseParser()
    for prefix in (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n", b"HTTP/1.1 200 OK\r\n"):
        try:
            parser = ResponseParser()
            parser.feed(prefix + data)
            parser.feed_eof()
        except ProtocolError:
            pass


# ---- the head's scans against their regular-expression definitions -----------------------------------------

# The definitions the faster bytes scans replaced (RFC 9112 §2.2, §5), kept here as the oracle.
_BLANK_LINE_DEFINITION = re.compile(rb"\r?\n\r?\n")
_FORBIDDEN_DEFINITION = re.compile(rb"\x00|\r(?!\n)")
_FIELD_DEFINITION = re.compile(r"([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*(.*?)[ \t]*")
_head_bytes = st.lists(
    st.sampled_from([b"a", b":", b" ", b"\t", b"\r", b"\n", b"\r\n", b"\x00"]), max_size=40
)


@settings(max_examples=200, deadline=None)
@given(_head_bytes, st.booleans())
def test_the_end_of_a_head_is_found_where_the_definition_puts_it(pieces: list[bytes], empty: bool) -> None:
    buffer = b"".join(pieces)
    match = _BLANK_LINE_DEFINITION.search(buffer)
    expected = (match.start(), match.end()) if match is not None else (-1, 0)
    if empty and buffer[:2] == b"\r\n":
        expected = (0, 2)
    elif empty and buffer[:1] == b"\n":
        expected = (0, 1)
    assert _find_blank_line(buffer, allow_empty=empty) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([b"X-A: b", b"\r", b"\n", b"\r\n", b"\x00", b" c"]), max_size=12))
def test_a_head_is_refused_for_nul_or_a_bare_cr_exactly_as_defined(pieces: list[bytes]) -> None:
    block = b"HTTP/1.1 200 OK\r\n" + b"".join(pieces)
    raw = block + b"\r\nContent-Length: 0\r\n\r\n"
    head = raw[: _find_blank_line(raw)[0]]
    try:
        ResponseParser().feed(raw)
    except ProtocolError as exc:
        refused = "control character" in str(exc)
    else:
        refused = False
    assert refused == (_FORBIDDEN_DEFINITION.search(head) is not None)


@settings(max_examples=150, deadline=None)
@given(st.from_regex(r"[ \t]{0,3}[!-~]([ -~\t]{0,20}[!-~])?[ \t]{0,3}|[ \t]{0,4}", fullmatch=True))
def test_a_header_value_loses_exactly_its_surrounding_whitespace(value: str) -> None:
    line = f"X-Value:{value}"
    defined = _FIELD_DEFINITION.fullmatch(line)
    assert defined is not None
    raw = f"HTTP/1.1 200 OK\r\n{line}\r\nContent-Length: 0\r\n\r\n".encode("latin-1")
    (head, end) = ResponseParser().feed(raw)
    assert isinstance(head, ResponseHead) and end is END
    assert head.headers.get("x-value") == defined.group(2)
