"""Where a pattern's matches can start: the short literal prefixes that every match begins with.

Private to :mod:`mcp_troupe.policy.injection`. The patterns are case-insensitive and most begin with a word
boundary or a lookbehind, so Python's regex engine finds no first character to skip to and tries the whole
pattern at every position of the text: a long description costs each pattern that the prefilter lets run
tens to thousands of microseconds (issue 15). But nearly every pattern begins with a literal word ("send",
"ignore", "vanaf nu"), so the positions where it can match at all are few. :func:`starts` reads them from
the parsed pattern: lower-case prefixes of up to four characters, each with whether the character before a
match is then no letter or digit. :class:`Starts` finds where they stand in a folded copy of the text
(:class:`Folded`: in the index of its word starts, or with one case-sensitive search that the engine runs
fast), and the pattern is tried only there, with ``match`` at each position in order. A match the pattern
finds is always at such a position, and ``match`` at a position sees the text before it as ``search`` does
(``\\b``, lookbehinds), so the first match found this way is the one ``search`` finds. The tests hold the two
equal for every pattern, on corpus texts and on texts made to match it.

The folded copy keeps every offset: ASCII lower-cased, the four characters outside ASCII that an ASCII
letter matches case-insensitively (the Kelvin sign, the long s, the Turkish i's) folded to that letter, and
every other character to one placeholder that a literal outside ASCII stands for. Text mostly outside ASCII
is searched as it always was: there the placeholder would stand nearly everywhere.
"""

from __future__ import annotations

import functools
import importlib
import re
from typing import Any, Final

from mcp_troupe.policy._injection_prefilter import _ASCII_LOOKALIKES

# The parser behind re.compile (re._parser since Python 3.11): the parsed form says what a pattern consumes
# first without a second parser of our own. Anything in it that this module does not know ends a prefix
# there, which is always safe (a shorter prefix admits more positions, never fewer).
_PARSER: Any = importlib.import_module("re._parser")
_CONSTANTS: Any = importlib.import_module("re._constants")

_ZERO_WIDTH: Final = frozenset((_CONSTANTS.AT, _CONSTANTS.ASSERT, _CONSTANTS.ASSERT_NOT))
_REPEATS: Final = frozenset((_CONSTANTS.MAX_REPEAT, _CONSTANTS.MIN_REPEAT))

_PREFIX_CHARS: Final = 4
"""A prefix stops after this many characters: longer ones would admit few positions fewer."""
_MAX_PREFIXES: Final = 400
"""Past this many prefixes they are cut shorter (fewer, each admitting more positions)."""
_SMALL_CLASS: Final = 12
"""A character class of at most this many characters (``[`'"]``) is read as that many one-character
prefixes; a larger one ends the prefix."""

_Prefixes = frozenset[tuple[str, bool]]
"""Each a prefix, and whether what follows in the pattern may still extend it (``True``) or not."""
_EMPTY_OPEN: Final[_Prefixes] = frozenset({("", True)})
# A prefix may begin with one of two marks that say what comes before a match: _AFTER_OTHER, a character
# that is no [a-z0-9] once folded, or none (a lookbehind such as (?<![a-z0-9]) or (?<![\w.-])); _BOUNDARY, a
# \b, which says the same when the match begins with [a-z0-9]. Most patterns begin so, and it keeps the
# candidates to the starts of words: "in" as a prefix would otherwise stand at every "in" inside a word.
_AFTER_OTHER: Final = "\x01"
_BOUNDARY: Final = "\x02"
_MARKS: Final = (_AFTER_OTHER, _BOUNDARY)
_ALPHANUMERIC: Final = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


class _Unknown(Exception):
    """A part of a pattern that this module does not read: the prefix ends before it."""


