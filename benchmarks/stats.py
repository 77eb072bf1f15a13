"""Figures and their statistics: every round's values, medians, nearest-rank percentiles, ratios, output.

A figure is a name, a unit and the values it took in each round of one run. What is printed is the median
over the rounds (each round's value is itself a median or a p99 over many calls where that applies), one
line per figure, ``name value unit``; every round's value is kept for the JSON report.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

__all__ = [
    "Figures",
    "Settings",
    "environment",
    "format_value",
    "median",
    "percentile",
    "progress",
    "ratio",
    "write_report",
]


def percentile(values: Sequence[float], fraction: float) -> float:
    """Return the nearest-rank percentile of ``values`` (sorted here; ``fraction`` 0.5 is the median)."""
    if not values:
        raise ValueError("percentile of no values")
    ordered = sorted(values)
    return float(ordered[max(0, math.ceil(fraction * len(ordered)) - 1)])


def median(values: Iterable[float]) -> float:
    """Return the median (the mean of the middle two for an even count)."""
    return float(statistics.median(list(values)))


def ratio(numerator: float | None, denominator: float | None) -> float | None:
    """Return ``numerator / denominator``, or None when either is missing or the denominator is 0."""
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def format_value(value: float, unit: str) -> str:
    """Format a value for its unit: whole calls per second, one decimal for microseconds, two otherwise."""
    if unit == "calls/s":
        return f"{value:.0f}"
    if unit == "count":
        return f"{value:.0f}" if value == int(value) else f"{value:.2f}"
    if unit in ("x", "KiB", "MiB", "ms", "s"):
        return f"{value:.2f}"
    return f"{value:.1f}"


def progress(line: str) -> None:
    """Say what is going on, on stderr (stdout carries only the figures)."""
    print(line, file=sys.stderr, flush=True)


@dataclass
class Figures:
    """Every round's value of every figure of a run, its derived ratios, and what went wrong."""

    runs: dict[str, list[float]] = field(default_factory=dict)
    units: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    derived: dict[str, tuple[float, str]] = field(default_factory=dict)

    def add(self, name: str, value: float, unit: str) -> None:
        """Record one round's value of figure ``name``."""
        self.runs.setdefault(name, []).append(float(value))
        self.units[name] = unit

    def problem(self, text: str) -> None:
        """Record (and print at once, as a figure line would be) something that went wrong."""
        self.problems.append(text)
        print(f"# problem: {text}", flush=True)

    def value(self, name: str) -> float | None:
        """The median over rounds of figure ``name``, or a derived figure's value; None when not measured."""
        if name in self.derived:
            return self.derived[name][0]
        values = self.runs.get(name)
        return median(values) if values else None

    def derive(self, name: str, value: float | None, unit: str) -> None:
        """Record a figure computed from others (a ratio, a difference); skipped when ``value`` is None."""
        if value is not None:
            self.derived[name] = (value, unit)

    def add_ratio(self, name: str, numerator: str, denominator: str) -> None:
        """Derive ``name`` as the ratio of two figures' medians (when both were measured)."""
        self.derive(name, ratio(self.value(numerator), self.value(denominator)), "x")

    def table(self) -> dict[str, tuple[float, str]]:
        """Every figure's median and every derived figure, in the order they were first recorded."""
        table = {name: (median(values), self.units[name]) for name, values in self.runs.items()}
        table.update(self.derived)
        return table

    def print_lines(self, names: Iterable[str] | None = None) -> None:
        """Print ``name value unit`` for the given figures (default: all), one per line."""
        table = self.table()
        for name in names if names is not None else table:
            if name in table:
                value, unit = table[name]
                print(f"{name} {format_value(value, unit)} {unit}", flush=True)


