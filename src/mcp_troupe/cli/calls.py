"""What ``troupe call`` decides before and around one call: which servers to start for the tool, how long to
wait for it, and what to say when it cannot run.

A qualified name tells its server (``mcp__<server>__<tool>``, policy/names.py), so a call starts only that
server rather than every configured one, and fails as soon as that server's first connect has failed, with
its last error and stderr tail, instead of waiting through the reconnect backoff (about half a minute by
default) to say "not ready: failed".
"""

from __future__ import annotations

import dataclasses
import difflib
import time
from collections.abc import Sequence

from mcp_troupe import (
    ApprovalRequired,
    ServerState,
    ServerStatus,
    ToolSpec,
    Troupe,
    TroupeConfig,
    TroupeError,
    UnknownTool,
)
from mcp_troupe.cli.output import first_line
from mcp_troupe.policy.names import BUILTIN_PREFIX, sanitize

_SEPARATOR = "__"

NO_APPROVER_MARK = ", and no approver is installed"
"""Where the registry's ApprovalRequired reason stops saying why and starts saying how (for library users)."""


def servers_for_tool(config: TroupeConfig, name: str) -> tuple[str, ...]:
    """The configured servers whose tools ``name`` may be: those whose ``mcp__<server>__`` prefix it has.

    Usually one. Several when one server's sanitised name is another's plus ``__...`` (``a`` and ``a__b``
    both prefix ``mcp__a__b__x``): then both are started and the tool table decides. Empty for a built-in
    (``mcp_resources``...), a name without the prefix, or a prefix no server has.
    """
    if not name.startswith(BUILTIN_PREFIX):
        return ()
    return tuple(
        server
        for server in config.servers
        if name.startswith(f"{BUILTIN_PREFIX}{sanitize(server)}{_SEPARATOR}")
        and len(name) > len(BUILTIN_PREFIX) + len(sanitize(server)) + len(_SEPARATOR)
    )


def config_for_call(config: TroupeConfig, name: str) -> TroupeConfig:
    """``config`` with only the servers ``name`` may belong to; all of them when the name does not tell.

    Raises:
        UnknownTool: ``name`` has the ``mcp__`` shape but no configured server's prefix, so no server could
            offer it; the reason names the closest server prefix ("did you mean") or the configured ones.
    """
    servers = servers_for_tool(config, name)
    if servers:
        return dataclasses.replace(config, servers={server: config.servers[server] for server in servers})
    head, separator, tool = name[len(BUILTIN_PREFIX) :].partition(_SEPARATOR)
    if not name.startswith(BUILTIN_PREFIX) or not separator or not tool or not config.servers:
        # A built-in, a bare tool name, or nothing to compare with: the full table answers (did you mean...).
        return config
    prefixes = {sanitize(server): server for server in config.servers}
    close = difflib.get_close_matches(head, list(prefixes), n=1, cutoff=0.6)
    if close:
        reason = f"no configured server is named {head!r}; did you mean '{BUILTIN_PREFIX}{close[0]}__{tool}'?"
    else:
        reason = f"no configured server is named {head!r} (configured: {', '.join(config.servers)})"
    raise UnknownTool(name, reason=reason)


def has_given_up_or_settled(status: ServerStatus) -> bool:
    """Whether ``troupe call`` stops waiting for ``status``'s server: settled, or its first connect failed.

    A server in backoff has failed a connect and would be retried; a one-shot call does not wait through
    the retries (``troupe check`` does), so the operator sees the reason at once.
    """
    return status.state.is_settled or (status.state is ServerState.BACKOFF and status.last_error is not None)


def wait_for_tool(troupe: Troupe, name: str, wait: float) -> None:
    """Wait until ``name`` is callable, every started server has settled or failed once, or ``wait`` passes.

    Waiting for the tool rather than for every server means one slow or failing server does not hold up a
    call to another. Each state change emits an event; events are queued, so none is missed between a
    check and the wait that follows it.
    """
    deadline = time.monotonic() + wait
    while True:
        if any(spec.name == name for spec in troupe.tools(ready_only=True)):
            return
        if all(has_given_up_or_settled(status) for status in troupe.status()):
            return
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        # A short wait: an event emitted between the check above and this subscription is not seen.
        for _event in troupe.events(timeout=min(remaining, 0.25)):
            break


def server_problem(status: ServerStatus) -> str:
    """Why a server's tools cannot be called, on several lines: its state, last error and stderr tail."""
    match status.state:
        case ServerState.BACKOFF:
            what = f"server {status.name!r} failed to connect (a one-shot call does not wait for its retries)"
        case ServerState.FAILED if status.attempts:
            what = f"server {status.name!r} failed to connect"
        case ServerState.SKIPPED:
            what = f"server {status.name!r} is skipped"
        case ServerState.NEEDS_LOGIN:
            what = f"server {status.name!r} needs a login: run `troupe login {status.name}`"
        case _:
            what = f"server {status.name!r} is not ready: {status.state}"
    lines = [what]
    if status.last_error:
        label = "reason" if status.state is ServerState.SKIPPED else "last error"
        lines.append(f"  {label}: {first_line(status.last_error)}")
    if status.stderr_tail:
        lines.append("  stderr (last lines):")
        lines.extend(f"    {line}" for line in status.stderr_tail)
    return "\n".join(lines)


def unknown_tool_error(
    exc: UnknownTool, statuses: Sequence[ServerStatus], specs: Sequence[ToolSpec] = ()
) -> TroupeError:
    """``exc`` with what the operator can do: the qualified names of a server's own tool name given bare
    (``echo`` → ``mcp__demo__echo``), and the reasons of the servers that are not ready (their tools are not
    in the table)."""
    message = str(exc)
    if message == f"unknown tool {exc.name!r}":
        named = [spec.name for spec in specs if spec.original_name == exc.name]
        if named:
            message += ": did you mean " + " or ".join(repr(name) for name in named) + "?"
    not_ready = [status for status in statuses if status.state is not ServerState.READY]
    if not not_ready:
        is_bare = message == f"unknown tool {exc.name!r}"
        return TroupeError(f"{message} (see `troupe tools`)" if is_bare else message)
    return TroupeError(f"{message}; " + "\n".join(server_problem(status) for status in not_ready))


def approval_error(exc: ApprovalRequired, *, manager: str | None = None) -> TroupeError:
    """What the command line can do about a call that needs approval: ``--yes``, a terminal, or trust.

    ``manager`` is the control socket for ``troupe ctl call``: there the approver is the manager's, so the
    fix is to run the manager with ``--yes``, not the ``ctl`` command.
    """
    reason = exc.reason.split(NO_APPROVER_MARK, 1)[0]
    return TroupeError(approval_message(exc.name, reason, manager=manager))


def approval_message(tool: str, reason: str, *, manager: str | None = None) -> str:
    """The text of :func:`approval_error` (also used for the manager's reply, which is only text)."""
    if manager is None:
        how = (
            "run it on a terminal to answer the prompt, or pass --yes to approve every call of this command"
            " (each approval is logged)"
        )
    else:
        how = (
            f"the manager at {manager} has no approver: restart it with `troupe run --yes` to approve every"
            " call (each approval is logged)"
        )
    return (
        f"call to {tool!r} needs approval: {reason}; {how}, or set permissions.approval.mode"
        " (docs/cli.md#approval)"
    )
