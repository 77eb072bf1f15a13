"""The one-shot ``troupe`` commands: check, status, tools, call, resources, prompts, review, login, logout,
demo. Each starts the servers it needs, does its work and stops them again."""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import shlex
import sys
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

from mcp_troupe import (
    ApprovalRequired,
    ServerState,
    ServerStatus,
    ToolResult,
    TroupeConfig,
    TroupeError,
    UnknownTool,
    stdio_server,
)
from mcp_troupe._httpx import httpx
from mcp_troupe.cli.calls import (
    approval_error,
    config_for_call,
    server_problem,
    servers_for_tool,
    unknown_tool_error,
    wait_for_tool,
)
from mcp_troupe.cli.common import (
    EXIT_FAILED,
    EXIT_OK,
    UsageError,
    approver_for,
    load,
    parse_arguments_json,
    running,
    terminal_host,
    unsettled,
)
from mcp_troupe.cli.output import (
    auth_text,
    first_line,
    plural,
    print_error,
    print_json,
    print_note,
    result_json,
    status_json,
    status_lines,
    summary_line,
    to_json,
    tool_json,
    tool_lines,
)
from mcp_troupe.review import ReviewEntry, ReviewStore

DEMO_WAIT: Final = 30.0


# ---- server reports ----------------------------------------------------------------------------------------


def strict_problems(config: TroupeConfig, statuses: Sequence[ServerStatus]) -> list[str]:
    """What ``troupe check --strict`` fails on beyond a server that is not ready, for CI: a check that
    connected nothing proved nothing.

    - a server skipped for a reason other than its own ``enabled: false`` (``tools.mcp.enabled: false``, an
      HTTP server under ``execution.networkPolicy: deny``): it was meant to run and was not tried;
    - no server ready at all (none configured, or every one disabled).
    """
    problems = []
    for status in statuses:
        server = config.servers.get(status.name)
        if status.state is ServerState.SKIPPED and server is not None and server.enabled:
            problems.append(f"server {status.name!r} was skipped: {first_line(status.last_error)}")
    if not any(status.state is ServerState.READY for status in statuses):
        problems.append(
            "no server is ready, so nothing was checked"
            + ("" if statuses else f" (no servers configured in {config.source})")
        )
    return problems


def _report_servers(args: argparse.Namespace, *, wait: float, is_check: bool) -> int:
    """Shared body of ``check`` (``is_check``: exit 1 unless every enabled server is ready, and with
    ``--strict`` the rules of :func:`strict_problems` too) and ``status`` (a snapshot that exits 0)."""
    config = load(args)
    with running(config) as troupe:
        is_settled = troupe.wait_ready(timeout=wait)
        statuses = troupe.status()
    not_ready = [s.name for s in statuses if s.state not in (ServerState.READY, ServerState.SKIPPED)]
    strict = strict_problems(config, statuses) if is_check and getattr(args, "strict", False) else []
    if getattr(args, "json", False):
        document: dict[str, Any] = {
            "config": config.source,
            "settled": is_settled,
            "servers": [status_json(status) for status in statuses],
        }
        if is_check:
            document["ok"] = not not_ready and not strict and is_settled
        if strict:
            document["strict_problems"] = strict
        print_json(document)
    else:
        print(f"config: {config.source}")
        if not config.mcp_enabled:
            print("tools.mcp.enabled is false: no server was connected")
        lines = status_lines(statuses)
        print("\n".join(lines) if statuses else "no servers configured")
        print(summary_line(statuses))
    if not is_settled:
        waiting = ", ".join(f"{s.name} ({s.state})" for s in unsettled(statuses))
        message = f"not settled after {wait:g} s: {waiting}"
        if is_check:
            print_error(message)
        else:
            print_note(message)
    for problem in strict:
        print_error(f"--strict: {problem}")
    if is_check and not_ready:
        if is_settled:  # else the line above named them
            print_error(f"{plural(len(not_ready), 'server')} not ready: {', '.join(not_ready)}")
        return EXIT_FAILED
    return EXIT_FAILED if strict else EXIT_OK


def run_check(args: argparse.Namespace) -> int:
    """``troupe check``: validate, connect, report; exit 1 if any enabled server is not ready (``--strict``:
    also if one was skipped by policy or none is ready)."""
    return _report_servers(args, wait=args.wait, is_check=True)


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
            with running(load(args)) as troupe:
                troupe.wait_ready(timeout=args.wait)
        entries = store.entries() if args.all else store.pending(args.server)
        entries = [entry for entry in entries if args.server is None or entry.server == args.server]
        if getattr(args, "json", False):
            print_json([entry.to_json() for entry in entries])
        elif entries:
            print("\n".join(line for entry in entries for line in _review_lines(entry)))
            print_note("release one with `troupe review release SERVER TOOL`, or keep it out with `... keep`")
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
        print_json(entry.to_json())
    else:
        print(
            f"{decision} tool {entry.tool!r} of server {entry.server!r} (definition {entry.fingerprint[:16]})"
        )
        print_note(
            "this takes effect when the server next lists its tools: a new troupe process, a reconnect, or "
            f"`troupe ctl restart {entry.server}` for a running one; a changed definition is withheld again"
        )
    return EXIT_OK


