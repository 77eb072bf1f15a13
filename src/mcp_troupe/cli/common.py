"""What every ``troupe`` command shares: exit statuses, option types, ``--args`` parsing, the config path,
running a troupe for the length of a command, and approval on the command line."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
from collections.abc import Iterator, Sequence
from typing import Any, Final, TextIO

from mcp_troupe import ServerStatus, Troupe, TroupeConfig, load_config
from mcp_troupe.approval import ApprovalRequest, Approver, approve_all
from mcp_troupe.terminal import ProgressBar, TerminalPrompts

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


class UsageError(Exception):
    """The command line is wrong in a way argparse cannot see (bad ``--args`` JSON, unreadable file)."""


# ---- arguments ---------------------------------------------------------------------------------------------


def seconds_type(text: str) -> float:
    """An option's number of seconds: finite and >= 0 (argparse shows the message on a bad one)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a finite number of seconds >= 0, got {text!r}")
    return value


def positive_seconds_type(text: str) -> float:
    """An option's number of seconds that must be > 0 (a timeout)."""
    value = seconds_type(text)
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


def config_path(args: argparse.Namespace) -> str:
    """``-c``, else ``$TROUPE_CONFIG``, else ``./troupe.yaml``."""
    path: str | None = getattr(args, "config", None)
    return path or os.environ.get(CONFIG_ENV) or DEFAULT_CONFIG


# ---- running a troupe --------------------------------------------------------------------------------------


@contextlib.contextmanager
def running(config: TroupeConfig, approver: Approver | None = None, **handlers: Any) -> Iterator[Troupe]:
    """A started :class:`Troupe` for the length of a command, stopped on the way out whatever happens."""
    troupe = Troupe(config, approver=approver, **handlers)
    try:
        troupe.start()
        yield troupe
    finally:
        # Also on Ctrl-C and on errors: never leave server processes behind.
        troupe.stop()


def load(args: argparse.Namespace) -> TroupeConfig:
    """The command's configuration (:class:`ConfigError` with key paths on a mistake)."""
    path = config_path(args)
    log.info("loading configuration %s", path)
    return load_config(path)


def unsettled(statuses: Sequence[ServerStatus]) -> list[ServerStatus]:
    """The servers still connecting or waiting to retry."""
    return [status for status in statuses if not status.state.is_settled]


# ---- approval and the terminal -----------------------------------------------------------------------------


YES_HELP = "approve every call that needs approval, without asking (for scripts; each approval is logged)"


def approver_for(args: argparse.Namespace) -> Approver | None:
    """``--yes``: approve all; on a terminal: ask there; otherwise none (such calls fail, saying why)."""
    if getattr(args, "yes", False):
        return approve_all
    if sys.stdin.isatty() and sys.stderr.isatty():
        return ask_on_terminal
    return None


def terminal_host() -> tuple[ProgressBar | None, dict[str, Any]]:
    """On a terminal: a progress bar, and the operator as elicitation and sampling handler."""
    if not (sys.stdin.isatty() and sys.stderr.isatty()):
        return None, {}
    prompts = TerminalPrompts(sys.stdin, sys.stderr)
    return ProgressBar(sys.stderr), {
        "elicitation_handler": prompts.elicit,
        "sampling_handler": prompts.sample,
    }


def ask_on_terminal(request: ApprovalRequest) -> bool:
    """Show the tool, both risk views and the arguments on stderr; read y/N from the terminal."""
    sys.stderr.write(f"troupe: approval needed for\n{request.describe()}\n")
    sys.stderr.write("run it? [y/N] ")
    sys.stderr.flush()
    answer = sys.stdin.readline().strip().lower()
    return answer in ("y", "yes")
