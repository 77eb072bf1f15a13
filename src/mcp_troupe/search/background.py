"""Work that tool search hands to a thread of its own: loading the embedding model and embedding tools.

Loading the optional model takes about half a second and embedding a catalog of thousands of tools a few
seconds more; done in the registry's thread, that time would stall every message behind it (calls,
readiness, catalog changes). :class:`~mcp_troupe.search.ranking.ToolIndex` instead hands the work to
:func:`run_in_thread` and ranks by words alone until the work is done, then picks up its result at the
next search. The index stays single-threaded: the worker reads only the texts it was given and returns
vectors, and the index alone decides, in its own thread, which of them still apply.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

__all__ = ["run_in_thread"]

_R = TypeVar("_R")


def run_in_thread(work: Callable[[], _R]) -> Future[_R]:
    """Run ``work`` in a new daemon thread; its result (or exception) lands in the returned future.

    A daemon thread, not a pool: the work is rare (the model once per process, then a large catalog
    change), and a model still loading must never hold up the interpreter's exit.
    """
    future: Future[_R] = Future()

    def run() -> None:
        if not future.set_running_or_notify_cancel():
            return
        try:
            future.set_result(work())
        except BaseException as error:  # handed to the index, which logs it and stays lexical
            future.set_exception(error)

    threading.Thread(target=run, name="troupe-tool-search-model", daemon=True).start()
    return future
