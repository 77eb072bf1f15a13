"""Resources and prompts of ``@modelcontextprotocol/server-everything`` over stdio, via the built-in tools.

The model's view: ``mcp_resources`` lists, reads and lists the templates of the reference server's resources,
``mcp_prompts`` lists its prompts and gets them with arguments. A tool of the server that registers a new
resource (``gzip-file-as-resource``, fed a ``data:`` URI so nothing leaves the machine) makes the server send
``notifications/resources/list_changed``, and the next listing shows the new resource.

The reference server offers its sampling and elicitation tools only to clients that declare those
capabilities. mcp-troupe declares none, so the server never offers them, and a call to one fails at once as an
unknown tool instead of hanging on a request the client would never answer. (That the client answers such a
request with -32601 when a server sends it anyway is tested against the SDK server in
``test_resources_prompts.py``.)

Node.js 22 and the package come from the test cache of :mod:`tests.interop.npm`.
"""

from __future__ import annotations

import base64
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from tests.interop.npm import node22, npm_bin, require

from mcp_troupe import ReconnectPolicy, ServerState, Troupe, TroupeConfig
from mcp_troupe.config import ServerConfig, stdio_server
from mcp_troupe.errors import UnknownTool
from mcp_troupe.types import ToolResult

pytestmark = [pytest.mark.interop, pytest.mark.timeout(90)]

READY_TIMEOUT = 30.0
STATIC_PREFIX = "demo://resource/static/document/"


def everything_server() -> tuple[ServerConfig, Path]:
    """server-everything over stdio, and the directory of documents it serves as static resources."""
    node = require(node22(), "Node.js 22")
    script = require(npm_bin("mcp-server-everything"), "the npm command mcp-server-everything")
    # gzip-file-as-resource may fetch http(s) URLs: allow no real domain, so a test can only use data: URIs.
    server = stdio_server(
        "everything", str(node), str(script), "stdio", env={"GZIP_ALLOWED_DOMAINS": "invalid.invalid"}
    )
    return server, script.parent / "docs"


@contextmanager
def running(server: ServerConfig) -> Iterator[Troupe]:
    """Run a troupe of the one ``server``, which does not retry a failed connect, until it is ready."""
    config = TroupeConfig(
        approval_mode="auto",  # approval has its own tests (tests/faults/test_policy.py)
        servers={server.name: server},
        reconnect=ReconnectPolicy(initial_delay=0.1, max_delay=0.5, max_attempts=0),
    )
    with Troupe(config) as troupe:
        assert troupe.wait_ready(timeout=READY_TIMEOUT), f"{server.name} did not settle in {READY_TIMEOUT} s"
        (status,) = troupe.status()
        detail = "\n".join((f"{status.name} is {status.state}: {status.last_error}", *status.stderr_tail))
        assert status.state is ServerState.READY, detail
        yield troupe


@pytest.fixture(scope="module")
def everything() -> Iterator[tuple[Troupe, Path]]:
    server, docs = everything_server()
    with running(server) as troupe:
        yield troupe, docs


def ok(result: ToolResult) -> str:
    """The text of a result that must not be an error."""
    assert not result.is_error, result.text
    return result.text


def listed(troupe: Troupe, tool: str, action: str) -> list[dict[str, Any]]:
    """Every entry of a built-in listing, following its own cursors."""
    found: list[dict[str, Any]] = []
    call: dict[str, Any] | None = {"action": action}
    while call is not None:
        text = ok(troupe.call(tool, call))
        found += [json.loads(line) for line in text.splitlines() if line.startswith("{")]
        more = [line for line in text.splitlines() if line.startswith("More: call ")]
        call = json.loads(more[0].split(" with ", 1)[1]) if more else None
    return found


def test_every_static_document_is_listed_as_a_resource(everything: tuple[Troupe, Path]) -> None:
    troupe, docs = everything

    resources = listed(troupe, "mcp_resources", "list")

    expected = sorted(STATIC_PREFIX + path.name for path in docs.iterdir() if path.is_file())
    assert sorted(entry["uri"] for entry in resources if entry["uri"].startswith(STATIC_PREFIX)) == expected
    assert all(set(entry) <= {"uri", "name", "title", "mimeType", "size"} for entry in resources)


def test_a_static_text_resource_reads_as_its_file(everything: tuple[Troupe, Path]) -> None:
    troupe, docs = everything

    text = ok(troupe.call("mcp_resources", {"action": "read", "uri": STATIC_PREFIX + "features.md"}))

    header, body = text.split("\n", 1)
    assert header == f"[resource {STATIC_PREFIX}features.md (text/markdown) from server 'everything']"
    assert body.endswith((docs / "features.md").read_text(encoding="utf-8"))


