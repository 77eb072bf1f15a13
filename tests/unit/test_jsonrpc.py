"""JSON-RPC 2.0 decoding, encoding and newline framing (``mcp_troupe.protocol.jsonrpc``).

The decoder faces untrusted bytes from a server process: whatever arrives, it returns a message or raises
:class:`MalformedMessage` naming the problem, never anything else. The framer likewise raises only
:class:`FrameTooLarge`, and its output does not depend on how the stream was chunked.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_troupe.errors import FrameTooLarge, MalformedMessage, ProtocolError
from mcp_troupe.protocol import jsonrpc
from mcp_troupe.protocol.jsonrpc import (
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    ErrorObject,
    ErrorResponse,
    LineFramer,
    Message,
    Notification,
    Request,
    Response,
    decode,
    decode_answer,
    decode_batch,
    encode,
    encode_notification,
    encode_request,
    split_result,
)

PROPERTY = settings(max_examples=200, deadline=None)


# --- strategies -----------------------------------------------------------------------------------------

# Integers stay within 64 bits: CPython refuses to print ints of over 4300 digits, and no peer sends them.
json_ints = st.integers(min_value=-(2**63), max_value=2**63)
json_scalars = (
    st.none() | st.booleans() | json_ints | st.floats(allow_nan=False, allow_infinity=False) | st.text()
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=6,
)
json_objects = st.dictionaries(st.text(max_size=8), json_values, max_size=4)


def _has_surrogate_pair(text: str) -> bool:
    return any(
        "\ud800" <= high <= "\udbff" and "\udc00" <= low <= "\udfff" for high, low in itertools.pairwise(text)
    )


# Text that tempts an encoder to emit a raw line break, plus lone surrogates (which JSON can carry as \u
# escapes and decode accepts, but which have no UTF-8 form). Joined from a list because st.text() folds its
# alphabet into a character set that drops surrogates. A high surrogate followed by a low one is left out:
# JSON spells it as the escape of one astral character, which every reader (decode included) joins.
tricky_text = (
    st.lists(
        st.sampled_from(["\n", "\r", "\u2028", "\u2029", "\x85", "\\", '"', "\ud800", "\udfff", "a"])
        | st.characters(),
        max_size=12,
    )
    .map("".join)
    .filter(lambda text: not _has_surrogate_pair(text))
)
request_ids = json_ints | tricky_text
methods = st.text(max_size=30) | tricky_text

requests = st.builds(Request, request_ids, methods, st.none() | json_objects)
notifications = st.builds(Notification, methods, st.none() | json_objects)
responses = st.builds(Response, request_ids, json_objects)
error_responses = st.builds(
    ErrorResponse,
    st.none() | request_ids,
    st.builds(ErrorObject, json_ints, tricky_text, st.none() | json_values),
)
messages: st.SearchStrategy[Message] = requests | notifications | responses | error_responses

# Objects shaped like messages, each member sometimes right and sometimes not, to reach every branch of
# the decoder rather than stopping at "not an object".
message_like = st.fixed_dictionaries(
    {},
    optional={
        "jsonrpc": st.just("2.0") | json_values,
        "id": request_ids | json_values,
        "method": methods | json_values,
        "params": json_objects | json_values,
        "result": json_objects | json_values,
        "error": st.fixed_dictionaries(
            {},
            optional={
                "code": json_ints | json_values,
                "message": st.text() | json_values,
                "data": json_values,
            },
        )
        | json_values,
    },
)


def _decode_or_refuse(data: bytes | str) -> Message | None:
    """Decode; None when refused. Anything but MalformedMessage escapes and fails the test."""
    try:
        return decode(data)
    except MalformedMessage:
        return None


# --- malformed messages ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        pytest.param(b"{not json", "not JSON", id="not-json"),
        pytest.param(b"", "not JSON", id="empty"),
        pytest.param(b'{"jsonrpc":"2.0","method":"x"', "not JSON", id="truncated"),
        pytest.param(b'{"jsonrpc":"2.0","method":"\xff\xfe"}', "not JSON", id="invalid-utf8"),
        pytest.param(b'"hello"', "expected a JSON object, got str", id="string"),
        pytest.param(b"42", "expected a JSON object, got int", id="number"),
        pytest.param(b"null", "expected a JSON object, got NoneType", id="null"),
        pytest.param(b"true", "expected a JSON object, got bool", id="bool"),
        pytest.param(b'[{"jsonrpc":"2.0","method":"x"}]', "batch", id="batch-not-allowed"),
        pytest.param(b"[]", "batch", id="empty-batch-not-allowed"),
        pytest.param(b'{"method":"x"}', "'jsonrpc' must be \"2.0\"", id="missing-jsonrpc"),
        pytest.param(
            b'{"jsonrpc":"1.0","method":"x"}', "'jsonrpc' must be \"2.0\", got '1.0'", id="jsonrpc-1.0"
        ),
        pytest.param(
            b'{"jsonrpc":2.0,"method":"x"}', "'jsonrpc' must be \"2.0\", got 2.0", id="jsonrpc-number"
        ),
        pytest.param(b'{"jsonrpc":"2.0","method":42}', "'method' must be a string", id="method-int"),
        pytest.param(
            b'{"jsonrpc":"2.0","method":null,"id":1}', "'method' must be a string", id="method-null"
        ),
        pytest.param(b'{"jsonrpc":"2.0","method":"m","params":[1,2]}', "'params' of 'm'", id="params-array"),
        pytest.param(b'{"jsonrpc":"2.0","method":"m","params":"x"}', "must be an object", id="params-string"),
        pytest.param(
            b'{"jsonrpc":"2.0","method":"ping","id":null}', "request 'ping' has a null id", id="null-id"
        ),
        pytest.param(
            b'{"jsonrpc":"2.0","method":"m","id":1.5}',
            "request id must be a string or an integer",
            id="float-id",
        ),
        pytest.param(
            b'{"jsonrpc":"2.0","method":"m","id":true}',
            "request id must be a string or an integer",
            id="bool-id",
        ),
        pytest.param(
            b'{"jsonrpc":"2.0","method":"m","id":{}}',
            "request id must be a string or an integer",
            id="object-id",
        ),
        pytest.param(b'{"jsonrpc":"2.0"}', "no 'method', no 'id'", id="neither-request-nor-response"),
        pytest.param(
            b'{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}',
            "has both 'result' and 'error'",
            id="result-and-error",
        ),
        pytest.param(
            b'{"jsonrpc":"2.0","id":1}', "has neither 'result' nor 'error'", id="neither-result-nor-error"
        ),
        pytest.param(
            b'{"jsonrpc":"2.0","id":1,"result":[]}',
            "'result' of response 1 must be an object",
            id="result-array",
        ),
        pytest.param(
            b'{"jsonrpc":"2.0","id":1,"result":"ok"}',
            "'result' of response 1 must be an object",
            id="result-str",
        ),
        pytest.param(
            b'{"jsonrpc":"2.0","id":1,"result":null}',
            "'result' of response 1 must be an object",
            id="result-null",
        ),
        pytest.param(
            b'{"jsonrpc":"2.0","id":true,"result":{}}',
            "response id must be a string or an integer",
            id="result-bool-id",
        ),
        pytest.param(
            b'{"jsonrpc":"2.0","id":null,"result":{}}',
            "response id must be a string or an integer",
            id="result-null-id",
        ),
        pytest.param(
            b'{"jsonrpc":"2.0","id":2.5,"error":{"code":1,"message":"m"}}',
            "response id must be a string or an integer",
            id="error-float-id",
        ),
        pytest.param(
            b'{"jsonrpc":"2.0","id":1,"error":"boom"}',
            "'error' of response 1 must be an object",
            id="error-str",
        ),
        pytest.param(b'{"jsonrpc":"2.0","id":1,"error":{"message":"m"}}', "error code", id="error-no-code"),
        pytest.param(
            b'{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"m"}}', "error code", id="error-str-code"
        ),
        pytest.param(
            b'{"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}}',
            "error code",
            id="error-float-code",
        ),
        pytest.param(
            b'{"jsonrpc":"2.0","id":1,"error":{"code":true,"message":"m"}}',
            "error code",
            id="error-bool-code",
        ),
        pytest.param(b'{"jsonrpc":"2.0","id":1,"error":{"code":1}}', "error message", id="error-no-message"),
        pytest.param(
            b'{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":7}}',
            "error message",
            id="error-int-message",
        ),
    ],
)
def test_decode_refuses_a_malformed_message_and_names_the_problem(data: bytes, problem: str) -> None:
    with pytest.raises(MalformedMessage) as caught:
        decode(data)

    assert problem in caught.value.reason
    assert caught.value.reason in str(caught.value)


def test_a_malformed_message_is_a_protocol_error() -> None:
    with pytest.raises(ProtocolError):
        decode(b"garbage")


def test_a_json_syntax_error_keeps_an_excerpt_of_the_bytes() -> None:
    with pytest.raises(MalformedMessage) as caught:
        decode(b"Traceback (most recent call last):" + b"x" * 1000)

    assert caught.value.excerpt.startswith("Traceback")
    assert len(caught.value.excerpt) <= 81


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(b"[" * 100_000, id="arrays"),
        pytest.param(b'{"a":' * 100_000, id="objects"),
        pytest.param(b'{"jsonrpc":"2.0","id":1,"result":' + b'{"a":[' * 50_000, id="inside-a-result"),
    ],
)
def test_decode_refuses_json_nested_100000_deep_without_a_recursion_error(data: bytes) -> None:
    with pytest.raises(MalformedMessage) as caught:
        decode(data)

    assert "nested too deeply" in caught.value.reason


def test_decode_batch_refuses_json_nested_100000_deep_without_a_recursion_error() -> None:
    with pytest.raises(MalformedMessage):
        decode_batch(b"[" * 100_000)


@pytest.mark.parametrize(
    "template",
    [
        b'{"jsonrpc":%s,"method":"m"}',
        b'{"jsonrpc":"2.0","id":%s,"method":"m"}',
        b'{"jsonrpc":"2.0","id":%s,"result":{}}',
        b'{"jsonrpc":"2.0","id":1,"error":%s}',
    ],
)
def test_decode_refuses_values_nested_just_under_the_parsers_limit(template: bytes) -> None:
    # Parsed but wrong values are quoted in the reason; quoting one nested as deep as the parser allows must
    # not hit the recursion limit the parser just stayed under.
    for depth in range(850, 1050, 3):
        with pytest.raises(MalformedMessage):
            decode(template % (b"[" * depth + b"]" * depth))


# --- valid messages -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        Request(1, "tools/list"),
        Request(0, "ping", {}),
        Request(
            "req-7", "tools/call", {"name": "echo", "arguments": {"text": "hi", "n": [1, 2.5, None, True]}}
        ),
        Notification("notifications/initialized"),
        Notification("notifications/progress", {"progressToken": "t", "progress": 0.5}),
        Response(1, {}),
        Response("abc", {"tools": [{"name": "x", "inputSchema": {"type": "object"}}], "nextCursor": "c2"}),
        ErrorResponse(5, ErrorObject(METHOD_NOT_FOUND, "Method not found")),
        ErrorResponse(
            "e", ErrorObject(-32602, "Unsupported protocol version", {"supported": ["2025-06-18"]})
        ),
        ErrorResponse(None, ErrorObject(PARSE_ERROR, "Parse error")),
    ],
    ids=repr,
)
def test_every_kind_of_message_round_trips_through_encode_and_decode(message: Message) -> None:
    data = encode(message)

    assert decode(data) == message
    assert decode(data.decode("utf-8")) == message


def test_decode_reads_an_error_response_with_data() -> None:
    message = decode(
        b'{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"boom","data":{"why":"disk"}}}'
    )

    assert message == ErrorResponse(3, ErrorObject(-32000, "boom", {"why": "disk"}))


def test_a_request_with_extra_members_still_decodes() -> None:
    message = decode(b'{"jsonrpc":"2.0","id":1,"method":"ping","extra":true}')

    assert message == Request(1, "ping")


def test_encode_request_writes_the_same_bytes_as_encoding_a_request() -> None:
    params = {"name": "echo", "arguments": {}}

    assert encode_request(9, "tools/call", params) == encode(Request(9, "tools/call", params))
    assert encode_request("x", "ping", None) == encode(Request("x", "ping"))


def test_encode_notification_writes_the_same_bytes_as_encoding_a_notification() -> None:
    assert encode_notification("notifications/initialized") == encode(
        Notification("notifications/initialized")
    )
    assert encode_notification("n", {"a": 1}) == encode(Notification("n", {"a": 1}))


def test_encode_writes_utf8_without_escaping_non_ascii_text() -> None:
    data = encode(Notification("m", {"text": "café 数据"}))

    assert "café 数据".encode() in data


def test_a_lone_surrogate_id_from_the_server_can_be_echoed_in_our_reply() -> None:
    # decode accepts "\ud800" (a legal JSON escape); our ping reply must be able to send it back.
    request = decode(b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}')
    assert isinstance(request, Request)

    reply = encode(Response(request.id, {}))

    reply.decode("utf-8")  # the frame is valid UTF-8
    assert decode(reply) == Response("\ud800", {})


# --- batches --------------------------------------------------------------------------------------------


def test_decode_batch_accepts_a_batch() -> None:
    data = b'[{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":1,"result":{}}]'

    assert decode_batch(data) == [Notification("notifications/initialized"), Response(1, {})]


def test_decode_batch_accepts_a_single_message() -> None:
    assert decode_batch(b'{"jsonrpc":"2.0","id":1,"method":"ping"}') == [Request(1, "ping")]


def test_decode_batch_refuses_an_empty_batch() -> None:
    with pytest.raises(MalformedMessage) as caught:
        decode_batch(b"[]")

    assert "empty" in caught.value.reason


def test_decode_batch_refuses_a_batch_with_one_bad_member() -> None:
    with pytest.raises(MalformedMessage) as caught:
        decode_batch(b'[{"jsonrpc":"2.0","id":1,"result":{}}, 42]')

    assert "expected a JSON object" in caught.value.reason


# --- properties of decode -------------------------------------------------------------------------------


@PROPERTY
@given(st.binary(max_size=200))
def test_decode_of_arbitrary_bytes_only_ever_raises_malformed_message(data: bytes) -> None:
    _decode_or_refuse(data)
    with contextlib.suppress(MalformedMessage):
        decode_batch(data)


@PROPERTY
@given(st.text(max_size=100))
def test_decode_of_arbitrary_text_only_ever_raises_malformed_message(text: str) -> None:
    _decode_or_refuse(text)


@PROPERTY
@given(json_values | message_like | st.lists(message_like, max_size=3))
def test_decode_of_arbitrary_json_only_ever_raises_malformed_message(value: Any) -> None:
    data = json.dumps(value).encode("utf-8", "surrogatepass")

    message = _decode_or_refuse(data)

    if message is not None:
        # Whatever decode accepts, encode can write back, and reading that gives the same message.
        assert decode(encode(message)) == message


def _as_json_loads_reads_it(data: bytes) -> tuple[str, Any]:
    try:
        return "value", json.loads(data.decode("utf-8", "surrogatepass"))
    except ValueError as exc:
        return "refused", f"not JSON ({exc})"


def _as_load_reads_it(data: bytes) -> tuple[str, Any]:
    try:
        return "value", jsonrpc._load(data)
    except MalformedMessage as exc:
        return "refused", exc.reason


# Frames that start with `{` take the decoder's scanner directly (jsonrpc._load): tails and bodies that are
# JSON, whitespace, garbage and cut-off objects, so every branch of the trailing-data check is met.
_object_frames = st.builds(
    lambda value, tail: (
        b"{" + json.dumps(value, ensure_ascii=False)[1:].encode("utf-8", "surrogatepass") + tail
    ),
    st.dictionaries(st.text(max_size=5), json_values, max_size=4),
    st.sampled_from([b"", b"\n", b" \r\n\t", b" x", b"}", b"{}", b",", b"\x00", b"\xff", b"  ]"]),
) | st.binary(max_size=60).map(lambda tail: b'{"a":' + tail)


@PROPERTY
@given(json_values | st.lists(st.floats(), max_size=3))
def test_a_frame_is_written_exactly_as_json_dumps_writes_it(value: Any) -> None:
    # jsonrpc._dumps calls the C encoder it made once (JSONEncoder.encode makes one per call): the same
    # bytes (ASCII escapes for a lone surrogate, which has no UTF-8), or the same refusal of NaN and infinity.
    try:
        text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except ValueError as exc:
        with pytest.raises(ValueError, match=str(exc)):
            jsonrpc._dumps(value)
        return
    try:
        expected = text.encode("utf-8")
    except UnicodeEncodeError:
        expected = json.dumps(value, separators=(",", ":"), allow_nan=False).encode("ascii")
    assert jsonrpc._dumps(value) == expected


@PROPERTY
@given(_object_frames)
def test_load_reads_an_object_frame_exactly_as_json_loads_does(data: bytes) -> None:
    # The same value, or a refusal with the same reason (message and position), as json.loads gives.
    assert _as_load_reads_it(data) == _as_json_loads_reads_it(data)


@PROPERTY
@given(st.lists(message_like, max_size=3))
def test_decode_batch_of_arbitrary_json_only_ever_raises_malformed_message(value: list[Any]) -> None:
    with contextlib.suppress(MalformedMessage):
        decode_batch(json.dumps(value))


@PROPERTY
@given(messages)
def test_decode_of_encode_is_the_identity(message: Message) -> None:
    assert decode(encode(message)) == message


@PROPERTY
@given(messages)
def test_an_encoded_frame_never_contains_a_line_break(message: Message) -> None:
    data = encode(message)

    assert b"\n" not in data
    assert b"\r" not in data
    data.decode("utf-8")  # always valid UTF-8, as the spec requires


@PROPERTY
@given(request_ids, methods, st.none() | json_objects)
def test_the_request_and_notification_shortcuts_never_contain_a_line_break(
    request_id: int | str, method: str, params: dict[str, Any] | None
) -> None:
    for data in (encode_request(request_id, method, params), encode_notification(method, params)):
        assert b"\n" not in data
        assert b"\r" not in data


# --- LineFramer -----------------------------------------------------------------------------------------


def _feed_all(framer: LineFramer, chunks: list[bytes]) -> list[bytes]:
    frames: list[bytes] = []
    for chunk in chunks:
        frames.extend(framer.feed(chunk))
    return frames


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    bounds = [0, *sorted(cuts), len(data)]
    return [data[start:end] for start, end in itertools.pairwise(bounds)]


# A frame: no newline, not blank, and no trailing \r (which the framer strips as part of a \r\n).
frames_strategy = (
    st.binary(min_size=1, max_size=40)
    .map(lambda frame: frame.replace(b"\n", b"."))
    .filter(lambda frame: not frame.isspace() and not frame.endswith(b"\r"))
)
terminators = st.sampled_from([b"\n", b"\r\n"])
blank_lines = st.sampled_from([b"", b"\n", b"\r\n", b"   \n", b"\t\r\n"])


@PROPERTY
@given(st.lists(st.tuples(frames_strategy, terminators, blank_lines), max_size=8), st.data())
def test_the_framer_yields_the_same_frames_however_the_stream_is_split(
    lines: list[tuple[bytes, bytes, bytes]], data: st.DataObject
) -> None:
    stream = b"".join(frame + terminator + blank for frame, terminator, blank in lines)
    expected = [frame for frame, _, _ in lines]
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=10))
    # The tightest bound that still admits every line, blank ones included (at most 3 bytes before \r\n).
    framer = LineFramer(max_frame=max([3, *(len(frame) for frame in expected)]))

    frames = _feed_all(framer, _split(stream, cuts))

    assert frames == expected
    assert framer.pending == 0


@PROPERTY
@given(
    st.integers(min_value=2, max_value=30),
    st.binary(max_size=80).map(lambda line: line.replace(b"\n", b".")),
    terminators,
    st.data(),
)
def test_the_framer_raises_frame_too_large_however_an_oversized_line_arrives(
    max_frame: int, tail: bytes, terminator: bytes, data: st.DataObject
) -> None:
    # Longer than max_frame even after a trailing \r is taken as part of the terminator.
    big_line = b"x" * (max_frame + 1) + tail.rstrip(b"\r")
    stream = b"ok\n" + big_line + terminator
    cuts = data.draw(st.lists(st.integers(0, len(stream)), max_size=10))
    framer = LineFramer(max_frame=max_frame)

    with pytest.raises(FrameTooLarge):
        _feed_all(framer, _split(stream, cuts))


def test_an_oversized_line_in_one_chunk_raises_frame_too_large() -> None:
    framer = LineFramer(max_frame=10)

    with pytest.raises(FrameTooLarge) as caught:
        framer.feed(b"x" * 11 + b"\n")

    assert caught.value.limit == 10


def test_an_oversized_line_that_trickles_in_raises_before_its_newline_arrives() -> None:
    framer = LineFramer(max_frame=10)

    with pytest.raises(FrameTooLarge):
        for _ in range(11):
            framer.feed(b"x")


def test_an_oversized_line_without_any_newline_raises_in_one_chunk() -> None:
    framer = LineFramer(max_frame=10)

    with pytest.raises(FrameTooLarge):
        framer.feed(b"x" * 11)


def test_an_oversized_blank_line_raises_whether_whole_or_trickled() -> None:
    whole = LineFramer(max_frame=4)
    trickled = LineFramer(max_frame=4)

    with pytest.raises(FrameTooLarge):
        whole.feed(b"      \n")
    with pytest.raises(FrameTooLarge):
        _feed_all(trickled, [b"   ", b"   ", b"\n"])


@pytest.mark.parametrize("chunks", [[b"abcd\r\n"], [b"abcd\r", b"\n"], [b"ab", b"cd\r", b"\n"]], ids=repr)
def test_a_frame_of_exactly_max_frame_bytes_is_accepted_with_a_crlf_terminator(chunks: list[bytes]) -> None:
    framer = LineFramer(max_frame=4)

    assert _feed_all(framer, chunks) == [b"abcd"]


def test_blank_lines_are_skipped() -> None:
    framer = LineFramer()

    assert framer.feed(b"\n\r\n   \n\t\r\n{}\n\n") == [b"{}"]


def test_a_trailing_carriage_return_is_stripped() -> None:
    framer = LineFramer()

    assert framer.feed(b"a\r\nb\n") == [b"a", b"b"]


def test_an_unfinished_frame_waits_in_the_buffer() -> None:
    framer = LineFramer()

    assert framer.feed(b'{"a":') == []
    assert framer.pending == 5
    assert framer.feed(b"1}\n") == [b'{"a":1}']
    assert framer.pending == 0


def test_encoded_frames_pass_through_the_framer_unchanged() -> None:
    sent = [
        Notification("m", {"text": "line one\nline two\r\n\u2028\u2029\x85"}),
        Request(1, "tools/call", {"name": "x", "arguments": {"s": "\n\n"}}),
    ]
    framer = LineFramer()

    frames = framer.feed(b"".join(encode(message) + b"\n" for message in sent))

    assert [decode(frame) for frame in frames] == sent


# --- split_result: reusing the decoding of a repeated answer ------------------------------------------------


def _ordered_frame(members: list[tuple[str, Any]], separators: tuple[str, str]) -> bytes:
    return (
        "{" + separators[0].join(json.dumps(k) + separators[1] + json.dumps(v) for k, v in members) + "}"
    ).encode()


@PROPERTY
@given(
    request_id=request_ids,
    result=json_objects,
    id_first=st.booleans(),
    separators=st.sampled_from([(",", ":"), (", ", ": "), (" ,", " : ")]),
)
def test_a_split_answer_means_what_the_whole_frame_means(
    request_id: Any, result: dict[str, Any], id_first: bool, separators: tuple[str, str]
) -> None:
    head = [("id", request_id), ("jsonrpc", "2.0")] if id_first else [("jsonrpc", "2.0"), ("id", request_id)]
    frame = _ordered_frame([*head, ("result", result)], separators)
    split = split_result(frame)
    assert split is not None
    split_id, tail = split
    assert split_id == request_id
    assert decode(frame) == Response(split_id, json.loads(b"{" + tail)["result"])
    # Another id with the same tail: the same result, as a full decoding says.
    other = _ordered_frame([("jsonrpc", "2.0"), ("id", 424242), ("result", result)], separators)
    assert split_result(other) == (424242, tail)
    assert decode(other) == Response(424242, json.loads(b"{" + tail)["result"])


@PROPERTY
@given(st.binary(max_size=200) | st.builds(lambda b: b'{"jsonrpc":"2.0","id":1,' + b, st.binary(max_size=60)))
def test_split_result_never_raises_on_arbitrary_bytes(data: bytes) -> None:
    split = split_result(data)
    if split is not None:
        assert data.endswith(split[1]) and split[1].startswith(b'"result"')


@pytest.mark.parametrize(
    "frame",
    [
        b'{"result":{},"jsonrpc":"2.0","id":1}',  # result first: the tail would carry the id
        b'{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"\\"result\\""}}',  # "result" inside a string
        b'{"jsonrpc":"1.0","id":1,"result":{}}',
        b'{"jsonrpc":"2.0","id":true,"result":{}}',
        b'{"jsonrpc":"2.0","id":1,"extra":0,"result":{}}',
        b'{"jsonrpc":"2.0","method":"x","result":{}}',
        b'[{"jsonrpc":"2.0","id":1,"result":{}}]',
    ],
)
def test_frames_of_another_shape_are_not_split(frame: bytes) -> None:
    assert split_result(frame) is None


# ---- decode_answer (the call path's reading of an answer) and the shared decoder's fast path ----------


def _outcome(function: Any, data: bytes | str) -> tuple[str, Any]:
    try:
        return "ok", function(data)
    except MalformedMessage as exc:
        return "refused", str(exc)


@settings(max_examples=60, deadline=None)
@given(json_values | message_like | st.lists(message_like, max_size=3))
def test_decode_answer_reads_every_json_value_exactly_as_decode_does(value: Any) -> None:
    data = json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")
    expected, got = _outcome(decode, data), _outcome(decode_answer, data)
    if expected[0] == "ok" and type(expected[1]) is Response:
        # A successful response is handed back as (id, result), nothing else changed.
        assert got == ("ok", (expected[1].id, expected[1].result))
    else:
        assert got == expected


@PROPERTY
@given(
    st.binary(max_size=200)
    | st.builds(lambda tail: b"{" + tail, st.binary(max_size=200))
    | st.builds(lambda value: json.dumps(value).encode(), json_values)
)
def test_the_shared_decoder_reads_bytes_exactly_as_json_loads(data: bytes) -> None:
    # Bytes starting with `{` skip json.loads' encoding sniffing: the same values, the same refusals
    # (invalid UTF-8, UTF-16 text, syntax errors), and decode_answer agrees with decode on top of it.
    try:
        expected: tuple[str, Any] = ("ok", json.loads(data))
    except (ValueError, RecursionError):
        expected = ("refused", None)
    try:
        got: tuple[str, Any] = ("ok", jsonrpc._load(data))
    except MalformedMessage:
        got = ("refused", None)
    assert got == expected
    decoded, answered = _outcome(decode, data), _outcome(decode_answer, data)
    if decoded[0] == "ok" and type(decoded[1]) is Response:
        assert answered == ("ok", (decoded[1].id, decoded[1].result))
    else:
        assert answered == decoded


def test_decode_answer_refuses_what_is_not_a_usable_response_and_says_why() -> None:
    assert decode_answer(b'{"jsonrpc":"2.0","id":7,"result":{"a":1}}') == (7, {"a": 1})
    assert decode_answer(b'{"jsonrpc":"2.0","id":"x","result":{}}') == ("x", {})
    for frame, problem in [
        (b'{"jsonrpc":"2.0","id":true,"result":{}}', "id must be a string or an integer"),
        (b'{"jsonrpc":"2.0","id":1,"result":[]}', "must be an object"),
        (b'{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}', "both"),
        (b'{"jsonrpc":"1.0","id":1,"result":{}}', "'jsonrpc' must be"),
        (b'[{"jsonrpc":"2.0","id":1,"result":{}}]', "batch"),
        (b'{"jsonrpc":"2.0","id":1,"result":{}', "not JSON"),
        (b'{"jsonrpc":"2.0","id":1,"result":{"t":"\xff"}}', "not JSON"),
    ]:
        with pytest.raises(MalformedMessage, match=problem):
            decode_answer(frame)
    # Not a response: the message itself, as decode reads it.
    assert decode_answer(b'{"jsonrpc":"2.0","method":"m","id":1,"result":{}}') == Request(1, "m", None)
    error = decode_answer(b'{"jsonrpc":"2.0","id":1,"error":{"code":-1,"message":"no"}}')
    assert isinstance(error, ErrorResponse) and error.error.message == "no"
