"""Side-by-side benchmark of MCP clients over stdio, against one fast echo server.

Run it as ``python benchmarks/bench_stdio.py [--calls N] [--inflight M] [--repeat R] [--json OUT]``.

Three clients talk to their own copy of ``benchmarks/echo_server.py`` (a stdlib server that does almost no
work, so the client's cost dominates):

- ``troupe``: mcp-troupe, ``Troupe.call`` for sequential calls and ``Troupe.acall`` under ``asyncio.gather``
  for calls in flight;
- ``sdk``: the official MCP Python SDK's ``ClientSession`` over its ``stdio_client`` (``mcp`` 2.3.0);
- ``raw``: no library at all, the floor: ``subprocess.Popen``, write a line, read a line.

For each client it measures (1) sequential ``tools/call`` latency, p50 and p99 over N calls after a warm-up of
200, and (2) throughput with M calls kept in flight (M workers each calling back to back until
``--inflight-total`` calls are done). Each measurement is repeated R times with the clients interleaved (their
order rotates every round), and the median of the R results is reported.

Output: one line per figure on stdout, ``name value unit``::

    stdio.seq.p50.sdk 445.1 us
    stdio.inflight1000.raw 61000 calls/s
    stdio.seq.p50.ratio_troupe_sdk 0.70 x

Latency ratios below 1 and throughput ratios above 1 mean the first-named client is faster. Progress and
aborts go to stderr. All figures, every round's values and the run's settings are written as JSON to
``--json`` (default ``benchmarks/results/latest.json``).

Every loop is bounded in count and in time: a client's measurement that takes longer than ``--deadline``
seconds (default 120) is abandoned with a line saying so, and that client is measured no further.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import platform
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack, suppress
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol

HERE = Path(__file__).resolve().parent
ECHO_SERVER = HERE / "echo_server.py"
DEFAULT_JSON = HERE / "results" / "latest.json"
WARMUP_CALLS = 200
CALL_TIMEOUT = 10.0
"""No single call may take longer than this (seconds); it would mean the client or server is stuck."""
CLIENTS = ("troupe", "sdk", "raw")


class Aborted(Exception):
    """A measurement ran past its deadline or its client broke; the client is measured no further."""


class Client(Protocol):
    """What the benchmark needs from each client."""

    name: str

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        """Make ``calls`` calls one after another; return each one's latency in nanoseconds."""
        ...

    async def inflight(self, total: int, concurrency: int, deadline: float) -> float:
        """Make ``total`` calls keeping ``concurrency`` in flight; return the seconds it took."""
        ...


# The floor: a JSON-RPC loop over the pipes, no library.


