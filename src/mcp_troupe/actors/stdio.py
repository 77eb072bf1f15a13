"""StdioTransport: one per stdio connection (incarnation). Owns the server process and its process group.

The actor is thin: it takes ``Open`` / ``CloseTransport`` and keeps the lifecycle. The wire lives on the I/O
loop in :class:`_StdioConnection`, an asyncio subprocess protocol: reads arrive as callbacks (no task per
read), and complete frames go to the connection's :class:`~mcp_troupe.actors.lane.CallLane`, which answers
its own calls on the spot and hands everything else to the session as one ``Received`` per chunk. Writes
from any thread (the session's, callers' through the lane) go straight into the pipe when nothing is queued
ahead of them (see :meth:`_StdioConnection.send`), and otherwise are batched into one loop wake-up per burst.

The server runs in its own process group (``start_new_session``) so that closing it also ends whatever it
spawned — the ``npx`` / ``uv run`` wrapper case, where the real server is a grandchild that never sees EOF.
spec: lifecycle, stdio shutdown — close stdin, wait, SIGTERM, wait, SIGKILL. A descendant that left the group
(``setsid()``, a double fork) is found by the environment tag every process of the connection inherits and
killed after the group (:mod:`mcp_troupe.actors.descendants`); every ``/proc`` read of that runs in a worker
thread, never on the loop.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import Any, Final, TypeVar, assert_never

import pykka

from mcp_troupe.actors.descendants import TAG_VARIABLE, end_descendants, new_tag
from mcp_troupe.actors.lane import CallLane, Outgoing
from mcp_troupe.actors.loop import Runtime, safe_tell
from mcp_troupe.actors.session import Opened, OpenFailed, TransportDown, handshake_horizon
from mcp_troupe.actors.supervision import Supervised
from mcp_troupe.actors.transport import CloseTransport, Open, WriteQueue
from mcp_troupe.config import ServerConfig
from mcp_troupe.errors import ConnectFailed, ConnectionLost, FrameTooLarge, OutboundFull, TroupeClosed
from mcp_troupe.interpreter import resolve_command
from mcp_troupe.policy.redaction import Redactor
from mcp_troupe.protocol.jsonrpc import LineFramer, RequestId

__all__ = ["INHERITED_ENVIRONMENT", "StdioTransport", "server_environment"]

log = logging.getLogger("mcp_troupe.stdio")
_T = TypeVar("_T")

# What a server inherits from our environment, besides its configured `env`. Secrets in the agent's own
# environment (API keys, tokens) are not handed to every server by default; pass them explicitly in `env`.
INHERITED_ENVIRONMENT = (
    "HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LANGUAGE", "TZ", "TMPDIR",
    "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME",
    "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy",
    "SSL_CERT_FILE", "SSL_CERT_DIR", "VIRTUAL_ENV", "SYSTEMROOT",
)  # fmt: skip
_INHERITED: Final = frozenset(INHERITED_ENVIRONMENT)
STDERR_TAIL_LINES = 40
# What may wait to be written to one server's stdin (our queue and asyncio's buffer together) before new
# requests are refused: a server that stops reading would otherwise make us keep every request.
MAX_OUTBOUND_BYTES = 16 * 1024 * 1024
# A server whose stdin has not taken our writes for this long (asyncio's buffer above its high-water mark
# all the while), or on which a request timed out while it was so, is stuck: new requests are refused at
# once instead of queued to time out.
STUCK_AFTER = 2.0
# While asyncio's buffer for stdin is not paused it holds at most its high-water mark (64 KiB by default:
# a write past it pauses at once, and nothing more is handed to it until it resumes): with this much room
# under MAX_OUTBOUND_BYTES a queued request needs no exact count of that buffer (two calls per request).
UNPAUSED_BUFFER_BOUND = 1024 * 1024
STDERR_LINE_LIMIT = 1000


def server_environment(
    configured: Mapping[str, str], parent: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment a stdio server starts with: a safe subset of ours, then its configured ``env``."""
    source = os.environ if parent is None else parent
    # One pass over the names, then a lookup only for those kept: `os.environ` decodes every key and value
    # it hands out, and its Mapping methods (`in`, `items()`) cost a Python call or three per entry.
    kept = [key for key in source if key in _INHERITED or key.startswith("LC_")]
    env = {key: source[key] for key in kept}
    env.update(configured)
    return env


