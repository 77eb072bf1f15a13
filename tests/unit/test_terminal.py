"""The operator at a terminal as the host (``troupe call``): progress bar, form prompts, sampling replies."""

from __future__ import annotations

import io
from typing import Any

import pytest

from mcp_troupe.host import ElicitationRequest, ProgressEvent, SamplingRequest
from mcp_troupe.protocol import callbacks as cb
from mcp_troupe.terminal import ProgressBar, TerminalPrompts

FORM: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 2},
        "age": {"type": "integer", "maximum": 150, "default": 30},
        "colour": {"type": "string", "enum": ["red", "blue"]},
        "ok": {"type": "boolean"},
    },
    "required": ["name", "ok"],
}


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def form(answers: str) -> tuple[dict[str, Any], str]:
    out = io.StringIO()
    request = ElicitationRequest("s", "Who are you?", "form", FORM, cb.schema_defaults(FORM))
    result = TerminalPrompts(io.StringIO(answers), out).elicit(request)
    return result, out.getvalue()


def test_a_form_is_asked_field_by_field_and_a_bad_answer_asked_again() -> None:
    result, shown = form("y\nA\nAda\n200\n\ngreen\nred\nmaybe\ny\n")
    assert result == {"action": "accept", "content": {"name": "Ada", "colour": "red", "ok": True}}
    # The host applies the age default afterwards; the answer passes the same check the host makes.
    assert cb.check_elicit_result(result, FORM)["content"]["age"] == 30
    assert "server 's' asks: Who are you?" in shown
    assert "must have at least 2 characters" in shown and "must be at most 150" in shown
    assert "age [30]: " in shown and "one of red, blue" in shown


def test_the_operator_may_decline_or_walk_away() -> None:
    assert form("n\n")[0] == {"action": "decline"}
    assert form("y\nAda\n")[0] == {"action": "cancel"}  # input ended mid-form
    assert form("")[0] == {"action": "cancel"}


def test_url_mode_shows_origin_and_url_and_opens_nothing() -> None:
    out = io.StringIO()
    request = ElicitationRequest(
        "s", "Connect", "url", url="https://auth.example.com/c?x=1", elicitation_id="e"
    )
    assert TerminalPrompts(io.StringIO("y\n"), out).elicit(request) == {"action": "accept"}
    shown = out.getvalue()
    assert (
        "open a page at https://auth.example.com" in shown
        and "full URL: https://auth.example.com/c?x=1" in shown
    )
    assert "never opens it" in shown
    assert TerminalPrompts(io.StringIO("\n"), io.StringIO()).elicit(request) == {"action": "decline"}


def test_a_servers_text_cannot_write_escape_sequences_to_the_terminal() -> None:
    out = io.StringIO()
    request = ElicitationRequest("s", "hi\x1b[2J\nFAKE troupe: approved", "url", url="https://a.example/")
    TerminalPrompts(io.StringIO("n\n"), out).elicit(request)
    assert "\x1b" not in out.getvalue() and "\nFAKE" not in out.getvalue()


def test_the_operator_types_the_models_reply() -> None:
    out = io.StringIO()
    request = SamplingRequest(
        "s", ({"role": "user", "content": {"type": "text", "text": "2+2?"}},), 10, "Be brief"
    )
    result = TerminalPrompts(io.StringIO("4\n"), out).sample(request)
    assert result["content"] == {"type": "text", "text": "4"} and result["role"] == "assistant"
    assert cb.check_create_message_result(result) == result
    assert "system: Be brief" in out.getvalue() and "user: 2+2?" in out.getvalue()
    with pytest.raises(PermissionError):
        TerminalPrompts(io.StringIO("\n"), io.StringIO()).sample(request)


def test_the_progress_bar_redraws_in_place_on_a_terminal_and_prints_lines_elsewhere() -> None:
    tty = Tty()
    bar = ProgressBar(tty)
    bar(ProgressEvent("s", "t", 1, 4, "one"))
    bar(ProgressEvent("s", "t", 4, 4))
    bar.finish()
    drawn = tty.getvalue()
    assert drawn.count("\r") == 2 and drawn.endswith("\n")
    assert "[" + "#" * 8 in drawn and "1/4 one" in drawn and "4/4" in drawn
    plain = io.StringIO()
    ProgressBar(plain)(ProgressEvent("s", "t", 7))
    assert plain.getvalue() == "progress: [???] 7\n"
