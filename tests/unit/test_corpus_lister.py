"""The corpus builders' stdio lister (``tests/corpus/build_benign.py``) leaves no process of a server behind.

A real server built into a corpus once started a child in a session of its own, which outlived the
builder's process-group kill by minutes. The lister tags its servers as mcp-troupe does, and ends what
carries the tag.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest
from tests.corpus import build_benign

from mcp_troupe.actors import descendants

# The server forks a child that leaves the process group (setsid), as a daemonising server does, then waits.
ESCAPING_SERVER = """
import os, sys, time
if os.fork() == 0:
    os.setsid()
    time.sleep(60)
    sys.exit(0)
time.sleep(60)
"""


@pytest.mark.timeout(30)
def test_close_ends_a_child_that_left_the_process_group(tmp_path: Path) -> None:
    server = build_benign._Server([sys.executable, "-c", ESCAPING_SERVER], tmp_path, dict(os.environ))
    try:
        deadline = time.monotonic() + 10
        while len(descendants.find_descendants(server._tag)) < 2:
            assert time.monotonic() < deadline, "the server and its child never both started"
            time.sleep(0.05)
        escaped = [pid for pid in descendants.find_descendants(server._tag) if pid != server.process.pid]
        assert escaped and all(os.getpgid(pid) != server.process.pid for pid in escaped)
    finally:
        server.close()
    assert descendants.find_descendants(server._tag) == {}
