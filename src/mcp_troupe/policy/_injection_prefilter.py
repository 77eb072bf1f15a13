"""The prefilter of the injection rules: which checks can match a text, from the trigger words in it.

Private to :mod:`mcp_troupe.policy.injection`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

#
# Running every pattern on every string is what the scan used to spend its time on, and nearly every string
# is benign. So each pattern carries trigger groups (_needs): for each group, every match of the pattern
# contains one of the group's entries, and the pattern runs only on text that holds an entry of each of its
# groups. An entry of letters and digits is a *word*: the pattern spells it out between boundaries that
# cannot be an ASCII letter or digit (\b, \s, punctuation, a lookaround such as (?![A-Za-z0-9])), so any match
# holds it as a whole run of [a-z0-9] ("instructions?" gives "instruction" and "instructions"; "don'?t" gives
# "don" and "dont"). Any other entry is a *fragment* that every match holds as it stands ("<", "<!--").
# Both are looked for in _folded() text, where every character that IGNORECASE takes for an ASCII letter is
# that letter in lower case, so no spelling of a trigger goes unseen. A pattern with no selective word keeps
# a broad group ("if", "is"): it then runs more often, never less.
#
# Keep the groups true when a pattern changes: an entry that a match can avoid makes the scan miss what the
# pattern finds. tests/unit/test_injection.py generates texts that each pattern matches and checks that the
# prefilter lets the pattern run on them, and that the findings equal those of running every pattern.

_Needs = tuple[frozenset[str], ...]


def _needs(*groups: str) -> _Needs:
    """Trigger groups of one pattern, each a space-separated list of words and fragments (lower case)."""
    assert groups and all(group == group.lower() for group in groups)
    return tuple(frozenset(group.split()) for group in groups)


def _inflected(verbs: str) -> str:
    """``verbs`` with the endings that _SEND_TO_ADDRESS allows after them: (?:s|ed|ing)?."""
    return " ".join(verb + ending for verb in verbs.split() for ending in ("", "s", "ed", "ing"))


# IGNORECASE takes these for ASCII letters too (U+0130 and U+0131 for i, the long s U+017F for s, the Kelvin
# sign U+212A for k); no other non-ASCII character matches an ASCII letter or digit, and none but U+0130 and
# U+212A lower-cases to one (test_only_the_ascii_lookalikes_fold_to_ascii checks every code point).
_ASCII_LOOKALIKES: Final = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
_WORD: Final = re.compile(r"[a-z0-9]+")
_PERCENT_ESCAPE: Final = re.compile(r"%[0-9a-f]{2}")
"""A URL's percent-escape: ``%7Bchat`` is the word ``chat`` to a check (``%7B`` is ``{``), but one word
``7bchat`` to :data:`_WORD`."""
_PERCENT_ESCAPE_BYTES: Final = re.compile(rb"%[0-9a-f]{2}")
""":data:`_PERCENT_ESCAPE` for text already encoded (ASCII), so that it is not encoded a second time."""


_WORD_BYTES: Final = bytes(
    code if 0x30 <= code <= 0x39 or 0x61 <= code <= 0x7A else 0x20 for code in range(256)
)
"""Keeps the bytes of ``[a-z0-9]`` and makes every other byte a space: in lower-cased ASCII text, the words
``bytes.split`` then finds are exactly the runs :data:`_WORD` finds, at a fifth of the cost (issue 18)."""


def _folded(text: str) -> str:
    """``text`` lower-cased; a character that IGNORECASE matches to an ASCII letter becomes that letter."""
    if text.isascii():
        return text.lower()
    return text.translate(_ASCII_LOOKALIKES).lower()


_KNOWN_WORD_SETS: Final = 4096
"""How many sets of trigger words :meth:`_Prefilter.runnable` keeps the answer for (a few hundred KiB)."""


class _Prefilter:
    """Which checks can match a text, from the trigger words and fragments in it (see _needs).

    The groups a text holds are kept as one integer, a bit per group, and each check's groups as another, so
    "every group of the check is present" is one ``&``. Each trigger word and fragment knows the checks whose
    first group it can make present (the only checks worth testing once that word is seen), so a benign
    text that holds a few common trigger words ("tool", "returns") costs a handful of integer tests, not a
    walk over every group those words belong to (issue 18: this was most of the scan of a short definition).
    """

    def __init__(self, needs: Sequence[_Needs]) -> None:
        groups = sorted({group for check_needs in needs for group in check_needs}, key=sorted)
        number_of = {group: number for number, group in enumerate(groups)}
        by_word: dict[str, list[int]] = {}
        by_fragment: dict[str, list[int]] = {}
        for group, number in number_of.items():
            for entry in sorted(group):
                index = by_word if _WORD.fullmatch(entry) else by_fragment
                index.setdefault(entry, []).append(number)
        # The checks to test when a group is present: a check can run once all its groups are present, so
        # it is enough to look it up by its first group. Each with the mask of all its groups.
        checks_by_first_group: dict[int, list[tuple[int, int]]] = {}
        for check, check_needs in enumerate(needs):
            mask = 0
            for group in check_needs:
                mask |= 1 << number_of[group]
            checks_by_first_group.setdefault(number_of[check_needs[0]], []).append((check, mask))

        def entry_of(numbers: list[int]) -> tuple[int, tuple[tuple[int, int], ...]]:
            mask = 0
            for number in numbers:
                mask |= 1 << number
            checks = tuple(check for number in numbers for check in checks_by_first_group.get(number, ()))
            return mask, checks

        self._by_word = {word: entry_of(numbers) for word, numbers in by_word.items()}
        self._words = frozenset(by_word)
        # The same words as bytes, for ASCII text (see _WORD_BYTES): every entry of by_word is ASCII.
        self._byte_words = frozenset(word.encode() for word in by_word)
        # A fragment of another script (the lexicons of other languages hold many) cannot be in ASCII text,
        # which nearly every string is: those are looked for only in text that is not ASCII.
        self._by_fragment = tuple(
            (fragment, entry_of(numbers)) for fragment, numbers in by_fragment.items() if fragment.isascii()
        )
        # One search says whether any fragment is there at all; most strings hold none.
        self._any_fragment = re.compile(
            "|".join(re.escape(fragment) for fragment, _ in self._by_fragment) or "(?!)"
        )
        # The answer for each set of trigger words (as bytes) seen in ASCII text without fragments.
        self._by_words: dict[frozenset[bytes], tuple[int, ...]] = {}
        # The fragments of other scripts by their first character outside ASCII: a text that lacks that
        # character cannot hold the fragment, and a text holds few of the thousands of such characters
        # (testing every fragment on every text that is not ASCII was most of the scan of such a text).
        self._other_fragments_by_char: dict[
            str, list[tuple[str, tuple[int, tuple[tuple[int, int], ...]]]]
        ] = {}
        for fragment, numbers in by_fragment.items():
            if not fragment.isascii():
                first_other = next(char for char in fragment if not char.isascii())
                self._other_fragments_by_char.setdefault(first_other, []).append(
                    (fragment, entry_of(numbers))
                )

    def runnable(self, text: str) -> list[int]:
        """The numbers of the checks that ``text`` has the triggers of, in order; the others cannot match."""
        # Whitespace as the checks' `\s+` sees it: any run of Unicode white space (NEL, NBSP, tabs, line
        # breaks) is one space, so that a fragment of several words is found whatever separates them.
        folded = " ".join(_folded(text).split())
        has_fragment = self._any_fragment.search(folded) is not None
        is_ascii = folded.isascii()
        byte_words: frozenset[bytes] = frozenset()
        if is_ascii:
            # Nearly every string: its words found on bytes (_WORD_BYTES), the same words as _WORD's.
            encoded = folded.encode()
            found_bytes = encoded.translate(_WORD_BYTES).split()
            if "%" in folded:
                found_bytes += _PERCENT_ESCAPE_BYTES.sub(b" ", encoded).translate(_WORD_BYTES).split()
            byte_words = self._byte_words.intersection(found_bytes)
            if not has_fragment:
                # Then the answer depends on the trigger words alone, which texts share ("tool", "returns").
                known = self._by_words.get(byte_words)
                if known is not None:
                    return list(known)
            words: Iterable[str] = [word.decode() for word in byte_words]
        else:
            found = _WORD.findall(folded)
            if "%" in folded:
                found += _WORD.findall(_PERCENT_ESCAPE.sub(" ", folded))
            words = self._words.intersection(found)
        entries = [self._by_word[word] for word in words]
        if has_fragment:
            entries += [entry for fragment, entry in self._by_fragment if fragment in folded]
        if not is_ascii:
            by_char = self._other_fragments_by_char
            for char in set(folded).intersection(by_char):
                entries += [entry for fragment, entry in by_char[char] if fragment in folded]
        present = 0
        for mask, _ in entries:
            present |= mask
        runnable = (
            sorted({check for _, checks in entries for check, needed in checks if needed & present == needed})
            if present
            else []
        )
        if not has_fragment and is_ascii:
            if len(self._by_words) >= _KNOWN_WORD_SETS:
                self._by_words.clear()  # a text of unusual words each time: start again rather than grow
            self._by_words[byte_words] = tuple(runnable)
        return runnable
