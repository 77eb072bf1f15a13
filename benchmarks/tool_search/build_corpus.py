"""Merge captured ``tools/list`` outputs (see :mod:`.capture`) into the committed tool corpus.

    python -m benchmarks.tool_search.build_corpus OUT.json.gz CAPTURE.json [CAPTURE.json ...]

Servers that listed no tools are dropped; a few long capture names get the short name a user would give
the server in a config (``zereight-gitlab`` → ``gitlab``). Definitions are kept whole (name, title,
description, inputSchema, annotations), as the servers sent them.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

RENAMES = {
    "notionhq-notion": "notion",
    "zereight-gitlab": "gitlab",
    "circleci-circleci": "circleci",
    "upstash-context7": "context7",
    "0n": "0nmcp",
    "supabase-supabase": "supabase",
}
KEPT = ("name", "title", "description", "inputSchema", "annotations")


def main(argv: list[str]) -> int:
    servers: dict[str, dict[str, object]] = {}
    for capture in argv[1:]:
        for entry in json.loads(Path(capture).read_text()):
            tools = entry.get("tools") or []
            if not tools:
                continue
            name = RENAMES.get(entry["server"], entry["server"])
            servers[name] = {
                "server": name,
                "package": entry.get("package", ""),
                "tools": [{key: tool[key] for key in KEPT if key in tool} for tool in tools],
            }
    corpus = sorted(servers.values(), key=lambda entry: str(entry["server"]))
    data = json.dumps(corpus, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()
    Path(argv[0]).write_bytes(gzip.compress(data, mtime=0))
    count = sum(len(entry["tools"]) for entry in corpus)  # type: ignore[arg-type]
    print(f"{len(corpus)} servers, {count} tools", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
