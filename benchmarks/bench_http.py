"""Side-by-side call latency, CPU, throughput and connect cost of MCP clients over Streamable HTTP.

Run it alone as ``python benchmarks/bench_http.py [--quick] [--clients troupe,sdk,raw]``, or through
``benchmarks/run_all.py``.

Servers (each started once, on 127.0.0.1, and shared by the clients in turn; every client opens its own
session): ``echo_http_server.py`` (the minimal raw-asyncio server) answering with JSON bodies and with SSE
streams, and ``sdk_server.py http`` (the official SDK's ``MCPServer``) with ``json_response`` True and
False. Clients: ``troupe`` (mcp-troupe's HTTP transport, ``network_policy="allow"``), ``sdk``
(``ClientSession`` over ``streamable_http_client``), ``raw`` (asyncio streams, hand-written HTTP/1.1, at most
100 keep-alive connections like httpx's default pool). Figures, as in ``bench_stdio``::

    http.json.seq.p50.<client>          us    minimal server, JSON responses (p99, cpu likewise)
    http.sse.seq.p50.<client>           us    minimal server, SSE responses
    http.sdkserver.json.seq.p50.<client>
    http.sdkserver.sse.seq.p50.<client>
    http.<...>.inflight100.<client>     calls/s
    <figure>.ratio_<a>_<b>              x

The HTTP layer alone (``http.io.json``): the same sequential ``tools/call`` POSTs against the minimal JSON
server, on the benchmark's loop, with no MCP client around them: ``httpx`` (an ``httpx.AsyncClient`` over
the transport's lane pools, as mcp-troupe sent its requests before ``actors/h1.py``), ``h1``
(:class:`mcp_troupe.actors.h1.Http1Client`, what it sends them with now) and ``raw`` (the floor). What the
I/O layer itself costs per request, apart from everything above it.

Connect (``connect.http``): each client from nothing to "initialised and every tool listed" against the
running minimal JSON server (mcp-troupe: ``start()`` to ``wait_ready()``, actor start-up and the policy
pass included). No process is spawned, so the figure is the client's own cost (and the server's tiny one).

The modern era (``http.sdkserver.modern``): the SDK's server speaks both eras; ``sdk`` is ``mcp.Client``
pinned to ``2026-07-28`` and ``troupe`` runs with ``ServerConfig(protocol="2026-07-28")`` when this
mcp-troupe has that option (else the figure is skipped, with a problem line saying so). Each is measured
beside its legacy twin on the same server in the same rounds (``sdk_legacy``: ``mode="legacy"``;
``troupe_legacy``: ``protocol="2025-11-25"``), so ``ratio_<client>_legacy`` compares neighbours in time.
Its sequential figures come from paired rounds (three times the usual number, at least 7; twins side by
side, the order reversed every other round): ``ratio_<client>_legacy`` is the median of the rounds' own
ratios, with ``.q1``/``.q3`` (the spread) and ``.rounds_below_1`` (the share of rounds the modern twin was
cheaper) beside it; ``seq.server_cpu.<client>`` is the server's CPU per call (``/proc``), which says how
much of a p50 difference is the server's.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_stdio import connect_clients, measure_rounds
from benchmarks.clients import (
    CALL_TIMEOUT,
    PROTOCOL_VERSION,
    Aborted,
    RawHttpClient,
    SdkClient,
    SdkModernClient,
    TroupeAcallClient,
    TroupeClient,
    inflight_async,
    sequential_async,
    troupe_protocol_option,
)
from benchmarks.servers import http_server
from benchmarks.stats import (
    Figures,
    Settings,
    add_subset_option,
    median,
    percentile,
    progress,
    ratio,
    write_report,
)

DEFAULT_JSON = Path(__file__).resolve().parent / "results" / "http.json"
SERVERS = {
    "echo-http-json": "http.json",
    "echo-http-sse": "http.sse",
    "sdk-http-json": "http.sdkserver.json",
    "sdk-http-sse": "http.sdkserver.sse",
}
MODERN_PROTOCOL = "2026-07-28"
LEGACY_PROTOCOL = (
    "2025-11-25"  # the newest handshake-era revision, what a dual-era server offers legacy clients
)
IO_CLIENTS = ("httpx", "h1", "raw")


def troupe_http_available() -> bool:
    """Whether this mcp-troupe has its Streamable HTTP transport yet."""
    try:
        import mcp_troupe.actors.http  # noqa: F401
    except ImportError:
        return False
    return True


# troupe_shared (io_loop on the benchmark's loop) is a stdio figure: over HTTP a fourth client only
# lengthens the idle gaps between each client's rounds.
CLIENTS = ("troupe", "sdk", "raw")
# Opt-in (--clients): mcp-troupe with its requests carried by httpx as before actors/h1.py, side by side.
OPTIONAL_CLIENTS = ("troupe_httpx",)


def connect_troupe_httpx(stack: AsyncExitStack, url: str) -> TroupeClient:
    """A troupe whose HTTP transport uses httpx (its fallback) instead of the lean client: the "before"."""
    import mcp_troupe.actors.http as transport
    import mcp_troupe.actors.http_pool as pool

    original = transport.is_supported
    # Read when the connection opens: by the transport (is TLS needed?) and by the client's choice.
    transport.is_supported = pool.is_supported = lambda url, proxy: False
    try:
        client = TroupeClient.connect(stack, None, [url])
    finally:
        transport.is_supported = pool.is_supported = original
    client.name = "troupe_httpx"
    return client


async def run_group(
    figures: Figures,
    settings: Settings,
    names: tuple[str, ...] = CLIENTS,
    servers: tuple[str, ...] = (*SERVERS, "modern"),
) -> None:
    """Every HTTP latency, throughput and connect figure (``servers``: which of ``SERVERS``, ``modern``)."""
    if "troupe" in names and not troupe_http_available():
        figures.problem("http.troupe skipped: mcp_troupe.actors.http does not exist yet")
        names = tuple(name for name in names if not name.startswith("troupe"))
    for kind, prefix in SERVERS.items():
        if kind not in servers:
            continue
        progress(f"{prefix}: starting {kind}")
        sdk_server = kind.startswith("sdk")
        stage = "measuring"
        try:
            with http_server(kind) as server:
                async with AsyncExitStack() as stack:
                    clients = await connect_clients(stack, names, figures, prefix, urls=[server.url])
                    if "troupe_httpx" in names:
                        clients.append(connect_troupe_httpx(stack, server.url))
                    await measure_rounds(
                        clients, figures, prefix, repeat=settings.repeat,
                        calls=settings.http_calls // (3 if sdk_server else 1),
                        warmup=min(settings.warmup, 50), inflight=settings.http_inflight,
                        total=settings.http_total // (2 if sdk_server else 1), deadline=settings.deadline,
                    )  # fmt: skip
                    stage = "closing the clients (the figures stand)"
                for figure in ("seq.p50", "seq.p99", "seq.cpu", f"inflight{settings.http_inflight}"):
                    name = f"{prefix}.{figure}"
                    figures.add_ratio(
                        f"{name}.ratio_troupe_troupe_httpx", f"{name}.troupe", f"{name}.troupe_httpx"
                    )
                if kind == "echo-http-json":
                    stage = "measuring the HTTP layer alone"
                    await measure_io_layer(figures, settings, server.url)
                    stage = "measuring connect"
                    await measure_connect(figures, settings, server.url, names)
        except Exception as exc:
            detail = exc.exceptions[0] if isinstance(exc, ExceptionGroup) else exc
            figures.problem(f"{prefix}: error while {stage}: {type(detail).__name__}: {detail}")
    if "modern" in servers:
        await measure_modern(figures, settings, names)


# ---- the HTTP layer alone ----------------------------------------------------------------------------------


class IoLayerClient:
    """One HTTP client library POSTing ``tools/call`` as the transport does, with no MCP client around it."""

    def __init__(self, name: str, client: Any, url: str) -> None:
        self.name = name
        self.client = client
        self.url = url
        self.headers = {
            "User-Agent": "bench",
            "Accept": "application/json, text/event-stream",
            "Content-Type": "application/json",
        }
        self._next_id = 0

    @classmethod
    async def connect(cls, stack: AsyncExitStack, name: str, url: str) -> IoLayerClient:
        """Build the library's client, open a session (initialize, initialized); the stack closes it."""
        import httpx

        from mcp_troupe.actors.h1 import Http1Client
        from mcp_troupe.actors.http_pool import Lanes, shared_ssl_context

        context = await asyncio.to_thread(shared_ssl_context)
        client: Any
        if name == "httpx":
            client = httpx.AsyncClient(transport=Lanes(context, None), timeout=httpx.Timeout(CALL_TIMEOUT))
        else:
            client = Http1Client(url, ssl_context=context, connect_timeout=CALL_TIMEOUT, max_connections=128)
        stack.push_async_callback(client.aclose)
        layer = cls(name, client, url)
        info = {"name": "bench-io", "version": "0"}
        params = {"protocolVersion": PROTOCOL_VERSION, "capabilities": {}, "clientInfo": info}
        status, headers, _ = await layer.post(layer._body("initialize", params))
        if status != 200 or not headers.get("mcp-session-id"):
            raise Aborted(f"{name}: initialize answered {status}")
        layer.headers["Mcp-Session-Id"] = headers.get("mcp-session-id")
        layer.headers["MCP-Protocol-Version"] = PROTOCOL_VERSION
        status, _, _ = await layer.post(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')
        if status != 202:
            raise Aborted(f"{name}: initialized answered {status}")
        return layer

    def _body(self, method: str, params: dict[str, Any]) -> bytes:
        self._next_id += 1
        message = {"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params}
        return json.dumps(message, separators=(",", ":")).encode()

    async def post(self, body: bytes) -> tuple[int, Any, bytes]:
        async with self.client.stream("POST", self.url, content=body, headers=self.headers) as response:
            return response.status_code, response.headers, await response.aread()

    async def call(self, text: str) -> None:
        body = self._body("tools/call", {"name": "echo", "arguments": {"text": text}})
        status, _, payload = await asyncio.wait_for(self.post(body), CALL_TIMEOUT)
        message = json.loads(payload)
        if status != 200 or message["result"]["content"][0]["text"] != text:
            raise Aborted(f"{self.name}: wrong answer {payload[:200]!r}")

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        return await sequential_async(self.call, calls, deadline)

    async def inflight(self, total: int, concurrency: int, deadline: float) -> float:
        return await inflight_async([self.call], total, concurrency, deadline)


async def measure_io_layer(figures: Figures, settings: Settings, url: str) -> None:
    """``http.io.json``: httpx (as before), h1 (now) and raw, each POSTing calls on this loop."""
    prefix = "http.io.json"
    progress(f"{prefix}: the HTTP layer alone")
    async with AsyncExitStack() as stack:
        clients: list[Any] = []
        for name in IO_CLIENTS:
            try:
                if name == "raw":
                    clients.append(await RawHttpClient.connect(stack, [url]))
                else:
                    clients.append(await IoLayerClient.connect(stack, name, url))
            except Exception as exc:
                figures.problem(f"{prefix}.{name} skipped: {type(exc).__name__}: {exc}")
        await measure_rounds(
            clients, figures, prefix, repeat=settings.repeat, calls=settings.http_calls * 2,
            warmup=min(settings.warmup, 50), inflight=settings.http_inflight, total=settings.http_total * 2,
            deadline=settings.deadline,
        )  # fmt: skip
    for figure in ("seq.p50", "seq.p99", "seq.cpu", f"inflight{settings.http_inflight}"):
        for first, second in (("h1", "raw"), ("httpx", "raw"), ("h1", "httpx")):
            name = f"{prefix}.{figure}"
            figures.add_ratio(f"{name}.ratio_{first}_{second}", f"{name}.{first}", f"{name}.{second}")


# ---- connect -----------------------------------------------------------------------------------------------


async def connect_http_once(client: str, url: str) -> float:
    """Seconds for ``client`` to go from nothing to every tool listed on ``url``; closing is not timed."""
    gc.collect()
    async with AsyncExitStack() as stack:
        started = time.perf_counter()
        if client == "raw":
            raw = await RawHttpClient.connect(stack, [url])
            elapsed = time.perf_counter() - started
            count = raw.tool_count
        elif client == "sdk":
            sdk = await SdkClient.connect(stack, urls=[url])
            elapsed = time.perf_counter() - started
            count = sdk.tool_count
        else:
            troupe = await asyncio.to_thread(TroupeClient.connect, stack, None, [url])
            elapsed = time.perf_counter() - started
            count = sum(1 for spec in await asyncio.to_thread(troupe.troupe.tools) if spec.server == "echo")
        if count < 1:
            raise Aborted(f"{client} listed no tools")
    return elapsed


async def measure_connect(figures: Figures, settings: Settings, url: str, names: tuple[str, ...]) -> None:
    """``connect.http.<client>``: connect + initialize + discovery against a running server, interleaved."""
    progress(f"connect.http: {settings.connect_repeat} rounds")
    times: dict[str, list[float]] = {}
    failed: set[str] = set()
    for round_number in range(settings.connect_repeat):
        order = list(names[round_number % len(names) :] + names[: round_number % len(names)])
        for client in order:
            if client in failed:
                continue
            try:
                times.setdefault(client, []).append(await connect_http_once(client, url))
            except Exception as exc:
                figures.problem(f"connect.http.{client} failed: {type(exc).__name__}: {exc}")
                failed.add(client)
    for client, values in times.items():
        figures.add(f"connect.http.{client}", median(values) * 1000, "ms")
    figures.add_ratio("connect.http.ratio_troupe_sdk", "connect.http.troupe", "connect.http.sdk")
    figures.add_ratio("connect.http.ratio_troupe_raw", "connect.http.troupe", "connect.http.raw")


# ---- the modern era ----------------------------------------------------------------------------------------


async def measure_modern(figures: Figures, settings: Settings, names: tuple[str, ...]) -> None:
    """``http.sdkserver.modern``: calls pinned to 2026-07-28 against the SDK's server, SDK and troupe."""
    prefix = "http.sdkserver.modern"
    if "troupe" in names and not troupe_protocol_option():
        figures.problem(
            f"{prefix}.troupe skipped: this mcp-troupe has no ServerConfig.protocol option "
            "(the 2026-07-28 era is not in its HTTP transport yet)"
        )
    progress(f"{prefix}: starting sdk-http-json")
    try:
        with http_server("sdk-http-json") as server:
            async with AsyncExitStack() as stack:
                clients: list[Any] = []
                # Each client twice, once per era, on this one server and in the same interleaved rounds:
                # the modern/legacy ratio then compares neighbours in time, not two servers started apart.
                if "sdk" in names:
                    for mode, name in ((MODERN_PROTOCOL, "sdk"), ("legacy", "sdk_legacy")):
                        try:
                            sdk = await SdkModernClient.connect(stack, [server.url], mode)
                            sdk.name = name
                            clients.append(sdk)
                        except Exception as exc:
                            figures.problem(f"{prefix}.{name} skipped: {type(exc).__name__}: {exc}")
                if "troupe" in names and troupe_protocol_option():
                    for version, name in ((MODERN_PROTOCOL, "troupe"), (LEGACY_PROTOCOL, "troupe_legacy")):
                        try:
                            troupe = TroupeClient.connect(stack, None, [server.url], protocol=version)
                            troupe.name = name
                            clients.append(troupe)
                            if name == "troupe":
                                clients.append(TroupeAcallClient(troupe))
                        except Exception as exc:
                            figures.problem(f"{prefix}.{name} skipped: {type(exc).__name__}: {exc}")
                # Sequential calls in paired rounds first (what the era ratios are made of), then the
                # in-flight figures as every group measures them.
                await measure_paired_rounds(clients, figures, prefix, settings, server.pid)
                await measure_rounds(
                    clients, figures, prefix, repeat=settings.repeat, calls=settings.http_calls // 3,
                    warmup=min(settings.warmup, 50), inflight=settings.http_inflight,
                    total=settings.http_total // 2, deadline=settings.deadline, sequential=False,
                )  # fmt: skip
    except Exception as exc:
        detail = exc.exceptions[0] if isinstance(exc, ExceptionGroup) else exc
        figures.problem(f"{prefix}: error: {type(detail).__name__}: {detail}")
    # Per call, the modern era against the legacy one on the same server (the issue: at least as fast): the
    # median of the rounds' own ratios, and its spread, so that one slow round cannot decide it.
    for client in ("troupe", "sdk"):
        for figure in ("seq.p50", "seq.p99", "seq.cpu", "seq.server_cpu"):
            name = f"{prefix}.{figure}.ratio_{client}_legacy"
            paired = figures.runs.get(f"{name}.rounds")
            if not paired:
                continue
            figures.derive(name, median(paired), "x")
            figures.derive(f"{name}.q1", percentile(paired, 0.25), "x")
            figures.derive(f"{name}.q3", percentile(paired, 0.75), "x")
            figures.derive(f"{name}.rounds_below_1", sum(r < 1.0 for r in paired) / len(paired), "x")


def paired_rounds(settings: Settings) -> int:
    """Rounds of the era pairs: three times the usual (at least 7), so that noise cannot flip the ratio."""
    return max(7, settings.repeat * 3)


def process_cpu(pid: int) -> float | None:
    """Seconds of CPU (user + system) process ``pid`` has used, from ``/proc``; None where there is none."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


async def measure_paired_rounds(
    clients: list[Any], figures: Figures, prefix: str, settings: Settings, server_pid: int
) -> None:
    """Sequential calls of every client, each era twin right beside the other, in rounds.

    Each round measures the clients in a list where ``<client>`` and ``<client>_legacy`` are neighbours,
    reversed every other round (so neither twin always goes first), and records per client the p50, p99
    and client CPU per call (this process's CPU: the server runs in its own) and the server's CPU per call;
    per twin pair it records the round's own modern/legacy ratios (``...ratio_<client>_legacy.rounds``).
    """
    calls = max(50, settings.http_calls // 3)
    warmup = 20  # opens the connection again after the others' turn (idle connections expire after 2 s)
    order = sorted(clients, key=lambda client: (client.name.removesuffix("_legacy"), client.name))
    failed: set[str] = set()
    for round_number in range(paired_rounds(settings)):
        progress(f"{prefix}: paired round {round_number + 1} of {paired_rounds(settings)}")
        measured: dict[str, dict[str, float]] = {}
        for client in order if round_number % 2 == 0 else order[::-1]:
            if client.name in failed:
                continue
            try:
                gc.collect()
                await client.sequential(warmup, time.monotonic() + settings.deadline)
                server_started = process_cpu(server_pid)
                cpu_started = time.process_time()
                latencies = await client.sequential(calls, time.monotonic() + settings.deadline)
                cpu = (time.process_time() - cpu_started) / calls * 1e6
                server_ended = process_cpu(server_pid)
            except Exception as exc:
                figures.problem(f"{prefix}.{client.name} aborted: {type(exc).__name__}: {exc}")
                failed.add(client.name)
                continue
            values = {
                "seq.p50": percentile(latencies, 0.50) / 1000,
                "seq.p99": percentile(latencies, 0.99) / 1000,
                "seq.cpu": cpu,
            }
            if server_started is not None and server_ended is not None:
                values["seq.server_cpu"] = (server_ended - server_started) / calls * 1e6
            for figure, value in values.items():
                figures.add(f"{prefix}.{figure}.{client.name}", value, "us")
            measured[client.name] = values
        for client in ("troupe", "sdk"):
            modern_values, legacy_values = measured.get(client), measured.get(f"{client}_legacy")
            if modern_values is None or legacy_values is None:
                continue
            for figure, value in modern_values.items():
                paired = ratio(value, legacy_values.get(figure))
                if paired is not None:
                    figures.add(f"{prefix}.{figure}.ratio_{client}_legacy.rounds", paired, "x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a CI-size run")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write all figures")
    add_subset_option(parser, "--clients", CLIENTS + OPTIONAL_CLIENTS, default=CLIENTS)
    add_subset_option(parser, "--servers", (*SERVERS, "modern"))
    args = parser.parse_args(argv)
    settings = Settings.quick() if args.quick else Settings()
    figures = Figures()
    asyncio.run(run_group(figures, settings, args.clients, args.servers))
    figures.print_lines()
    write_report(figures, settings, args.json)
    return 0 if figures.runs else 1


if __name__ == "__main__":
    sys.exit(main())
