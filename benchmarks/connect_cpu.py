"""The client CPU of connect + initialize + discovery over stdio, each client in worker processes of its own.

What a client costs to connect is the CPU its own process spends from nothing to "every tool listed". A
difference of two wall-clock timings (a connect less a bare spawn, ``connect.client``) cannot show it on a
shared machine: the server's start-up (~25 ms of an interpreter) dwarfs the client's few milliseconds and
scatters more than they are. So each client runs in a worker process of its own, and the figure is that
worker's ``time.process_time()`` (every thread of it, user + system) around one connect. The server is a
child of the worker, so none of its CPU is in the figure; the client's side of the pipes (spawning the
process, reading and writing) is.

Two figures per client, because they are different costs:

- **cold** (``connect.client_cpu.cold.<client>``): the first connect in a fresh worker, the library's
  imports and first-use costs included, as a program's first connect pays them. The harness (asyncio,
  json, subprocess, threading; one event loop) is imported and built before the clock starts, for every
  client alike.
- **warm** (``connect.client_cpu.<client>``): a later connect in the same worker, what every connect
  after the first costs (a reconnect, a second server, a CLI command run in a long-lived host). This is
  the per-connect cost the issue's figures (3.8 ms against the SDK's 1.5 ms) describe, and the one the
  target ("connect + initialize + discovery client cost <= 1.0x the SDK's") is judged on:
  ``connect.client_cpu.ratio_troupe_sdk``. A one-off import is not a per-connect cost.
- **reconnect** (``connect.client_cpu.reconnect.<client>``): the same connect with each client's runtime
  kept. The warm figure is not symmetric: the SDK's worker keeps its event loop across connects, while
  troupe's builds a whole troupe each time (the I/O loop's thread and event loop, the registry's thread:
  ~2-3 ms that a troupe pays once, not per server). Here troupe's worker keeps one troupe and, outside the
  clock, stops its server (``stop_server``, which returns once the old process is gone) and waits until that
  close has ended in every thread (the registry has taken it, the old session's and transport's threads have
  ended), as the warm figure's ``stop()`` and the SDK's close have before their next connect; the clock covers
  ``start_server`` + ``wait_ready()`` + ``status()`` + ``tools()``: a new session and transport, the spawn,
  the handshake, the listing and the policy pass, as a reconnect or a troupe's next server pays them. The
  SDK's and the raw client's reconnects are their warm connects again, interleaved with troupe's.

Each round starts one fresh worker per client (in a rotating order; each one's cold connect is done
before the next worker starts, so imports do not overlap), then asks the workers for ``warm`` connects in
turn (A, B, C, A, B, C, ...), then for ``reconnects`` in turn, then ends them. A warm connect (and a
reconnect) is preceded by a ``gc.collect()`` outside the clock, as in ``bench_connect``. Figures are medians
over every sample.

``troupe`` is ``Troupe(config)`` (start) + ``wait_ready()`` + ``status()``, the benchmark's
:class:`~benchmarks.clients.TroupeClient`; its close (``stop()``, joining every actor thread) is outside
the clock and ends before the next connect starts. ``sdk`` is ``stdio_client`` + ``ClientSession`` +
``initialize()`` + every ``tools/list`` page on one event loop that the worker keeps; ``raw`` is the
blocking-pipe floor. ``--threads`` adds, for troupe, each thread kind's share (per-thread CPU clocks read
at ready; the main thread's part is the caller's own).

Alone, it is an A/B between source trees, sides interleaved in every round::

    python benchmarks/connect_cpu.py --side base=/path/to/old/src --side new=src --rounds 7

(each side's ``src`` first on ``PYTHONPATH`` of its workers; the figures then carry the side's name).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import queue
import re
import subprocess
import sys
import threading
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(ROOT))

CLIENTS = ("troupe", "sdk", "raw")
PREFIXES = ("connect.client_cpu", "connect.client_cpu.cold", "connect.client_cpu.reconnect")


# ---- the worker: one client, one fresh process ------------------------------------------------------------


def _thread_kind(name: str) -> str:
    """A thread's name without its serial numbers: ``SessionActor-3`` and ``SessionActor-7`` are one kind."""
    return re.sub(r"[-_ ]?\d+", "", name).strip() or "thread"


