"""The review store: tools the injection scan withheld, and the operator's decision on each, by fingerprint.

A finding of low confidence (:func:`mcp_troupe.policy.injection.grade` says ``withhold``) keeps a tool from
the model until an operator has looked at it. The registry records each such tool here as *pending*;
``troupe review`` lists them with their findings and records the operator's decision: ``released`` (the tool
is registered, its findings kept as warnings) or ``kept`` (it stays out, now as rejected by the operator).

A decision holds for one definition only. It is keyed by (server, tool, review fingerprint), where the
review fingerprint is :func:`~mcp_troupe.policy.fingerprint.fingerprint` of the name, description and input
schema, and of the title when there is one (the scan reads it too). A server that changes what a released tool
says gets a new fingerprint, so the new definition is withheld and pending again.

Layout (XDG base directories, next to the credential store)::

    $XDG_STATE_HOME/mcp-troupe/review.json         mode 0600 (default ~/.local/state/...)
    $XDG_STATE_HOME/mcp-troupe/.review.json.lock   the cross-process lock of read-modify-write

``$MCP_TROUPE_REVIEW_FILE`` names another file (the lock goes next to it).

Writes are atomic (temporary file, fsync, ``os.replace``) under an ``flock``, so the registry recording a
pending tool and ``troupe review`` recording a decision at the same moment lose neither. The file holds no
secret: names, fingerprints, rule ids and the scan's escaped excerpts.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final, Literal

from mcp_troupe.errors import ReviewStoreError
from mcp_troupe.policy.injection import Finding

__all__ = [
    "REVIEW_FILE_ENV",
    "Decision",
    "ReviewEntry",
    "ReviewStore",
    "default_path",
    "review_fingerprint",
]

log = logging.getLogger("mcp_troupe.review")

REVIEW_FILE_ENV: Final = "MCP_TROUPE_REVIEW_FILE"
_FORMAT: Final = 1
_DESCRIPTION_KEPT: Final = 400

Decision = Literal["released", "kept"]
"""An operator's decision on a withheld tool: ``released`` registers it, ``kept`` keeps it out."""
Status = Literal["pending", "released", "kept"]


def default_path(environ: Mapping[str, str] | None = None) -> Path:
    """``$MCP_TROUPE_REVIEW_FILE``, else ``$XDG_STATE_HOME/mcp-troupe/review.json`` (``~/.local/state``)."""
    env = os.environ if environ is None else environ
    explicit = env.get(REVIEW_FILE_ENV)
    if explicit:
        return Path(explicit)
    base = env.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "mcp-troupe" / "review.json"


def review_fingerprint(tool_fingerprint: str, title: str | None) -> str:
    """The key a decision is recorded under: the tool's fingerprint, extended by its title when it has one."""
    if title is None:
        return tool_fingerprint
    return hashlib.sha256(f"{tool_fingerprint}\0{title}".encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True, slots=True)
