"""The redactor: a connection's secrets never survive into text a server sent back."""

from __future__ import annotations

import json
from urllib.parse import quote

from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.policy.redaction import REDACTED, Redactor, looks_secret_env

TOKEN = "abc.DEF-123_456~xyz/+="


def test_a_configured_header_value_and_its_credential_part_are_redacted() -> None:
    redactor = Redactor.for_connection({"Authorization": f"Bearer {TOKEN}"}, {})
    assert redactor.redact(f"Authorization: Bearer {TOKEN}") == f"Authorization: {REDACTED}"
    assert redactor.redact(f"token={TOKEN}!") == f"token={REDACTED}!"


def test_json_escaped_and_percent_encoded_echoes_are_redacted() -> None:
    redactor = Redactor([TOKEN, 'quo"te\\secret'])
    assert TOKEN not in redactor.redact(json.dumps({"t": TOKEN}))
    assert quote(TOKEN, safe="") not in redactor.redact(f"?t={quote(TOKEN, safe='')}")
    assert "secret" not in redactor.redact(json.dumps({"v": 'quo"te\\secret'}))


def test_tokens_added_at_run_time_are_redacted_from_then_on() -> None:
    redactor = Redactor()
    assert redactor.redact(TOKEN) == TOKEN
    redactor.add_headers({"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"})
    assert redactor.redact(TOKEN) == REDACTED
    assert redactor.redact("application/json") == "application/json"  # not a credential header
    redactor.add("renewed-token-0001")
    assert redactor.redact("x renewed-token-0001 y") == f"x {REDACTED} y"


def test_short_values_are_not_redacted() -> None:
    redactor = Redactor(["on", "abc"])
    assert redactor.redact("on abc") == "on abc"
    assert redactor.secret_count == 0


def test_a_cut_text_ending_in_the_start_of_a_secret_loses_that_start() -> None:
    redactor = Redactor([TOKEN])
    assert redactor.redact("error: " + TOKEN[:9], is_cut=True) == f"error: {REDACTED}"
    assert redactor.redact("error: " + TOKEN[:9]) == "error: " + TOKEN[:9]


def test_bytes_are_redacted_too() -> None:
    assert Redactor([TOKEN]).redact_bytes(f'{{"t":"{TOKEN}"}}'.encode()) == b'{"t":"[redacted]"}'


def test_env_values_are_secrets_by_name_or_by_shape() -> None:
    assert looks_secret_env("GITHUB_TOKEN", "ghp_x")
    assert looks_secret_env("OPAQUE", "A1b2C3d4E5f6G7h8I9")
    assert not looks_secret_env("MODE", "production")
    assert not looks_secret_env("DATA_DIR", "/var/lib/some/long/path/here")
    assert not looks_secret_env("ENDPOINT", "https://example.invalid/api/v1")


_SAFE = st.text(alphabet="0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-_.", min_size=4, max_size=40)


@given(_SAFE, st.text(max_size=50), st.text(max_size=50), st.booleans())
def test_a_secret_never_survives_anywhere_in_the_text(
    secret: str, before: str, after: str, cut: bool
) -> None:
    redactor = Redactor([secret])
    text = redactor.redact(before + secret + after, is_cut=cut)
    assert secret not in text.replace(REDACTED, "\0")


@given(_SAFE, st.text(max_size=60), st.integers(min_value=0, max_value=80))
def test_a_cut_anywhere_leaves_no_four_character_start_of_the_secret_at_the_end(
    secret: str, before: str, cut: int
) -> None:
    text = (before + secret)[: len(before) + min(cut, len(secret))]
    redacted = Redactor([secret]).redact(text, is_cut=True)
    tail = redacted.replace(REDACTED, "\0")
    assert not any(tail.endswith(secret[:size]) for size in range(4, len(secret) + 1))
