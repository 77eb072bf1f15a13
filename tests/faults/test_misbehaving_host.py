"""Host callbacks that misbehave, driven by a real server that asks for them (the official SDK's
``tests/interop/servers/sdk_host.py`` over stdio, in the legacy era where it sends requests to the client).

Every handler that raises (anything, SystemExit and KeyboardInterrupt included), answers the wrong type or
shape, answers what JSON cannot write, blocks past the server's timeout, raises a CancelledError of its own or
calls the troupe again must fail only the request that needed it: the tool call gets a clear error naming
the handler, the host logs it once, and the troupe and the server go on serving at the same incarnation.
Before: a handler raising SystemExit or KeyboardInterrupt ended the I/O loop (every server dead, every later
call waiting out its timeout); an async handler raising its own CancelledError left the server's request
unanswered (the call waited out its whole timeout); a callable ``roots`` answering one path made a root of
each of its characters.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.processes import ChildWatch, descendants

from mcp_troupe import RemoteError, Troupe
from mcp_troupe.approval import ApprovalRequest
from mcp_troupe.config import ReconnectPolicy, ServerConfig, TroupeConfig, stdio_server
from mcp_troupe.types import ServerState

pytest.importorskip("mcp.server.mcpserver", reason="the official SDK's server is needed")

pytestmark = [pytest.mark.faults, pytest.mark.timeout(120)]

SERVER = Path(__file__).resolve().parents[1] / "interop" / "servers" / "sdk_host.py"
# The server's timeout bounds every handler: short, so that a handler that blocks fails its request soon.
HANDLER_TIMEOUT = 1.5
# The calls themselves may take longer than a handler's bound (the tool answers after the handler failed).
CALL_TIMEOUT = 15.0
COUNT = ("mcp__host__count", {"steps": 1, "delay": 0})


class Dispatch:
    """The troupe's handlers, each test's own installed in turn (a server start per case would cost ~2 s)."""

    def __init__(self) -> None:
        self.current: dict[str, Callable[[Any], Any]] = {}
        self.release = threading.Event()  # lets a blocked sync handler go at the end of its case

    def handler(self, kind: str, default: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def sync(request: Any) -> Any:
            return self.current.get(kind, default)(request)

        return sync


def server_config(**changes: Any) -> ServerConfig:
    server = stdio_server("host", sys.executable, str(SERVER))
    return dataclasses.replace(server, protocol="legacy", timeout=HANDLER_TIMEOUT, **changes)


def troupe_config(server: ServerConfig, approval_mode: str = "auto") -> TroupeConfig:
    return TroupeConfig(
        approval_mode=approval_mode,  # type: ignore[arg-type]
        network_policy="allow",
        servers={"host": server},
        reconnect=ReconnectPolicy(initial_delay=0.1, max_delay=0.5, max_attempts=0),
    )


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[Troupe, Dispatch]]:
    dispatch = Dispatch()
    watch = ChildWatch(frozenset(descendants(__import__("os").getpid())))
    config = troupe_config(server_config(trust_level="trusted"))
    # The dispatchers are sync (run in a worker thread); one that returns a coroutine (an async case's
    # handler) has it awaited on the loop, as an async handler is.
    troupe = Troupe(
        config,
        elicitation_handler=dispatch.handler("elicit", lambda request: {"action": "cancel"}),
        sampling_handler=dispatch.handler("sample", lambda request: {"never": "called"}),
        roots=dispatch.handler("roots", lambda server: ["/srv"]),
        log_handler=dispatch.handler("log", lambda entry: None),
        progress_handler=dispatch.handler("progress", lambda event: None),
    )
    try:
        troupe.start()
        assert troupe.wait_ready(timeout=30)
        (status,) = troupe.status()
        assert status.state is ServerState.READY, status.last_error
        yield troupe, dispatch
    finally:
        dispatch.release.set()
        troupe.stop()
    assert not watch.wait_until_gone(timeout=10), "the server outlived its troupe"


@pytest.fixture
def troupe(
    served: tuple[Troupe, Dispatch], caplog: pytest.LogCaptureFixture
) -> Iterator[tuple[Troupe, Dispatch]]:
    troupe, dispatch = served
    dispatch.current.clear()
    dispatch.release.clear()
    caplog.set_level(logging.WARNING)
    assert troupe._runtime is not None
    tasks = len(troupe._runtime.loop._tasks)
    yield served
    dispatch.release.set()
    dispatch.current.clear()
    # Still serving, at the same incarnation, and nothing left behind by the case: no task on the loop, no
    # handler thread still taken from the host's pool.
    assert troupe.call(*COUNT, timeout=CALL_TIMEOUT).text == "counted 1"
    (status,) = troupe.status()
    assert status.state is ServerState.READY and status.incarnation == 1, status
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and (busy_threads(troupe) or len(troupe._runtime.loop._tasks) > tasks):
        time.sleep(0.05)
    assert busy_threads(troupe) == 0
    assert len(troupe._runtime.loop._tasks) <= tasks


def busy_threads(troupe: Troupe) -> int:
    """The host's worker threads still running a sync handler."""
    limiter = troupe.host._limiter
    return 0 if limiter is None else int(limiter.borrowed_tokens)


