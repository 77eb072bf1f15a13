"""The configuration loader: YAML in, frozen dataclasses out, every problem reported with its key path."""

from __future__ import annotations

import dataclasses
import re
import tempfile
import textwrap
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_troupe.config import (
    ReconnectPolicy,
    ServerConfig,
    TroupeConfig,
    load_config,
    parse_config,
    stdio_server,
)
from mcp_troupe.errors import ConfigError

DOCS = Path(__file__).resolve().parents[2] / "docs"

SECRET = "s3cr3t-value-never-shown"


def write(tmp_path: Path, text: str) -> Path:
    """Write ``text`` (dedented) to ``troupe.yaml`` under ``tmp_path`` and return its path."""
    path = tmp_path / "troupe.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def problems_of(data: object, environ: dict[str, str] | None = None) -> tuple[tuple[str, str], ...]:
    """Return the problems ``parse_config`` reports for ``data`` (failing if it reports none)."""
    with pytest.raises(ConfigError) as caught:
        parse_config(data, environ=environ or {})
    return caught.value.problems


def servers(**entries: object) -> dict[str, object]:
    """Wrap server entries in the ``tools.mcp_servers`` section."""
    return {"tools": {"mcp_servers": entries}}


def one_problem(data: object, environ: dict[str, str] | None = None) -> tuple[str, str]:
    """Return the single problem ``parse_config`` reports for ``data``."""
    (problem,) = problems_of(data, environ)
    return problem


# --- valid configurations -------------------------------------------------------------------------------

FULL = """\
tools:
  mcp:
    enabled: false
    reconnect: {initial_delay: 0.5, max_delay: 8, max_attempts: 0}
  mcp_servers:
    fs:
      command: python
      args: ["-m", "fs_server", "--root", "/data"]
      env: {API_KEY: "${FS_KEY}", MODE: ro}
      cwd: /srv
      enabled: false
      timeout: 30
      connect_timeout: 5.5
    web.search:
      url: https://example.com:8443/mcp
      headers: {Authorization: "Bearer $TOKEN"}
"""


def test_a_full_config_loads_into_the_dataclasses_in_file_order(tmp_path: Path) -> None:
    path = write(tmp_path, FULL)

    config = load_config(path, environ={"FS_KEY": "key-1", "TOKEN": "token-1"})

    assert config == TroupeConfig(
        servers={
            "fs": ServerConfig(
                name="fs",
                command="python",
                args=("-m", "fs_server", "--root", "/data"),
                env={"API_KEY": "key-1", "MODE": "ro"},
                cwd="/srv",
                enabled=False,
                timeout=30.0,
                connect_timeout=5.5,
            ),
            "web.search": ServerConfig(
                name="web.search",
                url="https://example.com:8443/mcp",
                headers={"Authorization": "Bearer token-1"},
            ),
        },
        mcp_enabled=False,
        reconnect=ReconnectPolicy(initial_delay=0.5, max_delay=8.0, max_attempts=0),
        source=str(path),
    )
    assert list(config.servers) == ["fs", "web.search"]
    assert [s.transport for s in config.servers.values()] == ["stdio", "http"]
    assert isinstance(config.servers["fs"].timeout, float)


def test_defaults_fill_every_optional_key() -> None:
    config = parse_config(servers(fs={"command": "fs-server"}), environ={})

    assert config.mcp_enabled is True
    assert config.reconnect == ReconnectPolicy(initial_delay=1.0, max_delay=16.0, max_attempts=5)
    assert config.servers["fs"] == ServerConfig(name="fs", command="fs-server")
    assert (config.servers["fs"].timeout, config.servers["fs"].connect_timeout) == (120.0, 60.0)
    assert config.source == "<config>"


@pytest.mark.parametrize("text", ["", "# only a comment\n", "tools:\n", "tools:\n  mcp:\n  mcp_servers:\n"])
def test_an_empty_file_or_empty_sections_give_a_config_with_no_servers(tmp_path: Path, text: str) -> None:
    config = load_config(write(tmp_path, text), environ={})

    assert dict(config.servers) == {}
    assert config.mcp_enabled is True


def test_the_master_switch_off_still_validates_the_servers() -> None:
    data = {"tools": {"mcp": {"enabled": False}, "mcp_servers": {"fs": {"timeout": 0, "command": "x"}}}}

    assert one_problem(data) == ("tools.mcp_servers.fs.timeout", "must be greater than 0, got integer 0")


def test_a_whole_number_of_attempts_written_as_a_decimal_is_accepted() -> None:
    config = parse_config({"tools": {"mcp": {"reconnect": {"max_attempts": 3.0}}}}, environ={})

    assert config.reconnect.max_attempts == 3
    assert isinstance(config.reconnect.max_attempts, int)


def test_load_config_takes_a_path_object_or_a_string(tmp_path: Path) -> None:
    path = write(tmp_path, "tools:\n  mcp_servers:\n    fs: {command: x}\n")

    assert load_config(path, environ={}) == load_config(str(path), environ={})


# --- command xor url, and the keys of each kind -----------------------------------------------------------


@pytest.mark.parametrize(
    ("server", "message"),
    [
        (
            {"command": "x", "url": "https://h/"},
            "has both 'command' and 'url': use 'command' for a stdio server or 'url' for an HTTP server",
        ),
        ({"timeout": 5}, "needs 'command' (a stdio server) or 'url' (an HTTP server)"),
        ({}, "needs 'command' (a stdio server) or 'url' (an HTTP server)"),
    ],
    ids=["both", "neither", "empty"],
)
def test_a_server_needs_exactly_one_of_command_and_url(server: dict[str, object], message: str) -> None:
    assert one_problem(servers(x=server)) == ("tools.mcp_servers.x", message)


