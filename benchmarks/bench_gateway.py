"""A gateway's scale: many Streamable HTTP servers in one client process (1,000 full size, 100 quick).

Run it alone as ``python benchmarks/bench_gateway.py [--quick]``, or through ``benchmarks/run_all.py``
(group ``gateway``).

The servers are ``echo_http_server.py --ports N``: every endpoint is a server of its own (its own port,
hence its own origin, connection pool and session), a few processes serve them all
(``Settings.gateway_processes``) so that the machine is not filled with interpreters. Loopback only, every
loop bounded in count and time, every process killed by its pid at the end. Each round:

- ``gateway.start``: the servers' own start-up, from the first spawn until every port listens (the floor
  the target compares against);
- ``troupe`` (a fresh Python process, ``--phase troupe``): one ``Troupe`` with every endpoint as a server,
  ``start()`` to ``wait_ready()`` with all ready (initialize, listing, policy), RSS and OS threads per
  server (``VmRSS`` / ``Threads`` after minus before, over the servers), then one call to every server;
- ``raw`` (a fresh process too): the floor client, initialize and list every endpoint, 100 at a time.

Figures::

    gateway.start                          s
    gateway.ready.troupe / .raw            s
    gateway.ready_cpu.troupe / .raw        s      client CPU until all ready (robust on a shared machine)
    gateway.ready.ratio_troupe_start       x      target: <= 2
    gateway.rss_per_server.troupe          KiB    target: <= 200
    gateway.threads_per_server.troupe      count  target: <= 3; what each server adds (the troupe's own
                                                  I/O loop and registry threads, 2 whatever the number of
                                                  servers, are not spread over them)
    gateway.threads_per_server_with_shared.troupe  count  the same with those 2 spread over the servers
    gateway.calls_ok.troupe                count  (of the servers: all must answer)
    gateway.stop.troupe / stop_cpu.troupe  s      ``stop()`` of that troupe: wall time and client CPU (every
                                                  server's close: DELETE, the client closed, the actors)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_scale import _delta, _snapshot
from benchmarks.clients import CALL_TIMEOUT, Aborted, RawHttpClient, TroupeClient
from benchmarks.servers import http_server_farm, kill
from benchmarks.stats import Figures, Settings, progress, write_report

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_JSON = Path(__file__).resolve().parent / "results" / "gateway.json"
PHASE_TIMEOUT = 300.0
# The thread kinds (names without their numbers) a troupe has once, whatever the number of its servers.
TROUPE_THREADS = ("mcp-troupe-io", "RegistryActor")


def phase_troupe(urls: list[str]) -> dict[str, Any]:
    """One troupe holding every URL: ready time, RSS and threads per server, a call to each."""
    from mcp_troupe import Troupe

    config = TroupeClient.config(urls=urls)
    troupe = Troupe(config)
    before = _snapshot()
    try:
        started, cpu_started = time.perf_counter(), time.process_time()
        troupe.start()
        settled = troupe.wait_ready(timeout=PHASE_TIMEOUT)
        ready_s = time.perf_counter() - started
        cpu_s = time.process_time() - cpu_started
        ready = sum(1 for status in troupe.status() if status.state == "ready")
        if not settled or ready != len(urls):
            raise Aborted(f"{ready} of {len(urls)} servers ready")
        after = _snapshot()
        handles = [
            troupe.submit(f"mcp__{name}__echo", {"text": name}, timeout=CALL_TIMEOUT * 3)
            for name in config.servers
        ]
        calls_ok = 0
        for handle, name in zip(handles, config.servers, strict=True):
            result = handle.result(CALL_TIMEOUT * 6)
            calls_ok += not result.is_error and result.text == name
    finally:
        stop_started, stop_cpu_started = time.perf_counter(), time.process_time()
        troupe.stop()
        stop_s = time.perf_counter() - stop_started
        stop_cpu_s = time.process_time() - stop_cpu_started
    delta = _delta(before, after, len(urls))
    # The troupe's own threads (its I/O loop and registry) are there once whatever the number of servers;
    # "threads per server" is what each server adds. The figure with them spread over the servers is kept too.
    shared = sum(
        round(delta["py_threads_per_server_by_kind"].get(kind, 0.0) * len(urls)) for kind in TROUPE_THREADS
    )
    return {
        "ready_s": ready_s,
        "cpu_s": cpu_s,
        "calls_ok": calls_ok,
        "stop_s": stop_s,
        "stop_cpu_s": stop_cpu_s,
        **delta,
        "os_threads_per_server_with_shared": delta["os_threads_per_server"],
        "os_threads_per_server": (after["os_threads"] - before["os_threads"] - shared) / len(urls),
        "troupe_threads": shared,
    }


def phase_raw(urls: list[str]) -> dict[str, Any]:
    """The floor client: initialize and list every endpoint, at most 100 handshakes at a time."""

    async def main() -> tuple[float, float]:
        limit = asyncio.Semaphore(100)

        async def one(url: str) -> None:
            async with limit, AsyncExitStack() as stack:
                await RawHttpClient.connect(stack, [url])

        started, cpu_started = time.perf_counter(), time.process_time()
        async with asyncio.timeout(PHASE_TIMEOUT):
            await asyncio.gather(*(one(url) for url in urls))
        return time.perf_counter() - started, time.process_time() - cpu_started

    ready_s, cpu_s = asyncio.run(main())
    return {"ready_s": ready_s, "cpu_s": cpu_s}


PHASES = {"troupe": phase_troupe, "raw": phase_raw}


def run_phase(phase: str, urls: list[str]) -> dict[str, Any]:
    """Run one phase in a fresh Python process (the URLs in a file) and return its JSON result."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(urls, handle)
        path = handle.name
    try:
        command = [sys.executable, "-m", "benchmarks.bench_gateway", "--phase", phase, "--urls", path]
        process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE)
        try:
            output, _ = process.communicate(timeout=PHASE_TIMEOUT + 60)
        finally:
            kill(process)
    finally:
        os.unlink(path)
    if process.returncode != 0:
        raise Aborted(f"the {phase} phase exited with code {process.returncode}")
    result: dict[str, Any] = json.loads(output.decode().strip().splitlines()[-1])
    return result


