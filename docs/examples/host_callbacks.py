"""Every host callback of mcp-troupe, against one SDK server whose tools need them (docs/host-callbacks.md).

Run it from the repository root: ``python docs/examples/host_callbacks.py``. The tests run it too
(``tests/interop/test_host_callbacks.py``), so it stays true.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from mcp_troupe import Troupe
from mcp_troupe.config import TroupeConfig, stdio_server
from mcp_troupe.host import ElicitationRequest, LogEntry, ProgressEvent, SamplingRequest, SamplingResult

SERVER = Path(__file__).resolve().parents[2] / "tests" / "interop" / "servers" / "sdk_host.py"


def ask_user(request: ElicitationRequest) -> dict[str, Any]:
    """A form: a real host shows ``request.message`` and a form pre-filled with ``request.defaults``."""
    if request.mode == "url":
        # Never open it: show the origin first, and ask the user.
        print(f"{request.server} wants you to open {request.origin}: {request.url}")
        return {"action": "decline"}
    return {"action": "accept", "content": {**request.defaults, "name": "Ada"}}


async def my_model(request: SamplingRequest) -> SamplingResult:
    """Sampling: call your own model with ``request.messages`` (the server's text, untrusted)."""
    last = request.messages[-1]["content"]
    return SamplingResult(text=f"summary of {last.get('text', '')!r}", model="my-model-1")


def on_progress(event: ProgressEvent) -> None:
    print(f"progress {event.tool}: {event.progress:g}/{event.total:g} {event.message or ''}")


def on_log(entry: LogEntry) -> None:
    print(f"log {entry.server} [{entry.level}] {entry.data}")


def main() -> list[str]:
    config = TroupeConfig(
        approval_mode="auto",  # the example's tools run without asking; sampling from a trusted server
        # protocol="legacy": this example server asks with server-to-client requests (ctx.elicit ...), which
        # only the legacy era carries; against a 2026-07-28 server the same handlers answer its
        # input_required rounds, with no change here.
        servers={
            "host": replace(
                stdio_server("host", sys.executable, str(SERVER)), trust_level="trusted", protocol="legacy"
            )
        },
    )
    answers = []
    with Troupe(
        config,
        elicitation_handler=ask_user,
        sampling_handler=my_model,
        roots=[Path.cwd()],
        log_handler=on_log,
        progress_handler=on_progress,
    ) as troupe:
        troupe.wait_ready(timeout=30)
        answers.append(troupe.call("mcp__host__ask_profile", {}).text)
        answers.append(troupe.call("mcp__host__summarise", {"text": "a long text"}).text)
        answers.append(troupe.call("mcp__host__where", {}).text)
        answers.append(troupe.call("mcp__host__count", {"steps": 3, "delay": 0.1}, timeout=5).text)
        answers.append(troupe.call("mcp__host__chatty", {}).text)
    for answer in answers:
        print(answer)
    return answers


if __name__ == "__main__":
    main()
