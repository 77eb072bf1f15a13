"""The operator flow end to end: `troupe run` in the background, `troupe ctl` from other processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests.processes import ChildWatch

from mcp_troupe.control import ControlClient, ControlError

pytestmark = [pytest.mark.faults, pytest.mark.timeout(60)]


def troupe(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcp_troupe.cli", *args],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def write_config(tmp_path: Path) -> Path:
    config = tmp_path / "troupe.yaml"
    config.write_text(
        "permissions: {approval: {mode: auto}}\n"
        "tools:\n"
        "  mcp:\n"
        "    reconnect: {initial_delay: 0.1, max_delay: 0.5, max_attempts: 3}\n"
        "  mcp_servers:\n"
        f"    demo: {{command: {json.dumps(sys.executable)}, args: [-m, mcp_troupe.demo]}}\n"
        f"    other: {{command: {json.dumps(sys.executable)}, args: [-m, mcp_troupe.demo]}}\n"
    )
    return config


def ctl_status(socket: Path) -> dict[str, dict[str, object]]:
    done = troupe("ctl", "status", "--json", "--socket", str(socket))
    assert done.returncode == 0, done.stderr
    return {entry["name"]: entry for entry in json.loads(done.stdout)}


def polled_status(socket: Path) -> dict[str, dict[str, object]]:
    """The manager's status, asked in this process: the waits poll every 50 ms, and a `troupe ctl` process a
    poll (a Python start-up each) made them cost most of this test's time. Each wait ends with a real
    `troupe ctl status --json` whose answer the test then checks."""
    try:
        documents = ControlClient(socket, timeout=5).request("status")
    except ControlError:  # the socket is there but the manager is not listening yet
        return {}
    return {entry["name"]: entry for entry in documents}


def test_restart_through_the_control_socket_leaves_the_other_server_alone(
    tmp_path: Path, child_watch: ChildWatch
) -> None:
    socket = tmp_path / "ctl" / "troupe.sock"
    manager = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "mcp_troupe.cli",
            "run",
            "-c",
            str(write_config(tmp_path)),
            "--socket",
            str(socket),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            if socket.exists():
                polled = polled_status(socket)
                if polled and all(entry["state"] == "ready" for entry in polled.values()):
                    break
            assert manager.poll() is None, manager.communicate()
            assert time.monotonic() < deadline, "the manager never became ready"
            time.sleep(0.05)
        statuses = ctl_status(socket)
        assert all(entry["state"] == "ready" for entry in statuses.values()), statuses
        assert oct(socket.stat().st_mode & 0o777) == "0o600"
        other_pid = statuses["other"]["pid"]

        done = troupe("ctl", "restart", "demo", "--socket", str(socket))
        assert done.returncode == 0 and "restart requested" in done.stdout, done.stderr

        deadline = time.monotonic() + 20
        while (polled := polled_status(socket))["demo"]["incarnation"] != 2 or polled["demo"][
            "state"
        ] != "ready":
            assert time.monotonic() < deadline, polled
            time.sleep(0.05)
        statuses = ctl_status(socket)
        assert (statuses["demo"]["incarnation"], statuses["demo"]["state"]) == (2, "ready"), statuses
        assert statuses["other"]["incarnation"] == 1 and statuses["other"]["pid"] == other_pid

        done = troupe(
            "ctl", "call", "mcp__demo__echo", "--args", '{"text": "back again"}', "--socket", str(socket)
        )
        assert (done.returncode, done.stdout.strip()) == (0, "back again"), done.stderr

        done = troupe("ctl", "restart", "nope", "--socket", str(socket))
        assert done.returncode == 1 and "no server named 'nope'" in done.stderr

        table = troupe("ctl", "status", "--socket", str(socket))
        assert "INC" in table.stdout and "demo" in table.stdout and "2 servers: 2 ready" in table.stdout

        manager.send_signal(signal.SIGTERM)
        out, err = manager.communicate(timeout=20)
        assert manager.returncode == 0, err
        assert "control socket" in out and "demo restarted" in out
        assert not socket.exists()
    finally:
        if manager.poll() is None:
            os.kill(manager.pid, signal.SIGKILL)
            manager.wait(10)
    assert child_watch.wait_until_gone() == set()


def test_ctl_without_a_running_manager_says_how_to_start_one(tmp_path: Path) -> None:
    done = troupe("ctl", "status", "--socket", str(tmp_path / "absent.sock"))
    assert done.returncode == 1
    assert "troupe run" in done.stderr