def _group_is_alive(pgid: int) -> bool:
    """Whether a non-zombie process is left in process group ``pgid`` (reads ``/proc``: never on the loop)."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # killpg also succeeds while only zombies are left (reparented to a PID 1 that never reaps): look closer.
    try:
        entries = os.listdir("/proc")
    except OSError:
        return True
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # Fields after the command (which may hold spaces and parentheses): state ppid pgrp ...
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) >= 3 and int(fields[2]) == pgid and fields[0] != b"Z":
            return True
    return False


def _wait_group_gone(pgid: int, timeout: float) -> None:
    """Block until process group ``pgid`` has no live process, or ``timeout`` passed (a worker's job)."""
    deadline = time.monotonic() + timeout
    while _group_is_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.02)


async def _in_worker(function: Callable[..., _T], *args: Any) -> _T:
    """Run a blocking ``function`` in a thread of its own and await its result, without blocking the loop.

    A thread per use rather than the loop's default executor: its threads would stay after a close, and
    closing a server must return the process to the threads it had.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[_T] = loop.create_future()

    def settle(outcome: tuple[_T, None] | tuple[None, BaseException]) -> None:
        if future.done():  # the awaiting task was cancelled
            return
        result, error = outcome
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        outcome: tuple[_T, None] | tuple[None, BaseException]
        try:
            outcome = (function(*args), None)
        except BaseException as exc:  # handed to the awaiting task, which raises it
            outcome = (None, exc)
        try:
            loop.call_soon_threadsafe(settle, outcome)
        except RuntimeError:  # the loop has closed meanwhile: nobody is waiting any more
            pass

    threading.Thread(target=run, name=f"mcp-troupe {function.__name__}", daemon=True).start()
    return await future


def _kill_group(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def _pidfd_works() -> bool:
    if not hasattr(os, "pidfd_open"):
        return False
    try:
        os.close(os.pidfd_open(os.getpid()))
    except OSError:  # a kernel before 5.3, or a sandbox that forbids the call
        return False
    return True


HAS_PIDFD = _pidfd_works()
"""Whether child exits can be watched with a pidfd on the loop; otherwise asyncio's child watcher is used."""


