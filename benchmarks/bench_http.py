"""Side-by-side call latency and throughput of MCP clients over Streamable HTTP.

Run it alone as ``python benchmarks/bench_http.py [--quick] [--clients troupe,sdk,raw]``, or through
``benchmarks/run_all.py``.

Servers (each started once, on 127.0.0.1, and shared by the clients in turn; every client opens its own
session): ``echo_http_server.py`` (the minimal raw-asyncio server) answering with JSON bodies and with SSE
streams, and ``sdk_server.py http`` (the official SDK's ``MCPServer``) with ``json_response`` True and
False. Clients: ``troupe`` (mcp-troupe's HTTP transport, ``network_policy="allow"``), ``sdk``
(``ClientSession`` over ``streamable_http_client``), ``raw`` (asyncio streams, hand-written HTTP/1.1, at most
100 keep-alive connections like httpx's default pool). Figures, as in ``bench_stdio``::

    http.json.seq.p50.<client>          us    minimal server, JSON responses
    http.sse.seq.p50.<client>           us    minimal server, SSE responses
    http.sdkserver.json.seq.p50.<client>
    http.sdkserver.sse.seq.p50.<client>
    http.<...>.inflight100.<client>     calls/s
    <figure>.ratio_<a>_<b>              x
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from contextlib import AsyncExitStack
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_stdio import connect_clients, measure_rounds
from benchmarks.servers import http_server
from benchmarks.stats import Figures, Settings, progress, write_report

DEFAULT_JSON = Path(__file__).resolve().parent / "results" / "http.json"
SERVERS = {
    "echo-http-json": "http.json",
    "echo-http-sse": "http.sse",
    "sdk-http-json": "http.sdkserver.json",
    "sdk-http-sse": "http.sdkserver.sse",
}


def troupe_http_available() -> bool:
    """Whether this mcp-troupe has its Streamable HTTP transport yet."""
    try:
        import mcp_troupe.actors.http  # noqa: F401
    except ImportError:
        return False
    return True


# troupe_shared (io_loop on the benchmark's loop) is a stdio figure: over HTTP, httpx's cost per call dwarfs
# the one wake-up it saves, and a fourth client only lengthens the idle gaps between each client's rounds.
CLIENTS = ("troupe", "sdk", "raw")


async def run_group(figures: Figures, settings: Settings, names: tuple[str, ...] = CLIENTS) -> None:
    """Every HTTP latency and throughput figure."""
    if "troupe" in names and not troupe_http_available():
        figures.problem("http.troupe skipped: mcp_troupe.actors.http does not exist yet")
        names = tuple(name for name in names if not name.startswith("troupe"))
    for kind, prefix in SERVERS.items():
        progress(f"{prefix}: starting {kind}")
        sdk_server = kind.startswith("sdk")
        stage = "measuring"
        try:
            with http_server(kind) as server:
                async with AsyncExitStack() as stack:
                    clients = await connect_clients(stack, names, figures, prefix, urls=[server.url])
                    await measure_rounds(
                        clients, figures, prefix, repeat=settings.repeat,
                        calls=settings.http_calls // (3 if sdk_server else 1),
                        warmup=min(settings.warmup, 50), inflight=settings.http_inflight,
                        total=settings.http_total // (2 if sdk_server else 1), deadline=settings.deadline,
                    )  # fmt: skip
                    stage = "closing the clients (the figures stand)"
        except Exception as exc:
            detail = exc.exceptions[0] if isinstance(exc, ExceptionGroup) else exc
            figures.problem(f"{prefix}: error while {stage}: {type(detail).__name__}: {detail}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a CI-size run")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write all figures")
    parser.add_argument(
        "--clients",
        type=lambda text: tuple(name.strip() for name in text.split(",") if name.strip()),
        default=CLIENTS,
        help=f"comma-separated subset of {','.join(CLIENTS)}",
    )
    args = parser.parse_args(argv)
    settings = Settings.quick() if args.quick else Settings()
    figures = Figures()
    asyncio.run(run_group(figures, settings, args.clients))
    figures.print_lines()
    write_report(figures, settings, args.json)
    return 0 if figures.runs else 1


if __name__ == "__main__":
    sys.exit(main())
