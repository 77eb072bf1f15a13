"""The examples in docs/ are outputs of real runs: every ``console`` block (docs/cli.md has most) is run and
compared.

Each block is one bash script run in a fresh directory holding the files of ``docs/examples/cli/`` plus
``docs/examples/troupe.yaml`` as ``troupe.yaml``, with this interpreter's ``troupe`` first on ``PATH``. A line
``$ COMMAND`` is a command; the lines up to the next one are what it prints, stdout and stderr together in
the order written. Before comparing, both sides are normalised (:func:`normalise`): pids, uptimes, clock
times and the run's directory become placeholders, and runs of spaces one double space, so that a table
whose pid column is a digit wider still matches. A line ``...`` in the docs stands for any number of lines.

Directives, in an HTML comment on the line before a block:

- ``<!-- not run: REASON -->`` skips it (an overview, an interactive prompt, a real OAuth server);
- ``<!-- background: COMMAND -->`` starts COMMAND first (``troupe run``) and waits for its control socket,
  ``/tmp/tr/c.sock`` in the docs (the run's directory here), and stops it afterwards.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from mcp_troupe import ConfigError, ServerState, parse_config
from mcp_troupe.control import ControlClient

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
EXAMPLES = DOCS / "examples"
DOC_DIRECTORY = "/tmp/tr"
"""The directory the docs show for files of a run (the control socket)."""

BLOCK_TIMEOUT = 90.0


@dataclass(frozen=True)
class Step:
    command: str
    expected: tuple[str, ...]


@dataclass(frozen=True)
class Block:
    line: int
    steps: tuple[Step, ...]
    background: str | None
    skip_reason: str | None


_FENCE = re.compile(r"^```console\n(.*?)^```", re.MULTILINE | re.DOTALL)
_DIRECTIVE = re.compile(r"<!--\s*(not run|background):\s*(.*?)\s*-->\s*\n\Z")


def console_blocks(path: Path) -> list[Block]:
    """Every ``console`` block of ``path`` with its commands and their expected output."""
    text = path.read_text(encoding="utf-8")
    blocks = []
    for match in _FENCE.finditer(text):
        before = text[: match.start()]
        directive = _DIRECTIVE.search(before[-400:])
        steps: list[Step] = []
        for line in match.group(1).splitlines():
            if line.startswith("$ "):
                steps.append(Step(line[2:], ()))
            elif steps:
                steps[-1] = Step(steps[-1].command, (*steps[-1].expected, line))
        kind, value = directive.groups() if directive else (None, None)
        blocks.append(
            Block(
                line=before.count("\n") + 1,
                steps=tuple(steps),
                background=value if kind == "background" else None,
                skip_reason=value if kind == "not run" else None,
            )
        )
    return blocks


_STATUS_ROW = re.compile(r"^(\s*\S+  +(?:stdio|http)  +\S+  +\d+  +\d+  +\S+  +\d+  +)(\d+)(?=  |$)")
_REPLACEMENTS = (
    (re.compile(r"\bpid \d+"), "pid N"),
    (re.compile(r'"pid": \d+'), '"pid": N'),
    (re.compile(r'"ready_for": [0-9.e-]+'), '"ready_for": N'),
    (re.compile(r'"at": [0-9.e-]+'), '"at": N'),
    (re.compile(r"\b\d+h\d\dm\b|\b\d+m\d\ds\b"), "UPTIME"),
    (re.compile(r"^\d\d:\d\d:\d\d\b"), "HH:MM:SS"),
    (re.compile(r"\b\d\d:\d\d:\d\d\.\d{3}Z\b"), "HH:MM:SS.mmmZ"),
)


def normalise(line: str) -> str:
    """``line`` with what changes from run to run replaced (see the module docstring)."""
    line = _STATUS_ROW.sub(lambda match: match[1] + "N", line)
    for pattern, replacement in _REPLACEMENTS:
        line = pattern.sub(replacement, line)
    return re.sub(r" {2,}", "  ", line.rstrip())


def matches(expected: tuple[str, ...], actual: list[str]) -> bool:
    """Whether ``actual`` is ``expected``, a ``...`` line in it standing for any number of lines."""
    if not expected:
        return not actual
    if expected[0].strip() == "...":
        return any(matches(expected[1:], actual[index:]) for index in range(len(actual) + 1))
    return (
        bool(actual) and normalise(expected[0]) == normalise(actual[0]) and matches(expected[1:], actual[1:])
    )


def run_block(block: Block, directory: Path) -> list[list[str]]:
    """Run ``block``'s commands in one bash in ``directory``; each command's output lines, in order."""
    marker = "@@troupe-docs-step@@"
    script = ["exec 2>&1"]
    for step in block.steps:
        # The marker must not reset $?: `echo $?` in the docs reads the status of the command before it.
        script.append(f"__status=$?; echo {marker}; (exit $__status)")
        script.append(step.command.replace(DOC_DIRECTORY, str(directory)))
    environment = {key: value for key, value in os.environ.items() if not key.startswith("TROUPE_")}
    environment.update(
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{environment.get('PATH', '')}",
        PYTHONUNBUFFERED="1",  # stdout and stderr interleave as written, as on a terminal
        COLUMNS="100",
        HOME=str(directory / "home"),
        XDG_RUNTIME_DIR=str(directory / "run"),
    )
    completed = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=directory,
        env=environment,
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        timeout=BLOCK_TIMEOUT,
    )
    output = completed.stdout.replace(str(directory), DOC_DIRECTORY)
    return [part.splitlines() for part in output.split(marker + "\n")[1:]]


def prepare(directory: Path) -> None:
    for source in sorted((EXAMPLES / "cli").iterdir()):
        shutil.copy(source, directory / source.name)
    shutil.copy(EXAMPLES / "troupe.yaml", directory / "troupe.yaml")
    (directory / "home").mkdir()
    (directory / "run").mkdir(mode=0o700)


def start_background(command: str, directory: Path) -> subprocess.Popen[bytes]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("TROUPE_")}
    environment["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{environment.get('PATH', '')}"
    process = subprocess.Popen(
        ["bash", "-c", f"exec {command.replace(DOC_DIRECTORY, str(directory))}"],
        cwd=directory,
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while not (directory / "c.sock").exists():
        assert process.poll() is None, f"{command!r} exited with {process.returncode}"
        assert time.monotonic() < deadline, f"{command!r} opened no control socket"
        time.sleep(0.05)
    # The docs show the servers settled: wait for that, as an operator would look at the live view.
    client = ControlClient(directory / "c.sock", timeout=5)
    while not all(ServerState(status["state"]).is_settled for status in client.request("status")):
        assert time.monotonic() < deadline, f"{command!r}: the servers did not settle"
        time.sleep(0.05)
    return process


BLOCKS = [(path, block) for path in sorted(DOCS.glob("*.md")) for block in console_blocks(path)]


@pytest.mark.slow  # about a minute in all on an idle 2-core machine: each command starts a Python
@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    ("path", "block"), BLOCKS, ids=[f"{path.name}:{block.line}" for path, block in BLOCKS]
)
def test_the_console_examples_are_what_the_commands_print(path: Path, block: Block, tmp_path: Path) -> None:
    if block.skip_reason is not None:
        pytest.skip(block.skip_reason)
    # A short directory: a control socket's path must fit in sun_path (108 bytes).
    directory = Path(os.path.realpath(tmp_path))
    prepare(directory)
    process = start_background(block.background, directory) if block.background else None
    try:
        outputs = run_block(block, directory)
    finally:
        if process is not None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
    assert len(outputs) == len(block.steps)
    for step, actual in zip(block.steps, outputs, strict=True):
        assert matches(step.expected, actual), (
            f"{path.name}:{block.line}: `$ {step.command}` printed\n" + "\n".join(actual)
        )


def test_every_console_block_of_the_cli_guide_runs_or_says_why_not() -> None:
    blocks = console_blocks(DOCS / "cli.md")
    assert len(blocks) >= 10
    assert all(block.steps for block in blocks if block.skip_reason is None)
    assert sum(block.skip_reason is None for block in blocks) >= len(blocks) - 3


@pytest.mark.parametrize(
    ("expected", "actual", "is_match"),
    [
        (("a", "...", "z"), ["a", "b", "c", "z"], True),
        (("a", "...", "z"), ["a", "z"], True),
        (("a", "...", "z"), ["a", "b"], False),
        (
            ("demo    stdio  ready  1  0  2025-06-18  9  1234   0m00s",),
            ["demo stdio  ready  1  0  2025-06-18  9  98765  1m02s"],
            False,
        ),
        (
            ("demo    stdio  ready  1  0  2025-06-18  9  1234   0m00s",),
            ["demo    stdio  ready  1  0  2025-06-18  9  98765  1m02s"],
            True,
        ),
        (("pid 17128, 9 tools",), ["pid 3, 9 tools"], True),
        (("5",), ["6"], False),
    ],
)
def test_the_comparison_normalises_only_what_changes_between_runs(
    expected: tuple[str, ...], actual: list[str], is_match: bool
) -> None:
    assert matches(expected, actual) is is_match


_YAML_BLOCK = re.compile(r"^```yaml\n(.*?)^```", re.MULTILINE | re.DOTALL)


@pytest.mark.parametrize("page", sorted(DOCS.glob("*.md")), ids=lambda page: page.name)
def test_no_yaml_example_marks_as_planned_a_key_the_loader_accepts(page: Path) -> None:
    # A "planned" key must still be unknown to the loader; once it is implemented the marker must go.
    for match in _YAML_BLOCK.finditer(page.read_text(encoding="utf-8")):
        block = match.group(1)
        if not re.search(r"#.*\bplanned\b", block):
            continue
        try:
            parse_config(yaml.safe_load(block), environ={})
        except ConfigError as exc:
            assert "unknown key" in str(exc), f"{page.name}: {exc}"
        else:
            raise AssertionError(f"{page.name}: a block marks keys as planned, yet it loads:\n{block}")
