"""Misuse of the public face fails at once, in the caller's thread, naming what was wrong, and the troupe
goes on serving (tests/unit/test_call_arguments_checked.py has the call's own name, arguments and timeout).

Before these checks: a handler that is not callable, ``roots="/tmp"`` or ``builtin_tools="read_file"`` were
taken silently (the first failed at the first request that needed it; the others became one entry per
character); ``io_loop="x"`` failed with AttributeError; a timeout of a control method given as a string
failed with ``'>' not supported between instances of 'str' and 'int'``; a call timeout of 1e300 raised
OverflowError *after* the call was sent; ``subscribe()`` on a stopped troupe returned a subscription
nothing would ever serve, and ``start()`` after ``stop()`` returned the stopped troupe as if started.
"""

from __future__ import annotations

import asyncio
import math
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from mcp_troupe import Troupe, TroupeConfig, adapters, load_config, parse_config
from mcp_troupe.config import ServerConfig, ToolSearchConfig, stdio_server
from mcp_troupe.errors import ConfigError, TroupeClosed
from mcp_troupe.types import ToolResult, ToolSpec

pytestmark = pytest.mark.timeout(60)

ECHO = "mcp__demo__echo"


def demo_config() -> TroupeConfig:
    demo = {"command": sys.executable, "args": ["-m", "mcp_troupe.demo"]}
    return parse_config(
        {"tools": {"mcp_servers": {"demo": demo}}, "permissions": {"approval": {"mode": "auto"}}}
    )


@pytest.fixture(scope="module")
def troupe() -> Iterator[Troupe]:
    with Troupe(demo_config()) as started:
        assert started.wait_ready(timeout=30)
        yield started


def still_serving(troupe: Troupe) -> None:
    assert troupe.call(ECHO, {"text": "still here"}, timeout=10).text == "still here"
    (status,) = troupe.status()
    assert status.state == "ready" and status.incarnation == 1, status


BAD_OPTIONS = [
    ({"approver": 5}, "approver must be a function (sync or async) or None, got int"),
    ({"elicitation_handler": "x"}, "elicitation_handler must be a function (sync or async) or None, got str"),
    ({"sampling_handler": 5}, "sampling_handler must be a function"),
    ({"log_handler": 1}, "log_handler must be a function"),
    ({"progress_handler": []}, "progress_handler must be a function (sync or async) or None, got list"),
    ({"roots": 5}, "roots must be a list of paths, file:// URIs or {'uri', 'name'} mappings"),
    ({"roots": "/tmp"}, "got str (one root goes in a list: ['/tmp'])"),
    ({"roots": {"uri": "file:///x"}}, "got dict (one root goes in a list"),
    ({"io_loop": "x"}, "io_loop must be a running asyncio event loop or None, got str"),
    (
        {"builtin_tools": "read_file"},
        "builtin_tools must be a list of tool names, got str (one name goes in a list",
    ),
    ({"builtin_tools": 5}, "builtin_tools must be a list of tool names, got int"),
    ({"builtin_tools": ["read_file", 5]}, "builtin_tools[1] must be a tool name (a string), got 5"),
    ({"extensions": "io.modelcontextprotocol/ui"}, "extensions must map extension identifiers to settings"),
    ({"extensions": {"io.modelcontextprotocol/ui": []}}, "/ui'] must be a settings object"),
]


@pytest.mark.parametrize(("options", "message"), BAD_OPTIONS, ids=[str(o) for o, _ in BAD_OPTIONS])
def test_a_bad_option_is_refused_by_the_constructor_naming_it(options: dict[str, Any], message: str) -> None:
    with pytest.raises(TypeError, match=re.escape(message)):
        Troupe(demo_config(), **options)


def test_a_bad_static_root_entry_names_its_index() -> None:
    with pytest.raises(ValueError, match=re.escape("roots[1]: expected a path")):
        Troupe(demo_config(), roots=["/srv", 5])  # type: ignore[list-item]


def _call(troupe: Troupe, timeout: Any) -> Any:
    return troupe.call(ECHO, {"text": "x"}, timeout=timeout)


