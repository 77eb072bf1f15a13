"""Handshake: era selection exactly as the spec says (2026-07-28 basic/versioning), driven step by step."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from tests.spec_schemas import validator

from mcp_troupe.errors import UnsupportedProtocolVersion
from mcp_troupe.protocol.handshake import Failed, Handshake, Send, Settled, check_pin
from mcp_troupe.protocol.versions import LATEST_LEGACY, Era, Revision


def capabilities(revision: Revision) -> Mapping[str, Any]:
    return {"roots": {}} if revision.is_modern else {}


def handshake(**options: Any) -> Handshake:
    return Handshake(
        server="s", client_info={"name": "mcp-troupe", "version": "1"}, capabilities=capabilities, **options
    )


def discover_result(versions: list[str]) -> dict[str, Any]:
    return {
        "resultType": "complete",
        "supportedVersions": versions,
        "capabilities": {"tools": {"listChanged": True}},
        "ttlMs": 0,
        "cacheScope": "public",
        "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "srv", "version": "2"}},
    }


def initialize_result(version: str) -> dict[str, Any]:
    return {
        "protocolVersion": version,
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "srv", "version": "1"},
    }


def test_auto_probes_with_server_discover_carrying_the_modern_meta() -> None:
    step = handshake().start()
    assert isinstance(step, Send) and step.method == "server/discover" and step.is_probe
    meta = step.params["_meta"]
    assert meta["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
    assert meta["io.modelcontextprotocol/clientCapabilities"] == {"roots": {}}
    assert meta["io.modelcontextprotocol/clientInfo"] == {"name": "mcp-troupe", "version": "1"}
    message = {"jsonrpc": "2.0", "id": 1, "method": step.method, "params": step.params}
    assert validator("2026-07-28", "DiscoverRequest").is_valid(message)


def test_a_discover_result_means_modern_at_the_probed_version() -> None:
    shake = handshake()
    shake.start()
    settled = shake.on_result(discover_result(["2026-07-28", "2025-11-25"]))
    assert isinstance(settled, Settled)
    assert settled.revision.version == "2026-07-28" and settled.era is Era.MODERN
    assert settled.info.server_info == {"name": "srv", "version": "2"}
    assert (
        settled.meta is not None and settled.meta["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
    )


@pytest.mark.parametrize("code", [-32601, -32600, -32602, -32603, -1, 0])
def test_any_other_error_to_the_probe_falls_back_to_initialize_requesting_the_newest_legacy(
    code: int,
) -> None:
    # spec: the fallback MUST NOT be keyed to one specific error code.
    shake = handshake()
    shake.start()
    step = shake.on_error(code, "nope", None)
    assert isinstance(step, Send) and step.method == "initialize"
    assert step.params["protocolVersion"] == LATEST_LEGACY == "2025-11-25"
    assert step.params["capabilities"] == {}
    message = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": step.params}
    assert validator("2025-11-25", "InitializeRequest").is_valid(message)
    settled = shake.on_result(initialize_result("2025-06-18"))  # negotiated down
    assert isinstance(settled, Settled) and settled.revision.version == "2025-06-18" and settled.meta is None


def test_no_answer_to_the_probe_falls_back() -> None:
    shake = handshake()
    shake.start()
    step = shake.on_no_answer("no answer within 5 s")
    assert isinstance(step, Send) and step.method == "initialize"


def test_a_modern_version_refusal_retries_at_a_shared_version_and_never_falls_back() -> None:
    shake = handshake()
    shake.start()
    # Only one modern version exists today, so a -32022 naming only versions we do not speak is final.
    failed = shake.on_error(
        -32022, "Unsupported protocol version", {"supported": ["2027-01-01"], "requested": "x"}
    )
    assert isinstance(failed, Failed) and isinstance(failed.error, UnsupportedProtocolVersion)
    assert "2027-01-01" in str(failed.error) and "2026-07-28" in str(failed.error)


def test_a_refusal_naming_the_refused_version_retries_it_once_then_fails() -> None:
    # spec: "select a mutually supported version from the supported list and retry": the shared version
    # is the one just refused (the conformance suite's request-metadata server does this once), so it is
    # sent again under the same rule, once; a second identical refusal is final instead of a loop.
    refusal = {"supported": ["2026-07-28"], "requested": "2026-07-28"}
    shake = handshake()
    first = shake.start()
    again = shake.on_error(-32022, "Unsupported protocol version", refusal)
    assert isinstance(again, Send) and again.method == "server/discover"
    assert again.params["_meta"]["io.modelcontextprotocol/protocolVersion"] == "2026-07-28"
    assert again.params == first.params
    settled = shake.on_result(discover_result(["2026-07-28"]))
    assert isinstance(settled, Settled) and settled.revision.version == "2026-07-28"

    stubborn = handshake()
    stubborn.start()
    assert isinstance(stubborn.on_error(-32022, "Unsupported", refusal), Send)
    failed = stubborn.on_error(-32022, "Unsupported", refusal)
    assert isinstance(failed, Failed) and isinstance(failed.error, UnsupportedProtocolVersion)
    assert "2026-07-28" in str(failed.error)


def test_a_version_refusal_naming_only_legacy_versions_falls_back_to_one_of_them() -> None:
    shake = handshake()
    shake.start()
    step = shake.on_error(-32022, "Unsupported", {"supported": ["2025-06-18"], "requested": "2026-07-28"})
    assert (
        isinstance(step, Send)
        and step.method == "initialize"
        and step.params["protocolVersion"] == "2025-06-18"
    )


def test_other_modern_errors_mean_modern_and_fail_rather_than_fall_back() -> None:
    shake = handshake()
    shake.start()
    step = shake.on_error(-32021, "missing capability", {"requiredCapabilities": {"sampling": {}}})
    assert isinstance(step, Failed)


def test_an_initialize_refused_by_a_modern_only_server_reprobes_once() -> None:
    shake = handshake(hint=Era.LEGACY)
    first = shake.start()
    assert isinstance(first, Send) and first.method == "initialize"  # the hint goes first
    again = shake.on_error(-32022, "modern only", {"supported": ["2026-07-28"], "requested": "2025-11-25"})
    assert isinstance(again, Send) and again.method == "server/discover"
    settled = shake.on_result(discover_result(["2026-07-28"]))
    assert isinstance(settled, Settled) and settled.revision.is_modern


def test_a_legacy_version_error_with_supported_versions_retries_initialize_once() -> None:
    shake = handshake(pin="legacy")
    shake.start()
    retry = shake.on_error(
        -32602, "Unsupported protocol version", {"supported": ["2024-11-05"], "requested": "x"}
    )
    assert isinstance(retry, Send) and retry.params["protocolVersion"] == "2024-11-05"
    failed = shake.on_error(-32602, "Unsupported protocol version", {"supported": ["2024-11-05"]})
    assert isinstance(failed, Failed)


def test_an_initialize_answer_outside_what_we_speak_fails_naming_both_sides() -> None:
    shake = handshake()
    shake.start()
    shake.on_error(-32601, "no", None)
    failed = shake.on_result(initialize_result("2099-01-01"))
    assert isinstance(failed, Failed) and isinstance(failed.error, UnsupportedProtocolVersion)
    assert "2099-01-01" in str(failed.error) and "2025-11-25" in str(failed.error)


def test_an_initialize_answer_naming_a_modern_version_is_refused() -> None:
    shake = handshake()
    shake.start()
    shake.on_error(-32601, "no", None)
    assert isinstance(shake.on_result(initialize_result("2026-07-28")), Failed)


def test_pin_legacy_never_probes_and_pin_modern_never_falls_back() -> None:
    legacy = handshake(pin="legacy").start()
    assert isinstance(legacy, Send) and legacy.method == "initialize"
    shake = handshake(pin="modern")
    probe = shake.start()
    assert isinstance(probe, Send) and probe.method == "server/discover" and not probe.is_probe
    assert isinstance(shake.on_error(-32601, "no", None), Failed)


def test_a_pinned_version_accepts_that_version_only() -> None:
    shake = handshake(pin="2025-06-18")
    step = shake.start()
    assert (
        isinstance(step, Send)
        and step.method == "initialize"
        and step.params["protocolVersion"] == "2025-06-18"
    )
    failed = shake.on_result(initialize_result("2025-03-26"))
    assert isinstance(failed, Failed)
    assert "2025-03-26" in str(failed.error) and "2025-06-18" in str(failed.error)


def test_a_modern_hint_that_fails_falls_back_like_a_probe() -> None:
    shake = handshake(hint=Era.MODERN)
    assert isinstance(shake.start(), Send)
    step = shake.on_error(-32601, "Method not found", None)
    assert isinstance(step, Send) and step.method == "initialize"


def test_an_unusable_discover_answer_is_treated_as_not_modern() -> None:
    shake = handshake()
    shake.start()
    step = shake.on_result({"whatever": 1})
    assert isinstance(step, Send) and step.method == "initialize"


def test_pins_are_checked() -> None:
    assert check_pin("auto") is None and check_pin("2025-11-25") is None
    problem = check_pin("2099-01-01")
    assert problem is not None and "2026-07-28" in problem
    with pytest.raises(ValueError, match="expected one of"):
        handshake(pin="latest")
