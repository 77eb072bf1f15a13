"""The operator control socket: a Unix domain socket (mode 0600) through which ``troupe ctl`` acts on a
running manager (``troupe run``), one server at a time.

Wire format: one JSON object per line each way. Requests:

- ``{"op": "status"}``
- ``{"op": "restart" | "stop" | "start", "server": NAME}``
- ``{"op": "call", "tool": NAME, "arguments": {...}}``

Replies are ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": "..."}``. The server side runs on the
troupe's I/O loop and reaches the registry only by messages whose ``reply_to`` futures it awaits through
``asyncio.wrap_future`` — the loop never blocks.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import enum
import json
import logging
import os
import socket
import stat
import tempfile
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pykka

from mcp_troupe.actors.loop import IoLoop
from mcp_troupe.actors.registry import CallTool, GetStatus, Restart, Start, Stop, render_reply
from mcp_troupe.config import DEFAULT_MAX_OUTPUT_CHARS
from mcp_troupe.errors import ToolDenied, TroupeError
from mcp_troupe.types import ServerState, ServerStatus

__all__ = [
    "ControlClient",
    "ControlError",
    "ControlServer",
    "default_socket_path",
    "status_from_json",
    "status_to_json",
]

log = logging.getLogger("mcp_troupe.control")

MAX_REQUEST_BYTES = 64 * 1024
# sockaddr_un.sun_path on Linux: a socket path (with its NUL) must fit in 108 bytes.
SUN_PATH_MAX = 108
OPERATIONS = ("status", "restart", "stop", "start", "call")


class ControlError(TroupeError):
    """The control socket could not be opened, reached, or answered an error.

    ``kind`` is the class name of the manager's error when it sent one (``"ApprovalRequired"``...), and
    ``reason`` a refused call's reason, so that the CLI can say what fixes it on the manager's side.
    """

    def __init__(self, message: str, *, kind: str | None = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.reason = reason


def default_socket_path() -> Path:
    """``$XDG_RUNTIME_DIR/mcp-troupe/control.sock``, else ``<tmp>/mcp-troupe-<uid>/control.sock``."""
    runtime_dir = os.environ.get("XDG_RUNTIME_DIR")
    base = (
        Path(runtime_dir) / "mcp-troupe"
        if runtime_dir
        else Path(tempfile.gettempdir()) / f"mcp-troupe-{os.getuid()}"
    )
    return base / "control.sock"


def status_to_json(status: ServerStatus) -> dict[str, Any]:
    """A status snapshot as plain JSON values.

    ``ready_since`` (a ``time.monotonic()`` reading, meaningless in another process) becomes ``ready_for``,
    the seconds the current incarnation has been ready.
    """
    result: dict[str, Any] = {}
    for item in dataclasses.fields(status):
        value = getattr(status, item.name)
        if item.name == "ready_since":
            result["ready_for"] = None if value is None else round(time.monotonic() - value, 3)
            continue
        if isinstance(value, enum.Enum):
            value = str(value.value)
        elif isinstance(value, tuple):
            value = list(value)
        elif isinstance(value, Mapping):
            value = dict(value)
        result[item.name] = value
    return result


def status_from_json(document: Mapping[str, Any]) -> ServerStatus:
    """Rebuild a status from :func:`status_to_json` output (for ``troupe ctl status`` tables)."""
    names = {item.name for item in dataclasses.fields(ServerStatus)}
    values = {key: value for key, value in document.items() if key in names}
    values["state"] = ServerState(document["state"])
    values["stderr_tail"] = tuple(document.get("stderr_tail") or ())
    ready_for = document.get("ready_for")
    values["ready_since"] = None if ready_for is None else time.monotonic() - float(ready_for)
    return ServerStatus(**values)


class ControlServer:
    """Serve control requests for one troupe on ``path``."""

    def __init__(
        self,
        *,
        registry: pykka.ActorRef[Any],
        loop: IoLoop,
        path: Path,
        max_output_chars: int = DEFAULT_MAX_OUTPUT_CHARS,
    ) -> None:
        self.registry = registry
        self.loop = loop
        self.path = path
        self.max_output_chars = max_output_chars
        self._server: asyncio.AbstractServer | None = None
        self._starting: asyncio.Future[None] | None = None

    def start(self, timeout: float = 5.0) -> None:
        """Bind the socket (0600, in a 0700 directory) and serve; raise :class:`ControlError` on failure."""
        self._prepare_path()
        ready: Future[None] = Future()
        self.loop.post(self._start_on_loop, ready)
        try:
            ready.result(timeout)
        except TimeoutError:
            raise ControlError(f"control socket {self.path}: not listening after {timeout} s") from None
        except OSError as exc:
            raise ControlError(f"control socket {self.path}: {exc.strerror or exc}") from exc

    def _prepare_path(self) -> None:
        directory = self.path.parent
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        if self.path.exists() or self.path.is_symlink():
            mode = self.path.lstat().st_mode
            if not stat.S_ISSOCK(mode):
                raise ControlError(f"control socket {self.path}: exists and is not a socket; not touching it")
            # A socket file is stale unless someone answers on it.
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.settimeout(1.0)
                probe.connect(str(self.path))
            except OSError:
                self.path.unlink()
            else:
                raise ControlError(f"control socket {self.path}: another manager is already listening there")
            finally:
                probe.close()

    def _start_on_loop(self, ready: Future[None]) -> None:
        async def start() -> None:
            try:
                # umask makes the socket 0600 from the moment it exists (a later chmod would leave a window).
                # It is bound and listening under a private name first, then renamed into place: whoever
                # sees the path (troupe ctl, a script waiting for it) can connect at once, never meeting a
                # socket that is bound but not yet listening ("Connection refused").
                staging = self.path.with_name(f".{os.getpid()}.{self.path.name}")
                if len(os.fsencode(staging)) >= SUN_PATH_MAX:
                    staging = self.path  # no room for the private name: bind in place, as before
                with contextlib.suppress(FileNotFoundError):
                    staging.unlink()
                old_umask = os.umask(0o177)
                try:
                    self._server = await asyncio.start_unix_server(
                        self._handle, path=str(staging), limit=MAX_REQUEST_BYTES
                    )
                finally:
                    os.umask(old_umask)
                try:
                    if staging != self.path:
                        os.rename(staging, self.path)
                except OSError:
                    self._server.close()
                    with contextlib.suppress(FileNotFoundError):
                        staging.unlink()
                    raise
            except OSError as exc:
                ready.set_exception(exc)
                return
            ready.set_result(None)

        self._starting = asyncio.ensure_future(start())

    def close(self) -> None:
        """Stop serving and remove the socket file."""
        server = self._server
        if server is not None:
            self.loop.post_if_running(server.close)
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                try:
                    line = await reader.readline()
                except (ValueError, asyncio.LimitOverrunError):
                    await self._reply(
                        writer, {"ok": False, "error": f"request larger than {MAX_REQUEST_BYTES} bytes"}
                    )
                    return
                if not line:
                    return
                await self._reply(writer, await self._answer(line))
        except (ConnectionError, OSError):
            return
        finally:
            writer.close()

    async def _reply(self, writer: asyncio.StreamWriter, reply: dict[str, Any]) -> None:
        writer.write(json.dumps(reply, separators=(",", ":")).encode() + b"\n")
        await writer.drain()

    async def _answer(self, line: bytes) -> dict[str, Any]:
        try:
            request = json.loads(line)
        except ValueError as exc:
            return {"ok": False, "error": f"request is not JSON: {exc}"}
        if not isinstance(request, dict):
            return {"ok": False, "error": "request must be a JSON object"}
        op = request.get("op")
        if op not in OPERATIONS:
            return {"ok": False, "error": f"unknown op {op!r}; expected one of {', '.join(OPERATIONS)}"}
        try:
            if op == "status":
                statuses: list[ServerStatus] = await self._ask(GetStatus)
                return {"ok": True, "result": [status_to_json(s) for s in statuses]}
            if op == "call":
                return await self._call(request)
            server = request.get("server")
            if not isinstance(server, str) or not server:
                return {"ok": False, "error": f"op {op!r} needs a 'server' name"}
            command: dict[str, Callable[[Future[Any]], object]] = {
                "restart": lambda f: Restart(server, f),
                "stop": lambda f: Stop(server, f),
                "start": lambda f: Start(server, f),
            }
            await self._ask(command[op])
            return {"ok": True, "result": {"server": server, "op": op}}
        except TroupeError as exc:
            reply: dict[str, Any] = {"ok": False, "error": str(exc), "kind": type(exc).__name__}
            if isinstance(exc, ToolDenied):
                reply["reason"] = exc.reason
            return reply
        except TimeoutError:
            return {"ok": False, "error": "the manager did not answer in time"}

    async def _call(self, request: Mapping[str, Any]) -> dict[str, Any]:
        tool, arguments = request.get("tool"), request.get("arguments") or {}
        if not isinstance(tool, str) or not tool:
            return {"ok": False, "error": "op 'call' needs a 'tool' name"}
        if not isinstance(arguments, dict):
            return {"ok": False, "error": "'arguments' must be a JSON object"}
        # The session enforces the server's call timeout; this wait only guards against a lost reply.
        reply = await self._ask(lambda f: CallTool(tool, arguments, f), timeout=3600.0)
        result = render_reply(reply, max_chars=self.max_output_chars, registry=self.registry)
        return {"ok": True, "result": {"text": result.text, "is_error": result.is_error}}

    async def _ask(self, make: Callable[[Future[Any]], object], timeout: float = 10.0) -> Any:
        future: Future[Any] = Future()
        try:
            self.registry.tell(make(future))
        except pykka.ActorDeadError:
            raise ControlError("the manager is stopping") from None
        return await asyncio.wait_for(asyncio.wrap_future(future), timeout)


class ControlClient:
    """The CLI's side: send one request, read one reply."""

    def __init__(self, path: Path | str | None = None, *, timeout: float = 15.0) -> None:
        self.path = Path(path) if path is not None else default_socket_path()
        self.timeout = timeout

    def request(self, op: str, server: str | None = None, **fields: Any) -> Any:
        """Send ``op`` (for ``server``); return the reply's result or raise :class:`ControlError`."""
        payload: dict[str, Any] = {"op": op, **fields}
        if server is not None:
            payload["server"] = server
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        try:
            try:
                sock.connect(str(self.path))
            except FileNotFoundError:
                raise ControlError(
                    f"no manager is running at {self.path} (start one with 'troupe run')"
                ) from None
            except OSError as exc:
                raise ControlError(
                    f"cannot reach the manager at {self.path}: {exc.strerror or exc}"
                ) from None
            sock.sendall(json.dumps(payload).encode() + b"\n")
            data = b""
            while not data.endswith(b"\n"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        except TimeoutError:
            raise ControlError(f"the manager at {self.path} did not answer within {self.timeout} s") from None
        finally:
            sock.close()
        try:
            reply = json.loads(data)
        except ValueError:
            raise ControlError(f"the manager at {self.path} sent an unreadable reply") from None
        if not isinstance(reply, dict) or not reply.get("ok"):
            error = reply.get("error") if isinstance(reply, dict) else None
            kind = reply.get("kind") if isinstance(reply, dict) else None
            reason = reply.get("reason") if isinstance(reply, dict) else None
            raise ControlError(
                str(error or "the manager refused the request"),
                kind=kind if isinstance(kind, str) else None,
                reason=reason if isinstance(reason, str) else None,
            )
        return reply.get("result")