@pytest.mark.parametrize(
    ("server", "key"),
    [
        ({"url": "https://h/", "args": ["a"]}, "args"),
        ({"url": "https://h/", "env": {"A": "b"}}, "env"),
        ({"url": "https://h/", "cwd": "/tmp"}, "cwd"),
        ({"command": "x", "headers": {"A": "b"}}, "headers"),
    ],
)
def test_keys_of_the_other_kind_of_server_are_errors(server: dict[str, object], key: str) -> None:
    path, message = one_problem(servers(x=server))

    assert path == f"tools.mcp_servers.x.{key}"
    assert "is only valid with" in message


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("ftp://example.com/mcp", "must be an http:// or https:// URL, got 'ftp:'"),
        ("example.com/mcp", "must be an http:// or https:// URL"),
        ("https:///mcp", "must name a host: http://HOST[:PORT]/PATH or https://HOST[:PORT]/PATH"),
        ("http://exa mple.com/", "must not contain spaces or control characters"),
        ("http://[::1/mcp", "is not a valid URL"),
        ("http://example.com:99999/", "is not a valid URL"),
        ("", "must not be empty"),
    ],
)
def test_a_url_must_be_http_or_https_with_a_host(url: str, message: str) -> None:
    assert one_problem(servers(x={"url": url})) == ("tools.mcp_servers.x.url", message)


@pytest.mark.parametrize("url", ["http://localhost:8000/mcp", "https://EXAMPLE.com", "http://[::1]:9/mcp"])
def test_a_valid_url_makes_an_http_server(url: str) -> None:
    server = parse_config(servers(x={"url": url}), environ={}).servers["x"]

    assert (server.transport, server.url, server.command) == ("http", url, None)


def test_a_url_error_does_not_repeat_the_url() -> None:
    _, message = one_problem(servers(x={"url": f"ftp://user:{SECRET}@host/"}))

    assert SECRET not in message


# --- server names ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "path"),
    [
        ("my server", 'tools.mcp_servers["my server"]'),
        ("a/b", 'tools.mcp_servers["a/b"]'),
        ("", 'tools.mcp_servers[""]'),
        ("naïve", 'tools.mcp_servers["naïve"]'),
        ("fs\n", 'tools.mcp_servers["fs\\n"]'),
        ("x" * 65, "tools.mcp_servers." + "x" * 65),
    ],
)
def test_a_bad_server_name_is_an_error_naming_the_key(name: str, path: str) -> None:
    problem_path, message = one_problem(servers(**{name: {"command": "x"}}))

    assert problem_path == path
    assert message.startswith(f"invalid server name {name!r}: use 1 to 64 letters, digits")


@pytest.mark.parametrize("name", ["fs", "Web.Search-2", "a_b", "x" * 64, "1", "..."])
def test_a_name_of_letters_digits_dots_dashes_and_underscores_is_accepted(name: str) -> None:
    assert list(parse_config(servers(**{name: {"command": "x"}}), environ={}).servers) == [name]


def test_names_that_collide_once_dots_become_underscores_are_an_error() -> None:
    data = servers(**{"a.b": {"command": "x"}, "c": {"command": "x"}, "a_b": {"command": "y"}})

    assert one_problem(data) == (
        "tools.mcp_servers.a_b",
        "server name 'a_b' collides with 'a.b': both name tools mcp__a_b__*",
    )


@pytest.mark.parametrize(
    ("key", "path", "message"),
    [
        (1, "1", "keys must be strings, got integer 1 (quote it)"),
        (True, "true", "keys must be strings, got boolean true (quote it)"),
        (None, "null", "keys must be strings, got null (quote it)"),
        (2.5, "2.5", "keys must be strings, got number 2.5 (quote it)"),
    ],
)
def test_a_key_that_is_not_a_string_is_an_error(key: object, path: str, message: str) -> None:
    assert one_problem({key: "x"}) == (path, message)


def test_a_numeric_server_name_must_be_quoted() -> None:
    assert one_problem({"tools": {"mcp_servers": {123: {"command": "x"}}}}) == (
        "tools.mcp_servers.123",
        "keys must be strings, got integer 123 (quote it)",
    )


# --- environment variables ------------------------------------------------------------------------------

ENVIRON = {"TOKEN": "tok", "USER_NAME": "ada", "EMPTY": ""}


@pytest.mark.parametrize(
    ("written", "expanded"),
    [
        ("${TOKEN}", "tok"),
        ("$TOKEN", "tok"),
        ("Bearer ${TOKEN}!", "Bearer tok!"),
        ("$USER_NAME/$TOKEN", "ada/tok"),
        ("${USER_NAME}_x", "ada_x"),
        ("$$", "$"),
        ("$$TOKEN", "$TOKEN"),
        ("$${TOKEN}", "${TOKEN}"),
        ("$$$TOKEN", "$tok"),
        ("a${EMPTY}b", "ab"),
        ("no variables", "no variables"),
        ("", ""),
    ],
)
def test_variables_expand_in_env_and_header_values(written: str, expanded: str) -> None:
    data = servers(
        s={"command": "x", "env": {"V": written}}, h={"url": "https://h/", "headers": {"V": written}}
    )

    config = parse_config(data, environ=ENVIRON)

    assert config.servers["s"].env == {"V": expanded}
    assert config.servers["h"].headers == {"V": expanded}


