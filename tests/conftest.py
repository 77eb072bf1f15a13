"""Fixtures shared by every test directory."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator, Mapping

import pytest

from tests.processes import ChildWatch, descendants

WORKERS_VARIABLE = "TROUPE_TEST_WORKERS"
"""How many pytest-xdist worker processes a whole-suite run uses (``0``: none, run in this process)."""


def suite_workers(environ: Mapping[str, str], cpus: int | None) -> int:
    """The number of workers for a run of the whole suite: ``TROUPE_TEST_WORKERS`` if set, else one per CPU,
    at most four, and none on a single CPU."""
    value = environ.get(WORKERS_VARIABLE, "").strip()
    if value:
        try:
            workers = int(value)
        except ValueError:
            raise pytest.UsageError(f"{WORKERS_VARIABLE} must be a whole number, got {value!r}") from None
        if workers < 0:
            raise pytest.UsageError(f"{WORKERS_VARIABLE} must be 0 or more, got {workers}")
        return workers
    cpus = cpus or 1
    return 0 if cpus < 2 else min(cpus, 4)


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Spread a run of the whole suite (``python -m pytest``, no paths given) over worker processes.

    Much of the suite waits on servers it starts (timeouts, restarts, the conformance suite's Node.js runs),
    so two workers on two cores finish it in well under the serial time. A run of chosen files or tests stays
    in one process unless ``-n`` says otherwise. Whole files go to one worker (``--dist loadfile``): a
    module's fixtures, such as the HTTP peers of the era tests, are started once.
    """
    if hasattr(config, "workerinput") or config.args_source is not pytest.Config.ArgsSource.TESTPATHS:
        return
    if config.pluginmanager.hasplugin("xdist") and config.option.numprocesses is None:
        workers = suite_workers(os.environ, os.cpu_count())
        if workers:
            config.option.numprocesses = workers
            config.option.dist = "loadfile"


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
