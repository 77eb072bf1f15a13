"""Encoded payloads: long base64 or hex runs, and short ones that decode to text another rule flags.

Private to :mod:`mcp_troupe.policy.injection`.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator
from typing import Final

from mcp_troupe.policy._injection_checks import _checks_for, _text_matches
from mcp_troupe.policy._injection_rules import ENCODED_BLOB, HIGH, LOW, Confidence, _Hit
from mcp_troupe.policy._injection_text import _excerpt, _normalise

_LONG_BASE64_CHARS = 200
_LONG_HEX_DIGITS = 160
_SHORT_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{24,}={0,2}")
_SHORT_HEX = re.compile(r"(?<![0-9A-Fa-f])(?:[0-9A-Fa-f]{2}){16,}(?![0-9A-Fa-f])")
_PRINTABLE_SHARE = 0.95
# Both patterns above match only runs of 24 or more of these characters (hex digits are among them).
_BLOB_RUN = re.compile(r"[A-Za-z0-9+/_-]{24}")
# The same test for ASCII text, in C and without the regex's restart at every offset (issue 18: 1.9 µs a
# short description against 0.7): each character of the class above becomes "a", any other a space.
_BLOB_CHARS: Final = bytes(
    0x61 if chr(code).isascii() and (chr(code).isalnum() or chr(code) in "+/_-") else 0x20
    for code in range(256)
)
_BLOB_RUN_BYTES: Final = b"a" * 24


def has_blob_run(text: str) -> bool:
    """Whether ``text`` holds a run of 24 base64 or hex characters (``_BLOB_RUN.search``, faster)."""
    if text.isascii():
        return _BLOB_RUN_BYTES in text.encode().translate(_BLOB_CHARS)
    return _BLOB_RUN.search(text) is not None


def _mixed_classes(run: str) -> bool:
    # Real base64 of a few hundred bytes has upper, lower and digits; a run of dashes or a long word has not.
    return any(c.isupper() for c in run) and any(c.islower() for c in run) and any(c.isdigit() for c in run)


def _printable_text(data: bytes) -> str | None:
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not decoded:
        return None
    printable = sum(1 for char in decoded if char.isprintable() or char in "\n\t")
    return decoded if printable / len(decoded) >= _PRINTABLE_SHARE else None


def _decode_base64(run: str) -> str | None:
    padded = run + "=" * (-len(run) % 4)
    try:
        data = base64.b64decode(padded.replace("-", "+").replace("_", "/"), validate=True)
    except (binascii.Error, ValueError):
        return None
    return _printable_text(data)


def _decode_hex(run: str) -> str | None:
    try:
        return _printable_text(bytes.fromhex(run))
    except ValueError:
        return None


def _is_long_blob(run: str, *, is_hex: bool) -> bool:
    if is_hex:
        return (
            len(run) >= _LONG_HEX_DIGITS and any(c.isdigit() for c in run) and any(c.isalpha() for c in run)
        )
    return len(run) >= _LONG_BASE64_CHARS and _mixed_classes(run)


def _blob_hits(text: str, *, prefilter: bool) -> Iterator[_Hit]:
    """Long encoded runs, and short ones whose decoded text another rule flags; ``text`` holds a run of 24
    such characters (:func:`has_blob_run`, which the caller has checked)."""
    reported_blob = False
    for pattern, is_hex in ((_SHORT_BASE64, False), (_SHORT_HEX, True)):
        for match in pattern.finditer(text):
            run = match.group().rstrip("=")
            decoded = _decode_hex(run) if is_hex else _decode_base64(run)
            if decoded:
                readable = _normalise(decoded)
                decoded_hits = list(_text_matches(readable, _checks_for(readable, prefilter=prefilter)))
            else:
                decoded_hits = []
            if not reported_blob and (decoded_hits or _is_long_blob(run, is_hex=is_hex)):
                reported_blob = True
                # A long run alone may be data (a key, an image); one that decodes to flagged text hides it.
                confidence: Confidence = HIGH if decoded_hits else LOW
                excerpt = _excerpt(text, match.start(), min(match.end(), match.start() + 48))
                yield ENCODED_BLOB, False, excerpt, confidence
            for rule, hit, hit_confidence in decoded_hits:
                assert decoded is not None
                yield rule, True, _excerpt(decoded, hit.start(), hit.end()), hit_confidence
