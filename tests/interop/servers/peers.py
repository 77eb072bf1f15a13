"""The peer servers of the protocol-era interop tests (``tests/interop/test_eras*.py``): how to start each,
what it speaks, and what the official SDK's own client negotiates with it.

A :class:`Peer` is one server form on one transport: the official Python SDK's server in its modern-only,
dual-era and legacy-only forms (``sdk_eras.py``), FastMCP 4.x (``fastmcp_server.py``) and the TypeScript SDK
1.x (``ts_sdk_server.mjs``), each over stdio and over Streamable HTTP in SSE and JSON-response mode, stateful
and stateless. :data:`PEERS` lists them all.

``sdk_client_version`` is what ``mcp`` 2.3.0's ``Client`` (``mode="auto"``) negotiated with the peer when the
table was made (docs/protocol.md, "Tested peers"): the newest version both sides speak, which a client that
speaks every revision must match.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from tests.interop import npm

SERVERS_DIR = Path(__file__).resolve().parent

MODERN = "2026-07-28"
HANDSHAKE = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
"""The handshake-era revisions the Python SDK serves (``mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS``)."""

TS_V1 = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07")
"""``SUPPORTED_PROTOCOL_VERSIONS`` of ``@modelcontextprotocol/sdk`` 1.32.2 (``dist/esm/types.js``)."""


@dataclass(frozen=True)
class Peer:
    """One server form on one transport."""

    family: str
    """``sdk`` (the official Python SDK), ``fastmcp`` or ``ts`` (the TypeScript SDK 1.x)."""
    form: str
    """``modern`` (2026-07-28 only), ``dual`` (both eras) or ``legacy`` (up to 2025-11-25)."""
    transport: str
    """``stdio`` or ``http``."""
    json_response: bool = False
    stateless: bool = False

    @property
    def id(self) -> str:
        """The pytest id and the server's name in the troupe config, e.g. ``sdk-dual-http-json-stateless``."""
        if self.transport == "stdio":
            return f"{self.family}-{self.form}-stdio"
        return (
            f"{self.family}-{self.form}-http-{'json' if self.json_response else 'sse'}-"
            f"{'stateless' if self.stateless else 'stateful'}"
        )

    @property
    def versions(self) -> tuple[str, ...]:
        """Every protocol version the server speaks, newest first."""
        if self.family == "ts":
            return TS_V1
        return {"modern": (MODERN,), "dual": (MODERN, *HANDSHAKE), "legacy": HANDSHAKE}[self.form]

    @property
    def sdk_client_version(self) -> str:
        """The version ``mcp`` 2.3.0's ``Client`` negotiates with this peer (measured; docs/protocol.md)."""
        return self.versions[0]

    @property
    def server_name(self) -> str:
        """The ``serverInfo.name`` the server reports."""
        return {"sdk": f"sdk-eras-{self.form}", "fastmcp": "fastmcp", "ts": "ts-sdk"}[self.family]

    @property
    def has_route_tool(self) -> bool:
        """Whether the catalog has ``route`` (``region`` carries ``x-mcp-header``); the TS SDK's has not."""
        return self.family != "ts"

    @property
    def has_eliciting_prompt_and_resource(self) -> bool:
        """Whether the prompt ``release_notes`` and the template ``resource://eras/secret/{name}`` exist (both
        ask like ``confirm``); only ``sdk_eras.py`` has them."""
        return self.family == "sdk"

    @property
    def serves_listen(self) -> bool:
        """Whether the server serves ``subscriptions/listen`` on 2026-07-28 (FastMCP 4.2.3 answers -32601)."""
        return self.family == "sdk" and self.form != "legacy"

    def legacy_back_channel(self) -> bool:
        """Whether, in the handshake era, the server can send a request mid-call (``elicitation/create``).

        Not on a stateless HTTP server (no session to answer on), nor on the Python SDK's JSON-response mode
        (a POST answered with one JSON body has no stream for it; docs/run/legacy-clients.md). The TS SDK's
        stateful JSON mode does reach the client (over its standalone GET stream).
        """
        if self.transport == "stdio":
            return True
        if self.stateless:
            return False
        return self.family == "ts" or not self.json_response

    def legacy_notifications(self) -> bool:
        """Whether, in the handshake era, the server can announce ``notifications/tools/list_changed``.

        A stateless HTTP server has no standalone stream, so its notifications are dropped.
        """
        return self.transport == "stdio" or not self.stateless

    def progress_reaches_client(self) -> bool:
        """Whether ``notifications/progress`` reach the client: not in JSON-response mode (one JSON body)."""
        return self.transport == "stdio" or not self.json_response

    def argv(self, *, port: int = 0) -> list[str]:
        """The command that runs this peer: over stdio the server itself; over HTTP it prints its port."""
        http = []
        if self.transport == "http":
            http = ["--http", "--port", str(port), "--exit-on-stdin-eof"]
            http += ["--json"] if self.json_response else []
            http += ["--stateless"] if self.stateless else []
        if self.family == "sdk":
            return [sys.executable, str(SERVERS_DIR / "sdk_eras.py"), "--era", self.form, *http]
        if self.family == "fastmcp":
            return [sys.executable, str(SERVERS_DIR / "fastmcp_server.py"), *http]
        node = npm.require(npm.node22(), "Node.js 22")
        return [str(node), str(SERVERS_DIR / "ts_sdk_server.mjs"), *http]


