"""mcp-troupe against the official MCP conformance suite, the 2026-07-28 half: alpha.12's runs of the
``--requirements 2026-07-28`` set at the 2026-07-28 wire (with its not-scored extras and the auth extension
scenarios) and the skills scenarios. ``test_conformance.py`` has the other half and the whole account; the
split lets a suite spread over workers run both halves side by side.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.conformance.harness import Case, Runs, check_case, module_runs, scenarios

pytestmark = [pytest.mark.conformance, pytest.mark.timeout(240)]


@pytest.fixture(scope="module")
def runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    yield from module_runs(request, tmp_path_factory)


@pytest.mark.parametrize("case", scenarios("2026"))
def test_client_passes_the_conformance_scenario(case: Case, runs: Runs) -> None:
    check_case(case, runs)