class ReviewEntry:
    """One withheld definition of one tool, and what the operator decided about it (``pending``: nothing)."""

    server: str
    tool: str
    fingerprint: str
    status: Status
    findings: tuple[Finding, ...]
    description: str
    first_seen: float
    decided_at: float | None = None

    def to_json(self) -> dict[str, Any]:
        """The entry as stored (and as ``troupe review --json`` prints it)."""
        return {
            "server": self.server,
            "tool": self.tool,
            "fingerprint": self.fingerprint,
            "status": self.status,
            "findings": [
                {"rule": f.rule, "field": f.field, "excerpt": f.excerpt, "confidence": f.confidence}
                for f in self.findings
            ],
            "description": self.description,
            "first_seen": self.first_seen,
            "decided_at": self.decided_at,
        }

    @classmethod
    def from_json(cls, data: Any, where: str) -> ReviewEntry:
        """Parse a stored entry; :class:`ReviewStoreError` names ``where`` when it is malformed."""
        try:
            status = data["status"]
            if status not in ("pending", "released", "kept"):
                raise ValueError(f"status {status!r}")
            findings = []
            for item in data["findings"]:
                confidence = item["confidence"]
                if confidence not in ("high", "low", "weak"):
                    raise ValueError(f"confidence {confidence!r}")
                rule, where, excerpt = str(item["rule"]), str(item["field"]), str(item["excerpt"])
                findings.append(Finding(rule, where, excerpt, confidence))
            decided = data.get("decided_at")
            return cls(
                server=str(data["server"]),
                tool=str(data["tool"]),
                fingerprint=str(data["fingerprint"]),
                status=status,
                findings=tuple(findings),
                description=str(data.get("description", "")),
                first_seen=float(data.get("first_seen", 0.0)),
                decided_at=float(decided) if decided is not None else None,
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ReviewStoreError(f"{where}: malformed review entry ({exc})") from None


class ReviewStore:
    """The review file: read whole, changed under a lock, written atomically. Safe across processes.

    Reads are cached by the file's modification time and size, so the registry asking about every withheld
    tool on every table update costs one ``stat``.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path if path is not None else default_path()
        self._cache: tuple[tuple[int, int], list[ReviewEntry]] | None = None

    # ---- reading -------------------------------------------------------------------------------------------

    def entries(self) -> list[ReviewEntry]:
        """Every entry, in the order they were first seen. A missing file is an empty store."""
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise ReviewStoreError(
                f"cannot read the review store {self.path}: {exc.strerror or exc}"
            ) from None
        stamp = (stat.st_mtime_ns, stat.st_size)
        if self._cache is not None and self._cache[0] == stamp:
            return list(self._cache[1])
        entries = self._read()
        self._cache = (stamp, entries)
        return list(entries)

    def _read(self) -> list[ReviewEntry]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        except (OSError, UnicodeDecodeError) as exc:
            raise ReviewStoreError(f"cannot read the review store {self.path}: {exc}") from None
        try:
            document = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ReviewStoreError(f"{self.path} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
        if not isinstance(document, dict) or not isinstance(document.get("entries"), list):
            raise ReviewStoreError(f"{self.path}: expected an object with an 'entries' list")
        if document.get("format") != _FORMAT:
            raise ReviewStoreError(
                f"{self.path}: unknown format {document.get('format')!r} (expected {_FORMAT})"
            )
        return [
            ReviewEntry.from_json(item, f"{self.path} entries[{index}]")
            for index, item in enumerate(document["entries"])
        ]

    def decision(self, server: str, tool: str, fingerprint: str) -> Decision | None:
        """The operator's decision on this very definition, or ``None`` (pending, or never seen)."""
        for entry in self.entries():
            if (entry.server, entry.tool, entry.fingerprint) == (server, tool, fingerprint):
                return None if entry.status == "pending" else entry.status
        return None

    def pending(self, server: str | None = None) -> list[ReviewEntry]:
        """The withheld definitions nobody has decided on yet (of ``server``, or of every server)."""
        return [
            entry
            for entry in self.entries()
            if entry.status == "pending" and (server is None or entry.server == server)
        ]

    # ---- writing -------------------------------------------------------------------------------------------

    def record_pending(
        self, server: str, tool: str, fingerprint: str, findings: Sequence[Finding], description: str
    ) -> bool:
        """Record a withheld definition as pending unless the store has it already; True if it was added."""
        if any(
            (entry.server, entry.tool, entry.fingerprint) == (server, tool, fingerprint)
            for entry in self.entries()
        ):
            return False
        with self._locked() as entries:
            if any((e.server, e.tool, e.fingerprint) == (server, tool, fingerprint) for e in entries):
                return False
            entries.append(
                ReviewEntry(
                    server=server,
                    tool=tool,
                    fingerprint=fingerprint,
                    status="pending",
                    findings=tuple(findings),
                    description=description[:_DESCRIPTION_KEPT],
                    first_seen=time.time(),
                )
            )
        return True

    def decide(
        self, server: str, tool: str, decision: Decision, fingerprint: str | None = None
    ) -> ReviewEntry:
        """Record ``decision`` on ``tool`` of ``server``; return the entry as it now stands.

        Without ``fingerprint`` the decision applies to the tool's newest pending definition; with it, to
        that definition whatever its status (an operator may change their mind). Raises
        :class:`ReviewStoreError` when there is no such definition, naming what there is.
        """
        with self._locked() as entries:
            candidates = [
                index
                for index, entry in enumerate(entries)
                if entry.server == server
                and entry.tool == tool
                and (entry.fingerprint == fingerprint if fingerprint else entry.status == "pending")
            ]
            if not candidates:
                known = sorted({f"{e.server}/{e.tool}" for e in entries if e.status == "pending"})
                what = f"definition {fingerprint[:12]}… of" if fingerprint else "pending definition of"
                raise ReviewStoreError(
                    f"no {what} tool {tool!r} on server {server!r} in {self.path}; pending: "
                    + (
                        ", ".join(known)
                        if known
                        else "none (run `troupe review --scan` to connect the servers)"
                    )
                )
            index = candidates[-1]
            decided = replace(entries[index], status=decision, decided_at=time.time())
            entries[index] = decided
        return decided

    @contextlib.contextmanager
    def _locked(self) -> Iterator[list[ReviewEntry]]:
        """Read the entries under the lock, let the caller change the list, write it back atomically."""
        directory = self.path.parent
        try:
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            lock_fd = os.open(
                directory / f".{self.path.name}.lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600
            )
        except OSError as exc:
            raise ReviewStoreError(
                f"cannot open the review store {self.path}: {exc.strerror or exc}"
            ) from None
        try:
            fcntl.flock(lock_fd, fcntl.LOCK_EX)
            entries = self._read()
            yield entries
            self._write(entries)
        finally:
            os.close(lock_fd)

    def _write(self, entries: list[ReviewEntry]) -> None:
        document = {"format": _FORMAT, "entries": [entry.to_json() for entry in entries]}
        data = json.dumps(document, indent=1, ensure_ascii=False).encode("utf-8", "surrogatepass")
        try:
            fd, temporary = tempfile.mkstemp(
                dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp"
            )
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.chmod(temporary, 0o600)
                os.replace(temporary, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError as exc:
            raise ReviewStoreError(
                f"cannot write the review store {self.path}: {exc.strerror or exc}"
            ) from None
        self._cache = None