@dataclass(frozen=True)
class Settings:
    """How big a run is: ``quick`` (CI-size, about a minute) or ``full`` (what docs/performance.md shows)."""

    mode: str = "full"
    repeat: int = 5
    """Rounds of every latency and throughput figure; the median over rounds is reported."""
    calls: int = 2000
    """Sequential calls measured per round (after ``warmup``)."""
    warmup: int = 200
    inflight: int = 1000
    inflight_total: int = 5000
    multi_servers: int = 10
    multi_inflight: int = 100
    multi_total: int = 5000
    sdk_server_calls: int = 300
    """Sequential calls per round against the SDK's own server (about 2 ms each)."""
    sdk_server_inflight: int = 100
    sdk_server_total: int = 1000
    http_calls: int = 500
    http_inflight: int = 100
    http_total: int = 2000
    connect_repeat: int = 15
    connect_cpu_rounds: int = 5
    """Rounds of fresh worker processes for ``connect.client_cpu`` (one cold connect each, then the warm)."""
    connect_cpu_warm: int = 5
    """Warm connects per worker and round (interleaved between the clients)."""
    discovery_tools: int = 10_000
    discovery_page: int = 100
    discovery_repeat: int = 5
    scale_servers: int = 100
    scale_repeat: int = 3
    scale_tools_per_server: int = 100
    recovery_repeat: int = 5
    gateway_servers: int = 1000
    """Streamable HTTP servers one troupe holds in the gateway figure (each its own port and session)."""
    gateway_processes: int = 4
    """Processes serving them (so that the machine is not filled with interpreters)."""
    deadline: float = 120.0
    """Seconds one measurement of one client may take before it is abandoned."""

    @classmethod
    def quick(cls) -> Settings:
        """A CI-size run: every figure, fewer rounds and calls."""
        return cls(
            mode="quick", repeat=2, calls=300, warmup=50, inflight_total=2000, multi_total=2000,
            sdk_server_calls=100, sdk_server_total=300, http_calls=150, http_total=500, connect_repeat=3,
            connect_cpu_rounds=2, connect_cpu_warm=2,
            discovery_tools=2000, discovery_repeat=2, scale_servers=20, scale_repeat=1,
            scale_tools_per_server=20, recovery_repeat=2, gateway_servers=100, gateway_processes=2,
            deadline=60.0,
        )  # fmt: skip


def source_state() -> dict[str, Any]:
    """Which mcp-troupe was measured: the commit, the files changed since, and a hash of ``src/``'s contents.

    Read-only git commands only; a checkout with uncommitted changes is named as such.
    """
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted((root / "src").rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    state: dict[str, Any] = {"src_sha256": digest.hexdigest()[:16]}
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10
        )
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--", "src"],
            cwd=root,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return state
    state["commit"] = head.stdout.strip() or None
    state["src_changed_since_commit"] = [line[3:] for line in changed.stdout.splitlines()]
    return state


def environment() -> dict[str, Any]:
    """What the figures were measured on."""
    return {
        "source": source_state(),
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "mcp": _version("mcp"),
        "mcp-troupe": _version("mcp-troupe"),
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def _version(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def write_report(
    figures: Figures, settings: Settings, path: Path, extra: dict[str, Any] | None = None
) -> None:
    """Write every figure (median and every round), the problems, the settings and the machine as JSON."""
    table = figures.table()
    report = {
        "figures": {name: {"value": value, "unit": unit} for name, (value, unit) in table.items()},
        "runs": figures.runs,
        "problems": figures.problems,
        "settings": asdict(settings),
        "environment": environment(),
        **(extra or {}),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    progress(f"wrote {path}")


def add_subset_option(
    parser: argparse.ArgumentParser,
    flag: str,
    choices: Sequence[str],
    default: Sequence[str] | None = None,
) -> None:
    """Add ``flag``: a comma-separated subset of ``choices`` (``default``: all of them); a name that is not
    one of them is an argument error naming it."""

    def parse(text: str) -> tuple[str, ...]:
        names = tuple(name.strip() for name in text.split(",") if name.strip())
        if unknown := set(names) - set(choices):
            raise argparse.ArgumentTypeError(f"unknown: {', '.join(sorted(unknown))}")
        return names

    parser.add_argument(
        flag,
        type=parse,
        default=tuple(choices if default is None else default),
        help=f"comma-separated subset of {','.join(choices)}",
    )
