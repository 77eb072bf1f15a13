"""Host.fulfil and the host's notification side, driven on an asyncio loop (no servers, no actors)."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from mcp_troupe.approval import ApprovalRequest
from mcp_troupe.config import ServerConfig, TroupeConfig
from mcp_troupe.host import (
    ElicitationRequest,
    ElicitationResult,
    Host,
    LogEntry,
    SamplingRequest,
    SamplingResult,
)
from mcp_troupe.protocol.callbacks import CallbackError

FORM = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer", "default": 3}},
    "required": ["name"],
}
URL_PARAMS = {"mode": "url", "message": "connect", "url": "https://a.example/x?y=1", "elicitationId": "e1"}
SAMPLE = {"messages": [{"role": "user", "content": {"type": "text", "text": "hi"}}], "maxTokens": 5}
ANSWER = {"role": "assistant", "content": {"type": "text", "text": "yo"}, "model": "m"}


def config(**server: Any) -> TroupeConfig:
    settings = {"name": "s", "command": "x", "timeout": 1.0, **server}
    return TroupeConfig(servers={"s": ServerConfig(**settings)}, approval_mode="auto")


def fulfil(host: Host, method: str, params: dict[str, Any], version: str = "2025-11-25") -> dict[str, Any]:
    host.capabilities("s", version)
    return asyncio.run(host.fulfil("s", method, params))


def test_nothing_installed_means_method_not_found() -> None:
    host = Host(config())
    assert host.capabilities("s", "2025-11-25") == {}
    with pytest.raises(CallbackError) as caught:
        asyncio.run(host.fulfil("s", "roots/list", {}))
    assert caught.value.code == -32601


def test_a_form_request_reaches_the_handler_with_defaults_and_its_answer_is_completed() -> None:
    seen: list[ElicitationRequest] = []

    def handler(request: ElicitationRequest) -> ElicitationResult:
        seen.append(request)
        return ElicitationResult("accept", {"name": "Ada"})

    host = Host(config(), elicitation_handler=handler)
    result = fulfil(host, "elicitation/create", {"message": "who?", "requestedSchema": FORM})
    assert result == {"action": "accept", "content": {"name": "Ada", "age": 3}}
    assert seen[0].defaults == {"age": 3}


def test_url_mode_on_2025_11_25_shows_the_origin_and_accept_carries_no_content() -> None:
    seen: list[ElicitationRequest] = []

    async def handler(request: ElicitationRequest) -> dict[str, Any]:
        seen.append(request)
        return {"action": "accept"}

    host = Host(config(), elicitation_handler=handler)
    assert fulfil(host, "elicitation/create", URL_PARAMS) == {"action": "accept"}
    (request,) = seen
    assert (request.mode, request.origin, request.elicitation_id) == ("url", "https://a.example", "e1")
    assert "https://a.example" in request.describe()


def test_url_mode_on_2025_06_18_is_refused_before_the_handler() -> None:
    host = Host(config(), elicitation_handler=lambda request: pytest.fail("asked"))
    with pytest.raises(CallbackError) as caught:
        fulfil(host, "elicitation/create", URL_PARAMS, version="2025-06-18")
    assert caught.value.code == -32602


def test_a_sync_handler_that_hangs_fails_its_request_at_the_servers_timeout_without_blocking_the_loop() -> (
    None
):
    release = threading.Event()
    host = Host(config(timeout=0.3), elicitation_handler=lambda request: release.wait(10))
    host.capabilities("s", "2025-11-25")

    async def race() -> tuple[float, int]:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        started = time.monotonic()
        with pytest.raises(CallbackError, match=r"did not answer within 0\.3 s"):
            await host.fulfil("s", "elicitation/create", {"message": "m", "requestedSchema": FORM})
        ticker.cancel()
        return time.monotonic() - started, ticks

    try:
        elapsed, ticks = asyncio.run(race())
    finally:
        release.set()
    assert 0.25 <= elapsed < 2.0
    assert ticks >= 10  # the loop kept running while the handler blocked its thread


def test_sampling_with_tools_needs_the_2025_11_25_capability() -> None:
    seen: list[SamplingRequest] = []

    def model(request: SamplingRequest) -> SamplingResult:
        seen.append(request)
        return SamplingResult("yo", "m")

    params = {
        **SAMPLE,
        "tools": [{"name": "t", "inputSchema": {"type": "object"}}],
        "toolChoice": {"mode": "auto"},
    }
    host = Host(config(), sampling_handler=model)
    assert fulfil(host, "sampling/createMessage", params)["content"] == {"type": "text", "text": "yo"}
    assert seen[0].tools[0]["name"] == "t" and seen[0].tool_choice == {"mode": "auto"}
    with pytest.raises(CallbackError, match=r"did not declare sampling\.tools"):
        fulfil(host, "sampling/createMessage", params, version="2025-06-18")


@pytest.mark.parametrize(
    ("params", "problem"),
    [
        ({"messages": "hi", "maxTokens": 5}, "'messages' must be an array"),
        ({"messages": [], "maxTokens": 0}, "'maxTokens' must be a positive integer"),
    ],
)
def test_a_malformed_sampling_request_is_refused(params: dict[str, Any], problem: str) -> None:
    host = Host(config(), sampling_handler=lambda request: ANSWER)
    with pytest.raises(CallbackError, match=problem):
        fulfil(host, "sampling/createMessage", params)


def test_sampling_from_an_untrusted_server_under_ask_is_approved_once_then_remembered() -> None:
    asked: list[ApprovalRequest] = []

    def approver(request: ApprovalRequest) -> bool:
        asked.append(request)
        return True

    host = Host(
        dataclasses.replace(config(), approval_mode="ask"),
        approver=approver,
        sampling_handler=lambda r: ANSWER,
    )
    assert fulfil(host, "sampling/createMessage", SAMPLE) == ANSWER
    assert fulfil(host, "sampling/createMessage", SAMPLE) == ANSWER
    assert (
        len(asked) == 1 and asked[0].tool == "sampling/createMessage" and "untrusted" in asked[0].describe()
    )


@pytest.mark.parametrize(
    ("mode", "approver"), [("deny", None), ("ask", None), ("ask", lambda request: False)]
)
def test_sampling_refused_by_policy_answers_user_rejected(mode: str, approver: Any) -> None:
    host = Host(
        dataclasses.replace(config(), approval_mode=mode),
        approver=approver,
        sampling_handler=lambda r: ANSWER,
    )
    with pytest.raises(CallbackError) as caught:
        fulfil(host, "sampling/createMessage", SAMPLE)
    assert caught.value.code == -1 and "User rejected sampling request" in caught.value.message


def test_a_trusted_server_samples_without_approval() -> None:
    host = Host(
        dataclasses.replace(config(trust_level="trusted"), approval_mode="deny"),
        sampling_handler=lambda r: ANSWER,
    )
    assert fulfil(host, "sampling/createMessage", SAMPLE) == ANSWER


def test_a_servers_roots_key_overrides_the_troupes_roots(tmp_path: Path) -> None:
    host = Host(config(roots=("file:///only/this",)), roots=[tmp_path])
    assert fulfil(host, "roots/list", {}) == {"roots": [{"uri": "file:///only/this"}]}
    assert host.capabilities("s", "2025-06-18") == {"roots": {}}


def test_callable_roots_declare_list_changed_and_notify_only_on_a_change() -> None:
    current = ["/a"]
    host = Host(config(), roots=lambda server: list(current))
    assert host.capabilities("s", "2025-06-18") == {"roots": {"listChanged": True}}
    notified: list[str] = []
    host.watch_roots("s", lambda: notified.append("s"))

    async def scenario() -> list[list[str]]:
        assert await host.fulfil("s", "roots/list", {}) == {"roots": [{"uri": "file:///a"}]}
        unchanged = await host.roots_changed()
        current.append("/b")
        changed = await host.roots_changed()
        again = await host.roots_changed()
        return [unchanged, changed, again]

    assert asyncio.run(scenario()) == [[], ["s"], []]
    assert notified == ["s"]


def test_a_bad_static_root_is_the_callers_mistake_at_once() -> None:
    with pytest.raises(ValueError, match=r"roots\[0\]"):
        Host(config(), roots=[42])  # type: ignore[list-item]


def test_log_level_is_the_config_key_else_info_with_a_handler() -> None:
    assert Host(config()).log_level("s") is None
    assert Host(config(), log_handler=lambda entry: None).log_level("s") == "info"
    assert Host(config(log_level="error"), log_handler=lambda entry: None).log_level("s") == "error"


def test_server_logs_below_the_level_are_dropped_and_the_rest_logged_on_one_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    entries: list[LogEntry] = []
    host = Host(config(log_level="warning"))
    host.log_handler = entries.append  # delivery needs a bound loop; the Python logger side does not
    caplog.set_level("DEBUG", logger="mcp_troupe.server.s")
    host.on_log("s", {"level": "info", "data": "quiet"})
    host.on_log("s", {"level": "error", "data": "line one\nFORGED line", "logger": "db"})
    assert [record.getMessage() for record in caplog.records] == ["[db] line one\\nFORGED line"]
    assert caplog.records[0].levelname == "ERROR"


def test_max_call_time_defaults_to_ten_timeouts_and_never_undercuts_the_timeout() -> None:
    assert Host(config()).max_call_time("s", 2.0) == 20.0
    assert Host(config(max_call_time=5.0)).max_call_time("s", 2.0) == 5.0
    assert Host(config(max_call_time=5.0)).max_call_time("s", 8.0) == 8.0
