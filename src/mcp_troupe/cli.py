"""The ``troupe`` command: check a configuration, list and call tools, read resources and prompts, show
status, run the demo.

It uses only the public face (DESIGN §4): :func:`load_config`, :class:`Troupe` and the value types. Every
command prints a readable table by default and JSON with ``--json``, and exits with one of:

====  ===================================================================================================
0     success
1     the work failed: a server failed (``check``), a call raised or returned a tool error, an OS error
2     the command line or the configuration is wrong (nothing was started)
130   interrupted (Ctrl-C)
====  ===================================================================================================

Failures end in one line on stderr, ``troupe: error: <reason>`` (an error whose message already spans
several lines, such as a ConfigError listing every problem, keeps its own lines); never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import enum
import json
import logging
import os
import shutil
import signal
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final, Literal, TextIO

from mcp_troupe import (
    ConfigError,
    ServerState,
    ServerStatus,
    ToolResult,
    ToolSpec,
    Troupe,
    TroupeConfig,
    TroupeError,
    UnknownTool,
    __version__,
    load_config,
    stdio_server,
)
from mcp_troupe.approval import ApprovalRequest, Approver, approve_all
from mcp_troupe.control import ControlClient, default_socket_path, status_from_json, status_to_json
from mcp_troupe.review import ReviewEntry, ReviewStore
from mcp_troupe.terminal import ProgressBar, TerminalPrompts

__all__ = ["main"]

log = logging.getLogger("mcp_troupe.cli")

PROG: Final = "troupe"
CONFIG_ENV: Final = "TROUPE_CONFIG"
DEFAULT_CONFIG: Final = "troupe.yaml"

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2
EXIT_INTERRUPTED: Final = 130

DEFAULT_WAIT: Final = 60.0
STATUS_WAIT: Final = 10.0
"""``troupe status`` is a snapshot: it waits less, and shows servers still connecting as they are."""

DEMO_WAIT: Final = 30.0
DESCRIPTION_MIN_WIDTH: Final = 24
FALLBACK_COLUMNS: Final = 100
"""Width assumed when stdout is not a terminal (a pipe, a file, a test)."""


class UsageError(Exception):
    """The command line is wrong in a way argparse cannot see (bad ``--args`` JSON, unreadable file)."""


# ---- small helpers: output, tables, JSON -------------------------------------------------------------------


def _error(message: str) -> None:
    print(f"{PROG}: error: {message}", file=sys.stderr)


def _note(message: str) -> None:
    print(f"{PROG}: note: {message}", file=sys.stderr)


def _print_json(document: object) -> None:
    print(json.dumps(document, indent=2, ensure_ascii=False))


def format_table(headers: Sequence[str], rows: Sequence[Sequence[str]], *, indent: str = "") -> list[str]:
    """Lay out ``rows`` under ``headers`` in left-aligned columns two spaces apart; one string per line."""
    widths = [len(header) for header in headers]
    for row in rows:
        for index, cell in enumerate(row):
            widths[index] = max(widths[index], len(cell))

    def line(cells: Sequence[str]) -> str:
        return (
            indent + "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True))
        ).rstrip()

    return [line(headers), *(line(row) for row in rows)]


def _truncate(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 3)].rstrip() + "..."


def _first_line(text: str | None) -> str:
    lines = (text or "").strip().splitlines()
    return lines[0].strip() if lines else ""


def to_json(value: Any) -> Any:
    """Turn config and result values (mappings, tuples, enums) into plain JSON data."""
    if isinstance(value, enum.Enum):
        # Risk is an IntEnum: json.dumps would write its number, but its string name is what people read.
        return str(value)
    if isinstance(value, Mapping):
        return {str(key): to_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    return value


def tool_json(spec: ToolSpec) -> dict[str, Any]:
    """Every ToolSpec field, as JSON data (``risk`` as its name: read_only, exec, dangerous)."""
    return {field.name: to_json(getattr(spec, field.name)) for field in dataclasses.fields(spec)}


def status_json(status: ServerStatus) -> dict[str, Any]:
    """Every ServerStatus field as JSON data; ``ready_since`` becomes ``ready_for`` (seconds)."""
    return status_to_json(status)


def result_json(result: ToolResult) -> dict[str, Any]:
    """The parts of a ToolResult a script needs: text, is_error, structured, raw."""
    return {
        "text": result.text,
        "is_error": result.is_error,
        "structured": to_json(result.structured),
        "raw": to_json(result.raw),
    }


# ---- tables ------------------------------------------------------------------------------------------------


def _uptime(status: ServerStatus) -> str:
    if status.ready_since is None:
        return "-"
    seconds = int(time.monotonic() - status.ready_since)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}h{rest // 60:02d}m" if hours else f"{rest // 60}m{rest % 60:02d}s"


def status_lines(statuses: Sequence[ServerStatus], *, indent: str = "") -> list[str]:
    """The server table, each failed or skipped server followed by its reason, stderr tail and rejects."""
    headers = (
        "SERVER",
        "TRANSPORT",
        "STATE",
        "INC",
        "ATTEMPTS",
        "PROTOCOL",
        "TOOLS",
        "PID/SESSION",
        "UPTIME",
    )
    rows = [
        (
            s.name,
            s.transport,
            str(s.state),
            str(s.incarnation),
            str(s.attempts),
            s.protocol_version or "-",
            str(s.tool_count),
            str(s.pid) if s.pid is not None else (s.session_id or "-"),
            _uptime(s),
        )
        for s in statuses
    ]
    table = format_table(headers, rows, indent=indent)
    lines = [table[0]]
    for status, row_line in zip(statuses, table[1:], strict=True):
        lines.append(row_line)
        lines.extend(_status_details(status, indent + "  "))
    return lines


def _status_details(status: ServerStatus, indent: str) -> list[str]:
    details: list[str] = []
    if status.last_error and status.state is not ServerState.READY:
        label = "reason" if status.state is ServerState.SKIPPED else "last error"
        # A ConnectFailed message carries the stderr tail on its own lines; it is printed below, once.
        details.append(f"{indent}{label}: {_first_line(status.last_error)}")
    if status.stderr_tail and status.state in (ServerState.FAILED, ServerState.BACKOFF):
        details.append(f"{indent}stderr (last lines):")
        details.extend(f"{indent}  {line}" for line in status.stderr_tail)
    for tool, reason in status.rejected.items():
        # "*" is the whole catalog (rejected unjudged, e.g. more tools than tools.mcp.limits.max_tools).
        what = "catalog" if tool == "*" else f"tool {tool!r}"
        details.append(f"{indent}rejected {what}: {reason}")
    if status.auth is not None:
        details.append(f"{indent}auth: {auth_text(status.auth, status.name)}")
    return details


def auth_text(auth: Mapping[str, Any], server: str) -> str:
    """One line about an OAuth login: ``valid until 2026-01-02 03:04 UTC, scopes read write`` (no secret)."""
    state = str(auth.get("state") or "unknown")
    parts = [state]
    moment = _utc_moment(auth.get("expires_at"))
    if moment is not None and state in ("valid", "refreshable", "expired"):
        parts[0] = f"{state} until {moment}" if state == "valid" else f"{state} (expired {moment})"
    grant = auth.get("grant")
    if grant and grant != "authorization_code":
        parts.append(f"grant {grant}")
    if auth.get("token_type") == "DPoP":
        parts.append("DPoP-bound")
    scopes = auth.get("scopes") or []
    parts.append(f"scopes {' '.join(scopes)}" if scopes else "no scopes")
    if auth.get("issuer"):
        parts.append(f"issuer {auth['issuer']}")
    is_user_grant = grant in (None, "authorization_code")
    if auth.get("needs_login") or (is_user_grant and state in ("needs_login", "logged_out", "expired")):
        parts.append(f"run `troupe login {server}`")
    elif not is_user_grant and auth.get("error"):
        parts.append("renews by itself once its credentials work again")
    return ", ".join(parts)


def _utc_moment(value: object) -> str | None:
    """``2026-01-02 03:04:05 UTC`` for a sane timestamp; ``None`` for anything else (a hostile server's
    ``1e17`` once made ``time.gmtime`` fail with "Value too large" and took ``troupe status`` down)."""
    if not isinstance(value, int | float) or isinstance(value, bool) or not 0 <= value < 2**35:
        return None
    try:
        return time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(value))
    except (OverflowError, OSError, ValueError):
        return None


def summary_line(statuses: Sequence[ServerStatus]) -> str:
    """``2 servers: 1 ready, 1 failed`` (states in the order they appear)."""
    counts: dict[str, int] = {}
    for status in statuses:
        counts[str(status.state)] = counts.get(str(status.state), 0) + 1
    noun = "server" if len(statuses) == 1 else "servers"
    if not counts:
        return "0 servers configured"
    return f"{len(statuses)} {noun}: " + ", ".join(f"{count} {state}" for state, count in counts.items())


def tool_lines(specs: Sequence[ToolSpec], *, indent: str = "") -> list[str]:
    """The tool table: qualified name, risk, ready, server, first line of the description (cut to fit)."""
    headers = ("NAME", "RISK", "READY", "SERVER", "DESCRIPTION")
    cells = [
        (s.name, str(s.risk), "yes" if s.ready else "no", s.server, _first_line(s.description)) for s in specs
    ]
    # The description takes what the other columns leave of the terminal, but never less than a few words.
    fixed = [max(len(headers[i]), *(len(row[i]) for row in cells)) for i in range(4)] if cells else [0]
    used = len(indent) + sum(width + 2 for width in fixed)
    columns = shutil.get_terminal_size((FALLBACK_COLUMNS, 24)).columns
    width = max(DESCRIPTION_MIN_WIDTH, columns - used)
    rows = [(*row[:4], _truncate(row[4], width)) for row in cells]
    return format_table(headers, rows, indent=indent)


# ---- arguments ---------------------------------------------------------------------------------------------


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a finite number of seconds >= 0, got {text!r}")
    return value


def _positive_seconds(text: str) -> float:
    value = _seconds(text)
    if value == 0:
        raise argparse.ArgumentTypeError("expected a number of seconds > 0, got 0")
    return value


def parse_arguments_json(spec: str | None, stdin: TextIO | None = None) -> dict[str, Any]:
    """Read ``--args``: a JSON object given inline, as ``@file.json`` or as ``-`` (standard input).

    Raises:
        UsageError: The file cannot be read, the text is not JSON (the message names line and column), or
            the JSON is not an object.
    """
    if spec is None:
        return {}
    where = "--args"
    if spec == "-":
        text = (stdin or sys.stdin).read()
        where = "--args (standard input)"
    elif spec.startswith("@"):
        path = spec[1:]
        try:
            with open(path, encoding="utf-8") as file:
                text = file.read()
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise UsageError(f"--args: cannot read {path!r}: {reason}") from exc
        where = f"--args file {path!r}"
    else:
        text = spec
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{where} is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno} (char {exc.pos})"
        ) from None
    if not isinstance(value, dict):
        kind = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}.get(
            type(value), "a number"
        )
        raise UsageError(f"{where} must be a JSON object, got {kind}")
    return value


def _config_path(args: argparse.Namespace) -> str:
    path: str | None = getattr(args, "config", None)
    return path or os.environ.get(CONFIG_ENV) or DEFAULT_CONFIG


def build_parser() -> argparse.ArgumentParser:
    """The ``troupe`` argument parser, with one subparser per command."""
    # -v and --json are accepted before and after the command (``troupe -v check``, ``troupe check -v``).
    # SUPPRESS keeps a subparser's unset option from overwriting what the main parser already read.
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "-v", "--verbose", action="count", default=argparse.SUPPRESS,
        help="log more to stderr: -v for INFO, -vv for DEBUG (default: WARNING)",
    )  # fmt: skip
    common.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="print JSON instead of a table"
    )
    with_config = argparse.ArgumentParser(add_help=False)
    with_config.add_argument(
        "-c", "--config", metavar="PATH", default=argparse.SUPPRESS,
        help=f"the configuration file (default: ${CONFIG_ENV}, else ./{DEFAULT_CONFIG})",
    )  # fmt: skip

    parser = argparse.ArgumentParser(
        prog=PROG,
        description="mcp-troupe: many MCP servers behind one tool table.",
        parents=[common],
        epilog="Exit status: 0 success, 1 failure, 2 usage or configuration error, 130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def add(
        name: str, handler: Callable[[argparse.Namespace], int], help_text: str
    ) -> argparse.ArgumentParser:
        parents = [common] if name == "demo" else [common, with_config]
        sub = commands.add_parser(name, parents=parents, help=help_text, description=help_text)
        sub.set_defaults(handler=handler)
        return sub

    check = add("check", run_check, "validate the config, connect every server and report; fail if any fails")
    check.add_argument(
        "--wait", type=_seconds, default=DEFAULT_WAIT, metavar="SECONDS",
        help=f"how long to wait for every server to settle (default: {DEFAULT_WAIT:g})",
    )  # fmt: skip

    tools = add("tools", run_tools, "list the tools of every server")
    tools.add_argument("--ready-only", action="store_true", help="only tools of servers connected right now")
    tools.add_argument(
        "--wait", type=_seconds, default=DEFAULT_WAIT, metavar="SECONDS",
        help=f"how long to wait for the servers to connect (default: {DEFAULT_WAIT:g})",
    )  # fmt: skip

    call = add("call", run_call, "call one tool by its qualified name and print the result")
    call.add_argument("tool", metavar="TOOL", help="the qualified tool name, e.g. mcp__demo__echo")
    call.add_argument(
        "--args", dest="arguments", metavar="JSON",
        help="the arguments, a JSON object: inline, @FILE, or - for standard input (default: {})",
    )  # fmt: skip
    call.add_argument(
        "--timeout", type=_positive_seconds, metavar="SECONDS",
        help="the call's timeout (default: the server's configured timeout)",
    )  # fmt: skip
    call.add_argument("--yes", action="store_true", help=YES_HELP)
    call.add_argument(
        "--wait", type=_seconds, default=DEFAULT_WAIT, metavar="SECONDS",
        help=f"how long to wait for the tool's server to connect (default: {DEFAULT_WAIT:g})",
    )  # fmt: skip

    resources = add(
        "resources",
        run_resources,
        "list, read or list the templates of the servers' resources, as the model sees them (mcp_resources)",
    )
    resources.add_argument("action", choices=("list", "read", "templates"), help="what to do")
    resources.add_argument(
        "--server", metavar="NAME", help="the server (required when several offer resources)"
    )
    resources.add_argument("--uri", metavar="URI", help="with 'read': the resource to read")
    resources.add_argument(
        "--cursor", metavar="CURSOR", help="continue a listing where a previous one stopped"
    )
    _add_builtin_options(resources)

    prompts = add(
        "prompts", run_prompts, "list the servers' prompts or get one, as the model sees them (mcp_prompts)"
    )
    prompts.add_argument("action", choices=("list", "get"), help="what to do")
    prompts.add_argument("--server", metavar="NAME", help="the server (required when several offer prompts)")
    prompts.add_argument("--name", metavar="NAME", help="with 'get': the prompt")
    prompts.add_argument(
        "--args", dest="arguments", metavar="JSON",
        help="with 'get': the prompt's arguments, a JSON object of strings: inline, @FILE, or - for stdin",
    )  # fmt: skip
    prompts.add_argument(
        "--cursor", metavar="CURSOR", help="with 'list': continue where a previous one stopped"
    )
    _add_builtin_options(prompts)

    status = add("status", run_status, "show every server's state once; never fails on a failed server")
    status.add_argument(
        "--wait", type=_seconds, default=STATUS_WAIT, metavar="SECONDS",
        help=f"how long to let servers settle before the snapshot (default: {STATUS_WAIT:g})",
    )  # fmt: skip

    _add_review_parser(
        add("review", run_review, "list the tools withheld by the injection scan; release or keep one")
    )

    login = add("login", run_login, "log in to an HTTP server with auth: oauth (browser, or paste the URL)")
    login.add_argument("name", metavar="NAME", help="the server, as named in the config")
    login.add_argument(
        "--no-browser", action="store_true", help="print the URL and read back the address it redirects to"
    )
    logout = add("logout", run_logout, "delete a server's stored OAuth credentials (every issuer)")
    logout.add_argument("name", metavar="NAME", help="the server")

    add("demo", run_demo, "a guided tour with the bundled demo server (needs no config file)")

    socket_help = "the control socket (default: tools.mcp.control_socket from the config, else per user)"
    run = add("run", run_manager, "run the manager in the foreground: live status and a control socket")
    run.add_argument("--socket", metavar="PATH", help=socket_help)
    run.add_argument(
        "--no-view", action="store_true", help="log events as lines instead of redrawing a table"
    )
    run.add_argument("--yes", action="store_true", help=YES_HELP)

    ctl = add("ctl", run_ctl, "act on a running manager (troupe run) through its control socket")
    ctl.add_argument("action", choices=("status", "restart", "stop", "start", "call"), help="what to do")
    ctl.add_argument(
        "target", nargs="?", metavar="NAME", help="the server (restart/stop/start) or tool (call)"
    )
    ctl.add_argument("--socket", metavar="PATH", help=socket_help)
    ctl.add_argument(
        "--args", dest="arguments", metavar="JSON", help="with 'call': the arguments, as for 'troupe call'"
    )
    return parser


def _add_builtin_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument(
        "--timeout", type=_positive_seconds, metavar="SECONDS",
        help="each request's timeout (default: the server's configured timeout)",
    )  # fmt: skip
    sub.add_argument(
        "--wait", type=_seconds, default=DEFAULT_WAIT, metavar="SECONDS",
        help=f"how long to wait for the servers to connect (default: {DEFAULT_WAIT:g})",
    )  # fmt: skip


# ---- running a troupe --------------------------------------------------------------------------------------


@contextlib.contextmanager
def _running(config: TroupeConfig, approver: Approver | None = None, **handlers: Any) -> Iterator[Troupe]:
    troupe = Troupe(config, approver=approver, **handlers)
    try:
        troupe.start()
        yield troupe
    finally:
        # Also on Ctrl-C and on errors: never leave server processes behind.
        troupe.stop()


def _load(args: argparse.Namespace) -> TroupeConfig:
    path = _config_path(args)
    log.info("loading configuration %s", path)
    return load_config(path)


def _wait_for_tool(troupe: Troupe, name: str, wait: float) -> None:
    """Wait until ``name`` is callable, every server has settled, or ``wait`` seconds pass.

    Waiting for the tool rather than for every server means one slow or failing server does not hold up a
    call to another. Each state change emits an event; events are queued, so none is missed between a
    check and the wait that follows it.
    """
    deadline = time.monotonic() + wait
    while True:
        if any(spec.name == name for spec in troupe.tools(ready_only=True)):
            return
        if all(status.state.is_settled for status in troupe.status()):
            return
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        # A short wait: an event emitted between the check above and this subscription is not seen.
        for _event in troupe.events(timeout=min(remaining, 0.25)):
            break


def _unsettled(statuses: Sequence[ServerStatus]) -> list[ServerStatus]:
    return [status for status in statuses if not status.state.is_settled]


# ---- commands ----------------------------------------------------------------------------------------------


def _report_servers(args: argparse.Namespace, *, wait: float, strict: bool) -> int:
    """Shared body of ``check`` (``strict``: exit 1 unless every enabled server is ready) and ``status``."""
    config = _load(args)
    with _running(config) as troupe:
        is_settled = troupe.wait_ready(timeout=wait)
        statuses = troupe.status()
    not_ready = [s.name for s in statuses if s.state not in (ServerState.READY, ServerState.SKIPPED)]
    if getattr(args, "json", False):
        document: dict[str, Any] = {
            "config": config.source,
            "settled": is_settled,
            "servers": [status_json(status) for status in statuses],
        }
        if strict:
            document["ok"] = not not_ready
        _print_json(document)
    else:
        print(f"config: {config.source}")
        if not config.mcp_enabled:
            print("tools.mcp.enabled is false: no server was connected")
        lines = status_lines(statuses)
        print("\n".join(lines) if statuses else "no servers configured")
        print(summary_line(statuses))
    if not is_settled:
        waiting = ", ".join(f"{s.name} ({s.state})" for s in _unsettled(statuses))
        message = f"not settled after {wait:g} s: {waiting}"
        if strict:
            _error(message)
        else:
            _note(message)
    if strict and not_ready:
        if is_settled:  # else the line above named them
            noun = "server" if len(not_ready) == 1 else "servers"
            _error(f"{len(not_ready)} {noun} not ready: {', '.join(not_ready)}")
        return EXIT_FAILED
    return EXIT_OK


def run_check(args: argparse.Namespace) -> int:
    """``troupe check``: validate, connect, report; exit 1 if any enabled server is not ready."""
    return _report_servers(args, wait=args.wait, strict=True)


def _socket_path(args: argparse.Namespace) -> Path:
    """--socket, else the config's tools.mcp.control_socket (when a config is there to read), else default."""
    if getattr(args, "socket", None):
        return Path(args.socket)
    path = _config_path(args)
    if getattr(args, "config", None) or os.path.exists(path):
        configured = load_config(path).control_socket
        if configured:
            return Path(configured)
    return default_socket_path()


