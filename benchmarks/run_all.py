"""Every benchmark figure, side by side, in one run: ``python benchmarks/run_all.py [--quick] [--json OUT]``.

``nox -s bench`` runs this (``nox -s bench -- --quick`` for the CI-size run). It prints one line per figure,
``name value unit`` (medians over the rounds; ratios below 1 for latencies and above 1 for throughputs mean
the first-named client is faster), then one ``target`` line per target of the issue saying whether it is
met, and writes everything (every round's value too) to ``benchmarks/results/latest.json``. Progress goes
to stderr. The groups, in order (``--only`` picks some):

- ``stdio``: call latency p50/p99 and throughput (1000 in flight; 100 over 10 servers), against the
  minimal server and the SDK's own server (``bench_stdio``);
- ``connect``: connect + initialize + discovery: each client's CPU per connect in worker processes of its
  own (``connect.client_cpu``, warm and cold: ``connect_cpu``), its time minus the bare spawn, and
  discovery of 10,000 tools paged 100 at a time (``bench_connect``);
- ``scale``: 100 stdio servers in one process, and recovery after kill -9 (``bench_scale``);
- ``http``: latency, CPU and throughput over Streamable HTTP, JSON and SSE responses, against the minimal
  HTTP server and the SDK's; the HTTP layer alone (httpx, ``actors/h1.py``, raw); connect + initialize +
  discovery over HTTP; the modern (2026-07-28) era where the client has it (``bench_http``);
- ``eras``: a modern (2026-07-28) call against a legacy one, the same dual-era minimal server, over stdio
  and HTTP JSON (``bench_eras``);
- ``gateway``: 1,000 Streamable HTTP servers (100 with ``--quick``) in one client process: all ready
  against the servers' own start-up, RSS and threads per server, a call to each (``bench_gateway``).

The exit code is 1 when no figure at all could be measured, else 0: a missed target is a finding, not a
failure of the harness.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import bench_connect, bench_eras, bench_gateway, bench_http, bench_scale, bench_stdio
from benchmarks.stats import Figures, Settings, format_value, progress, write_report

DEFAULT_JSON = Path(__file__).resolve().parent / "results" / "latest.json"
GROUPS = ("stdio", "connect", "scale", "http", "eras", "gateway")


@dataclass(frozen=True)
class Target:
    """One target of the issue: ``figure`` compared with ``limit`` (``at_most`` or at least)."""

    name: str
    figure: str
    limit: float
    at_most: bool = True
    origin: str = "stdio"
    """Which issue set it: the first round's (``stdio``), "Streamable HTTP as fast as stdio" (``http``) or
    the 2026-07-28 one's "a modern call costs no more than a legacy one" (``eras``)."""

    def verdict(self, figures: Figures) -> tuple[float | None, str]:
        value = figures.value(self.figure)
        if value is None:
            return None, "not measured"
        met = value <= self.limit if self.at_most else value >= self.limit
        return value, "met" if met else "MISSED"


def targets(settings: Settings) -> list[Target]:
    """The issue's targets, as figures of this run."""
    big = f"discovery.tools{settings.discovery_tools}"
    return [
        Target("stdio p50 <= 0.75x sdk", "stdio.seq.p50.ratio_troupe_sdk", 0.75),
        Target("stdio p99 <= 1.0x sdk", "stdio.seq.p99.ratio_troupe_sdk", 1.0),
        Target("stdio acall p50 <= 0.75x sdk", "stdio.seq.p50.ratio_troupe_acall_sdk", 0.75),
        Target("stdio acall p99 <= 1.0x sdk", "stdio.seq.p99.ratio_troupe_acall_sdk", 1.0),
        Target(
            "stdio acall, io_loop shared, p50 <= 0.75x sdk", "stdio.seq.p50.ratio_troupe_shared_sdk", 0.75
        ),
        Target("stdio acall, io_loop shared, p99 <= 1.0x sdk", "stdio.seq.p99.ratio_troupe_shared_sdk", 1.0),
        Target(
            f"{settings.inflight} in flight >= 2x sdk",
            f"stdio.inflight{settings.inflight}.ratio_troupe_sdk",
            2.0,
            at_most=False,
        ),
        Target(f"discovery {settings.discovery_tools} tools <= 1.5x raw", f"{big}.ratio_troupe_raw", 1.5),
        Target(f"{settings.scale_servers} servers ready <= 2x spawn", "scale.ready.ratio_troupe_spawn", 2.0),
        Target(f"{settings.scale_servers} servers RSS <= 1 MiB each", "scale.rss_per_server.troupe", 1024.0),
        *http_targets(settings),
    ]


