"""The facade refuses a call's bad name, arguments or timeout in the caller's thread, naming what was wrong,
and the troupe goes on serving. A string passed as the arguments used to crash the registry
(``TroupeBroken``: every later call of every server failed until a new troupe was started)."""

from __future__ import annotations

import asyncio
import math
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from mcp_troupe import Troupe, parse_config

pytestmark = pytest.mark.timeout(60)

ECHO = "mcp__demo__echo"


@pytest.fixture(scope="module")
def troupe() -> Iterator[Troupe]:
    demo = {"command": sys.executable, "args": ["-m", "mcp_troupe.demo"]}
    config = parse_config(
        {"tools": {"mcp_servers": {"demo": demo}}, "permissions": {"approval": {"mode": "auto"}}}
    )
    with Troupe(config) as started:
        assert started.wait_ready(timeout=30)
        yield started


BAD_CALLS = [
    pytest.param(5, {"text": "x"}, None, TypeError, "tool name must be a string, got int", id="name-int"),
    pytest.param(
        ECHO, "hello", None, TypeError, "must be a mapping (a JSON object) or None, got str", id="str"
    ),
    pytest.param(ECHO, ["a"], None, TypeError, "got list", id="list"),
    pytest.param(
        ECHO, {"text": "x"}, -1, ValueError, "positive, finite number of seconds, got -1", id="negative"
    ),
    pytest.param(ECHO, {"text": "x"}, 0, ValueError, "got 0", id="zero"),
    pytest.param(ECHO, {"text": "x"}, math.nan, ValueError, "got nan", id="nan"),
    pytest.param(ECHO, {"text": "x"}, math.inf, ValueError, "got inf", id="infinite"),
    pytest.param(ECHO, {"text": "x"}, "5", TypeError, "number of seconds, got str", id="timeout-str"),
    pytest.param(ECHO, {"text": "x"}, True, TypeError, "number of seconds, got bool", id="timeout-bool"),
]


@pytest.mark.parametrize(("name", "arguments", "timeout", "error", "message"), BAD_CALLS)
def test_a_bad_call_is_refused_in_the_callers_thread_on_every_entry_point(
    troupe: Troupe, name: Any, arguments: Any, timeout: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        troupe.call(name, arguments, timeout=timeout)
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        troupe.submit(name, arguments, timeout=timeout)

    async def through_acall() -> None:
        with pytest.raises(error):
            await troupe.acall(name, arguments, timeout=timeout)

    asyncio.run(through_acall())
    # Nothing reached the registry: the troupe and the server serve on, at the same incarnation.
    assert troupe.call(ECHO, {"text": "still here"}, timeout=10).text == "still here"
    (status,) = troupe.status()
    assert status.state == "ready" and status.incarnation == 1


def test_a_mapping_that_is_not_a_dict_and_an_integer_timeout_are_taken(troupe: Troupe) -> None:
    from types import MappingProxyType

    assert troupe.call(ECHO, MappingProxyType({"text": "proxy"}), timeout=10).text == "proxy"


def test_search_tools_refuses_a_limit_that_is_not_an_integer(troupe: Troupe) -> None:
    with pytest.raises(TypeError, match="limit must be an integer, got str"):
        troupe.search_tools("echo", limit="3")  # type: ignore[arg-type]
    assert troupe.search_tools("echo", limit=1)


def test_subscribe_and_complete_refuse_what_they_cannot_send(troupe: Troupe) -> None:
    # Before: subscribe() sent an integer URI to the server and took None for a callback it would call later;
    # complete() failed on a string context with dict()'s own message.
    with pytest.raises(TypeError, match="needs a resource URI"):
        troupe.subscribe(5, lambda uri: None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="needs a callable callback"):
        troupe.subscribe("demo://notes", None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="context= must map argument names to strings"):
        troupe.complete(argument="a", prompt="p", context="zz")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="context= must map"):
        troupe.complete(argument="a", prompt="p", context={"x": 1})  # type: ignore[dict-item]
    assert troupe.call(ECHO, {"text": "on"}, timeout=10).text == "on"


@pytest.mark.parametrize("config", [{"tools": {}}, "troupe.yaml", None])
def test_a_troupe_needs_a_parsed_configuration_and_says_how_to_make_one(config: Any) -> None:
    with pytest.raises(TypeError, match=r"Troupe\(\) needs a TroupeConfig, got"):
        Troupe(config)