class RawPipeClient:
    """Speaks newline-delimited JSON-RPC to the server's pipes directly, with blocking reads and writes.

    The calls run in a worker thread (``asyncio.to_thread``) so that the event loop, and the SDK client's
    tasks on it, are not what is being measured. A blocked read cannot see a deadline, so a watchdog kills
    the server when a measurement overruns: the read then ends with EOF.
    """

    name = "raw"

    def __init__(self, command: list[str]) -> None:
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self._process.stdin is not None and self._process.stdout is not None
        self._stdin = self._process.stdin
        self._stdout = self._process.stdout
        self._next_id = 0
        self._request(
            "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": _INFO}
        )
        self._write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        self._request("tools/list", {})

    def close(self) -> None:
        """Close stdin, which ends the server, and reap it."""
        with suppress(BrokenPipeError):  # the server may be gone already
            self._stdin.close()
        try:
            self._process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._stdout.close()

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        return await asyncio.to_thread(self._watched, self._sequential, calls, deadline)

    async def inflight(self, total: int, concurrency: int, deadline: float) -> float:
        return await asyncio.to_thread(self._watched, self._inflight, total, concurrency, deadline)

    def _watched(self, measure: Callable[..., Any], *args: Any) -> Any:
        deadline = args[-1]
        watchdog = threading.Timer(max(0.0, deadline - time.monotonic()) + CALL_TIMEOUT, self._process.kill)
        watchdog.daemon = True
        watchdog.start()
        try:
            return measure(*args)
        finally:
            watchdog.cancel()

    def _sequential(self, calls: int, deadline: float) -> list[int]:
        latencies = []
        clock = time.perf_counter_ns
        for index in range(calls):
            text = f"call {index}"
            started = clock()
            request_id = self._send_call(text)
            self._check(self._read(), request_id, text)
            latencies.append(clock() - started)
            if time.monotonic() > deadline:
                raise Aborted(f"passed the deadline after {index + 1} of {calls} calls")
        return latencies

    def _inflight(self, total: int, concurrency: int, deadline: float) -> float:
        # A writer thread sends while this one reads; a semaphore of `concurrency` permits, released as each
        # answer arrives, keeps that many calls outstanding. The writer sends what permits allow in one write.
        permits = threading.Semaphore(concurrency)
        stop = threading.Event()
        first_id = self._next_id
        self._next_id += total
        failure: list[BaseException] = []

        def write_all() -> None:
            sent = 0
            try:
                while sent < total and not stop.is_set():
                    if not permits.acquire(timeout=0.1):
                        continue
                    batch = 1
                    while batch < 256 and sent + batch < total and permits.acquire(blocking=False):
                        batch += 1
                    self._write(b"".join(_call_line(first_id + sent + k, "x") for k in range(batch)))
                    sent += batch
            except BaseException as exc:
                failure.append(exc)

        writer = threading.Thread(target=write_all, name="raw-writer", daemon=True)
        started = time.perf_counter()
        writer.start()
        try:
            for received in range(total):
                self._check(self._read(), first_id + received, "x")
                permits.release()
                if received % 256 == 0 and time.monotonic() > deadline:
                    raise Aborted(f"passed the deadline after {received} of {total} calls")
            elapsed = time.perf_counter() - started
        finally:
            stop.set()
            writer.join(timeout=CALL_TIMEOUT)
            if writer.is_alive():
                # Stuck writing to a server that is stuck writing to us: end the server to free the writer.
                self._process.kill()
                writer.join(timeout=CALL_TIMEOUT)
        if failure:
            raise Aborted(f"the writer failed: {failure[0]!r}") from failure[0]
        return elapsed

    def _request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        request_id = self._next_id
        self._next_id += 1
        message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        self._write(json.dumps(message).encode() + b"\n")
        response = self._read()
        if response.get("id") != request_id or "result" not in response:
            raise Aborted(f"bad answer to {method}: {response!r}")
        return response

    def _send_call(self, text: str) -> int:
        request_id = self._next_id
        self._next_id += 1
        self._write(_call_line(request_id, text))
        return request_id

    def _write(self, data: bytes) -> None:
        self._stdin.write(data)
        self._stdin.flush()

    def _read(self) -> dict[str, Any]:
        line = self._stdout.readline()
        if not line:
            raise Aborted("the server closed its stdout (it died, or the watchdog killed it)")
        message: dict[str, Any] = json.loads(line)
        return message

    @staticmethod
    def _check(response: dict[str, Any], request_id: int, text: str) -> None:
        content = (response.get("result") or {}).get("content") or [{}]
        if response.get("id") != request_id or content[0].get("text") != text:
            raise Aborted(f"wrong answer to call {request_id}: {response!r}")


_INFO = {"name": "bench-raw", "version": "0"}


def _call_line(request_id: int, text: str) -> bytes:
    message = {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "echo", "arguments": {"text": text}},
    }
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


# The official SDK (mcp 2.3.0): ClientSession over stdio_client.


class SdkClient:
    """The official SDK's ``ClientSession`` over its ``stdio_client``, on the benchmark's event loop."""

    name = "sdk"

    def __init__(self, session: Any) -> None:
        self._session = session

    @classmethod
    async def connect(cls, stack: AsyncExitStack, command: list[str]) -> SdkClient:
        """Start the server and handshake; the stack closes the session and stops the server."""
        from mcp import ClientSession, StdioServerParameters, stdio_client

        parameters = StdioServerParameters(command=command[0], args=command[1:])
        read_stream, write_stream = await stack.enter_async_context(stdio_client(parameters))
        session = await stack.enter_async_context(ClientSession(read_stream, write_stream))
        # initialize() is the legacy handshake directly; the high-level mcp.Client would first probe
        # server/discover (mode="auto"). Listing the tools caches their output schemas; without it the SDK
        # lists them itself on the first call.
        await session.initialize()
        await session.list_tools()
        return cls(session)

    async def call(self, text: str) -> None:
        result = await self._session.call_tool("echo", {"text": text}, read_timeout_seconds=CALL_TIMEOUT)
        if result.is_error or result.content[0].text != text:
            raise Aborted(f"wrong answer: {result!r}")

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        return await _sequential_async(self.call, calls, deadline)

    async def inflight(self, total: int, concurrency: int, deadline: float) -> float:
        return await _inflight_async(self.call, total, concurrency, deadline)


# mcp-troupe: Troupe.call for sequential calls (in a worker thread), Troupe.acall for calls in flight.


