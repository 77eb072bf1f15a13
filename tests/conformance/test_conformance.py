"""mcp-troupe against the official MCP conformance suite (``@modelcontextprotocol/conformance``), as a client.

For each scenario the suite starts its mock MCP server, runs ``client.py`` (next to this file) against the
server's URL, and grades what the server saw as checks: ``SUCCESS``, ``FAILURE``, ``WARNING`` or ``INFO``. The
suite calls a scenario passed when no check failed or warned, the client exited 0 and did not time out; this
test asks for that, and also for the checks that prove the scenario actually ran (a client that never
connected would leave no checks at all, and the suite would still say "passed").

The mock servers listen on every interface, so the suite runs in a private network namespace
(:func:`tests.interop.npm.private_network`); the client, its child, shares that namespace's loopback.

The ``auth/*`` scenarios are the client auth scenarios of the suite's ``core`` suite (its ``auth`` list), of
``backcompat`` (the two 2025-03-26 ones) and of ``sep-835`` (the ``auth/scope-*`` ones, a subset of
``core``). A scenario this client cannot pass is listed in ``expected_failures.json`` next to this file with
the precise reason, and runs as a strict ``xfail``: one that starts passing fails the run until it is
removed from the file, so the file stays honest.

Run just these with ``pytest -m conformance`` or ``nox -s conformance``; the tools come from
``python -m tests.interop.npm`` (see that module).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.interop.npm import ROOT, node22, npm_bin, private_network, require, require_private_network

pytestmark = [pytest.mark.conformance, pytest.mark.timeout(120)]

CLIENT = Path(__file__).resolve().parent / "client.py"
EXPECTED_FAILURES_FILE = Path(__file__).resolve().parent / "expected_failures.json"
SUITE_TIMEOUT_MS = 30_000
"""The suite's limit for one client run; it kills the client after that."""
RUN_TIMEOUT = 90.0
"""Seconds one whole suite run (start, client, grading) may take here before the test gives up."""

REQUIRED_CHECKS: dict[str, set[str]] = {
    "initialize": {"mcp-client-initialization"},
    "tools_call": {"tool-add-numbers"},
    "sse-retry": {"client-sse-graceful-reconnect", "client-sse-retry-timing", "client-sse-last-event-id"},
}
"""Per scenario, the checks that must be present and ``SUCCESS`` (ids from the suite's scenario sources)."""

_REGISTER_AUTHORIZE_TOKEN = {"client-registration", "authorization-request", "token-request"}
_FULL_FLOW = {"authorization-server-metadata", *_REGISTER_AUTHORIZE_TOKEN}
_TOKEN_AUTH = {
    "token-endpoint-auth-method",
    "resource-parameter-in-authorization",
    "resource-parameter-in-token",
    "resource-parameter-consistency",
}
REQUIRED_CHECKS.update(
    {
        "auth/metadata-default": _FULL_FLOW | {"prm-pathbased-requested"},
        "auth/metadata-var1": _FULL_FLOW | {"prm-pathbased-requested"},
        "auth/metadata-var2": _FULL_FLOW,
        "auth/metadata-var3": _FULL_FLOW,
        "auth/basic-cimd": {"cimd-client-id-used", "authorization-request", "token-request"},
        "auth/scope-from-www-authenticate": {"scope-from-www-authenticate", "valid-bearer-token"},
        "auth/scope-from-scopes-supported": {"scope-from-scopes-supported", "valid-bearer-token"},
        "auth/scope-omitted-when-undefined": {"scope-omitted-when-undefined", "valid-bearer-token"},
        "auth/scope-step-up": {"scope-step-up-initial", "scope-step-up-escalation", "valid-bearer-token"},
        "auth/scope-retry-limit": {"scope-retry-limit"},
        "auth/token-endpoint-auth-basic": _TOKEN_AUTH,
        "auth/token-endpoint-auth-post": _TOKEN_AUTH,
        "auth/token-endpoint-auth-none": _TOKEN_AUTH,
        "auth/pre-registration": {"pre-registration-auth", "valid-bearer-token"},
        "auth/2025-03-26-oauth-metadata-backcompat": _FULL_FLOW,
        "auth/2025-03-26-oauth-endpoint-fallback": _REGISTER_AUTHORIZE_TOKEN,
    }
)


