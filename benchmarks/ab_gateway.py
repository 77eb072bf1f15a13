"""A/B of the gateway's connect figures between source trees of mcp-troupe, rounds interleaved.

Run it as ``python benchmarks/ab_gateway.py --side base=/path/to/checkout/src --side new=src
[--servers 1000] [--rounds 5]``. One farm of ``echo_http_server.py`` endpoints (loopback only, every
process killed by its pid at the end) serves every round; each round runs ``bench_gateway.py``'s troupe
phase once per side, each in a fresh process with that side's ``src`` first on ``PYTHONPATH``, the sides'
order alternating from round to round so that both see the same machine. Per side it prints each round and
then the medians of: client CPU from ``start()`` to all ready per server (``time.process_time`` of the
client process: every thread of it, none of the servers'; the figure to trust on a shared machine), the
ready time, RSS and OS threads per server, the calls that worked, and the close (``stop()``: wall time
and client CPU); and the CPU ratio of every side to the first.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.servers import http_server_farm

ROOT = Path(__file__).resolve().parent.parent
PHASE_TIMEOUT = 600.0


def run_side(src: str, urls_path: str) -> dict[str, Any]:
    """``bench_gateway.py``'s troupe phase with ``src`` first on the path; its JSON result."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (src, os.environ.get("PYTHONPATH")))))
    command = [sys.executable, "-m", "benchmarks.bench_gateway", "--phase", "troupe", "--urls", urls_path]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, timeout=PHASE_TIMEOUT)
    if done.returncode != 0:
        raise RuntimeError(f"the troupe phase exited with {done.returncode}: {done.stderr.decode()[-400:]}")
    result: dict[str, Any] = json.loads(done.stdout.decode().strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", action="append", required=True, help="name=path/to/src (two or more)")
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--processes", type=int, default=4, help="server processes serving the endpoints")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    sides = dict(side.split("=", 1) for side in args.side)
    if len(sides) < 2:
        parser.error("give two or more --side name=path")
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in sides}
    with http_server_farm(args.servers, args.processes) as farm:
        print(f"farm: {args.servers} servers listening after {farm.started_s:.2f} s", flush=True)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(farm.urls, handle)
        try:
            for round_number in range(args.rounds):
                names = list(sides)
                shift = round_number % len(names)
                for name in names[shift:] + names[:shift]:
                    result = run_side(sides[name], handle.name)
                    results[name].append(result)
                    cpu_ms = result["cpu_s"] / args.servers * 1000
                    print(
                        f"round {round_number + 1} {name}: client CPU {cpu_ms:.2f} ms a server, "
                        f"ready {result['ready_s']:.2f} s, RSS {result['rss_per_server_kib']:.0f} KiB, "
                        f"threads {result['os_threads_per_server']:.2f}, calls ok {result['calls_ok']}, "
                        f"stop {result['stop_s']:.2f} s ({result.get('stop_cpu_s', float('nan')):.2f} s CPU)",
                        flush=True,
                    )
        finally:
            os.unlink(handle.name)
    first = next(iter(sides))
    first_cpu = statistics.median(result["cpu_s"] for result in results[first])
    for name, rounds in results.items():
        cpu = statistics.median(result["cpu_s"] for result in rounds)
        ready = statistics.median(result["ready_s"] for result in rounds)
        rss = statistics.median(result["rss_per_server_kib"] for result in rounds)
        threads = statistics.median(result["os_threads_per_server"] for result in rounds)
        stop = statistics.median(result["stop_s"] for result in rounds)
        stop_cpu = statistics.median(result.get("stop_cpu_s", float("nan")) for result in rounds)
        print(
            f"{name}: median client CPU {cpu / args.servers * 1000:.2f} ms a server "
            f"({cpu / first_cpu:.2f}x {first}), ready {ready:.2f} s, RSS {rss:.0f} KiB a server, "
            f"threads {threads:.2f} a server, stop {stop:.2f} s ({stop_cpu:.2f} s CPU)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
