"""Fixtures shared by every test directory."""

from __future__ import annotations

import logging
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


@pytest.fixture(autouse=True)
def _review_store_in_tmp(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the review store of withheld tools (mcp_troupe.review) out of the real state directory."""
    monkeypatch.setenv("MCP_TROUPE_REVIEW_FILE", str(tmp_path_factory.mktemp("review") / "review.json"))


@pytest.fixture(autouse=True)
def _restore_the_troupe_logger() -> Iterator[None]:
    """An in-process ``troupe`` run (``cli.main``) sets the ``mcp_troupe`` logger's level and handler; undo
    that after each test, so that later tests see their log records whatever ran before them."""
    logger = logging.getLogger("mcp_troupe")
    level, handlers = logger.level, list(logger.handlers)
    yield
    logger.setLevel(level)
    logger.handlers[:] = handlers
