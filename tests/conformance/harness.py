"""The machinery of the conformance tests (``test_conformance.py``, ``test_conformance_2026.py``): which
suite runs there are, how one is run, and what passing one means. See ``test_conformance.py`` for the whole
account; the runs are split between the two modules (:data:`PARTS`) so that the suite's two workers share
them instead of one worker running all of them.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from tests.interop.npm import (
    CONFORMANCE_SUITES,
    ROOT,
    node22,
    npm_bin,
    private_network,
    require,
    require_private_network,
)

HERE = Path(__file__).resolve().parent
CLIENT = HERE / "client.py"
SUITE_TIMEOUT_MS = 60_000
"""The suite's limit for one client run; it kills the client after that."""
RUN_TIMEOUT = 120.0
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
_DPOP = {
    "sep-1932-client-token-request-proof",
    "sep-1932-client-dpop-auth-scheme",
    "sep-1932-client-fresh-proof",
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
        "auth/resource-mismatch": {"resource-mismatch-rejected"},
        "auth/offline-access-scope": {"sep-2207-offline-access-requested", "valid-bearer-token"},
        "auth/offline-access-not-supported": {"sep-2207-offline-access-not-requested", "valid-bearer-token"},
        "auth/authorization-server-migration": {
            "sep-2352-reregister-on-as-change",
            "sep-2352-no-reuse-on-as-change",
            "sep-2352-no-cross-as-credential-reuse",
        },
        "auth/iss-supported": {"sep-2468-client-compare-iss-supported", "valid-bearer-token"},
        "auth/iss-not-advertised": {"sep-2468-client-proceed-no-iss", "valid-bearer-token"},
        "auth/iss-supported-missing": {"sep-2468-client-reject-missing-iss"},
        "auth/iss-wrong-issuer": {"sep-2468-client-compare-iss-supported"},
        "auth/iss-unexpected": {"sep-2468-client-compare-iss-unadvertised"},
        "auth/iss-normalized": {"sep-2468-client-no-normalization"},
        "auth/metadata-issuer-mismatch": {"sep-2468-client-validate-metadata-issuer"},
        "auth/client-credentials-basic": {"client-credentials-basic-auth", "valid-bearer-token"},
        "auth/client-credentials-jwt": {"client-credentials-jwt-verified", "valid-bearer-token"},
        "auth/cross-app-access-complete-flow": {"complete-flow-token-exchange", "complete-flow-jwt-bearer"},
        "auth/enterprise-managed-authorization": {"complete-flow-token-exchange", "complete-flow-jwt-bearer"},
        "auth/wif-jwt-bearer": {"wif-assertion-verified", "valid-bearer-token"},
        "auth/dpop": _DPOP,
        "auth/dpop-nonce": _DPOP | {"sep-1932-client-as-nonce", "sep-1932-client-rs-nonce"},
        # The 2026-07-28 wire: each scenario's server emits these only when the client made the requests
        # the scenario is about (a client that connected and listed would leave them absent or FAILURE).
        "request-metadata": {
            "sep-2575-http-client-sends-version-header",
            "sep-2575-client-populates-meta",
            "sep-2575-client-sends-client-info",
            "sep-2575-http-version-header-matches-meta",
            "sep-2575-client-retry-supported-version",
        },
        "sep-2322-client-request-state": {
            "sep-2322-client-request-state-echoed",
            "sep-2322-client-jsonrpc-id-different",
            "sep-2322-client-no-state-omitted",
            "sep-2322-client-parallel-isolation",
            "sep-2322-default-result-type-complete",
        },
        "http-custom-headers": {
            "sep-2243-client-supports-custom-headers",
            "sep-2243-client-mirrors-designated-params",
            "sep-2243-client-encode-values",
            "sep-2243-client-base64-unsafe",
            "sep-2243-client-omit-null",
        },
        "http-invalid-tool-headers": {
            "sep-2243-client-reject-invalid-tool",
            "sep-2243-x-mcp-header-not-empty",
            "sep-2243-x-mcp-header-primitive-only",
            "sep-2243-x-mcp-header-unique",
            "sep-2243-x-mcp-header-charset",
        },
        # SEP-2106's keyword checks count from 2026-07-28 (SKIPPED, not FAILURE, if lost on a dated wire):
        # only SEP-1613's are required on both wires.
        "json-schema-2020-12-preservation": {
            "json-schema-2020-12-client-tool-found",
            "json-schema-2020-12-client-echo-completed",
            "json-schema-2020-12-client-$schema-preserved",
            "json-schema-2020-12-client-$defs-preserved",
            "json-schema-2020-12-client-additionalProperties-preserved",
        },
        # Built on other branches (host callbacks, skills) or judged on the handshake alone: no required
        # ids here; "no check failed, the client exited 0" is what they are held to.
        **{
            scenario: set[str]()
            for scenario in (
                "elicitation-sep1034-client-defaults",
                "http-standard-headers",
                "json-schema-ref-no-deref",
                "sep-2640-client-no-prefetch",
                "sep-2640-client-verify-digest",
                "sep-2640-client-verify-size",
                "sep-2640-client-verify-frontmatter",
            )
        },
    }
)

