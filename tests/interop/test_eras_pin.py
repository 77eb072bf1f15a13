"""Choosing the protocol version: a per-server ``protocol`` pin, a pin the server cannot meet, a legacy
server that never answers the ``server/discover`` probe, a server replaced by one of the other era, and
``troupe check`` showing the version (issue 13).

The pin is a per-server config key, ``protocol: auto | 2026-07-28 | 2025-11-25 | 2025-06-18 | ...``; these
tests skip while the config rejects it. The peers are those of ``test_eras.py`` (``servers/peers.py``), on
stdio and on stateful SSE HTTP.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from tests.interop.servers.peers import MODERN, PEERS, SERVERS_DIR, Peer, PeerServer, RunningPeers
from tests.interop.test_eras import (
    CLIENT_VERSIONS,
    ERAS_CLIENT,
    assert_ready,
    config_of,
    connected,
    expected_version,
    require_shared_version,
    server_entry,
    status_of,
    tool,
    wait_for,
)

from mcp_troupe import ConfigError, ServerState, parse_config
from mcp_troupe.actors import session

pytestmark = [pytest.mark.interop, pytest.mark.slow, pytest.mark.timeout(120)]

PIN_PEERS = [
    peer for peer in PEERS if peer.transport == "stdio" or not (peer.json_response or peer.stateless)
]
"""Every form of every family, on stdio and on stateful SSE HTTP."""

REFUSAL_TIMEOUT = 15.0
"""A refused pin must fail within this; a client that retried it with the backoff below would take ≥ 35 s."""


def pinned_config(peer: Peer, running: Any, protocol: str, *, retries: int = 0, delay: float = 0.1) -> Any:
    """The config of ``peer`` with ``protocol: <protocol>``; skips the test when the key is not known yet."""
    data = {
        "tools": {
            "mcp": {"reconnect": {"initial_delay": delay, "max_delay": 4 * delay, "max_attempts": retries}},
            "mcp_servers": {peer.id: server_entry(peer, running, protocol=protocol)},
        },
        "permissions": {"approval": {"mode": "auto"}},
        "execution": {"networkPolicy": "allow"},
    }
    try:
        return parse_config(data, source=f"<{peer.id} pinned to {protocol}>")
    except ConfigError as error:
        if any(path.endswith(".protocol") for path, _ in error.problems):
            pytest.skip(f"the config has no per-server `protocol` key yet (issue 13): {error}")
        raise


@pytest.mark.parametrize("peer", PIN_PEERS, ids=lambda peer: peer.id)
def test_a_pin_to_2025_06_18_is_used_where_the_server_speaks_it(
    peer: Peer, running_peers: RunningPeers
) -> None:
    if "2025-06-18" not in peer.versions:
        pytest.skip(f"{peer.id} does not speak 2025-06-18 (see the refusal test)")
    config = pinned_config(peer, None, "2025-06-18")  # skips before a server is started for nothing
    if peer.transport == "http":
        config = pinned_config(peer, running_peers.get(peer), "2025-06-18")

    with connected(config) as troupe:
        status = assert_ready(troupe)
        whoami = troupe.call(tool(peer, "whoami"), {})
        added = troupe.call(tool(peer, "add"), {"a": 2, "b": 3})

    assert status.protocol_version == "2025-06-18"
    assert whoami.text == "2025-06-18"  # the server agrees: it was not a modern connection labelled old
    assert (added.text, added.structured) == ("5", {"result": 5})  # 2025-06-18 carries structuredContent


@pytest.mark.parametrize("protocol", ["auto", MODERN, "2025-11-25", "2025-03-26", "2024-11-05"])
def test_every_pin_a_dual_era_server_speaks_is_used(protocol: str) -> None:
    peer = next(peer for peer in PEERS if peer.id == "sdk-dual-stdio")
    config = pinned_config(peer, None, protocol)
    expected = require_shared_version(peer) if protocol == "auto" else protocol
    if expected not in CLIENT_VERSIONS:
        pytest.skip(f"the client does not speak {expected}")

    with connected(config) as troupe:
        status = assert_ready(troupe)
        whoami = troupe.call(tool(peer, "whoami"), {})
        added = troupe.call(tool(peer, "add"), {"a": 2, "b": 3})

    assert (status.protocol_version, whoami.text) == (expected, expected)
    assert added.text == "5"


@pytest.mark.parametrize(
    ("peer_id", "protocol"),
    [
        ("sdk-modern-stdio", "2025-06-18"),
        ("sdk-modern-http-sse-stateful", "2025-11-25"),
        ("sdk-legacy-stdio", MODERN),
        ("sdk-legacy-http-sse-stateful", MODERN),
        ("ts-legacy-stdio", MODERN),
    ],
)
def test_a_pin_the_server_does_not_speak_fails_at_once_naming_the_versions(
    peer_id: str, protocol: str, running_peers: RunningPeers
) -> None:
    peer = next(peer for peer in PEERS if peer.id == peer_id)
    if protocol not in CLIENT_VERSIONS:
        pytest.skip(f"the client does not speak {protocol}")
    pinned_config(peer, None, protocol)  # skips early while the key is unknown
    # A long backoff: a client that retried the refusal would still be in backoff at the deadline.
    config = pinned_config(peer, running_peers.get(peer), protocol, retries=3, delay=5.0)

    started = time.monotonic()
    with connected(config) as troupe:
        status = status_of(troupe)
        tools = [spec for spec in troupe.tools() if spec.server == peer.id]
    elapsed = time.monotonic() - started

    assert status.state is ServerState.FAILED, (status.state, status.last_error)
    assert elapsed < REFUSAL_TIMEOUT, f"took {elapsed:.1f} s: was the refusal retried?"
    assert not tools
    assert status.last_error is not None and protocol in status.last_error, status.last_error
    if peer.form == "modern":
        # A modern-only server names what it speaks (-32022 data.supported); the error passes that on.
        assert MODERN in status.last_error, status.last_error


# Waited out by the test below: the library's 10 s, for a server slow to start, would be most of its time.
TEST_PROBE_TIMEOUT = 3.0


def test_a_legacy_server_that_never_answers_the_probe_is_reached_after_a_short_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # spec 2026-07-28 versioning: no answer to server/discover within a timeout means legacy: fall back.
    monkeypatch.setattr(session, "PROBE_TIMEOUT", TEST_PROBE_TIMEOUT)
    if not ERAS_CLIENT:
        pytest.skip("the client does not probe with server/discover yet (issue 13)")
    peer = next(peer for peer in PEERS if peer.id == "sdk-legacy-stdio")
    script = str(SERVERS_DIR / "sdk_eras.py")
    data = {
        "tools": {
            "mcp": {"reconnect": {"initial_delay": 0.1, "max_delay": 0.5, "max_attempts": 0}},
            "mcp_servers": {
                peer.id: {
                    "command": sys.executable,
                    "args": [script, "--era", "legacy", "--ignore-discover"],
                    "connect_timeout": 45,
                }
            },
        },
        "permissions": {"approval": {"mode": "auto"}},
    }

    started = time.monotonic()
    with connected(parse_config(data)) as troupe:
        status = assert_ready(troupe)
        ready_after = time.monotonic() - started
        whoami = troupe.call(tool(peer, "whoami"), {})

    assert (status.protocol_version, whoami.text) == ("2025-11-25", "2025-11-25")
    # Not before the probe's timeout (no error cut the wait short), and not after the whole connect_timeout:
    # allow for a loaded machine.
    assert TEST_PROBE_TIMEOUT <= ready_after < 40, f"ready after {ready_after:.1f} s"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("legacy", "modern"),
        ("modern", "legacy"),
    ],
    ids=["upgraded-to-modern-only", "downgraded-to-legacy-only"],
)
def test_a_server_replaced_by_one_of_the_other_era_is_reprobed(before: str, after: str) -> None:
    # spec 2026-07-28 versioning: the era MAY be cached per origin, but the client re-probes when the
    # assumption fails. A deploy on the same origin is how it fails.
    if not ERAS_CLIENT:
        pytest.skip("the client does not speak 2026-07-28 yet (issue 13)")
    first = next(peer for peer in PEERS if peer.id == f"sdk-{before}-http-sse-stateful")
    second = next(peer for peer in PEERS if peer.id == f"sdk-{after}-http-sse-stateful")
    server = PeerServer(first)
    server.start()
    try:
        config = config_of(first, server, retries=30)  # ~30 s of reconnects while the new server starts
        with connected(config) as troupe:
            assert_ready(troupe)
            assert troupe.call(tool(first, "whoami"), {}).text == first.sdk_client_version

            server.stop()
            server = PeerServer(second, port=server.port)  # the same origin, the other era
            server.start()
            answered: list[str] = []

            def whoami_answers() -> bool:
                try:
                    result = troupe.call(tool(first, "whoami"), {}, timeout=5)
                except Exception:  # reconnecting: not ready, lost, timed out... keep asking
                    return False
                answered.append(result.text)
                return not result.is_error and result.text == second.sdk_client_version

            reached = wait_for(whoami_answers, 45.0)
            status = status_of(troupe)
    finally:
        server.stop()

    assert reached, f"never reached the {after} server: answers {answered[-3:]}, status {status}"
    assert status.state is ServerState.READY
    assert status.protocol_version == second.sdk_client_version


def test_troupe_check_shows_the_version_of_each_era_form(tmp_path: Path) -> None:
    forms = [peer for peer in PEERS if peer.family == "sdk" and peer.transport == "stdio"]
    # The modern-only form joins once the client speaks 2026-07-28; today check would (rightly) fail on it.
    reachable = [peer for peer in forms if expected_version(peer) is not None]
    servers = {}
    for peer in reachable:
        command, *args = peer.argv()
        servers[peer.id] = {"command": command, "args": args, "connect_timeout": 45}
    config = tmp_path / "troupe.yaml"
    config.write_text(
        yaml.safe_dump({"tools": {"mcp": {"reconnect": {"max_attempts": 0}}, "mcp_servers": servers}}),
        encoding="utf-8",
    )

    completed = subprocess.run(
        [sys.executable, "-m", "mcp_troupe.cli", "check", "-c", str(config)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=100,
    )

    assert completed.returncode == 0, completed.stdout + completed.stderr
    for peer in reachable:
        # SERVER TRANSPORT STATE INC ATTEMPTS PROTOCOL ...
        row = rf"^\s*{re.escape(peer.id)}\s+stdio\s+ready\s+\d+\s+\d+\s+{expected_version(peer)}\s"
        assert re.search(row, completed.stdout, re.M), completed.stdout