def _thread_cpu() -> dict[int, tuple[str, float]]:
    """Every live thread's CPU seconds so far, by ident (Linux per-thread clocks)."""
    out: dict[int, tuple[str, float]] = {}
    for thread in threading.enumerate():
        ident = thread.ident
        if ident is None or thread is threading.main_thread():
            continue
        try:
            clock = time.pthread_getcpuclockid(ident)
            out[ident] = (_thread_kind(thread.name), time.clock_gettime(clock))
        except (OSError, ProcessLookupError):  # ended between enumerate() and the read
            continue
    return out


class Worker:
    """Connects one kind of client to a fresh one-tool ``echo_server.py`` on request, timing its CPU."""

    def __init__(self, client: str, threads: bool) -> None:
        from benchmarks.servers import echo_command

        self.client = client
        self.threads = threads
        self.command = echo_command()
        self.loop = asyncio.new_event_loop()  # the SDK's loop, kept across connects as an application would
        self.kept: Any = None  # troupe's reconnects: one troupe, kept, whose server is stopped and started

    def connect(self, reconnect: bool = False) -> dict[str, Any]:
        """One connect from nothing to every tool listed, then the close (not timed).

        ``reconnect``: troupe's server is connected again in a troupe that stays up (its close before the
        clock starts); the other clients connect as always, their runtime (the SDK's event loop) kept too.
        """
        if reconnect and self.client == "troupe":
            return self._reconnect()
        gc.collect()
        before = _thread_cpu() if self.threads else {}
        main_cpu = time.thread_time()
        cpu, wall = time.process_time(), time.perf_counter()
        result = self.loop.run_until_complete(self._sdk()) if self.client == "sdk" else self._blocking()
        return {**result, "ident": before, "main": main_cpu, "cpu": cpu, "wall": wall}

    def _reconnect(self) -> dict[str, Any]:
        from benchmarks.clients import TroupeClient
        from mcp_troupe import Troupe

        if self.kept is None:
            self.kept = Troupe(TroupeClient.config([self.command])).start()
            if not self.kept.wait_ready(timeout=60):
                raise RuntimeError("the kept troupe did not get ready")
        troupe = self.kept
        troupe.stop_server("echo")  # returns once the old process is gone: its close is not timed
        self._settle_close(troupe)
        gc.collect()
        before = _thread_cpu() if self.threads else {}
        main_cpu = time.thread_time()
        cpu, wall = time.process_time(), time.perf_counter()
        troupe.start_server("echo")
        if not troupe.wait_ready(timeout=60) or troupe.status()[0].state != "ready":
            raise RuntimeError(f"the reconnect did not get ready: {troupe.status()[0]}")
        result = self._stamp(len(troupe.tools()))
        return {**result, "ident": before, "main": main_cpu, "cpu": cpu, "wall": wall}

    @staticmethod
    def _settle_close(troupe: Any) -> None:
        """Wait until the stopped server's close has ended in every thread, outside the clock.

        ``stop_server`` returns once the old process is gone, but the registry may still be taking the stop's
        status and the old session's and transport's threads still ending: CPU of the close, which the warm
        figure (``stop()`` joins every thread) and the SDK's (its close has returned) keep out of the next
        connect's clock. ``status()`` is a registry round trip behind those messages; the thread wait is
        bounded (a thread that does not end in 5 s is the next connect's problem, not a hang here).
        """
        troupe.status()
        deadline = time.monotonic() + 5.0
        while time.monotonic() < deadline and any(
            thread.name.startswith(("SessionActor", "StdioTransport")) for thread in threading.enumerate()
        ):
            time.sleep(0.001)

    def _blocking(self) -> dict[str, Any]:
        from benchmarks.clients import RawPipeClient, TroupeClient

        # A synchronous ExitStack would do; AsyncExitStack keeps the clients' shared connect() signature.
        stack = AsyncExitStack()
        try:
            if self.client == "raw":
                raw = RawPipeClient.connect(stack, [self.command])
                return self._stamp(raw.pipes[0].tool_count)
            troupe = TroupeClient.connect(stack, [self.command])
            return self._stamp(len(troupe.troupe.tools()))
        finally:
            self.loop.run_until_complete(stack.aclose())

    async def _sdk(self) -> dict[str, Any]:
        from benchmarks.clients import SdkClient

        async with AsyncExitStack() as stack:
            sdk = await SdkClient.connect(stack, [self.command])
            return self._stamp(sdk.tool_count)

    def _stamp(self, tools: int) -> dict[str, Any]:
        """The clocks at "every tool listed" (taken before the close)."""
        stamp: dict[str, Any] = {
            "cpu_end": time.process_time(),
            "wall_end": time.perf_counter(),
            "main_end": time.thread_time(),
            "tools": tools,
        }
        if self.threads:
            stamp["threads_end"] = _thread_cpu()
        return stamp

    def answer(self, raw: dict[str, Any]) -> dict[str, Any]:
        """The figures of one connect: CPU and wall milliseconds, and per thread kind with ``--threads``."""
        if raw["tools"] != 1:
            raise RuntimeError(f"{self.client} listed {raw['tools']} tools, expected 1")
        out: dict[str, Any] = {
            "cpu_ms": (raw["cpu_end"] - raw["cpu"]) * 1000,
            "wall_ms": (raw["wall_end"] - raw["wall"]) * 1000,
        }
        if self.threads:
            kinds: dict[str, float] = {"main": (raw["main_end"] - raw["main"]) * 1000}
            for ident, (kind, seconds) in raw["threads_end"].items():
                started = raw["ident"].get(ident, (kind, 0.0))[1]
                kinds[kind] = kinds.get(kind, 0.0) + (seconds - started) * 1000
            out["threads"] = kinds
        return out


