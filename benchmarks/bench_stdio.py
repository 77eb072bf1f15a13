"""Side-by-side call latency and throughput of MCP clients over stdio.

Run it alone as ``python benchmarks/bench_stdio.py [--quick] [--clients troupe,sdk,raw] [--json OUT]``, or
with every other figure through ``benchmarks/run_all.py`` (``nox -s bench``).

The clients (see ``clients.py``) each talk to their own copy of the server:

- against ``echo_server.py``, the benchmark's minimal server (so the client's cost dominates): sequential
  ``tools/call`` latency p50 and p99 (``Settings.calls`` calls after a warm-up), and throughput with
  ``Settings.inflight`` (1000) calls kept in flight on one server;
- the same again while another process keeps one core busy (``stdio.busy.*``): a busy machine, and on a
  virtual machine one whose cores do not halt between calls, which changes what a thread hand-off costs;
- against 10 copies of it: throughput with 100 calls in flight spread over the 10 servers;
- against ``sdk_server.py``, the official SDK's ``MCPServer``: the same latency and a smaller throughput
  figure (that server costs about 1 ms a call here, so it dominates and the ratios approach 1).

The CPU figures are ``time.process_time()`` of the benchmark process (where every client runs; the servers
are processes of their own) over the calls: what a call costs the client, whatever else the machine is
doing, where wall-clock latency on a busy machine also counts the waits for a free core at every thread
hand-off. Each measurement is repeated ``Settings.repeat`` times with the clients interleaved (their order
rotates every round), and the median of the rounds is reported. Figure names::

    stdio.seq.p50.<client>              us        sequential call latency, median of the rounds' p50
    stdio.seq.p99.<client>              us
    stdio.seq.cpu.<client>              us        CPU time of the client process per sequential call
    stdio.inflight1000.<client>         calls/s
    stdio.inflight1000.cpu.<client>     us        CPU time of the client process per call
    stdio.busy.<figure>.<client>                  the same with one core kept busy
    stdio.multi10x100.<client>          calls/s   100 in flight over 10 servers
    stdio.sdkserver.seq.p50.<client>    us        the same against the SDK's server
    <figure>.ratio_<a>_<b>              x         latency ratios below 1 / throughput ratios above 1
                                                  mean client a is faster
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.clients import (
    Client,
    RawHttpClient,
    RawPipeClient,
    SdkClient,
    TroupeAcallClient,
    TroupeClient,
    TroupeSharedClient,
)
from benchmarks.servers import cpu_hog, echo_command, sdk_command
from benchmarks.stats import Figures, Settings, add_subset_option, percentile, progress, write_report

CLIENTS = ("troupe", "troupe_shared", "sdk", "raw")
DEFAULT_JSON = Path(__file__).resolve().parent / "results" / "stdio.json"
RATIO_PAIRS = (
    ("troupe", "sdk"),
    ("troupe_acall", "sdk"),
    ("troupe_shared", "sdk"),
    ("troupe", "raw"),
    ("sdk", "raw"),
)


async def connect_clients(
    stack: AsyncExitStack,
    names: tuple[str, ...],
    figures: Figures,
    prefix: str,
    *,
    commands: list[list[str]] | None = None,
    urls: list[str] | None = None,
) -> list[Client]:
    """Connect each named client to its own copies of the stdio servers, or to the HTTP servers at ``urls``.

    A client that cannot connect is reported as a problem and left out.
    """
    clients: list[Client] = []
    for name in names:
        try:
            if name == "troupe":
                troupe = TroupeClient.connect(stack, commands, urls)
                clients += [troupe, TroupeAcallClient(troupe)]
            elif name == "troupe_shared":
                clients.append(await TroupeSharedClient.connect(stack, commands, urls))
            elif name == "sdk":
                clients.append(await SdkClient.connect(stack, commands, urls))
            elif name == "raw" and urls:
                clients.append(await RawHttpClient.connect(stack, urls))
            elif name == "raw" and commands:
                clients.append(RawPipeClient.connect(stack, commands))
        except Exception as exc:
            figures.problem(f"{prefix}.{name} skipped: {type(exc).__name__}: {exc}")
    return clients


async def measure_rounds(
    clients: list[Client],
    figures: Figures,
    prefix: str,
    *,
    repeat: int,
    calls: int,
    warmup: int,
    inflight: int,
    total: int,
    deadline: float,
    inflight_name: str | None = None,
    sequential: bool = True,
) -> None:
    """Measure every client ``repeat`` times, interleaved; a client that fails is measured no further."""
    inflight_name = inflight_name or f"{prefix}.inflight{inflight}"
    for round_number in range(repeat):
        if not clients:
            return
        progress(f"{prefix}: round {round_number + 1} of {repeat}")
        # Rotate the order each round so that no client always runs first (or last) on a warm machine.
        shift = round_number % len(clients)
        failed = set()
        for client in clients[shift:] + clients[:shift]:
            try:
                gc.collect()
                if sequential:
                    await client.sequential(warmup, time.monotonic() + deadline)
                    cpu_started = time.process_time()
                    latencies = await client.sequential(calls, time.monotonic() + deadline)
                    cpu = (time.process_time() - cpu_started) / calls * 1e6
                    figures.add(f"{prefix}.seq.p50.{client.name}", percentile(latencies, 0.50) / 1000, "us")
                    figures.add(f"{prefix}.seq.p99.{client.name}", percentile(latencies, 0.99) / 1000, "us")
                    figures.add(f"{prefix}.seq.cpu.{client.name}", cpu, "us")
                gc.collect()
                cpu_started = time.process_time()
                seconds = await client.inflight(total, inflight, time.monotonic() + deadline)
                if seconds is not None:
                    cpu = (time.process_time() - cpu_started) / total * 1e6
                    figures.add(f"{inflight_name}.{client.name}", total / seconds, "calls/s")
                    figures.add(f"{inflight_name}.cpu.{client.name}", cpu, "us")
            except Exception as exc:
                figures.problem(f"{prefix}.{client.name} aborted: {type(exc).__name__}: {exc}")
                failed.add(client.name)
        clients = [client for client in clients if client.name not in failed]
    for first, second in RATIO_PAIRS:
        figures_compared = (
            f"{prefix}.seq.p50",
            f"{prefix}.seq.p99",
            f"{prefix}.seq.cpu",
            inflight_name,
            f"{inflight_name}.cpu",
        )
        for figure in figures_compared:
            figures.add_ratio(f"{figure}.ratio_{first}_{second}", f"{figure}.{first}", f"{figure}.{second}")


async def run_group(figures: Figures, settings: Settings, names: tuple[str, ...] = CLIENTS) -> None:
    """Every stdio latency and throughput figure."""
    async with AsyncExitStack() as stack:
        clients = await connect_clients(stack, names, figures, "stdio", commands=[echo_command()])
        await measure_rounds(
            clients, figures, "stdio", repeat=settings.repeat, calls=settings.calls,
            warmup=settings.warmup, inflight=settings.inflight, total=settings.inflight_total,
            deadline=settings.deadline,
        )  # fmt: skip
    # The same on a busy machine: another process keeps one of the cores busy (an agent's host also runs
    # builds, tests, the model's tooling). On a VM this also keeps that core from halting, and waking a
    # halted core is what makes a thread hand-off expensive: see docs/performance.md.
    async with AsyncExitStack() as stack:
        stack.enter_context(cpu_hog())
        clients = await connect_clients(stack, names, figures, "stdio.busy", commands=[echo_command()])
        await measure_rounds(
            clients, figures, "stdio.busy", repeat=settings.repeat, calls=settings.calls // 2,
            warmup=settings.warmup, inflight=settings.inflight, total=settings.inflight_total // 2,
            deadline=settings.deadline,
        )  # fmt: skip
    async with AsyncExitStack() as stack:
        servers = settings.multi_servers
        commands = [echo_command() for _ in range(servers)]
        clients = await connect_clients(stack, names, figures, "stdio.multi", commands=commands)
        clients = [client for client in clients if client.name != "troupe_acall"]
        await measure_rounds(
            clients, figures, "stdio.multi", repeat=settings.repeat, calls=0, warmup=0,
            inflight=settings.multi_inflight, total=settings.multi_total, deadline=settings.deadline,
            inflight_name=f"stdio.multi{servers}x{settings.multi_inflight}", sequential=False,
        )  # fmt: skip
    async with AsyncExitStack() as stack:
        clients = await connect_clients(stack, names, figures, "stdio.sdkserver", commands=[sdk_command()])
        await measure_rounds(
            clients, figures, "stdio.sdkserver", repeat=settings.repeat, calls=settings.sdk_server_calls,
            warmup=min(settings.warmup, 50), inflight=settings.sdk_server_inflight,
            total=settings.sdk_server_total, deadline=settings.deadline,
        )  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a CI-size run")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write all figures")
    add_subset_option(parser, "--clients", CLIENTS)
    args = parser.parse_args(argv)
    settings = Settings.quick() if args.quick else Settings()
    figures = Figures()
    asyncio.run(run_group(figures, settings, args.clients))
    figures.print_lines()
    write_report(figures, settings, args.json)
    return 0 if figures.runs else 1


if __name__ == "__main__":
    sys.exit(main())
