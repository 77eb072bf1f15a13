"""environment_proxy: the environment's proxy for a URL, kept while the environment stays the same."""

from __future__ import annotations

import pytest

from mcp_troupe.actors.http_pool import environment_proxy

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)


@pytest.mark.timeout(10)
def test_every_change_of_the_environment_is_seen_on_the_next_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    url = "http://tools.example.com/mcp"
    assert environment_proxy(url) is None
    assert environment_proxy(url) is None  # answered from what was kept

    monkeypatch.setenv("HTTP_PROXY", "http://proxy.internal:3128")
    assert environment_proxy(url) == "http://proxy.internal:3128"
    assert environment_proxy("https://tools.example.com/mcp") is None  # https has no proxy set

    monkeypatch.setenv("NO_PROXY", "tools.example.com")
    assert environment_proxy(url) is None
    assert environment_proxy("http://other.example.com/mcp") == "http://proxy.internal:3128"

    monkeypatch.delenv("NO_PROXY")
    monkeypatch.setenv("ALL_PROXY", "socks5://all.internal:1080")
    assert environment_proxy("https://tools.example.com/mcp") == "socks5://all.internal:1080"
    monkeypatch.setenv("HTTP_PROXY", "http://replaced.internal:8080")
    assert environment_proxy(url) == "http://replaced.internal:8080"


@pytest.mark.timeout(10)
def test_hosts_are_told_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "http://proxy.internal:3128")
    monkeypatch.setenv("NO_PROXY", "a.example.com")
    assert environment_proxy("https://a.example.com/mcp") is None
    assert environment_proxy("https://b.example.com/mcp") == "http://proxy.internal:3128"
    assert environment_proxy("https://a.example.com:8443/other") is None