def test_variables_come_from_the_process_environment_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TROUPE_TEST_TOKEN", "from-os")

    config = parse_config(servers(s={"command": "x", "env": {"K": "${TROUPE_TEST_TOKEN}"}}))

    assert config.servers["s"].env == {"K": "from-os"}


def test_keys_and_other_values_are_not_expanded() -> None:
    data = servers(s={"command": "$TOKEN", "args": ["${TOKEN}"], "cwd": "$TOKEN", "env": {"$TOKEN": "x"}})

    server = parse_config(data, environ=ENVIRON).servers["s"]

    assert (server.command, server.args, server.cwd, dict(server.env)) == (
        "$TOKEN",
        ("${TOKEN}",),
        "$TOKEN",
        {"$TOKEN": "x"},
    )


@pytest.mark.parametrize("written", ["${MY_API_KEY}", "$MY_API_KEY", "prefix-${MY_API_KEY}-suffix"])
def test_an_unset_variable_is_an_error_naming_the_variable_and_the_key_path(written: str) -> None:
    data = servers(gh={"command": "gh-mcp", "env": {"API_KEY": written}})

    assert one_problem(data) == (
        "tools.mcp_servers.gh.env.API_KEY",
        "environment variable MY_API_KEY is not set",
    )


def test_an_unset_variable_in_a_header_is_an_error_too() -> None:
    data = servers(web={"url": "https://h/", "headers": {"Authorization": "Bearer ${TOKEN}"}})

    assert one_problem(data) == (
        "tools.mcp_servers.web.headers.Authorization",
        "environment variable TOKEN is not set",
    )


def test_a_disabled_server_still_needs_its_variables() -> None:
    data = servers(gh={"command": "gh-mcp", "enabled": False, "env": {"K": "${MISSING}"}})

    assert one_problem(data) == ("tools.mcp_servers.gh.env.K", "environment variable MISSING is not set")


@pytest.mark.parametrize("written", ["cost: 5$", "${1BAD}", "${UNCLOSED", "${TOKEN:-default}", "$ x", "${}"])
def test_a_dollar_that_starts_no_variable_is_an_error_that_does_not_show_the_value(written: str) -> None:
    path, message = one_problem(servers(s={"command": "x", "env": {"K": SECRET + written}}), ENVIRON)

    assert path == "tools.mcp_servers.s.env.K"
    assert message.startswith("has a '$' that starts no variable")
    assert SECRET not in message


def test_errors_never_show_the_values_of_other_expanded_variables(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
        tools:
          mcp_servers:
            gh:
              command: gh-mcp
              env: {GOOD: "${SET_SECRET}", LITERAL: "literal-secret", BAD: "${UNSET}"}
              timeout: -1
            web:
              url: https://h/
              headers: {Authorization: "Bearer $SET_SECRET", Bad: 5}
        """,
    )

    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={"SET_SECRET": SECRET})

    text = str(caught.value) + repr(caught.value.problems)
    assert "environment variable UNSET is not set" in text
    assert SECRET not in text
    assert "literal-secret" not in text


def test_the_repr_of_a_server_hides_env_and_headers() -> None:
    config = parse_config(
        servers(
            s={"command": "x", "env": {"K": "${SECRET}"}},
            h={"url": "https://h/", "headers": {"Authorization": "Bearer ${SECRET}"}},
        ),
        environ={"SECRET": SECRET},
    )

    assert config.servers["s"].env["K"] == SECRET
    assert SECRET not in repr(config)
    assert SECRET not in repr(config.servers["h"])


@pytest.mark.parametrize(
    ("value", "kind"), [(8080, "integer"), (1.5, "number"), (True, "boolean"), (None, "null")]
)
def test_env_values_must_be_strings_and_the_error_does_not_show_them(value: object, kind: str) -> None:
    path, message = one_problem(servers(s={"command": "x", "env": {"PORT": value}}))

    assert path == "tools.mcp_servers.s.env.PORT"
    assert message.startswith(f"expected a string, got {kind}")
    assert str(value) not in message.replace(kind, "")


@pytest.mark.parametrize(
    ("server", "path", "message"),
    [
        (
            {"url": "https://h/", "headers": {"X": "a${NL}b"}},
            "tools.mcp_servers.s.headers.X",
            "must not contain line breaks or NUL characters (after expansion)",
        ),
        (
            {"url": "https://h/", "headers": {"Bad Name": "v"}},
            'tools.mcp_servers.s.headers["Bad Name"]',
            None,
        ),
        ({"command": "x", "env": {"A=B": "v"}}, 'tools.mcp_servers.s.env["A=B"]', None),
        ({"command": "x", "env": {"": "v"}}, 'tools.mcp_servers.s.env[""]', None),
        (
            {"command": "x", "env": {"A": "a\0b"}},
            "tools.mcp_servers.s.env.A",
            "must not contain a NUL character",
        ),
    ],
)
def test_header_and_env_entries_must_be_sendable(
    server: dict[str, object], path: str, message: str | None
) -> None:
    problem_path, problem_message = one_problem(servers(s=server), {"NL": "\r\nX-Injected: 1"})

    assert problem_path == path
    assert message is None or problem_message == message


# --- unknown keys ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "path", "suggestion"),
    [
        (servers(x={"comand": "python"}), "tools.mcp_servers.x.comand", "did you mean 'command'?"),
        ({"tools": {"mcp_server": {}}}, "tools.mcp_server", "did you mean 'mcp_servers'?"),
        (servers(x={"command": "c", "timout": 5}), "tools.mcp_servers.x.timout", "did you mean 'timeout'?"),
        ({"tools": {"mcp": {"reconect": {}}}}, "tools.mcp.reconect", "did you mean 'reconnect'?"),
        ({"tool": {}}, "tool", "did you mean 'tools'?"),
        (
            {"tools": {"mcp": {"reconnect": {"max_attempt": 1}}}},
            "tools.mcp.reconnect.max_attempt",
            "'max_attempts'",
        ),
    ],
)
def test_an_unknown_key_suggests_the_closest_valid_key(data: object, path: str, suggestion: str) -> None:
    problem_path, message = one_problem(data)

    assert problem_path == path
    assert message.startswith(f"unknown key {path.rsplit('.', 1)[-1]!r}")
    assert suggestion in message


def test_a_valid_key_in_the_wrong_place_says_where_it_belongs() -> None:
    assert one_problem({"mcp_servers": {}}) == (
        "mcp_servers",
        "unknown key 'mcp_servers' here; it belongs under tools",
    )


def test_an_unknown_key_without_a_close_match_lists_the_valid_keys() -> None:
    _, message = one_problem({"tools": {"mcp": {"zzz": 1}}})

    assert (
        message
        == "unknown key 'zzz'; valid keys are 'control_socket', 'enabled', 'limits', 'max_output_chars', "
        "'reconnect', 'tool_search'"
    )


# --- every problem at once, with key paths --------------------------------------------------------------


def test_every_problem_is_reported_at_once_in_file_order(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
        tools:
          mcp:
            reconnect: {max_attempts: -1}
          mcp_servers:
            first:
              command: python
              args: ["-m", 5]
            second:
              url: https://h/
              timeout: "abc"
            third:
              comand: x
        """,
    )

    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={})

    error = caught.value
    assert error.problems == (
        ("tools.mcp.reconnect.max_attempts", "must be at least 0, got integer -1"),
        ("tools.mcp_servers.first.args[1]", "expected a string, got integer 5 (quote it)"),
        ("tools.mcp_servers.second.timeout", "expected a number, got string 'abc'"),
        ("tools.mcp_servers.third.comand", "unknown key 'comand'; did you mean 'command'?"),
    )
    assert error.source == str(path)
    assert error.path == "tools.mcp.reconnect.max_attempts"
    assert str(error).startswith(f"{path}: 4 problems:\n  tools.mcp.reconnect.max_attempts: ")