async def run_group(figures: Figures, settings: Settings) -> dict[str, Any]:
    """The gateway figures; return every phase's full result for the JSON report."""
    servers, processes = settings.gateway_servers, settings.gateway_processes
    details: dict[str, Any] = {}
    for round_number in range(settings.scale_repeat):
        progress(f"gateway: round {round_number + 1}, {servers} HTTP servers in {processes} processes")
        try:
            with http_server_farm(servers, processes) as farm:
                figures.add("gateway.start", farm.started_s, "s")
                phases = ["troupe", "raw"][round_number % 2 :] + ["troupe", "raw"][: round_number % 2]
                for phase in phases:
                    progress(f"gateway: {phase} with {servers} servers (a process of its own)")
                    try:
                        result = await asyncio.to_thread(run_phase, phase, farm.urls)
                    except Exception as exc:
                        figures.problem(f"gateway.{phase} failed: {type(exc).__name__}: {exc}")
                        continue
                    details.setdefault(phase, []).append(result)
                    figures.add(f"gateway.ready.{phase}", result["ready_s"], "s")
                    figures.add(f"gateway.ready_cpu.{phase}", result["cpu_s"], "s")
                    if phase == "troupe":
                        figures.add("gateway.rss_per_server.troupe", result["rss_per_server_kib"], "KiB")
                        figures.add(
                            "gateway.threads_per_server.troupe", result["os_threads_per_server"], "count"
                        )
                        figures.add(
                            "gateway.threads_per_server_with_shared.troupe",
                            result["os_threads_per_server_with_shared"],
                            "count",
                        )
                        figures.add("gateway.calls_ok.troupe", result["calls_ok"], "count")
                        figures.add("gateway.stop.troupe", result["stop_s"], "s")
                        figures.add("gateway.stop_cpu.troupe", result["stop_cpu_s"], "s")
        except Exception as exc:
            figures.problem(f"gateway: round {round_number + 1} failed: {type(exc).__name__}: {exc}")
    figures.add_ratio("gateway.ready.ratio_troupe_start", "gateway.ready.troupe", "gateway.start")
    figures.add_ratio("gateway.ready.ratio_troupe_raw", "gateway.ready.troupe", "gateway.ready.raw")
    figures.add_ratio(
        "gateway.ready_cpu.ratio_troupe_raw", "gateway.ready_cpu.troupe", "gateway.ready_cpu.raw"
    )
    return details


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a CI-size run")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write all figures")
    parser.add_argument("--phase", choices=sorted(PHASES), help=argparse.SUPPRESS)
    parser.add_argument("--urls", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.phase:
        urls = json.loads(args.urls.read_text(encoding="utf-8"))
        print(json.dumps(PHASES[args.phase](urls)), flush=True)
        return 0
    settings = Settings.quick() if args.quick else Settings()
    figures = Figures()
    details = asyncio.run(run_group(figures, settings))
    figures.print_lines()
    write_report(figures, settings, args.json, {"gateway": details})
    return 0 if figures.runs else 1


if __name__ == "__main__":
    sys.exit(main())
