"""What a stdio server inherits of our environment (actors/stdio.py ``server_environment``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.actors.stdio import INHERITED_ENVIRONMENT, server_environment


def test_the_safe_subset_and_the_locale_are_inherited_and_secrets_are_not() -> None:
    parent = {
        "PATH": "/usr/bin",
        "HOME": "/home/agent",
        "LC_ALL": "C.UTF-8",
        "LC_TIME": "en_GB.UTF-8",
        "OPENAI_API_KEY": "sk-secret",
        "GITHUB_TOKEN": "ghp_secret",
        "XLC_FAKE": "no",
    }

    env = server_environment({}, parent)

    assert env == {"PATH": "/usr/bin", "HOME": "/home/agent", "LC_ALL": "C.UTF-8", "LC_TIME": "en_GB.UTF-8"}


def test_the_configured_env_wins_over_what_is_inherited() -> None:
    env = server_environment(
        {"PATH": "/opt/bin", "API_KEY": "given"}, {"PATH": "/usr/bin", "API_KEY": "ours"}
    )

    assert env == {"PATH": "/opt/bin", "API_KEY": "given"}


def test_the_process_environment_is_the_default_parent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_MESSAGES", "fr_FR.UTF-8")
    monkeypatch.setenv("MCP_TROUPE_TEST_SECRET", "hidden")
    monkeypatch.setenv("TZ", "UTC")

    env = server_environment({})

    assert env["LC_MESSAGES"] == "fr_FR.UTF-8" and env["TZ"] == "UTC"
    assert "MCP_TROUPE_TEST_SECRET" not in env


@given(
    st.dictionaries(
        st.one_of(st.sampled_from(INHERITED_ENVIRONMENT), st.text(min_size=1, max_size=12)),
        st.text(max_size=8),
        max_size=30,
    )
)
def test_exactly_the_listed_names_and_lc_variables_pass(parent: dict[str, str]) -> None:
    env = server_environment({}, parent)

    assert env == {
        key: value for key, value in parent.items() if key in INHERITED_ENVIRONMENT or key.startswith("LC_")
    }
