"""Dump every policy verdict on the corpus and the benchmark catalog, to compare two trees byte for byte.

Run it as ``PYTHONPATH=<tree>/src python benchmarks/dump_verdicts.py OUT.jsonl`` once per tree and compare the
files (``cmp``): an optimisation of the policy pass must leave every verdict as it was. Each line is one
definition under one configuration: the verdict's reason, risk, fingerprint, warnings, withheld reason and
findings (rule, field, excerpt, confidence), plus the raw injection scan (``scan_tool`` with the title and the
output schema) so that a change in the scan shows even where the verdict hides it.

Definitions: every tool of ``tests/corpus/*.json`` and the 10,000 tools of ``echo_server.py --tools 10000``.
Configurations: both security policies, two trust levels, default and tight ``tools.mcp.limits``, each pass
in a fresh process state (the scan's caches are cleared between passes, so cached and uncached answers are
both exercised: the second tree runs the same passes in the same order).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _definitions() -> list[tuple[str, dict[str, Any]]]:
    sys.path.insert(0, str(ROOT))
    from benchmarks.echo_server import make_tools

    found: list[tuple[str, dict[str, Any]]] = []
    for path in sorted((ROOT / "tests" / "corpus").glob("*.json")):
        for index, tool in enumerate(json.loads(path.read_text(encoding="utf-8"))["tools"]):
            found.append((f"{path.stem}[{index}]", tool))
    found += [(f"echo_server[{index}]", tool) for index, tool in enumerate(make_tools(10_000))]
    return found


def _finding(finding: Any) -> list[str]:
    return [finding.rule, finding.field, finding.excerpt, str(finding.confidence)]


def main(argv: list[str]) -> int:
    from mcp_troupe.errors import ProtocolError
    from mcp_troupe.policy import definition, injection
    from mcp_troupe.policy.bounds import CatalogLimits
    from mcp_troupe.policy.catalog import ContentChecks, evaluate_tool
    from mcp_troupe.protocol.mcp import parse_tool

    if len(argv) != 1:
        print("usage: dump_verdicts.py OUT.jsonl", file=sys.stderr)
        return 2
    definitions = _definitions()
    tight = CatalogLimits(max_description_chars=400, max_schema_bytes=600, max_schema_depth=4)
    with open(argv[0], "w", encoding="utf-8") as out:
        for policy in ("block", "warn"):
            for trust in ("untrusted", "trusted"):
                for limits_name, limits in (("default", CatalogLimits()), ("tight", tight)):
                    injection._cached_hits.cache_clear()
                    definition._CACHE.clear()
                    cache: dict[tuple[str, str | None], ContentChecks] = {}
                    for where, raw in definitions:
                        try:
                            tool = parse_tool(raw)
                        except ProtocolError as error:
                            out.write(json.dumps({"at": where, "parse_error": str(error)}) + "\n")
                            continue
                        verdict = evaluate_tool(
                            tool,
                            trust=trust,
                            include=None,
                            exclude=(),
                            security_policy=policy,
                            cache=cache,
                            limits=limits,
                        )
                        line: dict[str, Any] = {
                            "at": where,
                            "config": [policy, trust, limits_name],
                            "rejected": verdict.rejected,
                            "risk": str(verdict.risk),
                            "fingerprint": verdict.fingerprint,
                            "warnings": list(verdict.warnings),
                            "withheld": verdict.withheld,
                            "findings": [_finding(finding) for finding in verdict.findings],
                        }
                        if policy == "block" and trust == "untrusted" and limits_name == "default":
                            scanned = injection.scan_tool(
                                tool.name,
                                tool.description,
                                tool.input_schema,
                                title=tool.title,
                                output_schema=tool.output_schema,
                            )
                            line["scan"] = [_finding(finding) for finding in scanned]
                        out.write(json.dumps(line, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
