"""The credential store: OAuth tokens and client registrations, sealed at rest, a file per server and issuer.

Layout (XDG base directories)::

    $XDG_STATE_HOME/mcp-troupe/credentials/        mode 0700 (default ~/.local/state/...)
        <h(server)>-<h(server, issuer)>.sealed     mode 0600, one per (server, issuer)
        .<h(server)>.lock                          the cross-process lock of that server
    $XDG_CONFIG_HOME/mcp-troupe/credentials.key    mode 0600 (default ~/.config/...), base64 of 32 bytes

Every entry is sealed with :class:`nacl.secret.SecretBox` (XSalsa20-Poly1305) under a key that lives *apart*
from the entries: in ``$MCP_TROUPE_CREDENTIALS_KEY`` (base64 of 32 bytes) or in the key file, created on
first use. A copied credentials directory is useless without the key, and a tampered file fails
authentication instead of being half-read. The sealed record names its server and issuer and is checked on
load, so a file renamed to another server's name is refused too.

Writes are atomic (temporary file in the same directory, write, fsync, ``os.replace``, fsync the directory):
a crash leaves the old entry or the new one, never a torn file. Read-modify-write (a refresh, which may rotate
the refresh token) runs under :meth:`CredentialStore.lock`, an ``flock`` on a per-server lock file, so that
two processes refreshing one server cannot lose a rotated refresh token (a peer bug).

Nothing here logs or raises with a token, a secret or ciphertext; :meth:`CredentialStore.describe` is what
status output may show.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import fcntl
import hashlib
import json
import logging
import os
import stat
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final

import nacl.exceptions
import nacl.secret
import nacl.utils

from mcp_troupe.errors import CredentialStoreError
from mcp_troupe.protocol.oauth import AuthState

__all__ = [
    "KEY_ENV",
    "CredentialLock",
    "CredentialStore",
    "StoredCredentials",
    "default_directory",
    "default_key_file",
]

log = logging.getLogger("mcp_troupe.credentials")

KEY_ENV: Final = "MCP_TROUPE_CREDENTIALS_KEY"
_MAGIC: Final = b"mcp-troupe sealed credentials v1\n"
_SUFFIX: Final = ".sealed"


def default_directory(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_STATE_HOME/mcp-troupe/credentials``, else ``~/.local/state/mcp-troupe/credentials``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "mcp-troupe" / "credentials"


def default_key_file(environ: Mapping[str, str] | None = None) -> Path:
    """``$XDG_CONFIG_HOME/mcp-troupe/credentials.key``, else ``~/.config/mcp-troupe/credentials.key``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "mcp-troupe" / "credentials.key"


@dataclass(frozen=True, slots=True)
class StoredCredentials:
    """One sealed entry: the OAuth state of ``server`` at ``state.issuer``, and when it was saved."""

    server: str
    state: AuthState
    saved_at: float = 0.0

    @property
    def issuer(self) -> str:
        """The authorization server the credentials are bound to."""
        return self.state.issuer


def _digest(*parts: str, length: int) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        # Length-prefixed, so ("ab", "c") and ("a", "bc") never collide.
        data = part.encode("utf-8")
        hasher.update(len(data).to_bytes(4, "big") + data)
    return hasher.hexdigest()[:length]