def failure_of(troupe: Troupe, name: str, arguments: dict[str, Any]) -> str:
    """The reason a tool failed: the SDK reports our JSON-RPC error as a failed result or as an error of the
    tools/call itself."""
    try:
        result = troupe.call(name, arguments, timeout=CALL_TIMEOUT)
    except RemoteError as exc:
        return str(exc)
    assert result.is_error, f"{name} succeeded: {result.text}"
    return result.text


def raising(error: BaseException) -> Callable[[Any], Any]:
    def handler(request: Any) -> Any:
        raise error

    return handler


def async_raising(error: BaseException) -> Callable[[Any], Any]:
    async def handler(request: Any) -> Any:
        raise error

    return handler


class Unwritable:
    """An object JSON has no form for."""


def blocking(dispatch: Dispatch) -> Callable[[Any], Any]:
    def handler(request: Any) -> Any:
        dispatch.release.wait(60)
        return {"action": "cancel"}

    return handler


async def blocking_async(request: Any) -> Any:
    await asyncio.sleep(60)


def host_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name in ("mcp_troupe.host", "mcp_troupe.session")]


ELICITATION = [
    ("elicit", raising(RuntimeError("secret-123")), "elicitation handler failed (RuntimeError)"),
    ("elicit", raising(SystemExit(3)), "elicitation handler failed (SystemExit)"),
    ("elicit", raising(KeyboardInterrupt()), "elicitation handler failed (KeyboardInterrupt)"),
    ("elicit", async_raising(RuntimeError("x")), "elicitation handler failed (RuntimeError)"),
    ("elicit", async_raising(SystemExit(4)), "elicitation handler failed (SystemExit)"),
    ("elicit", async_raising(asyncio.CancelledError()), "elicitation handler failed (CancelledError)"),
    ("elicit", lambda request: None, "an elicitation answer must be a mapping, got NoneType"),
    ("elicit", lambda request: "accept", "an elicitation answer must be a mapping, got str"),
    ("elicit", lambda request: Unwritable(), "an elicitation answer must be a mapping, got Unwritable"),
    ("elicit", lambda request: {"action": "yes"}, "'action' must be accept, decline or cancel, got 'yes'"),
    (
        "elicit",
        lambda request: {"action": "accept", "content": {"name": float("nan")}},
        "field 'name' must be a string, got float",
    ),
]


