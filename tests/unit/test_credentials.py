"""The sealed credential store (``mcp_troupe.credentials``): modes, atomic writes, sealing, keys, the lock."""

from __future__ import annotations

import base64
import logging
import os
import stat
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import nacl.utils
import pytest

from mcp_troupe.credentials import KEY_ENV, CredentialStore, default_directory, default_key_file
from mcp_troupe.errors import CredentialStoreError
from mcp_troupe.protocol.oauth import AuthServerMetadata, AuthState, ClientRegistration, Tokens

ISSUER = "https://auth.example.com"
ACCESS = "AT-very-secret-access-token"
REFRESH = "RT-very-secret-refresh-token"
CLIENT_SECRET = "CS-very-secret-client-secret"


def make_state(
    issuer: str = ISSUER, *, refresh_token: str | None = REFRESH, expires_at: float = 2e9
) -> AuthState:
    return AuthState(
        issuer=issuer,
        resource="https://mcp.example.com/mcp",
        metadata=AuthServerMetadata.parse(
            {
                "issuer": issuer,
                "authorization_endpoint": f"{issuer}/authorize",
                "token_endpoint": f"{issuer}/token",
                "code_challenge_methods_supported": ["S256"],
            },
            expected_issuer=issuer,
        ),
        client=ClientRegistration("client-1", CLIENT_SECRET, "client_secret_basic", issuer, kind="dynamic"),
        tokens=Tokens(ACCESS, refresh_token=refresh_token, expires_at=expires_at, scope=("read", "write")),
        requested_scopes=("read", "write"),
    )


@pytest.fixture
def paths(tmp_path: Path) -> tuple[Path, Path]:
    return tmp_path / "state" / "credentials", tmp_path / "config" / "credentials.key"


@pytest.fixture
def store(paths: tuple[Path, Path]) -> CredentialStore:
    directory, key_file = paths
    return CredentialStore(directory, key_file=key_file, environ={})


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_saved_state_loads_back_equal(store: CredentialStore) -> None:
    state = make_state()

    store.save("remote", state)
    loaded = store.load("remote", ISSUER)

    assert loaded is not None
    assert loaded.state == state
    assert loaded.server == "remote" and loaded.issuer == ISSUER


def test_nothing_stored_loads_as_none_without_creating_a_key(store: CredentialStore) -> None:
    assert store.load("remote", ISSUER) is None
    assert store.load_latest("remote") is None
    assert not store.key_file.exists()


def test_the_directory_is_0700_and_files_are_0600(store: CredentialStore) -> None:
    store.save("remote", make_state())

    assert mode(store.directory) == 0o700
    assert mode(store.key_file) == 0o600
    assert mode(store.key_file.parent) == 0o700
    entries = list(store.directory.glob("*.sealed"))
    assert len(entries) == 1 and mode(entries[0]) == 0o600


def test_a_looser_directory_is_tightened(store: CredentialStore) -> None:
    store.directory.mkdir(parents=True, mode=0o755)
    os.chmod(store.directory, 0o755)

    store.save("remote", make_state())

    assert mode(store.directory) == 0o700


def test_a_directory_of_another_user_is_refused(
    store: CredentialStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.directory.mkdir(parents=True)
    monkeypatch.setattr(os, "getuid", lambda: os.stat(store.directory).st_uid + 1)

    with pytest.raises(CredentialStoreError, match="another user"):
        store.save("remote", make_state())


def test_a_sealed_file_does_not_contain_any_secret(store: CredentialStore) -> None:
    store.save("remote", make_state())

    data = b"".join(path.read_bytes() for path in store.directory.iterdir() if path.is_file())
    for secret in (ACCESS, REFRESH, CLIENT_SECRET, "client-1", ISSUER, "remote"):
        assert secret.encode() not in data


def test_the_file_name_is_a_hash_of_server_and_issuer(store: CredentialStore) -> None:
    store.save("remote", make_state())
    store.save("remote", make_state("https://other.example.com"))
    store.save("second", make_state())

    names = sorted(path.name for path in store.directory.glob("*.sealed"))
    assert len(names) == 3
    assert all("remote" not in name and "example" not in name for name in names)
    assert len(store.load_all("remote")) == 2 and len(store.load_all("second")) == 1


def test_a_crash_before_the_rename_leaves_the_old_entry_and_no_partial_file(
    store: CredentialStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store.save("remote", make_state())
    before = {path.name: path.read_bytes() for path in store.directory.iterdir()}

    def crash(src: object, dst: object) -> None:
        raise OSError("simulated crash")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="simulated crash"):
        store.save("remote", make_state(refresh_token="RT-new"))
    monkeypatch.undo()

    after = {path.name: path.read_bytes() for path in store.directory.iterdir()}
    assert after == before  # no temporary file left, the old entry intact
    loaded = store.load("remote", ISSUER)
    assert loaded is not None and loaded.state.tokens is not None
    assert loaded.state.tokens.refresh_token == REFRESH


def test_a_save_writes_through_fsync_and_an_atomic_rename(
    store: CredentialStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append("replace"), real_replace(a, b))[1])

    store.save("remote", make_state())

    # file fsync before the rename, directory fsync after it
    assert calls[-3:] == ["fsync", "replace", "fsync"]