def test_a_template_filled_text_resource_is_read(everything: tuple[Troupe, Path]) -> None:
    troupe, _docs = everything

    text = ok(troupe.call("mcp_resources", {"action": "read", "uri": "demo://resource/dynamic/text/3"}))

    assert text.startswith(
        "[resource demo://resource/dynamic/text/3 (text/plain) from server 'everything']\n"
    )
    assert "Resource 3: This is a plaintext resource" in text


def test_a_blob_resource_is_summarised_and_kept_whole_in_raw(everything: tuple[Troupe, Path]) -> None:
    troupe, _docs = everything

    result = troupe.call("mcp_resources", {"action": "read", "uri": "demo://resource/dynamic/blob/4"})

    (block,) = result.raw["content"]
    data = base64.b64decode(block["resource"]["blob"])
    assert ok(result) == f"[resource demo://resource/dynamic/blob/4: text/plain, {len(data)} bytes]"
    assert data.startswith(b"Resource 4: This is a base64 blob")


def test_the_templates_are_listed_with_their_parameters(everything: tuple[Troupe, Path]) -> None:
    troupe, _docs = everything

    templates = listed(troupe, "mcp_resources", "templates")

    assert {entry["uriTemplate"]: entry["parameters"] for entry in templates} == {
        "demo://resource/dynamic/text/{resourceId}": ["resourceId"],
        "demo://resource/dynamic/blob/{resourceId}": ["resourceId"],
    }


def test_the_prompts_are_listed_with_their_arguments(everything: tuple[Troupe, Path]) -> None:
    troupe, _docs = everything

    prompts = {entry["name"]: entry for entry in listed(troupe, "mcp_prompts", "list")}

    assert {"simple-prompt", "args-prompt", "resource-prompt"} <= set(prompts)
    assert [(a["name"], a["required"]) for a in prompts["args-prompt"]["arguments"]] == [
        ("city", True),
        ("state", False),
    ]


def test_a_prompt_with_arguments_is_rendered_under_its_roles(everything: tuple[Troupe, Path]) -> None:
    troupe, _docs = everything

    text = ok(
        troupe.call("mcp_prompts", {"action": "get", "name": "args-prompt", "arguments": {"city": "Lyon"}})
    )

    assert text.splitlines()[-2:] == ["[user]", "  What's weather in Lyon?"]


def test_a_prompt_embedding_a_resource_shows_it_inside_its_message(everything: tuple[Troupe, Path]) -> None:
    troupe, _docs = everything

    text = ok(
        troupe.call(
            "mcp_prompts",
            {
                "action": "get",
                "name": "resource-prompt",
                "arguments": {"resourceType": "Text", "resourceId": "2"},
            },
        )
    )

    labels = [line for line in text.splitlines() if line.startswith("[")]
    assert labels == ["[user]", "[user]"]
    assert "\n  [resource demo://resource/dynamic/text/2]\n  Resource 2: This is a plaintext resource" in text


def test_a_new_session_resource_is_announced_and_listed_then_read_by_its_link() -> None:
    server, _docs = everything_server()
    with running(server) as troupe:
        before = {entry["uri"] for entry in listed(troupe, "mcp_resources", "list")}
        data = "data:text/plain;base64," + base64.b64encode(b"hello from a data URI").decode()
        link = troupe.call(
            "mcp__everything__gzip-file-as-resource", {"name": "hello.txt.gz", "data": data}
        ).raw["content"][0]
        after = {entry["uri"] for entry in listed(troupe, "mcp_resources", "list")}
        read = troupe.call("mcp_resources", {"action": "read", "uri": link["uri"]})

    assert link["type"] == "resource_link"
    assert link["uri"] not in before
    assert after == before | {link["uri"]}
    (block,) = read.raw["content"]
    assert block["resource"]["mimeType"] == "application/gzip"
    assert ok(read).startswith(f"[resource {link['uri']}: application/gzip, ")


@pytest.mark.parametrize("tool", ["trigger-sampling-request", "trigger-elicitation-request"])
def test_the_sampling_and_elicitation_tools_are_not_offered_and_fail_at_once(
    everything: tuple[Troupe, Path], tool: str
) -> None:
    troupe, _docs = everything
    name = f"mcp__everything__{tool}"

    started = time.monotonic()
    with pytest.raises(UnknownTool):
        troupe.call(name, {"prompt": "hello"})

    assert time.monotonic() - started < 2
    assert name not in {spec.name for spec in troupe.tools()}