@pytest.mark.parametrize(
    ("kind", "handler", "message"),
    ELICITATION,
    ids=[
        "raises",
        "system-exit",
        "keyboard-interrupt",
        "async-raises",
        "async-system-exit",
        "async-own-cancelled-error",
        "none",
        "str",
        "object",
        "bad-action",
        "nan-content",
    ],
)
def test_a_failing_elicitation_handler_fails_that_request_alone(
    troupe: tuple[Troupe, Dispatch],
    caplog: pytest.LogCaptureFixture,
    kind: str,
    handler: Callable[[Any], Any],
    message: str,
) -> None:
    served, dispatch = troupe
    dispatch.current[kind] = handler
    started = time.monotonic()
    failed = failure_of(served, "mcp__host__ask_profile", {})
    assert message in failed and "-32603" in failed, failed
    assert "secret-123" not in failed  # the handler's own message stays in the host's log
    assert time.monotonic() - started < HANDLER_TIMEOUT  # answered at once, not at a timeout
    logged = host_warnings(caplog)
    # Once, naming the server and its request.
    assert len(logged) == 1 and "server host (elicitation/create, JSON-RPC id " in logged[0], logged


SAMPLING = [
    (raising(RuntimeError("x")), "sampling handler failed (RuntimeError)"),
    (raising(SystemExit(1)), "sampling handler failed (SystemExit)"),
    (lambda request: None, "a sampling answer must be a mapping, got NoneType"),
    (lambda request: "hi", "a sampling answer must be a mapping, got str"),
    (
        lambda request: {
            "role": "assistant",
            "content": {"type": "text", "text": "x"},
            "model": "m",
            "extra": float("nan"),
        },
        "the client's answer to sampling/createMessage could not be written as JSON",
    ),
    (
        lambda request: {
            "role": "assistant",
            "content": {"type": "text", "text": Unwritable()},
            "model": "m",
        },
        "could not be written as JSON",
    ),
]


@pytest.mark.parametrize(
    ("handler", "message"), SAMPLING, ids=["raises", "system-exit", "none", "str", "nan", "object"]
)
def test_a_failing_sampling_handler_fails_that_request_alone(
    troupe: tuple[Troupe, Dispatch],
    caplog: pytest.LogCaptureFixture,
    handler: Callable[[Any], Any],
    message: str,
) -> None:
    served, dispatch = troupe
    dispatch.current["sample"] = handler
    failed = failure_of(served, "mcp__host__summarise", {"text": "hello"})
    assert message in failed and "-32603" in failed, failed
    logged = host_warnings(caplog)
    assert len(logged) == 1 and "server host" in logged[0], logged


ROOTS = [
    (raising(RuntimeError("x")), "roots handler failed (RuntimeError)"),
    (async_raising(RuntimeError("x")), "roots handler failed (RuntimeError)"),
    (lambda server: None, "the client's roots are malformed"),
    # Before: a single path was taken as a list of its characters, each a root ("file:///", ".../t", ...).
    (lambda server: "/tmp", "roots must be a list of paths"),
    (lambda server: [1, 2], "roots[0]: expected a path, a file:// URI or a mapping, got int"),
    (lambda server: [Unwritable()], "roots[0]: expected a path"),
]


@pytest.mark.parametrize(
    ("handler", "message"), ROOTS, ids=["raises", "async-raises", "none", "one-path", "ints", "object"]
)
def test_a_failing_roots_callable_fails_that_request_alone(
    troupe: tuple[Troupe, Dispatch],
    caplog: pytest.LogCaptureFixture,
    handler: Callable[[Any], Any],
    message: str,
) -> None:
    served, dispatch = troupe
    dispatch.current["roots"] = handler
    failed = failure_of(served, "mcp__host__where", {})
    assert message in failed and "-32603" in failed, failed
    assert len(host_warnings(caplog)) == 1, host_warnings(caplog)


