"""Handshake: which era and version a connection speaks, found out as the spec says. Sans-I/O.

The session asks :meth:`Handshake.start` for the first request, sends it, and feeds back what came of it
(:meth:`on_result`, :meth:`on_error`, :meth:`on_no_answer`) until the answer is :class:`Settled` or
:class:`Failed`.

spec: 2026-07-28 basic/versioning, transports/stdio, transports/streamable-http ("Backward compatibility"):

- Probe with ``server/discover`` carrying the modern ``_meta``. A ``DiscoverResult`` means modern. A
  recognised modern error (``-32022`` with ``supported``, ``-32020``, ``-32021``) means modern too: retry at a
  shared version, never fall back. Any other error, or no answer within a short probe timeout, means legacy:
  ``initialize`` requesting the newest legacy revision and negotiating down. The fallback "MUST NOT be keyed
  to one specific error code".
- Over HTTP the probe is the modern request itself: a ``400`` whose body is a recognised modern error means
  modern; an empty or unrecognised body means legacy (the transport reports a bodiless refusal as no answer).
- An ``initialize`` refused with a modern ``-32022`` (a modern-only server) re-probes once at a version it
  named; a legacy refusal naming ``supported`` versions retries ``initialize`` once at a shared one.
- The era found is a hint for the next connection to the same server (:attr:`Settled.era`); with a hint the
  matching request goes first, and a failed assumption falls back exactly as a probe would.

A pin (``protocol:`` in the config) limits all this: ``legacy`` or ``modern`` to one era, a version to that
version alone. A version nobody shares fails at once, naming what both sides offered.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mcp_troupe.errors import ProtocolError, UnsupportedProtocolVersion
from mcp_troupe.protocol import mcp as proto
from mcp_troupe.protocol import modern
from mcp_troupe.protocol.versions import (
    LATEST,
    LATEST_LEGACY,
    LEGACY_VERSIONS,
    MODERN_VERSIONS,
    REVISIONS,
    SUPPORTED,
    Era,
    Revision,
    best_shared,
)

__all__ = ["PINS", "Failed", "Handshake", "Send", "Settled", "Step", "check_pin"]

PINS = ("auto", "legacy", "modern", *SUPPORTED)
"""What the ``protocol`` config key accepts."""


def check_pin(value: str) -> str | None:
    """None if ``value`` is a valid pin, else why not."""
    if value in PINS:
        return None
    return f"expected one of {', '.join(PINS)}, got {value!r}"


@dataclass(frozen=True, slots=True)
class Send:
    """Send this request next; ``is_probe`` asks for the short probe timeout."""

    method: str
    params: Mapping[str, Any]
    is_probe: bool = False


@dataclass(frozen=True, slots=True)
class Settled:
    """The connection speaks ``revision``; ``info`` describes the server."""

    revision: Revision
    info: proto.InitializeResult
    meta: Mapping[str, Any] | None
    """Modern: the ``_meta`` every request carries from now on."""

    @property
    def era(self) -> Era:
        """The era found, to try first on the next connection."""
        return self.revision.era


@dataclass(frozen=True, slots=True)
class Failed:
    """No shared version (or the server's answers made no sense); do not retry with the same settings."""

    error: ProtocolError


Step = Send | Settled | Failed

CapabilitiesFor = Callable[[Revision], Mapping[str, Any]]


class Handshake:
    """One connection's era negotiation (see the module docstring)."""

    def __init__(
        self,
        *,
        server: str,
        client_info: Mapping[str, Any],
        capabilities: CapabilitiesFor,
        pin: str = "auto",
        hint: Era | None = None,
        extra_meta: Mapping[str, Any] | None = None,
    ) -> None:
        problem = check_pin(pin)
        if problem is not None:
            raise ValueError(problem)
        self.server = server
        self.client_info = dict(client_info)
        self.capabilities = capabilities
        self.pin = pin
        self.hint = hint
        self.extra_meta = dict(extra_meta or {})
        # Versions each side offered, for the error when none is shared.
        self._server_offered: tuple[str, ...] = ()
        self._modern_tries: set[str] = set()
        self._retried_after_refusal: set[str] = set()  # modern versions re-sent after a -32022 naming them
        self._probes_unanswered = 0
        self._legacy_tries: set[str] = set()
        self._current: Send | None = None
        self._version: str | None = None  # what the request in flight asked for

    # ---- what we speak under the pin ------------------------------------------------------------------

    def _allows(self, revision: Revision) -> bool:
        if self.pin == "auto":
            return True
        if self.pin in ("legacy", "modern"):
            return revision.era.value == self.pin
        return revision.version == self.pin

    @property
    def _offered(self) -> tuple[str, ...]:
        return tuple(v for v in SUPPORTED if self._allows(REVISIONS[v]))

    def _first_modern(self) -> str | None:
        return next((v for v in MODERN_VERSIONS if self._allows(REVISIONS[v])), None)

    def _first_legacy(self) -> str | None:
        return next((v for v in LEGACY_VERSIONS if self._allows(REVISIONS[v])), None)

    # ---- steps -----------------------------------------------------------------------------------------

    def start(self) -> Step:
        """The first request to send."""
        modern_version = self._first_modern()
        legacy_version = self._first_legacy()
        if self.hint is Era.LEGACY and legacy_version is not None:
            return self._initialize(legacy_version)
        if modern_version is not None:
            return self._discover(modern_version)
        assert legacy_version is not None  # a valid pin allows at least one version
        return self._initialize(legacy_version)

    def meta_for(self, version: str) -> dict[str, Any]:
        """The per-request ``_meta`` of the modern era at ``version``."""
        revision = REVISIONS[version]
        meta: dict[str, Any] = {
            modern.PROTOCOL_VERSION: version,
            modern.CLIENT_CAPABILITIES: dict(self.capabilities(revision)),
            modern.CLIENT_INFO: dict(self.client_info),
        }
        meta.update(self.extra_meta)
        return meta

    def _discover(self, version: str) -> Send:
        self._modern_tries.add(version)
        self._version = version
        # A probe needs the short timeout only when a legacy server might stay silent: with the modern era
        # pinned, or a second try at a version the server named, there is nothing to fall back to.
        is_probe = (
            self.pin not in ("modern", *MODERN_VERSIONS)
            and len(self._modern_tries) == 1
            and not self._probes_unanswered
        )
        self._current = Send(modern.SERVER_DISCOVER, {"_meta": self.meta_for(version)}, is_probe=is_probe)
        return self._current

    def _initialize(self, version: str) -> Send:
        self._legacy_tries.add(version)
        self._version = version
        params = proto.initialize_params(
            version,
            str(self.client_info.get("name", "mcp-troupe")),
            str(self.client_info.get("version", "")),
            self.capabilities(REVISIONS[version]),
        )
        self._current = Send(proto.INITIALIZE, params)
        return self._current

    @property
    def method(self) -> str | None:
        """The method of the request in flight."""
        return None if self._current is None else self._current.method

    def on_result(self, result: Mapping[str, Any]) -> Step:
        """The request in flight was answered with ``result``."""
        if self.method == modern.SERVER_DISCOVER:
            return self._on_discovered(result)
        return self._on_initialized(result)

    def _on_discovered(self, result: Mapping[str, Any]) -> Step:
        assert self._version is not None
        try:
            info, versions = modern.parse_discover_result(result, self._version)
        except ProtocolError as exc:
            # Something answered server/discover with nonsense: not a modern server we can talk to. A legacy
            # server should have refused the method; fall back as for any other answer that is not modern.
            return self._fall_back(f"server/discover answer unusable ({exc})")
        self._server_offered = versions
        if self._version in versions:
            return Settled(REVISIONS[self._version], info, self.meta_for(self._version))
        shared = best_shared(versions, era=Era.MODERN)
        if shared is not None and self._allows(shared) and shared.version not in self._modern_tries:
            return self._discover(shared.version)
        return self._fall_back("server/discover named no modern version we speak", versions)

    def _on_initialized(self, result: Mapping[str, Any]) -> Step:
        try:
            info = proto.parse_initialize_result(result)
        except ProtocolError as exc:
            return Failed(exc)
        answered = info.protocol_version
        revision = REVISIONS.get(answered)
        if revision is None or revision.is_modern or not self._allows(revision):
            self._server_offered = (answered,)
            return self._no_shared_version(answered)
        return Settled(revision, info, None)

    def on_error(self, code: int, message: str, data: Any) -> Step:
        """The request in flight was refused with a JSON-RPC error."""
        supported = modern.supported_versions_of(data)
        if supported is not None:
            self._server_offered = supported
        if self.method == modern.SERVER_DISCOVER:
            if code in modern.MODERN_ERROR_CODES:
                # A modern server: never fall back to the legacy handshake because of a modern error.
                if code == modern.UNSUPPORTED_PROTOCOL_VERSION and supported is not None:
                    shared = best_shared(supported, era=Era.MODERN)
                    if shared is not None and self._allows(shared) and self._may_retry_at(shared.version):
                        return self._discover(shared.version)
                    legacy = best_shared(supported, era=Era.LEGACY)
                    if legacy is not None:
                        # It names only handshake versions: a dual-era server with the modern side off.
                        return self._fall_back(
                            "server/discover refused; the server named legacy versions", supported
                        )
                    return self._no_shared_version(self._version)
                return Failed(
                    ProtocolError(f"server {self.server!r} refused server/discover with {code}: {message}")
                )
            return self._fall_back(f"server/discover refused with {code}")
        # initialize refused.
        if supported is not None:
            if code == modern.UNSUPPORTED_PROTOCOL_VERSION:
                shared_modern = best_shared(supported, era=Era.MODERN)
                if (
                    shared_modern is not None
                    and self._allows(shared_modern)
                    and shared_modern.version not in self._modern_tries
                ):
                    return self._discover(shared_modern.version)
            shared_legacy = best_shared(supported, era=Era.LEGACY)
            if (
                shared_legacy is not None
                and self._allows(shared_legacy)
                and shared_legacy.version not in self._legacy_tries
            ):
                return self._initialize(shared_legacy.version)
            return self._no_shared_version(self._version)
        return Failed(ProtocolError(f"server {self.server!r} refused initialize with {code}: {message}"))

    def _may_retry_at(self, version: str) -> bool:
        """Whether a ``-32022`` naming ``version`` as supported may be answered by retrying at it.

        spec: 2026-07-28 basic/index ("Version handling"): the client "SHOULD select a mutually supported
        version from the ``supported`` list and retry the request". A version not tried yet always may. A
        refusal that names the very version it refused contradicts itself (a fleet mid-rollout behind one
        origin, a proxy that rewrote the request): the literal rule still holds, so that version is retried,
        once; a second refusal of it is final, so the handshake cannot loop.
        """
        if version not in self._modern_tries:
            return True
        if version == self._version and version not in self._retried_after_refusal:
            self._retried_after_refusal.add(version)
            return True
        return False

    def on_no_answer(self, reason: str) -> Step:
        """The request in flight got no usable answer (the probe timed out; HTTP refused it bodiless)."""
        if self.method == modern.SERVER_DISCOVER:
            # Silence proves nothing about the version: a slow modern server may still answer a later try.
            if self._version is not None:
                self._modern_tries.discard(self._version)
                self._probes_unanswered += 1
            return self._fall_back(f"server/discover: {reason}")
        return Failed(ProtocolError(f"server {self.server!r}: initialize got no answer ({reason})"))

    def _fall_back(self, why: str, offered: tuple[str, ...] = ()) -> Step:
        legacy = self._first_legacy()
        if offered:
            shared = best_shared(offered, era=Era.LEGACY)
            if shared is not None and self._allows(shared):
                legacy = shared.version
        if legacy is None or legacy in self._legacy_tries:
            if offered:
                return self._no_shared_version(self._version)
            # The pin rules out the legacy handshake: no version is shared (and no retry can change that).
            return Failed(
                UnsupportedProtocolVersion(f"no modern version ({why})", self._offered, server=self.server)
            )
        return self._initialize(legacy)

    def _no_shared_version(self, requested: object) -> Failed:
        error = UnsupportedProtocolVersion(
            requested if not self._server_offered else ", ".join(self._server_offered),
            self._offered,
            server=self.server,
        )
        return Failed(error)


def default_pin_versions() -> tuple[str, str]:
    """The versions an unpinned handshake tries first: the modern probe's and ``initialize``'s."""
    return LATEST, LATEST_LEGACY