BAD_METHOD_CALLS: list[tuple[str, Callable[[Troupe], Any], type[Exception], str]] = [
    (
        "wait_ready-str",
        lambda t: t.wait_ready("5"),
        TypeError,
        "wait_ready() timeout must be a number of seconds, got str",
    ),
    (
        "wait_ready-nan",
        lambda t: t.wait_ready(float("nan")),
        ValueError,
        "wait_ready() timeout must be a number",
    ),
    (
        "restart-str",
        lambda t: t.restart("demo", timeout="x"),
        TypeError,
        "restart() timeout must be a number",
    ),
    (
        "stop_server-huge",
        lambda t: t.stop_server("demo", timeout=1e300),
        ValueError,
        "at most 31536000 (a year)",
    ),
    (
        "start_server-bool",
        lambda t: t.start_server("demo", timeout=True),
        TypeError,
        "start_server() timeout",
    ),
    (
        "roots_changed-str",
        lambda t: t.roots_changed("x"),
        TypeError,
        "roots_changed() timeout must be a number",
    ),
    (
        "subscribe-str",
        lambda t: t.subscribe("demo://x", print, timeout="x"),
        TypeError,
        "subscribe() timeout",
    ),
    (
        "events-str",
        lambda t: t.events(timeout="x"),
        TypeError,
        "events() timeout must be a number of seconds",
    ),
    ("stop-str", lambda t: t.stop("x"), TypeError, "stop() timeout must be a number of seconds, got str"),
    # Before: sent, then OverflowError while waiting for the answer, with no handle to cancel the call by.
    ("call-huge", lambda t: _call(t, 1e300), ValueError, "got 1e+300 (at most 31536000, a year)"),
    (
        "call-progress-handler",
        lambda t: t.call(ECHO, {"text": "x"}, progress_handler=5),
        TypeError,
        f"the progress_handler of {ECHO!r} must be a function or None, got int",
    ),
    (
        "cancel-reason",
        lambda t: t.submit(ECHO, {"text": "x"}).cancel(reason=5),
        TypeError,
        f"the reason for cancelling {ECHO!r} must be a string, got int",
    ),
]


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [case[1:] for case in BAD_METHOD_CALLS],
    ids=[case[0] for case in BAD_METHOD_CALLS],
)
def test_a_bad_argument_of_a_method_is_refused_and_the_troupe_serves_on(
    troupe: Troupe, call: Callable[[Troupe], Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        call(troupe)
    still_serving(troupe)


def test_a_negative_wait_means_do_not_wait(troupe: Troupe) -> None:
    import time

    started = time.monotonic()
    assert troupe.wait_ready(-1) in (True, False)  # (as a future's result(-1): the answer only if at hand)
    assert list(troupe.events(timeout=-1)) == []
    assert time.monotonic() - started < 1.0
    still_serving(troupe)


def test_a_finished_handle_cancels_nothing_and_keeps_its_result(troupe: Troupe) -> None:
    handle = troupe.submit(ECHO, {"text": "done"}, timeout=10)
    assert handle.result().text == "done"
    assert handle.cancel() is False and handle.cancel() is False
    assert handle.result().text == "done"
    still_serving(troupe)


def test_stopped_and_never_started_troupes_refuse_with_troupe_closed() -> None:
    troupe = Troupe(demo_config())
    try:
        with pytest.raises(TroupeClosed, match="not running"):
            troupe.call(ECHO, {"text": "x"})
        with pytest.raises(TroupeClosed, match="not running"):
            troupe.subscribe("demo://x", print)
        troupe.start()
        assert troupe.wait_ready(timeout=30)
        handle = troupe.submit(ECHO, {"text": "x"}, timeout=10)
        assert handle.result().text == "x"
    finally:
        troupe.stop()
    troupe.stop()  # twice: nothing more to do
    assert troupe.tools() == []
    assert handle.cancel() is False
    # Before: a subscription nothing would ever send or call back, and the stopped troupe as if started.
    with pytest.raises(TroupeClosed, match="not running"):
        troupe.subscribe("demo://x", print)
    with pytest.raises(TroupeClosed, match="cannot be started again"):
        troupe.start()
    for method in (troupe.status, lambda: troupe.call(ECHO, {"text": "x"}), lambda: troupe.restart("demo")):
        with pytest.raises(TroupeClosed):
            method()


def test_blocking_methods_refuse_to_run_on_the_troupes_own_loop() -> None:
    async def scenario() -> list[str]:
        refused = []
        async with Troupe(demo_config(), io_loop=asyncio.get_running_loop()) as troupe:
            assert await asyncio.to_thread(troupe.wait_ready, 30)
            for name, method in [
                ("call", lambda: troupe.call(ECHO, {"text": "x"})),
                ("wait_ready", lambda: troupe.wait_ready(1)),
                ("restart", lambda: troupe.restart("demo")),
                ("stop", troupe.stop),
            ]:
                with pytest.raises(
                    RuntimeError, match=re.escape(f"Troupe.{name}() would block the event loop")
                ):
                    method()
                refused.append(name)
            assert (await troupe.acall(ECHO, {"text": "on the loop"}, timeout=10)).text == "on the loop"
        return refused

    assert asyncio.run(scenario()) == ["call", "wait_ready", "restart", "stop"]


def test_concurrent_stops_all_return_and_leave_the_troupe_stopped() -> None:
    import concurrent.futures

    troupe = Troupe(demo_config()).start()
    try:
        assert troupe.wait_ready(timeout=30)
        with concurrent.futures.ThreadPoolExecutor(4) as pool:
            stops = [pool.submit(troupe.stop) for _ in range(4)]
            assert [stop.result(timeout=30) for stop in stops] == [None] * 4
        with pytest.raises(TroupeClosed):
            troupe.call(ECHO, {"text": "x"})
    finally:
        troupe.stop()


def test_a_huge_configured_timeout_still_lets_the_caller_wait() -> None:
    # Before: every call of such a server raised OverflowError in the caller's wait, after it was sent.
    demo = {"command": sys.executable, "args": ["-m", "mcp_troupe.demo"], "timeout": 1e300}
    config = parse_config(
        {"tools": {"mcp_servers": {"demo": demo}}, "permissions": {"approval": {"mode": "auto"}}}
    )
    with Troupe(config) as troupe:
        assert troupe.wait_ready(timeout=30)
        assert troupe.call(ECHO, {"text": "waited"}).text == "waited"
        assert troupe.call(ECHO, {"text": "waited"}).text == "waited"  # (the second goes through the lane)


# ---- the adapters ------------------------------------------------------------------------------------------

SPEC = ToolSpec(
    name="mcp__s__t",
    original_name="t",
    server="s",
    description="d",
    input_schema={"type": "object", "properties": {"x": {"type": "string"}}},
)
BUILDERS = [adapters.openai_tools, adapters.anthropic_tools, adapters.gemini_tools]


@pytest.mark.parametrize("build", BUILDERS, ids=lambda build: build.__name__)
@pytest.mark.parametrize(
    ("specs", "message"),
    [
        (None, "built from a list of ToolSpec (troupe.tools()), got NoneType"),
        ("mcp__s__t", "got str"),
        (SPEC, "got ToolSpec"),  # one spec, not in a list
        # Before: AttributeError: 'dict' object has no attribute 'is_quarantined'.
        ([SPEC, {"name": "x"}], "built from ToolSpecs (troupe.tools()); item 1 is a dict"),
    ],
    ids=["none", "str", "one-spec", "dict-item"],
)
def test_a_tool_list_is_built_from_tool_specs_only(build: Any, specs: Any, message: str) -> None:
    with pytest.raises(TypeError, match=re.escape(message)):
        build(specs)
    assert len(build([SPEC])) == 1  # and a good list still builds


def test_the_adapters_lookups_refuse_an_unknown_provider_and_arguments_that_are_not_a_mapping() -> None:
    tools = adapters.openai_tools([SPEC])
    # Before: an unknown provider answered every name unchanged, as if nothing had been renamed.
    with pytest.raises(ValueError, match="provider must be 'openai', 'anthropic' or 'gemini', not 'opeani'"):
        adapters.troupe_name("opeani", "mcp__s__t")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="provider must be"):
        adapters.arguments_for("claude", "mcp__s__t", {})  # type: ignore[arg-type]
    # Before: dict() of the model's JSON text: "dictionary update sequence element #0 has length 1".
    for lookup in (
        lambda: adapters.arguments_for("openai", "mcp__s__t", '{"x": "1"}'),  # type: ignore[arg-type]
        lambda: tools.arguments_for("mcp__s__t", '{"x": "1"}'),  # type: ignore[arg-type]
    ):
        with pytest.raises(
            TypeError, match=re.escape("must be a mapping or None, got str (the model's JSON")
        ):
            lookup()
    assert adapters.arguments_for("openai", "mcp__s__t", {"x": "1"}) == {"x": "1"}


RESULT = ToolResult(text="ok")


@pytest.mark.parametrize(
    ("render", "message"),
    [
        (
            lambda: adapters.openai_tool_message("id", "ok"),
            "openai_tool_message: result must be the ToolResult",
        ),
        (
            lambda: adapters.openai_tool_message(5, RESULT),
            "the tool call's id (or name) must be a string, got int",
        ),
        (
            lambda: adapters.anthropic_tool_result("id", {"text": "x"}),
            "result must be the ToolResult of troupe",
        ),
        (lambda: adapters.gemini_function_response(None, RESULT), "must be a string, got NoneType"),
        (
            lambda: adapters.gemini_function_response("f", RESULT, call_id=5),
            "call_id must be a string or None",
        ),
    ],
    ids=[
        "openai-str-result",
        "openai-int-id",
        "anthropic-dict-result",
        "gemini-no-name",
        "gemini-int-call-id",
    ],
)
def test_a_tool_result_is_rendered_from_a_tool_result_only(render: Callable[[], Any], message: str) -> None:
    # Before: AttributeError: 'str' object has no attribute 'is_error' (or 'text').
    with pytest.raises(TypeError, match=re.escape(message)):
        render()
    assert adapters.anthropic_tool_result("id", RESULT)["content"] == [{"type": "text", "text": "ok"}]


# ---- building a configuration in code --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "error", "message"),
    [
        # Before: TypeError from the name's regular expression ("expected string or bytes-like object").
        (lambda: stdio_server(5, "python"), ConfigError, "name: expected a string, got integer 5"),
        (lambda: stdio_server("s", ["python", "-m", "x"]), ConfigError, "command: expected a string"),
        (
            lambda: stdio_server("s", "python", "-m", 5),
            ConfigError,
            "args[1]: expected a string, got integer 5",
        ),
        (
            lambda: stdio_server("s", "python", env={"A": 1}),
            ConfigError,
            "env: expected a mapping of strings",
        ),
        (
            lambda: load_config({"tools": {}}),
            TypeError,
            "needs the path of a YAML file, got dict (data already",
        ),
        (lambda: load_config(None), TypeError, "load_config() needs the path of a YAML file, got NoneType"),
        (
            lambda: ServerConfig(name="s", command="x", args="-v"),
            TypeError,
            "args= must be a list of strings",
        ),
        (lambda: ServerConfig(name="s", command="x", timeout="5"), ValueError, "timeout must be a number"),
        (
            lambda: ServerConfig(name="s", command="x", timeout=math.nan),
            ValueError,
            "server 's': timeout must",
        ),
        (
            lambda: ServerConfig(name="s", command="x", connect_timeout=0),
            ValueError,
            "connect_timeout must be",
        ),
        (
            lambda: TroupeConfig(servers={"s": {"command": "x"}}),
            TypeError,
            "servers['s'] must be a ServerConfig",
        ),
        (lambda: TroupeConfig(servers=[stdio_server("s", "x")]), TypeError, "servers= must map names to"),
        (lambda: ServerConfig(name=5, command="x"), TypeError, "name= must be a non-empty string, got 5"),
        (lambda: ServerConfig(name="", command="x"), TypeError, "name= must be a non-empty string, got ''"),
        (lambda: ServerConfig(name="s", command=["x"]), TypeError, "server 's': command must be a string"),
        (
            lambda: ServerConfig(name="s", command="x", url="http://127.0.0.1:1/mcp"),
            ValueError,
            "server 's': give command (a stdio server) or url (an HTTP server), not both",
        ),
        (
            lambda: ServerConfig(name="s", command="x", trust_level="full"),
            ValueError,
            "server 's': trust_level must be one of trusted, untrusted, got 'full'",
        ),
        (lambda: ServerConfig(name="s", url="http://h/mcp", auth="basic"), ValueError, "auth must be one of"),
        (
            lambda: ServerConfig(name="s", command="x", protocol="2099-01-01"),
            ValueError,
            "server 's': protocol must be one of auto, legacy, modern, 2026-07-28",
        ),
        (
            lambda: TroupeConfig(approval_mode="x"),
            ValueError,
            "TroupeConfig: approval_mode must be one of ask, auto, deny, got 'x'",
        ),
        (lambda: TroupeConfig(security_policy="off"), ValueError, "security_policy must be one of block"),
        (lambda: TroupeConfig(network_policy=True), ValueError, "network_policy must be one of allow, deny"),
        (lambda: TroupeConfig(profile="server"), ValueError, "profile must be one of interactive"),
        (lambda: TroupeConfig(allow="fs"), TypeError, "allow= must be a list of patterns, got str"),
        (
            lambda: TroupeConfig(servers={"a": stdio_server("b", "x")}),
            ValueError,
            "servers['a'] holds the ServerConfig of 'b'",
        ),
        (lambda: ToolSearchConfig(mode="always"), ValueError, "tool_search: mode must be one of auto, on"),
        (lambda: ToolSearchConfig(threshold=-1), ValueError, "threshold must be an integer >= 0, got -1"),
    ],
    ids=[
        "stdio-name-int",
        "stdio-command-list",
        "stdio-arg-int",
        "stdio-env-int",
        "load-dict",
        "load-none",
        "server-args-str",
        "server-timeout-str",
        "server-timeout-nan",
        "server-connect-zero",
        "troupe-server-dict",
        "troupe-servers-list",
        "server-name-int",
        "server-name-empty",
        "server-command-list",
        "server-command-and-url",
        "server-trust-level",
        "server-auth",
        "server-protocol",
        "troupe-approval-mode",
        "troupe-security-policy",
        "troupe-network-policy",
        "troupe-profile",
        "troupe-allow-str",
        "troupe-key-not-name",
        "search-mode",
        "search-threshold",
    ],
)
def test_a_configuration_built_in_code_is_checked_as_it_is_built(
    build: Callable[[], Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=re.escape(message)):
        build()