def run_manager(args: argparse.Namespace) -> int:
    """``troupe run``: connect everything, serve the control socket, show live status until interrupted."""
    config = _load(args)
    socket_path = _socket_path(args)
    live = sys.stdout.isatty() and not getattr(args, "no_view", False) and not getattr(args, "json", False)
    # SIGTERM (a service manager stopping us) ends the run like Ctrl-C: through the same clean stop.
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        with _running(config, approve_all if args.yes else None) as troupe:
            path = troupe.serve_control(socket_path)
            print(f"troupe: managing {len(config.servers)} servers from {config.source}", flush=True)
            print(f"troupe: control socket {path} (try: troupe ctl status --socket {path})", flush=True)
            _render_live(troupe, live=live, as_json=getattr(args, "json", False))
    except KeyboardInterrupt:
        print("troupe: stopped", flush=True)
        return EXIT_OK
    finally:
        signal.signal(signal.SIGTERM, previous)
    return EXIT_OK


def _raise_interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _render_live(troupe: Troupe, *, live: bool, as_json: bool) -> None:
    """Redraw the status table on every event (a terminal), or print one line per event (a pipe or log)."""
    if live:
        _redraw(troupe)
    while True:
        for event in troupe.events(timeout=1.0):
            if as_json:
                _print_json({"event": event.kind, "server": event.server, "incarnation": event.incarnation,
                             "detail": event.detail, "at": event.at})  # fmt: skip
            elif not live:
                detail = f": {event.detail}" if event.detail else ""
                stamp = time.strftime("%H:%M:%S")
                print(
                    f"{stamp} {event.server} {event.kind} (incarnation {event.incarnation}){detail}",
                    flush=True,
                )
        if live:
            _redraw(troupe)


