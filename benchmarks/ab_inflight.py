"""A/B of the stdio 1,000-in-flight figures between source trees of mcp-troupe, rounds interleaved.

Run it as ``python benchmarks/ab_inflight.py --side base=/path/to/checkout/src --side new=src``. Two versions
of the package cannot share a process, so each side is a worker process of its own (its ``src`` first on
``PYTHONPATH``) holding a troupe, a troupe on the worker's own loop (``troupe_shared``) and the SDK's client,
each with its own ``echo_server.py``. The driver asks one side at a time for one measurement, alternating
the sides' order every round, so that both see the same machine. Each measurement reports throughput and
the worker's CPU time per call (``time.process_time``: every thread of the client, none of the server's),
the main figure on a shared machine; medians over the rounds, and each side's ratio to its own SDK client.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


async def _worker() -> None:
    sys.path.insert(0, str(ROOT))  # the benchmarks package of this checkout; mcp_troupe from PYTHONPATH
    import mcp_troupe
    from benchmarks.clients import SdkClient, TroupeClient, TroupeSharedClient
    from benchmarks.servers import echo_command

    async with AsyncExitStack() as stack:
        clients: dict[str, Any] = {
            "troupe": TroupeClient.connect(stack, [echo_command()]),
            "troupe_shared": await TroupeSharedClient.connect(stack, [echo_command()]),
            "sdk": await SdkClient.connect(stack, [echo_command()]),
        }
        print(json.dumps({"package": mcp_troupe.__file__, "threads": threading.active_count()}), flush=True)
        loop = asyncio.get_running_loop()
        while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
            command = json.loads(line)
            client, total = clients[command["client"]], command["total"]
            gc.collect()
            deadline = time.monotonic() + 120
            if command["kind"] == "inflight":
                started = time.process_time()
                seconds = await client.inflight(total, command["concurrency"], deadline)
                cpu = time.process_time() - started
                out = {"calls_s": total / seconds, "cpu_us": cpu / total * 1e6}
            else:
                await client.sequential(min(total, 100), deadline)
                started = time.process_time()
                latencies = sorted(await client.sequential(total, deadline))
                cpu = time.process_time() - started
                out = {
                    "p50_us": latencies[len(latencies) // 2] / 1000,
                    "p99_us": latencies[max(0, int(len(latencies) * 0.99) - 1)] / 1000,
                    "cpu_us": cpu / total * 1e6,
                }
            print(json.dumps(out), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", action="append", required=True, help="name=path/to/src (two or more)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--total", type=int, default=5000, help="calls per in-flight measurement")
    parser.add_argument("--concurrency", type=int, default=1000)
    parser.add_argument("--seq", type=int, default=500, help="sequential calls per round (0: none)")
    parser.add_argument("--clients", default="troupe,troupe_shared,sdk")
    args = parser.parse_args(argv)
    sides: dict[str, subprocess.Popen[str]] = {}
    results: dict[tuple[str, str, str, str], list[float]] = {}
    clients = args.clients.split(",")
    kinds = ["inflight"] + (["seq"] if args.seq else [])
    try:
        for side in args.side:
            name, _, src = side.partition("=")
            env = dict(os.environ, PYTHONPATH=str(Path(src).resolve()))
            worker = subprocess.Popen(
                [sys.executable, __file__, "--worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                text=True, env=env,
            )  # fmt: skip
            sides[name] = worker
            assert worker.stdout is not None
            print(name, worker.stdout.readline().strip(), file=sys.stderr, flush=True)
        for round_number in range(args.rounds):
            order = list(sides) if round_number % 2 == 0 else list(reversed(sides))
            for kind in kinds:
                for client in clients:
                    for name in order:
                        worker = sides[name]
                        assert worker.stdin is not None and worker.stdout is not None
                        total = args.total if kind == "inflight" else args.seq
                        command = {"client": client, "kind": kind, "total": total}
                        worker.stdin.write(json.dumps({**command, "concurrency": args.concurrency}) + "\n")
                        worker.stdin.flush()
                        for key, value in json.loads(worker.stdout.readline()).items():
                            results.setdefault((name, client, kind, key), []).append(value)
            print(f"round {round_number + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    finally:
        for worker in sides.values():
            if worker.stdin is not None:
                worker.stdin.write("\n")
                worker.stdin.flush()
            try:
                worker.wait(30)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
    for key in sorted(results):
        values = results[key]
        rounds = ",".join(f"{value:.0f}" for value in values)
        print(*key, f"median={statistics.median(values):.1f}", f"rounds={rounds}")
    for name in sides:
        for client in clients:
            sdk = results.get((name, "sdk", "inflight", "calls_s"))
            mine = results.get((name, client, "inflight", "calls_s"))
            if client == "sdk" or not sdk or not mine:
                continue
            ratios = [a / b for a, b in zip(mine, sdk, strict=True)]
            print(name, client, f"inflight.ratio_{client}_sdk median={statistics.median(ratios):.2f}")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        asyncio.run(_worker())
        sys.exit(0)
    sys.exit(main())