def test_a_handler_that_blocks_fails_its_request_at_the_servers_timeout_and_holds_nothing(
    troupe: tuple[Troupe, Dispatch],
) -> None:
    served, dispatch = troupe
    for kind, handler, tool, arguments in [
        ("elicit", blocking(dispatch), "mcp__host__ask_profile", {}),
        ("elicit", blocking_async, "mcp__host__ask_profile", {}),
        ("sample", blocking(dispatch), "mcp__host__summarise", {"text": "x"}),
        ("roots", blocking(dispatch), "mcp__host__where", {}),
    ]:
        dispatch.current.clear()
        dispatch.current[kind] = handler
        started = time.monotonic()
        failed = failure_of(served, tool, arguments)
        assert f"did not answer within {HANDLER_TIMEOUT:g} s" in failed, failed
        assert HANDLER_TIMEOUT - 0.2 < time.monotonic() - started < HANDLER_TIMEOUT + 5
        # The loop was never held: another call is answered at once while the handler thread still waits.
        assert served.call(*COUNT, timeout=CALL_TIMEOUT).text == "counted 1"


def test_an_async_handler_that_blocks_the_loop_is_named_in_one_warning(
    troupe: tuple[Troupe, Dispatch], caplog: pytest.LogCaptureFixture
) -> None:
    """An async handler that blocks holds every server's traffic and nothing can preempt it; the operator is
    told which handler did it, and for how long (before: nothing said why every server stalled)."""
    served, dispatch = troupe

    async def sleeps_on_the_loop(request: Any) -> Any:
        time.sleep(1.2)  # the misbehaviour under test (under HANDLER_TIMEOUT)
        return {"action": "decline"}

    dispatch.current["elicit"] = sleeps_on_the_loop
    result = served.call("mcp__host__ask_profile", {}, timeout=CALL_TIMEOUT)
    assert not result.is_error, result.text
    held = [message for message in host_warnings(caplog) if "held the troupe's I/O loop" in message]
    assert len(held) == 1, host_warnings(caplog)
    assert held[0].startswith("server host (elicitation/create, JSON-RPC id "), held[0]
    assert "the elicitation handler held the troupe's I/O loop for 1." in held[0], held[0]
    # One that awaits as long is not named.
    caplog.clear()

    async def awaits(request: Any) -> Any:
        await asyncio.sleep(1.2)
        return {"action": "decline"}

    dispatch.current["elicit"] = awaits
    assert not served.call("mcp__host__ask_profile", {}, timeout=CALL_TIMEOUT).is_error
    assert not [message for message in host_warnings(caplog) if "held the troupe" in message]


def test_handlers_that_call_the_troupe_again(troupe: tuple[Troupe, Dispatch]) -> None:
    served, dispatch = troupe

    def sync_again(request: Any) -> Any:  # in a worker thread: a call of its own is fine
        return {"action": "accept", "content": {"name": served.call(*COUNT, timeout=CALL_TIMEOUT).text}}

    async def acall_again(request: Any) -> Any:  # on the loop: acall is fine
        answer = await served.acall(*COUNT, timeout=CALL_TIMEOUT)
        return {"action": "accept", "content": {"name": answer.text}}

    async def blocking_call_on_the_loop(request: Any) -> Any:  # on the loop: call() refuses, not deadlocks
        return {"action": "accept", "content": {"name": served.call(*COUNT, timeout=CALL_TIMEOUT).text}}

    dispatch.current["elicit"] = sync_again
    assert served.call("mcp__host__ask_profile", {}, timeout=CALL_TIMEOUT).text.startswith(
        "accept name=counted 1"
    )
    dispatch.current.clear()
    dispatch.current["elicit"] = acall_again
    assert served.call("mcp__host__ask_profile", {}, timeout=CALL_TIMEOUT).text.startswith(
        "accept name=counted 1"
    )
    dispatch.current["elicit"] = blocking_call_on_the_loop
    failed = failure_of(served, "mcp__host__ask_profile", {})
    assert "elicitation handler failed (RuntimeError)" in failed, failed


