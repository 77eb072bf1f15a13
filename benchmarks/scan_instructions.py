"""Instructions of the injection scan per tool, counted with callgrind, between source trees of mcp-troupe.

Run it as ``python benchmarks/scan_instructions.py --side base=/path/to/checkout/src --side new=src``. Each
side is a worker process of its own under callgrind (its ``src`` first on ``PYTHONPATH``), for each input:
the 10,000 tools of ``echo_server.py --tools 10000``, the real definitions of ``benign_real.json``, and the
definitions of ``benign_real_5.json`` whose description is over 500 characters. A worker parses the tools and
scans them once uncounted (imports, the patterns' first compilation), clears the scan's cache, and counts
one more pass of ``scan_tool`` over them. A count does not move with the machine's load, as a time does.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
INPUTS = ("bench", "benign_real", "benign_real_5")


def _tools(which: str) -> list[dict[str, Any]]:
    if which == "bench":
        from benchmarks.echo_server import make_tools

        return make_tools(10_000)
    tools = json.loads((ROOT / "tests" / "corpus" / f"{which}.json").read_text(encoding="utf-8"))["tools"]
    if which == "benign_real_5":
        tools = [tool for tool in tools if len(tool.get("description") or "") > 500]
    return list(tools)


def _worker(which: str) -> int:
    from benchmarks.callgrind import switch
    from mcp_troupe.policy import injection
    from mcp_troupe.protocol.mcp import parse_tool

    tools = [parse_tool(raw) for raw in _tools(which)]

    def scan_all() -> None:
        for tool in tools:
            injection.scan_tool(tool.name, tool.description, tool.input_schema, title=tool.title)

    scan_all()
    injection._cached_hits.cache_clear()
    switch(True)
    scan_all()
    switch(False)
    print(len(tools))
    return 0


def main(argv: list[str]) -> int:
    if str(ROOT) not in sys.path:
        sys.path.append(str(ROOT))  # the benchmarks package (a side's src stays first)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--side", action="append", required=True, help="NAME=SRC_DIR (two or more)")
    parser.add_argument("--input", action="append", choices=INPUTS, help="default: all three")
    parser.add_argument("--worker", choices=INPUTS, help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.worker:
        return _worker(arguments.worker)
    from benchmarks.callgrind import missing_tools, run_counted

    missing = missing_tools()
    if missing:
        print(f"cannot count: {missing}", file=sys.stderr)
        return 2
    sides = dict(side.split("=", 1) for side in arguments.side)
    for which in arguments.input or INPUTS:
        worker = [str(Path(__file__).resolve()), "--side", "x=x", "--worker", which]
        workers = {name: worker for name in sides}
        env = {
            name: {**os.environ, "PYTHONPATH": os.pathsep.join([str(Path(src).resolve()), str(ROOT)])}
            for name, src in sides.items()
        }
        counted = run_counted(workers, timeout=3600, env=env)
        per_tool = {name: count / int(stdout.split()[-1]) for name, (count, stdout) in counted.items()}
        first = next(iter(per_tool.values()))
        line = ", ".join(
            f"{name} {value / 1e6:.3f} M ({value / first:.2f}x)" for name, value in per_tool.items()
        )
        print(f"{which}: instructions a tool: {line}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