class CredentialLock:
    """An exclusive ``flock`` on one server's lock file; usable as a context manager, from any thread.

    ``flock`` locks belong to an open file, so two locks in one process exclude each other as two processes
    do. An async caller acquires it in a worker thread (``anyio.to_thread.run_sync(lock.acquire)``).
    """

    def __init__(self, path: Path, server: str, timeout: float) -> None:
        self._path = path
        self._server = server
        self._timeout = timeout
        self._fd: int | None = None

    @property
    def path(self) -> Path:
        """The lock file."""
        return self._path

    @property
    def is_held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def acquire(self) -> None:
        """Wait for the lock, at most ``timeout`` seconds; raise :class:`CredentialStoreError` after that."""
        if self._fd is not None:
            raise RuntimeError("lock already held")
        fd = os.open(self._path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        deadline = time.monotonic() + self._timeout
        try:
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise CredentialStoreError(
                            self._server,
                            f"another process has held the credential lock for more than {self._timeout:g} s",
                        ) from None
                    # flock has no timed wait; a short poll keeps a stuck peer from hanging us forever.
                    time.sleep(0.02)
        except BaseException:
            os.close(fd)
            raise
        self._fd = fd

    def release(self) -> None:
        """Release the lock (a no-op if not held)."""
        fd, self._fd = self._fd, None
        if fd is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_UN)
            finally:
                os.close(fd)

    def __enter__(self) -> CredentialLock:
        self.acquire()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