def test_a_problem_found_twice_is_reported_once() -> None:
    data = servers(s={"command": "x", "env": {"K": "${A}-${A}"}})

    assert problems_of(data) == (("tools.mcp_servers.s.env.K", "environment variable A is not set"),)


@pytest.mark.parametrize(
    ("server", "path", "message"),
    [
        ({"command": "x", "timeout": "abc"}, "timeout", "expected a number, got string 'abc'"),
        ({"command": "x", "args": ["a", 5]}, "args[1]", "expected a string, got integer 5 (quote it)"),
        ({"command": "x", "args": "-m x"}, "args", "expected a list, got string '-m x'"),
        ({"command": 5}, "command", "expected a string, got integer 5 (quote it)"),
        ({"command": ""}, "command", "must not be empty"),
        ({"command": None}, "command", "expected a string, got null"),
        ({"command": "x", "cwd": ["/a"]}, "cwd", "expected a string, got a list"),
        ({"command": "x", "env": ["A=b"]}, "env", "expected a mapping, got a list"),
        (
            {"command": "x", "enabled": "yes"},
            "enabled",
            "expected a boolean (true or false), got string 'yes'",
        ),
        (
            {"command": "x", "connect_timeout": -2.5},
            "connect_timeout",
            "must be greater than 0, got number -2.5",
        ),
    ],
)
def test_a_type_error_names_the_key_path_and_shows_a_plain_value(
    server: dict[str, object], path: str, message: str
) -> None:
    assert one_problem(servers(x=server)) == (f"tools.mcp_servers.x.{path}", message)


@pytest.mark.parametrize(
    ("data", "path"),
    [
        (servers(x={"command": "c", "timeout": True}), "tools.mcp_servers.x.timeout"),
        (servers(x={"command": "c", "connect_timeout": False}), "tools.mcp_servers.x.connect_timeout"),
        ({"tools": {"mcp": {"reconnect": {"initial_delay": True}}}}, "tools.mcp.reconnect.initial_delay"),
    ],
)
def test_booleans_are_not_numbers(data: object, path: str) -> None:
    problem_path, message = one_problem(data)

    assert problem_path == path
    assert message.startswith("expected a number, got boolean")


@pytest.mark.parametrize(
    ("server", "key"),
    [({"command": "c", "timeout": 10**400}, "timeout"), ({"command": 10**5000}, "command")],
    ids=["401-digits", "5001-digits"],
)
def test_an_integer_beyond_float_range_is_too_large_and_not_printed(
    server: dict[str, object], key: str
) -> None:
    assert one_problem(servers(x=server)) == (
        f"tools.mcp_servers.x.{key}",
        "is too large: an integer beyond 1.8e308",
    )


def test_a_large_integer_in_a_message_is_described_not_printed() -> None:
    assert one_problem(servers(x={"command": 2**100})) == (
        "tools.mcp_servers.x.command",
        "expected a string, got a very large integer (quote it)",
    )


def test_booleans_are_not_integers_either() -> None:
    assert one_problem({"tools": {"mcp": {"reconnect": {"max_attempts": True}}}}) == (
        "tools.mcp.reconnect.max_attempts",
        "expected an integer, got boolean true",
    )


