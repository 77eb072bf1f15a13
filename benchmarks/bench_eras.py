"""What a call costs in the modern era (2026-07-28) against the legacy one, on the same minimal server.

Run it alone as ``python benchmarks/bench_eras.py [--quick] [--transports stdio,http]``, or through
``benchmarks/run_all.py`` (the ``eras`` group of ``nox -s bench``).

Issue #13 asks that a modern call cost no more than a legacy one. The server is the benchmark's minimal one
started dual-era (``echo_server.py --dual-era`` over stdio, ``echo_http_server.py --dual-era`` for HTTP
JSON responses), so both eras meet the same code and the client's era is the only difference. Two troupes
are measured side by side, interleaved round by round as in ``bench_stdio``:

- ``troupe_modern``: ``ServerConfig(protocol="2026-07-28")``: ``server/discover``, then every request
  carries the modern ``_meta`` (and over HTTP the ``MCP-Protocol-Version``, ``Mcp-Method`` and ``Mcp-Name``
  headers, no session), every result's ``resultType`` is checked;
- ``troupe_legacy``: ``ServerConfig(protocol="legacy")``: ``initialize`` at 2025-11-25, a session over HTTP.

Each over stdio its own copy of the server; over HTTP both share one server process. Figures::

    eras.stdio.seq.p50.troupe_modern       us        sequential call latency (p99 and cpu likewise)
    eras.stdio.inflight1000.troupe_modern  calls/s   calls kept in flight
    eras.http.json.seq.p50.troupe_modern   us        the same over Streamable HTTP, JSON responses
    eras.<...>.ratio_modern_legacy         x         modern over legacy: below 1 for latency and CPU, above
                                                     1 for throughput, means the modern call is cheaper
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from contextlib import AsyncExitStack
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_stdio import measure_rounds
from benchmarks.clients import Client, TroupeClient, troupe_protocol_option
from benchmarks.servers import echo_command, http_server
from benchmarks.stats import Figures, Settings, progress, write_report

DEFAULT_JSON = Path(__file__).resolve().parent / "results" / "eras.json"
ERAS = {"troupe_modern": "2026-07-28", "troupe_legacy": "legacy"}
"""Client name → the ``protocol`` pin it runs with."""
TRANSPORTS = ("stdio", "http")


def connect_eras(
    stack: AsyncExitStack,
    figures: Figures,
    prefix: str,
    *,
    commands: list[list[str]] | None = None,
    urls: list[str] | None = None,
) -> list[Client]:
    """One troupe per era on the given servers, each checked to speak the era it was pinned to."""
    clients: list[Client] = []
    for name, protocol in ERAS.items():
        try:
            client = TroupeClient.connect(stack, commands, urls, protocol=protocol)
            (status,) = client.troupe.status()
            is_modern = status.protocol_version == ERAS["troupe_modern"]
            if is_modern != (name == "troupe_modern"):
                raise RuntimeError(f"pinned {protocol!r}, the connection speaks {status.protocol_version}")
            client.name = name
            clients.append(client)
        except Exception as exc:
            figures.problem(f"{prefix}.{name} skipped: {type(exc).__name__}: {exc}")
    return clients


def add_era_ratios(figures: Figures, prefix: str, inflight: int) -> None:
    """``<figure>.ratio_modern_legacy`` for every figure both eras have."""
    for figure in ("seq.p50", "seq.p99", "seq.cpu", f"inflight{inflight}", f"inflight{inflight}.cpu"):
        name = f"{prefix}.{figure}"
        figures.add_ratio(f"{name}.ratio_modern_legacy", f"{name}.troupe_modern", f"{name}.troupe_legacy")


async def run_group(figures: Figures, settings: Settings, transports: tuple[str, ...] = TRANSPORTS) -> None:
    """The modern-vs-legacy figures over each of ``transports``."""
    if not troupe_protocol_option():
        figures.problem("eras skipped: this mcp-troupe has no ServerConfig.protocol option")
        return
    if "stdio" in transports:
        prefix = "eras.stdio"
        progress(f"{prefix}: two troupes, each with its own dual-era echo_server.py")
        async with AsyncExitStack() as stack:
            clients = connect_eras(stack, figures, prefix, commands=[echo_command(dual_era=True)])
            await measure_rounds(
                clients, figures, prefix, repeat=settings.repeat, calls=settings.calls,
                warmup=settings.warmup, inflight=settings.inflight, total=settings.inflight_total,
                deadline=settings.deadline,
            )  # fmt: skip
        add_era_ratios(figures, prefix, settings.inflight)
    if "http" in transports:
        prefix = "eras.http.json"
        progress(f"{prefix}: two troupes on one dual-era echo_http_server.py")
        try:
            with http_server("echo-http-json", dual_era=True) as server:
                async with AsyncExitStack() as stack:
                    clients = connect_eras(stack, figures, prefix, urls=[server.url])
                    await measure_rounds(
                        clients, figures, prefix, repeat=settings.repeat, calls=settings.http_calls,
                        warmup=min(settings.warmup, 50), inflight=settings.http_inflight,
                        total=settings.http_total, deadline=settings.deadline,
                    )  # fmt: skip
        except Exception as exc:
            detail = exc.exceptions[0] if isinstance(exc, ExceptionGroup) else exc
            figures.problem(f"{prefix}: error: {type(detail).__name__}: {detail}")
        add_era_ratios(figures, prefix, settings.http_inflight)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a CI-size run")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write all figures")
    parser.add_argument(
        "--transports",
        type=lambda text: tuple(name.strip() for name in text.split(",") if name.strip()),
        default=TRANSPORTS,
        help=f"comma-separated subset of {','.join(TRANSPORTS)}",
    )
    args = parser.parse_args(argv)
    if unknown := set(args.transports) - set(TRANSPORTS):
        parser.error(f"unknown transports: {', '.join(sorted(unknown))}")
    settings = Settings.quick() if args.quick else Settings()
    figures = Figures()
    asyncio.run(run_group(figures, settings, args.transports))
    figures.print_lines()
    write_report(figures, settings, args.json)
    return 0 if figures.runs else 1


if __name__ == "__main__":
    sys.exit(main())