class TroupeClient:
    """mcp-troupe's ``Troupe`` facade with one stdio server, ``echo``."""

    name = "troupe"
    tool = "mcp__echo__echo"

    def __init__(self, troupe: Any) -> None:
        self._troupe = troupe

    @classmethod
    def connect(cls, stack: AsyncExitStack, command: list[str]) -> TroupeClient:
        """Start the troupe and wait for the server; the stack stops the troupe."""
        from mcp_troupe import Troupe
        from mcp_troupe.config import ReconnectPolicy, TroupeConfig, stdio_server

        config = TroupeConfig(
            servers={"echo": stdio_server("echo", command[0], *command[1:])},
            reconnect=ReconnectPolicy(initial_delay=0.1, max_delay=0.5, max_attempts=0),
        )
        troupe = stack.enter_context(Troupe(config))
        if not troupe.wait_ready(timeout=30):
            raise Aborted(f"the echo server did not become ready: {troupe.status()!r}")
        return cls(troupe)

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        # The blocking API is meant for code without an event loop: give it a thread of its own.
        return await asyncio.to_thread(self._sequential, calls, deadline)

    def _sequential(self, calls: int, deadline: float) -> list[int]:
        latencies = []
        clock = time.perf_counter_ns
        call = self._troupe.call
        for index in range(calls):
            text = f"call {index}"
            started = clock()
            result = call(self.tool, {"text": text}, timeout=CALL_TIMEOUT)
            latencies.append(clock() - started)
            if result.is_error or result.text != text:
                raise Aborted(f"wrong answer: {result!r}")
            if time.monotonic() > deadline:
                raise Aborted(f"passed the deadline after {index + 1} of {calls} calls")
        return latencies

    async def acall(self, text: str) -> None:
        result = await self._troupe.acall(self.tool, {"text": text})
        if result.is_error or result.text != text:
            raise Aborted(f"wrong answer: {result!r}")

    async def inflight(self, total: int, concurrency: int, deadline: float) -> float:
        return await _inflight_async(self.acall, total, concurrency, deadline)


async def _sequential_async(call: Callable[[str], Awaitable[None]], calls: int, deadline: float) -> list[int]:
    latencies = []
    clock = time.perf_counter_ns
    for index in range(calls):
        text = f"call {index}"
        started = clock()
        await call(text)
        latencies.append(clock() - started)
        if time.monotonic() > deadline:
            raise Aborted(f"passed the deadline after {index + 1} of {calls} calls")
    return latencies


async def _inflight_async(
    call: Callable[[str], Awaitable[None]], total: int, concurrency: int, deadline: float
) -> float:
    remaining = total

    async def worker() -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1  # no await between the test and the decrement: workers cannot overshoot
            await call("x")

    started = time.perf_counter()
    # A TaskGroup rather than a bare gather: when one call fails, or the deadline passes, every other worker
    # is cancelled too instead of calling on in the background.
    try:
        async with asyncio.timeout(max(0.0, deadline - time.monotonic())), asyncio.TaskGroup() as workers:
            for _ in range(concurrency):
                workers.create_task(worker())
    except TimeoutError:
        raise Aborted(f"passed the deadline with {remaining} of {total} calls not yet sent") from None
    except ExceptionGroup as group:
        raise Aborted(f"a call failed: {group.exceptions[0]!r}") from group
    return time.perf_counter() - started


# Measuring and reporting.


@dataclass
class Results:
    """Every round's value of every figure, and what went wrong."""

    runs: dict[str, list[float]] = field(default_factory=dict)
    units: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def add(self, name: str, value: float, unit: str) -> None:
        self.runs.setdefault(name, []).append(value)
        self.units[name] = unit

    def medians(self) -> dict[str, float]:
        return {name: statistics.median(values) for name, values in self.runs.items()}


def percentile(sorted_values: list[int], fraction: float) -> float:
    """Return the nearest-rank percentile of already sorted values."""
    return float(sorted_values[max(0, math.ceil(fraction * len(sorted_values)) - 1)])


async def measure_round(clients: list[Client], args: argparse.Namespace, results: Results) -> set[str]:
    """Measure each client once, sequential then in flight; return the names of those that failed."""
    inflight = f"stdio.inflight{args.inflight}"
    failed = set()
    for client in clients:
        try:
            gc.collect()
            await client.sequential(WARMUP_CALLS, time.monotonic() + args.deadline)
            latencies = sorted(await client.sequential(args.calls, time.monotonic() + args.deadline))
            results.add(f"stdio.seq.p50.{client.name}", percentile(latencies, 0.50) / 1000, "us")
            results.add(f"stdio.seq.p99.{client.name}", percentile(latencies, 0.99) / 1000, "us")
            gc.collect()
            seconds = await client.inflight(
                args.inflight_total, args.inflight, time.monotonic() + args.deadline
            )
            results.add(f"{inflight}.{client.name}", args.inflight_total / seconds, "calls/s")
            _progress(
                f"{client.name}: p50 {percentile(latencies, 0.5) / 1000:.1f} us, "
                f"{args.inflight_total / seconds:.0f} calls/s with {args.inflight} in flight"
            )
        except Exception as exc:
            problem = f"stdio.{client.name} aborted: {exc}"
            print(problem, flush=True)
            results.problems.append(problem)
            failed.add(client.name)
    return failed