STABLE = "0.1.16"
ALPHA = "0.2.0-alpha.12"
assert set(CONFORMANCE_SUITES) == {STABLE, ALPHA}, "tests/interop/npm.py pins other conformance versions"

STABLE_SCENARIOS: tuple[str, ...] = (
    *("initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"),
    *("auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3"),
    *("auth/basic-cimd", "auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported"),
    *("auth/scope-omitted-when-undefined", "auth/scope-step-up", "auth/scope-retry-limit"),
    *("auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post", "auth/token-endpoint-auth-none"),
    *("auth/pre-registration", "auth/2025-03-26-oauth-metadata-backcompat"),
    *("auth/2025-03-26-oauth-endpoint-fallback", "auth/resource-mismatch", "auth/offline-access-scope"),
    *("auth/offline-access-not-supported", "auth/client-credentials-jwt", "auth/client-credentials-basic"),
    "auth/cross-app-access-complete-flow",
)
"""The 26 client scenarios of 0.1.16 (``conformance list --client``)."""

_SCORED_AUTH_BOTH = (
    *("auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3"),
    *("auth/basic-cimd", "auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported"),
    *("auth/scope-omitted-when-undefined", "auth/scope-step-up", "auth/scope-retry-limit"),
    *("auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post", "auth/token-endpoint-auth-none"),
    "auth/pre-registration",
)
AUTH_2026_ONLY = (
    *("auth/resource-mismatch", "auth/offline-access-scope", "auth/offline-access-not-supported"),
    *("auth/authorization-server-migration", "auth/iss-supported", "auth/iss-not-advertised"),
    *("auth/iss-supported-missing", "auth/iss-wrong-issuer", "auth/iss-unexpected", "auth/iss-normalized"),
    "auth/metadata-issuer-mismatch",
)
REQUIREMENTS: dict[str, tuple[str, ...]] = {
    "2025-11-25": (
        *("initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry"),
        *_SCORED_AUTH_BOTH,
    ),
    "2026-07-28": (
        *("tools_call", "request-metadata"),
        *_SCORED_AUTH_BOTH,
        *AUTH_2026_ONLY,
        *("sep-2322-client-request-state", "http-standard-headers", "http-custom-headers"),
        *("http-invalid-tool-headers", "json-schema-ref-no-deref"),
    ),
}
"""The client scenarios of alpha.12's frozen requirement sets (``list --client --requirements <rev>``),
checked against the suite itself by :func:`test_the_frozen_requirement_sets_are_the_ones_run`."""
NOT_SCORED: tuple[str, ...] = ("json-schema-2020-12-preservation",)
"""Run with each set but not scored by it ("added-after-release")."""
EXTENSIONS: tuple[str, ...] = (
    *("auth/client-credentials-jwt", "auth/client-credentials-basic"),
    "auth/enterprise-managed-authorization",
    *("auth/dpop", "auth/dpop-nonce", "auth/wif-jwt-bearer"),
)
"""alpha.12's auth extension scenarios; each set runs them at its wire too."""
SKILLS: tuple[str, ...] = (
    *("sep-2640-client-no-prefetch", "sep-2640-client-verify-digest", "sep-2640-client-verify-size"),
    "sep-2640-client-verify-frontmatter",
)
"""alpha.12's skills extension scenarios (SEP-2640); run on their own default wire."""


@dataclass(frozen=True)
class Case:
    """One run of the suite: its version, the wire (``--spec-version``, forced) or the scenario's default."""

    suite: str
    scenario: str
    wire: str | None = None

    @property
    def key(self) -> str:
        """How the suite version's expected-failures file names this case."""
        return self.scenario if self.wire is None else f"{self.wire}:{self.scenario}"


PARTS = ("dated", "2026")
"""How the runs are split between the two test modules, so that the suite's two workers share them:
``dated`` (0.1.16, and alpha.12 at the 2025-11-25 wire) in ``test_conformance.py``, ``2026`` (alpha.12 at
the 2026-07-28 wire, and the skills scenarios) in ``test_conformance_2026.py``."""


def cases(part: str | None = None) -> list[Case]:
    """Every run (or one part's): 0.1.16's scenarios on their default wire; alpha.12's per frozen set, at
    that set's wire, each set with its not-scored extras and the auth extensions; the skills scenarios.

    The 2026-only auth scenarios run at the 2026-07-28 wire only, as that set requires them: their
    authorization servers do not depend on the wire, and the client's OAuth is the same in both eras.
    """
    dated = [Case(STABLE, scenario) for scenario in STABLE_SCENARIOS]
    modern: list[Case] = []
    for wire, scenarios in REQUIREMENTS.items():
        runs = dated if wire == "2025-11-25" else modern
        runs += [Case(ALPHA, scenario, wire) for scenario in (*scenarios, *NOT_SCORED, *EXTENSIONS)]
    modern += [Case(ALPHA, scenario) for scenario in SKILLS]
    if part is None:
        return dated + modern
    assert part in PARTS, part
    return dated if part == "dated" else modern


