"""Render run_all reports as the Markdown tables of docs/performance.md.

Run it as ``python benchmarks/report.py RUN.json [RUN2.json ...]``. With several reports each cell shows
every run's median, separated by `` / `` (run 1 / run 2 ...), so the spread between runs stays visible.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the `benchmarks` package importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.stats import format_value

CLIENT_COLUMNS = ("troupe", "troupe_acall", "troupe_shared", "sdk", "raw")
RATIO_COLUMNS = (
    ("troupe", "sdk"),
    ("troupe_acall", "sdk"),
    ("troupe_shared", "sdk"),
    ("troupe", "raw"),
    ("sdk", "raw"),
)


def rows(settings: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, figure prefix) of every row of the client table."""
    inflight = settings["inflight"]
    multi = f"stdio.multi{settings['multi_servers']}x{settings['multi_inflight']}"
    sdk_inflight = settings["sdk_server_inflight"]
    http_inflight = settings["http_inflight"]
    big = f"discovery.tools{settings['discovery_tools']}"
    tools_each = settings.get("scale_tools_per_server", 1)
    table = [
        ("stdio, minimal server: sequential call p50", "stdio.seq.p50"),
        ("stdio, minimal server: sequential call p99", "stdio.seq.p99"),
        ("stdio, minimal server: client CPU per sequential call", "stdio.seq.cpu"),
        (f"stdio, minimal server: {inflight} calls in flight", f"stdio.inflight{inflight}"),
        (
            f"stdio, minimal server: client CPU per call, {inflight} in flight",
            f"stdio.inflight{inflight}.cpu",
        ),
        ("stdio, minimal server, one core busy: sequential call p50", "stdio.busy.seq.p50"),
        ("stdio, minimal server, one core busy: sequential call p99", "stdio.busy.seq.p99"),
        ("stdio, minimal server, one core busy: client CPU per call", "stdio.busy.seq.cpu"),
        (f"stdio, minimal server, one core busy: {inflight} in flight", f"stdio.busy.inflight{inflight}"),
        (
            f"stdio, {settings['multi_servers']} minimal servers: {settings['multi_inflight']} in flight",
            multi,
        ),
        ("stdio, SDK server: sequential call p50", "stdio.sdkserver.seq.p50"),
        ("stdio, SDK server: sequential call p99", "stdio.sdkserver.seq.p99"),
        (f"stdio, SDK server: {sdk_inflight} in flight", f"stdio.sdkserver.inflight{sdk_inflight}"),
    ]
    for server, label in (("http", "minimal server"), ("http.sdkserver", "SDK server")):
        for kind in ("json", "sse"):
            prefix = f"{server}.{kind}"
            table += [
                (f"HTTP {kind.upper()}, {label}: sequential call p50", f"{prefix}.seq.p50"),
                (f"HTTP {kind.upper()}, {label}: sequential call p99", f"{prefix}.seq.p99"),
                (f"HTTP {kind.upper()}, {label}: client CPU per sequential call", f"{prefix}.seq.cpu"),
                (
                    f"HTTP {kind.upper()}, {label}: {http_inflight} in flight",
                    f"{prefix}.inflight{http_inflight}",
                ),
            ]
    table += [
        (
            "HTTP JSON, SDK server, modern era (2026-07-28): sequential call p50",
            "http.sdkserver.modern.seq.p50",
        ),
        (
            "HTTP JSON, SDK server, modern era (2026-07-28): sequential call p99",
            "http.sdkserver.modern.seq.p99",
        ),
        (
            "HTTP JSON, SDK server, modern era (2026-07-28): client CPU per call",
            "http.sdkserver.modern.seq.cpu",
        ),
        (
            f"HTTP JSON, SDK server, modern era (2026-07-28): {http_inflight} in flight",
            f"http.sdkserver.modern.inflight{http_inflight}",
        ),
        ("connect + initialize + discovery over HTTP (running server)", "connect.http"),
    ]
    table += [
        ("connect + initialize + discovery, client cost (minus bare spawn)", "connect.client"),
        ("connect + initialize + discovery, wall time", "connect"),
        (f"discovery of {settings['discovery_tools']:,} tools, {settings['discovery_page']} a page", big),
        (f"first connect to the {settings['discovery_tools']:,}-tool server", f"{big}.connect"),
        (f"{settings['scale_servers']} stdio servers: all ready", "scale.ready"),
        (f"{settings['scale_servers']} stdio servers: client RSS per server", "scale.rss_per_server"),
        (f"{settings['scale_servers']} stdio servers: OS threads per server", "scale.threads_per_server"),
        (f"{settings['scale_servers']} stdio servers: calls that succeeded", "scale.calls_ok"),
        (
            f"{settings['scale_servers']} stdio servers of {tools_each} tools: all ready",
            f"scale.tools{tools_each}.ready",
        ),
        ("recovery after kill -9 (troupe: to ready; raw: respawn + handshake)", "recovery.ready"),
    ]
    gateway = settings.get("gateway_servers", 1000)
    table += [
        (f"{gateway} HTTP servers: all ready (raw: initialize + list each)", "gateway.ready"),
        (f"{gateway} HTTP servers: client CPU until all ready", "gateway.ready_cpu"),
        (f"{gateway} HTTP servers: client RSS per server", "gateway.rss_per_server"),
        (f"{gateway} HTTP servers: OS threads per server", "gateway.threads_per_server"),
        (f"{gateway} HTTP servers: calls that succeeded", "gateway.calls_ok"),
    ]
    return table


