"""What a modern call costs the client against a legacy one, counted in machine instructions, not timed.

Run it alone as ``python benchmarks/era_instructions.py [--quick] [--transports stdio,http]``, or through
``benchmarks/bench_eras.py`` (the ``eras`` group of ``nox -s bench``), which adds its figures when
Valgrind is installed.

Issue #13 asks that a modern call cost no more than a legacy one. The timed figures of ``bench_eras``
scatter by 10-30 % between runs on a shared two-core machine, both ways, so they cannot settle a
difference of a few per cent. This counts instead: each era's client runs in a worker process under
Valgrind's callgrind tool with counting switched off; the worker connects to the dual-era minimal server
(a separate process, not counted), makes warm-up calls, then switches counting on for ``calls`` sequential
``Troupe.call``s and off again (``callgrind_control -i on|off``). Every thread of the worker is counted:
the caller's, the I/O loop's, the actors'. The count still moves by about 1 % between runs (how often a
waiting thread wakes depends on timing, and callgrind runs everything some 50 times slower), so in each
round the two eras' workers run at the same time, on the same machine, and the figures are medians over
rounds: the ratio is the median of each round's ratio (3 rounds of 300 calls; ``--quick``: 1 of 200).

Figures::

    eras.<transport>.instructions.troupe_modern   instr   client instructions per sequential call
    eras.<transport>.instructions.troupe_legacy   instr
    eras.<transport>.instructions.ratio_modern_legacy   x   modern over legacy: at most 1 is the target

``<transport>`` is ``stdio`` or ``http.json``. What the count includes that the client does not choose: the
modern server's answer carries ``"resultType":"complete"`` (the 2026-07-28 rule that every result names
its type), so the client parses about 24 bytes more per modern answer.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
from contextlib import AsyncExitStack, ExitStack
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import callgrind
from benchmarks.clients import TroupeClient, troupe_protocol_option
from benchmarks.servers import echo_command, http_server
from benchmarks.stats import Figures, Settings, add_subset_option, median, progress, write_report

DEFAULT_JSON = Path(__file__).resolve().parent / "results" / "era_instructions.json"
TRANSPORTS = ("stdio", "http")
PREFIXES = {"stdio": "eras.stdio", "http": "eras.http.json"}
ERAS = {"modern": "2026-07-28", "legacy": "legacy"}
"""Era name → the ``ServerConfig.protocol`` pin its client runs with."""
WARMUP = 50
WORKER_TIMEOUT = 600.0
"""Seconds one counted worker may take (the interpreter runs some 50 times slower under callgrind)."""


def available() -> str | None:
    """Why the figure cannot be counted here (``None`` when it can)."""
    missing = callgrind.missing_tools()
    if missing:
        return missing
    if not troupe_protocol_option():
        return "this mcp-troupe has no ServerConfig.protocol option"
    return None


def count_calls(transport: str, calls: int) -> dict[str, int]:
    """Client instructions for ``calls`` sequential calls of each era over ``transport``: one worker per era
    under callgrind, the two at once (both meet the same machine); raises ``RuntimeError`` naming a
    worker's failure."""
    workers = {
        f"{era} {transport}": ["-m", "benchmarks.era_instructions", "--worker", era, transport, str(calls)]
        for era in ERAS
    }
    counted = callgrind.run_counted(workers, timeout=WORKER_TIMEOUT)
    return {era: counted[f"{era} {transport}"][0] for era in ERAS}


async def _worker(era: str, transport: str, calls: int) -> None:
    """The counted process: connect one client of ``era``, warm it, count ``calls`` calls."""
    with ExitStack() as servers:
        async with AsyncExitStack() as stack:
            if transport == "stdio":
                client = TroupeClient.connect(stack, [echo_command(dual_era=True)], None, protocol=ERAS[era])
            else:
                server = servers.enter_context(http_server("echo-http-json", dual_era=True))
                client = TroupeClient.connect(stack, None, [server.url], protocol=ERAS[era])
            troupe, tool = client.troupe, client.tools[0]
            for _ in range(WARMUP):
                troupe.call(tool, {"text": "warm"})
            callgrind.switch(True)
            for _ in range(calls):
                troupe.call(tool, {"text": "hello world"})
            callgrind.switch(False)


def run_group(figures: Figures, settings: Settings, transports: tuple[str, ...] = TRANSPORTS) -> None:
    """Count both eras over each of ``transports``; a problem line, not a figure, when Valgrind is missing."""
    reason = available()
    if reason is not None:
        figures.problem(f"eras instruction counts skipped: {reason}")
        return
    calls, rounds = (200, 1) if settings.mode == "quick" else (300, 3)
    for transport in transports:
        prefix = PREFIXES[transport]
        progress(f"{prefix}.instructions: {rounds} rounds of {calls} calls an era under callgrind")
        ratios: list[float] = []
        try:
            for _ in range(rounds):
                totals = count_calls(transport, calls)
                for era, total in totals.items():
                    figures.add(f"{prefix}.instructions.troupe_{era}", total / calls, "instr")
                ratios.append(totals["modern"] / totals["legacy"])
        except (RuntimeError, subprocess.SubprocessError, OSError) as exc:
            figures.problem(f"{prefix}.instructions: {exc}")
        if ratios:
            figures.derive(f"{prefix}.instructions.ratio_modern_legacy", median(ratios), "x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer counted calls")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write all figures")
    parser.add_argument("--worker", nargs=3, metavar=("ERA", "TRANSPORT", "CALLS"), help=argparse.SUPPRESS)
    add_subset_option(parser, "--transports", TRANSPORTS)
    args = parser.parse_args(argv)
    if args.worker:
        era, transport, calls = args.worker
        asyncio.run(_worker(era, transport, int(calls)))
        return 0
    settings = Settings.quick() if args.quick else Settings()
    figures = Figures()
    run_group(figures, settings, args.transports)
    figures.print_lines()
    write_report(figures, settings, args.json)
    return 0 if figures.runs else 1


if __name__ == "__main__":
    sys.exit(main())
