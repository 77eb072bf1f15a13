"""The fast path (a tool's second and later calls go caller → I/O loop → caller) under real faults.

Every call here is made once first, so that the call under test takes the lane rather than the actors; the
tests then assert what the actor path guarantees: kill -9 fails the call at once and the server comes back
(with a new lane), a timeout and a cancellation tell the server which id, approval and quarantine still
stop a call, and the registry is not asked at all for a cleared tool.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any

import pytest
from tests.faults.test_faults import demo, kill_9_during_a_call, status_of, troupe_of
from tests.faults.test_policy import RecordingApprover, by_name, policy_troupe
from tests.processes import ChildWatch

from mcp_troupe import CallTimedOut, InvalidArguments, ToolDenied, Troupe
from mcp_troupe.actors.registry import RegistryActor

pytestmark = [pytest.mark.faults, pytest.mark.timeout(30)]


def cleared(troupe: Troupe, name: str) -> bool:
    """Whether the registry has published ``name`` for the fast path."""
    return name in troupe._board.routes


@pytest.fixture
def registry_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The tool names of every call that reached the registry."""
    seen: list[str] = []
    original = RegistryActor._on_call

    def counting(self: RegistryActor, msg: Any) -> None:
        seen.append(msg.name)
        original(self, msg)

    monkeypatch.setattr(RegistryActor, "_on_call", counting)
    return seen


def test_only_the_first_call_of_a_tool_reaches_the_registry(registry_calls: list[str]) -> None:
    with troupe_of(demo("d")) as troupe:
        assert troupe.wait_ready(10)
        assert not cleared(troupe, "mcp__d__echo")
        for index in range(20):
            assert troupe.call("mcp__d__echo", {"text": str(index)}).text == str(index)
        assert cleared(troupe, "mcp__d__echo")
        assert registry_calls == ["mcp__d__echo"]

        async def concurrently() -> list[str]:
            results = await asyncio.gather(
                *(troupe.acall("mcp__d__echo", {"text": f"a{i}"}) for i in range(50))
            )
            return [result.text for result in results]

        assert asyncio.run(concurrently()) == [f"a{i}" for i in range(50)]
        assert registry_calls == ["mcp__d__echo"]


def test_kill_9_fails_a_lane_call_at_once_and_the_next_incarnation_gets_a_lane_of_its_own(
    child_watch: ChildWatch, registry_calls: list[str]
) -> None:
    with troupe_of(demo("victim")) as troupe:
        assert troupe.wait_ready(10)
        troupe.call("mcp__victim__sleep", {"seconds": 0})
        kill_9_during_a_call(troupe, "victim")
        assert registry_calls == ["mcp__victim__sleep"]  # the killed call went through the lane
        assert not cleared(troupe, "mcp__victim__sleep")  # a new connection: every tool earns it again
        for _ in range(3):
            assert troupe.call("mcp__victim__echo", {"text": "back"}).text == "back"
        assert registry_calls.count("mcp__victim__echo") == 1
    assert child_watch.wait_until_gone() == set()


def test_a_lane_call_that_times_out_tells_the_server_its_id_and_the_connection_stays(
    registry_calls: list[str],
) -> None:
    with troupe_of(demo("slow")) as troupe:
        assert troupe.wait_ready(10)
        troupe.call("mcp__slow__sleep", {"seconds": 0})
        started = time.monotonic()
        with pytest.raises(CallTimedOut) as caught:
            troupe.call("mcp__slow__sleep", {"seconds": 30}, timeout=0.3)
        assert 0.3 <= time.monotonic() - started < 1.5
        assert registry_calls == ["mcp__slow__sleep"]
        cancelled = json.loads(troupe.call("mcp__slow__get_cancelled").text)
        assert [entry["requestId"] for entry in cancelled] == [caught.value.request_id]
        assert "timed out" in cancelled[0]["reason"]
        assert status_of(troupe, "slow").incarnation == 1


