"""mcp-troupe against the official MCP conformance suite (``@modelcontextprotocol/conformance``), as a client.

For each scenario the suite starts its mock MCP server, runs ``client.py`` (next to this file) against the
server's URL, and grades what the server saw as checks: ``SUCCESS``, ``FAILURE``, ``WARNING`` or ``INFO``. The
suite calls a scenario passed when no check failed or warned, the client exited 0 and did not time out; this
test asks for that, and also for the checks that prove the scenario actually ran (a client that never
connected would leave no checks at all, and the suite would still say "passed").

The mock servers listen on every interface, so the suite runs in a private network namespace
(:func:`tests.interop.npm.private_network`); the client, its child, shares that namespace's loopback.

Two suite versions run side by side (each installed in its own prefix by ``tests/interop/npm.py``):

- **0.1.16**, the scored baseline: its 26 client scenarios, each on its default wire;
- **0.2.0-alpha.12**, per frozen requirement set: every client scenario of ``--requirements 2025-11-25`` at
  the 2025-11-25 wire and of ``--requirements 2026-07-28`` at the 2026-07-28 wire (``--spec-version V
  --force``), each set also with its not-scored extras (``json-schema-2020-12-preservation``) and the six
  auth extension scenarios (two client credentials, enterprise-managed authorization, two DPoP, WIF); the
  four skills scenarios run on their own wire.
  :func:`test_the_frozen_requirement_sets_are_the_ones_run` checks the lists against the suite itself.

Every run is its own pytest case (``<suite>:<wire>:<scenario>``). This module holds 0.1.16's runs and
alpha.12's at the 2025-11-25 wire; ``test_conformance_2026.py`` the 2026-07-28 wire's and the skills', so
that a suite spread over workers runs the two halves side by side (the machinery is in ``harness.py``). In
each module the runs go :func:`~tests.conformance.harness.parallel_runs` at a time in a module fixture, so
~50 of them do not queue one after another. A case this client cannot pass is
listed in the suite version's expected-failures file next to this file (``expected_failures.json`` for
0.1.16, ``expected_failures.0.2.0-alpha.12.json``, keyed ``<wire>:<scenario>``) with the precise reason, and
runs as a strict ``xfail``: one that starts passing fails the run until it is removed from the file, so the
files stay honest.

Run just these with ``pytest -m conformance`` or ``nox -s conformance``; the tools come from
``python -m tests.interop.npm`` (see that module).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator

import pytest
from tests.conformance.harness import (
    ALPHA,
    PARTS,
    REQUIREMENTS,
    Case,
    Runs,
    cases,
    check_case,
    module_runs,
    scenarios,
    suite_command,
)

pytestmark = [pytest.mark.conformance, pytest.mark.timeout(240)]


def test_the_frozen_requirement_sets_are_the_ones_run() -> None:
    command = suite_command(ALPHA)
    for revision, required_set in REQUIREMENTS.items():
        listed = subprocess.run(
            [*command, "list", "--client", "--requirements", revision],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        ).stdout
        client_part = listed.split("Client scenarios", 1)[1].split("Run and reported", 1)[0]
        required = re.findall(r"^\s+- (\S+)$", client_part, flags=re.MULTILINE)
        assert sorted(required) == sorted(required_set), revision


def test_the_two_modules_hold_every_run_once() -> None:
    parts = [cases(part) for part in PARTS]
    every = [case for part in parts for case in part]
    assert sorted(every, key=repr) == sorted(cases(), key=repr)
    assert len(set(every)) == len(every)
    assert all(parts)


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    yield from module_runs(request, tmp_path_factory)


@pytest.mark.parametrize("case", scenarios("dated"))
def test_client_passes_the_conformance_scenario(case: Case, runs: Runs) -> None:
    check_case(case, runs)
