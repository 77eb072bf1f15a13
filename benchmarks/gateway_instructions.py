"""A/B of a gateway's connect cost between source trees of mcp-troupe, counted in instructions, not timed.

Run it as ``python benchmarks/gateway_instructions.py --side base=/path/to/checkout/src --side new=src
[--servers 60] [--rounds 3]``. On a machine shared with other work the timed figures of ``ab_gateway.py``
scatter by more than a change of a few per cent (issue 18); an instruction count does not depend on what
else runs. One farm of ``echo_http_server.py`` endpoints (loopback only, every process killed by its pid
at the end) serves every round; each round runs one worker per side under Valgrind's callgrind with counting
switched off (``--instr-atstart=no``), the sides at the same time. A worker builds its ``Troupe`` (the
imports and the configuration are not counted), switches counting on (``callgrind_control -i on``), calls
``start()`` and ``wait_ready()``, switches it off and stops (what a process pays once, a troupe of one
server pays first, uncounted): every thread of the client is counted from
``start()`` to all ready, none of the servers' (they are other processes). Per side it prints each round's
instructions per server, the cyclic garbage collector's collections in the window, and then the medians and
the ratio of every side to the first.

The count is not exact: how often a waiting thread wakes, and so how many passes the loop makes, depends on
timing, and callgrind runs everything some 50 times slower (so the servers answer relatively sooner). Two
rounds of one side agree to about 1-2 %. The server count is small because every server's connect runs in
that slowed-down window: it must stay well inside ``connect_timeout``.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import callgrind

WORKER_TIMEOUT = 900.0
"""Seconds one counted worker may take."""
READY_TIMEOUT = 600.0


def worker(urls_path: Path) -> int:
    """The counted process: one troupe of every URL, counted from ``start()`` to all ready."""
    from benchmarks.clients import TroupeClient
    from mcp_troupe import Troupe

    urls = json.loads(urls_path.read_text())
    # What a process pays once (the imports, the injection scan's model, the first TLS-less client's set-up)
    # is paid here, by a troupe of one server, so that the window holds the per-server work only.
    warm = Troupe(TroupeClient.config(urls=urls[:1]))
    warm.start()
    if not warm.wait_ready(timeout=READY_TIMEOUT):
        print("the warm-up server was not ready", file=sys.stderr)
        return 1
    warm.stop()
    troupe = Troupe(TroupeClient.config(urls=urls))
    collections_before = sum(stat["collections"] for stat in gc.get_stats())
    callgrind.switch(True)
    try:
        troupe.start()
        is_ready = troupe.wait_ready(timeout=READY_TIMEOUT)
    finally:
        callgrind.switch(False)
        collections = sum(stat["collections"] for stat in gc.get_stats()) - collections_before
        troupe.stop()
    if not is_ready:
        print(f"not every server was ready within {READY_TIMEOUT:g} s", file=sys.stderr)
        return 1
    print(json.dumps({"collections": collections}), flush=True)
    return 0


def count(sides: dict[str, str], urls_path: str) -> dict[str, tuple[int, int]]:
    """Each side's instructions from ``start()`` to all ready and its collections, the sides at once."""
    env = {
        name: dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, (src, os.environ.get("PYTHONPATH")))))
        for name, src in sides.items()
    }
    workers = {name: ["-m", "benchmarks.gateway_instructions", "--worker", urls_path] for name in sides}
    counted = callgrind.run_counted(workers, timeout=WORKER_TIMEOUT, env=env)
    return {
        name: (total, int(json.loads(stdout.strip().splitlines()[-1])["collections"]))
        for name, (total, stdout) in counted.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", action="append", default=[], help="name=path/to/src (two or more)")
    parser.add_argument("--servers", type=int, default=60)
    parser.add_argument("--processes", type=int, default=2, help="server processes serving the endpoints")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        return worker(args.worker)
    missing = callgrind.missing_tools()
    if missing:
        parser.error(missing)
    sides = dict(side.split("=", 1) for side in args.side)
    if len(sides) < 2:
        parser.error("give two or more --side name=path")
    from benchmarks.servers import http_server_farm

    results: dict[str, list[tuple[int, int]]] = {name: [] for name in sides}
    with http_server_farm(args.servers, args.processes) as farm:
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
            json.dump(farm.urls, handle)
        try:
            for round_number in range(args.rounds):
                for name, (instructions, collections) in count(sides, handle.name).items():
                    results[name].append((instructions, collections))
                    print(
                        f"round {round_number + 1} {name}: {instructions / args.servers / 1e6:.3f} M "
                        f"instructions a server, {collections} collections",
                        flush=True,
                    )
        finally:
            os.unlink(handle.name)
    first = statistics.median(total for total, _ in results[next(iter(sides))])
    for name, rounds in results.items():
        median = statistics.median(total for total, _ in rounds)
        print(
            f"{name}: median {median / args.servers / 1e6:.3f} M instructions a server "
            f"({median / first:.3f}x {next(iter(sides))}), rounds "
            + ", ".join(f"{total / args.servers / 1e6:.3f}" for total, _ in rounds)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
