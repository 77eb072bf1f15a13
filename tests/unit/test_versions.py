"""Protocol revisions and version negotiation (``mcp_troupe.protocol.versions``).

spec: basic/lifecycle, version negotiation — "If the client does not support the version in the server's
response, it SHOULD disconnect." We refuse anything outside our table.
"""

from __future__ import annotations

import pytest

from mcp_troupe.errors import ProtocolError, UnsupportedProtocolVersion
from mcp_troupe.protocol.versions import LATEST, REVISIONS, SUPPORTED, Revision, negotiate


@pytest.mark.parametrize("version", ["2025-06-18", "2025-03-26", "2024-11-05"])
def test_negotiate_accepts_every_supported_revision(version: str) -> None:
    revision = negotiate(version)

    assert revision.version == version
    assert revision is REVISIONS[version]


@pytest.mark.parametrize(
    "offered", ["2099-01-01", "", None, 20250618, "2025-06-18 ", "2025-11-25", ["2025-06-18"]]
)
def test_negotiate_refuses_an_unsupported_version_naming_it_and_every_supported_one(offered: object) -> None:
    with pytest.raises(UnsupportedProtocolVersion) as caught:
        negotiate(offered)

    message = str(caught.value)
    assert repr(offered) in message
    for version in SUPPORTED:
        assert version in message
    assert caught.value.offered == offered
    assert caught.value.supported == SUPPORTED


def test_a_refused_version_names_the_server_when_given() -> None:
    with pytest.raises(UnsupportedProtocolVersion) as caught:
        negotiate("2099-01-01", server="weather")

    assert caught.value.server == "weather"
    assert "'weather'" in str(caught.value)


def test_an_unsupported_version_is_a_protocol_error() -> None:
    with pytest.raises(ProtocolError):
        negotiate("1999-01-01")


def test_latest_is_2025_06_18_and_supported() -> None:
    assert LATEST == "2025-06-18"
    assert LATEST in SUPPORTED


def test_supported_lists_exactly_the_revisions_in_the_table() -> None:
    assert set(SUPPORTED) == set(REVISIONS) == {"2025-06-18", "2025-03-26", "2024-11-05"}
    assert all(REVISIONS[version].version == version for version in SUPPORTED)


@pytest.mark.parametrize(
    ("version", "batching", "protocol_version_header", "structured_content"),
    [
        ("2025-06-18", False, True, True),
        ("2025-03-26", True, False, False),
        ("2024-11-05", False, False, False),
    ],
)
def test_each_revision_carries_its_own_feature_flags(
    version: str, batching: bool, protocol_version_header: bool, structured_content: bool
) -> None:
    revision = REVISIONS[version]

    assert revision == Revision(
        version,
        batching=batching,
        protocol_version_header=protocol_version_header,
        structured_content=structured_content,
    )


def test_only_2025_03_26_allows_batches() -> None:
    assert [version for version, revision in REVISIONS.items() if revision.batching] == ["2025-03-26"]


def test_only_2025_06_18_sends_the_protocol_version_header() -> None:
    assert [version for version, revision in REVISIONS.items() if revision.protocol_version_header] == [
        "2025-06-18"
    ]
