"""bench_http's paired rounds of the modern era: twins side by side, per-round ratios and their spread."""

from __future__ import annotations

import asyncio
import os

import pytest
from benchmarks import bench_http
from benchmarks.stats import Figures, Settings


class FakeClient:
    """A client whose calls take fixed times (in ns), and that remembers when it was measured."""

    def __init__(self, name: str, latency_ns: int, log: list[str]) -> None:
        self.name = name
        self.latency_ns = latency_ns
        self.log = log

    async def sequential(self, calls: int, deadline: float) -> list[int]:
        self.log.append(self.name)
        return [self.latency_ns] * calls


@pytest.fixture(autouse=True)
def no_collections(monkeypatch: pytest.MonkeyPatch) -> None:
    # A full collection before every measurement is the benchmark's business, not this test's (slow here).
    monkeypatch.setattr(bench_http.gc, "collect", lambda: 0)


def run(clients: list[FakeClient], settings: Settings) -> Figures:
    figures = Figures()
    asyncio.run(bench_http.measure_paired_rounds(clients, figures, "m", settings, os.getpid()))
    return figures


@pytest.mark.timeout(10)
def test_twins_run_side_by_side_in_alternating_order_and_their_round_ratios_are_kept() -> None:
    log: list[str] = []
    clients = [
        FakeClient("troupe", 900_000, log),
        FakeClient("sdk", 2_000_000, log),
        FakeClient("troupe_legacy", 1_000_000, log),
        FakeClient("sdk_legacy", 2_500_000, log),
    ]
    settings = Settings.quick()
    figures = run(clients, settings)
    rounds = bench_http.paired_rounds(settings)
    assert rounds >= 7
    # Each round: warm-up then measurement of each client (two entries), twins adjacent, order reversed.
    per_round = [log[index : index + 8 : 2] for index in range(0, len(log), 8)]
    assert len(per_round) == rounds
    assert per_round[0] == ["sdk", "sdk_legacy", "troupe", "troupe_legacy"]
    assert per_round[1] == per_round[0][::-1]
    assert figures.runs["m.seq.p50.ratio_troupe_legacy.rounds"] == pytest.approx([0.9] * rounds)
    assert figures.runs["m.seq.p50.ratio_sdk_legacy.rounds"] == pytest.approx([0.8] * rounds)
    assert figures.runs["m.seq.p50.troupe"] == pytest.approx([900.0] * rounds)
    # The server's CPU is read from /proc where there is one (here: this very process).
    assert ("m.seq.server_cpu.troupe" in figures.runs) == os.path.exists(f"/proc/{os.getpid()}/stat")


@pytest.mark.timeout(10)
def test_a_client_without_its_twin_is_measured_but_makes_no_ratio() -> None:
    log: list[str] = []
    figures = run(
        [FakeClient("troupe", 1_000_000, log), FakeClient("troupe_acall", 800_000, log)], Settings.quick()
    )
    assert "m.seq.p50.troupe_acall" in figures.runs
    assert not any(name.endswith(".rounds") for name in figures.runs)
