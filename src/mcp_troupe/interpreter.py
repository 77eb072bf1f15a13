"""``command: python`` in a stdio server's config means the Python running mcp-troupe.

The rule (docs/configuration.md): a ``command`` that is exactly ``python`` or ``python3`` — a bare name, no
directory, no version suffix — is replaced by :data:`sys.executable` when the process is spawned. A server
written in Python is then run by the interpreter (and so the virtual environment) that runs the agent, where
``pip install`` put it, rather than whatever ``python`` comes first on ``PATH`` (often the system's, without
the package: the server then dies with ``No module named ...``). Any other command is taken as written, so
``/usr/bin/python3`` or ``python3.12`` still pick a specific interpreter.
"""

from __future__ import annotations

import sys

__all__ = ["RUNNING_PYTHON_NAMES", "resolve_command"]

RUNNING_PYTHON_NAMES = frozenset({"python", "python3"})
"""The commands that mean the running interpreter."""


def resolve_command(command: str, executable: str | None = None) -> str:
    """The program to spawn for ``command``: :data:`sys.executable` for ``python``/``python3``.

    ``executable`` defaults to :data:`sys.executable`; when that is empty (an embedded interpreter that does
    not know its own path) the command is left as written.
    """
    running = sys.executable if executable is None else executable
    if command in RUNNING_PYTHON_NAMES and running:
        return running
    return command