def before_after_table(reports: list[dict[str, Any]]) -> str:
    """mcp-troupe over httpx (``troupe_httpx``, before actors/h1.py) and over the lean client, one run."""
    head = ["figure", "unit", "troupe_httpx", "troupe", "troupe/troupe_httpx"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    inflight = reports[-1]["settings"]["http_inflight"]
    for kind in ("json", "sse"):
        for label, figure in (
            ("sequential call p50", "seq.p50"),
            ("sequential call p99", "seq.p99"),
            ("client CPU per sequential call", "seq.cpu"),
            (f"{inflight} in flight", f"inflight{inflight}"),
        ):
            prefix = f"http.{kind}.{figure}"
            before = cell(reports, f"{prefix}.troupe_httpx")
            if before:
                after = cell(reports, f"{prefix}.troupe")
                ratio = cell(reports, f"{prefix}.ratio_troupe_troupe_httpx")
                unit = unit_of(reports, prefix)
                name = f"HTTP {kind.upper()}, minimal server: {label}"
                lines.append(f"| {name} | {unit} | {before} | {after} | {ratio} |")
    return "\n".join(lines) if len(lines) > 2 else ""


IO_COLUMNS = ("httpx", "h1", "raw")
IO_RATIOS = (("h1", "raw"), ("httpx", "raw"), ("h1", "httpx"))


def io_table(reports: list[dict[str, Any]]) -> str:
    """The HTTP layer alone: httpx (as before), actors/h1.py (now) and the raw floor."""
    head = ["figure", "unit", *IO_COLUMNS, *(f"{a}/{b}" for a, b in IO_RATIOS)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    inflight = reports[-1]["settings"]["http_inflight"]
    for label, figure in (
        ("sequential POST p50", "seq.p50"),
        ("sequential POST p99", "seq.p99"),
        ("client CPU per sequential POST", "seq.cpu"),
        (f"{inflight} in flight", f"inflight{inflight}"),
        (f"client CPU per POST, {inflight} in flight", f"inflight{inflight}.cpu"),
    ):
        prefix = f"http.io.json.{figure}"
        cells = [cell(reports, f"{prefix}.{client}") for client in IO_COLUMNS]
        ratios = [cell(reports, f"{prefix}.ratio_{a}_{b}") for a, b in IO_RATIOS]
        if any(cells):
            lines.append(
                "| " + " | ".join([label, unit_of(reports, prefix, IO_COLUMNS), *cells, *ratios]) + " |"
            )
    return "\n".join(lines) if len(lines) > 2 else ""


ERA_COLUMNS = ("troupe_modern", "troupe_legacy")


def eras_table(reports: list[dict[str, Any]]) -> str:
    """A modern (2026-07-28) call against a legacy one, same minimal dual-era server (``bench_eras``)."""
    head = ["figure", "unit", "modern (2026-07-28)", "legacy (2025-11-25)", "modern/legacy"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    settings = reports[-1]["settings"]
    for transport, prefix, inflight in (
        ("stdio", "eras.stdio", settings["inflight"]),
        ("HTTP JSON", "eras.http.json", settings["http_inflight"]),
    ):
        for label, figure in (
            ("sequential call p50", "seq.p50"),
            ("sequential call p99", "seq.p99"),
            ("client CPU per sequential call", "seq.cpu"),
            (f"{inflight} in flight", f"inflight{inflight}"),
            (f"client CPU per call, {inflight} in flight", f"inflight{inflight}.cpu"),
        ):
            name = f"{prefix}.{figure}"
            cells = [cell(reports, f"{name}.{client}") for client in ERA_COLUMNS]
            if any(cells):
                ratio = cell(reports, f"{name}.ratio_modern_legacy")
                unit = unit_of(reports, name, ERA_COLUMNS)
                lines.append(
                    f"| {transport}, minimal server: {label} | {unit} | {' | '.join(cells)} | {ratio} |"
                )
    return "\n".join(lines) if len(lines) > 2 else ""


def cell(reports: list[dict[str, Any]], name: str) -> str:
    values = []
    for report in reports:
        figure = report["figures"].get(name)
        values.append("-" if figure is None else format_value(figure["value"], figure["unit"]))
    return "" if all(value == "-" for value in values) else " / ".join(values)


def unit_of(reports: list[dict[str, Any]], prefix: str, columns: tuple[str, ...] = CLIENT_COLUMNS) -> str:
    for report in reports:
        for client in columns:
            figure = report["figures"].get(f"{prefix}.{client}")
            if figure is not None:
                return str(figure["unit"])
    return ""


def client_table(reports: list[dict[str, Any]]) -> str:
    head = ["figure", "unit", *CLIENT_COLUMNS, *(f"{a}/{b}" for a, b in RATIO_COLUMNS)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for label, prefix in rows(reports[-1]["settings"]):
        cells = [cell(reports, f"{prefix}.{client}") for client in CLIENT_COLUMNS]
        ratios = [cell(reports, f"{prefix}.ratio_{a}_{b}") for a, b in RATIO_COLUMNS]
        if not any(cells):
            continue
        lines.append("| " + " | ".join([label, unit_of(reports, prefix), *cells, *ratios]) + " |")
    start = cell(reports, "gateway.start")
    if start:
        ratio = cell(reports, "gateway.ready.ratio_troupe_start")
        lines.append(
            f"| the HTTP servers' own start-up (floor for 'all ready') | s | | | | {start} | | | | |"
        )
        lines.append(f"| troupe all-ready / the servers' start-up | x | {ratio} | | | | | | | |")
    spawn = cell(reports, "scale.spawn")
    if spawn:
        ratio = cell(reports, "scale.ready.ratio_troupe_spawn")
        lines.append(
            f"| bare spawn of the same servers (floor for 'all ready') | s | | | | {spawn} | | | | |"
        )
        lines.append(f"| troupe all-ready / bare spawn | x | {ratio} | | | | | | | |")
    tools = reports[-1]["settings"].get("scale_tools_per_server", 1)
    spawn = cell(reports, f"scale.tools{tools}.spawn")
    if spawn:
        ratio = cell(reports, f"scale.tools{tools}.ready.ratio_troupe_spawn")
        lines.append(f"| bare spawn of the {tools}-tool servers | s | | | | {spawn} | | | | |")
        lines.append(f"| troupe all-ready ({tools}-tool servers) / bare spawn | x | {ratio} | | | | | | | |")
    connect_spawn = cell(reports, "connect.spawn")
    if connect_spawn:
        lines.append(f"| bare spawn + one ping (subtracted above) | ms | | | | {connect_spawn} | | | | |")
    return "\n".join(lines)


def target_table(reports: list[dict[str, Any]]) -> str:
    lines = ["| target | figure | value | verdict |", "|---|---|---|---|"]
    for name, target in reports[-1].get("targets", {}).items():
        values, verdicts = [], []
        for report in reports:
            entry = report.get("targets", {}).get(name, {})
            value = entry.get("value")
            values.append("-" if value is None else f"{value:.2f}")
            verdicts.append(entry.get("verdict", "not measured"))
        lines.append(f"| {name} | `{target['figure']}` | {' / '.join(values)} | {' / '.join(verdicts)} |")
    return "\n".join(lines)


def load_table(reports: list[dict[str, Any]]) -> str:
    lines = ["| group | load average (1 min) at start / end, per run |", "|---|---|"]
    groups = reports[-1].get("group_seconds", {})
    for group in groups:
        values = []
        for report in reports:
            load = report.get("load_average", {})
            start, end = load.get(f"{group}.start"), load.get(f"{group}.end")
            values.append("-" if start is None or end is None else f"{start[0]:.1f} → {end[0]:.1f}")
        lines.append(f"| {group} | {' / '.join(values)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    paths = [Path(arg) for arg in (argv if argv is not None else sys.argv[1:])]
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    reports = [json.loads(path.read_text(encoding="utf-8")) for path in paths]
    print(target_table(reports))
    print()
    print(client_table(reports))
    for extra in (io_table(reports), before_after_table(reports), eras_table(reports)):
        if extra:
            print()
            print(extra)
    if any("load_average" in report for report in reports):
        print()
        print(load_table(reports))
    problems = [problem for report in reports for problem in report.get("problems", [])]
    if problems:
        print()
        for problem in problems:
            print(f"- problem: {problem}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
