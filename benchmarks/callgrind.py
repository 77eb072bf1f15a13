"""Counting a client's instructions with Valgrind's callgrind: what ``era_instructions`` and
``gateway_instructions`` share.

A counted worker is a Python process started under callgrind with counting off; it switches counting on
(:func:`switch`) around the part it measures, so start-up, imports and warm-up are never counted. The
workers of one measurement run at the same time, so that they meet the same machine.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_TOTALS = re.compile(rb"^totals:\s+(\d+)", re.MULTILINE)


def missing_tools() -> str | None:
    """Which of Valgrind's tools are not installed here (``None`` when both are)."""
    missing = [tool for tool in ("valgrind", "callgrind_control") if shutil.which(tool) is None]
    return f"{' and '.join(missing)} not installed" if missing else None


def switch(on: bool) -> None:
    """Switch callgrind's counting of this process on or off (returns once callgrind has done it)."""
    subprocess.run(
        ["callgrind_control", "-i", "on" if on else "off", str(os.getpid())],
        capture_output=True,
        timeout=120,
        check=True,
    )


def run_counted(
    workers: Mapping[str, Sequence[str]],
    *,
    timeout: float,
    env: Mapping[str, Mapping[str, str]] | None = None,
) -> dict[str, tuple[int, str]]:
    """Run each worker (a name → the arguments after ``python``) under callgrind, all at once; return each
    one's counted instructions and its standard output.

    ``env`` gives a worker's environment by name (the others inherit ours). Raises ``RuntimeError`` naming
    the worker that failed or counted nothing; every worker still running is killed on the way out.
    """
    with tempfile.TemporaryDirectory(prefix="mcp-troupe-callgrind-") as scratch:
        processes: dict[str, subprocess.Popen[bytes]] = {}
        try:
            for name, arguments in workers.items():
                command = [
                    "valgrind", "--tool=callgrind", "--instr-atstart=no",
                    f"--callgrind-out-file={scratch}/{name}.out", sys.executable, *arguments,
                ]  # fmt: skip
                processes[name] = subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env=None if env is None or name not in env else dict(env[name]),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                )
            results: dict[str, tuple[int, str]] = {}
            for name, process in processes.items():
                stdout, stderr = process.communicate(timeout=timeout)
                if process.returncode != 0:
                    tail = stderr.decode(errors="replace").strip().splitlines()[-5:]
                    raise RuntimeError(f"{name}: the worker exited {process.returncode}: {' / '.join(tail)}")
                # The worker's counting window is the only part with counting on.
                found = _TOTALS.search((Path(scratch) / f"{name}.out").read_bytes())
                if found is None or int(found.group(1)) == 0:
                    raise RuntimeError(f"{name}: callgrind counted nothing")
                results[name] = (int(found.group(1)), stdout.decode(errors="replace"))
            return results
        finally:
            for process in processes.values():
                if process.poll() is None:
                    process.kill()
                    process.wait()