def test_cancelling_a_lane_call_by_handle_and_by_task_tells_the_server_both_times() -> None:
    async def cancel_a_task(troupe: Troupe) -> None:
        task = asyncio.create_task(troupe.acall("mcp__c__sleep", {"seconds": 30}))
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    with troupe_of(demo("c")) as troupe:
        assert troupe.wait_ready(10)
        troupe.call("mcp__c__sleep", {"seconds": 0})
        handle = troupe.submit("mcp__c__sleep", {"seconds": 30})
        time.sleep(0.1)
        assert handle.cancel("stop it")
        assert not handle.cancel()
        with pytest.raises(Exception, match="cancelled"):
            handle.result(timeout=2)
        asyncio.run(cancel_a_task(troupe))
        deadline = time.monotonic() + 5
        while True:
            cancelled = json.loads(troupe.call("mcp__c__get_cancelled").text)
            if len(cancelled) >= 2 or time.monotonic() > deadline:
                break
            time.sleep(0.02)
        assert [entry["reason"] for entry in cancelled] == ["stop it", "the caller cancelled the call"]
        assert troupe.call("mcp__c__echo", {"text": "still here"}).text == "still here"


def test_calls_from_many_threads_through_the_lane_each_get_their_own_answer() -> None:
    with troupe_of(demo("t")) as troupe:
        assert troupe.wait_ready(10)
        troupe.call("mcp__t__echo", {"text": "warm"})
        errors: list[str] = []

        def worker(index: int) -> None:
            for round_number in range(50):
                text = f"{index}-{round_number}"
                answer = troupe.call("mcp__t__echo", {"text": text}).text
                if answer != text:
                    errors.append(f"{text} got {answer}")

        threads = [threading.Thread(target=worker, args=(index,)) for index in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(20)
        assert errors == []


def test_dangerous_tools_are_never_cleared_and_are_asked_about_every_time() -> None:
    approver = RecordingApprover()
    with policy_troupe(approver) as troupe:
        for _ in range(3):
            troupe.call("mcp__pol__destroy", {"path": "x"})
        assert approver.tools_asked() == ["destroy"] * 3
        assert not cleared(troupe, "mcp__pol__destroy")


def test_a_cleared_tool_whose_definition_changes_is_quarantined_not_called_through_the_lane() -> None:
    approver = RecordingApprover()
    with policy_troupe(approver) as troupe:
        troupe.call("mcp__pol__mutable", {"path": "x"})  # asked, approved and remembered
        troupe.call("mcp__pol__mutable", {"path": "x"})  # cleared now
        assert cleared(troupe, "mcp__pol__mutable")
        troupe.call("mcp__pol__mutate")
        deadline = time.monotonic() + 10
        while not by_name(troupe)["mutable"].is_quarantined:
            assert time.monotonic() < deadline, "the changed tool was never quarantined"
            time.sleep(0.02)
        assert not cleared(troupe, "mcp__pol__mutable")
        approver.answer = False
        with pytest.raises(ToolDenied):
            troupe.call("mcp__pol__mutable", {"path": "x"})
        assert approver.asked[-1].is_changed


def test_arguments_json_cannot_write_fail_at_once_on_both_paths_and_the_server_stays_up() -> None:
    # The first call of a tool takes the actors (registry, session), later ones the lane; acall a third
    # way in. Each refuses the call with the reason, and the server is neither crashed nor reconnected.
    class Opaque:
        pass

    with troupe_of(demo("d")) as troupe:
        assert troupe.wait_ready(10)
        up = status_of(troupe, "d")
        with pytest.raises(
            InvalidArguments, match=r"tools/call of 'echo' .* not JSON \(Object of type Opaque"
        ):
            troupe.call("mcp__d__echo", {"text": Opaque()}, timeout=5)
        assert troupe.call("mcp__d__echo", {"text": "first"}, timeout=5).text == "first"
        assert cleared(troupe, "mcp__d__echo")
        with pytest.raises(InvalidArguments, match="Out of range float"):
            troupe.call("mcp__d__echo", {"text": "x", "n": float("nan")}, timeout=5)

        async def through_acall() -> str:
            with pytest.raises(InvalidArguments):
                await troupe.acall("mcp__d__echo", {"text": {1, 2}}, timeout=5)
            return (await troupe.acall("mcp__d__echo", {"text": "after"}, timeout=5)).text

        assert asyncio.run(through_acall()) == "after"
        now = status_of(troupe, "d")
        assert now.state == "ready" and now.incarnation == up.incarnation
