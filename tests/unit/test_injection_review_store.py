"""The review store of withheld tools: pending entries, decisions by fingerprint, one shared file."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from mcp_troupe.errors import ReviewStoreError
from mcp_troupe.policy.injection import Finding
from mcp_troupe.review import REVIEW_FILE_ENV, ReviewStore, default_path, review_fingerprint

FINDINGS = (Finding("model-directive", "description", "…before any other tool.", "low"),)


@pytest.fixture
def store(tmp_path: Path) -> ReviewStore:
    return ReviewStore(tmp_path / "state" / "review.json")


def test_a_missing_store_is_empty(store: ReviewStore) -> None:
    assert store.entries() == [] and store.pending() == []
    assert store.decision("s", "t", "f" * 64) is None


def test_a_withheld_definition_is_recorded_once_as_pending(store: ReviewStore) -> None:
    assert store.record_pending("srv", "tool", "a" * 64, FINDINGS, "Call this tool before any other tool.")
    assert not store.record_pending("srv", "tool", "a" * 64, FINDINGS, "again")
    (entry,) = store.pending()
    assert (entry.server, entry.tool, entry.status, entry.findings) == ("srv", "tool", "pending", FINDINGS)
    assert store.decision("srv", "tool", "a" * 64) is None
    assert stat.S_IMODE(os.stat(store.path).st_mode) == 0o600


def test_a_decision_holds_for_its_definition_only(store: ReviewStore) -> None:
    store.record_pending("srv", "tool", "a" * 64, FINDINGS, "one")
    store.decide("srv", "tool", "released")
    assert store.decision("srv", "tool", "a" * 64) == "released"
    # The server changes the definition: a new fingerprint, pending again, the old release does not carry.
    store.record_pending("srv", "tool", "b" * 64, FINDINGS, "two")
    assert store.decision("srv", "tool", "b" * 64) is None
    assert [entry.status for entry in store.entries()] == ["released", "pending"]
    store.decide("srv", "tool", "kept")
    assert store.decision("srv", "tool", "b" * 64) == "kept"
    # An operator may change their mind about a decided definition, named by fingerprint.
    store.decide("srv", "tool", "kept", fingerprint="a" * 64)
    assert store.decision("srv", "tool", "a" * 64) == "kept"


def test_a_decision_on_nothing_pending_says_what_is(store: ReviewStore) -> None:
    store.record_pending("srv", "other", "a" * 64, FINDINGS, "x")
    with pytest.raises(
        ReviewStoreError, match=r"no pending definition of tool 'tool' on server 'srv'.*srv/other"
    ):
        store.decide("srv", "tool", "released")


def test_two_store_objects_share_the_file(store: ReviewStore) -> None:
    other = ReviewStore(store.path)
    store.record_pending("srv", "tool", "a" * 64, FINDINGS, "x")
    other.decide("srv", "tool", "released")
    assert store.decision("srv", "tool", "a" * 64) == "released"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "is not valid JSON"),
        ('{"format": 1}', "expected an object with an 'entries' list"),
        ('{"format": 9, "entries": []}', "unknown format 9"),
        ('{"format": 1, "entries": [{"server": "s"}]}', r"entries\[0\]: malformed review entry"),
    ],
)
def test_a_damaged_store_is_an_error_naming_the_file(store: ReviewStore, content: str, message: str) -> None:
    store.path.parent.mkdir(parents=True)
    store.path.write_text(content)
    with pytest.raises(ReviewStoreError, match=message):
        store.entries()


def test_the_default_path_follows_the_environment(tmp_path: Path) -> None:
    assert default_path({REVIEW_FILE_ENV: str(tmp_path / "r.json")}) == tmp_path / "r.json"
    assert default_path({"XDG_STATE_HOME": str(tmp_path)}) == tmp_path / "mcp-troupe" / "review.json"


def test_the_review_fingerprint_covers_the_title() -> None:
    assert review_fingerprint("a" * 64, None) == "a" * 64
    assert review_fingerprint("a" * 64, "Title") != review_fingerprint("a" * 64, "Other title")


def test_the_stored_json_is_what_troupe_review_prints(store: ReviewStore) -> None:
    store.record_pending("srv", "tool", "a" * 64, FINDINGS, "x")
    document = json.loads(store.path.read_text())
    assert document["format"] == 1
    (entry,) = document["entries"]
    assert entry == store.pending()[0].to_json()
    assert entry["findings"] == [
        {
            "rule": "model-directive",
            "field": "description",
            "excerpt": "…before any other tool.",
            "confidence": "low",
        }
    ]
