"""mcp-troupe imports httpx without httpx's command-line client (``mcp_troupe._httpx``), and leaves no mark
behind: a later import of the client still works, and an httpx imported before is left as it was."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.timeout(60)

PROBE = """
import json, sys
{before}
import mcp_troupe.actors.http  # the HTTP transport: the first import of httpx in this process
loaded = {{name: name in sys.modules for name in ("httpx._main", "click", "pygments")}}
import httpx
import httpx._main  # what the mark must not stop: the real client, loaded on request
real_main, later = httpx.main is httpx._main.main, "httpx._main" in sys.modules
print(json.dumps({{"loaded": loaded, "real_main": real_main, "later": later}}))
"""


def _probe(before: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(before=before)], capture_output=True, text=True, timeout=50
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_the_http_transport_imports_httpx_without_its_command_line_client() -> None:
    result = _probe("")
    assert result["loaded"] == {"httpx._main": False, "click": False, "pygments": False}
    assert result["real_main"] is False  # httpx.main is httpx's own stand-in for a missing client
    assert result["later"] is True


def test_an_httpx_imported_before_is_left_as_it_was() -> None:
    result = _probe("import httpx")
    assert result["loaded"]["httpx._main"] is True  # type: ignore[index]
    assert result["real_main"] is True