def _redraw(troupe: Troupe) -> None:
    sys.stdout.write("\x1b[H\x1b[2J")  # home + clear: a plain ANSI redraw, no curses dependency
    print(f"troupe run — {time.strftime('%H:%M:%S')} (Ctrl-C to stop)\n")
    statuses = troupe.status()
    print("\n".join(status_lines(statuses)))
    print(summary_line(statuses), flush=True)


def run_ctl(args: argparse.Namespace) -> int:
    """``troupe ctl``: send one request to a running manager."""
    action, target = args.action, args.target
    if action != "status" and not target:
        raise UsageError(f"'troupe ctl {action}' needs a {'tool' if action == 'call' else 'server'} name")
    client = ControlClient(_socket_path(args))
    if action == "status":
        documents = client.request("status")
        if getattr(args, "json", False):
            _print_json(documents)
        else:
            statuses = [status_from_json(document) for document in documents]
            print("\n".join(status_lines(statuses)))
            print(summary_line(statuses))
        return EXIT_OK
    if action == "call":
        arguments = parse_arguments_json(args.arguments)
        result = client.request("call", tool=target, arguments=arguments)
        if getattr(args, "json", False):
            _print_json(result)
        else:
            print(result["text"])
        return EXIT_FAILED if result.get("is_error") else EXIT_OK
    client.request(action, target)
    if getattr(args, "json", False):
        _print_json({"ok": True, "action": action, "server": target})
    else:
        print(f"{target}: {action} requested")
    return EXIT_OK