# The one-character stand-in, in the folded text, for every character outside ASCII that matches no ASCII
# letter (the letters of other scripts, typographic quotes and dashes).
_OTHER: Final = "\x00"
# The characters outside ASCII that a case-insensitive ASCII letter matches, and the letter they fold to
# (the prefilter's table, which the tests hold to every code point).
_LOOKALIKE_OF: Final = {chr(code): letter for code, letter in _ASCII_LOOKALIKES.items()}


def _fold_char(char: str) -> str:
    """The character of the folded text for ``char``: lower-case ASCII, a lookalike's letter, or _OTHER."""
    if char.isascii():
        return char.lower()
    return _LOOKALIKE_OF.get(char, _OTHER)


@functools.cache
def _ascii_forms(code: int, ignore_case: bool) -> frozenset[str]:
    """The characters of the folded text (:func:`folded`) that a literal ``chr(code)`` can stand for."""
    literal = chr(code)
    if not ignore_case:
        return frozenset({_fold_char(literal)})
    pattern = re.compile(re.escape(literal), re.IGNORECASE)
    candidates = [chr(ascii) for ascii in range(128)] + list(_LOOKALIKE_OF)
    forms = {_fold_char(char) for char in candidates if pattern.fullmatch(char)}
    if not literal.isascii():
        forms |= {_fold_char(literal), _OTHER}  # itself, and any other character of its script
    return frozenset(forms)


def _closed(prefixes: _Prefixes) -> _Prefixes:
    return frozenset((prefix, False) for prefix, _ in prefixes)


def _sequence(items: Any, ignore_case: bool) -> _Prefixes:
    """The prefixes of a sequence of parsed items: each item's, joined while they stay open."""
    current = _EMPTY_OPEN
    for op, argument in items:
        if not any(is_open for _, is_open in current):
            break
        try:
            step = _item(op, argument, ignore_case)
        except _Unknown:
            return _closed(current)
        joined: set[tuple[str, bool]] = set()
        for prefix, is_open in current:
            if not is_open:
                joined.add((prefix, False))
                continue
            for more, more_open in step:
                longer = _joined(prefix, more)
                if _length(longer) >= _PREFIX_CHARS:
                    joined.add((_cut(longer, _PREFIX_CHARS), False))
                else:
                    joined.add((longer, more_open))
        current = _shortened(joined)
    return current


def _joined(prefix: str, more: str) -> str:
    """``prefix + more``, with at most one mark, and only at the start (a mark later says nothing here)."""
    if more[:1] in _MARKS:
        if prefix.strip("".join(_MARKS)):
            more = more.lstrip("".join(_MARKS))
        elif prefix:
            # Two marks in a row: a lookbehind's says the most.
            mark = _AFTER_OTHER if _AFTER_OTHER in (prefix, more[0]) else _BOUNDARY
            return mark + more.lstrip("".join(_MARKS))
    return prefix + more


def _length(prefix: str) -> int:
    """How many characters ``prefix`` asks for (its mark is none)."""
    return len(prefix) - (prefix[:1] in _MARKS)


def _cut(prefix: str, length: int) -> str:
    return prefix[: length + (prefix[:1] in _MARKS)]


def _shortened(prefixes: set[tuple[str, bool]]) -> _Prefixes:
    """At most :data:`_MAX_PREFIXES` prefixes: cut shorter (and so closed) until there are that few."""
    length = _PREFIX_CHARS
    while len(prefixes) > _MAX_PREFIXES and length > 1:
        length -= 1
        prefixes = {
            (prefix, is_open) if _length(prefix) < length else (_cut(prefix, length), False)
            for prefix, is_open in prefixes
        }
    return frozenset(prefixes)


def _is_after_other(lookbehind: Any, ignore_case: bool) -> bool:
    """Whether a negative lookbehind refuses every character that folds to [a-z0-9] (see _AFTER_OTHER)."""
    direction, items = lookbehind
    if direction != -1 or len(items) != 1 or items[0][0] is not _CONSTANTS.IN:
        return False
    members = items[0][1]
    if (_CONSTANTS.CATEGORY, _CONSTANTS.CATEGORY_WORD) in members:
        return True  # \w: every ASCII letter and digit, and the lookalikes (letters)
    # [a-z0-9] refuses the upper case and the lookalikes only when the case is ignored.
    return (
        ignore_case
        and (_CONSTANTS.RANGE, (ord("a"), ord("z"))) in members
        and (_CONSTANTS.RANGE, (ord("0"), ord("9"))) in members
    )


