"""Host callbacks end to end: the official SDK's tools elicit, sample, list roots, report progress and log.

The server is ``servers/sdk_host.py`` (the SDK's ``MCPServer``), over stdio and over Streamable HTTP (SSE
answers; the SDK's JSON-answer mode has no stream to send server requests on), in the legacy era (the
revision mcp-troupe offers today). Each test installs handlers on the public ``Troupe`` and checks what the
server's tool saw in return.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import runpy
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest

from mcp_troupe import CallTimedOut, RemoteError, Troupe
from mcp_troupe.approval import ApprovalRequest
from mcp_troupe.config import ReconnectPolicy, ServerConfig, TroupeConfig, stdio_server
from mcp_troupe.host import (
    Completion,
    ElicitationRequest,
    ElicitationResult,
    LogEntry,
    ProgressEvent,
    SamplingRequest,
)
from mcp_troupe.types import ServerState

pytestmark = [pytest.mark.interop, pytest.mark.timeout(90)]

SERVER = Path(__file__).resolve().parent / "servers" / "sdk_host.py"
READY_TIMEOUT = 30.0


@contextmanager
def http_server(*flags: str) -> Iterator[str]:
    process = subprocess.Popen(
        [sys.executable, str(SERVER), "--http", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.strip().isdigit(), f"the SDK server did not start (printed {line!r})"
        yield f"http://127.0.0.1:{int(line)}/mcp"
    finally:
        process.kill()
        process.wait(10)


def failure_of(troupe: Troupe, name: str, arguments: dict[str, Any]) -> str:
    """The reason a call failed: the SDK reports an error we answered either as a failed tool result or
    as the JSON-RPC error of the tools/call itself (when the tool does not catch it)."""
    try:
        result = troupe.call(name, arguments)
    except RemoteError as exc:
        return str(exc)
    assert result.is_error, f"{name} succeeded: {result.text}"
    return result.text


@contextmanager
def troupe_of(server: ServerConfig, *, approval_mode: str = "auto", **handlers: Any) -> Iterator[Troupe]:
    config = TroupeConfig(
        approval_mode=approval_mode,  # type: ignore[arg-type]
        network_policy="allow",
        servers={"host": server},
        reconnect=ReconnectPolicy(initial_delay=0.1, max_delay=0.5, max_attempts=0),
    )
    with Troupe(config, **handlers) as troupe:
        troupe.wait_ready(timeout=READY_TIMEOUT)
        (status,) = troupe.status()
        assert status.state is ServerState.READY, status.last_error
        yield troupe


class Handlers:
    """The handlers of the shared troupe; each test installs its own (a troupe per test would cost a server
    start each, ~2 s on a busy machine)."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.elicit: Callable[[ElicitationRequest], Any] = lambda request: {"action": "cancel"}
        self.sample: Callable[[SamplingRequest], Any] = lambda request: {"never": "called"}
        # Cleared in place: the troupe holds the bound append methods.
        self.progress: list[ProgressEvent] = getattr(self, "progress", [])
        self.logs: list[LogEntry] = getattr(self, "logs", [])
        self.progress.clear()
        self.logs.clear()

    def on_elicit(self, request: ElicitationRequest) -> Any:
        return self.elicit(request)

    async def on_elicit_async(self, request: ElicitationRequest) -> Any:
        answer = self.elicit(request)
        return await answer if asyncio.iscoroutine(answer) else answer

    def on_sample(self, request: SamplingRequest) -> Any:
        return self.sample(request)


def legacy(config: ServerConfig) -> ServerConfig:
    """These tests drive the legacy era's server-to-client requests (the SDK tools call ctx.elicit and
    friends, which a 2026-07-28 connection cannot carry: there the same handlers answer input_required
    rounds, which tests/interop/test_eras.py covers)."""
    return dataclasses.replace(config, protocol="legacy")


def server_config(kind: str, stack: ExitStack) -> ServerConfig:
    if kind == "stdio":
        return legacy(stdio_server("host", sys.executable, str(SERVER)))
    url = stack.enter_context(http_server())
    return legacy(ServerConfig(name="host", url=url))