def _add_review_parser(review: argparse.ArgumentParser) -> None:
    review.add_argument(
        "action", nargs="?", choices=("list", "release", "keep"), default="list",
        help="list (default): withheld tools and their findings; release: register one; keep: keep it out",
    )  # fmt: skip
    review.add_argument("server", nargs="?", metavar="SERVER", help="the server, as named in the config")
    review.add_argument("tool", nargs="?", metavar="TOOL", help="the server's own name for the tool")
    review.add_argument(
        "--fingerprint", metavar="HEX",
        help="decide on this definition (default: the tool's newest pending one)",
    )  # fmt: skip
    review.add_argument("--all", action="store_true", help="with 'list': decided definitions too")
    review.add_argument(
        "--scan", action="store_true",
        help="with 'list': connect every configured server first, so that new withheld tools are recorded",
    )  # fmt: skip
    review.add_argument(
        "--wait", type=_seconds, default=DEFAULT_WAIT, metavar="SECONDS",
        help=f"with --scan: how long to wait for the servers to connect (default: {DEFAULT_WAIT:g})",
    )  # fmt: skip


def _review_lines(entry: ReviewEntry) -> list[str]:
    lines = [f"{entry.server}/{entry.tool}  {entry.status}  definition {entry.fingerprint[:16]}"]
    lines += [f"    {f.confidence:<4}  {f.rule}  in {f.field}: {f.excerpt}" for f in entry.findings]
    return lines


