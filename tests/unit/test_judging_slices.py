"""How long one slice of judging runs (actors/judging.py): its budget, stretched only while nothing waits."""

from __future__ import annotations

from collections.abc import Callable

from mcp_troupe.actors.judging import IDLE_STRETCH, CatalogJudging
from mcp_troupe.actors.supervisor import ServerCatalog
from mcp_troupe.policy.catalog import ToolVerdict
from mcp_troupe.protocol.mcp import ToolDefinition


class _Clock:
    """Each tool judged takes one millisecond."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _job(count: int) -> CatalogJudging:
    tools = tuple(ToolDefinition(name=f"t{index}", input_schema={"type": "object"}) for index in range(count))
    return CatalogJudging(
        catalog=ServerCatalog("a", 1, tools, ()), generation=1, previous={}, previous_tools={}, checks={}
    )


def _judge(job: CatalogJudging, clock: _Clock, is_idle: Callable[[], bool] | None = None) -> int:
    def evaluate(tool: ToolDefinition) -> ToolVerdict:
        clock.now += 0.001
        return ToolVerdict(rejected=None, risk="low", fingerprint=tool.name)

    return len(job.judge(evaluate, budget=0.01, clock=clock, is_idle=is_idle))


def test_a_slice_ends_at_its_budget_without_an_idle_probe() -> None:
    assert _judge(_job(1000), _Clock()) == 10


def test_a_slice_goes_on_while_the_mailbox_is_empty_up_to_the_stretch() -> None:
    assert _judge(_job(1000), _Clock(), is_idle=lambda: True) == 10 * IDLE_STRETCH


def test_a_slice_ends_at_the_first_budget_that_finds_a_message_waiting() -> None:
    answers = iter([True, True, False])
    assert _judge(_job(1000), _Clock(), is_idle=lambda: next(answers)) == 30


def test_a_stretched_slice_still_ends_with_the_catalog() -> None:
    job = _job(25)
    assert _judge(job, _Clock(), is_idle=lambda: True) == 25
    assert job.is_done