class CredentialStore:
    """Sealed, atomic, per-(server, issuer) storage of :class:`~mcp_troupe.protocol.oauth.AuthState`.

    Args:
        directory: where entries live (default :func:`default_directory`).
        key: the 32-byte sealing key; default ``$MCP_TROUPE_CREDENTIALS_KEY``, else the key file.
        key_file: where the key file lives (default :func:`default_key_file`); it must not be inside
            ``directory``.
        environ: the environment to read (default ``os.environ``).

    Nothing touches the disk until first use; the key file is created only when something is saved.
    """

    def __init__(
        self,
        directory: Path | None = None,
        *,
        key: bytes | None = None,
        key_file: Path | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        env = os.environ if environ is None else environ
        self.directory = Path(directory) if directory is not None else default_directory(env)
        self.key_file = Path(key_file) if key_file is not None else default_key_file(env)
        if key is not None and len(key) != nacl.secret.SecretBox.KEY_SIZE:
            raise CredentialStoreError("", "the credentials key must be 32 bytes")
        self._key = key
        self._env_key = env.get(KEY_ENV)
        # The key is kept apart from what it seals: a key file inside the credentials directory would travel
        # with every copy of it.
        if (
            key is None
            and not self._env_key
            and self.directory.absolute() in self.key_file.absolute().parents
        ):
            raise CredentialStoreError(
                "", "the credentials key file must not be inside the credentials directory"
            )

    # --- the key ---------------------------------------------------------------------------------------

    def _box(self, *, create: bool) -> nacl.secret.SecretBox | None:
        key = self._key
        if key is None and self._env_key:
            try:
                key = base64.b64decode(self._env_key, validate=True)
            except (binascii.Error, ValueError):
                key = b""
            if len(key) != nacl.secret.SecretBox.KEY_SIZE:
                raise CredentialStoreError("", f"${KEY_ENV} must be the base64 encoding of 32 bytes")
        if key is None:
            key = self._read_key_file(create=create)
            if key is None:
                return None
        self._key = key
        return nacl.secret.SecretBox(key)

    def _read_key_file(self, *, create: bool) -> bytes | None:
        path = self.key_file
        try:
            info = path.lstat()
        except FileNotFoundError:
            if not create:
                return None
            return self._create_key_file()
        if stat.S_ISLNK(info.st_mode) or not stat.S_ISREG(info.st_mode):
            raise CredentialStoreError("", f"the credentials key {path} is not a regular file")
        if info.st_uid != os.getuid():
            raise CredentialStoreError("", f"the credentials key {path} belongs to another user")
        if info.st_mode & 0o077:
            log.warning("credentials key %s was readable by others; mode fixed to 0600", path)
            os.chmod(path, 0o600)
        try:
            key = base64.b64decode(path.read_bytes().strip(), validate=True)
        except (binascii.Error, ValueError):
            key = b""
        if len(key) != nacl.secret.SecretBox.KEY_SIZE:
            raise CredentialStoreError("", f"the credentials key {path} is not the base64 of 32 bytes")
        return key

    def _create_key_file(self) -> bytes:
        path = self.key_file
        _ensure_private_directory(path.parent)
        key = nacl.utils.random(nacl.secret.SecretBox.KEY_SIZE)
        try:
            # O_EXCL: if another process created it first, use theirs (below) rather than overwrite it.
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        except FileExistsError:
            existing = self._read_key_file(create=False)
            assert existing is not None
            return existing
        with os.fdopen(fd, "wb") as handle:
            handle.write(base64.b64encode(key) + b"\n")
            handle.flush()
            os.fsync(handle.fileno())
        _fsync_directory(path.parent)
        log.info("created credentials key %s", path)
        return key

    # --- paths -----------------------------------------------------------------------------------------

    def _prepare_directory(self) -> Path:
        _ensure_private_directory(self.directory)
        return self.directory

    def _entry_path(self, server: str, issuer: str) -> Path:
        return self.directory / f"{_digest(server, length=16)}-{_digest(server, issuer, length=32)}{_SUFFIX}"

    def _entries(self, server: str) -> list[Path]:
        if not self.directory.is_dir():
            return []
        return sorted(self.directory.glob(f"{_digest(server, length=16)}-*{_SUFFIX}"))

    # --- the API ---------------------------------------------------------------------------------------

    def lock(self, server: str, *, timeout: float = 30.0) -> CredentialLock:
        """The cross-process lock of ``server``'s entries: hold it around load → refresh → save."""
        directory = self._prepare_directory()
        return CredentialLock(directory / f".{_digest(server, length=16)}.lock", server, timeout)

    def save(self, server: str, state: AuthState) -> StoredCredentials:
        """Seal and write ``state`` as the entry of (``server``, ``state.issuer``), atomically."""
        directory = self._prepare_directory()
        box = self._box(create=True)
        assert box is not None
        saved_at = time.time()
        record = {"server": server, "saved_at": saved_at, "state": state.to_dict()}
        sealed = _MAGIC + bytes(box.encrypt(json.dumps(record, separators=(",", ":")).encode("utf-8")))
        target = self._entry_path(server, state.issuer)
        fd, temp_name = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=_SUFFIX)
        try:
            with os.fdopen(fd, "wb") as handle:
                os.fchmod(handle.fileno(), 0o600)
                handle.write(sealed)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temp_name, target)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temp_name)
            raise
        _fsync_directory(directory)
        log.debug("saved credentials of server %s", server)
        return StoredCredentials(server=server, state=state, saved_at=saved_at)

    def load(self, server: str, issuer: str) -> StoredCredentials | None:
        """The entry of (``server``, ``issuer``), or ``None``; :class:`CredentialStoreError` if unreadable."""
        path = self._entry_path(server, issuer)
        if not path.exists():
            return None
        entry = self._read(path, server)
        if entry.issuer != issuer:
            raise CredentialStoreError(server, "a stored credentials file belongs to another issuer")
        return entry

    def load_all(self, server: str) -> list[StoredCredentials]:
        """Every entry of ``server`` (one per issuer), the most recently saved first."""
        entries = [self._read(path, server) for path in self._entries(server)]
        return sorted(entries, key=lambda entry: entry.saved_at, reverse=True)

    def load_latest(self, server: str) -> StoredCredentials | None:
        """The most recently saved entry of ``server`` (what a fresh process starts from), or ``None``."""
        entries = self.load_all(server)
        return entries[0] if entries else None

    def delete(self, server: str, issuer: str | None = None) -> int:
        """Delete ``server``'s entries (of every issuer, or only ``issuer``); return how many were deleted."""
        paths = [self._entry_path(server, issuer)] if issuer is not None else self._entries(server)
        deleted = 0
        for path in paths:
            try:
                path.unlink()
                deleted += 1
            except FileNotFoundError:
                pass
        if deleted:
            _fsync_directory(self.directory)
            log.info(
                "deleted %d credential entr%s of server %s", deleted, "y" if deleted == 1 else "ies", server
            )
        return deleted

    def describe(self, server: str, *, now: float | None = None) -> dict[str, Any]:
        """What status output may show about ``server``'s login — never a token or a secret.

        Keys: ``server``, ``state`` (``logged_out``, ``valid``, ``expired``, ``refreshable``, ``unreadable``),
        ``issuer``, ``expires_at``, ``scopes``, ``has_refresh_token``, ``client`` (its kind), ``saved_at``,
        ``issuers`` (every issuer with an entry) and ``error`` (why it is unreadable).
        """
        now = time.time() if now is None else now
        info: dict[str, Any] = {
            "server": server,
            "state": "logged_out",
            "issuer": None,
            "expires_at": None,
            "scopes": [],
            "has_refresh_token": False,
            "client": None,
            "saved_at": None,
            "issuers": [],
            "error": None,
        }
        try:
            entries = self.load_all(server)
        except CredentialStoreError as error:
            info.update(state="unreadable", error=str(error))
            return info
        if not entries:
            return info
        latest = entries[0]
        tokens = latest.state.tokens
        info.update(
            issuer=latest.issuer,
            saved_at=latest.saved_at,
            issuers=[entry.issuer for entry in entries],
            client=latest.state.client.kind if latest.state.client else None,
        )
        if tokens is not None:
            if not tokens.is_expired(now):
                state = "valid"
            elif tokens.has_refresh_token:
                state = "refreshable"
            else:
                state = "expired"
            info.update(
                state=state,
                expires_at=tokens.expires_at,
                scopes=list(tokens.scope),
                has_refresh_token=tokens.has_refresh_token,
            )
        return info

    def _read(self, path: Path, server: str) -> StoredCredentials:
        def unreadable(why: str) -> CredentialStoreError:
            return CredentialStoreError(
                server,
                f"stored credentials {path.name} cannot be read ({why}); "
                f"run `troupe logout {server}` and log in again",
            )

        try:
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode) or not stat.S_ISREG(info.st_mode):
                raise unreadable("not a regular file")
            if info.st_uid != os.getuid():
                raise unreadable("owned by another user")
            if info.st_mode & 0o077:
                log.warning(
                    "credentials file of server %s was readable by others; mode fixed to 0600", server
                )
                os.chmod(path, 0o600)
            data = path.read_bytes()
        except OSError as error:
            raise unreadable(error.strerror or type(error).__name__) from None
        if not data.startswith(_MAGIC):
            raise unreadable("not a sealed credentials file")
        box = self._box(create=False)
        if box is None:
            raise unreadable(f"the key file {self.key_file} is missing")
        try:
            plain = box.decrypt(data[len(_MAGIC) :])
        except nacl.exceptions.CryptoError:
            # Never chain or show the ciphertext: the reason is all an operator needs.
            raise unreadable("tampered with, or sealed under another key") from None
        try:
            record = json.loads(plain)
            if not isinstance(record, dict) or record.get("server") != server:
                raise unreadable("it belongs to another server")
            state = AuthState.from_dict(record["state"], server=server)
            saved_at = float(record.get("saved_at", 0.0))
        except CredentialStoreError:
            raise
        except Exception:
            # A decrypted but malformed record: name the problem class only, never the content.
            raise unreadable("malformed record") from None
        return StoredCredentials(server=server, state=state, saved_at=saved_at)


def _ensure_private_directory(path: Path) -> None:
    """Create ``path`` with mode 0700, tighten a looser existing one, refuse one owned by someone else."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    info = path.stat()
    if info.st_uid != os.getuid():
        raise CredentialStoreError("", f"{path} belongs to another user; refusing to keep credentials there")
    if stat.S_IMODE(info.st_mode) != 0o700:
        log.warning("%s had mode %o; fixed to 0700", path, stat.S_IMODE(info.st_mode))
        os.chmod(path, 0o700)


def _fsync_directory(path: Path) -> None:
    # The rename is durable only once the directory entry is: fsync the directory itself.
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