def test_a_wrong_key_is_a_clear_error_naming_the_server(paths: tuple[Path, Path], tmp_path: Path) -> None:
    directory, key_file = paths
    CredentialStore(directory, key_file=key_file, environ={}).save("remote", make_state())
    other = CredentialStore(directory, key=nacl.utils.random(32), environ={})

    with pytest.raises(CredentialStoreError) as caught:
        other.load("remote", ISSUER)

    message = str(caught.value)
    assert "'remote'" in message and "another key" in message
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_a_tampered_file_is_a_clear_error(store: CredentialStore) -> None:
    store.save("remote", make_state())
    entry = next(store.directory.glob("*.sealed"))
    data = bytearray(entry.read_bytes())
    data[-5] ^= 0xFF
    entry.write_bytes(bytes(data))

    with pytest.raises(CredentialStoreError, match="tampered"):
        store.load("remote", ISSUER)


def test_a_file_renamed_to_another_servers_name_is_refused(store: CredentialStore) -> None:
    store.save("remote", make_state())
    source = next(store.directory.glob("*.sealed"))
    store.save("second", make_state(refresh_token="RT-second"))
    target = next(path for path in store.directory.glob("*.sealed") if path != source)
    os.replace(source, target)

    with pytest.raises(CredentialStoreError, match="another server"):
        store.load("second", ISSUER)


def test_the_key_lives_apart_from_the_credentials(store: CredentialStore) -> None:
    store.save("remote", make_state())

    assert store.key_file.exists()
    assert store.directory not in store.key_file.parents
    assert not any("key" in path.name for path in store.directory.iterdir())


def test_a_key_file_inside_the_credentials_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CredentialStoreError, match="must not be inside"):
        CredentialStore(tmp_path / "creds", key_file=tmp_path / "creds" / "key", environ={})


def test_default_locations_follow_xdg(tmp_path: Path) -> None:
    env = {"XDG_STATE_HOME": str(tmp_path / "s"), "XDG_CONFIG_HOME": str(tmp_path / "c")}

    assert default_directory(env) == tmp_path / "s" / "mcp-troupe" / "credentials"
    assert default_key_file(env) == tmp_path / "c" / "mcp-troupe" / "credentials.key"
    assert CredentialStore(environ=env).directory == tmp_path / "s" / "mcp-troupe" / "credentials"


def test_the_key_can_come_from_the_environment(paths: tuple[Path, Path]) -> None:
    directory, key_file = paths
    env = {KEY_ENV: base64.b64encode(nacl.utils.random(32)).decode()}
    CredentialStore(directory, key_file=key_file, environ=env).save("remote", make_state())

    assert not key_file.exists()
    assert CredentialStore(directory, key_file=key_file, environ=env).load("remote", ISSUER) is not None
    with pytest.raises(CredentialStoreError):
        CredentialStore(directory, key_file=key_file, environ={}).load("remote", ISSUER)


@pytest.mark.parametrize("value", ["not base64!", base64.b64encode(b"short").decode()])
def test_a_malformed_environment_key_is_refused(paths: tuple[Path, Path], value: str) -> None:
    directory, key_file = paths

    with pytest.raises(CredentialStoreError, match=KEY_ENV):
        CredentialStore(directory, key_file=key_file, environ={KEY_ENV: value}).save("remote", make_state())


def test_the_key_file_is_reused_across_stores(paths: tuple[Path, Path]) -> None:
    directory, key_file = paths
    CredentialStore(directory, key_file=key_file, environ={}).save("remote", make_state())

    assert CredentialStore(directory, key_file=key_file, environ={}).load("remote", ISSUER) is not None


def test_delete_removes_every_issuer_of_one_server_only(store: CredentialStore) -> None:
    store.save("remote", make_state())
    store.save("remote", make_state("https://other.example.com"))
    store.save("second", make_state())

    assert store.delete("remote") == 2

    assert store.load_all("remote") == []
    assert store.load("second", ISSUER) is not None
    assert store.delete("remote") == 0