# Not the SDK's JSON-response mode: it has no back-channel (no stream) for server requests or notifications.
@pytest.fixture(scope="module", params=["stdio", "http-sse"])
def shared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Troupe, Handlers, Path]]:
    """One troupe per transport, with every handler installed (trusted: sampling is not put to approval)."""
    handlers = Handlers()
    root = tmp_path_factory.mktemp("root")
    with ExitStack() as stack:
        server = dataclasses.replace(server_config(request.param, stack), trust_level="trusted")
        troupe = stack.enter_context(
            troupe_of(
                server,
                elicitation_handler=handlers.on_elicit_async
                if request.param == "http-sse"
                else handlers.on_elicit,
                sampling_handler=handlers.on_sample,
                roots=[root, "file:///srv/data"],
                progress_handler=handlers.progress.append,
                log_handler=handlers.logs.append,
            )
        )
        yield troupe, handlers, root


@pytest.fixture
def host(shared: tuple[Troupe, Handlers, Path]) -> Iterator[tuple[Troupe, Handlers, Path]]:
    shared[1].reset()
    yield shared
    shared[1].reset()


Host = tuple[Troupe, Handlers, Path]


def test_a_form_elicitation_gets_the_answer_with_the_schema_defaults_applied(host: Host) -> None:
    troupe, handlers, _root = host
    seen: list[ElicitationRequest] = []

    def answer(request: ElicitationRequest) -> dict[str, Any]:
        seen.append(request)
        return {"action": "accept", "content": {"name": "Ada"}}  # age and colour left to their defaults

    handlers.elicit = answer
    assert troupe.call("mcp__host__ask_profile", {}).text == "accept name=Ada age=30 colour=blue"
    (request,) = seen
    assert (request.server, request.mode, request.message) == ("host", "form", "Who are you?")
    assert request.defaults == {"age": 30, "colour": "blue"}
    assert request.requested_schema is not None and "name" in request.requested_schema["properties"]


def test_a_form_answer_that_breaks_the_schema_never_reaches_the_server(host: Host) -> None:
    troupe, handlers, _root = host
    handlers.elicit = lambda request: {"action": "accept", "content": {"count": 9, "when": "2026-12-01"}}
    assert "field 'count' must be at most 5" in failure_of(troupe, "mcp__host__raw_form", {})


def test_a_declined_form_carries_no_content(host: Host) -> None:
    troupe, handlers, _root = host
    handlers.elicit = lambda request: ElicitationResult("decline")
    assert json.loads(troupe.call("mcp__host__raw_form", {}).text) == {"action": "decline"}


def test_an_accepted_raw_form_gets_its_defaults(host: Host) -> None:
    troupe, handlers, _root = host
    handlers.elicit = lambda request: {"action": "accept", "content": {"when": "2026-12-01"}}
    result = json.loads(troupe.call("mcp__host__raw_form", {}).text)
    assert result == {"action": "accept", "content": {"count": 2, "when": "2026-12-01"}}


def test_url_mode_reaches_the_handler_with_the_url_and_its_origin_on_2025_11_25(host: Host) -> None:
    # initialize requests 2025-11-25, whose elicitation has a url mode: declared when a handler exists, and
    # the request reaches it (nothing is opened by us).
    troupe, handlers, _root = host
    seen: list[ElicitationRequest] = []
    handlers.elicit = lambda request: seen.append(request) or {"action": "accept"}
    assert troupe.call("mcp__host__visit", {}).text == "accept"
    assert [request.mode for request in seen] == ["url"]
    assert seen[0].url is not None and seen[0].origin is not None


def test_sampling_reaches_the_handler_and_its_answer_the_tool(host: Host) -> None:
    troupe, handlers, _root = host
    seen: list[SamplingRequest] = []

    def model(request: SamplingRequest) -> dict[str, Any]:
        seen.append(request)
        text = request.messages[0]["content"]["text"]
        return {"role": "assistant", "content": {"type": "text", "text": text.upper()}, "model": "shout-1"}

    handlers.sample = model
    assert troupe.call("mcp__host__summarise", {"text": "hello there"}).text == "shout-1: HELLO THERE"
    (request,) = seen
    assert (request.system_prompt, request.max_tokens) == ("Summarise in one line.", 50)