def run_review(args: argparse.Namespace) -> int:
    """``troupe review``: list withheld tools, or record a decision (by fingerprint) on one."""
    store = ReviewStore()
    if args.action == "list":
        if args.tool is not None:
            raise UsageError("review list takes at most a SERVER, not a TOOL")
        if args.scan:
            with _running(_load(args)) as troupe:
                troupe.wait_ready(timeout=args.wait)
        entries = store.entries() if args.all else store.pending(args.server)
        entries = [entry for entry in entries if args.server is None or entry.server == args.server]
        if getattr(args, "json", False):
            _print_json([entry.to_json() for entry in entries])
        elif entries:
            print("\n".join(line for entry in entries for line in _review_lines(entry)))
            _note("release one with `troupe review release SERVER TOOL`, or keep it out with `... keep`")
        else:
            print(
                "no tools withheld for review" + ("" if args.scan else " (--scan connects the servers first)")
            )
        return EXIT_OK
    if args.server is None or args.tool is None:
        raise UsageError(f"review {args.action} needs a SERVER and a TOOL")
    decision: Literal["released", "kept"] = "released" if args.action == "release" else "kept"
    entry = store.decide(args.server, args.tool, decision, args.fingerprint)
    if getattr(args, "json", False):
        _print_json(entry.to_json())
    else:
        print(
            f"{decision} tool {entry.tool!r} of server {entry.server!r} (definition {entry.fingerprint[:16]})"
        )
        _note(
            "this takes effect when the server next lists its tools: a new troupe process, a reconnect, or "
            f"`troupe ctl restart {entry.server}` for a running one; a changed definition is withheld again"
        )
    return EXIT_OK