@pytest.mark.parametrize("value", [float("inf"), float("nan")])
def test_seconds_must_be_finite(value: object) -> None:
    path, message = one_problem(servers(x={"command": "c", "timeout": value}))

    assert path == "tools.mcp_servers.x.timeout"
    assert message.startswith("must be a finite number")


@pytest.mark.parametrize("data", [[], "tools", 5])
def test_the_top_level_must_be_a_mapping(data: object) -> None:
    path, message = one_problem(data)

    assert path == ""
    assert message.startswith("the configuration must be a mapping with a 'tools' key, got ")


@pytest.mark.parametrize("section", [{"tools": []}, {"tools": {"mcp_servers": ["fs"]}}, servers(fs="python")])
def test_a_section_that_is_not_a_mapping_is_an_error(section: object) -> None:
    _, message = one_problem(section)

    assert message.startswith("expected a mapping, got")


# --- reconnect ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reconnect", "path", "message"),
    [
        ({"initial_delay": 0}, "initial_delay", "must be greater than 0, got integer 0"),
        ({"max_delay": -1}, "max_delay", "must be greater than 0, got integer -1"),
        ({"initial_delay": 4, "max_delay": 2}, "max_delay", "must be at least initial_delay (4), got 2"),
        ({"max_delay": 0.5}, "max_delay", "must be at least initial_delay (1, the default), got 0.5"),
        ({"max_attempts": -1}, "max_attempts", "must be at least 0, got integer -1"),
        ({"max_attempts": 1.5}, "max_attempts", "expected an integer, got number 1.5"),
        ({"initial_delay": float("nan")}, "initial_delay", "must be a finite number, got number nan"),
        ({"max_delay": float("inf")}, "max_delay", "must be a finite number, got number inf"),
    ],
)
def test_the_reconnect_policy_is_validated(reconnect: dict[str, object], path: str, message: str) -> None:
    data = {"tools": {"mcp": {"reconnect": reconnect}}}

    assert one_problem(data) == (f"tools.mcp.reconnect.{path}", message)


def test_an_equal_initial_and_max_delay_is_valid() -> None:
    config = parse_config({"tools": {"mcp": {"reconnect": {"initial_delay": 2, "max_delay": 2}}}}, environ={})

    assert config.reconnect == ReconnectPolicy(initial_delay=2.0, max_delay=2.0, max_attempts=5)


# --- the YAML itself ------------------------------------------------------------------------------------


def test_a_missing_file_is_a_config_error_naming_the_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.yaml"

    with pytest.raises(ConfigError) as caught:
        load_config(missing)

    assert caught.value.source == str(missing)
    assert str(caught.value) == f"{missing}: configuration file not found"
    assert isinstance(caught.value.__cause__, FileNotFoundError)


def test_a_directory_is_not_a_config_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="is a directory"):
        load_config(tmp_path)


def test_a_yaml_syntax_error_gives_its_line_and_column_without_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, f"tools:\n  mcp_servers:\n    x: {{command: {SECRET}\n  y: 1\n")

    with pytest.raises(ConfigError) as caught:
        load_config(path)

    message = str(caught.value)
    assert re.search(r"invalid YAML at line 4, column \d+: ", message)
    assert SECRET not in message


@pytest.mark.parametrize(
    ("text", "line"),
    [("a: 2024-13-45\n", 1), ("tools:\n  mcp: {enabled: !!bool maybe}\n", 2), ("x: !!int abc\n", 1)],
)
def test_a_value_yaml_cannot_convert_is_a_config_error_with_its_line(
    tmp_path: Path, text: str, line: int
) -> None:
    with pytest.raises(
        ConfigError, match=rf"invalid YAML at line {line}, column \d+: cannot read this value"
    ):
        load_config(write(tmp_path, text))


@pytest.mark.parametrize(
    ("content", "reason"),
    [(b'x: "a\x01b"\n', "special characters are not allowed"), (b"x: \xff\xfe\n", "invalid start byte")],
)
def test_a_file_that_is_not_yaml_text_is_a_config_error(tmp_path: Path, content: bytes, reason: str) -> None:
    path = tmp_path / "troupe.yaml"
    path.write_bytes(content)

    with pytest.raises(ConfigError, match=f"invalid YAML: {reason} at character"):
        load_config(path)


def test_two_documents_in_one_file_are_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="invalid YAML at line 2"):
        load_config(write(tmp_path, "tools: {}\n---\ntools: {}\n"))


def test_duplicate_keys_are_errors_with_the_key_path_and_lines(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        """\
        tools:
          mcp_servers:
            fs:
              command: python
              command: python3
            fs:
              url: https://h/
        """,
    )

    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={})

    assert caught.value.problems == (
        ("tools.mcp_servers.fs.command", "duplicate key on line 5 (first on line 4)"),
        ("tools.mcp_servers.fs", "duplicate key on line 6 (first on line 3)"),
    )


def test_merged_keys_may_be_overridden_without_counting_as_duplicates(tmp_path: Path) -> None:
    text = """\
    tools:
      mcp_servers:
        base: &base {command: python, timeout: 30}
        fast:
          <<: *base
          timeout: 5
    """
    path = write(tmp_path, text)

    config = load_config(path, environ={})

    assert (config.servers["fast"].command, config.servers["fast"].timeout) == ("python", 5.0)


def test_a_recursive_alias_is_a_config_error(tmp_path: Path) -> None:
    path = write(tmp_path, "tools: &t\n  mcp_servers:\n    x: {command: c, args: *t}\n")

    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={})

    assert caught.value.problems == (("tools.mcp_servers.x.args", "expected a list, got a mapping"),)