def expected_failures_file(suite: str) -> Path:
    """``expected_failures.json`` for 0.1.16, ``expected_failures.<version>.json`` for another suite."""
    name = "expected_failures.json" if suite == STABLE else f"expected_failures.{suite}.json"
    return HERE / name


def expected_failures(suite: str) -> dict[str, str]:
    """Case key → why this client does not pass it, for one suite version."""
    document: dict[str, str] = json.loads(expected_failures_file(suite).read_text(encoding="utf-8"))
    known = {case.key for case in cases() if case.suite == suite}
    unknown = sorted(set(document) - known)
    assert not unknown, f"{expected_failures_file(suite).name} names cases this test does not run: {unknown}"
    return document


def scenarios(part: str) -> list[Any]:
    """One part's cases, the expected failures marked as strict xfails carrying their reason."""
    failures = {suite: expected_failures(suite) for suite in CONFORMANCE_SUITES}
    params = []
    for case in cases(part):
        reason = failures[case.suite].get(case.key)
        marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
        params.append(pytest.param(case, marks=marks, id=f"{case.suite}:{case.key}"))
    return params


ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def suite_command(version: str) -> list[str]:
    """``node <conformance>`` of one installed suite version (skips or fails the test when it is missing)."""
    node = require(node22(), "Node.js 22")
    what = f"the conformance suite (@modelcontextprotocol/conformance@{version})"
    suite = require(npm_bin("conformance", CONFORMANCE_SUITES[version]), what)
    return [str(node), str(suite)]


def run_suite(case: Case, results: Path) -> subprocess.CompletedProcess[str]:
    """Run the conformance suite's client mode on one case, saving its results under ``results``."""
    command = suite_command(case.suite)
    require_private_network()
    # The suite splits --command on spaces and hands the pieces to a shell, joined again by spaces: quoting
    # survives that round trip, so paths with spaces are safe.
    client_command = shlex.join([sys.executable, str(CLIENT)])
    argv = [
        *command,
        "client",
        "--command",
        client_command,
        "--scenario",
        case.scenario,
        "--timeout",
        str(SUITE_TIMEOUT_MS),
        "--output-dir",
        str(results),
        # --force: a scenario of another revision (an extension, a 2026-only auth scenario) runs at this wire.
        *(["--spec-version", case.wire, "--force"] if case.wire is not None else []),
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


def parallel_runs() -> int:
    """Suite runs under way at once in one test process. Each is mostly waiting (process start-up, the
    suite's timers), so three share two cores well; more would start to bend the timing checks of
    ``sse-retry``. When the suite is spread over workers, each of the two modules may run in its own at
    the same time: two each, four in all."""
    workers = os.environ.get("PYTEST_XDIST_WORKER_COUNT", "")
    return 2 if workers.isdigit() and int(workers) > 1 else 3


class Runs:
    """The selected cases' suite runs, started :func:`parallel_runs` at a time in collection order, so that
    ~100 runs of a few seconds each do not add up one after another; each test waits for its own."""

    def __init__(self, selected: list[Case], results: Path) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(parallel_runs(), thread_name_prefix="conformance")
        self._results = results
        self._runs = {case: self._pool.submit(self._run, case, index) for index, case in enumerate(selected)}

    def _run(self, case: Case, index: int) -> tuple[subprocess.CompletedProcess[str], Path]:
        results = self._results / str(index)
        results.mkdir()
        return run_suite(case, results), results

    def result(self, case: Case) -> tuple[subprocess.CompletedProcess[str], Path]:
        """The finished run of ``case`` (raising what the run raised)."""
        return self._runs[case].result(timeout=RUN_TIMEOUT + 10)

    def close(self) -> None:
        """Drop the runs not yet started (a deselected or aborted session) and wait for the others."""
        self._pool.shutdown(wait=True, cancel_futures=True)


def module_runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    """The body of each test module's ``runs`` fixture: the suite runs of that module's selected cases."""
    selected = [
        item.callspec.params["case"]
        for item in request.session.items
        if isinstance(item, pytest.Function)
        and item.module is request.module
        and item.originalname == "test_client_passes_the_conformance_scenario"
        and hasattr(item, "callspec")
    ]
    # The tools are checked once here, so that a missing suite skips (or fails) at once, not per thread.
    for suite in {case.suite for case in selected}:
        suite_command(suite)
    require_private_network()
    pool = Runs(selected, tmp_path_factory.mktemp("conformance"))
    try:
        yield pool
    finally:
        pool.close()


def check_case(case: Case, runs: Runs) -> None:
    """Assert that the suite passed ``case``: no check failed or warned, the required ones succeeded."""
    scenario = case.scenario
    completed, tmp_path = runs.result(case)

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
