"""A/B of the first connect to the 10,000-tool server between source trees of mcp-troupe, rounds interleaved.

Run it as ``python benchmarks/ab_first_connect.py --side base=/path/to/checkout/src --side new=src``. Two
versions of the package cannot share a process, so each side is a worker process of its own (its ``src``
first on ``PYTHONPATH``). The worker imports both clients and connects each once to a one-tool server (so
that imports and first-use costs are paid, as in ``run_all.py``, where the connect group runs first); then
the driver asks one side at a time for one measurement, alternating the order every round: a troupe's and
the SDK client's first connect to a fresh ``echo_server.py --tools 10000`` (the figure of
``bench_connect``'s ``discovery.tools10000.connect``), each with wall time and the worker's CPU time
(``time.process_time``: every thread of the client, none of the server's). The troupe's connect is also
split at the moment its registry receives the catalog (``ServerUp``): before it, spawn + handshake + 100
pages; after it, the policy pass and the table until ``wait_ready()`` returns. Medians over the rounds, and
each side's ratio to its own SDK client, which is what the target (<= 1.0x) is about.

``--page-delay SECONDS`` serves every page that much late (``slow_pages_server.py``: a server slow to
list, such as a remote one), where the registry judges the pages while the next ones are fetched. ``--tools
N`` serves N tools instead of 10,000 (the quick bench's first connect is to 2,000).

Each measurement also says what the garbage collector did during the connect (``gc.callbacks``:
collections per generation, ``gc0``..``gc2``, and their CPU time, ``gc_ms``), how many objects the
collector tracks per tool once the client is ready (``tracked_per_tool``: ``gc.get_objects()`` against the
count before the connect, with no collection first, so what a collection meanwhile would have walked; and
``kept_per_tool`` after a full collection, what every later full collection walks), and the worker's RSS
growth per tool (``rss_per_tool``, bytes, ``VmRSS`` at ready against before). None of these is timed.
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
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOOLS = 10_000


def _rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


class _Collections:
    """What the garbage collector did while it is installed: collections per generation and their CPU time."""

    def __init__(self) -> None:
        self.counts = [0, 0, 0]
        self.seconds = 0.0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        # CPU time of the collecting thread (a collection runs on one thread, holding the GIL throughout):
        # unlike the wall clock, it does not count the time another process had the core meanwhile.
        if phase == "start":
            self._started = time.thread_time()
        else:
            self.counts[info["generation"]] += 1
            self.seconds += time.thread_time() - self._started


async def _worker(page_delay: float, tools: int) -> None:
    sys.path.insert(0, str(ROOT))  # the benchmarks package of this checkout; mcp_troupe from PYTHONPATH
    import mcp_troupe
    from benchmarks.clients import SdkClient, TroupeClient
    from benchmarks.servers import echo_command
    from mcp_troupe.actors import registry

    marks: dict[str, float] = {}
    on_server_up = registry.RegistryActor._on_server_up

    def stamped(self: Any, msg: Any) -> None:
        marks.setdefault("catalog", time.perf_counter())
        on_server_up(self, msg)

    registry.RegistryActor._on_server_up = stamped  # type: ignore[method-assign]

    async def connect(kind: str, command: list[str], expected: int) -> dict[str, float]:
        gc.collect()
        marks.clear()
        collections = _Collections()
        tracked, rss = len(gc.get_objects()), _rss_bytes()
        async with AsyncExitStack() as stack:
            gc.callbacks.append(collections)
            cpu, started = time.process_time(), time.perf_counter()
            try:
                if kind == "sdk":
                    client: Any = await SdkClient.connect(stack, [command])
                    count = client.tool_count
                else:
                    client = await asyncio.to_thread(TroupeClient.connect, stack, [command])
                wall, cpu = time.perf_counter() - started, time.process_time() - cpu
            finally:
                gc.callbacks.remove(collections)
            if kind == "troupe":
                count = len(client.troupe.tools())
            if count != expected:
                raise RuntimeError(f"{kind} listed {count} tools")
            grown_rss = _rss_bytes() - rss
            at_ready = len(gc.get_objects()) - tracked
            gc.collect()
            kept = len(gc.get_objects()) - tracked
        out = {
            "wall_ms": wall * 1000,
            "cpu_ms": cpu * 1000,
            "gc_ms": collections.seconds * 1000,
            "gc0": collections.counts[0],
            "gc1": collections.counts[1],
            "gc2": collections.counts[2],
            "tracked_per_tool": at_ready / expected,
            "kept_per_tool": kept / expected,
            "rss_per_tool": grown_rss / expected,
        }
        if "catalog" in marks:
            out["after_catalog_ms"] = (started + wall - marks["catalog"]) * 1000
        return out

    for kind in ("troupe", "sdk"):
        await connect(kind, echo_command(), 1)
    print(json.dumps({"package": mcp_troupe.__file__}), flush=True)
    loop = asyncio.get_running_loop()
    while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
        kind = json.loads(line)["client"]
        command = echo_command(tools, 100)
        if page_delay > 0:
            slow = str(ROOT / "benchmarks" / "slow_pages_server.py")
            command = [command[0], slow, str(page_delay), *command[2:]]
        print(json.dumps(await connect(kind, command, tools)), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", action="append", required=True, help="NAME=SRC_DIR (repeatable)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--page-delay", type=float, default=0.0, help="serve each page SECONDS late")
    parser.add_argument("--tools", type=int, default=TOOLS, help="how many tools the server lists")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        asyncio.run(_worker(args.page_delay, args.tools))
        return 0
    sides: dict[str, subprocess.Popen[str]] = {}
    results: dict[tuple[str, str], list[dict[str, float]]] = {}
    try:
        for spec in args.side:
            name, _, src = spec.partition("=")
            env = {**os.environ, "PYTHONPATH": str(Path(src).resolve())}
            options = ["--page-delay", str(args.page_delay), "--tools", str(args.tools)]
            worker = subprocess.Popen(
                [sys.executable, __file__, "--worker", "--side", spec, *options],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            assert worker.stdout is not None
            print(name, worker.stdout.readline().strip(), flush=True)
            sides[name] = worker
        names = list(sides)
        for round_number in range(args.rounds):
            shift = round_number % len(names)
            for name in names[shift:] + names[:shift]:
                for client in ("troupe", "sdk") if round_number % 2 == 0 else ("sdk", "troupe"):
                    worker = sides[name]
                    assert worker.stdin is not None and worker.stdout is not None
                    worker.stdin.write(json.dumps({"client": client}) + "\n")
                    worker.stdin.flush()
                    result = json.loads(worker.stdout.readline())
                    results.setdefault((name, client), []).append(result)
                    print(f"round {round_number + 1} {name} {client} {result}", flush=True)
    finally:
        for worker in sides.values():
            if worker.stdin is not None:
                worker.stdin.close()
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
    for name in sides:
        medians = {}
        for client in ("troupe", "sdk"):
            runs = results.get((name, client), [])
            for key in (
                "wall_ms", "cpu_ms", "after_catalog_ms", "gc_ms", "gc0", "gc1", "gc2",
                "tracked_per_tool", "kept_per_tool", "rss_per_tool",
            ):  # fmt: skip
                values = [run[key] for run in runs if key in run]
                if values:
                    medians[f"{client}.{key}"] = statistics.median(values)
        ratios = [
            t["wall_ms"] / s["wall_ms"]
            for t, s in zip(results.get((name, "troupe"), []), results.get((name, "sdk"), []), strict=False)
        ]
        cpu_ratios = [
            t["cpu_ms"] / s["cpu_ms"]
            for t, s in zip(results.get((name, "troupe"), []), results.get((name, "sdk"), []), strict=False)
        ]
        print(name, " ".join(f"{key}={value:.2f}" for key, value in medians.items()))
        if ratios:
            print(
                f"{name} ratio_troupe_sdk wall={statistics.median(ratios):.2f} "
                f"cpu={statistics.median(cpu_ratios):.2f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
