"""Withheld tools end to end: a real stdio server, the registry, the review store and ``troupe review``.

A finding of low confidence withholds the tool: not listed by ``tools()``, not callable, its reason in the
server's status, and recorded as pending in the review store. An operator's release (by fingerprint) registers
it; a changed definition is withheld again; ``keep`` keeps it out. High-confidence findings are blocked.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from mcp_troupe import Troupe, TroupeConfig, UnknownTool, stdio_server
from mcp_troupe.cli import main
from mcp_troupe.review import ReviewStore
from mcp_troupe.types import ToolSpec

pytestmark = [pytest.mark.faults, pytest.mark.timeout(60)]

SERVER = str(Path(__file__).parent / "servers" / "review_server.py")
WITHHELD = "mcp__rev__key_helper"


@contextmanager
def review_troupe() -> Iterator[Troupe]:
    config = TroupeConfig(servers={"rev": stdio_server("rev", sys.executable, SERVER)}, approval_mode="auto")
    with Troupe(config) as troupe:
        assert troupe.wait_ready(15)
        yield troupe


def listed(troupe: Troupe) -> dict[str, ToolSpec]:
    return {spec.original_name: spec for spec in troupe.tools() if spec.server == "rev"}


def test_a_withheld_tool_is_neither_listed_nor_callable_and_is_pending_review() -> None:
    with review_troupe() as troupe:
        assert set(listed(troupe)) == {"plain", "rewrite"}
        (status,) = troupe.status()
        assert status.rejected["key_helper"].startswith(
            "withheld until an operator reviews it (troupe review)"
        )
        assert "model-directive" in status.rejected["key_helper"]
        # High confidence: blocked outright, not withheld.
        assert status.rejected["hijack"].startswith("looks like prompt injection")
        with pytest.raises(UnknownTool, match="withheld until an operator reviews it"):
            troupe.call(WITHHELD, {"path": "x"}, timeout=5)
    (pending,) = ReviewStore().pending()
    assert (pending.server, pending.tool, pending.status) == ("rev", "key_helper", "pending")
    assert [(f.rule, f.confidence) for f in pending.findings] == [("model-directive", "low")]


def test_a_release_registers_the_tool_until_its_definition_changes() -> None:
    with review_troupe():
        pass
    ReviewStore().decide("rev", "key_helper", "released")
    with review_troupe() as troupe:
        spec = listed(troupe)["key_helper"]
        assert spec.warnings and spec.warnings[0].startswith("released by operator review")
        assert troupe.call(WITHHELD, {"path": "x"}, timeout=5).text == "key_helper ran"
        # The server rewrites the released tool: the new definition is withheld and pending again.
        troupe.call("mcp__rev__rewrite", {}, timeout=5)
        assert _wait_until(lambda: "key_helper" not in listed(troupe)), "the rewritten tool stayed registered"
        with pytest.raises(UnknownTool, match="withheld"):
            troupe.call(WITHHELD, {"path": "x"}, timeout=5)
    statuses = [entry.status for entry in ReviewStore().entries()]
    assert statuses == ["released", "pending"]


def test_keep_rejects_the_tool_for_good() -> None:
    with review_troupe():
        pass
    ReviewStore().decide("rev", "key_helper", "kept")
    with review_troupe() as troupe:
        assert "key_helper" not in listed(troupe)
        (status,) = troupe.status()
        assert status.rejected["key_helper"].startswith("kept out by operator review")


def test_troupe_review_lists_scans_and_releases(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "troupe.yaml"
    config.write_text(
        "tools:\n  mcp_servers:\n    rev:\n"
        f"      command: {json.dumps(sys.executable)}\n      args: [{json.dumps(SERVER)}]\n"
    )
    assert main(["review", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert main(["review", "--scan", "--wait", "15", "-c", str(config), "--json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)
    assert (entry["server"], entry["tool"], entry["status"]) == ("rev", "key_helper", "pending")
    assert entry["findings"][0]["rule"] == "model-directive"
    assert main(["review", "release", "rev", "key_helper"]) == 0
    assert "released tool 'key_helper' of server 'rev'" in capsys.readouterr().out
    assert main(["review"]) == 0
    assert "no tools withheld for review" in capsys.readouterr().out
    # Deciding on a tool that is not pending names what is.
    assert main(["review", "keep", "rev", "plain"]) == 1
    assert "no pending definition of tool 'plain' on server 'rev'" in capsys.readouterr().err
    assert main(["review", "release", "rev"]) == 2


def _wait_until(predicate: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Poll ``predicate`` (the table changes on a notification the test cannot wait on) for ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False
