"""The benchmark's minimal server in its dual-era form: both eras answered alike but for the modern fields."""

from __future__ import annotations

import json

import pytest
from benchmarks import echo_server
from tests.spec_schemas import validator

MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


def request(method: str, params: dict[str, object] | None = None, request_id: int = 1) -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params or {}}


@pytest.fixture
def dual_era(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(echo_server, "DUAL_ERA", True)


@pytest.mark.usefixtures("dual_era")
def test_dual_era_answers_server_discover_as_the_spec_shapes_it() -> None:
    answer = json.loads(echo_server.answer(request("server/discover", {"_meta": MODERN_META})))
    assert answer["result"]["resultType"] == "complete"
    assert answer["result"]["supportedVersions"][0] == "2026-07-28"
    assert validator("2026-07-28", "DiscoverResult").is_valid(answer["result"])


@pytest.mark.usefixtures("dual_era")
def test_dual_era_adds_result_type_to_modern_requests_only() -> None:
    call = {"name": "echo", "arguments": {"text": "hi"}}
    modern = json.loads(echo_server.answer(request("tools/call", {**call, "_meta": MODERN_META})))
    legacy = json.loads(echo_server.answer(request("tools/call", call)))
    assert modern["result"] == {**legacy["result"], "resultType": "complete"}
    listed = json.loads(echo_server.answer(request("tools/list", {"_meta": MODERN_META})))
    assert listed["result"]["resultType"] == "complete" and listed["result"]["tools"][0]["name"] == "echo"
    assert validator("2026-07-28", "ListToolsResult").is_valid(listed["result"])
    assert validator("2026-07-28", "CallToolResult").is_valid(modern["result"])
    assert "resultType" not in json.loads(echo_server.answer(request("tools/list")))["result"]


def test_without_dual_era_server_discover_is_unknown_and_meta_changes_nothing() -> None:
    answer = json.loads(echo_server.answer(request("server/discover", {"_meta": MODERN_META})))
    assert answer["error"]["code"] == -32601
    call = {"name": "echo", "arguments": {"text": "hi"}, "_meta": MODERN_META}
    assert "resultType" not in json.loads(echo_server.answer(request("tools/call", call)))["result"]


@pytest.mark.timeout(30)
def test_the_raw_floor_speaks_each_era_to_the_dual_era_server() -> None:
    # bench_eras reads the raw floor's modern/legacy ratio as what the bigger frame costs the server alone:
    # that only holds if the server really takes the raw modern frames as modern, and the legacy ones not.
    from benchmarks.bench_eras import cpu_ns
    from benchmarks.clients import RAW_MODERN_META, RawPipe
    from benchmarks.servers import echo_command

    for meta, expect_modern in ((RAW_MODERN_META, True), (None, False)):
        pipe = RawPipe(echo_command(dual_era=True), meta)
        try:
            pipe.handshake()
            assert pipe.tool_count == 1
            latencies = pipe.sequential(3, deadline=float("inf"))
            assert len(latencies) == 3
            answer = pipe.request("tools/call", {"name": "echo", "arguments": {"text": "x"}})
            assert ("resultType" in answer["result"]) is expect_modern
            assert cpu_ns((pipe.process.pid,)) > 0
        finally:
            pipe.close()