def http_targets(settings: Settings) -> list[Target]:
    """The targets of "Streamable HTTP as fast as stdio", against the minimal servers."""
    inflight = settings.http_inflight
    gateway = settings.gateway_servers
    big = f"discovery.tools{settings.discovery_tools}"
    found: list[Target] = []
    for kind in ("json", "sse"):
        prefix = f"http.{kind}"
        found += [
            Target(f"HTTP {kind} p50 <= 0.6x sdk", f"{prefix}.seq.p50.ratio_troupe_sdk", 0.6, origin="http"),
            Target(f"HTTP {kind} p99 <= 0.8x sdk", f"{prefix}.seq.p99.ratio_troupe_sdk", 0.8, origin="http"),
            Target(
                f"HTTP {kind} {inflight} in flight >= 2x sdk",
                f"{prefix}.inflight{inflight}.ratio_troupe_sdk",
                2.0,
                at_most=False,
                origin="http",
            ),
        ]
    return [
        *found,
        Target("HTTP json p50 <= 3x raw", "http.json.seq.p50.ratio_troupe_raw", 3.0, origin="http"),
        Target("HTTP json client CPU <= 3x raw", "http.json.seq.cpu.ratio_troupe_raw", 3.0, origin="http"),
        Target(
            "modern era p50 <= legacy",
            "http.sdkserver.modern.seq.p50.ratio_troupe_legacy",
            1.0,
            origin="http",
        ),
        Target(
            "modern era client CPU <= legacy",
            "http.sdkserver.modern.seq.cpu.ratio_troupe_legacy",
            1.0,
            origin="http",
        ),
        # Issue #13: "a modern call costs no more than a legacy one", same server, one run.
        *(
            Target(
                f"modern call {label} <= legacy, {transport}",
                f"{prefix}.{figure}.ratio_modern_legacy",
                1.0,
                origin="eras",
            )
            for transport, prefix in (("stdio", "eras.stdio"), ("HTTP JSON", "eras.http.json"))
            for label, figure in (
                ("p50", "seq.p50"),
                ("client CPU", "seq.cpu"),
                ("client instructions", "instructions"),
            )
        ),
        # The client's own CPU per connect (warm: a fresh worker's second and later connects), not a
        # difference of two wall-clock timings; the cold first connect is reported beside it (connect_cpu.py).
        Target("connect client CPU <= 1.0x sdk", "connect.client_cpu.ratio_troupe_sdk", 1.0, origin="http"),
        # The same per server, each client's runtime kept (the SDK's event loop; a troupe, one server of it
        # stopped and started): the symmetric figure of the two, see connect_cpu.py's docstring.
        Target(
            "connect client CPU, runtime kept <= 1.0x sdk",
            "connect.client_cpu.reconnect.ratio_troupe_sdk",
            1.0,
            origin="http",
        ),
        Target("HTTP connect <= 1.0x sdk", "connect.http.ratio_troupe_sdk", 1.0, origin="http"),
        Target(
            f"first connect {settings.discovery_tools} tools <= 1.0x sdk",
            f"{big}.connect.ratio_troupe_sdk",
            1.0,
            origin="http",
        ),
        Target(
            f"{gateway} HTTP servers ready <= 2x their start-up",
            "gateway.ready.ratio_troupe_start",
            2.0,
            origin="http",
        ),
        Target(
            f"{gateway} HTTP servers RSS <= 200 KiB each",
            "gateway.rss_per_server.troupe",
            200.0,
            origin="http",
        ),
        Target(
            f"{gateway} HTTP servers <= 3 threads each",
            "gateway.threads_per_server.troupe",
            3.0,
            origin="http",
        ),
        Target(
            f"{gateway} HTTP servers: a call to each works",
            "gateway.calls_ok.troupe",
            float(gateway),
            at_most=False,
            origin="http",
        ),
    ]


async def run(settings: Settings, groups: tuple[str, ...]) -> tuple[Figures, dict[str, Any]]:
    figures = Figures()
    extra: dict[str, Any] = {}
    for group in groups:
        started = time.monotonic()
        progress(f"== {group} ==")
        # The machine may be shared: its load while each group ran is part of the result.
        extra.setdefault("load_average", {})[f"{group}.start"] = os.getloadavg()
        try:
            if group == "stdio":
                await bench_stdio.run_group(figures, settings)
            elif group == "connect":
                await bench_connect.run_group(figures, settings)
            elif group == "scale":
                extra["scale"] = await bench_scale.run_group(figures, settings)
            elif group == "http":
                await bench_http.run_group(figures, settings)
            elif group == "eras":
                await bench_eras.run_group(figures, settings)
            elif group == "gateway":
                extra["gateway"] = await bench_gateway.run_group(figures, settings)
        except Exception as exc:  # one broken group must not cost the others' figures
            figures.problem(f"group {group} failed: {type(exc).__name__}: {exc}")
        extra.setdefault("group_seconds", {})[group] = round(time.monotonic() - started, 1)
        extra["load_average"][f"{group}.end"] = os.getloadavg()
    return figures, extra


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a CI-size run (about two minutes)")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write all figures")
    parser.add_argument(
        "--only",
        type=lambda text: tuple(name.strip() for name in text.split(",") if name.strip()),
        default=GROUPS,
        help=f"comma-separated subset of {','.join(GROUPS)}",
    )
    args = parser.parse_args(argv)
    if unknown := set(args.only) - set(GROUPS):
        parser.error(f"unknown groups: {', '.join(sorted(unknown))}")
    settings = Settings.quick() if args.quick else Settings()
    figures, extra = asyncio.run(run(settings, args.only))
    figures.print_lines()
    verdicts = {}
    for target in targets(settings):
        value, verdict = target.verdict(figures)
        unit = figures.units.get(target.figure) or figures.derived.get(target.figure, (0.0, "x"))[1]
        shown = "-" if value is None else format_value(value, unit)
        print(f"# target {target.name}: {shown} {verdict}", flush=True)
        verdicts[target.name] = {"figure": target.figure, "value": value, "verdict": verdict}
    extra["targets"] = verdicts
    write_report(figures, settings, args.json, extra)
    return 0 if figures.runs else 1


if __name__ == "__main__":
    sys.exit(main())
