"""A JSON decoder without recursion, for the frames ``json.loads`` cannot take: nested too deeply.

``json.loads`` recurses once per nesting level, inside the interpreter's recursion limit, so whether a
value 900 levels deep decodes depends on how deep the calling thread's stack already is: one thread
decodes it, another raises ``RecursionError``. A server can use that: a tool whose schema ``default`` nests
985 levels made the whole ``tools/list`` answer unreadable, and the connect timed out with its reason only in
a log line (issue 15).

This decoder is the fallback the frame decoder uses after a ``RecursionError``. It keeps an explicit stack,
so it never recurses, and it bounds what it builds: a container more than :data:`MAX_DEPTH` levels down is
not built but replaced by a :class:`TooDeep` marker (a string saying so). Everything after decoding (the
policy's walks, fingerprints, comparisons of catalogs, ``repr`` in logs) then meets bounded depth only, and
the policy rejects a definition holding a marker with a reason that names where it is.

It accepts exactly what ``json.loads`` accepts (including ``NaN`` and ``Infinity``, and the last of
duplicate keys), using the stdlib's own string scanner; it is slower, which is why it is only a fallback.
"""

from __future__ import annotations

import json
import json.decoder
import re
from collections.abc import Callable
from typing import Any, Final

__all__ = ["MAX_DEPTH", "TooDeep", "loads"]

MAX_DEPTH: Final = 200
"""Containers nested deeper than this are replaced by a :class:`TooDeep` marker."""

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_CONSTANTS: Final[dict[str, Any]] = {
    "true": True,
    "false": False,
    "null": None,
    "NaN": float("nan"),
    "Infinity": float("inf"),
    "-Infinity": float("-inf"),
}
# The stdlib's own string scanner (C), so strings decode exactly as json.loads decodes them. Untyped in
# typeshed, hence the explicit type.
_scanstring: Callable[[str, int, bool], tuple[str, int]] = getattr(json.decoder, "scanstring")  # noqa: B009


class TooDeep(str):
    """Stands in for a JSON array or object nested deeper than :data:`MAX_DEPTH` levels (not decoded)."""

    __slots__ = ()

    def __new__(cls) -> TooDeep:
        return super().__new__(cls, f"[JSON nested deeper than {MAX_DEPTH} levels: not decoded]")


def _error(message: str, text: str, position: int) -> json.JSONDecodeError:
    return json.JSONDecodeError(message, text, position)


def loads(data: bytes | str) -> Any:
    """Decode one JSON document without recursion; deep containers become :class:`TooDeep` markers.

    Raises:
        json.JSONDecodeError: the text is not JSON (a ``ValueError``, like ``json.loads``'s).
        UnicodeDecodeError: bytes that are not UTF-8.
    """
    text = data.decode("utf-8") if isinstance(data, bytes | bytearray) else data
    if text.startswith("\ufeff"):
        raise _error("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    # One frame per open container: [the container (None while skipped), is it an object, pending key].
    stack: list[list[Any]] = []
    # How many levels down we are inside a container that is too deep to build (0: not skipping).
    skipped = 0

    def finish(container: Any) -> Any:
        nonlocal skipped
        if container is not None:
            return container
        skipped -= 1
        return TooDeep() if skipped == 0 else None

    position = _skip_space(text, 0)
    while True:
        # ---- one value at `position` ----
        if position >= len(text):
            raise _error("Expecting value", text, position)
        char = text[position]
        value: Any
        if char == "{" or char == "[":
            is_object = char == "{"
            if skipped or len(stack) >= MAX_DEPTH:
                skipped += 1
                container: Any = None
            else:
                container = {} if is_object else []
            position = _skip_space(text, position + 1)
            if position < len(text) and text[position] == ("}" if is_object else "]"):
                value = finish(container)
                position += 1
            else:
                stack.append([container, is_object, None])
                if is_object:
                    position = _read_key(text, position, stack[-1])
                continue
        elif char == '"':
            value, position = _scanstring(text, position + 1, True)
        else:
            value, position = _scalar(text, position)
        # ---- attach it; close every container that ends right after it ----
        while True:
            if not stack:
                end = _skip_space(text, position)
                if end != len(text):
                    raise _error("Extra data", text, end)
                return value
            frame = stack[-1]
            if frame[0] is not None:
                if frame[1]:
                    frame[0][frame[2]] = value
                else:
                    frame[0].append(value)
            position = _skip_space(text, position)
            following = text[position] if position < len(text) else ""
            if following == ",":
                position = _skip_space(text, position + 1)
                if frame[1]:
                    position = _read_key(text, position, frame)
                break
            if following == ("}" if frame[1] else "]"):
                stack.pop()
                value = finish(frame[0])
                position += 1
                continue
            expected = "',' delimiter" if not frame[1] else "',' delimiter or '}'"
            raise _error(f"Expecting {expected}", text, position)


def _skip_space(text: str, position: int) -> int:
    match = _WHITESPACE.match(text, position)
    assert match is not None  # the pattern matches the empty string
    return match.end()


def _scalar(text: str, position: int) -> tuple[Any, int]:
    """A number or a constant (``true``, ``null``, ``NaN``, ...) at ``position``, and where it ends."""
    for word, constant in _CONSTANTS.items():
        if text.startswith(word, position):
            return constant, position + len(word)
    match = _NUMBER.match(text, position)
    if match is None:
        raise _error("Expecting value", text, position)
    integer, fraction, exponent = match.groups()
    if fraction or exponent:
        return float(integer + (fraction or "") + (exponent or "")), match.end()
    return int(integer), match.end()


def _read_key(text: str, position: int, frame: list[Any]) -> int:
    """Read ``"key" :`` at ``position`` into ``frame``; return where the value starts."""
    if position >= len(text) or text[position] != '"':
        raise _error("Expecting property name enclosed in double quotes", text, position)
    key, position = _scanstring(text, position + 1, True)
    frame[2] = key
    position = _skip_space(text, position)
    if position >= len(text) or text[position] != ":":
        raise _error("Expecting ':' delimiter", text, position)
    return _skip_space(text, position + 1)