def run_status(args: argparse.Namespace) -> int:
    """``troupe status``: the same report as ``check``, as a snapshot that exits 0 whatever the states."""
    return _report_servers(args, wait=args.wait, strict=False)


def run_login(args: argparse.Namespace) -> int:
    """``troupe login NAME``: a fresh OAuth authorization, stored sealed for every later run to use."""
    import asyncio

    from mcp_troupe.auth import CredentialStore, describe, login

    config = _load(args)
    server = config.servers.get(args.name)
    if server is None or server.transport != "http" or server.auth != "oauth":
        known = sorted(name for name, item in config.servers.items() if item.auth == "oauth")
        raise UsageError(
            f"no HTTP server {args.name!r} with auth: oauth in {config.source} "
            f"(those with it: {', '.join(known) or 'none'})"
        )
    store = CredentialStore()
    # The URL and the paste prompt go to stderr: stdout stays the command's result (JSON with --json).
    state = asyncio.run(
        login(server, store=store, use_browser=not args.no_browser, input_stream=sys.stdin, output=sys.stderr)
    )
    info = describe(state)
    if getattr(args, "json", False):
        _print_json({"server": server.name, "auth": info})
    else:
        print(f"logged in to {server.name}: {auth_text(info, server.name)}")
    return EXIT_OK


def run_logout(args: argparse.Namespace) -> int:
    """``troupe logout NAME``: delete the server's stored credentials (not revoked at the server)."""
    from mcp_troupe.auth import logout

    deleted = logout(args.name)
    if getattr(args, "json", False):
        _print_json({"server": args.name, "deleted": deleted})
    else:
        print(f"{args.name}: {'logged out' if deleted else 'no stored credentials'}")
    return EXIT_OK


def run_tools(args: argparse.Namespace) -> int:
    """``troupe tools``: the tool table (every ToolSpec field with ``--json``)."""
    config = _load(args)
    with _running(config) as troupe:
        troupe.wait_ready(timeout=args.wait)
        specs = troupe.tools(ready_only=args.ready_only)
        statuses = troupe.status()
    if getattr(args, "json", False):
        _print_json([tool_json(spec) for spec in specs])
    elif specs:
        print("\n".join(tool_lines(specs)))
    else:
        print("no tools")
    for status in statuses:
        if status.state not in (ServerState.READY, ServerState.SKIPPED):
            _note(f"server {status.name!r} is {status.state}; its tools are not listed")
    return EXIT_OK


def run_call(args: argparse.Namespace) -> int:
    """``troupe call TOOL``: call one tool; exit 1 if it raised or returned a tool error."""
    arguments = parse_arguments_json(args.arguments)  # before starting anything: a typo costs nothing
    config = _load(args)
    # host callbacks: on a terminal the operator answers the servers' forms and sampling requests, and a
    # progress bar shows on stderr; elsewhere nothing is declared (servers get -32601, as always).
    bar, handlers = _terminal_host()
    with _running(config, _approver(args), **handlers) as troupe:
        _wait_for_tool(troupe, args.tool, args.wait)
        try:
            result = troupe.call(args.tool, arguments, timeout=args.timeout, progress_handler=bar)
        except UnknownTool as exc:
            # The tools of a server that is not ready are not in the table: say which servers those are.
            not_ready = [s for s in troupe.status() if s.state is not ServerState.READY]
            hint = "; ".join(f"server {s.name!r} is not ready: {s.state}" for s in not_ready)
            raise TroupeError(f"{exc}" + (f" ({hint})" if hint else " (see `troupe tools`)")) from exc
        finally:
            if bar is not None:
                bar.finish()
    if getattr(args, "json", False):
        _print_json(result_json(result))
    else:
        print(result.text)
    if result.is_error:
        _error(f"tool {args.tool!r} returned an error (isError: true)")
        return EXIT_FAILED
    return EXIT_OK