class _PipeProtocol(asyncio.Protocol):
    """Relays one pipe of a :class:`_PidfdSubprocess` to the connection, tagged with its descriptor number."""

    def __init__(self, connection: _StdioConnection, fd: int) -> None:
        self.connection = connection
        self.fd = fd

    def data_received(self, data: bytes) -> None:
        self.connection.pipe_data_received(self.fd, data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.connection.pipe_connection_lost(self.fd, exc)

    def pause_writing(self) -> None:
        self.connection.pause_writing()

    def resume_writing(self) -> None:
        self.connection.resume_writing()


class _PidfdSubprocess(asyncio.SubprocessTransport):
    """A server process whose exit the loop watches through a pidfd: no thread per child.

    On Python 3.11 asyncio watches every child with a thread blocked in ``waitpid`` (ThreadedChildWatcher);
    with a hundred servers that is a hundred threads doing nothing. A pidfd becomes readable when the process
    exits, so the loop watches it like any descriptor and reaps the child then. Only what this module uses of
    ``asyncio.SubprocessTransport`` is here; without pidfd support (old kernels) the module uses asyncio's.
    """

    def __init__(self, popen: subprocess.Popen[bytes], pidfd: int, connection: _StdioConnection) -> None:
        super().__init__()
        self._popen = popen
        self._pidfd: int | None = pidfd
        self._connection = connection
        self._pipes: dict[int, asyncio.BaseTransport] = {}
        self._open_pipes = 0
        self._returncode: int | None = None
        self._closed = False
        self._is_watching = False

    @classmethod
    async def spawn(
        cls, connection: _StdioConnection, argv: list[str], env: dict[str, str], cwd: str | None
    ) -> _PidfdSubprocess:
        loop = asyncio.get_running_loop()
        popen = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
            cwd=cwd,
            start_new_session=True,
            bufsize=0,
        )
        pidfd = os.pidfd_open(popen.pid)
        self = cls(popen, pidfd, connection)
        try:
            assert popen.stdin is not None and popen.stdout is not None and popen.stderr is not None
            stdin, _ = await loop.connect_write_pipe(lambda: _PipeProtocol(connection, 0), popen.stdin)
            self._pipes[0] = stdin
            connection.connection_made(self)  # before any read: the connection writes from the start
            for fd, pipe in ((1, popen.stdout), (2, popen.stderr)):
                transport, _ = await loop.connect_read_pipe(
                    functools.partial(_PipeProtocol, connection, fd), pipe
                )
                self._pipes[fd] = transport
                self._open_pipes += 1
        except BaseException:
            self.close()
            raise
        loop.add_reader(pidfd, self._on_pidfd_readable)
        self._is_watching = True
        return self

    def _on_pidfd_readable(self) -> None:
        returncode = self._popen.poll()  # reaps the child
        if returncode is not None:
            self._on_exit(returncode)

    def _on_exit(self, returncode: int) -> None:
        self._returncode = returncode
        self._forget_pidfd()
        self._connection.process_exited()

    def _forget_pidfd(self) -> None:
        if self._pidfd is None:
            return
        if self._is_watching:
            asyncio.get_running_loop().remove_reader(self._pidfd)
            self._is_watching = False
        os.close(self._pidfd)
        self._pidfd = None

    def get_pid(self) -> int:
        return self._popen.pid

    def get_returncode(self) -> int | None:
        return self._returncode

    def get_pipe_transport(self, fd: int) -> asyncio.BaseTransport | None:
        return self._pipes.get(fd)

    def is_closing(self) -> bool:
        return self._closed

    def send_signal(self, signal: int) -> None:
        if self._returncode is None:
            self._popen.send_signal(signal)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def close(self) -> None:
        """Close the pipes; a process still running is killed (as asyncio's transport does).

        Never waits: the pidfd stays watched until the killed process is reaped.
        """
        if self._closed:
            return
        self._closed = True
        for transport in self._pipes.values():
            transport.close()
        if not self._pipes:  # failed before the pipes were connected: their files are still ours
            for stream in (self._popen.stdin, self._popen.stdout, self._popen.stderr):
                if stream is not None:
                    stream.close()
        if self._returncode is not None:
            return
        returncode = self._popen.poll()
        if returncode is not None:
            self._on_exit(returncode)
            return
        try:
            self._popen.kill()
        except OSError:
            pass
        if not self._is_watching:  # spawn failed half-way: nobody will reap it on the loop
            self._forget_pidfd()