def test_an_alias_bomb_is_stopped(tmp_path: Path) -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]" for i in range(1, 8)]
    path = write(tmp_path, "\n".join(lines) + "\n")

    with pytest.raises(ConfigError, match="more than 100000 values"):
        load_config(path, environ={})


# --- configs built in code ------------------------------------------------------------------------------


def test_stdio_server_builds_a_stdio_server_config() -> None:
    server = stdio_server("fs", "python", "-m", "fs_server", env={"K": "$NOT_EXPANDED"}, timeout=5, cwd="/d")

    assert server == ServerConfig(
        name="fs",
        command="python",
        args=("-m", "fs_server"),
        env={"K": "$NOT_EXPANDED"},
        cwd="/d",
        timeout=5.0,
    )
    assert server.transport == "stdio"


@pytest.mark.parametrize(
    ("arguments", "keywords", "path"),
    [
        (("my server", "python"), {}, "name"),
        (("fs\n", "python"), {}, "name"),
        (("fs", ""), {}, "command"),
        (("fs", "python"), {"timeout": 0}, "timeout"),
        (("fs", "python"), {"connect_timeout": float("nan")}, "connect_timeout"),
        (("fs", "python"), {"timeout": True}, "timeout"),
    ],
)
def test_stdio_server_rejects_what_a_file_could_not_hold(
    arguments: tuple[str, str], keywords: dict[str, Any], path: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        stdio_server(*arguments, **keywords)

    assert caught.value.path == path
    assert caught.value.source == "stdio_server()"


def test_configs_built_in_code_are_frozen_copies() -> None:
    env = {"K": "v"}
    server = ServerConfig(name="fs", command="x", args=["a"], env=env)  # type: ignore[arg-type]
    config = TroupeConfig(servers={"fs": server})
    env["K"] = "changed"

    assert server.args == ("a",)
    assert server.env == {"K": "v"}
    assert isinstance(server.env, types.MappingProxyType)
    assert isinstance(config.servers, types.MappingProxyType)
    with pytest.raises(dataclasses.FrozenInstanceError):
        server.timeout = 1.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        config.servers["other"] = server  # type: ignore[index]
    with pytest.raises(TypeError):
        server.env["K"] = "x"  # type: ignore[index]


def test_an_empty_troupe_config_is_usable() -> None:
    config = TroupeConfig()

    assert (dict(config.servers), config.mcp_enabled, config.reconnect, config.source) == (
        {},
        True,
        ReconnectPolicy(),
        "<config>",
    )


# --- the documented example -----------------------------------------------------------------------------


def test_the_documented_example_loads_with_an_empty_environment() -> None:
    # Out of the box: no variable to set, not even for the disabled server (issue 17).
    config = load_config(DOCS / "examples" / "troupe.yaml", environ={})

    demo, search = config.servers["demo"], config.servers["search"]
    assert (demo.transport, demo.command, demo.args) == ("stdio", "python", ("-m", "mcp_troupe.demo"))
    assert (search.transport, search.enabled, search.auth) == ("http", False, "oauth")


def test_the_example_in_the_configuration_guide_is_the_example_file() -> None:
    guide = (DOCS / "configuration.md").read_text(encoding="utf-8")
    section = guide.split("## A complete example", 1)[1]
    block = re.search(r"```yaml\n(.*?)```", section, re.DOTALL)

    assert block is not None
    assert block.group(1) == (DOCS / "examples" / "troupe.yaml").read_text(encoding="utf-8")


# --- anything in, a config or a ConfigError out ---------------------------------------------------------

KNOWN_KEYS = st.sampled_from(
    [
        "tools",
        "mcp",
        "mcp_servers",
        "enabled",
        "reconnect",
        "initial_delay",
        "max_delay",
        "max_attempts",
        "command",
        "args",
        "env",
        "cwd",
        "url",
        "headers",
        "timeout",
        "connect_timeout",
        "fs",
        "a.b",
        "a_b",
    ]
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["${SET}", "$UNSET", "$$", "$", "https://h/x", "ftp://x", "python", "", 2**2000, 2**70])
)
YAML_DATA = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(KNOWN_KEYS | st.text(max_size=6) | st.integers() | st.none(), children, max_size=5)
    ),
    max_leaves=25,
)
NEAR_VALID = st.builds(
    lambda mcp, entries: {"tools": {"mcp": mcp, "mcp_servers": entries}},
    st.dictionaries(KNOWN_KEYS, YAML_DATA, max_size=3),
    st.dictionaries(
        KNOWN_KEYS | st.text(max_size=6), st.dictionaries(KNOWN_KEYS, YAML_DATA, max_size=6), max_size=3
    ),
)


@settings(max_examples=100, deadline=None)
@given(YAML_DATA | NEAR_VALID)
def test_any_yaml_data_gives_a_config_or_a_config_error(data: object) -> None:
    try:
        config = parse_config(data, environ={"SET": "value"})
    except ConfigError as error:
        assert error.problems
    else:
        assert isinstance(config, TroupeConfig)


def outcome(load: Callable[[], TroupeConfig]) -> object:
    """Return the config ``load`` returns, or the problems of the ConfigError it raises."""
    try:
        return load()
    except ConfigError as error:
        return error.problems


@settings(max_examples=50, deadline=None)
@given(YAML_DATA | NEAR_VALID)
def test_a_yaml_file_loads_like_the_data_it_holds(data: object) -> None:
    environ = {"SET": "value"}
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "troupe.yaml"
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")

        from_file = outcome(lambda: load_config(path, environ=environ))

    from_data = outcome(lambda: parse_config(data, source=str(path), environ=environ))
    assert from_file == from_data


