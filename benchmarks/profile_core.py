"""Where mcp-troupe's time goes: the call path stage by stage, and discovery's CPU work piece by piece.

Run it as ``python benchmarks/profile_core.py [--calls N] [--tools N]``. Not a side-by-side figure (that is
``run_all.py``): an attribution, to decide what in the core is worth changing. It prints ``name value unit``
lines.

Call path. One troupe, one ``echo_server.py``, sequential ``Troupe.call`` of a tool already called once
(so it takes the lane, not the actors). Entry points of each stage are wrapped (in this process only) to
take a timestamp; per call, the differences are::

    call.caller_to_lane         facade looks up the route, makes the future
    call.lane_to_send           lane encodes the frame, registers the call and its deadline
    call.server_round_trip      the caller's thread writes into the pipe, the server answers, the loop reads
    call.loop_to_caller         loop frames and decodes, completes the future; the caller wakes and renders

Hand-off. One thread-to-thread hand-off through a ``queue.Queue`` (a pykka ``tell``), on the idle machine
and with another process keeping one core busy: what the actor path paid five times a call, and the lane
pays once (the loop completing the caller's future).

Connect. ``Troupe.start()`` to ``wait_ready()`` with one stdio server: the median time at which each stage
of the connect flow begins (``connect.at.<stage>``, ms after ``start()``).

Discovery, in place: one troupe connected to a server with ``--tools`` tools re-lists them on
``list_changed`` (as in ``bench_connect``); the time until the session starts listing, the listing (of which
the session thread's CPU in decoding and parsing pages), and the registry's handling of the new catalog
(an unchanged one is not judged again).

Discovery, piece by piece: the CPU work mcp-troupe does for ``--tools`` tools in pages of 100, each piece
alone (pure functions, no threads): JSON decoding, message validation, tool parsing, naming policy, risk,
the registry's table; against ``json.loads`` alone, which is what the raw floor does.

At scale: the registry's CPU while 100 servers of 100 tools connect one after another (every catalog
arrival rebuilds the whole table), and ``LineFramer``'s time for one large frame read in 64 KiB chunks.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchmarks.clients import TroupeClient
from benchmarks.servers import echo_command

STAGES = ("caller", "lane", "send", "loop_read", "done")


def _stamp(marks: dict[str, int], stage: str, method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        marks.setdefault(stage, time.perf_counter_ns())  # the first entry of a stage per call counts
        return method(*args, **kwargs)

    return wrapper


def call_path(calls: int) -> dict[str, float]:
    """Median microseconds of each stage of a sequential ``Troupe.call``."""
    from mcp_troupe import Troupe
    from mcp_troupe.actors import lane, stdio

    marks: dict[str, int] = {}
    patches = [
        (lane.CallLane, "call", "lane"),
        (stdio._StdioConnection, "send", "send"),
        (stdio._StdioConnection, "pipe_data_received", "loop_read"),
    ]
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    for owner, name, stage in patches:
        setattr(owner, name, _stamp(marks, stage, getattr(owner, name)))
    command = echo_command()
    config = TroupeClient.config([command])
    durations: dict[str, list[float]] = {}
    try:
        with Troupe(config) as troupe:
            troupe.wait_ready(timeout=30)
            for index in range(calls + 200):
                marks.clear()
                marks["caller"] = time.perf_counter_ns()
                troupe.call("mcp__echo__echo", {"text": "x"}, timeout=10)
                marks["done"] = time.perf_counter_ns()
                if index < 200 or any(stage not in marks for stage in STAGES):
                    continue  # warm-up, or a call whose stages interleaved with something else
                for first, second in itertools.pairwise(STAGES):
                    durations.setdefault(f"{first}->{second}", []).append(
                        (marks[second] - marks[first]) / 1000
                    )
    finally:
        for owner, name, method in originals:
            setattr(owner, name, method)
    names = {
        "caller->lane": "call.caller_to_lane",
        "lane->send": "call.lane_to_send",
        "send->loop_read": "call.server_round_trip",
        "loop_read->done": "call.loop_to_caller",
    }
    result = {names[key]: statistics.median(values) for key, values in durations.items()}
    result["call.total"] = sum(result.values())
    return result


CONNECT_STAGES = (
    ("start", None, None),
    ("loop_started", "mcp_troupe.actors.loop:IoLoop", "_main"),
    ("registry_on_start", "mcp_troupe.actors.registry:RegistryActor", "on_start"),
    ("supervisor_incarnation", "mcp_troupe.actors.supervisor:ServerSupervisor", "_start_incarnation"),
    ("transport_open", "mcp_troupe.actors.stdio:StdioTransport", "on_receive"),
    ("loop_spawn", "mcp_troupe.actors.stdio:_StdioConnection", "open"),
    ("pipes_connected", "mcp_troupe.actors.stdio:_StdioConnection", "connection_made"),
    ("session_opened", "mcp_troupe.actors.session:SessionActor", "_on_opened"),
    ("handshake_answered", "mcp_troupe.actors.session:SessionActor", "_on_handshake_result"),
    ("tools_listed", "mcp_troupe.actors.session:SessionActor", "_publish_catalog"),
    ("supervisor_ready", "mcp_troupe.actors.supervisor:ServerSupervisor", "_on_ready"),
    ("registry_server_up", "mcp_troupe.actors.registry:RegistryActor", "_on_server_up"),
    ("wait_ready_returned", None, None),
)


def connect_path(repeat: int) -> dict[str, float]:
    """Median milliseconds from ``Troupe.start()`` to each stage of connecting one stdio server."""
    import importlib

    from mcp_troupe import Troupe

    marks: dict[str, int] = {}
    originals = []
    for stage, target, name in CONNECT_STAGES:
        if target is None or name is None:
            continue
        module_name, _, class_name = target.partition(":")
        owner = getattr(importlib.import_module(module_name), class_name)
        method = getattr(owner, name)
        originals.append((owner, name, method))
        if stage == "loop_started":

            async def loop_main(self: Any, _method: Any = method) -> None:
                marks.setdefault("loop_started", time.perf_counter_ns())
                await _method(self)

            setattr(owner, name, loop_main)
        else:
            setattr(owner, name, _stamp(marks, stage, method))
    command = echo_command()
    config = TroupeClient.config([command])
    offsets: dict[str, list[float]] = {}
    try:
        for _ in range(repeat):
            marks.clear()
            troupe = Troupe(config)
            marks["start"] = time.perf_counter_ns()
            try:
                troupe.start()
                troupe.wait_ready(timeout=30)
                marks["wait_ready_returned"] = time.perf_counter_ns()
            finally:
                troupe.stop()
            for stage, _, _ in CONNECT_STAGES:
                if stage in marks:
                    offsets.setdefault(stage, []).append((marks[stage] - marks["start"]) / 1e6)
    finally:
        for owner, name, method in originals:
            setattr(owner, name, method)
    return {f"connect.at.{stage}": statistics.median(values) for stage, values in offsets.items()}


def _timed(totals: dict[str, float], key: str, method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter_ns()
        try:
            return method(*args, **kwargs)
        finally:
            totals[key] = totals.get(key, 0.0) + (time.perf_counter_ns() - started) / 1e6

    return wrapper


def discovery_path(tools: int, repeat: int) -> dict[str, float]:
    """Median milliseconds of each part of a troupe re-listing ``tools`` tools after ``list_changed``."""
    from mcp_troupe import Troupe
    from mcp_troupe.actors import lane, registry, session, supervisor

    marks: dict[str, int] = {}
    totals: dict[str, float] = {}
    actor_session, actor_supervisor, actor_registry = (
        session.SessionActor,
        supervisor.ServerSupervisor,
        registry.RegistryActor,
    )
    patches: list[tuple[Any, str, Callable[..., Any]]] = [
        (actor_session, "_start_listing", _stamp(marks, "listing_started", actor_session._start_listing)),
        (actor_session, "_publish_catalog", _stamp(marks, "listing_done", actor_session._publish_catalog)),
        (actor_session, "_on_received", _timed(totals, "session_frames_cpu", actor_session._on_received)),
        (lane.CallLane, "receive", _timed(totals, "loop_decode_cpu", lane.CallLane.receive)),
        (actor_supervisor, "on_receive", _stamp(marks, "supervisor", actor_supervisor.on_receive)),
        (actor_registry, "_on_catalog", _timed(totals, "registry_catalog_cpu", actor_registry._on_catalog)),
    ]
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in patches]
    command = echo_command(tools, 100)
    config = TroupeClient.config([command])
    parts: dict[str, list[float]] = {}
    try:
        with Troupe(config) as troupe:
            troupe.wait_ready(timeout=60)
            for owner, name, wrapped in patches:
                setattr(owner, name, wrapped)
            for _ in range(repeat):
                for _ in troupe.events(timeout=0.01):
                    pass
                marks.clear()
                totals.clear()
                started = time.perf_counter_ns()
                troupe.call("mcp__echo__relist", {}, timeout=10)
                for event in troupe.events(timeout=30):
                    if event.kind == "changed":
                        break
                troupe.status()
                ended = time.perf_counter_ns()
                listing = (marks["listing_done"] - marks["listing_started"]) / 1e6
                values = {
                    "discovery.path.total": (ended - started) / 1e6,
                    "discovery.path.until_listing": (marks["listing_started"] - started) / 1e6,
                    "discovery.path.listing": listing,
                    "discovery.path.listing.loop_decode_cpu": totals.get("loop_decode_cpu", 0.0),
                    "discovery.path.listing.session_cpu": totals.get("session_frames_cpu", 0.0),
                    "discovery.path.listing.other": listing
                    - totals.get("session_frames_cpu", 0.0)
                    - totals.get("loop_decode_cpu", 0.0),
                    # an unchanged catalog is recognised and not judged again (RegistryActor._on_catalog)
                    "discovery.path.registry_catalog": totals.get("registry_catalog_cpu", 0.0),
                }
                for name, value in values.items():
                    parts.setdefault(name, []).append(value)
    finally:
        for owner, name, method in originals:
            setattr(owner, name, method)
    return {name: statistics.median(values) for name, values in parts.items()}


def _best_of(repeat: int, work: Callable[[], Any]) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best * 1000


def discovery_work(tools: int) -> dict[str, float]:
    """Milliseconds (best of 5) of each piece of CPU work on ``tools`` tools, 100 a page."""
    import echo_server

    from mcp_troupe.policy.names import assign_names
    from mcp_troupe.policy.trust import effective_risk
    from mcp_troupe.protocol import jsonrpc
    from mcp_troupe.protocol import mcp as proto
    from mcp_troupe.types import ToolSpec

    catalog = echo_server.Catalog(tools, 100)
    frames = [
        b'{"jsonrpc":"2.0","id":%d,"result":' % index + page + b"}"
        for index, page in enumerate(catalog.pages.values())
    ]
    messages = [jsonrpc.decode(frame) for frame in frames]
    parsed = [tool for message in messages for tool in proto.parse_tools_page(message.result).tools]  # type: ignore[union-attr]
    names = {"echo": [tool.name for tool in parsed]}
    verdicts = assign_names(names)

    def table() -> None:
        for tool, verdict in zip(parsed, verdicts.values(), strict=True):
            ToolSpec(
                name=verdict.qualified, original_name=tool.name, server="echo", description=tool.description,
                input_schema=tool.input_schema, title=tool.title, output_schema=tool.output_schema,
                annotations=tool.annotations, risk=effective_risk(tool.annotations, "untrusted"),
            )  # fmt: skip

    policy: dict[str, float] = {}
    try:  # the per-tool policy pass (schema checks, injection scan, fingerprint), where the core has one
        from mcp_troupe.policy.catalog import evaluate_tool
        from mcp_troupe.policy.fingerprint import fingerprint
        from mcp_troupe.policy.injection import scan_tool
        from mcp_troupe.policy.schema import check_input_schema
    except ImportError:
        pass
    else:

        def evaluate_all() -> None:
            for tool in parsed:
                evaluate_tool(tool, trust="untrusted", include=None, exclude=(), security_policy="block")

        policy = {
            "discovery.policy.evaluate_tool": _best_of(3, evaluate_all),
            "discovery.policy.fingerprint": _best_of(
                3, lambda: [fingerprint(t.name, t.description, t.input_schema) for t in parsed]
            ),
            "discovery.policy.check_input_schema": _best_of(
                3, lambda: [check_input_schema(t.input_schema) for t in parsed]
            ),
            "discovery.policy.scan_tool": _best_of(
                3, lambda: [scan_tool(t.name, t.description, t.input_schema, title=t.title) for t in parsed]
            ),
        }
    return {
        **policy,
        "discovery.json_loads": _best_of(5, lambda: [json.loads(frame) for frame in frames]),
        "discovery.jsonrpc_decode": _best_of(5, lambda: [jsonrpc.decode(frame) for frame in frames]),
        "discovery.parse_tools_page": _best_of(
            5,
            lambda: [proto.parse_tools_page(message.result) for message in messages],  # type: ignore[union-attr]
        ),
        "discovery.assign_names": _best_of(5, lambda: assign_names(names)),
        "discovery.risk_and_toolspec": _best_of(5, table),
    }


def handoff(rounds: int = 5000) -> dict[str, float]:
    """Median microseconds of one thread-to-thread hand-off through a ``queue.Queue`` (what a pykka ``tell``
    is), half a ping-pong round trip: on an idle machine, and with another process keeping one core busy.

    On a virtual machine an idle core halts, and waking it costs far more than a context switch on a busy one;
    every hand-off on mcp-troupe's call path pays it.
    """
    import queue
    import threading

    from benchmarks.servers import cpu_hog

    def ping_pong() -> float:
        there: queue.Queue[int | None] = queue.Queue()
        back: queue.Queue[int] = queue.Queue()

        def echo() -> None:
            while (item := there.get(timeout=10)) is not None:
                back.put(item)

        thread = threading.Thread(target=echo, daemon=True)
        thread.start()
        samples = []
        for index in range(rounds):
            started = time.perf_counter_ns()
            there.put(index)
            back.get(timeout=10)
            samples.append((time.perf_counter_ns() - started) / 2000)
        there.put(None)
        thread.join(10)
        return statistics.median(samples)

    idle = ping_pong()
    with cpu_hog(60):
        time.sleep(0.2)
        busy = ping_pong()
    return {"handoff.idle_machine": idle, "handoff.one_core_busy": busy}


def registry_rebuilds(servers: int, tools: int) -> dict[str, float]:
    """Seconds of registry CPU while ``servers`` servers of ``tools`` tools each connect one after another.

    The registry updates the table for the arriving server only (``_update_server``, called directly: the
    actor is built but not started); ``one_rebuild`` re-judges every server's tools, as an approval does.
    """
    import echo_server

    from mcp_troupe.actors.loop import IoLoop, Runtime
    from mcp_troupe.actors.registry import RegistryActor
    from mcp_troupe.actors.supervisor import ServerCatalog
    from mcp_troupe.config import TroupeConfig, stdio_server
    from mcp_troupe.protocol import mcp as proto

    definitions = proto.parse_tools_page({"tools": echo_server.make_tools(tools)}).tools
    config = TroupeConfig(servers={f"s{i}": stdio_server(f"s{i}", "unused") for i in range(servers)})
    table = RegistryActor(config=config, runtime=Runtime(IoLoop()))
    started = time.perf_counter()
    for index in range(servers):
        table._servers[f"s{index}"].catalog = ServerCatalog(f"s{index}", 1, definitions, ())
        table._update_server(f"s{index}")
    total = time.perf_counter() - started
    started = time.perf_counter()
    table._rebuild()
    return {
        f"registry.rebuilds.servers{servers}x{tools}": total,
        f"registry.one_rebuild.tools{servers * tools}": time.perf_counter() - started,
    }


def framer_large_frames() -> dict[str, float]:
    """Seconds ``LineFramer`` takes for one large frame arriving in 64 KiB pipe reads (loop thread time)."""
    from mcp_troupe.protocol.jsonrpc import LineFramer

    result = {}
    for mib in (1, 4, 15):
        data = b"x" * (mib * 1024 * 1024) + b"\n"
        chunks = [data[start : start + 65536] for start in range(0, len(data), 65536)]
        framer = LineFramer(32 * 1024 * 1024)
        started = time.perf_counter()
        for chunk in chunks:
            framer.feed(chunk)
        result[f"framer.frame{mib}MiB"] = time.perf_counter() - started
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--tools", type=int, default=10_000)
    args = parser.parse_args(argv)
    for name, value in handoff().items():
        print(f"{name} {value:.1f} us", flush=True)
    for name, value in call_path(args.calls).items():
        print(f"{name} {value:.1f} us", flush=True)
    for name, value in connect_path(15).items():
        print(f"{name} {value:.2f} ms", flush=True)
    for name, value in discovery_path(args.tools, 7).items():
        print(f"{name}.tools{args.tools} {value:.2f} ms", flush=True)
    for name, value in discovery_work(args.tools).items():
        print(f"{name}.tools{args.tools} {value:.2f} ms", flush=True)
    for name, value in {**registry_rebuilds(100, 100), **framer_large_frames()}.items():
        print(f"{name} {value:.3f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
