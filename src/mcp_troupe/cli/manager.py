"""``troupe run`` (the manager in the foreground, with its control socket and live status) and ``troupe ctl``
(one request to a running manager)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path

from mcp_troupe import Troupe, TroupeError, load_config
from mcp_troupe.approval import approve_all
from mcp_troupe.cli.calls import NO_APPROVER_MARK, approval_message
from mcp_troupe.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    UsageError,
    config_path,
    load,
    parse_arguments_json,
    running,
)
from mcp_troupe.cli.output import plural, print_json, status_lines, summary_line
from mcp_troupe.control import ControlClient, ControlError, default_socket_path, status_from_json


def control_socket_path(args: argparse.Namespace) -> Path:
    """--socket, else the config's tools.mcp.control_socket (when a config is there to read), else default."""
    if getattr(args, "socket", None):
        return Path(args.socket)
    path = config_path(args)
    if getattr(args, "config", None) or os.path.exists(path):
        configured = load_config(path).control_socket
        if configured:
            return Path(configured)
    return default_socket_path()


def run_manager(args: argparse.Namespace) -> int:
    """``troupe run``: connect everything, serve the control socket, show live status until interrupted."""
    config = load(args)
    socket_path = control_socket_path(args)
    live = sys.stdout.isatty() and not getattr(args, "no_view", False) and not getattr(args, "json", False)
    # SIGTERM (a service manager stopping us) ends the run like Ctrl-C: through the same clean stop.
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        with running(config, approve_all if args.yes else None) as troupe:
            path = troupe.serve_control(socket_path)
            managed = plural(len(config.servers), "server")
            print(f"troupe: managing {managed} from {config.source}", flush=True)
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
                print_json({"event": event.kind, "server": event.server, "incarnation": event.incarnation,
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
    client = ControlClient(control_socket_path(args))
    if action == "status":
        documents = client.request("status")
        if getattr(args, "json", False):
            print_json(documents)
        else:
            statuses = [status_from_json(document) for document in documents]
            print("\n".join(status_lines(statuses)))
            print(summary_line(statuses))
        return EXIT_OK
    if action == "call":
        arguments = parse_arguments_json(args.arguments)
        try:
            result = client.request("call", tool=target, arguments=arguments)
        except ControlError as exc:
            if exc.kind == "ApprovalRequired" and exc.reason is not None:
                # The approver that is missing is the manager's: `troupe ctl call --yes` could not help.
                reason = exc.reason.split(NO_APPROVER_MARK, 1)[0]
                raise TroupeError(approval_message(target, reason, manager=str(client.path))) from exc
            raise
        if getattr(args, "json", False):
            print_json(result)
        else:
            print(result["text"])
        return EXIT_FAILED if result.get("is_error") else EXIT_OK
    client.request(action, target)
    if getattr(args, "json", False):
        print_json({"ok": True, "action": action, "server": target})
    else:
        print(f"{target}: {action} requested")
    return EXIT_OK
