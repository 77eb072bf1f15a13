"""Arguments JSON cannot write (an object of another type, NaN, a cycle) fail their call alone, at once, with
the reason; the session does not crash and the server is not reconnected. A host handler's answer that JSON
cannot write is refused to the server as an internal error, and the session goes on.

Before this, a ``TypeError`` from encoding a call's arguments escaped the session actor: it crashed, every
pending call of the server was lost and the server went into backoff.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

import pytest

from mcp_troupe.actors import session_serving
from mcp_troupe.actors.loop import Runtime
from mcp_troupe.actors.session import CallRequest
from mcp_troupe.config import ServerConfig, TroupeConfig
from mcp_troupe.errors import InvalidArguments
from mcp_troupe.host import ElicitationRequest, Host
from mcp_troupe.protocol.jsonrpc import Request

from .fakes import ScriptedSession, request_frame

pytestmark = pytest.mark.timeout(20)

NUMBER_FORM = {"type": "object", "properties": {"age": {"type": "number"}}}


def _cycle() -> dict[str, Any]:
    loop: dict[str, Any] = {}
    loop["again"] = loop
    return loop


UNSENDABLE = [
    pytest.param({"text": object()}, "Object of type object is not JSON serializable", id="object"),
    pytest.param({"limit": math.nan}, "Out of range float values", id="nan"),
    pytest.param({"limit": -math.inf}, "Out of range float values", id="infinity"),
    pytest.param({"text": "x", "nested": _cycle()}, "holding a reference to itself", id="cycle"),
]


@pytest.fixture
def session(runtime: Runtime) -> Iterator[ScriptedSession]:
    config = TroupeConfig(servers={"scripted": ServerConfig(name="scripted", command="x", timeout=5.0)})

    def elicit(request: ElicitationRequest) -> dict[str, Any]:
        return {"action": "accept", "content": {"age": math.nan}}

    host = Host(config, elicitation_handler=elicit)
    host.bind(runtime.loop, runtime.emit)
    runtime.host = host
    yield ScriptedSession(runtime, call_timeout=5.0, handshake_timeout=5.0)


def _call(session: ScriptedSession, arguments: dict[str, Any]) -> Future[Any]:
    future: Future[Any] = Future()
    session.ref.tell(CallRequest("tools/call", {"name": "echo", "arguments": arguments}, future, 5.0))
    return future


@pytest.mark.parametrize(("arguments", "reason"), UNSENDABLE)
def test_unsendable_arguments_fail_their_call_alone_and_the_session_serves_on(
    session: ScriptedSession, arguments: dict[str, Any], reason: str
) -> None:
    session.handshake()
    # A good call in flight before the bad one, answered after it: nothing of it may be lost.
    before = _call(session, {"text": "first"})
    sent = session.wire.expect_request("tools/call")
    bad = _call(session, arguments)
    with pytest.raises(InvalidArguments) as refused:
        bad.result(timeout=5)
    error = refused.value
    assert error.server == "scripted" and error.method == "tools/call" and error.tool == "echo"
    assert (
        reason in str(error) and "'echo'" in str(error) and f"JSON-RPC id {error.request_id!r}" in str(error)
    )
    session.reply(sent, {"content": [{"type": "text", "text": "first"}]})
    assert before.result(timeout=5)["content"][0]["text"] == "first"
    # The session is alive, on the same connection: the next call goes out and is answered.
    after = _call(session, {"text": "again"})
    request = session.wire.expect_request(
        "tools/call", where=lambda m: m["params"]["arguments"] == {"text": "again"}
    )
    session.reply(request, {"content": []})
    assert after.result(timeout=5) == {"content": []}
    assert session.ref.is_alive()
    assert not [frame for frame in session.wire.sent if frame.get("id") == error.request_id]


def test_a_host_answer_json_cannot_write_is_refused_to_the_server_as_an_internal_error() -> None:
    # The host validates what its handlers return (a NaN for a number field is refused there, with the
    # form's reason); what still cannot be written as JSON is refused here, instead of crashing the session.
    sent: list[bytes] = []

    class Lane:
        server = "scripted"

        def respond(self, frame: bytes) -> None:
            sent.append(frame)

    request = Request(51, "sampling/createMessage", {})
    session_serving._answer(Lane(), request, {"content": {"type": "text", "text": object()}}, None)  # type: ignore[arg-type]
    (frame,) = sent
    answer = json.loads(frame)
    assert answer["id"] == 51 and "result" not in answer
    assert answer["error"]["code"] == -32603 and "sampling/createMessage" in answer["error"]["message"]


def test_a_host_answer_the_form_refuses_leaves_the_session_serving(session: ScriptedSession) -> None:
    session.handshake()
    session.feed(request_frame(51, "elicitation/create", {"message": "age?", "requestedSchema": NUMBER_FORM}))
    error = session.wire.expect_response(51)["error"]
    assert error["code"] == -32603 and "must be a number, got nan" in error["message"]
    assert session.ref.is_alive()
    session.feed(request_frame(52, "ping"))
    assert session.wire.expect_response(52)["result"] == {}