def _http_forms(family: str, form: str) -> list[Peer]:
    if family == "sdk" and form == "dual":
        # The SDK's default, and the form most servers in the wild are: every mode.
        modes = [(json_response, stateless) for json_response in (False, True) for stateless in (False, True)]
    elif form == "modern":
        # stateless_http only changes the SDK's legacy leg; a modern-only server has no such leg.
        modes = [(False, False), (True, False)]
    else:
        # Each server start costs seconds: the diagonal covers SSE and JSON, stateful and stateless.
        modes = [(False, False), (True, True)]
    return [Peer(family, form, "http", json_response, stateless) for json_response, stateless in modes]


PEERS: tuple[Peer, ...] = tuple(
    peer
    for family, form in (
        ("sdk", "modern"),
        ("sdk", "dual"),
        ("sdk", "legacy"),
        ("fastmcp", "dual"),
        ("ts", "legacy"),
    )
    for peer in (Peer(family, form, "stdio"), *_http_forms(family, form))
)
"""Every peer: 3 SDK forms, FastMCP and the TS SDK, over stdio and HTTP (SSE/JSON, stateful/stateless)."""


class PeerServer:
    """A running HTTP peer (a subprocess on 127.0.0.1); stdio peers are started by the troupe itself."""

    def __init__(self, peer: Peer, port: int = 0) -> None:
        self.peer = peer
        self.port = port
        """The port: ``0`` until started, unless given (to start a server where another one was)."""
        self.process: subprocess.Popen[str] | None = None
        self._stderr: IO[bytes] | None = None

    @property
    def url(self) -> str:
        """The Streamable HTTP endpoint."""
        return f"http://127.0.0.1:{self.port}/mcp"

    def start(self, timeout: float = 60.0) -> None:
        """Start the server and read the port it prints; raise ``RuntimeError`` if it prints none."""
        # stderr goes to a file, not a pipe nobody reads: a chatty server would block on a full pipe.
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115 (kept open for the process's life; stop() closes it)
        self.process = subprocess.Popen(
            self.peer.argv(port=self.port),
            stdin=subprocess.PIPE,  # closed by stop(): the server exits on EOF even if a signal is lost
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
        )
        line = _readline(self.process, timeout)
        if not line.strip().isdigit():
            self.stop()
            raise RuntimeError(f"{self.peer.id} did not start: it printed {line!r}; stderr:\n{self.stderr()}")
        self.port = int(line)

    def stderr(self) -> str:
        """What the server wrote to stderr so far (the last 4 KiB)."""
        if self._stderr is None:
            return ""
        self._stderr.flush()
        self._stderr.seek(0, 2)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - 4096))
        return self._stderr.read().decode("utf-8", "replace")

    def stop(self) -> None:
        """Stop the server: close its stdin, SIGTERM, then SIGKILL after 10 s."""
        process, self.process = self.process, None
        if process is None:
            return
        try:
            if process.stdin is not None:
                process.stdin.close()
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
        finally:
            if process.stdout is not None:
                process.stdout.close()
            if self._stderr is not None:
                self._stderr.close()
                self._stderr = None


def _readline(process: subprocess.Popen[str], timeout: float) -> str:
    """The first line of ``process``'s stdout, or ``""`` if none comes within ``timeout`` seconds."""
    lines: list[str] = []
    assert process.stdout is not None
    reader = threading.Thread(target=lambda: lines.append(process.stdout.readline()), daemon=True)  # type: ignore[union-attr]
    reader.start()
    reader.join(timeout)
    return lines[0] if lines else ""


class RunningPeers:
    """HTTP peers started on first use and shared by a module's tests (each start costs seconds)."""

    def __init__(self) -> None:
        self._running: dict[str, PeerServer] = {}

    def get(self, peer: Peer) -> PeerServer | None:
        """The running server of an HTTP ``peer`` (started now if need be); ``None`` for a stdio peer."""
        if peer.transport == "stdio":
            return None
        server = self._running.get(peer.id)
        if server is None:
            server = PeerServer(peer)
            server.start()
            self._running[peer.id] = server
        return server

    def stop_all(self) -> None:
        """Stop every server started so far."""
        for server in self._running.values():
            server.stop()
        self._running.clear()
