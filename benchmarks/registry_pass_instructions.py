"""A/B of the registry's first policy pass between source trees of mcp-troupe, counted in instructions.

Run it as ``python benchmarks/registry_pass_instructions.py --side base=/path/to/checkout/src --side new=src
[--tools 10000] [--rounds 2]``. The part of a first connect to ``echo_server.py --tools N`` that follows the
catalog's arrival (judging every tool, publishing the table, until ``wait_ready`` is answered) is what the
issue's target is about (issue 18), and on a shared machine its timed figures scatter by ±30 % a round
(``ab_first_connect.py``). Here it runs alone, in process: a ``RegistryActor`` with one configured server
(no process, no session) is told ``ServerUp`` with the benchmark server's catalog (its pages through
``json``, then ``parse_tools_page``, as a session would give them) and counted by Valgrind's callgrind from
that message to the answer of ``WhenSettled``, every thread. Each worker first runs one uncounted pass (the
scan's model, the caches of a process's first pass), then the counted one on a fresh registry and a fresh
catalog. The slices of judging follow a clock that advances 30 µs a reading (about what a benchmark tool
takes), not the real one, so the slices are those of a real first connect and the count does not depend
on the machine's speed under callgrind. Per side it prints the instructions per tool, the collections of
the cyclic garbage collector in the window and their CPU time (under callgrind: for comparison only), and
the ratio of every side to the first.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import statistics
import sys
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import callgrind

WORKER_TIMEOUT = 1200.0
"""Seconds one counted worker may take (two passes over 10,000 tools take about five minutes)."""
CLOCK_STEP = 30e-6
"""Seconds the judging clock advances at each reading."""


def _catalog(tools: int) -> Any:
    from benchmarks.echo_server import make_tools
    from mcp_troupe.actors.supervisor import ServerCatalog
    from mcp_troupe.protocol import mcp

    pages = [
        json.loads(json.dumps({"tools": make_tools(tools)[start : start + 100]}))
        for start in range(0, tools, 100)
    ]
    # As a session parses a listing: one table of shared input schemas for all its pages (a tree from before
    # protocol.mcp.SharedSchemas parses each tool on its own, as its session did).
    shared_schemas = getattr(mcp, "SharedSchemas", None)
    shared = shared_schemas() if shared_schemas is not None else None
    parsed = [
        mcp.parse_tools_page(page, shared) if shared is not None else mcp.parse_tools_page(page)
        for page in pages
    ]
    return ServerCatalog("echo", 1, tuple(tool for page in parsed for tool in page.tools), ())


def worker(tools: int, counted: bool) -> int:
    """One uncounted pass, then one counted; print the counted pass's collections and their CPU."""
    import pykka

    from mcp_troupe.actors import judging
    from mcp_troupe.actors.loop import IoLoop, Runtime
    from mcp_troupe.actors.registry import ListTools, RegistryActor, WhenSettled
    from mcp_troupe.actors.supervisor import ServerUp
    from mcp_troupe.config import ReconnectPolicy, TroupeConfig, stdio_server
    from mcp_troupe.types import ServerState, ServerStatus

    ticks = itertools.count()
    kwdefaults = judging.CatalogJudging.judge.__kwdefaults__
    assert kwdefaults is not None and "clock" in kwdefaults
    kwdefaults["clock"] = lambda: next(ticks) * CLOCK_STEP

    class Idle(pykka.ThreadingActor):
        use_daemon_thread = True

        def on_receive(self, message: Any) -> None:
            pass

    loop = IoLoop(name="registry-pass-io")
    loop.start()
    runtime = Runtime(loop)
    config = TroupeConfig(
        approval_mode="auto", servers={"echo": stdio_server("echo", "unused")}, reconnect=ReconnectPolicy()
    )
    session = runtime.track(Idle.start())
    ready = ServerStatus("echo", "stdio", ServerState.READY, incarnation=1)
    collections = [0, 0, 0]
    seconds = [0.0, 0.0]

    def on_collection(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seconds[1] = time.thread_time()
        else:
            collections[info["generation"]] += 1
            seconds[0] += time.thread_time() - seconds[1]

    try:
        for is_counted in (False, counted):
            catalog = _catalog(tools)
            registry = runtime.track(
                RegistryActor.start(
                    config=config, runtime=runtime, supervisor_factory=lambda **_: runtime.track(Idle.start())
                )
            )
            listed: Future[Any] = Future()
            registry.tell(ListTools(listed, False))
            listed.result(timeout=60)  # on_start has run
            gc.collect()
            collections[:] = [0, 0, 0]
            seconds[0] = 0.0
            settled: Future[None] = Future()
            registry.tell(WhenSettled(settled))
            if is_counted:
                callgrind.switch(True)
            gc.callbacks.append(on_collection)
            registry.tell(ServerUp("echo", 1, session, catalog, status=ready))
            settled.result(timeout=WORKER_TIMEOUT)
            gc.callbacks.remove(on_collection)
            if is_counted:
                callgrind.switch(False)
            listed = Future()
            registry.tell(ListTools(listed, False))
            if len(listed.result(timeout=60)) != tools:
                raise RuntimeError("the registry did not list every tool")
            registry.stop(timeout=60)
    finally:
        runtime.stop_actors(timeout=10)
        loop.stop(timeout=10)
    print(json.dumps({"collections": collections, "gc_ms": seconds[0] * 1000}))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", action="append", default=[], help="name=path/to/src (two or more)")
    parser.add_argument("--tools", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--uncounted", action="store_true", help="run one worker in place, no callgrind")
    args = parser.parse_args(argv)
    if args.worker or args.uncounted:
        return worker(args.tools, counted=not args.uncounted)
    missing = callgrind.missing_tools()
    if missing:
        parser.error(missing)
    sides = dict(side.split("=", 1) for side in args.side)
    if len(sides) < 2:
        parser.error("give two or more --side name=path")
    here = str(Path(__file__).resolve())
    workers = {name: [here, "--worker", "--tools", str(args.tools)] for name in sides}
    env = {name: {**os.environ, "PYTHONPATH": str(Path(src).resolve())} for name, src in sides.items()}
    results: dict[str, list[int]] = {name: [] for name in sides}
    for round_number in range(args.rounds):
        for name, (instructions, output) in callgrind.run_counted(
            workers, timeout=WORKER_TIMEOUT, env=env
        ).items():
            results[name].append(instructions)
            per_tool = instructions / args.tools / 1e3
            print(
                f"round {round_number + 1} {name}: {per_tool:.1f} k instructions a tool, {output.strip()}",
                flush=True,
            )
    first = statistics.median(results[next(iter(sides))])
    for name, counts in results.items():
        median = statistics.median(counts)
        print(
            f"{name}: median {median / args.tools / 1e3:.1f} k instructions a tool "
            f"({median / first:.3f}x {next(iter(sides))})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