def test_a_malformed_sampling_answer_is_refused(host: Host) -> None:
    troupe, handlers, _root = host
    handlers.sample = lambda request: {"content": {"type": "text", "text": "no model named"}}
    assert "sampling answer was malformed" in failure_of(troupe, "mcp__host__summarise", {"text": "x"})


def test_roots_are_listed_as_file_uris(host: Host) -> None:
    troupe, _handlers, root = host
    assert troupe.call("mcp__host__where", {}).text == f"{root.as_uri()},file:///srv/data"


def test_progress_reaches_the_calls_handler_the_global_one_and_events(host: Host) -> None:
    troupe, handlers, _root = host
    mine: list[ProgressEvent] = []
    result = troupe.call("mcp__host__count", {"steps": 3, "delay": 0.01}, progress_handler=mine.append)
    assert result.text == "counted 3"
    assert wait_until(lambda: len(mine) == 3 and len(handlers.progress) == 3)
    assert [(e.tool, e.progress, e.total, e.message) for e in mine] == [
        ("mcp__host__count", float(step), 3.0, f"step {step}") for step in (1, 2, 3)
    ]
    assert handlers.progress == mine
    events = [event.detail for event in troupe.events(timeout=0.5, history=True) if event.kind == "progress"]
    assert events[-3:] == [f"mcp__host__count: {s}/3 step {s}" for s in (1, 2, 3)]


def test_progress_keeps_a_call_alive_past_its_timeout(host: Host) -> None:
    # Twelve steps of 0.25 s: 3 s in all, with a 1 s timeout that every step restarts.
    troupe, _handlers, _root = host
    assert troupe.call("mcp__host__count", {"steps": 12, "delay": 0.25}, timeout=1.0).text == "counted 12"


def test_server_logs_reach_the_handler_and_the_python_logger(
    host: Host, caplog: pytest.LogCaptureFixture
) -> None:
    troupe, handlers, _root = host
    caplog.set_level("DEBUG", logger="mcp_troupe.server.host")
    assert troupe.call("mcp__host__chatty", {}).text == "done"
    assert wait_until(lambda: len(handlers.logs) == 2)
    # log_handler installed, no log_level: info and above (a debug line is dropped even when sent).
    assert [(e.level, e.logger, e.data) for e in handlers.logs] == [
        ("info", "chat", "an info line"),
        ("warning", None, {"problem": "a warning"}),
    ]
    logged = [r.getMessage() for r in caplog.records if r.name == "mcp_troupe.server.host"]
    assert logged == ["[chat] an info line", "{'problem': 'a warning'}"]


def test_a_failing_handler_fails_only_that_request(host: Host) -> None:
    troupe, handlers, _root = host

    def broken(request: ElicitationRequest) -> dict[str, Any]:
        raise RuntimeError("secret-token-123 exploded")

    handlers.elicit = broken
    failed = failure_of(troupe, "mcp__host__ask_profile", {})
    assert "elicitation handler failed (RuntimeError)" in failed
    assert "secret-token-123" not in failed  # the handler's message stays with the host
    assert troupe.call("mcp__host__count", {"steps": 1, "delay": 0}).text == "counted 1"


def test_completions_for_a_prompt_argument_and_a_template_parameter(host: Host) -> None:
    troupe, _handlers, _root = host
    languages = troupe.complete(prompt="greet", argument="language", value="es")
    assert languages == Completion(values=("esperanto", "estonian"), total=2, has_more=False)
    names = troupe.complete(
        resource_template="docs://{name}", argument="name", value="x", context={"language": "french"}
    )
    assert names.values == ("french-x1", "french-x2") and names.has_more
    # The model's way: mcp_prompts action=complete.
    text = troupe.call("mcp_prompts", {"action": "complete", "name": "greet", "argument": "language"}).text
    assert "- english" in text and "- french" in text


def test_a_subscription_calls_back_on_every_update_until_cancelled(host: Host) -> None:
    troupe, _handlers, _root = host
    updates: list[str] = []
    subscription = troupe.subscribe("docs://a", updates.append)
    troupe.call("mcp__host__touch", {"uri": "docs://a"})
    troupe.call("mcp__host__touch", {"uri": "docs://other"})  # not subscribed: no callback
    assert wait_until(lambda: updates == ["docs://a"])
    subscription.cancel()
    troupe.call("mcp__host__touch", {"uri": "docs://a"})
    time.sleep(0.2)
    assert updates == ["docs://a"]