@pytest.mark.parametrize(
    "handler",
    [raising(RuntimeError("x")), raising(SystemExit(1)), async_raising(asyncio.CancelledError())],
    ids=["raises", "system-exit", "async-own-cancelled-error"],
)
def test_failing_log_and_progress_handlers_cost_the_call_nothing(
    troupe: tuple[Troupe, Dispatch], caplog: pytest.LogCaptureFixture, handler: Callable[[Any], Any]
) -> None:
    served, dispatch = troupe
    dispatch.current["log"] = handler
    dispatch.current["progress"] = handler
    assert served.call("mcp__host__chatty", {}, timeout=CALL_TIMEOUT).text == "done"
    assert served.call("mcp__host__count", {"steps": 2, "delay": 0}, timeout=CALL_TIMEOUT).text == "counted 2"
    deadline = time.monotonic() + 5
    while len(host_warnings(caplog)) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)  # notifications are delivered after the call's answer, by the server's drain task
    failures = [line for line in host_warnings(caplog) if "handler" in line]
    assert any("log handler" in line for line in failures) and any(
        "progress handler" in line for line in failures
    )


def test_stop_from_inside_a_handler_stops_the_troupe_and_ends_the_waiting_call() -> None:
    watch = ChildWatch(frozenset(descendants(__import__("os").getpid())))
    stopped: list[BaseException | None] = []
    troupe: Troupe | None = None

    def stop_then_cancel(request: Any) -> Any:
        assert troupe is not None
        try:
            troupe.stop()
            stopped.append(None)
        except BaseException as exc:
            stopped.append(exc)
        return {"action": "cancel"}

    troupe = Troupe(troupe_config(server_config()), elicitation_handler=stop_then_cancel)
    try:
        troupe.start()
        assert troupe.wait_ready(timeout=30)
        started = time.monotonic()
        with pytest.raises(Exception) as failed:
            troupe.call("mcp__host__ask_profile", {}, timeout=CALL_TIMEOUT)
        assert time.monotonic() - started < 12, "the call waited out the stop"
        assert type(failed.value).__name__ in ("ConnectionLost", "TroupeClosed"), failed.value
        deadline = time.monotonic() + 10
        while not stopped and time.monotonic() < deadline:
            time.sleep(0.05)  # the handler's stop() returns once every actor and the loop have stopped
        assert stopped == [None]
    finally:
        troupe.stop()
    assert not watch.wait_until_gone(timeout=10)


@pytest.mark.parametrize(
    ("approver", "why"),
    [
        (raising(RuntimeError("x")), "the approver failed: RuntimeError('x')"),
        (raising(SystemExit(1)), "the approver failed: SystemExit(1)"),
        (async_raising(asyncio.CancelledError()), "the approver failed: CancelledError()"),
        (lambda request: "yes", "the approver answered str, not True or False"),
        (lambda request: None, "the approver answered NoneType, not True or False"),
    ],
    ids=["raises", "system-exit", "async-own-cancelled-error", "str", "none"],
)
@pytest.mark.slow
def test_a_failing_approver_refuses_that_sampling_request_alone(approver: Any, why: str) -> None:
    asked: list[ApprovalRequest] = []

    def approve(request: ApprovalRequest) -> Any:
        if request.tool != "sampling/createMessage":
            return True  # the tool call itself (the server is untrusted): only the sampling misbehaves
        asked.append(request)
        return approver(request)

    sampling = {"role": "assistant", "content": {"type": "text", "text": "s"}, "model": "m"}
    config = troupe_config(server_config(trust_level="untrusted"), approval_mode="ask")
    with Troupe(config, approver=approve, sampling_handler=lambda request: sampling) as troupe:
        assert troupe.wait_ready(timeout=30)
        failed = failure_of(troupe, "mcp__host__summarise", {"text": "x"})
        assert "User rejected sampling request" in failed and why in failed, failed
        assert len(asked) == 1
        assert troupe.call(*COUNT, timeout=CALL_TIMEOUT).text == "counted 1"
        (status,) = troupe.status()
        assert status.state is ServerState.READY and status.incarnation == 1
