"""A first listing of many pages, end to end: its pages reach the registry as they arrive and are judged
meanwhile (actors/prejudging.py), and the table is still the whole catalog, published once (issue 18)."""

from __future__ import annotations

import sys
import threading
from typing import Any

import pytest

from mcp_troupe import Troupe, TroupeConfig, stdio_server
from mcp_troupe.actors import prejudging
from mcp_troupe.actors.prejudging import ToolsListed
from mcp_troupe.actors.registry import RegistryActor

pytestmark = [pytest.mark.faults]


@pytest.mark.timeout(60)
def test_the_pages_of_a_first_listing_are_handed_on_and_the_table_is_the_whole_catalog(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[ToolsListed] = []
    lock = threading.Lock()
    original = RegistryActor._on_tools_listed

    def spy(self: RegistryActor, msg: ToolsListed) -> None:
        with lock:
            seen.append(msg)
        original(self, msg)

    monkeypatch.setattr(RegistryActor, "_on_tools_listed", spy)
    # A local demo server answers each page at once, faster than SLOW_PAGE_SECONDS: tell every page.
    monkeypatch.setattr(prejudging, "SLOW_PAGE_SECONDS", 0.0)
    demo = (sys.executable, "-m", "mcp_troupe.demo")
    servers = {
        "whole": stdio_server("whole", *demo, connect_timeout=20.0),
        # Two tools a page, and list_changed sent while the first listing runs: it starts again.
        "paged": stdio_server(
            "paged", *demo, "--page-size", "2", "--list-changed-storm", "3", connect_timeout=20.0
        ),
    }
    with Troupe(TroupeConfig(approval_mode="auto", servers=servers)) as troupe:
        assert troupe.wait_ready(timeout=30)
        tools = troupe.tools()
        statuses = {status.name: status for status in troupe.status()}
    names = {server: sorted(s.original_name for s in tools if s.server == server) for server in servers}
    assert names["paged"] == names["whole"] and names["whole"]
    assert statuses["paged"].unjudged == 0 and statuses["paged"].rejected == statuses["whole"].rejected

    pages = [page for page in seen if page.server == "paged"]
    assert not [page for page in seen if page.server == "whole"], "a one-page listing hands nothing on"
    assert pages and pages[0].is_first
    # The listing that was published (the storm may start it again first) had its pages handed on, two
    # tools each, all but the last.
    last = max(index for index, page in enumerate(pages) if page.is_first)
    published: list[Any] = [tool.name for page in pages[last:] for tool in page.tools]
    assert all(len(page.tools) == 2 for page in pages[last:])
    assert len(published) >= 2 and set(published) <= set(names["paged"]) | set(statuses["paged"].rejected)