def _item(op: Any, argument: Any, ignore_case: bool) -> _Prefixes:
    """The prefixes of one parsed item; :class:`_Unknown` for an item that ends them."""
    if op is _CONSTANTS.AT and argument is _CONSTANTS.AT_BOUNDARY:
        return frozenset({(_BOUNDARY, True)})
    if op is _CONSTANTS.ASSERT_NOT and _is_after_other(argument, ignore_case):
        return frozenset({(_AFTER_OTHER, True)})
    if op in _ZERO_WIDTH:
        return _EMPTY_OPEN  # consumes nothing: what follows makes the prefix
    if op is _CONSTANTS.LITERAL:
        # No form in ASCII: this way through the pattern cannot match ASCII text at all.
        return frozenset((form, True) for form in _ascii_forms(argument, ignore_case))
    if op is _CONSTANTS.IN:
        forms: set[str] = set()
        size = 0
        for kind, value in argument:
            if kind is _CONSTANTS.LITERAL:
                codes = range(value, value + 1)
            elif kind is _CONSTANTS.RANGE:
                codes = range(value[0], value[1] + 1)
            else:
                raise _Unknown  # a negation or a category (\s, \w) admits too much
            size += len(codes)
            if size > _SMALL_CLASS:
                raise _Unknown
            for code in codes:
                forms |= _ascii_forms(code, ignore_case)
        return frozenset((form, True) for form in forms)
    if op is _CONSTANTS.SUBPATTERN:
        _, add_flags, del_flags, items = argument
        if add_flags & re.IGNORECASE:
            ignore_case = True
        if del_flags & re.IGNORECASE:
            ignore_case = False
        return _sequence(items, ignore_case)
    if op is _CONSTANTS.BRANCH:
        union: set[tuple[str, bool]] = set()
        for items in argument[1]:
            union |= _sequence(items, ignore_case)
        return _shortened(union)
    if op in _REPEATS:
        low, high, items = argument
        inner = _sequence(items, ignore_case)
        if low == high == 1:
            return inner
        if low == 0:
            # Absent, or present (and then, past one repeat, followed by more of it).
            return _EMPTY_OPEN | (inner if high == 1 else _closed(inner))
        return _closed(inner)
    raise _Unknown


def starts(pattern: str, flags: int) -> frozenset[tuple[str, bool]] | None:
    """Lower-case prefixes such that every match of ``pattern`` begins, in the :func:`folded` text, with one
    of them, each with whether the character before the match is then no [a-z0-9] (or there is none);
    ``None`` when the pattern has no such set (it may begin anywhere)."""
    try:
        parsed = _PARSER.parse(pattern, flags)
        prefixes = _sequence(parsed.data, bool(flags & re.IGNORECASE))
    except Exception:  # any surprise in a private parser: search the pattern as it is
        return None
    found: set[tuple[str, bool]] = set()
    for prefix, _ in prefixes:
        mark = prefix[:1] if prefix[:1] in _MARKS else ""
        rest = prefix[len(mark) :]
        if not rest:
            return None
        found.add((rest, mark == _AFTER_OTHER or (mark == _BOUNDARY and rest[0] in _ALPHANUMERIC)))
    # A prefix that begins with another, as strictly placed or less, adds no position.
    return frozenset(
        (prefix, after_other)
        for prefix, after_other in found
        if not any(
            (prefix[:cut], other) in found
            for cut in range(1, len(prefix) + 1)
            for other in (False, after_other)
            if (prefix[:cut], other) != (prefix, after_other)
        )
    )


