"""The scan's patterns are compiled on first use (``_injection_rules._LazyPattern``), not at import.

Compiling all of them took about a third of a ``troupe`` command's start-up; these tests hold the lazy
pattern to the compiled regex it stands for, and a fresh import to compiling none of them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from mcp_troupe.policy._injection_checks import _CHECKS, _Accepted, _Fallback
from mcp_troupe.policy._injection_rules import _SENSITIVE_PATHS, _compile, _LazyPattern

ROOT = Path(__file__).resolve().parents[2]


def _lazy_patterns() -> list[_LazyPattern]:
    found: dict[int, _LazyPattern] = {}
    for _, check in _CHECKS:
        owner = check.regex if isinstance(check, (_Accepted, _Fallback)) else getattr(check, "__self__", None)
        if isinstance(owner, _LazyPattern):
            found[id(owner)] = owner
    for path in _SENSITIVE_PATHS:
        found[id(path)] = path
    return list(found.values())


LAZY = _lazy_patterns()


def test_every_pattern_check_is_lazy_and_compiles_with_its_own_flags() -> None:
    # A few hundred patterns: a check built from a pattern string that went around _compile would not be here.
    assert len(LAZY) > 200
    for lazy in LAZY:
        compiled = lazy.compiled()
        assert (compiled.pattern, compiled.flags) == (
            lazy.pattern,
            re.compile(lazy.pattern, lazy.flags).flags,
        )
        assert lazy.compiled() is compiled  # compiled once, then reused


def test_a_pattern_is_compiled_on_its_first_search_only() -> None:
    (lazy,) = _compile([r"\bsecret\s+word\b"])
    assert lazy._compiled is None
    assert lazy.search("no match here") is None
    compiled = lazy._compiled
    assert compiled is not None
    match = lazy.search("the Secret  Word is", 2)
    assert match is not None and match.group() == "Secret  Word"
    assert lazy._compiled is compiled
    # DOTALL only for the HTML comment pattern, as before the patterns were lazy.
    (comment,) = _compile([r"<!--.*?-->"])
    assert comment.flags & re.DOTALL and not lazy.flags & re.DOTALL


@settings(max_examples=150, deadline=None)
@given(
    index=st.integers(min_value=0, max_value=len(LAZY) - 1),
    text=st.text(alphabet=st.sampled_from(list("abcdeilnorstuwy .~/_-<>!:\n")), max_size=80),
    pos=st.integers(min_value=0, max_value=10),
)
def test_a_lazy_pattern_finds_what_its_regex_finds(index: int, text: str, pos: int) -> None:
    lazy = LAZY[index]
    regex = re.compile(lazy.pattern, lazy.flags)
    found = lazy.search(text, pos)
    expected = regex.search(text, pos)
    assert (found and found.span()) == (expected and expected.span())
    assert [match.span() for match in lazy.finditer(text)] == [match.span() for match in regex.finditer(text)]


def test_a_fresh_import_compiles_no_pattern_and_a_benign_scan_only_a_few() -> None:
    script = (
        "import json; from mcp_troupe.policy import injection\n"
        "from tests.unit.test_injection_lazy_patterns import _lazy_patterns\n"
        "patterns = _lazy_patterns()\n"
        "before = sum(p._compiled is not None for p in patterns)\n"
        "injection.scan_tool('get_weather', 'Return the weather forecast for a city.', "
        "{'type': 'object', 'properties': {'city': {'type': 'string', 'description': 'The city name.'}}})\n"
        "print(json.dumps([len(patterns), before, sum(p._compiled is not None for p in patterns)]))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=True, cwd=ROOT
    )
    total, before, after = json.loads(completed.stdout)
    assert before == 0
    assert after < total // 10, (after, total)
