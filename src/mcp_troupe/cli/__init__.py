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

The package's modules follow the command's seams: :mod:`.common` (exit statuses, option types, ``--args``,
running a troupe, approval), :mod:`.output` (stderr lines, JSON, tables), :mod:`.commands` (the one-shot
commands), :mod:`.manager` (``troupe run`` and ``troupe ctl``), :mod:`.parser` (the argument parser), and
this module, the entry point. The names below are re-exported: ``from mcp_troupe.cli import X`` keeps
working.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import time
from collections.abc import Callable
from typing import TextIO

from mcp_troupe import ConfigError, TroupeError
from mcp_troupe.cli.commands import builtin_arguments, demo_config
from mcp_troupe.cli.common import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    PROG,
    UsageError,
    parse_arguments_json,
)
from mcp_troupe.cli.output import (
    auth_text,
    format_table,
    print_error,
    result_json,
    status_json,
    status_lines,
    summary_line,
    to_json,
    tool_json,
    tool_lines,
)
from mcp_troupe.cli.parser import build_parser

__all__ = [
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "UsageError",
    "auth_text",
    "build_parser",
    "builtin_arguments",
    "configure_logging",
    "demo_config",
    "format_table",
    "main",
    "parse_arguments_json",
    "result_json",
    "status_json",
    "status_lines",
    "summary_line",
    "to_json",
    "tool_json",
    "tool_lines",
]


# ---- entry point -------------------------------------------------------------------------------------------


class _CliLogHandler(logging.StreamHandler[TextIO]):
    """The handler ``main`` installs; marked so that a second ``main`` in one process replaces it."""


def configure_logging(verbosity: int) -> None:
    """Send the ``mcp_troupe`` loggers to stderr: WARNING, INFO with ``-v``, DEBUG with ``-vv``.

    With ``-v`` each line starts with the UTC time to the millisecond (``troupe: 12:04:05.123Z INFO: ...``):
    a verbose log is read to see what took how long. Without it the warnings stay short.
    """
    level = logging.WARNING if verbosity <= 0 else logging.INFO if verbosity == 1 else logging.DEBUG
    logger = logging.getLogger("mcp_troupe")
    for handler in list(logger.handlers):
        if isinstance(handler, _CliLogHandler):
            logger.removeHandler(handler)
    handler = _CliLogHandler(sys.stderr)
    if verbosity > 0:
        formatter = logging.Formatter(
            f"{PROG}: %(asctime)s.%(msecs)03dZ %(levelname)s: %(name)s: %(message)s", datefmt="%H:%M:%S"
        )
        formatter.converter = time.gmtime
    else:
        formatter = logging.Formatter(f"{PROG}: %(levelname)s: %(name)s: %(message)s")
    handler.setFormatter(formatter)
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
        print_error(
            "a command is required "
            "(check, tools, call, resources, prompts, status, review, run, ctl, login, logout, demo)"
        )
        return EXIT_USAGE
    configure_logging(getattr(args, "verbose", 0))
    try:
        return handler(args)
    except KeyboardInterrupt:
        print_error("interrupted")
        return EXIT_INTERRUPTED
    except (UsageError, ConfigError) as exc:
        print_error(str(exc))
        return EXIT_USAGE
    except TroupeError as exc:
        print_error(str(exc) or type(exc).__name__)
        return EXIT_FAILED
    except BrokenPipeError:
        # The reader went away (`troupe tools | head`): nothing left to tell it. Point stdout at devnull so
        # the interpreter's final flush does not fail again.
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILED
    except OSError as exc:
        print_error(str(exc) or type(exc).__name__)
        return EXIT_FAILED