def _finder(prefixes: frozenset[tuple[str, bool]]) -> re.Pattern[str]:
    """One case-sensitive pattern that matches one character at every position where a prefix begins.

    It consumes only the first character (the rest, and the character before, are lookarounds), so
    consecutive matches overlap no prefix; and every alternative begins with a plain character, so the
    engine skips straight to them.
    """
    by_first: dict[str, tuple[set[str], set[str]]] = {}
    for prefix, after_other in sorted(prefixes):
        anywhere, after_others = by_first.setdefault(prefix[0], (set(), set()))
        (after_others if after_other else anywhere).add(prefix[1:])
    alternatives = []
    for first, (anywhere, after_others) in sorted(by_first.items()):
        ways = []
        for rests, before in ((anywhere, ""), (after_others, "(?<![a-z0-9].)")):
            if rests:
                after = "" if "" in rests else "(?=" + "|".join(map(re.escape, sorted(rests))) + ")"
                ways.append(before + after)
        alternatives.append(re.escape(first) + (ways[0] if len(ways) == 1 else "(?:" + "|".join(ways) + ")"))
    return re.compile("|".join(alternatives))


_NOT_ASCII: Final = re.compile("[^\x00-\x7f]+")
_MOSTLY_OTHER: Final = 8
"""Text with more than one character in this many outside ASCII is searched as it is: in it the starts of
the other scripts' phrases (all _OTHER) are nearly everywhere."""


def folded(text: str) -> Folded | None:
    """``text`` as the starts are looked for in (:class:`Folded`); ``None`` for text that is better searched
    as it is."""
    if text.isascii():
        return Folded(text.lower())
    others = len(text) - len(text.encode("ascii", "ignore"))
    if others * _MOSTLY_OTHER > len(text):
        return None
    return Folded(_NOT_ASCII.sub(lambda run: "".join(map(_fold_char, run.group())), text).lower())


_RUN: Final = re.compile("[a-z0-9]+")


class Folded:
    """A text folded for the starts: every character one (:func:`_fold_char`), so offsets are the text's;
    with, made on first use, where its words begin by their first characters."""

    __slots__ = ("_word_starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._word_starts: dict[str, list[int]] | None = None

    def word_starts(self) -> dict[str, list[int]]:
        """The start of every run of [a-z0-9] (in order) by each of its first 1 to _PREFIX_CHARS
        characters: what the prefixes after no [a-z0-9] can stand at, shared by every pattern."""
        index = self._word_starts
        if index is None:
            index = {}
            text = self.text
            for run in _RUN.finditer(text):
                start = run.start()
                piece = text[start : start + _PREFIX_CHARS]
                for length in range(1, len(piece) + 1):
                    index.setdefault(piece[:length], []).append(start)
            self._word_starts = index
        return index


class Starts:
    """The positions of a pattern's possible matches in folded text (see the module's docstring)."""

    __slots__ = ("_finder", "_words")

    def __init__(self, prefixes: frozenset[tuple[str, bool]]) -> None:
        # Prefixes after no [a-z0-9] that begin with one stand at the start of a word: looked up in the
        # text's index of words. The others are searched for.
        self._words = tuple(
            sorted(prefix for prefix, after_other in prefixes if after_other and prefix[0] in _ALPHANUMERIC)
        )
        others = frozenset(
            (prefix, after_other)
            for prefix, after_other in prefixes
            if not (after_other and prefix[0] in _ALPHANUMERIC)
        )
        self._finder = _finder(others) if others else None

    def positions(self, text: Folded, pos: int = 0) -> list[int]:
        """Where, from ``pos`` on, a match can begin in ``text``, in order."""
        found: list[int] = []
        if self._words:
            index = text.word_starts()
            for prefix in self._words:
                at = index.get(prefix)
                if at is not None:
                    found += at
        if self._finder is not None:
            found += [match.start() for match in self._finder.finditer(text.text)]
        found.sort()
        if pos:
            return [start for start in found if start >= pos]
        return found