class _StdioConnection(asyncio.SubprocessProtocol):
    """The loop side of one stdio connection. Every method except :meth:`send` runs on the I/O loop."""

    def __init__(
        self, server: str, incarnation: int, session: pykka.ActorRef[Any], runtime: Runtime, max_frame: int
    ) -> None:
        self.server = server
        self.incarnation = incarnation
        self.session = session
        self.runtime = runtime
        self.framer = LineFramer(max_frame)
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_TAIL_LINES)
        # Every process of this connection inherits it (TAG_VARIABLE): how escaped descendants are found.
        self.tag = new_tag()
        # Replaced by the transport with one that knows the server's configured env (see StdioTransport).
        self.redactor = Redactor()
        self._are_descendants_ended = False
        self._stderr_partial = b""
        self.process: asyncio.SubprocessTransport | None = None
        self.stdin: asyncio.WriteTransport | None = None
        self.pid: int | None = None
        self.returncode: int | None = None
        self._exited: asyncio.Event | None = None
        self._stdout_closed = False
        self._is_down = False
        self._is_closing = False
        # Writes that cannot go straight into the pipe are queued here (each chunk ends in its newline) and
        # flushed by one loop callback per burst. The lock orders every write to stdin, direct or not.
        self._out: WriteQueue[tuple[bytes, RequestId | None]] = WriteQueue(runtime.loop, self._flush)
        # Bytes in our queue (not yet handed to the pipe); with asyncio's buffer, bounded by
        # MAX_OUTBOUND_BYTES: a server that stops reading must not make us hold every request forever.
        self._queued_bytes = 0
        self._is_write_paused = False
        self._paused_at: float | None = None
        # A request that timed out (or was cancelled) before a byte of it left our queue, during this pause:
        # proof the server is not reading, without waiting out STUCK_AFTER.
        self._is_starved = False
        # Our own duplicate of stdin's descriptor, for direct writes: closed only under the queue's lock, so
        # it can never be a number the loop has closed and the process reused meanwhile.
        self._direct_fd: int | None = None
        self.lane = CallLane(
            server=server,
            incarnation=incarnation,
            session=session,
            loop=runtime.loop,
            send=self.send,
            retract=self.retract,
        )

    # ---- opening -----------------------------------------------------------------------------------

    async def open(
        self,
        command: str,
        args: tuple[str, ...],
        env: dict[str, str],
        cwd: str | None,
        handshake_timeout: float | None = None,
        deadline: tuple[float, Callable[[], object]] | None = None,
    ) -> None:
        """Spawn the server and tell the session ``Opened`` (or ``OpenFailed``).

        Timers armed here are armed by code already on the loop, not posted to it from another thread (one
        wake-up of the idle loop each, ~0.1-0.2 ms of CPU; issue 18): with ``handshake_timeout``, the lane's
        deadline timer covering the session's handshake (:meth:`CallLane.arm_horizon`); with ``deadline``
        (seconds, callback), the supervisor's connect deadline, counted from the spawn.
        """
        loop = asyncio.get_running_loop()
        if deadline is not None:
            loop.call_later(deadline[0], deadline[1])
        if handshake_timeout is not None:
            self.lane.arm_horizon(handshake_horizon(handshake_timeout))
        self._exited = asyncio.Event()
        try:
            if HAS_PIDFD:
                transport: asyncio.SubprocessTransport = await _PidfdSubprocess.spawn(
                    self, [command, *args], env, cwd
                )
            else:
                transport, _ = await loop.subprocess_exec(
                    lambda: self,
                    command,
                    *args,
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                    env=env,
                    cwd=cwd,
                    start_new_session=True,
                )
        except FileNotFoundError as exc:
            if cwd is not None and exc.filename == cwd:
                self._open_failed(f"working directory {cwd!r} does not exist")
            else:
                self._open_failed(f"command not found: {command!r}")
            return
        except OSError as exc:
            self._open_failed(f"could not start {command!r}: {exc.strerror or exc}")
            return
        self.process = transport
        self.pid = transport.get_pid()
        if self._is_closing:  # closed while we were spawning
            await self.close(0.0)
            return
        safe_tell(self.session, Opened(self.incarnation, self, self.lane, pid=self.pid))

    def _open_failed(self, reason: str) -> None:
        self._is_down = True
        if self._exited is not None:
            self._exited.set()
        safe_tell(self.session, OpenFailed(self.incarnation, ConnectFailed(self.server, reason)))

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.SubprocessTransport)
        # Set here, not only after subprocess_exec returns: a process that exits at once can have
        # process_exited called before the awaiting coroutine resumes.
        self.process = transport
        stdin = transport.get_pipe_transport(0)
        assert isinstance(stdin, asyncio.WriteTransport)
        self.stdin = stdin
        pipe = stdin.get_extra_info("pipe")
        if pipe is not None:
            # Non-blocking like the original (the flag belongs to the shared open file).
            self._direct_fd = os.dup(pipe.fileno())

    # ---- writing (Outbound) ------------------------------------------------------------------------------

    def send(self, frame: bytes, outgoing: Outgoing | None = None, direct: bool = True) -> None:
        """Write ``frame`` to the server's stdin, or queue it for the loop; safe to call from any thread.

        When nothing is queued ahead (ours or asyncio's buffer) the calling thread writes the frame itself,
        without waking the loop: one thread hand-off less per request. The pipe is non-blocking, so a full
        pipe or a partial write never blocks the caller; what is left goes through the loop, in order.
        ``direct=False`` queues anyway: with many requests in flight, one write per burst beats one per
        frame.

        Raises:
            OutboundFull: The server has stopped reading: more than MAX_OUTBOUND_BYTES wait to be written.
                Nothing was queued; the request fails at once instead of waiting out its timeout.
        """
        data = frame + b"\n"
        request_id = outgoing.request_id if outgoing is not None else None
        with self._out.lock:
            if direct and not self._out.items and self._direct_fd is not None and self._is_idle():
                try:
                    written = os.write(self._direct_fd, data)
                except OSError:
                    # A full pipe (EAGAIN) or a broken one: the loop's write waits for room, or reports the
                    # connection down.
                    written = 0
                if written == len(data):
                    return
                data = data[written:]
                # Partly written: the rest must follow, whatever the bound says.
                request_id = None
            elif request_id is not None and (
                self._is_write_paused
                or self._queued_bytes + len(data) > MAX_OUTBOUND_BYTES - UNPAUSED_BUFFER_BOUND
            ):
                waiting = self._queued_bytes + self._buffered()
                paused_at = self._paused_at
                is_stuck = paused_at is not None and (
                    self._is_starved or time.monotonic() - paused_at >= STUCK_AFTER
                )
                if is_stuck or waiting + len(data) > MAX_OUTBOUND_BYTES:
                    raise OutboundFull(self.server, waiting)
            self._queued_bytes += len(data)
            must_schedule = self._out.append_locked((data, request_id))
        if must_schedule:
            self._out.schedule()

    def retract(self, request_id: RequestId, timed_out: bool = False) -> bool:
        """Drop ``request_id``'s frame if it was never written; True if it was dropped (from any thread).

        A timed-out or cancelled request that is still in our queue never reaches the server, and needs no
        notifications/cancelled. A request that timed out while the pipe is full (``timed_out``, paused)
        shows the server is not reading: new requests are refused from then on, until it reads again.
        """
        with self._out.lock:
            if timed_out and self._is_write_paused:
                self._is_starved = True
            for index, (data, queued_id) in enumerate(self._out.items):
                if queued_id == request_id:
                    del self._out.items[index]
                    self._queued_bytes -= len(data)
                    return True
        return False

    def _buffered(self) -> int:
        stdin = self.stdin
        try:
            return stdin.get_write_buffer_size() if stdin is not None else 0
        except (AttributeError, RuntimeError):
            return 0

    def pause_writing(self) -> None:
        """asyncio's buffer for stdin is over its high-water mark: stop handing it more (the loop)."""
        self._is_write_paused = True
        self._paused_at = time.monotonic()

    def resume_writing(self) -> None:
        """The server read enough: hand asyncio the frames queued meanwhile (the loop)."""
        with self._out.lock:
            self._is_write_paused = False
            self._paused_at = None
            self._is_starved = False
        self._flush()

    def _is_idle(self) -> bool:
        # Called with the queue's lock held. asyncio's buffer is written by the loop without that lock, but
        # only while it is non-empty, and it fills only through _flush (under the lock): empty means nothing
        # of ours is waiting to be written ahead of this frame.
        stdin = self.stdin
        return (
            stdin is not None
            and not self._is_down
            and not stdin.is_closing()
            and stdin.get_write_buffer_size() == 0
        )

    def _close_direct_fd(self) -> None:
        with self._out.lock:
            fd, self._direct_fd = self._direct_fd, None
        if fd is not None:
            os.close(fd)

    def set_protocol_version(self, version: str) -> None:
        """stdio carries no protocol-version header: nothing to do."""

    @property
    def session_id(self) -> str | None:
        """stdio has no transport-level session."""
        return None

    def _flush(self) -> None:
        with self._out.lock:
            stdin = self.stdin
            if stdin is None or stdin.is_closing() or self._is_down:
                self._out.take_locked()
                self._queued_bytes = 0
                return
            items = self._out.take_locked()
            if self._is_write_paused and items:
                # The server is not reading: keep what waits in our queue, where a timed-out request can
                # still be taken back; resume_writing flushes again.
                self._out.items[:0] = items
                return
            self._queued_bytes = 0
            # Under the lock: a direct write must not slip in between these chunks and the pipe.
            stdin.write(b"".join([data for data, _request_id in items]))

    # ---- reading ---------------------------------------------------------------------------------------

    def pipe_data_received(self, fd: int, data: bytes) -> None:
        if fd == 1:
            if self._is_down:
                return
            try:
                frames = self.framer.feed(data)
            except FrameTooLarge as exc:
                self._report_down(str(exc))
                return
            if frames:
                self.lane.receive(frames)
        elif fd == 2:
            self._on_stderr(data)

    def _on_stderr(self, data: bytes) -> None:
        lines = (self._stderr_partial + data).split(b"\n")
        partial = lines.pop()
        # A server that writes megabytes to stderr without a newline must not grow our memory.
        if len(partial) > STDERR_LINE_LIMIT:
            lines.append(partial)
            partial = b""
        self._stderr_partial = partial
        for raw in lines:
            # The configured env's secrets never reach the tail shown to users, or the log (issue 15).
            whole = self.redactor.redact(raw.decode("utf-8", "replace").rstrip("\r"))
            line = self.redactor.redact(whole[:STDERR_LINE_LIMIT], is_cut=len(whole) > STDERR_LINE_LIMIT)
            if line:
                self.stderr_tail.append(line)
                log.debug("server %s stderr: %s", self.server, line)

    def pipe_connection_lost(self, fd: int, exc: Exception | None) -> None:
        if fd != 1:
            return
        self._stdout_closed = True
        if self.returncode is not None:
            self._report_down(self._exit_reason())
        else:
            # stdout closed but the process lives on: give it a moment to exit so the reason can carry its
            # exit code, then report anyway.
            asyncio.get_running_loop().call_later(0.2, self._report_down, "the server closed its stdout")

    def process_exited(self) -> None:
        assert self.process is not None
        self.returncode = self.process.get_returncode()
        if self._exited is not None:
            self._exited.set()
        if self._stdout_closed:
            self._report_down(self._exit_reason())
        else:
            # Frames the server wrote just before exiting may still be in the pipe; read them first. A
            # grandchild holding stdout open must not delay the report for long, though.
            asyncio.get_running_loop().call_later(0.5, self._report_down, self._exit_reason())

    def connection_lost(self, exc: Exception | None) -> None:
        self._report_down(self._exit_reason())

    def _exit_reason(self) -> str:
        code = self.returncode
        if code is None:
            return "the server closed its stdout"
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"the server process was killed by {name}"
        return f"the server process exited with code {code}"

    def _report_down(self, reason: str) -> None:
        if self._is_down:
            return
        self._is_down = True
        self._close_direct_fd()
        # Calls through the lane fail now, not when the session has heard of it (DESIGN rule 4).
        self.lane.close(ConnectionLost(self.server, reason))
        if self._stderr_partial:
            self._on_stderr(b"\n")
        if not self._is_closing:
            safe_tell(self.session, TransportDown(self.incarnation, reason, tuple(self.stderr_tail)))

    # ---- closing ---------------------------------------------------------------------------------------

    async def close(self, grace: float) -> None:
        """Close stdin, wait, SIGTERM the group, wait, SIGKILL it; return once nothing of it is left."""
        self._is_closing = True
        process = self.process
        if process is None or self.pid is None:
            return
        pgid = self.pid  # start_new_session: the leader's pid is the group id, fixed at spawn time
        # The server sees EOF only once every descriptor of its stdin is closed, ours included.
        self._close_direct_fd()
        if self.returncode is None and self.stdin is not None and not self.stdin.is_closing():
            self.stdin.close()
            await self._wait_exit(grace)
        for sig in (signal.SIGTERM, signal.SIGKILL):
            if self.returncode is None or await _in_worker(_group_is_alive, pgid):
                _kill_group(pgid, sig)
                await self._wait_group(pgid, grace if sig == signal.SIGTERM else 2.0)
        # What left the group (setsid, a double fork) is still tagged: end it too, off the loop.
        survivors = await _in_worker(end_descendants, self.tag)
        self._are_descendants_ended = not survivors
        if survivors:
            log.warning(
                "server %s: %d descendant process(es) survived SIGKILL: %s",
                self.server, len(survivors), sorted(survivors),
            )  # fmt: skip
        process.close()
        self._report_down("closed")

    async def _wait_exit(self, timeout: float) -> None:
        if self._exited is None or timeout <= 0:
            return
        try:
            await asyncio.wait_for(self._exited.wait(), timeout)
        except TimeoutError:
            pass

    async def _wait_group(self, pgid: int, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        await self._wait_exit(timeout)
        # The looks at /proc run in a worker thread: with many servers closing at once, scans on the loop
        # every 20 ms would starve every other connection's I/O (issue 12).
        await _in_worker(_wait_group_gone, pgid, max(0.0, deadline - loop.time()))

    def kill_now(self) -> None:
        """Last resort from any thread but the loop's: SIGKILL the group and every tagged descendant.

        Blocks for as long as the ``/proc`` scan takes (milliseconds); it runs on actor threads only.
        """
        self._close_direct_fd()
        if self.pid is not None and self.returncode is None:
            _kill_group(self.pid, signal.SIGKILL)
        if self.pid is not None and not self._are_descendants_ended:
            end_descendants(self.tag, timeout=0.5)
            self._are_descendants_ended = True


class StdioTransport(Supervised, pykka.ThreadingActor):
    """One stdio connection's lifecycle: spawn on ``Open``, graceful close on ``CloseTransport``."""

    use_daemon_thread = True

    def __init__(
        self,
        *,
        config: ServerConfig,
        incarnation: int,
        session: pykka.ActorRef[Any],
        runtime: Runtime,
        max_frame: int = 16 * 1024 * 1024,
        parent: pykka.ActorRef[Any] | None = None,
        open_at_start: bool = False,
        deadline: tuple[float, Callable[[], object]] | None = None,
    ) -> None:
        super().__init__()
        self.config = config
        self.runtime = runtime
        self.parent, self.server, self.incarnation = parent, config.name, incarnation
        self.connection = _StdioConnection(config.name, incarnation, session, runtime, max_frame)
        self.connection.redactor = Redactor.for_connection(config.headers, config.env)
        self._is_closing = False
        # The supervisor starts a transport to open it at once: doing so in on_start spares the session's
        # Connect and our Open, two thread wake-ups a connect (issue 18); Open still works for other drivers.
        self._open_at_start = open_at_start
        # (seconds, callback): the supervisor's connect deadline, armed by the open task on the loop.
        self._deadline = deadline

    def on_start(self) -> None:
        if self._open_at_start:
            self._open()

    def on_receive(self, message: Any) -> None:
        msg: Open | CloseTransport = message
        match msg:
            case Open():
                self._open()
            case CloseTransport():
                if self._is_closing:
                    return
                self._is_closing = True
                try:
                    self.runtime.loop.spawn(
                        self._close, msg.reply_to, msg.grace, name=f"close {self.config.name}"
                    )
                except TroupeClosed:
                    # No loop to close it gracefully on (its event loop has ended): kill it, never leave it.
                    self.connection.kill_now()
                    if not msg.reply_to.done():
                        msg.reply_to.set_result(tuple(self.connection.stderr_tail))
                    self.actor_ref.stop(block=False)
            case _:
                assert_never(msg)

    def _open(self) -> None:
        """Spawn the server on the loop; the open task tells the session ``Opened`` or ``OpenFailed``."""
        config = self.config
        assert config.command is not None
        env = server_environment(config.env)
        env[TAG_VARIABLE] = self.connection.tag
        try:
            self.runtime.loop.spawn(
                self.connection.open,
                resolve_command(config.command),  # `python` is this interpreter (interpreter.py)
                config.args,
                env,
                config.cwd,
                # The session's handshake timeout is the connect timeout (the supervisor starts it so).
                config.connect_timeout,
                self._deadline,
                name=f"open {config.name}",
                on_error=self._on_open_task_failed,
            )
        except TroupeClosed as exc:
            error = ConnectFailed(config.name, str(exc))
            safe_tell(self.connection.session, OpenFailed(self.connection.incarnation, error))

    def _on_open_task_failed(self, error: BaseException) -> None:
        # An error the open task did not expect (it reports the expected ones itself): the session must
        # hear now, not at connect_timeout. Runs on the loop thread; a tell never blocks.
        connection = self.connection
        safe_tell(connection.session, TransportDown(connection.incarnation, f"opening failed: {error!r}"))

    async def _close(self, reply_to: Future[tuple[str, ...]], grace: float) -> None:
        try:
            await self.connection.close(grace)
        finally:
            if not reply_to.done():
                reply_to.set_result(tuple(self.connection.stderr_tail))
            self.actor_ref.stop(block=False)

    def on_stop(self) -> None:
        # Stopped without a graceful close (the troupe is being torn down): never leave the process behind.
        self.connection.kill_now()

    def on_crash(self, error: BaseException) -> None:
        """A bug in a handler: the process group goes at once, as on a forced stop."""
        self.connection.kill_now()
