"""The control socket appears only once it listens, with no staging name left behind."""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcp_troupe.actors.loop import IoLoop
from mcp_troupe.control import SUN_PATH_MAX, ControlServer


@pytest.fixture
def loop() -> Iterator[IoLoop]:
    io_loop = IoLoop("test-control-io")
    io_loop.start()
    try:
        yield io_loop
    finally:
        io_loop.stop()


def serve(loop: IoLoop, path: Path) -> ControlServer:
    registry: Any = None  # not asked anything here: only the socket's life is under test
    server = ControlServer(registry=registry, loop=loop, path=path)
    server.start()
    return server


def short_directory(tmp_path: Path) -> Path:
    directory = Path(os.path.realpath(tmp_path)) / "run"
    directory.mkdir(mode=0o700)
    return directory


@pytest.mark.timeout(30)
def test_the_socket_is_listening_when_its_path_appears_and_no_staging_name_is_left(
    loop: IoLoop, tmp_path: Path
) -> None:
    directory = short_directory(tmp_path)
    path = directory / "c.sock"
    server = serve(loop, path)
    try:
        assert stat.S_ISSOCK(path.lstat().st_mode)
        assert stat.S_IMODE(path.lstat().st_mode) == 0o600
        assert sorted(entry.name for entry in directory.iterdir()) == ["c.sock"]
        probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            probe.settimeout(5)
            probe.connect(str(path))  # listening: bound and listen()ed before it was renamed into place
        finally:
            probe.close()
    finally:
        server.close()
    assert not path.exists()


@pytest.mark.timeout(30)
def test_a_path_with_no_room_for_the_staging_name_is_bound_in_place(loop: IoLoop, tmp_path: Path) -> None:
    directory = short_directory(tmp_path)
    room = SUN_PATH_MAX - 1 - len(os.fsencode(directory)) - 1  # the longest name that still fits
    if room < 12:
        pytest.skip("the temporary directory's path is too long for this test")
    path = directory / ("s" * room)
    server = serve(loop, path)
    try:
        assert stat.S_ISSOCK(path.lstat().st_mode)
        assert [entry.name for entry in directory.iterdir()] == [path.name]
    finally:
        server.close()
