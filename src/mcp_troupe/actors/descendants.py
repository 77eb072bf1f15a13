"""Every descendant of a stdio server, found and ended when the server ends (Linux, no root needed).

A server runs in its own process group, and closing it signals the group. That misses any descendant that
left the group: a child that called ``setsid()`` (daemon style), or a grandchild that double-forked so that
it was reparented away from the server's tree. Such a process outlives ``stop()`` (issue 15).

How descendants are told apart, after weighing the alternatives:

- **An environment tag.** Each server starts with ``MCP_TROUPE_PROCESS_TAG=<random>`` in its environment,
  one value per connection. Children inherit the environment through ``fork``, ``setsid`` and ``exec``
  alike, and ``/proc/<pid>/environ`` of a process of our own user is readable without privileges, so a scan
  of ``/proc`` finds every process of that server's tree, however it forked or whoever its parent is now.
- **The parent links**, as a complement: processes whose parent is one of those found (a descendant that
  started a child with a cleared environment is still caught while its parent lives).

Not chosen: ``PR_SET_CHILD_SUBREAPER`` is process-wide (every orphan of the host program would become ours
to reap, including ones its other libraries spawned), and a cgroup needs a delegated cgroup tree, which an
unprivileged agent rarely has. The limit of the tag, said plainly: a descendant that re-executes itself with
an emptied environment *and* whose parent has exited is no longer recognisable.

The scan reads ``/proc`` (a few milliseconds per hundred processes) and therefore never runs on the I/O loop:
the transport runs :func:`end_descendants` in a worker thread. A process is signalled through a pidfd opened
*after* its tag was confirmed, where the kernel offers them, so a pid reused in between is never hit.
"""

from __future__ import annotations

import os
import secrets
import signal
import time
from typing import Final

__all__ = ["TAG_VARIABLE", "end_descendants", "find_descendants", "new_tag"]

TAG_VARIABLE: Final = "MCP_TROUPE_PROCESS_TAG"
"""The environment variable that marks every process of one server connection."""

_PROC: Final = "/proc"


def new_tag() -> str:
    """A fresh tag for one connection (random: one troupe's tags tell nothing about another's)."""
    return secrets.token_hex(16)


def _stat(pid: int) -> tuple[bytes, int] | None:
    """``(state, ppid)`` of ``pid``, or ``None`` when it is gone."""
    try:
        with open(f"{_PROC}/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return None
    # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after its last ")".
    fields = stat[stat.rfind(b")") + 2 :].split()
    if len(fields) < 2:
        return None
    return fields[0], int(fields[1])


def _has_tag(pid: int, marker: bytes) -> bool:
    try:
        with open(f"{_PROC}/{pid}/environ", "rb") as handle:
            environ = handle.read()
    except OSError:  # gone, or another user's process: not one of ours
        return False
    # Entries are NUL-separated; the marker carries the leading NUL (or starts the block) and a trailing one.
    return environ.startswith(marker[1:]) or marker in environ


def _marker(tag: str) -> bytes:
    return f"\0{TAG_VARIABLE}={tag}\0".encode()


def _children(pid: int) -> list[int] | None:
    """The children of ``pid`` (``/proc/<pid>/task/*/children``); ``None`` when the kernel lacks the file."""
    try:
        tasks = os.listdir(f"{_PROC}/{pid}/task")
    except OSError:
        return []
    found: list[int] = []
    for task in tasks:
        try:
            with open(f"{_PROC}/{pid}/task/{task}/children", "rb") as handle:
                found.extend(int(child) for child in handle.read().split())
        except FileNotFoundError:
            if not os.path.exists(f"{_PROC}/{pid}/task/{task}"):
                continue  # the thread ended meanwhile
            return None  # a kernel without CONFIG_PROC_CHILDREN
        except OSError:
            continue
    return found


def _children_by_scan() -> dict[int, list[int]]:
    """Every process's children, from each ``/proc/<pid>/stat`` (the slow way: one read per process)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir(_PROC):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None:
                children.setdefault(stat[1], []).append(int(entry))
    return children


def find_descendants(tag: str) -> dict[int, bool]:
    """The live (non-zombie) processes of one connection, each with whether it carries the tag itself.

    Tagged processes, and (to a fixed point) the children of any of them. Never this process itself. A
    server that has been reaped is not looked up by pid: its pid may belong to someone else by now.
    Reading each process's ``environ`` is the cost (``stat`` files are read only for what was found).
    """
    marker = _marker(tag)
    me = os.getpid()
    uid = os.getuid()
    found: dict[int, bool] = {}
    try:
        entries = os.listdir(_PROC)
    except OSError:
        return {}
    for entry in entries:
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            is_ours = os.stat(f"{_PROC}/{entry}").st_uid == uid
        except OSError:
            continue
        if is_ours and _has_tag(int(entry), marker):
            found[int(entry)] = True
    # Children of anything found (one started with a cleared environment), to a fixed point.
    pending = list(found)
    scanned: dict[int, list[int]] | None = None
    while pending:
        parent = pending.pop()
        children = _children(parent) if scanned is None else scanned.get(parent, [])
        if children is None:
            scanned = _children_by_scan()
            children = scanned.get(parent, [])
        for child in children:
            if child not in found and child != me:
                found[child] = False
                pending.append(child)
    alive = {}
    for pid, is_tagged in found.items():
        stat = _stat(pid)
        if stat is not None and stat[0] != b"Z":
            alive[pid] = is_tagged
    return alive


def _signal(pid: int, marker: bytes | None, sig: signal.Signals) -> None:
    """Send ``sig`` to ``pid``; with a ``marker``, only if it still carries it (checked through a pidfd)."""
    pidfd_open = getattr(os, "pidfd_open", None)
    send = getattr(signal, "pidfd_send_signal", None)
    if pidfd_open is None or send is None:
        try:
            os.kill(pid, sig)
        except OSError:
            pass
        return
    try:
        fd = pidfd_open(pid)
    except OSError:
        return  # gone already
    try:
        # The pidfd pins the process: if it carries the tag now, the signal reaches it and not a process that
        # reuses its pid later. (A child found through its parent carries no tag; it is signalled as found.)
        if marker is None or _has_tag(pid, marker):
            send(fd, sig)
    except OSError:
        pass
    finally:
        os.close(fd)


def end_descendants(tag: str, *, timeout: float = 2.0) -> set[int]:
    """SIGKILL every process of the connection tagged ``tag`` until none is left; return any survivors.

    Blocking (it reads ``/proc`` and waits): run it in a worker thread, never on the I/O loop. The scan is
    repeated, because a process that was forking while we looked may have a new child; it gives up at
    ``timeout``.
    """
    marker = _marker(tag)
    deadline = time.monotonic() + timeout
    while True:
        alive = find_descendants(tag)
        if not alive or time.monotonic() >= deadline:
            return set(alive)
        for pid, is_tagged in alive.items():
            _signal(pid, marker if is_tagged else None, signal.SIGKILL)
        # Killed processes take a moment to become zombies (or to be reaped by whoever is their parent now).
        time.sleep(0.01)
