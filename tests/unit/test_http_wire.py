"""http_wire: the session-id check against the spec's definition, over arbitrary text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mcp_troupe.actors.http_wire import is_session_id


def _spec_definition(value: str) -> bool:
    # spec: 2025-06-18 transports, session management — visible ASCII only, 0x21 to 0x7E.
    return bool(value) and all(0x21 <= ord(char) <= 0x7E for char in value)


@given(st.text(alphabet=st.characters(max_codepoint=0x2FF), max_size=40) | st.text(max_size=40))
def test_is_session_id_is_the_spec_s_visible_ascii_range(value: str) -> None:
    assert is_session_id(value) is _spec_definition(value)


def test_is_session_id_at_the_range_s_edges() -> None:
    assert is_session_id("!~") and is_session_id("a1b2-C3")
    for bad in ("", " ", "a b", "a\x7f", "a\x00", "a\x1f", "é", "a\u00a0b", "\u2028"):
        assert not is_session_id(bad), repr(bad)
