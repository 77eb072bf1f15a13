"""What a call costs in the modern era (2026-07-28) against the legacy one, on the same minimal server, and
whose cost a difference is: the client's, or the server's.

Run it alone as ``python benchmarks/bench_eras.py [--quick] [--transports stdio,http]``, or through
``benchmarks/run_all.py`` (the ``eras`` group of ``nox -s bench``).

Issue #13 asks that a modern call cost no more than a legacy one. The server is the benchmark's minimal one
started dual-era (``echo_server.py --dual-era`` over stdio, ``echo_http_server.py --dual-era`` for HTTP
JSON responses), so both eras meet the same code and the client's era is the only difference. A modern
request is bigger (its ``_meta`` names the version, the client's capabilities and info: about 355 bytes
against 130 for ``echo``), so the server parses more per call: that part of a gap is the server's. To tell
the two apart, three pairs of clients are measured, every one in both eras; in each round a pair's two
eras run back to back (modern first in one round, legacy first in the next; the pairs' order rotates):

- ``troupe_modern`` / ``troupe_legacy``: mcp-troupe pinned with ``ServerConfig(protocol="2026-07-28")``
  (``server/discover``, the modern ``_meta`` on every request, over HTTP the modern headers and no session,
  ``resultType`` checked) or ``protocol="legacy"`` (``initialize`` at 2025-11-25, a session over HTTP);
- ``sdk_modern`` / ``sdk_legacy``: the official SDK's ``mcp.Client`` with ``mode="2026-07-28"`` or
  ``mode="legacy"``, a reference: if its modern/legacy ratio matches ours, the gap is not the client's;
- ``raw_modern`` / ``raw_legacy``: the floor, hand-written frames (the modern ones with a ``_meta`` of the
  same size as mcp-troupe's, :data:`~benchmarks.clients.RAW_MODERN_META`): no client cost to speak of, so
  its modern/legacy ratio is what the bigger frame costs the server (and the pipe) alone.

Over stdio each client has its own copy of the server; over HTTP all share one server process. Besides
wall-clock latency, each round measures CPU: the client's (``time.process_time`` of this process, which
holds only the client under test: the servers are other processes) and the server's
(``/proc/<pid>/schedstat``, nanoseconds on a CPU, of the server processes the client talks to). Figures::

    eras.stdio.seq.p50.<client>            us        sequential call latency (p99 likewise)
    eras.stdio.seq.cpu.<client>            us        client CPU per sequential call
    eras.stdio.seq.server_cpu.<client>     us        server CPU per sequential call
    eras.stdio.inflight1000.<client>       calls/s   calls kept in flight (and .cpu, .server_cpu)
    eras.http.json.<...>                             the same over Streamable HTTP, JSON responses
    eras.<...>.ratio_modern_legacy         x         troupe_modern over troupe_legacy, the median over
                                                     rounds of each round's ratio: below 1 for latency and
                                                     CPU, above 1 for throughput, means the modern call is
                                                     cheaper (the issue's target)
    eras.<...>.ratio_sdk_modern_legacy     x         the same for the SDK client
    eras.<...>.ratio_raw_modern_legacy     x         the same for the raw floor
    eras.<...>.seq.p50.modern_extra.<pair> us        modern minus legacy p50, per pair
    eras.<...>.instructions.troupe_<era>   instr     client instructions per call, counted under
                                                     callgrind (era_instructions.py; needs Valgrind)
    eras.<...>.instructions.ratio_modern_legacy  x   their modern/legacy ratio
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import era_instructions
from benchmarks.clients import (
    CALL_TIMEOUT,
    RAW_MODERN_META,
    Aborted,
    Client,
    RawHttpClient,
    RawPipeClient,
    TroupeClient,
    inflight_async,
    sequential_async,
    troupe_protocol_option,
)
from benchmarks.servers import echo_command, http_server
from benchmarks.stats import Figures, Settings, add_subset_option, percentile, progress, write_report

DEFAULT_JSON = Path(__file__).resolve().parent / "results" / "eras.json"
MODERN = "2026-07-28"
ERAS = {"troupe_modern": MODERN, "troupe_legacy": "legacy"}
"""Client name → the ``protocol`` pin it runs with."""
PAIRS = ("troupe", "sdk", "raw")
"""The clients measured in both eras: ``<pair>_modern`` and ``<pair>_legacy``."""
TRANSPORTS = ("stdio", "http")
RATIO_NAMES = {
    "troupe": "ratio_modern_legacy",
    "sdk": "ratio_sdk_modern_legacy",
    "raw": "ratio_raw_modern_legacy",
}


# ---- server CPU: the processes a client talks to -------------------------------------------------------


def child_pids() -> set[int]:
    """This process's children (every thread's), from ``/proc``."""
    found: set[int] = set()
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/children") as file:
                found.update(int(pid) for pid in file.read().split())
        except OSError:
            continue  # a thread that just ended
    return found


def cpu_ns(pids: tuple[int, ...]) -> int:
    """Nanoseconds on a CPU so far, over every thread of ``pids`` (``/proc/<pid>/task/*/schedstat``)."""
    total = 0
    for pid in pids:
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue  # gone: it counts for nothing from now on
        for task in tasks:
            try:
                with open(f"/proc/{pid}/task/{task}/schedstat") as file:
                    total += int(file.read().split()[0])
            except (OSError, ValueError, IndexError):
                continue
    return total


class EraClient:
    """A client of one era and the server processes it talks to (whose CPU is its server CPU)."""

    def __init__(self, name: str, client: Client, servers: tuple[int, ...]) -> None:
        self.name = name
        self.client = client
        self.servers = servers


# ---- the SDK in both eras ----------------------------------------------------------------------------------


class SdkEraClient:
    """The official SDK's high-level ``mcp.Client`` with ``mode=`` an era: ``"legacy"`` (the initialize
    handshake) or a modern version pin (no probe, every request self-describing), over stdio or HTTP."""

    def __init__(self, name: str, client: Any) -> None:
        self.name = name
        self.client = client

    @classmethod
    async def connect(
        cls, stack: AsyncExitStack, name: str, mode: str, command: list[str] | None, url: str | None
    ) -> SdkEraClient:
        from mcp import Client, StdioServerParameters

        target: Any = url if url is not None else None
        if command is not None:
            target = StdioServerParameters(command=command[0], args=command[1:])
        client = await stack.enter_async_context(Client(target, mode=mode))  # type: ignore[arg-type]
        era = cls(name, client)
        await client.list_tools()
        await era.call("warm")
        return era

    async def call(self, text: str) -> None:
        result = await self.client.call_tool("echo", {"text": text}, read_timeout_seconds=CALL_TIMEOUT)
        if result.is_error or result.content[0].text != text:
            raise Aborted(f"wrong answer: {result!r}")

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        return await sequential_async(self.call, calls, deadline)

    async def inflight(self, total: int, concurrency: int, deadline: float) -> float:
        return await inflight_async([self.call], total, concurrency, deadline)


# ---- connecting -----------------------------------------------------------------------------------------


async def connect_pairs(
    stack: AsyncExitStack, figures: Figures, prefix: str, *, stdio: bool, url: str | None, url_pid: int
) -> list[EraClient]:
    """Every pair's two clients, each checked to speak the era it was pinned to; a client that cannot
    connect is reported as a problem and left out."""
    clients: list[EraClient] = []
    for pair in PAIRS:
        for era in ("modern", "legacy"):
            name = f"{pair}_{era}"
            before = child_pids()
            command = echo_command(dual_era=True) if stdio else None
            try:
                client: Any
                if pair == "troupe":
                    protocol = ERAS[name]
                    commands, urls = ([command], None) if command else (None, [url])
                    client = TroupeClient.connect(stack, commands, urls, protocol=protocol)  # type: ignore[arg-type]
                    (status,) = client.troupe.status()
                    if (status.protocol_version == MODERN) != (era == "modern"):
                        raise RuntimeError(
                            f"pinned {protocol!r}, the connection speaks {status.protocol_version}"
                        )
                    client.name = name
                elif pair == "sdk":
                    client = await SdkEraClient.connect(
                        stack, name, MODERN if era == "modern" else "legacy", command, url
                    )
                else:
                    meta = RAW_MODERN_META if era == "modern" else None
                    if command is not None:
                        client = RawPipeClient.connect(stack, [command], meta)
                    else:
                        client = await RawHttpClient.connect(stack, [url or ""], meta)
                    client.name = name
                servers = tuple(sorted(child_pids() - before)) if stdio else (url_pid,)
                if not servers:
                    raise RuntimeError("could not tell which process is its server")
                clients.append(EraClient(name, client, servers))
            except Exception as exc:
                detail = exc.exceptions[0] if isinstance(exc, ExceptionGroup) else exc
                figures.problem(f"{prefix}.{name} skipped: {type(detail).__name__}: {detail}")
    return clients


# ---- measuring ------------------------------------------------------------------------------------------


async def measure_one(
    era: EraClient,
    figures: Figures,
    prefix: str,
    *,
    calls: int,
    warmup: int,
    inflight: int,
    total: int,
    deadline: float,
) -> dict[str, float]:
    """One round of one client: sequential calls, then calls in flight; its figures by name."""
    client, found = era.client, {}
    gc.collect()
    await client.sequential(warmup, time.monotonic() + deadline)
    server_started, cpu_started = cpu_ns(era.servers), time.process_time()
    latencies = await client.sequential(calls, time.monotonic() + deadline)
    found["seq.cpu"] = (time.process_time() - cpu_started) / calls * 1e6
    found["seq.server_cpu"] = (cpu_ns(era.servers) - server_started) / calls / 1e3
    found["seq.p50"] = percentile(latencies, 0.50) / 1000
    found["seq.p99"] = percentile(latencies, 0.99) / 1000
    gc.collect()
    server_started, cpu_started = cpu_ns(era.servers), time.process_time()
    seconds = await client.inflight(total, inflight, time.monotonic() + deadline)
    found[f"inflight{inflight}.cpu"] = (time.process_time() - cpu_started) / total * 1e6
    found[f"inflight{inflight}.server_cpu"] = (cpu_ns(era.servers) - server_started) / total / 1e3
    found[f"inflight{inflight}"] = total / seconds
    for figure, value in found.items():
        figures.add(
            f"{prefix}.{figure}.{era.name}", value, "calls/s" if figure == f"inflight{inflight}" else "us"
        )
    return found


async def measure(
    clients: list[EraClient],
    figures: Figures,
    prefix: str,
    *,
    repeat: int,
    calls: int,
    warmup: int,
    inflight: int,
    total: int,
    deadline: float,
) -> None:
    """Measure every client ``repeat`` times; a client that fails is measured no further.

    The two eras of a pair run back to back (A,B in one round, B,A in the next) and each round's
    modern/legacy ratio is recorded: a ratio of neighbours in time, which load that drifts over the run
    (a shared machine) moves far less than it moves the figures themselves. The pairs' order rotates too.
    """
    by_pair = {pair: [era for era in clients if era.name.startswith(f"{pair}_")] for pair in PAIRS}
    for round_number in range(repeat):
        progress(f"{prefix}: round {round_number + 1} of {repeat}")
        pairs = [pair for pair in PAIRS if by_pair[pair]]
        if not pairs:
            return
        shift = round_number % len(pairs)
        for pair in pairs[shift:] + pairs[:shift]:
            eras = by_pair[pair] if round_number % 2 == 0 else by_pair[pair][::-1]
            found: dict[str, dict[str, float]] = {}
            for era in eras:
                try:
                    found[era.name] = await measure_one(
                        era, figures, prefix, calls=calls, warmup=warmup, inflight=inflight, total=total,
                        deadline=deadline,
                    )  # fmt: skip
                except Exception as exc:
                    figures.problem(f"{prefix}.{era.name} aborted: {type(exc).__name__}: {exc}")
                    by_pair[pair] = [other for other in by_pair[pair] if other is not era]
            modern, legacy = found.get(f"{pair}_modern"), found.get(f"{pair}_legacy")
            if modern is None or legacy is None:
                continue
            for figure, value in modern.items():
                if legacy[figure] > 0:
                    figures.add(f"{prefix}.{figure}.{RATIO_NAMES[pair]}", value / legacy[figure], "x")


def add_era_ratios(figures: Figures, prefix: str, inflight: int) -> None:
    """Each pair's ``seq.p50.modern_extra.<pair>``: modern minus legacy p50 (µs, medians over rounds).

    The ratios themselves are recorded round by round by :func:`measure` (the median of paired ratios).
    """
    for pair in PAIRS:
        modern, legacy = (figures.value(f"{prefix}.seq.p50.{pair}_{era}") for era in ("modern", "legacy"))
        if modern is not None and legacy is not None:
            figures.derive(f"{prefix}.seq.p50.modern_extra.{pair}", modern - legacy, "us")


def summary(figures: Figures, prefix: str, inflight: int) -> list[str]:
    """A table of every pair's modern/legacy ratios (what decides the target, and whose cost a gap is)."""
    columns = (
        ("client CPU", "seq.cpu"),
        ("server CPU", "seq.server_cpu"),
        ("p50", "seq.p50"),
        ("p99", "seq.p99"),
        (f"{inflight} in flight", f"inflight{inflight}"),
    )
    lines = [
        f"{prefix}: modern/legacy (median of each round's ratio; < 1 is cheaper, in flight > 1 is faster)"
    ]
    lines.append(f"  {'client':<8}" + "".join(f"{label:>16}" for label, _ in columns))
    for pair in PAIRS:
        values = (figures.value(f"{prefix}.{figure}.{RATIO_NAMES[pair]}") for _, figure in columns)
        cells = "".join(f"{'-' if value is None else f'{value:.3f}':>16}" for value in values)
        lines.append(f"  {pair:<8}{cells}")
    return lines


async def run_group(figures: Figures, settings: Settings, transports: tuple[str, ...] = TRANSPORTS) -> None:
    """The modern-vs-legacy figures over each of ``transports``."""
    if not troupe_protocol_option():
        figures.problem("eras skipped: this mcp-troupe has no ServerConfig.protocol option")
        return
    if "stdio" in transports:
        prefix = "eras.stdio"
        progress(f"{prefix}: troupe, sdk and raw in both eras, each with its own dual-era echo_server.py")
        async with AsyncExitStack() as stack:
            clients = await connect_pairs(stack, figures, prefix, stdio=True, url=None, url_pid=0)
            await measure(
                clients, figures, prefix, repeat=settings.repeat, calls=settings.calls,
                warmup=settings.warmup, inflight=settings.inflight, total=settings.inflight_total,
                deadline=settings.deadline,
            )  # fmt: skip
        add_era_ratios(figures, prefix, settings.inflight)
        for line in summary(figures, prefix, settings.inflight):
            progress(line)
    if "http" in transports:
        prefix = "eras.http.json"
        progress(f"{prefix}: troupe, sdk and raw in both eras on one dual-era echo_http_server.py")
        try:
            with http_server("echo-http-json", dual_era=True) as server:
                async with AsyncExitStack() as stack:
                    clients = await connect_pairs(
                        stack, figures, prefix, stdio=False, url=server.url, url_pid=server.pid
                    )
                    await measure(
                        clients, figures, prefix, repeat=settings.repeat, calls=settings.http_calls,
                        warmup=min(settings.warmup, 50), inflight=settings.http_inflight,
                        total=settings.http_total, deadline=settings.deadline,
                    )  # fmt: skip
        except Exception as exc:
            detail = exc.exceptions[0] if isinstance(exc, ExceptionGroup) else exc
            figures.problem(f"{prefix}: error: {type(detail).__name__}: {detail}")
        add_era_ratios(figures, prefix, settings.http_inflight)
        for line in summary(figures, prefix, settings.http_inflight):
            progress(line)
    # The timed ratios above scatter by 10-30 % between runs here; the client's instructions per call do
    # not (era_instructions.py): the figure that can tell a few per cent apart.
    era_instructions.run_group(figures, settings, transports)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a CI-size run")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write all figures")
    add_subset_option(parser, "--transports", TRANSPORTS)
    args = parser.parse_args(argv)
    settings = Settings.quick() if args.quick else Settings()
    figures = Figures()
    asyncio.run(run_group(figures, settings, args.transports))
    figures.print_lines()
    write_report(figures, settings, args.json)
    return 0 if figures.runs else 1


if __name__ == "__main__":
    sys.exit(main())
