"""Scale (100 stdio servers in one client process) and recovery (kill -9 to ready again).

Run it alone as ``python benchmarks/bench_scale.py [--quick]``, or through ``benchmarks/run_all.py``.

Scale. Each client is measured ``Settings.scale_repeat`` times, interleaved, each time in a fresh Python
process of its own (``--phase troupe|sdk|spawn``), so that its RSS and threads are its own and not what an
earlier phase left behind; the phase prints one JSON line.

- ``spawn``: the floor. Spawn the same ``Settings.scale_servers`` echo servers with ``subprocess.Popen``
  (``start_new_session=True``, as mcp-troupe and the SDK's ``stdio_client`` do: without it spawning 100 is
  2-4x slower here), send each an ``initialize`` and wait until every one has answered.
- ``troupe``: one ``Troupe`` with that many stdio servers: ``start()`` to ``wait_ready()`` with every
  server ready, then one call to every server (all must succeed), then ``stop()``.
- ``sdk``: one ``ClientSession`` per server, each opened in its own task (as a user of the SDK would, with
  ``stdio_client``), all started at once; ready when every one has initialized and listed its tools.

RSS is ``VmRSS`` of the client process from ``/proc/self/status``, after minus before (the libraries are
imported before the first reading), over the number of servers. Threads are ``Threads`` from the same file
(every OS thread) and ``threading.active_count()`` (Python threads), after minus before, per server; the
JSON report has them by thread name, which tells actor threads from asyncio's child-watcher threads
(on Python 3.11 asyncio's default ``ThreadedChildWatcher`` runs one ``waitpid`` thread per child process).

The same three phases run once more with every server listing ``Settings.scale_tools_per_server`` tools
(``scale.tools100.*``): the time until all are ready then includes what each client does per tool.

Recovery. One troupe, one server, ``ReconnectPolicy(initial_delay=0.01, max_delay=0.01, max_attempts=5)``:
SIGKILL the server and time until the ``connected`` event of the new incarnation (``lost`` is timed too).
The floor: the raw client notices EOF on the killed server's stdout, spawns it again and handshakes.
Figures::

    scale.spawn.s / scale.ready.<client>.s          s
    scale.ready.ratio_<client>_spawn                x     target for troupe: <= 2
    scale.rss_per_server.<client>                   KiB   target for troupe: <= 1024
    scale.threads_per_server.<client>               count (OS threads)
    scale.calls_ok.<client>                         count (of scale_servers)
    recovery.lost.troupe / recovery.ready.troupe    ms
    recovery.ready.raw                              ms
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import json
import os
import re
import selectors
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.clients import CALL_TIMEOUT, Aborted, RawPipe, TroupeClient
from benchmarks.servers import echo_command, kill
from benchmarks.stats import Figures, Settings, progress, write_report

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_JSON = Path(__file__).resolve().parent / "results" / "scale.json"
PHASE_TIMEOUT = 300.0
_INITIALIZE = (
    b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18",'
    b'"capabilities":{},"clientInfo":{"name":"bench-spawn","version":"0"}}}\n'
)


def _status() -> dict[str, int]:
    """VmRSS (KiB) and Threads of this process, from /proc/self/status."""
    values = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "Threads"):
                values[key] = int(value.split()[0])
    return values


def _thread_kinds() -> dict[str, int]:
    """Python threads by name, with trailing numbers dropped (``SessionActor-12`` → ``SessionActor``)."""
    names = [re.sub(r"[-_ ]?\d+$", "", thread.name) for thread in threading.enumerate()]
    return dict(collections.Counter(names))


def _snapshot() -> dict[str, Any]:
    gc.collect()
    status = _status()
    return {
        "rss_kib": status["VmRSS"],
        "os_threads": status["Threads"],
        "py_threads": threading.active_count(),
        "kinds": _thread_kinds(),
    }


def _delta(before: dict[str, Any], after: dict[str, Any], servers: int) -> dict[str, Any]:
    kinds = {
        kind: (after["kinds"].get(kind, 0) - before["kinds"].get(kind, 0)) / servers
        for kind in after["kinds"]
        if after["kinds"].get(kind, 0) != before["kinds"].get(kind, 0)
    }
    return {
        "rss_per_server_kib": (after["rss_kib"] - before["rss_kib"]) / servers,
        "os_threads_per_server": (after["os_threads"] - before["os_threads"]) / servers,
        "py_threads_per_server": (after["py_threads"] - before["py_threads"]) / servers,
        "py_threads_per_server_by_kind": kinds,
    }


# ---- the phases, each run in a process of its own ----------------------------------------------------------


def phase_spawn(servers: int, tools: int = 1) -> dict[str, Any]:
    """Spawn ``servers`` echo servers, send each ``initialize``, wait for every answer."""
    processes: list[subprocess.Popen[bytes]] = []
    try:
        started = time.perf_counter()
        for _ in range(servers):
            processes.append(
                subprocess.Popen(
                    echo_command(tools),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    start_new_session=True,
                )
            )
        with selectors.DefaultSelector() as selector:
            for process in processes:
                assert process.stdin is not None and process.stdout is not None
                process.stdin.write(_INITIALIZE)
                process.stdin.flush()
                selector.register(process.stdout, selectors.EVENT_READ, process)
            waiting = len(processes)
            deadline = time.monotonic() + PHASE_TIMEOUT
            while waiting and time.monotonic() < deadline:
                for key, _ in selector.select(1.0):
                    key.data.stdout.readline()
                    selector.unregister(key.fileobj)
                    waiting -= 1
            if waiting:
                raise Aborted(f"{waiting} servers did not answer initialize")
        return {"ready_s": time.perf_counter() - started}
    finally:
        for process in processes:
            kill(process)


def phase_troupe(servers: int, tools: int = 1) -> dict[str, Any]:
    """One troupe with ``servers`` stdio servers: ready time, RSS and threads per server, a call to each."""
    from mcp_troupe import Troupe

    config = TroupeClient.config([echo_command(tools) for _ in range(servers)])
    troupe = Troupe(config)
    before = _snapshot()
    try:
        started = time.perf_counter()
        troupe.start()
        settled = troupe.wait_ready(timeout=PHASE_TIMEOUT)
        ready_s = time.perf_counter() - started
        ready = sum(1 for status in troupe.status() if status.state == "ready")
        if not settled or ready != servers:
            raise Aborted(f"{ready} of {servers} servers ready")
        after = _snapshot()
        handles = [
            troupe.submit(f"mcp__{name}__echo", {"text": name}, timeout=CALL_TIMEOUT)
            for name in config.servers
        ]
        calls_ok = sum(1 for handle in handles if handle.result(CALL_TIMEOUT * 2).text == handle.name[5:-6])
    finally:
        stop_started = time.perf_counter()
        troupe.stop()
        stop_s = time.perf_counter() - stop_started
    return {"ready_s": ready_s, "calls_ok": calls_ok, "stop_s": stop_s, **_delta(before, after, servers)}


def phase_sdk(servers: int, tools: int = 1) -> dict[str, Any]:
    """One ``ClientSession`` per server, each in its own task, all started at once."""
    import anyio
    from mcp import ClientSession, StdioServerParameters, stdio_client

    from benchmarks.clients import SdkClient

    result: dict[str, Any] = {}

    async def main() -> None:
        before = _snapshot()
        sessions: list[Any] = []
        done = anyio.Event()
        ready = 0
        all_ready = anyio.Event()

        async def hold(index: int) -> None:
            nonlocal ready
            command = echo_command(tools)
            parameters = StdioServerParameters(command=command[0], args=command[1:])
            async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                await SdkClient.list_all_tools(session)
                sessions.append(session)
                ready += 1
                if ready == servers:
                    all_ready.set()
                await done.wait()

        started = time.perf_counter()
        with anyio.fail_after(PHASE_TIMEOUT):
            async with anyio.create_task_group() as group:
                for index in range(servers):
                    group.start_soon(hold, index)
                await all_ready.wait()
                result["ready_s"] = time.perf_counter() - started
                after = _snapshot()
                answers = await asyncio.gather(
                    *(session.call_tool("echo", {"text": "x"}) for session in sessions)
                )
                result["calls_ok"] = sum(1 for answer in answers if answer.content[0].text == "x")
                result.update(_delta(before, after, servers))
                done.set()

    asyncio.run(main())
    return result


PHASES = {"spawn": phase_spawn, "troupe": phase_troupe, "sdk": phase_sdk}


def run_phase(phase: str, servers: int, tools: int = 1) -> dict[str, Any]:
    """Run one phase in a fresh Python process and return its JSON result."""
    command = [sys.executable, "-m", "benchmarks.bench_scale", "--phase", phase, "--servers", str(servers)]
    command += ["--tools", str(tools)]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE)
    try:
        output, _ = process.communicate(timeout=PHASE_TIMEOUT + 30)
    finally:
        kill(process)
    if process.returncode != 0:
        raise Aborted(f"the {phase} phase exited with code {process.returncode}")
    result: dict[str, Any] = json.loads(output.decode().strip().splitlines()[-1])
    return result


# ---- recovery ----------------------------------------------------------------------------------------------


def recovery_troupe(repeat: int) -> list[tuple[float, float]]:
    """SIGKILL the server ``repeat`` times; return (seconds to ``lost``, seconds to ``connected``) each."""
    from mcp_troupe import Troupe
    from mcp_troupe.config import ReconnectPolicy

    policy = ReconnectPolicy(initial_delay=0.01, max_delay=0.01, max_attempts=5)
    config = TroupeClient.config([echo_command()], reconnect=policy)
    timings = []
    with Troupe(config) as troupe:
        if not troupe.wait_ready(timeout=60):
            raise Aborted("the server did not become ready")
        for _ in range(repeat):
            status = troupe.status()[0]
            if status.pid is None or status.state != "ready":
                raise Aborted(f"not ready before the kill: {status!r}")
            for _ in troupe.events(timeout=0.01):  # drop what happened before
                pass
            started = time.perf_counter()
            os.kill(status.pid, signal.SIGKILL)
            lost = None
            for event in troupe.events(timeout=30):
                if event.kind == "lost" and lost is None:
                    lost = time.perf_counter() - started
                if event.kind == "connected" and event.incarnation > status.incarnation:
                    timings.append((lost or 0.0, time.perf_counter() - started))
                    break
                if event.kind == "failed":
                    raise Aborted(f"the server failed instead of recovering: {event.detail}")
            else:
                raise Aborted("no connected event within 30 s of the kill")
            troupe.call("mcp__echo__echo", {"text": "back"}, timeout=CALL_TIMEOUT)
    return timings


def recovery_raw(repeat: int) -> list[float]:
    """The floor: SIGKILL, notice EOF, spawn again, handshake; seconds each time."""
    timings = []
    pipe = RawPipe(echo_command())
    try:
        pipe.handshake()
        for _ in range(repeat):
            started = time.perf_counter()
            os.kill(pipe.process.pid, signal.SIGKILL)
            with contextlib.suppress(Aborted):
                pipe.read()  # EOF
            pipe.close()
            pipe = RawPipe(echo_command())
            pipe.handshake()
            timings.append(time.perf_counter() - started)
    finally:
        pipe.close()
    return timings


# ---- the group ---------------------------------------------------------------------------------------------


async def run_group(figures: Figures, settings: Settings) -> dict[str, Any]:
    """The scale and recovery figures; return the phases' full results for the JSON report."""
    servers = settings.scale_servers
    details: dict[str, Any] = {}
    phases = ["spawn", "troupe", "sdk"]
    for round_number in range(settings.scale_repeat):
        shift = round_number % len(phases)
        for phase in phases[shift:] + phases[:shift]:
            progress(
                f"scale: round {round_number + 1}, {phase} with {servers} servers (a process of its own)"
            )
            try:
                result = await asyncio.to_thread(run_phase, phase, servers)
            except Exception as exc:
                figures.problem(f"scale.{phase} failed: {type(exc).__name__}: {exc}")
                continue
            details.setdefault(phase, []).append(result)
            if phase == "spawn":
                figures.add("scale.spawn", result["ready_s"], "s")
                continue
            figures.add(f"scale.ready.{phase}", result["ready_s"], "s")
            figures.add(f"scale.rss_per_server.{phase}", result["rss_per_server_kib"], "KiB")
            figures.add(f"scale.threads_per_server.{phase}", result["os_threads_per_server"], "count")
            figures.add(f"scale.calls_ok.{phase}", result["calls_ok"], "count")
    for phase in ("troupe", "sdk"):
        figures.add_ratio(f"scale.ready.ratio_{phase}_spawn", f"scale.ready.{phase}", "scale.spawn")
    figures.add_ratio("scale.ready.ratio_troupe_sdk", "scale.ready.troupe", "scale.ready.sdk")

    # The same with every server listing many tools (one round): what the registry's table costs at scale.
    tools = settings.scale_tools_per_server
    if tools > 1:
        for phase in phases:
            progress(f"scale: {phase} with {servers} servers of {tools} tools each")
            try:
                result = await asyncio.to_thread(run_phase, phase, servers, tools)
            except Exception as exc:
                figures.problem(f"scale.tools{tools}.{phase} failed: {type(exc).__name__}: {exc}")
                continue
            details.setdefault(f"tools{tools}.{phase}", []).append(result)
            name = "spawn" if phase == "spawn" else f"ready.{phase}"
            figures.add(f"scale.tools{tools}.{name}", result["ready_s"], "s")
        for phase in ("troupe", "sdk"):
            figures.add_ratio(
                f"scale.tools{tools}.ready.ratio_{phase}_spawn",
                f"scale.tools{tools}.ready.{phase}",
                f"scale.tools{tools}.spawn",
            )

    progress(f"recovery: {settings.recovery_repeat} kills")
    try:
        for lost, ready in await asyncio.to_thread(recovery_troupe, settings.recovery_repeat):
            figures.add("recovery.lost.troupe", lost * 1000, "ms")
            figures.add("recovery.ready.troupe", ready * 1000, "ms")
    except Exception as exc:
        figures.problem(f"recovery.troupe failed: {type(exc).__name__}: {exc}")
    try:
        for seconds in await asyncio.to_thread(recovery_raw, settings.recovery_repeat):
            figures.add("recovery.ready.raw", seconds * 1000, "ms")
    except Exception as exc:
        figures.problem(f"recovery.raw failed: {type(exc).__name__}: {exc}")
    figures.add_ratio("recovery.ready.ratio_troupe_raw", "recovery.ready.troupe", "recovery.ready.raw")
    return details


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a CI-size run")
    parser.add_argument("--json", type=Path, default=DEFAULT_JSON, help="where to write all figures")
    parser.add_argument("--phase", choices=sorted(PHASES), help=argparse.SUPPRESS)
    parser.add_argument("--servers", type=int, default=100, help=argparse.SUPPRESS)
    parser.add_argument("--tools", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.phase:
        print(json.dumps(PHASES[args.phase](args.servers, args.tools)), flush=True)
        return 0
    settings = Settings.quick() if args.quick else Settings()
    figures = Figures()
    details = asyncio.run(run_group(figures, settings))
    figures.print_lines()
    write_report(figures, settings, args.json, {"scale": details})
    return 0 if figures.runs else 1


if __name__ == "__main__":
    sys.exit(main())