def expected_failures() -> dict[str, str]:
    """Scenario → why this client does not pass it (``expected_failures.json``)."""
    document: dict[str, str] = json.loads(EXPECTED_FAILURES_FILE.read_text(encoding="utf-8"))
    unknown = sorted(set(document) - set(REQUIRED_CHECKS))
    assert not unknown, f"expected_failures.json names scenarios this test does not run: {unknown}"
    return document


def scenarios() -> list[Any]:
    """Every scenario, the expected failures marked as strict xfails carrying their reason."""
    failures = expected_failures()
    return [
        pytest.param(
            scenario,
            marks=[pytest.mark.xfail(reason=failures[scenario], strict=True)] if scenario in failures else [],
            id=scenario,
        )
        for scenario in sorted(REQUIRED_CHECKS)
    ]


ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def run_suite(scenario: str, results: Path) -> subprocess.CompletedProcess[str]:
    """Run the conformance suite's client mode on ``scenario``, saving its results under ``results``."""
    node = require(node22(), "Node.js 22")
    suite = require(npm_bin("conformance"), "the conformance suite (@modelcontextprotocol/conformance)")
    require_private_network()
    # The suite splits --command on spaces and hands the pieces to a shell, joined again by spaces: quoting
    # survives that round trip, so paths with spaces are safe.
    client_command = shlex.join([sys.executable, str(CLIENT)])
    argv = [
        str(node),
        str(suite),
        "client",
        "--command",
        client_command,
        "--scenario",
        scenario,
        "--timeout",
        str(SUITE_TIMEOUT_MS),
        "--output-dir",
        str(results),
    ]
    return subprocess.run(
        private_network(argv), capture_output=True, text=True, cwd=ROOT, timeout=RUN_TIMEOUT, check=False
    )


def saved_checks(results: Path) -> list[dict[str, Any]] | None:
    """Return the checks the suite saved for its one scenario run under ``results``, or ``None``."""
    # An auth scenario's name holds a slash ("auth/..."): its results sit one directory deeper.
    files = list(results.rglob("checks.json"))
    if len(files) != 1:
        return None
    checks: list[dict[str, Any]] = json.loads(files[0].read_text(encoding="utf-8"))
    return checks


def report(completed: subprocess.CompletedProcess[str], results: Path) -> str:
    """The suite's own account of the run, plus the client's stderr it saved, for a failing assertion."""
    parts = [f"suite exit status {completed.returncode}", ANSI_ESCAPE.sub("", completed.stderr)]
    if "Client exited with code" not in completed.stderr:  # else the suite has printed it already
        for client_stderr in results.rglob("stderr.txt"):
            parts += ["--- client stderr", client_stderr.read_text(encoding="utf-8")]
    return "\n".join(parts)


@pytest.mark.parametrize("scenario", scenarios())
def test_client_passes_the_conformance_scenario(scenario: str, tmp_path: Path) -> None:
    completed = run_suite(scenario, tmp_path)

    detail = report(completed, tmp_path)
    checks = saved_checks(tmp_path)
    assert checks is not None, f"the suite saved no checks\n{detail}"
    status_by_id: dict[str, set[str]] = {}
    for check in checks:
        status_by_id.setdefault(check["id"], set()).add(check["status"])
    not_passed = sorted(
        f"{check['id']}: {check['status']} {check.get('errorMessage', '')}".strip()
        for check in checks
        if check["status"] in {"FAILURE", "WARNING"}
    )
    missing = sorted(
        check_id for check_id in REQUIRED_CHECKS[scenario] if status_by_id.get(check_id) != {"SUCCESS"}
    )
    assert not not_passed, f"checks that did not pass: {not_passed}\n{detail}"
    assert not missing, f"required checks absent or not SUCCESS: {missing}\n{detail}"
    assert completed.returncode == 0, detail
    assert "OVERALL: PASSED" in completed.stderr, detail
