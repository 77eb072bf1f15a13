"""Fixtures shared by every test directory."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.processes import ChildWatch, descendants


@pytest.fixture
def child_watch() -> Iterator[ChildWatch]:
    """Watch for processes the test leaves behind (Linux: reads ``/proc``)."""
    if not os.path.isdir("/proc/self"):
        pytest.skip("needs /proc to watch child processes")
    yield ChildWatch(before=frozenset(descendants(os.getpid())))
