"""The public face of OAuth: log in, log out, describe a login, and let a process answer logins itself.

What ``troupe login`` / ``logout`` / ``status`` and embedding applications use, so that neither reaches into
:mod:`mcp_troupe.actors` (DESIGN §1: the CLI uses only the public face). The machinery behind it — the
OAuthFlow actor, its loop side, the sans-I/O flows — stays private and may change.

- :func:`login` — a fresh authorization for one configured server, stored sealed in the credential store:
  a browser (or a pasted redirect) for the authorization code grant; at once, with no user, for the client
  credentials, workload identity and enterprise grants (which also renew by themselves later);
- :func:`logout` — delete a server's stored credentials (every issuer);
- :func:`describe` — the secret-free status view of a stored login (what ``troupe status`` shows);
- :class:`InteractiveLogin` / :func:`set_interactive_login` — how a process that can ask its user (a GUI,
  a test harness) completes code-flow logins in place, instead of reporting ``needs_login``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, TextIO

from mcp_troupe.actors import oauth as _oauth
from mcp_troupe.config import ServerConfig
from mcp_troupe.credentials import CredentialStore
from mcp_troupe.protocol.oauth import AuthState, UserAuthorization

__all__ = [
    "AuthState",
    "CredentialStore",
    "InteractiveLogin",
    "UserAuthorization",
    "describe",
    "login",
    "logout",
    "set_interactive_login",
    "stored_login",
]

InteractiveLogin = _oauth.InteractiveLogin
set_interactive_login = _oauth.set_interactive_login


async def login(
    config: ServerConfig,
    *,
    store: CredentialStore | None = None,
    use_browser: bool = True,
    input_stream: TextIO,
    output: TextIO,
    clock: Callable[[], float] = time.time,
) -> AuthState:
    """Log in to ``config`` (an HTTP server with ``auth: oauth``) and store the result; see the module doc.

    Raises :class:`~mcp_troupe.errors.AuthError` (never holding a secret) when the login fails.
    """
    return await _oauth.login(
        config,
        store=store if store is not None else CredentialStore(),
        use_browser=use_browser,
        input_stream=input_stream,
        output=output,
        clock=clock,
    )


def logout(name: str, *, store: CredentialStore | None = None) -> int:
    """Delete the stored credentials of server ``name`` (every issuer); return how many were deleted."""
    return _oauth.logout(name, store=store if store is not None else CredentialStore())


def describe(state: AuthState | None, *, now: float | None = None) -> dict[str, Any]:
    """The status view of a login: ``state``, ``grant``, ``issuer``, ``expires_at``, ``scopes``,
    ``token_type``, ``needs_login`` — never a token or secret."""
    return _oauth.describe_auth(state, now=time.time() if now is None else now)


def stored_login(name: str, *, store: CredentialStore | None = None) -> Mapping[str, Any]:
    """:func:`describe` of what the credential store holds for server ``name`` (the newest issuer)."""
    entry = (store if store is not None else CredentialStore()).load_latest(name)
    return describe(entry.state if entry is not None else None)