def ratios(medians: dict[str, float], inflight: int) -> dict[str, tuple[float, str]]:
    """Return the ratios between clients of the p50 latency and the in-flight throughput."""
    pairs = [("troupe", "sdk"), ("troupe", "raw"), ("sdk", "raw")]
    found: dict[str, tuple[float, str]] = {}
    for prefix in ("stdio.seq.p50", f"stdio.inflight{inflight}"):
        for first, second in pairs:
            a, b = medians.get(f"{prefix}.{first}"), medians.get(f"{prefix}.{second}")
            if a is not None and b:
                found[f"{prefix}.ratio_{first}_{second}"] = (a / b, "x")
    return found


def format_value(value: float, unit: str) -> str:
    if unit == "calls/s":
        return f"{value:.0f}"
    if unit == "x":
        return f"{value:.2f}"
    return f"{value:.1f}"


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Connect the chosen clients, measure them round by round, and return the report."""
    command = [sys.executable, str(ECHO_SERVER)]
    results = Results()
    async with AsyncExitStack() as stack:
        clients: list[Client] = []
        for name in args.clients:
            try:
                if name == "troupe":
                    clients.append(TroupeClient.connect(stack, command))
                elif name == "sdk":
                    clients.append(await SdkClient.connect(stack, command))
                else:
                    raw = RawPipeClient(command)
                    stack.callback(raw.close)
                    clients.append(raw)
            except Exception as exc:
                problem = f"stdio.{name} skipped: {type(exc).__name__}: {exc}"
                print(problem, flush=True)
                results.problems.append(problem)
        for round_number in range(args.repeat):
            if not clients:
                break
            _progress(f"round {round_number + 1} of {args.repeat}")
            # Rotate the order each round so that no client always runs first (or last) on a warm machine.
            shift = round_number % len(clients)
            failed = await measure_round(clients[shift:] + clients[:shift], args, results)
            clients = [client for client in clients if client.name not in failed]

    medians = results.medians()
    figures = {name: (value, results.units[name]) for name, value in medians.items()}
    figures.update(ratios(medians, args.inflight))
    for name, (value, unit) in figures.items():
        print(f"{name} {format_value(value, unit)} {unit}", flush=True)
    return {
        "figures": {name: {"value": value, "unit": unit} for name, (value, unit) in figures.items()},
        "runs": results.runs,
        "problems": results.problems,
        "settings": {
            "calls": args.calls,
            "warmup": WARMUP_CALLS,
            "inflight": args.inflight,
            "inflight_total": args.inflight_total,
            "repeat": args.repeat,
            "deadline_s": args.deadline,
            "clients": args.clients,
        },
        "environment": {
            "python": sys.version.split()[0],
            "implementation": platform.python_implementation(),
            "platform": platform.platform(),
            "mcp": _version("mcp"),
            "mcp-troupe": _version("mcp-troupe"),
            "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        },
    }


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="sequential calls measured per round")
    parser.add_argument("--inflight", type=int, default=1000, help="calls kept in flight")
    parser.add_argument("--inflight-total", type=int, default=5000, help="calls made per in-flight round")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the median is reported")
    parser.add_argument("--deadline", type=float, default=120.0, help="seconds one measurement may take")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write all figures")
    parser.add_argument(
        "--clients",
        type=lambda text: [name.strip() for name in text.split(",") if name.strip()],
        default=list(CLIENTS),
        help=f"comma-separated subset of {','.join(CLIENTS)}",
    )
    args = parser.parse_args(argv)
    if unknown := set(args.clients) - set(CLIENTS):
        parser.error(f"unknown clients: {', '.join(sorted(unknown))}")
    if min(args.calls, args.inflight, args.inflight_total, args.repeat) < 1 or args.deadline <= 0:
        parser.error("--calls, --inflight, --inflight-total, --repeat and --deadline must be positive")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report = asyncio.run(run(args))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    _progress(f"wrote {args.json}")
    return 1 if not report["figures"] else 0


if __name__ == "__main__":
    sys.exit(main())
