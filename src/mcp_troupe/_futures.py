"""Completing ``reply_to`` futures safely from any thread.

A caller may cancel its future (``CallHandle.cancel()``, a cancelled ``acall`` task) at any moment from its
own thread, so completing one is always "if still pending": the check and the set race, and the loser's
``InvalidStateError`` means only that the caller already gave up.
"""

from __future__ import annotations

from concurrent.futures import InvalidStateError
from typing import Any, Protocol

__all__ = ["Completable", "complete", "fail"]


class Completable(Protocol):
    """What these helpers complete: a ``concurrent.futures.Future`` or anything shaped like one."""

    def done(self) -> bool: ...

    def set_result(self, result: Any) -> None: ...

    def set_exception(self, exception: BaseException | None) -> None: ...


def complete(future: Completable, result: Any) -> None:
    """Set ``result`` unless the future is already done (cancelled by its caller, typically)."""
    if not future.done():
        try:
            future.set_result(result)
        except InvalidStateError:
            pass


def fail(future: Completable, error: BaseException) -> None:
    """Set ``error`` unless the future is already done."""
    if not future.done():
        try:
            future.set_exception(error)
        except InvalidStateError:
            pass