# What each action of `troupe resources` / `troupe prompts` needs and takes: (required, allowed) options.
_BUILTIN_OPTIONS: Final[Mapping[tuple[str, str], tuple[tuple[str, ...], tuple[str, ...]]]] = {
    ("mcp_resources", "list"): ((), ("server", "cursor")),
    ("mcp_resources", "read"): (("uri",), ("server", "uri")),
    ("mcp_resources", "templates"): ((), ("server", "cursor")),
    ("mcp_prompts", "list"): ((), ("server", "cursor")),
    ("mcp_prompts", "get"): (("name",), ("server", "name", "arguments")),
}


def builtin_arguments(tool: str, args: argparse.Namespace) -> dict[str, Any]:
    """The built-in ``tool``'s arguments from the command line; :class:`UsageError` on a misplaced option.

    Checked here, before anything starts, so that a typo costs nothing; the tool checks them again.
    """
    command = "resources" if tool == "mcp_resources" else "prompts"
    required, allowed = _BUILTIN_OPTIONS[(tool, args.action)]
    given = {
        name: getattr(args, name)
        for name in ("server", "uri", "name", "cursor", "arguments")
        if getattr(args, name, None) is not None
    }
    for name in given:
        if name not in allowed:
            option = "--args" if name == "arguments" else f"--{name}"
            raise UsageError(f"'troupe {command} {args.action}' does not take {option}")
    for name in required:
        if name not in given:
            raise UsageError(f"'troupe {command} {args.action}' needs --{name}")
    arguments: dict[str, Any] = {"action": args.action}
    for name, value in given.items():
        arguments[name] = parse_arguments_json(value) if name == "arguments" else value
    if "arguments" in arguments:
        bad = [key for key, value in arguments["arguments"].items() if not isinstance(value, str)]
        if bad:
            raise UsageError(f"--args: prompt arguments are strings; not so for {', '.join(map(repr, bad))}")
    return arguments


def _run_builtin(args: argparse.Namespace, tool: str) -> int:
    """Call a built-in tool through ``Troupe.call``, so the output is exactly what the model would read."""
    arguments = builtin_arguments(tool, args)
    config = _load(args)
    with _running(config) as troupe:
        troupe.wait_ready(timeout=args.wait)
        result = troupe.call(tool, arguments, timeout=args.timeout)
    if getattr(args, "json", False):
        _print_json(result_json(result))
    else:
        print(result.text)
    if result.is_error:
        _error(f"{tool} action={args.action} returned an error (isError: true)")
        return EXIT_FAILED
    return EXIT_OK


def run_resources(args: argparse.Namespace) -> int:
    """``troupe resources list|read|templates``: the mcp_resources tool, from a shell."""
    return _run_builtin(args, "mcp_resources")


def run_prompts(args: argparse.Namespace) -> int:
    """``troupe prompts list|get``: the mcp_prompts tool, from a shell."""
    return _run_builtin(args, "mcp_prompts")


# The tour's calls: (tool, arguments, what the reader should notice).
DEMO_CALLS: Final[tuple[tuple[str, dict[str, Any], str], ...]] = (
    ("echo", {"text": "hello from troupe"}, "text in, text out"),
    ("add", {"a": 2, "b": 3}, "the text for the model, plus structured content for code"),
    (
        "word_count",
        {"text": "The quick brown fox jumps over the lazy dog"},
        "structured content rendered as JSON text",
    ),
    (
        "fail",
        {"message": "this is what a tool error looks like"},
        "a tool error is a result the model reads (is_error), not an exception",
    ),
)


def demo_config() -> TroupeConfig:
    """One stdio server: the bundled demo, run by this Python.

    It is ``trusted``: it ships with mcp-troupe, so its read-only hints are believed and the tour's calls
    need no approval (an untrusted server's tools would each ask first; see docs/security.md).
    """
    demo = dataclasses.replace(
        stdio_server("demo", sys.executable, "-m", "mcp_troupe.demo"), trust_level="trusted"
    )
    return TroupeConfig(servers={"demo": demo}, source="<demo>")


YES_HELP = "approve every call that needs approval, without asking (for scripts; each approval is logged)"


def _approver(args: argparse.Namespace) -> Approver | None:
    """``--yes``: approve all; on a terminal: ask there; otherwise none (such calls fail, saying why)."""
    if getattr(args, "yes", False):
        return approve_all
    if sys.stdin.isatty() and sys.stderr.isatty():
        return _ask_on_terminal
    return None


