"""Output of the ``troupe`` command: the error and note lines on stderr, JSON documents, and the tables."""

from __future__ import annotations

import dataclasses
import enum
import json
import shutil
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any, Final

from mcp_troupe import ServerState, ServerStatus, ToolResult, ToolSpec
from mcp_troupe.cli.common import PROG
from mcp_troupe.control import status_to_json

DESCRIPTION_MIN_WIDTH: Final = 24
FALLBACK_COLUMNS: Final = 100
"""Width assumed when stdout is not a terminal (a pipe, a file, a test)."""


# ---- small helpers: output, tables, JSON -------------------------------------------------------------------


def plural(count: int, noun: str) -> str:
    """``1 server``, ``2 servers``, ``0 servers``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def print_error(message: str) -> None:
    """``troupe: error: MESSAGE`` on stderr."""
    print(f"{PROG}: error: {message}", file=sys.stderr)


def print_note(message: str) -> None:
    """``troupe: note: MESSAGE`` on stderr."""
    print(f"{PROG}: note: {message}", file=sys.stderr)


def print_json(document: object) -> None:
    """``document`` on stdout, indented, non-ASCII kept."""
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


def truncate(text: str, width: int) -> str:
    """``text`` cut to ``width`` characters, ending in ``...`` when cut."""
    return text if len(text) <= width else text[: max(0, width - 3)].rstrip() + "..."


def first_line(text: str | None) -> str:
    """The first non-blank line of ``text``, stripped (``""`` for none)."""
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
        details.append(f"{indent}{label}: {first_line(status.last_error)}")
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
        (s.name, str(s.risk), "yes" if s.ready else "no", s.server, first_line(s.description)) for s in specs
    ]
    # The description takes what the other columns leave of the terminal, but never less than a few words.
    fixed = [max(len(headers[i]), *(len(row[i]) for row in cells)) for i in range(4)] if cells else [0]
    used = len(indent) + sum(width + 2 for width in fixed)
    columns = shutil.get_terminal_size((FALLBACK_COLUMNS, 24)).columns
    width = max(DESCRIPTION_MIN_WIDTH, columns - used)
    rows = [(*row[:4], truncate(row[4], width)) for row in cells]
    return format_table(headers, rows, indent=indent)
