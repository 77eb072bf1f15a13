"""Protocol revisions, their eras and version negotiation (``mcp_troupe.protocol.versions``).

spec: basic/lifecycle, version negotiation — "If the client does not support the version in the server's
response, it SHOULD disconnect." We refuse anything outside our table; an ``initialize`` answer naming a
modern revision is refused too (modern revisions have no handshake to answer).
"""

from __future__ import annotations

import json

import pytest
from tests.spec_schemas import SPEC_DIR

from mcp_troupe.errors import ProtocolError, UnsupportedProtocolVersion
from mcp_troupe.protocol.versions import (
    LATEST,
    LATEST_LEGACY,
    LEGACY_VERSIONS,
    MODERN_VERSIONS,
    REVISIONS,
    SUPPORTED,
    Era,
    best_shared,
    negotiate,
)


@pytest.mark.parametrize("version", LEGACY_VERSIONS)
def test_negotiate_accepts_every_legacy_revision(version: str) -> None:
    revision = negotiate(version)
    assert revision.version == version
    assert revision is REVISIONS[version]


@pytest.mark.parametrize(
    "offered", ["2099-01-01", "", None, 20250618, "2025-06-18 ", "2026-07-28", ["2025-06-18"]]
)
def test_negotiate_refuses_an_unsupported_answer_naming_it_and_every_supported_one(offered: object) -> None:
    with pytest.raises(UnsupportedProtocolVersion) as caught:
        negotiate(offered)
    message = str(caught.value)
    assert repr(offered) in message
    assert all(version in message for version in LEGACY_VERSIONS)
    assert isinstance(caught.value, ProtocolError)


def test_negotiate_names_the_server() -> None:
    with pytest.raises(UnsupportedProtocolVersion, match="server 'weather'"):
        negotiate("2099-01-01", server="weather")


def test_every_revision_of_the_spec_folder_is_in_the_table_newest_first() -> None:
    folders = sorted(
        (path.name for path in SPEC_DIR.iterdir() if path.is_dir() and path.name[:2] == "20"), reverse=True
    )
    assert list(SUPPORTED) == folders
    assert LATEST == "2026-07-28" and MODERN_VERSIONS == ("2026-07-28",)
    assert LATEST_LEGACY == "2025-11-25"


@pytest.mark.parametrize("version", SUPPORTED)
def test_the_era_matches_the_schema_initialize_exists_only_in_legacy_revisions(version: str) -> None:
    schema = json.loads((SPEC_DIR / version / "schema.json").read_text())
    definitions = schema.get("$defs") or schema.get("definitions")
    assert ("InitializeRequest" in definitions) == (REVISIONS[version].era is Era.LEGACY)
    assert ("DiscoverRequest" in definitions) == REVISIONS[version].is_modern


@pytest.mark.parametrize(
    ("version", "batching", "header", "structured", "tasks"),
    [
        ("2026-07-28", False, True, True, False),
        ("2025-11-25", False, True, True, True),
        ("2025-06-18", False, True, True, False),
        ("2025-03-26", True, False, False, False),
        ("2024-11-05", False, False, False, False),
    ],
)
def test_each_revision_carries_its_own_feature_flags(
    version: str, batching: bool, header: bool, structured: bool, tasks: bool
) -> None:
    revision = REVISIONS[version]
    assert (
        revision.batching,
        revision.protocol_version_header,
        revision.structured_content,
        revision.tasks,
    ) == (
        batching,
        header,
        structured,
        tasks,
    )


def test_best_shared_picks_the_newest_we_speak_within_an_era() -> None:
    offered = ["2024-11-05", "2026-07-28", "2025-06-18", "bogus", 7]
    assert best_shared(offered).version == "2026-07-28"  # type: ignore[union-attr]
    assert best_shared(offered, era=Era.LEGACY).version == "2025-06-18"  # type: ignore[union-attr]
    assert best_shared(["2099-01-01"]) is None