def _terminal_host() -> tuple[ProgressBar | None, dict[str, Any]]:
    """On a terminal: a progress bar, and the operator as elicitation and sampling handler."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return None, {}
    prompts = TerminalPrompts(sys.stdin, sys.stderr)
    return ProgressBar(sys.stderr), {
        "elicitation_handler": prompts.elicit,
        "sampling_handler": prompts.sample,
    }


def _ask_on_terminal(request: ApprovalRequest) -> bool:
    """Show the tool, both risk views and the arguments on stderr; read y/N from the terminal."""
    sys.stderr.write(f"troupe: approval needed for\n{request.describe()}\n")
    sys.stderr.write("run it? [y/N] ")
    sys.stderr.flush()
    answer = sys.stdin.readline().strip().lower()
    return answer in ("y", "yes")


def _server_line(status: ServerStatus) -> str:
    parts = [f"server {status.name}: {status.state}", status.transport]
    if status.protocol_version:
        parts.append(f"protocol {status.protocol_version}")
    info = status.server_info or {}
    if info.get("name"):
        parts.append(f"{info['name']} {info.get('version', '')}".strip())
    if status.pid is not None:
        parts.append(f"pid {status.pid}")
    parts.append(f"{status.tool_count} tool" if status.tool_count == 1 else f"{status.tool_count} tools")
    line = ", ".join(parts)
    if status.last_error and status.state is not ServerState.READY:
        line += f"; last error: {_first_line(status.last_error)}"
    return line


def run_demo(args: argparse.Namespace) -> int:
    """``troupe demo``: start the bundled demo server, list its tools, make a few calls, stop."""
    as_json = getattr(args, "json", False)
    out: list[str] = []
    calls: list[dict[str, Any]] = []
    with _running(demo_config()) as troupe:
        troupe.wait_ready(timeout=DEMO_WAIT)
        [status] = troupe.status()
        if status.state is not ServerState.READY:
            raise TroupeError(f"the demo server did not start: {_server_line(status)}")
        specs = troupe.tools()
        out += ["troupe demo: a tour of mcp-troupe with its bundled demo server (no config file)", ""]
        out += ["1. Start the server and wait until it is ready", f"   {_server_line(status)}", ""]
        out += ["2. The tool table: what an agent sees", *tool_lines(specs, indent="   "), ""]
        out += ["3. Call tools by their qualified names"]
        for tool, arguments, lesson in DEMO_CALLS:
            name = f"mcp__demo__{tool}"
            result = troupe.call(name, arguments)
            calls.append({"tool": name, "arguments": arguments, "result": result_json(result)})
            out.append(f"   {lesson}:")
            out.append(f"   > {name} {json.dumps(arguments)}")
            out += [f"     {line}" for line in result.text.splitlines() or [""]]
            if result.is_error:
                out.append("     is_error: true")
            if result.structured is not None:
                out.append(f"     structured: {json.dumps(to_json(result.structured))}")
            out.append("")
    # Leaving the block stopped the troupe: the server got EOF and exited.
    out += ["4. Stop: every server closed", "   stopped cleanly"]
    if as_json:
        _print_json(
            {
                "server": status_json(status),
                "tools": [tool_json(spec) for spec in specs],
                "calls": calls,
                "stopped": True,
            }
        )
    else:
        print("\n".join(out))
    return EXIT_OK


# ---- entry point -------------------------------------------------------------------------------------------


class _CliLogHandler(logging.StreamHandler[TextIO]):
    """The handler ``main`` installs; marked so that a second ``main`` in one process replaces it."""


def configure_logging(verbosity: int) -> None:
    """Send the ``mcp_troupe`` loggers to stderr: WARNING, INFO with ``-v``, DEBUG with ``-vv``."""
    level = logging.WARNING if verbosity <= 0 else logging.INFO if verbosity == 1 else logging.DEBUG
    logger = logging.getLogger("mcp_troupe")
    for handler in list(logger.handlers):
        if isinstance(handler, _CliLogHandler):
            logger.removeHandler(handler)
    handler = _CliLogHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(f"{PROG}: %(levelname)s: %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(level)


def main(argv: list[str] | None = None) -> int:
    """Run the ``troupe`` command with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        # argparse has printed its usage line and reason (or --help / --version); keep its status.
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    handler: Callable[[argparse.Namespace], int] | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_usage(sys.stderr)
        _error(
            "a command is required "
            "(check, tools, call, resources, prompts, status, review, run, ctl, login, logout, demo)"
        )
        return EXIT_USAGE
    configure_logging(getattr(args, "verbose", 0))
    try:
        return handler(args)
    except KeyboardInterrupt:
        _error("interrupted")
        return EXIT_INTERRUPTED
    except (UsageError, ConfigError) as exc:
        _error(str(exc))
        return EXIT_USAGE
    except TroupeError as exc:
        _error(str(exc) or type(exc).__name__)
        return EXIT_FAILED
    except BrokenPipeError:
        # The reader went away (`troupe tools | head`): nothing left to tell it. Point stdout at devnull so
        # the interpreter's final flush does not fail again.
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILED
    except OSError as exc:
        _error(str(exc) or type(exc).__name__)
        return EXIT_FAILED


if __name__ == "__main__":
    raise SystemExit(main())
