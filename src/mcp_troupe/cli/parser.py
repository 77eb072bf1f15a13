"""The ``troupe`` argument parser: one subparser per command, each bound to its handler."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from mcp_troupe import __version__
from mcp_troupe.cli.commands import (
    run_call,
    run_check,
    run_demo,
    run_login,
    run_logout,
    run_prompts,
    run_resources,
    run_review,
    run_status,
    run_tools,
)
from mcp_troupe.cli.common import (
    CONFIG_ENV,
    DEFAULT_CONFIG,
    DEFAULT_WAIT,
    PROG,
    STATUS_WAIT,
    YES_HELP,
    positive_seconds_type,
    seconds_type,
)
from mcp_troupe.cli.manager import run_ctl, run_manager


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
        "--wait", type=seconds_type, default=DEFAULT_WAIT, metavar="SECONDS",
        help=f"how long to wait for every server to settle (default: {DEFAULT_WAIT:g})",
    )  # fmt: skip
    check.add_argument(
        "--strict", action="store_true",
        help="for CI: also fail when a server was skipped by policy (not by enabled: false) or none is ready",
    )  # fmt: skip

    tools = add("tools", run_tools, "list the tools of every server")
    tools.add_argument("--ready-only", action="store_true", help="only tools of servers connected right now")
    tools.add_argument(
        "--wait", type=seconds_type, default=DEFAULT_WAIT, metavar="SECONDS",
        help=f"how long to wait for the servers to connect (default: {DEFAULT_WAIT:g})",
    )  # fmt: skip

    call = add("call", run_call, "call one tool by its qualified name and print the result")
    call.add_argument("tool", metavar="TOOL", help="the qualified tool name, e.g. mcp__demo__echo")
    call.add_argument(
        "--args", dest="arguments", metavar="JSON",
        help="the arguments, a JSON object: inline, @FILE, or - for standard input (default: {})",
    )  # fmt: skip
    call.add_argument(
        "--timeout", type=positive_seconds_type, metavar="SECONDS",
        help="the call's timeout (default: the server's configured timeout)",
    )  # fmt: skip
    call.add_argument("--yes", action="store_true", help=YES_HELP)
    call.add_argument(
        "--wait", type=seconds_type, default=DEFAULT_WAIT, metavar="SECONDS",
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
        "--wait", type=seconds_type, default=STATUS_WAIT, metavar="SECONDS",
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
        "--timeout", type=positive_seconds_type, metavar="SECONDS",
        help="each request's timeout (default: the server's configured timeout)",
    )  # fmt: skip
    sub.add_argument(
        "--wait", type=seconds_type, default=DEFAULT_WAIT, metavar="SECONDS",
        help=f"how long to wait for the servers to connect (default: {DEFAULT_WAIT:g})",
    )  # fmt: skip


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
        "--wait", type=seconds_type, default=DEFAULT_WAIT, metavar="SECONDS",
        help=f"with --scan: how long to wait for the servers to connect (default: {DEFAULT_WAIT:g})",
    )  # fmt: skip
