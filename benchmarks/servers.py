"""The servers every client is measured against, and how to start them.

- ``echo``: ``echo_server.py``, the benchmark's own minimal stdio server (stdlib, answers in microseconds);
- ``sdk``: ``sdk_server.py``, the official SDK's ``MCPServer`` with one ``echo`` tool, over stdio;
- ``echo-http-json`` / ``echo-http-sse``: ``echo_http_server.py``, the minimal server over Streamable HTTP;
- ``sdk-http-json`` / ``sdk-http-sse``: ``sdk_server.py http``, the SDK's server over Streamable HTTP.

HTTP servers listen on 127.0.0.1 only, on a port the system picks (they print it). Every process started here
is killed, by its pid, when its context ends.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "HttpServer",
    "HttpServerFarm",
    "cpu_hog",
    "echo_command",
    "http_server",
    "http_server_farm",
    "kill",
    "sdk_command",
    "spawn_to_first_answer",
]

HERE = Path(__file__).resolve().parent
ECHO_SERVER = HERE / "echo_server.py"
ECHO_HTTP_SERVER = HERE / "echo_http_server.py"
SDK_SERVER = HERE / "sdk_server.py"
START_TIMEOUT = 30.0
"""Seconds an HTTP server may take to say which port it listens on (the SDK's imports take ~1 s)."""


def echo_command(tools: int = 1, page_size: int = 100, *, dual_era: bool = False) -> list[str]:
    """The command line of the minimal stdio server with ``tools`` tools, ``page_size`` a page (``dual_era``:
    it speaks 2026-07-28 too)."""
    command = [sys.executable, str(ECHO_SERVER)]
    if tools != 1:
        command += ["--tools", str(tools), "--page-size", str(page_size)]
    if dual_era:
        command.append("--dual-era")
    return command


def sdk_command() -> list[str]:
    """The command line of the SDK's ``MCPServer`` over stdio."""
    return [sys.executable, str(SDK_SERVER), "stdio"]


def kill(process: subprocess.Popen[bytes], grace: float = 2.0) -> None:
    """End ``process`` (one we started): close its stdin, SIGTERM, then SIGKILL; always reap it."""
    if process.poll() is None:
        with contextlib.suppress(OSError):
            if process.stdin is not None:
                process.stdin.close()
        with contextlib.suppress(OSError):
            process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=grace)
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()


@dataclass(frozen=True)
class HttpServer:
    """A running HTTP MCP server: its endpoint and process id."""

    name: str
    url: str
    pid: int


@contextlib.contextmanager
def http_server(
    kind: str, tools: int = 1, page_size: int = 100, *, dual_era: bool = False
) -> Iterator[HttpServer]:
    """Start HTTP server ``kind`` (see the module docstring), wait until it listens, kill it at the end.

    ``dual_era``: the minimal server speaks 2026-07-28 too (``echo_http_server.py --dual-era``)."""
    if kind in ("echo-http-json", "echo-http-sse"):
        command = [
            sys.executable,
            str(ECHO_HTTP_SERVER),
            "--tools",
            str(tools),
            "--page-size",
            str(page_size),
        ]
        if kind.endswith("sse"):
            command.append("--sse")
        if dual_era:
            command.append("--dual-era")
    elif kind in ("sdk-http-json", "sdk-http-sse"):
        command = [sys.executable, str(SDK_SERVER), "http"]
        if kind.endswith("json"):
            command.append("--json")
        if dual_era:
            raise ValueError(f"{kind} is dual-era already; dual_era is for the minimal servers")
    else:
        raise ValueError(f"unknown HTTP server {kind!r}")
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
    try:
        port = _read_port(process, START_TIMEOUT)
        _wait_listening(port, START_TIMEOUT)
        yield HttpServer(kind, f"http://127.0.0.1:{port}/mcp", process.pid)
    finally:
        kill(process)


@dataclass(frozen=True)
class HttpServerFarm:
    """Many minimal HTTP MCP servers (one port each) in a few processes; ``started_s`` is how long they took
    from the first spawn until every port listened."""

    urls: list[str]
    pids: list[int]
    started_s: float


@contextlib.contextmanager
def http_server_farm(servers: int, processes: int) -> Iterator[HttpServerFarm]:
    """Start ``servers`` endpoints of ``echo_http_server.py`` spread over ``processes`` processes."""
    shares = [servers // processes + (1 if index < servers % processes else 0) for index in range(processes)]
    started = time.perf_counter()
    children = [
        subprocess.Popen(
            [sys.executable, str(ECHO_HTTP_SERVER), "--ports", str(share)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
        )
        for share in shares
        if share
    ]
    try:
        ports: list[int] = []
        for child in children:
            line = _read_line(child, START_TIMEOUT)
            if not line.startswith("PORTS "):
                raise RuntimeError(f"unexpected first line from the server: {line[:80]!r}")
            ports += [int(port) for port in line.split()[1:]]
        for port in ports:
            _wait_listening(port, START_TIMEOUT)
        started_s = time.perf_counter() - started
        urls = [f"http://127.0.0.1:{port}/mcp" for port in ports]
        yield HttpServerFarm(urls, [child.pid for child in children], started_s)
    finally:
        for child in children:
            kill(child)


def _read_line(process: subprocess.Popen[bytes], timeout: float, what: str = "its ports") -> str:
    """The server's first line of output (where it says ``what``), within ``timeout`` seconds."""
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    buffer = b""
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while b"\n" not in buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or process.poll() is not None:
                raise RuntimeError(f"the server did not say {what} (exit code {process.poll()})")
            if selector.select(min(remaining, 0.5)):
                chunk = os.read(process.stdout.fileno(), 1 << 16)
                if not chunk:
                    raise RuntimeError(f"the server closed its stdout before saying {what}")
                buffer += chunk
    return buffer.split(b"\n", 1)[0].decode()


def _read_port(process: subprocess.Popen[bytes], timeout: float) -> int:
    line = _read_line(process, timeout, "its port")
    if not line.startswith("PORT "):
        raise RuntimeError(f"unexpected first line from the server: {line!r}")
    return int(line.split()[1])


def _wait_listening(port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1.0):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.01)


@contextlib.contextmanager
def cpu_hog(seconds: float = 600.0) -> Iterator[int]:
    """Keep one CPU busy with another process (a bounded busy loop) while the context lasts; yield its pid.

    For figures "on a busy machine": an agent's host also runs the model's tooling, builds, tests.
    """
    code = f"import time\nend = time.monotonic() + {seconds}\nwhile time.monotonic() < end:\n    pass\n"
    process = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.DEVNULL)
    try:
        yield process.pid
    finally:
        kill(process)


_PING = b'{"jsonrpc":"2.0","id":0,"method":"ping"}\n'


def spawn_to_first_answer(command: list[str], timeout: float = 30.0) -> float:
    """Seconds from spawning ``command`` to reading its answer to one ``ping``: the bare process cost.

    What every stdio client pays before any protocol work (interpreter start-up, imports, the pipe round
    trip), measured with no library: the floor that connect times are compared against. The process gets
    its own session as mcp-troupe's do (``start_new_session``; on Linux that alone makes spawning under
    load up to 2-4x faster, so a floor without it would flatter every client).
    """
    started = time.perf_counter()
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(_PING)
        process.stdin.flush()
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            if not selector.select(timeout):
                raise RuntimeError(f"no answer to ping within {timeout} s")
        line = process.stdout.readline()
        elapsed = time.perf_counter() - started
        if json.loads(line).get("id") != 0:
            raise RuntimeError(f"bad answer to ping: {line!r}")
        return elapsed
    finally:
        kill(process)