def run_status(args: argparse.Namespace) -> int:
    """``troupe status``: the same report as ``check``, as a snapshot that exits 0 whatever the states."""
    return _report_servers(args, wait=args.wait, is_check=False)


def run_login(args: argparse.Namespace) -> int:
    """``troupe login NAME``: a fresh OAuth authorization, stored sealed for every later run to use."""
    import asyncio

    from mcp_troupe.auth import CredentialStore, describe, login

    config = load(args)
    server = config.servers.get(args.name)
    if server is None or server.transport != "http" or server.auth != "oauth":
        known = sorted(name for name, item in config.servers.items() if item.auth == "oauth")
        raise UsageError(
            f"no HTTP server {args.name!r} with auth: oauth in {config.source} "
            f"(those with it: {', '.join(known) or 'none'})"
        )
    if config.network_policy != "allow":
        # The same master switch that skips the server in every other command: a login is network access.
        raise TroupeError(
            f"not logging in to server {server.name!r} ({_without_query(server.url)}): "
            f"execution.networkPolicy is {config.network_policy} in {config.source} (set it to allow)"
        )
    store = CredentialStore()
    # The URL and the paste prompt go to stderr: stdout stays the command's result (JSON with --json).
    try:
        flow = login(
            server, store=store, use_browser=not args.no_browser, input_stream=sys.stdin, output=sys.stderr
        )
        state = asyncio.run(flow)
    except httpx.HTTPError as exc:
        # Reaching the server or its authorization server failed below the OAuth flow's own errors: name the
        # server and the address tried, never a bare transport exception.
        request = getattr(exc, "_request", None)
        tried = _without_query(str(request.url)) if isinstance(request, httpx.Request) else None
        where = f"; tried {tried}" if tried and tried != _without_query(server.url) else ""
        raise TroupeError(
            f"login to server {server.name!r} ({_without_query(server.url)}) failed{where}: "
            f"{type(exc).__name__}: {exc or 'no detail'}"
        ) from exc
    info = describe(state)
    if getattr(args, "json", False):
        print_json({"server": server.name, "auth": info})
    else:
        print(f"logged in to {server.name}: {auth_text(info, server.name)}")
    return EXIT_OK


def _without_query(url: str | None) -> str:
    """``url`` without its query and fragment (which may carry a code or a state): what an error may show."""
    return (url or "").split("?", 1)[0].split("#", 1)[0]


def run_logout(args: argparse.Namespace) -> int:
    """``troupe logout NAME``: delete the server's stored credentials (not revoked at the server)."""
    from mcp_troupe.auth import logout

    deleted = logout(args.name)
    if getattr(args, "json", False):
        print_json({"server": args.name, "deleted": deleted})
    else:
        print(f"{args.name}: {'logged out' if deleted else 'no stored credentials'}")
    return EXIT_OK


def run_tools(args: argparse.Namespace) -> int:
    """``troupe tools``: the tool table (every ToolSpec field with ``--json``)."""
    config = load(args)
    with running(config) as troupe:
        troupe.wait_ready(timeout=args.wait)
        specs = troupe.tools(ready_only=args.ready_only)
        statuses = troupe.status()
    if getattr(args, "json", False):
        print_json([tool_json(spec) for spec in specs])
    elif specs:
        print("\n".join(tool_lines(specs)))
    else:
        print("no tools")
    for status in statuses:
        if status.state not in (ServerState.READY, ServerState.SKIPPED):
            print_note(f"server {status.name!r} is {status.state}; its tools are not listed")
    return EXIT_OK