def test_describe_shows_the_login_without_secrets(store: CredentialStore) -> None:
    store.save("remote", make_state(expires_at=5000.0))

    info = store.describe("remote", now=1000.0)

    assert info["state"] == "valid"
    assert info["issuer"] == ISSUER
    assert info["expires_at"] == 5000.0
    assert info["scopes"] == ["read", "write"]
    assert info["has_refresh_token"] is True
    assert info["client"] == "dynamic"
    text = repr(info)
    for secret in (ACCESS, REFRESH, CLIENT_SECRET):
        assert secret not in text


@pytest.mark.parametrize(
    ("refresh_token", "now", "state"), [(REFRESH, 9000.0, "refreshable"), (None, 9000.0, "expired")]
)
def test_describe_tells_expired_from_refreshable(
    store: CredentialStore, refresh_token: str | None, now: float, state: str
) -> None:
    store.save("remote", make_state(refresh_token=refresh_token, expires_at=5000.0))

    assert store.describe("remote", now=now)["state"] == state


def test_describe_of_an_unknown_or_unreadable_server(store: CredentialStore) -> None:
    assert store.describe("nobody")["state"] == "logged_out"
    store.save("remote", make_state())
    next(store.directory.glob("*.sealed")).write_bytes(b"garbage")

    info = store.describe("remote")

    assert info["state"] == "unreadable" and "remote" in info["error"]


def test_the_latest_entry_is_the_most_recently_saved(store: CredentialStore) -> None:
    store.save("remote", make_state())
    store.save("remote", make_state("https://other.example.com"))

    latest = store.load_latest("remote")

    assert latest is not None and latest.issuer == "https://other.example.com"


def test_no_secret_reaches_the_logs(store: CredentialStore, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    store.directory.mkdir(parents=True, mode=0o755)
    os.chmod(store.directory, 0o755)

    store.save("remote", make_state())
    store.load("remote", ISSUER)
    store.describe("remote")
    store.delete("remote")

    assert caplog.records
    text = "\n".join(record.getMessage() for record in caplog.records)
    for secret in (ACCESS, REFRESH, CLIENT_SECRET):
        assert secret not in text


@pytest.mark.timeout(30)
def test_the_lock_serialises_read_modify_write_so_a_rotated_refresh_token_is_not_lost(
    store: CredentialStore,
) -> None:
    store.save("remote", make_state(refresh_token="RT-0"))
    first_holds_lock = threading.Event()
    release_first = threading.Event()
    seen: dict[str, str | None] = {}

    def rotate(name: str, hold: bool) -> None:
        with store.lock("remote", timeout=10):
            if hold:
                first_holds_lock.set()
                assert release_first.wait(10)
            entry = store.load("remote", ISSUER)
            assert entry is not None and entry.state.tokens is not None
            old = entry.state.tokens.refresh_token
            seen[name] = old
            rotated = replace(entry.state.tokens, refresh_token=f"{old}+{name}")
            store.save("remote", replace(entry.state, tokens=rotated))

    first = threading.Thread(target=rotate, args=("a", True))
    first.start()
    assert first_holds_lock.wait(10)
    second = threading.Thread(target=rotate, args=("b", False))
    second.start()
    second.join(0.3)
    assert second.is_alive()  # blocked on the lock while the first one refreshes
    release_first.set()
    first.join(10)
    second.join(10)

    assert seen == {"a": "RT-0", "b": "RT-0+a"}  # the second saw the first's rotated token
    final = store.load("remote", ISSUER)
    assert final is not None and final.state.tokens is not None
    assert final.state.tokens.refresh_token == "RT-0+a+b"


@pytest.mark.timeout(30)
def test_the_lock_excludes_another_process(store: CredentialStore) -> None:
    lock_path = store.lock("remote").path
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys\n"
            f"f = open({str(lock_path)!r}, 'a')\n"
            "fcntl.flock(f, fcntl.LOCK_EX)\n"
            "print('locked', flush=True)\n"
            "sys.stdin.readline()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None and child.stdin is not None
        assert child.stdout.readline().strip() == "locked"

        with pytest.raises(CredentialStoreError, match="another process"):
            store.lock("remote", timeout=0.2).acquire()

        child.stdin.write("\n")
        child.stdin.flush()
        child.wait(10)
        with store.lock("remote", timeout=5) as lock:
            assert lock.is_held
    finally:
        child.kill()
        child.wait(10)
