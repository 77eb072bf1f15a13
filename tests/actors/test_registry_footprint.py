"""What the registry keeps per tool for the garbage collector, once a catalog is judged and published.

Issue 18: every object a catalog keeps is walked by each full collection for as long as the catalog stands,
and every object allocated brings the next collection nearer; on a first connect to 10,000 tools the
collector took a fifth of the client's CPU. The registry's own share per tool is the verdict and the table's
``ToolSpec``; a route and a (definition, verdict) pair were each one more (4 kept per tool at 6cfeb7f,
counted this way). Counted, not timed, so it holds on a busy machine.
"""

from __future__ import annotations

import gc
from concurrent.futures import Future

import pytest

from mcp_troupe.actors.loop import Runtime
from mcp_troupe.actors.registry import WhenSettled
from mcp_troupe.actors.supervisor import ServerCatalog, ServerUp
from mcp_troupe.protocol.mcp import parse_tool
from mcp_troupe.types import ServerState, ServerStatus

from .fakes import DEFAULT_WAIT, start_probe, tool
from .test_registry_actor import RegistryUnderTest

TOOLS = 1000
# The verdict and the ToolSpec; the margin covers what the actors and the loop allocate meanwhile.
MAX_KEPT_PER_TOOL = 2.5


@pytest.mark.timeout(60)
def test_a_published_catalog_keeps_two_tracked_objects_per_tool_in_the_registry(runtime: Runtime) -> None:
    registry = RegistryUnderTest(runtime, ["alpha"])
    session = start_probe(runtime, "session")
    entries = [
        tool(f"tool_{index}", f"Looks up record number {index} in the inventory.") for index in range(TOOLS)
    ]
    catalog = ServerCatalog("alpha", 1, tuple(parse_tool(entry) for entry in entries), ())
    ready = ServerStatus("alpha", "stdio", ServerState.READY, incarnation=1)
    gc.collect()
    before = len(gc.get_objects())

    settled: Future[None] = Future()
    registry.ref.tell(WhenSettled(settled))
    registry.ref.tell(ServerUp("alpha", 1, session.ref, catalog, status=ready))
    settled.result(timeout=DEFAULT_WAIT * 4)
    specs = registry.tools()
    assert len(specs) == TOOLS
    del specs
    gc.collect()
    kept = len(gc.get_objects()) - before

    assert kept / TOOLS <= MAX_KEPT_PER_TOOL, kept / TOOLS