def worker_main(client: str, threads: bool) -> int:
    """Serve ``connect`` lines on stdin with one JSON line each on stdout; the first is the cold connect."""
    worker = Worker(client, threads)
    print(json.dumps({"ready": True}), flush=True)
    while line := sys.stdin.readline().strip():
        if line not in ("connect", "reconnect"):
            print(json.dumps({"error": f"unknown request {line!r}"}), flush=True)
            continue
        try:
            print(json.dumps(worker.answer(worker.connect(line == "reconnect"))), flush=True)
        except Exception as exc:
            print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}), flush=True)
    if worker.kept is not None:
        worker.kept.stop()
    worker.loop.close()
    return 0


# ---- the driver ----------------------------------------------------------------------------------------


class WorkerProcess:
    """A worker subprocess (``src`` first on its ``PYTHONPATH`` when given); always ended by :meth:`close`."""

    def __init__(self, client: str, src: str | None, threads: bool, timeout: float) -> None:
        env = dict(os.environ)
        if src is not None:
            env["PYTHONPATH"] = os.pathsep.join(
                filter(None, [str(Path(src).resolve()), env.get("PYTHONPATH")])
            )
        command = [sys.executable, str(Path(__file__).resolve()), "--worker", client]
        if threads:
            command.append("--threads")
        self.client = client
        self.timeout = timeout
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
        # Lines arrive through a thread, so that a worker that hangs is a timeout here, not a driver stuck
        # in readline() with the worker left running.
        self._lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        threading.Thread(target=self._pump, name=f"connect_cpu {client} reader", daemon=True).start()

    def _pump(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        try:
            for line in stdout:
                self._lines.put(line)
        finally:
            self._lines.put("")  # EOF
            stdout.close()  # here, by its only reader, once the worker has closed its end

    def wait_ready(self) -> None:
        """Wait for the worker's first line: its harness is imported, the clock may start."""
        self._read()

    def _read(self) -> dict[str, Any]:
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            raise TimeoutError(f"the {self.client} worker did not answer within {self.timeout} s") from None
        if not line:
            raise RuntimeError(f"the {self.client} worker ended (exit {self.process.wait()})")
        answer: dict[str, Any] = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"the {self.client} worker: {answer['error']}")
        return answer

    def connect(self, reconnect: bool = False) -> dict[str, Any]:
        """One connect's figures (``reconnect``: in the worker's kept troupe, see :meth:`Worker.connect`)."""
        assert self.process.stdin is not None
        self.process.stdin.write("reconnect\n" if reconnect else "connect\n")
        self.process.stdin.flush()
        return self._read()

    def close(self) -> None:
        """End the worker: EOF on stdin, then a kill if it does not exit."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.wait(timeout=self.timeout)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


def measure_round(
    sides: list[tuple[str, str | None]],
    shift: int,
    warm: int,
    threads: bool,
    timeout: float,
    reconnects: int = 0,
) -> list[tuple[str, str, dict[str, Any]]]:
    """One round: a fresh worker per (side, client), its cold connect, then ``warm`` interleaved connects,
    then ``reconnects`` interleaved reconnects (troupe's in a troupe it keeps).

    Returns ``(label, "cold" | "warm" | "reconnect", figures)`` rows, ``label`` being the client (or
    ``side.client``).
    """
    order = [(side, src, client) for side, src in sides for client in CLIENTS]
    shift %= len(order)
    order = order[shift:] + order[:shift]
    workers: list[tuple[str, WorkerProcess]] = []
    rows: list[tuple[str, str, dict[str, Any]]] = []
    try:
        for side, src, client in order:
            label = client if len(sides) == 1 else f"{side}.{client}"
            worker = WorkerProcess(client, src, threads, timeout)
            workers.append((label, worker))  # ended in the finally below, whatever happens next
            worker.wait_ready()
            rows.append((label, "cold", worker.connect()))
        for _ in range(warm):
            for label, worker in workers:
                rows.append((label, "warm", worker.connect()))
        for _ in range(reconnects):
            for label, worker in workers:
                rows.append((label, "reconnect", worker.connect(reconnect=True)))
    finally:
        for _, worker in workers:
            worker.close()
    return rows


def add_figures(figures: Any, rows: list[tuple[str, str, dict[str, Any]]]) -> None:
    """Record the rows as ``connect.client_cpu[.cold|.reconnect].<label>`` (ms) and, with threads, per
    thread kind."""
    for label, kind, row in rows:
        prefix = "connect.client_cpu" if kind == "warm" else f"connect.client_cpu.{kind}"
        figures.add(f"{prefix}.{label}", row["cpu_ms"], "ms")
        for thread, ms in row.get("threads", {}).items():
            figures.add(f"{prefix}.threads.{label}.{thread}", ms, "ms")


async def run_group(figures: Any, settings: Any, names: tuple[str, ...] = CLIENTS) -> None:
    """``bench_connect``'s client-CPU figures: ``settings.connect_cpu_rounds`` rounds of fresh workers."""
    from benchmarks.stats import progress

    for round_number in range(settings.connect_cpu_rounds):
        progress(f"connect client CPU: round {round_number + 1} of {settings.connect_cpu_rounds}")
        try:
            rows = await asyncio.wait_for(
                asyncio.to_thread(
                    measure_round,
                    [("", None)],
                    round_number,
                    settings.connect_cpu_warm,
                    False,
                    30.0,
                    settings.connect_cpu_warm,  # as many reconnects as warm connects
                ),
                settings.deadline,
            )
        except Exception as exc:
            figures.problem(
                f"connect.client_cpu round {round_number + 1} failed: {type(exc).__name__}: {exc}"
            )
            continue
        add_figures(figures, [row for row in rows if row[0] in names])
    for first, second in (("troupe", "sdk"), ("troupe", "raw"), ("sdk", "raw")):
        for prefix in PREFIXES:
            figures.add_ratio(f"{prefix}.ratio_{first}_{second}", f"{prefix}.{first}", f"{prefix}.{second}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--side", action="append", default=[], help="NAME=SRC_DIR (repeatable; default: this tree)"
    )
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warm", type=int, default=5, help="warm connects per worker and round")
    parser.add_argument(
        "--reconnects", type=int, default=5, help="reconnects per worker and round (troupe: one kept troupe)"
    )
    parser.add_argument("--threads", action="store_true", help="troupe's CPU per thread kind too")
    parser.add_argument("--worker", choices=CLIENTS, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        return worker_main(args.worker, args.threads)
    from benchmarks.stats import Figures

    sides: list[tuple[str, str | None]] = []
    for spec in args.side:
        name, sep, src = spec.partition("=")
        if not sep or not name or not src:
            parser.error(f"--side {spec!r}: expected NAME=SRC_DIR")
        sides.append((name, src))
    figures = Figures()
    for round_number in range(args.rounds):
        rows = measure_round(
            sides or [("", None)], round_number, args.warm, args.threads, 30.0, args.reconnects
        )
        add_figures(figures, rows)
        print(f"# round {round_number + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    labels = [f"{side}." if side else "" for side, _ in sides or [("", None)]]
    for prefix in PREFIXES:
        for label in labels:
            figures.add_ratio(
                f"{prefix}.ratio_{label}troupe_sdk", f"{prefix}.{label}troupe", f"{prefix}.{label}sdk"
            )
        if (
            len(sides) == 2
        ):  # the A/B: the second side's troupe against the first's, and the SDK's as a control
            (first, _), (second, _) = sides
            for client in ("troupe", "sdk"):
                figures.add_ratio(
                    f"{prefix}.{client}.ratio_{second}_{first}",
                    f"{prefix}.{second}.{client}",
                    f"{prefix}.{first}.{client}",
                )
    figures.print_lines()
    return 0


if __name__ == "__main__":
    sys.exit(main())