# ---- troupes of their own (stdio): approval memory, no handlers ------------------------------------------


def test_sampling_from_an_untrusted_server_is_put_to_the_approver_once() -> None:
    asked: list[ApprovalRequest] = []

    def approver(request: ApprovalRequest) -> bool:
        asked.append(request)
        return True

    def model(request: SamplingRequest) -> dict[str, Any]:
        return {"role": "assistant", "content": {"type": "text", "text": "ok"}, "model": "m"}

    server = legacy(stdio_server("host", sys.executable, str(SERVER)))
    with troupe_of(server, approval_mode="ask", approver=approver, sampling_handler=model) as troupe:
        first = troupe.call("mcp__host__summarise", {"text": "one"})
        second = troupe.call("mcp__host__summarise", {"text": "two"})
        sampling = [request for request in asked if request.tool == "sampling/createMessage"]
        assert len(sampling) == 1  # like an exec tool: once per process
        assert sampling[0].server == "host" and sampling[0].trust_level == "untrusted"
        assert (first.text, second.text) == ("m: ok", "m: ok")

        def refuse(request: ApprovalRequest) -> bool:
            return request.tool != "sampling/createMessage"

    with troupe_of(server, approval_mode="ask", approver=refuse, sampling_handler=model) as troupe:
        assert "User rejected sampling request" in failure_of(troupe, "mcp__host__summarise", {"text": "x"})


def test_progress_never_outlives_max_call_time() -> None:
    # Progress every 0.2 s keeps restarting the 0.5 s timeout, but max_call_time stops the call at 1.5 s.
    server = dataclasses.replace(legacy(stdio_server("host", sys.executable, str(SERVER))), max_call_time=1.5)
    with troupe_of(server) as troupe:
        started = time.monotonic()
        with pytest.raises(CallTimedOut) as caught:
            troupe.call("mcp__host__count", {"steps": 50, "delay": 0.2}, timeout=0.5)
        elapsed = time.monotonic() - started
        assert 1.4 <= elapsed < 3.0
        assert "1.5 s" in str(caught.value)
        # The connection is fine: the next call works.
        assert troupe.call("mcp__host__count", {"steps": 1, "delay": 0}).text == "counted 1"


def test_a_callable_roots_change_is_noticed_and_listed_again(tmp_path: Path) -> None:
    current = [tmp_path / "a"]

    def roots(server: str) -> list[Path]:
        assert server == "host"
        return list(current)

    with troupe_of(legacy(stdio_server("host", sys.executable, str(SERVER))), roots=roots) as troupe:
        assert troupe.call("mcp__host__where", {}).text == (tmp_path / "a").as_uri()
        assert troupe.roots_changed() == []
        current.append(tmp_path / "b")
        assert troupe.roots_changed() == ["host"]  # notifications/roots/list_changed was sent
        assert (
            troupe.call("mcp__host__where", {}).text
            == f"{(tmp_path / 'a').as_uri()},{(tmp_path / 'b').as_uri()}"
        )


def test_without_handlers_nothing_is_declared_and_the_server_gets_method_not_found() -> None:
    with troupe_of(legacy(stdio_server("host", sys.executable, str(SERVER)))) as troupe:
        reason = failure_of(troupe, "mcp__host__where", {})
    assert "-32601" in reason or "method not found" in reason.lower()


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def test_the_documented_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    example = runpy.run_path(
        str(Path(__file__).resolve().parents[2] / "docs" / "examples" / "host_callbacks.py")
    )
    answers = example["main"]()
    assert answers[0] == "accept name=Ada age=30 colour=blue"
    assert answers[1] == "my-model-1: summary of 'a long text'"
    assert answers[2] == Path.cwd().as_uri()
    assert answers[3:] == ["counted 3", "done"]
    printed = capsys.readouterr().out
    assert "progress mcp__host__count: 3/3 step 3" in printed
