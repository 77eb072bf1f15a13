"""Capture ``tools/list`` from real MCP servers over stdio, for the tool-search corpus.

Each server is started with placeholder credentials (nothing here reaches a real account: the servers only
list their tools, and the machine that ran this reaches no service), asked ``initialize`` and every page of
``tools/list``, and stopped. The definitions are written unchanged, one entry per server::

    python -m benchmarks.tool_search.capture SERVERS.json OUT.json

``SERVERS.json`` is a list of ``{"server": name, "package": "npm or PyPI name@version", "command": [...],
"env": {...}}``. The corpus in ``tests/data/tool_corpus.json.gz`` was made this way from the packages listed
in it (``package`` of each entry), installed from npm and PyPI with their install scripts disabled.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

PLACEHOLDER_ENV = {
    # Servers that refuse to start without a credential get a placeholder: they list tools without
    # calling out (and nothing here can reach their services anyway).
    name: "placeholder-not-a-secret"
    for name in (
        "API_KEY",
        "GITHUB_PERSONAL_ACCESS_TOKEN",
        "GITHUB_TOKEN",
        "GITLAB_PERSONAL_ACCESS_TOKEN",
        "GITLAB_TOKEN",
        "SLACK_BOT_TOKEN",
        "SLACK_TEAM_ID",
        "SLACK_MCP_XOXP_TOKEN",
        "BRAVE_API_KEY",
        "GOOGLE_MAPS_API_KEY",
        "TAVILY_API_KEY",
        "FIRECRAWL_API_KEY",
        "EXA_API_KEY",
        "PERPLEXITY_API_KEY",
        "STRIPE_SECRET_KEY",
        "NOTION_TOKEN",
        "OPENAPI_MCP_HEADERS",
        "CIRCLECI_TOKEN",
        "SENTRY_ACCESS_TOKEN",
        "LAUNCHDARKLY_API_KEY",
        "FIGMA_API_KEY",
        "DATADOG_API_KEY",
        "DATADOG_APP_KEY",
        "HUBSPOT_ACCESS_TOKEN",
        "PRIVATE_APP_ACCESS_TOKEN",
        "SHORTCUT_API_TOKEN",
        "APIFY_TOKEN",
        "JIRA_API_TOKEN",
        "JIRA_EMAIL",
        "JIRA_HOST",
        "ATLASSIAN_API_TOKEN",
        "ATLASSIAN_USER_EMAIL",
        "ATLASSIAN_SITE_NAME",
        "CONFLUENCE_API_TOKEN",
        "BITBUCKET_API_TOKEN",
        "ATLASSIAN_BITBUCKET_APP_PASSWORD",
        "ATLASSIAN_BITBUCKET_USERNAME",
        "LUNCHMONEY_API_TOKEN",
        "LUNCH_MONEY_API_KEY",
        "BW_SESSION",
        "BROWSERSTACK_USERNAME",
        "BROWSERSTACK_ACCESS_KEY",
        "JENKINS_URL",
        "JENKINS_USER",
        "JENKINS_TOKEN",
        "DOKPLOY_URL",
        "DOKPLOY_API_KEY",
        "RETELL_API_KEY",
        "AIRTABLE_API_KEY",
        "HEROKU_API_KEY",
        "CLOUDFLARE_API_TOKEN",
        "UPSTASH_EMAIL",
        "UPSTASH_API_KEY",
        "SUPABASE_ACCESS_TOKEN",
        "MONDAY_TOKEN",
        "PINECONE_API_KEY",
        "ASANA_ACCESS_TOKEN",
        "TODOIST_API_KEY",
        "TODOIST_API_TOKEN",
        "LINEAR_API_KEY",
        "LINEAR_ACCESS_TOKEN",
        "ES_URL",
        "ES_API_KEY",
        "TRELLO_API_KEY",
        "TRELLO_TOKEN",
        "XERO_CLIENT_ID",
        "XERO_CLIENT_SECRET",
        "GRAFANA_API_KEY",
        "AMAP_MAPS_API_KEY",
        "AUTH0_DOMAIN",
        "AIRTABLE_TOKEN",
        "PAPERLESS_API_KEY",
        "MDB_MCP_CONNECTION_STRING",
        "BYCRAWL_API_KEY",
        "REDIS_URL",
        "OBSIDIAN_API_KEY",
        "N8N_API_KEY",
        "RETELLAI_API_KEY",
        "TICKTICK_CLIENT_ID",
        "TICKTICK_CLIENT_SECRET",
        "UNIPILE_API_KEY",
        "UNIPILE_DSN",
        "YOUTUBE_API_KEY",
        "AWS_ACCESS_KEY_ID",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_REGION",
    )
}
PLACEHOLDER_ENV.update(
    {
        "JIRA_HOST": "https://example.invalid",
        "JIRA_URL": "https://example.invalid",
        "CONFLUENCE_URL": "https://example.invalid",
        "JENKINS_URL": "https://example.invalid",
        "DOKPLOY_URL": "https://example.invalid",
        "ES_URL": "http://127.0.0.1:9",
        "GRAFANA_URL": "http://127.0.0.1:9",
        "PAPERLESS_URL": "http://127.0.0.1:9",
        "REDIS_URL": "redis://127.0.0.1:9",
        "AWS_REGION": "us-east-1",
        "MDB_MCP_CONNECTION_STRING": "mongodb://127.0.0.1:9",
    }
)

LIST_TIMEOUT = 40.0


def _reader(stream: Any, out: queue.Queue[dict[str, Any]]) -> None:
    for line in stream:
        try:
            message = json.loads(line)
        except ValueError:
            continue  # a server that logs to stdout
        if isinstance(message, dict):
            out.put(message)


def capture(entry: dict[str, Any]) -> dict[str, Any]:
    """Start one server, list its tools, stop it; ``{"server", "package", "tools"}`` or ``"error"``."""
    env = {**os.environ, **PLACEHOLDER_ENV, **entry.get("env", {})}
    started = time.monotonic()
    process = subprocess.Popen(
        entry["command"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=entry.get("cwd"),
        start_new_session=True,
    )
    inbox: queue.Queue[dict[str, Any]] = queue.Queue()
    threading.Thread(target=_reader, args=(process.stdout, inbox), daemon=True).start()
    stderr: list[str] = []
    threading.Thread(target=lambda: stderr.extend(process.stderr or []), daemon=True).start()
    assert process.stdin is not None

    def send(message: dict[str, Any]) -> None:
        process.stdin.write(json.dumps(message) + "\n")  # type: ignore[union-attr]
        process.stdin.flush()  # type: ignore[union-attr]

    def answer(request_id: int) -> dict[str, Any]:
        deadline = started + LIST_TIMEOUT
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no answer")
            message = inbox.get(timeout=remaining)
            if message.get("id") == request_id and "method" not in message:
                return message
            if "method" in message and "id" in message:  # a server request (roots/list ...): refuse it
                send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "no"}})

    result: dict[str, Any] = {"server": entry["server"], "package": entry.get("package", "")}
    try:
        send(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "tool-corpus-capture", "version": "1"},
                },
            }
        )
        init = answer(1)
        if "error" in init:
            raise RuntimeError(f"initialize failed: {init['error']}")
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools: list[Any] = []
        cursor = None
        request_id = 2
        for _page in range(50):
            params = {"cursor": cursor} if cursor else {}
            send({"jsonrpc": "2.0", "id": request_id, "method": "tools/list", "params": params})
            page = answer(request_id)
            request_id += 1
            if "error" in page:
                raise RuntimeError(f"tools/list failed: {page['error']}")
            tools.extend(page["result"].get("tools", []))
            cursor = page["result"].get("nextCursor")
            if not cursor:
                break
        result["server_info"] = init.get("result", {}).get("serverInfo", {})
        result["tools"] = tools
    except (OSError, TimeoutError, RuntimeError, queue.Empty, KeyError) as exc:
        result["error"] = f"{type(exc).__name__}: {exc}; stderr: {''.join(stderr)[-400:]}"
    finally:
        try:
            os.killpg(process.pid, 9)
        except OSError:
            pass
        process.wait(timeout=10)
    return result


def main(argv: list[str]) -> int:
    servers = json.loads(Path(argv[0]).read_text())
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(capture, servers))
    for result in results:
        count = len(result.get("tools", []))
        print(f"{result['server']}: {count} tools {result.get('error', '')[:200]}", file=sys.stderr)
    Path(argv[1]).write_text(json.dumps(results, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
