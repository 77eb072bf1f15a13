"""Process-tree helpers for tests that must prove nothing is left running (Linux: reads ``/proc``)."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass


def process_state(pid: int) -> str | None:
    """Return the one-letter state of ``pid`` from ``/proc`` (``R``, ``S``, ``Z``...), or ``None`` if gone."""
    stat = _read_stat(pid)
    return None if stat is None else stat[0]


def is_alive(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie (dead, waiting to be reaped)."""
    return process_state(pid) not in (None, "Z")


def descendants(root: int) -> set[int]:
    """Return every process below ``root`` in the process tree, zombies included, read from ``/proc``.

    Grandchildren count too: a client that starts its server through a shell leaves the server one level down.
    """
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _read_stat(int(entry))
            if stat is not None:
                children.setdefault(stat[1], []).append(int(entry))
    found: set[int] = set()
    pending = [root]
    while pending:
        for child in children.get(pending.pop(), ()):
            if child not in found:
                found.add(child)
                pending.append(child)
    return found


def _read_stat(pid: int) -> tuple[str, int] | None:
    """Return ``(state, ppid)`` of ``pid``, or ``None`` if it has gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as file:
            text = file.read()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after its last ")".
    fields = text[text.rindex(")") + 2 :].split()
    return fields[0], int(fields[1])


@dataclass
class ChildWatch:
    """The processes this test process had below it when the test began, to tell new ones apart."""

    before: frozenset[int]

    def new_alive(self) -> set[int]:
        """Return the live (non-zombie) descendants that appeared since the watch began."""
        return {pid for pid in descendants(os.getpid()) - self.before if is_alive(pid)}

    def wait_until_gone(self, pids: set[int] | None = None, timeout: float = 10.0) -> set[int]:
        """Wait until ``pids`` (default: every new descendant) are dead; return those still alive at the end.

        A process's end sends no event this process can wait on, so this polls ``/proc`` until the deadline.
        """
        deadline = time.monotonic() + timeout
        while True:
            alive = {pid for pid in pids if is_alive(pid)} if pids is not None else self.new_alive()
            if not alive or time.monotonic() >= deadline:
                return alive
            time.sleep(0.02)