# --- security, network, approval and OAuth settings ------------------------------------------------------


def test_security_network_and_approval_settings_are_read_with_safe_defaults() -> None:
    default = parse_config({"tools": {"mcp_servers": {}}})
    assert (default.security_policy, default.profile, default.allow) == ("block", "interactive", ())
    assert (default.network_policy, default.approval_mode) == ("deny", "ask")
    config = parse_config(
        {
            "tools": {
                "mcpSecurityPolicy": "warn",
                "profile": "daemon",
                "allow": ["mcp__github__*"],
                "mcp": {"max_output_chars": 5000, "control_socket": "/tmp/x.sock"},
            },
            "execution": {"networkPolicy": "allow"},
            "permissions": {"approval": {"mode": "deny"}},
        }
    )
    assert (config.security_policy, config.profile, config.allow) == ("warn", "daemon", ("mcp__github__*",))
    assert (config.network_policy, config.approval_mode) == ("allow", "deny")
    assert (config.max_output_chars, config.control_socket) == (5000, "/tmp/x.sock")


@pytest.mark.parametrize(
    ("data", "path", "fragment"),
    [
        ({"tools": {"profile": "public"}}, "tools.profile", "public_gateway"),
        ({"tools": {"mcpSecurityPolicy": "off"}}, "tools.mcpSecurityPolicy", "block"),
        ({"execution": {"networkPolicy": "maybe"}}, "execution.networkPolicy", "allow"),
        ({"permissions": {"approval": {"mode": "always"}}}, "permissions.approval.mode", "ask"),
        ({"permissions": {"aproval": {}}}, "permissions.aproval", "approval"),
    ],
)
def test_bad_policy_settings_name_their_key_and_the_choices(data: object, path: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(data)
    assert any(p == path and fragment in m for p, m in caught.value.problems), caught.value.problems


def test_per_server_trust_filters_and_frame_bound_are_read() -> None:
    config = parse_config(
        {
            "tools": {
                "mcp_servers": {
                    "fs": {
                        "command": "x",
                        "trust_level": "trusted",
                        "tools_include": ["read_*"],
                        "tools_exclude": ["read_secret"],
                        "max_frame_bytes": 4096,
                    },
                    "other": {"command": "y"},
                }
            }
        }
    )
    fs, other = config.servers["fs"], config.servers["other"]
    assert (fs.trust_level, fs.tools_include, fs.tools_exclude, fs.max_frame_bytes) == (
        "trusted", ("read_*",), ("read_secret",), 4096,
    )  # fmt: skip
    assert (other.trust_level, other.tools_include, other.tools_exclude) == ("untrusted", None, ())


def test_oauth_settings_need_an_http_server_and_hide_the_expanded_secret() -> None:
    config = parse_config(
        {
            "tools": {
                "mcp_servers": {
                    "remote": {
                        "url": "https://mcp.example.com/mcp",
                        "auth": "oauth",
                        "oauth": {"client_id": "abc", "client_secret": "${SECRET}", "scopes": ["mcp:read"]},
                    },
                    "plain": {"url": "https://mcp.example.com/other", "auth": "oauth"},
                }
            }
        },
        environ={"SECRET": "s3cr3t-value"},
    )
    oauth = config.servers["remote"].oauth
    assert oauth is not None
    assert (oauth.client_id, oauth.client_secret, oauth.scopes) == ("abc", "s3cr3t-value", ("mcp:read",))
    assert "s3cr3t-value" not in repr(config)
    assert config.servers["plain"].oauth is not None  # auth: oauth alone means "discover everything"


@pytest.mark.parametrize(
    ("server", "path", "fragment"),
    [
        ({"command": "x", "auth": "oauth"}, "tools.mcp_servers.s.auth", "only valid with 'url'"),
        ({"url": "https://h/mcp", "oauth": {"client_id": "a"}}, "tools.mcp_servers.s.oauth", 'auth: "oauth"'),
        (
            {"url": "https://h/mcp", "auth": "oauth", "oauth": {"client_metadata_url": "http://h/c.json"}},
            "tools.mcp_servers.s.oauth.client_metadata_url",
            "https://",
        ),
        ({"url": "https://h/mcp", "auth": "oauth", "oauth": {"redirect_port": 70000}}, None, "65535"),
        ({"command": "x", "max_frame_bytes": 10}, "tools.mcp_servers.s.max_frame_bytes", "1024"),
        ({"command": "x", "trust_level": "maybe"}, "tools.mcp_servers.s.trust_level", "trusted"),
    ],
)
def test_bad_server_security_settings_are_reported_with_their_key_path(
    server: dict[str, object], path: str | None, fragment: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config({"tools": {"mcp_servers": {"s": server}}})
    assert any((path is None or p == path) and fragment in m for p, m in caught.value.problems), (
        caught.value.problems
    )


def test_an_unset_variable_in_the_client_secret_is_an_error_that_shows_no_value() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(
            {
                "tools": {
                    "mcp_servers": {
                        "r": {"url": "https://h/mcp", "auth": "oauth", "oauth": {"client_secret": "${NOPE}"}}
                    }
                }
            },
            environ={},
        )
    assert caught.value.problems == (
        ("tools.mcp_servers.r.oauth.client_secret", "environment variable NOPE is not set"),
    )


def test_catalog_limits_are_read_globally_and_per_server() -> None:
    config = parse_config(
        {
            "tools": {
                "mcp": {"limits": {"max_tools": 50, "max_schema_depth": 10}},
                "mcp_servers": {"a": {"command": "x", "limits": {"max_tools": 7}}, "b": {"command": "y"}},
            }
        }
    )
    assert (config.limits.max_tools, config.limits.max_schema_depth) == (50, 10)
    server_limits = config.servers["a"].limits
    assert server_limits is not None and (server_limits.max_tools, server_limits.max_schema_depth) == (7, 10)
    assert config.servers["b"].limits is None


def test_a_wrong_catalog_limit_names_its_key() -> None:
    assert one_problem({"tools": {"mcp": {"limits": {"max_pattern_chars": 0}}}}) == (
        "tools.mcp.limits.max_pattern_chars",
        "must be at least 1, got integer 0",
    )


def test_the_limits_example_in_the_configuration_guide_loads() -> None:
    guide = (DOCS / "configuration.md").read_text(encoding="utf-8")
    section = guide.split("#### `tools.mcp.limits`", 1)[1]
    block = re.search(r"```yaml\n(.*?)```", section, re.DOTALL)
    assert block is not None
    config = parse_config(yaml.safe_load(block.group(1)))
    gateway_limits = config.servers["gateway"].limits
    assert config.limits.max_tools == 2000
    assert gateway_limits is not None and gateway_limits.max_tools == 20000


def _oauth_server(oauth: dict[str, object]) -> dict[str, object]:
    return {"tools": {"mcp_servers": {"s": {"url": "https://h/mcp", "auth": "oauth", "oauth": oauth}}}}


def test_each_grant_reads_its_settings_and_hides_every_secret() -> None:
    environ = {"KEY": "-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----", "SECRET": "cs-9876"}
    config = parse_config(
        {
            "tools": {
                "mcp_servers": {
                    "cc": {
                        "url": "https://h/mcp",
                        "auth": "oauth",
                        "oauth": {
                            "grant": "client_credentials",
                            "client_id": "agent",
                            "private_key": "${KEY}",
                            "signing_algorithm": "ES256",
                            "dpop": "always",
                        },
                    },
                    "wif": {
                        "url": "https://h/wif",
                        "auth": "oauth",
                        "oauth": {"grant": "workload_identity", "assertion_file": "/var/run/token"},
                    },
                    "xaa": {
                        "url": "https://h/xaa",
                        "auth": "oauth",
                        "oauth": {
                            "grant": "enterprise",
                            "client_id": "xaa",
                            "client_secret": "${SECRET}",
                            "idp_token_endpoint": "https://idp.example.com/token",
                            "id_token_file": "/run/idp/id_token",
                        },
                    },
                }
            }
        },
        environ=environ,
    )
    cc, wif, xaa = (config.servers[name].oauth for name in ("cc", "wif", "xaa"))
    assert cc is not None and wif is not None and xaa is not None
    assert (cc.grant, cc.private_key, cc.signing_algorithm, cc.dpop) == (
        "client_credentials",
        environ["KEY"],
        "ES256",
        "always",
    )
    assert (wif.grant, wif.assertion_file) == ("workload_identity", "/var/run/token")
    assert (xaa.grant, xaa.client_secret, xaa.id_token_file) == ("enterprise", "cs-9876", "/run/idp/id_token")
    assert "MIIB" not in repr(config) and "cs-9876" not in repr(config)


@pytest.mark.parametrize(
    ("oauth", "key", "fragment"),
    [
        ({"grant": "client_credentials", "client_secret": "x"}, "client_id", "needs the client_id"),
        ({"grant": "client_credentials", "client_id": "a"}, "client_secret", "private_key"),
        ({"grant": "workload_identity"}, "assertion_file", "platform's JWT"),
        ({"grant": "enterprise", "client_id": "a", "id_token": "t"}, "idp_token_endpoint", "token endpoint"),
        (
            {"grant": "enterprise", "client_id": "a", "idp_token_endpoint": "https://i/t"},
            "id_token_file",
            "ID token",
        ),
        ({"grant": "password"}, "grant", "authorization_code"),
        ({"token_endpoint_auth_method": "private_key_jwt"}, "private_key", "private_key_file"),
        ({"token_endpoint_auth_method": "client_secret_post"}, "client_secret", "needs a client_secret"),
        (
            {"grant": "client_credentials", "client_id": "a", "private_key": "k", "private_key_file": "/k"},
            "private_key_file",
            "not both",
        ),
        (
            {"grant": "client_credentials", "client_id": "a", "client_secret": "x", "redirect_port": 8000},
            "redirect_port",
            "no user",
        ),
        ({"assertion_file": "/t"}, "assertion_file", "only used with grant: workload_identity"),
        ({"idp_client_id": "x"}, "idp_client_id", "only used with grant: enterprise"),
        ({"dpop": "sometimes"}, "dpop", "auto"),
        ({"signing_algorithm": "HS256"}, "signing_algorithm", "RS256"),
    ],
)
def test_a_grant_missing_what_it_needs_is_reported_at_the_key(
    oauth: dict[str, object], key: str, fragment: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(_oauth_server(oauth))
    path = f"tools.mcp_servers.s.oauth.{key}"
    assert any(p == path and fragment in m for p, m in caught.value.problems), caught.value.problems


def test_an_unset_variable_in_a_private_key_shows_no_value() -> None:
    with pytest.raises(ConfigError) as caught:
        parse_config(
            _oauth_server({"grant": "client_credentials", "client_id": "a", "private_key": "${PEM}"}),
            environ={},
        )
    assert (
        "tools.mcp_servers.s.oauth.private_key",
        "environment variable PEM is not set",
    ) in caught.value.problems
