"""The forms text takes before the injection rules read it: invisible characters found and removed, tag
characters decoded, compatibility forms folded (NFKC), and short excerpts made safe to print.

Private to :mod:`mcp_troupe.policy.injection`, which uses it on every string it scans.
"""

from __future__ import annotations

import re
import unicodedata

_ZERO_WIDTH_JOINER = "\u200d"
_TAG_FIRST = 0xE0000

_INVISIBLE = re.compile(
    "["
    "\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f"  # controls (an ANSI escape starts with U+001B)
    "\u061c"  # Arabic letter mark (bidi)
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers: render as nothing, count as letters
    "\u180e"  # Mongolian vowel separator
    "\u200b-\u200f"  # zero-width space/non-joiner/joiner, LRM, RLM
    "\u202a-\u202e"  # bidi embeddings and overrides
    "\u2060-\u2064"  # word joiner, invisible operators
    "\u2066-\u2069"  # bidi isolates
    "\ufeff"  # zero-width no-break space (BOM)
    "\U000e0000-\U000e007f"  # tag characters
    "\U000e0100-\U000e01ef"  # variation selectors supplement
    "]"
)


def _is_emoji_side(char: str) -> bool:
    return unicodedata.category(char) in ("So", "Sk") or char == "\ufe0f"


def _invisible_positions(text: str) -> list[int]:
    """Offsets of the invisible characters in ``text``, minus zero-width joiners inside emoji sequences."""
    if text.isascii() and text.isprintable():
        # U+0020-U+007E only: none of them is in _INVISIBLE (nearly every string of a definition).
        return []
    positions = []
    for match in _INVISIBLE.finditer(text):
        index = match.start()
        if (
            text[index] == _ZERO_WIDTH_JOINER
            and 0 < index < len(text) - 1
            and _is_emoji_side(text[index - 1])
            and _is_emoji_side(text[index + 1])
        ):
            continue
        positions.append(index)
    return positions


def _escape(text: str) -> str:
    """Show invisible, control and line-break characters as escapes, so an excerpt is safe to print."""
    out = []
    for char in text:
        if char == "\n":
            out.append("\\n")
        elif _INVISIBLE.fullmatch(char) or char in "\r\t\u2028\u2029" or unicodedata.category(char) == "Cs":
            code = ord(char)
            out.append(f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}")
        else:
            out.append(char)
    return "".join(out)


_EXCERPT_CONTEXT = 24
_EXCERPT_MAX = 120


def _excerpt(text: str, start: int, end: int) -> str:
    """A short, escaped piece of ``text`` around ``[start, end)``."""
    left = max(0, start - _EXCERPT_CONTEXT)
    right = min(len(text), max(end, start + 1) + _EXCERPT_CONTEXT)
    piece = _escape(text[left:right])
    if len(piece) > _EXCERPT_MAX:
        piece = piece[: _EXCERPT_MAX - 1] + "…"
    return ("…" if left > 0 else "") + piece + ("…" if right < len(text) else "")


def _decoded_tags(text: str) -> str:
    """The ASCII that a run of tag characters spells (U+E0020-U+E007E mirror printable ASCII)."""
    return "".join(
        chr(ord(char) - _TAG_FIRST) for char in text if _TAG_FIRST + 0x20 <= ord(char) <= _TAG_FIRST + 0x7E
    )


def _normalise(text: str) -> str:
    """Read ``text`` as the model does: tags decoded to ASCII, other invisibles dropped, NFKC-folded."""
    if _INVISIBLE.search(text):
        text = _INVISIBLE.sub(lambda match: _decoded_tags(match.group()) or "", text)
    # Every ASCII character is its own NFKC form.
    return text if text.isascii() else unicodedata.normalize("NFKC", text)