def run_call(args: argparse.Namespace) -> int:
    """``troupe call TOOL``: call one tool; exit 1 if it raised or returned a tool error.

    Only the servers the qualified name may belong to are started (all of them for a built-in or a name
    that does not tell), and a server whose first connect failed fails the call at once with its reason.
    """
    arguments = parse_arguments_json(args.arguments)  # before starting anything: a typo costs nothing
    config = config_for_call(load(args), args.tool)
    # host callbacks: on a terminal the operator answers the servers' forms and sampling requests, and a
    # progress bar shows on stderr; elsewhere nothing is declared (servers get -32601, as always).
    bar, handlers = terminal_host()
    with running(config, approver_for(args), **handlers) as troupe:
        wait_for_tool(troupe, args.tool, args.wait)
        owners = [s for s in troupe.status() if s.name in servers_for_tool(config, args.tool)]
        if owners and all(s.state is not ServerState.READY for s in owners):
            problems = "\n".join(server_problem(status) for status in owners)
            raise TroupeError(f"cannot call {args.tool!r}: {problems}")
        try:
            result = troupe.call(args.tool, arguments, timeout=args.timeout, progress_handler=bar)
        except UnknownTool as exc:
            # The tools of a server that is not ready are not in the table: say which servers those are.
            # A server switched off (enabled: false) is not why a tool is missing; a policy skip may be.
            statuses = [
                s for s in troupe.status() if s.name not in config.servers or config.servers[s.name].enabled
            ]
            raise unknown_tool_error(exc, statuses, troupe.tools()) from exc
        except ApprovalRequired as exc:
            raise approval_error(exc) from exc
        finally:
            if bar is not None:
                bar.finish()
    if getattr(args, "json", False):
        print_json(result_json(result))
    else:
        print(result.text)
    if result.is_error:
        print_error(f"tool {args.tool!r} returned an error (isError: true)")
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
    """Call a built-in tool through ``Troupe.call``, so the output is what the model would read.

    Two things differ, both for the operator: the hints that name the tool's arguments name the command's
    options instead (``--server NAME``, a ``troupe ... --cursor`` line), and a listing without ``--server``
    while several servers are connected lists each of them in turn (the model must pick one) instead of
    failing, saying which servers offer nothing.
    """
    arguments = builtin_arguments(tool, args)
    command = "resources" if tool == "mcp_resources" else "prompts"
    config = load(args)
    with running(config) as troupe:
        troupe.wait_ready(timeout=args.wait)
        statuses = troupe.status()
        ready = [status.name for status in statuses if status.state is ServerState.READY]
        results: list[tuple[str | None, ToolResult]]
        if args.action in ("list", "templates") and "server" not in arguments and len(ready) > 1:
            results = [
                (name, troupe.call(tool, {**arguments, "server": name}, timeout=args.timeout))
                for name in ready
            ]
        else:
            results = [(arguments.get("server"), troupe.call(tool, arguments, timeout=args.timeout))]
    texts, failed = listing_texts(results, action=args.action, command=command)
    documents = [{"server": server, **result_json(result)} for server, result in results]
    if getattr(args, "json", False):
        # One server: the tool's result as it is; several: one entry per server, each naming it.
        print_json(result_json(results[0][1]) if len(results) == 1 else documents)
    else:
        print("\n\n".join(texts))
    for status in statuses:
        if status.state not in (ServerState.READY, ServerState.SKIPPED):
            print_note(f"server {status.name!r} is {status.state}; its {command} are not listed")
    if failed:
        print_error(f"troupe {command} {args.action} failed: the server's answer above is an error")
        return EXIT_FAILED
    return EXIT_OK


def listing_texts(
    results: Sequence[tuple[str | None, ToolResult]], *, action: str, command: str
) -> tuple[list[str], bool]:
    """The text to print for each server's answer, and whether any answer is a failure.

    Among several servers, one that does not offer the capability is a line saying so, not a failure: the
    operator asked for everything there is. Alone, the same refusal is the answer (and a failure).
    """
    texts: list[str] = []
    failed = False
    for server, result in results:
        # The built-in's own refusal for a server without the capability (builtin_tools.choose_server).
        refusal = f"server {server!r} does not offer"
        offers_nothing = len(results) > 1 and result.is_error and result.text.startswith(refusal)
        failed = failed or (result.is_error and not offers_nothing)
        if offers_nothing:
            what = "resource templates" if action == "templates" else command
            texts.append(f"Server {server!r} offers no {what}.")
        else:
            texts.append(cli_wording(result.text, command))
    return texts, failed


_ARGUMENT_HINT = re.compile(r"\bserver=<name>")
_MORE_LINE = re.compile(
    r"^(\[?)(?:More|more): call mcp_(?:resources|prompts) with (\{.*\})(\]?)$", re.MULTILINE
)


def cli_wording(text: str, command: str) -> str:
    """The built-in tool's ``text`` with its hints for the model turned into the command's options.

    ``say which one with server=<name>`` becomes ``--server NAME``; a ``More: call mcp_resources with {...}``
    line becomes the ``troupe resources ... --cursor`` command that continues the listing.
    """
    text = _ARGUMENT_HINT.sub("--server NAME", text)

    def more(match: re.Match[str]) -> str:
        try:
            call = json.loads(match[2])
        except ValueError:
            return match[0]
        if not isinstance(call, dict):
            return match[0]
        words = ["troupe", command, str(call.get("action", ""))]
        for key in ("server", "uri", "name", "cursor"):
            if isinstance(call.get(key), str):
                words += [f"--{key}", shlex.quote(call[key])]
        return f"{match[1]}More: {' '.join(words)}{match[3]}"

    return _MORE_LINE.sub(more, text)


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
        line += f"; last error: {first_line(status.last_error)}"
    return line


def run_demo(args: argparse.Namespace) -> int:
    """``troupe demo``: start the bundled demo server, list its tools, make a few calls, stop."""
    as_json = getattr(args, "json", False)
    out: list[str] = []
    calls: list[dict[str, Any]] = []
    with running(demo_config()) as troupe:
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
        print_json(
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
