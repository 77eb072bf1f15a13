"""How many worker processes a whole-suite run uses (tests/conftest.py)."""

from __future__ import annotations

import pytest
from tests.conftest import WORKERS_VARIABLE, suite_workers


@pytest.mark.parametrize(("cpus", "workers"), [(None, 0), (1, 0), (2, 2), (3, 3), (16, 4)])
def test_one_worker_per_cpu_at_most_four_and_none_on_one_cpu(cpus: int | None, workers: int) -> None:
    assert suite_workers({}, cpus) == workers


@pytest.mark.parametrize(("value", "workers"), [("0", 0), (" 3 ", 3), ("", 2)])
def test_the_variable_overrides_the_cpu_count(value: str, workers: int) -> None:
    assert suite_workers({WORKERS_VARIABLE: value}, 2) == workers


@pytest.mark.parametrize(
    ("value", "reason"), [("two", "a whole number, got 'two'"), ("-1", "0 or more, got -1")]
)
def test_a_bad_value_names_the_variable_and_what_is_wrong(value: str, reason: str) -> None:
    with pytest.raises(pytest.UsageError, match=f"{WORKERS_VARIABLE} must be {reason}"):
        suite_workers({WORKERS_VARIABLE: value}, 2)
