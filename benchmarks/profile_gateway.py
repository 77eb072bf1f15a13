"""Where a gateway's connect CPU goes: per thread kind, in the cyclic garbage collector, in thread starts.

Run it as ``python benchmarks/profile_gateway.py [--servers N] [--processes P]``. Not a side-by-side figure
(that is ``bench_gateway.py``): an attribution, to decide what in the per-server connect path is worth
changing (issue 18). It starts ``N`` endpoints of ``echo_http_server.py`` (loopback only, killed by pid at
the end), then one ``Troupe`` with all of them, from ``start()`` to ``wait_ready()``, in this process, and
prints ``name value unit`` lines::

    gateway.profile.cpu_per_server              ms     process CPU from start() to all ready, per server
    gateway.profile.thread.<kind>               ms     CPU of that kind of thread per server (its thread
                                                       CPU clock; the kinds are the thread names without
                                                       their numbers: ServerSupervisor, SessionActor,
                                                       HttpTransport, RegistryActor, mcp-troupe-io)
    gateway.profile.thread.<kind>.outside_gc    ms     the same without the collections that ran in it
    gateway.profile.gc                          ms     CPU spent in the cyclic GC per server (gc.callbacks,
                                                       the collecting thread's CPU clock)
    gateway.profile.gc.gen<g>                   count  collections of generation g, and their CPU (``_ms``)
    gateway.profile.gc_tracked_per_server       count  objects the GC tracks, per server, at ready
    gateway.profile.thread_start                us     CPU of one bare ``_thread.start_new_thread``: the
                                                       floor of the three actor threads a server starts
    gateway.profile.first_http_import           ms     the HTTP transport's modules, imported once

The thread kinds do not add up to the process figure: the kernel's part of starting a thread and the
threads that ended before ready are not in any thread's clock, and the GC's time is inside whichever thread
collected.
"""

from __future__ import annotations

import _thread
import argparse
import collections
import gc
import re
import sys
import threading
import time
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.clients import TroupeClient
from benchmarks.servers import http_server_farm

READY_TIMEOUT = 300.0
THREAD_STARTS = 200


class GcClock:
    """The CPU each generation's collections take, from ``gc.callbacks`` (start/stop pairs per thread)."""

    def __init__(self) -> None:
        self.count: collections.Counter[int] = collections.Counter()
        self.seconds: collections.Counter[int] = collections.Counter()
        # The same CPU by the kind of thread that collected (the collection runs inside whichever thread's
        # allocation crossed the threshold, so it is part of that thread's clock).
        self.by_kind: collections.Counter[str] = collections.Counter()
        self._started = threading.local()

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started.at = time.thread_time()
            return
        started = getattr(self._started, "at", None)
        if started is not None:
            generation = info["generation"]
            spent = time.thread_time() - started
            self.count[generation] += 1
            self.seconds[generation] += spent
            self.by_kind[kind_of(threading.current_thread().name)] += spent


def thread_cpu() -> dict[int, tuple[str, float]]:
    """Each live thread's name and CPU seconds so far, by ident."""
    cpu: dict[int, tuple[str, float]] = {}
    for thread in threading.enumerate():
        if thread.ident is None:
            continue
        try:
            cpu[thread.ident] = (thread.name, time.clock_gettime(time.pthread_getcpuclockid(thread.ident)))
        except (OSError, ProcessLookupError):  # ended in the meantime
            continue
    return cpu


def kind_of(name: str) -> str:
    """``SessionActor-12 (urn:…)`` → ``SessionActor``."""
    return re.sub(r"[-_ ]?\d+.*$", "", name)


def thread_start_floor() -> float:
    """Microseconds of CPU one bare thread start costs here (the thread waits on an event, then ends)."""
    release = threading.Event()
    started = time.process_time()
    for _ in range(THREAD_STARTS):
        _thread.start_new_thread(release.wait, ())
    spent = time.process_time() - started
    release.set()
    return spent / THREAD_STARTS * 1e6


def profile(urls: list[str]) -> list[tuple[str, float, str]]:
    """The figures of one troupe connecting to every URL (see the module docstring)."""
    from mcp_troupe import Troupe

    lines: list[tuple[str, float, str]] = []
    started = time.process_time()
    import mcp_troupe.actors.http  # noqa: F401  (timed alone: the rest of the profile excludes it)

    lines.append(("gateway.profile.first_http_import", (time.process_time() - started) * 1000, "ms"))
    servers = len(urls)
    troupe = Troupe(TroupeClient.config(urls=urls))
    clock = GcClock()
    gc.callbacks.append(clock)
    try:
        before = thread_cpu()
        cpu_started = time.process_time()
        troupe.start()
        if not troupe.wait_ready(timeout=READY_TIMEOUT):
            raise RuntimeError(f"not every server was ready within {READY_TIMEOUT:g} s")
        cpu = time.process_time() - cpu_started
        after = thread_cpu()
        gc.callbacks.remove(clock)
        tracked = len(gc.get_objects())
    finally:
        if clock in gc.callbacks:
            gc.callbacks.remove(clock)
        troupe.stop()
    lines.append(("gateway.profile.cpu_per_server", cpu / servers * 1000, "ms"))
    by_kind: collections.Counter[str] = collections.Counter()
    for ident, (name, seconds) in after.items():
        by_kind[kind_of(name)] += seconds - before.get(ident, (name, 0.0))[1]
    for kind, seconds in by_kind.most_common():
        lines.append((f"gateway.profile.thread.{kind}", seconds / servers * 1000, "ms"))
    for kind, seconds in by_kind.most_common():
        outside_gc = seconds - clock.by_kind.get(kind, 0.0)
        lines.append((f"gateway.profile.thread.{kind}.outside_gc", outside_gc / servers * 1000, "ms"))
    lines.append(("gateway.profile.gc", sum(clock.seconds.values()) / servers * 1000, "ms"))
    for generation in sorted(clock.count):
        lines.append((f"gateway.profile.gc.gen{generation}", clock.count[generation], "count"))
        lines.append((f"gateway.profile.gc.gen{generation}_ms", clock.seconds[generation] * 1000, "ms"))
    lines.append(("gateway.profile.gc_tracked_per_server", tracked / servers, "count"))
    lines.append(("gateway.profile.thread_start", thread_start_floor(), "us"))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=1000, help="HTTP endpoints (default 1,000)")
    parser.add_argument("--processes", type=int, default=4, help="server processes that serve them")
    args = parser.parse_args(argv)
    with http_server_farm(args.servers, args.processes) as farm:
        print(f"gateway.profile.start {farm.started_s:.3f} s", flush=True)
        for name, value, unit in profile(farm.urls):
            print(f"{name} {value:.3f} {unit}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
