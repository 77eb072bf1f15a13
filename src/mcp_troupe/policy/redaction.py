"""Redaction of our own secrets from whatever a server sends back, before it is shown or logged.

A hostile or careless server can echo what we sent it: an HTTP error page that prints the request headers
puts ``Authorization: Bearer …`` into the error text that reaches the model, and into our logs; a stdio
server can print its environment, API keys included, to the stderr tail shown in ``troupe status``.
(issue 15). So every connection has a :class:`Redactor` that knows the connection's secrets, and the
transports pass server-sent text through it where that text becomes an error or a log line.

What counts as a secret of a connection:

- every configured ``headers`` value (the config already treats them as secrets), and the credential part
  of an ``Authorization``-style value (``Bearer abc`` → ``abc`` too);
- ``env`` values whose variable name says secret (``…TOKEN…``, ``…KEY…``, ``…SECRET…``, ``…PASS…``,
  ``…AUTH…``, ``…CREDENTIAL…``, ``…COOKIE…``, ``…SESSION…``, ``…PRIVATE…``), and any other ``env`` value
  that looks like a credential: 16 characters or more, no whitespace, not a path;
- whatever is added at run time with :meth:`Redactor.add`: the bearer and DPoP tokens the OAuth flow
  hands the transport, as they change.

Each secret is also matched in the forms a server is likely to echo it in: JSON-escaped and
percent-encoded. Values shorter than :data:`MIN_SECRET_CHARS` are not redacted (they would blank out
ordinary words, and are no secret worth the name). Pure and thread-safe: secrets are added under a lock to
an immutable snapshot that readers take without one.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterable, Mapping
from typing import Final
from urllib.parse import quote

__all__ = ["MIN_SECRET_CHARS", "REDACTED", "Redactor", "looks_secret_env"]

REDACTED: Final = "[redacted]"
"""What a secret is replaced with."""

MIN_SECRET_CHARS: Final = 4
"""Shorter values are never redacted."""

_SECRET_NAME = re.compile(r"TOKEN|KEY|SECRET|PASS|AUTH|CREDENTIAL|COOKIE|SESSION|PRIVATE|BEARER", re.I)
_CREDENTIAL_LIKE_CHARS = 16
# Header names whose values are credentials whoever set them (the transport's own, OAuth's, a proxy's).
SENSITIVE_HEADERS: Final = frozenset(
    {"authorization", "proxy-authorization", "dpop", "cookie", "x-api-key", "api-key", "x-auth-token"}
)


def looks_secret_env(name: str, value: str) -> bool:
    """Whether the ``env`` entry ``name=value`` is treated as a secret (see the module docstring)."""
    if _SECRET_NAME.search(name):
        return True
    return (
        len(value) >= _CREDENTIAL_LIKE_CHARS
        and not any(char.isspace() for char in value)
        and not value.startswith(("/", ".", "~"))
        and "://" not in value
    )


def _forms(secret: str) -> set[str]:
    """The secret and the encodings it is likely to be echoed in."""
    forms = {secret, json.dumps(secret, ensure_ascii=False)[1:-1], json.dumps(secret)[1:-1]}
    forms.add(quote(secret, safe=""))
    forms.add(quote(secret, safe="/:"))
    return {form for form in forms if len(form) >= MIN_SECRET_CHARS}


class Redactor:
    """Replaces a connection's secrets with ``[redacted]`` in text a server sent back."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        self._lock = threading.Lock()
        self._known: frozenset[str] = frozenset()
        # Longest first, so a header value is replaced whole before the token inside it is looked for.
        self._forms: tuple[str, ...] = ()
        self._forms_bytes: tuple[bytes, ...] = ()
        self.add_all(secrets)

    @classmethod
    def for_connection(cls, headers: Mapping[str, str], env: Mapping[str, str]) -> Redactor:
        """A redactor that knows a server's configured ``headers`` and secret-looking ``env`` values."""
        redactor = cls()
        redactor.add_headers(headers, every_value=True)
        redactor.add_all(value for name, value in env.items() if looks_secret_env(name, value))
        return redactor

    def add(self, secret: str | None) -> None:
        """Redact ``secret`` from now on (no-op for ``None``, short values, or one already known).

        The hook for secrets that appear at run time: the OAuth flow's bearer and DPoP tokens.
        """
        self.add_all((secret,) if secret is not None else ())

    def add_all(self, secrets: Iterable[str]) -> None:
        """Redact each of ``secrets`` from now on."""
        new = {secret for secret in secrets if len(secret) >= MIN_SECRET_CHARS} - self._known
        if not new:
            return  # the common case on every request: nothing new to learn, no lock taken
        with self._lock:
            known = self._known | new
            forms = set(self._forms)
            for secret in new:
                forms |= _forms(secret)
            ordered = tuple(sorted(forms, key=lambda form: (-len(form), form)))
            self._forms_bytes = tuple(form.encode("utf-8", "surrogatepass") for form in ordered)
            self._forms = ordered
            self._known = known

    def add_headers(self, headers: Mapping[str, str], *, every_value: bool = False) -> None:
        """Learn the credentials among ``headers`` (all values with ``every_value``, for configured ones)."""
        values: list[str] = []
        for name, value in headers.items():
            if every_value or name.lower() in SENSITIVE_HEADERS:
                values.append(value)
                scheme, _, credential = value.partition(" ")
                if credential and scheme.isalpha():
                    values.append(credential.strip())
        self.add_all(values)

    def redact(self, text: str, *, is_cut: bool = False) -> str:
        """``text`` with every known secret (in any of its forms) replaced by ``[redacted]``.

        ``is_cut``: ``text`` was cut from a longer one, so it may end in the first characters of a secret;
        such a tail (:data:`MIN_SECRET_CHARS` or more of them) is redacted too.
        """
        forms = self._forms
        for form in forms:
            if form in text:
                text = text.replace(form, REDACTED)
        if is_cut:
            for form in forms:
                for size in range(min(len(form) - 1, len(text)), MIN_SECRET_CHARS - 1, -1):
                    if text.endswith(form[:size]):
                        return text[:-size] + REDACTED
        return text

    def redact_bytes(self, data: bytes) -> bytes:
        """The same, on raw bytes (for frames and pipes before they are decoded)."""
        replacement = REDACTED.encode()
        for form in self._forms_bytes:
            if form in data:
                data = data.replace(form, replacement)
        return data

    @property
    def secret_count(self) -> int:
        """How many secrets are known (not ``__len__``: an empty redactor must not be falsy)."""
        return len(self._known)
