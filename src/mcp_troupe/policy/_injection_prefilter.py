"""The prefilter of the injection rules: which checks can match a text, from the trigger words in it.

Private to :mod:`mcp_troupe.policy.injection`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
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


def _folded(text: str) -> str:
    """``text`` lower-cased; a character that IGNORECASE matches to an ASCII letter becomes that letter."""
    if text.isascii():
        return text.lower()
    return text.translate(_ASCII_LOOKALIKES).lower()


class _Prefilter:
    """Which checks can match a text, from the trigger words and fragments in it (see _needs)."""

    def __init__(self, needs: Sequence[_Needs]) -> None:
        groups = sorted({group for check_needs in needs for group in check_needs}, key=sorted)
        number_of = {group: number for number, group in enumerate(groups)}
        by_word: dict[str, list[int]] = {}
        by_fragment: dict[str, list[int]] = {}
        for group, number in number_of.items():
            for entry in sorted(group):
                index = by_word if _WORD.fullmatch(entry) else by_fragment
                index.setdefault(entry, []).append(number)
        self._groups_by_word = {word: tuple(numbers) for word, numbers in by_word.items()}
        self._words = frozenset(by_word)
        # A fragment of another script (the lexicons of other languages hold many) cannot be in ASCII text,
        # which nearly every string is: those are looked for only in text that is not ASCII.
        self._groups_by_fragment = tuple(
            (fragment, tuple(numbers)) for fragment, numbers in by_fragment.items() if fragment.isascii()
        )
        # One search says whether any fragment is there at all; most strings hold none.
        self._any_fragment = re.compile(
            "|".join(re.escape(fragment) for fragment, _ in self._groups_by_fragment) or "(?!)"
        )
        self._groups_by_other_fragment = tuple(
            (fragment, tuple(numbers)) for fragment, numbers in by_fragment.items() if not fragment.isascii()
        )
        # A check can run once all its groups are present, so it is enough to look it up by its first group.
        self._checks_by_first_group: dict[int, list[int]] = {}
        for check, check_needs in enumerate(needs):
            self._checks_by_first_group.setdefault(number_of[check_needs[0]], []).append(check)
        self._groups_of_check = [
            frozenset(number_of[group] for group in check_needs) for check_needs in needs
        ]

    def runnable(self, text: str) -> list[int]:
        """The numbers of the checks that ``text`` has the triggers of, in order; the others cannot match."""
        # Whitespace as the checks' `\s+` sees it: any run of Unicode white space (NEL, NBSP, tabs, line
        # breaks) is one space, so that a fragment of several words is found whatever separates them.
        folded = " ".join(_folded(text).split())
        present: set[int] = set()
        words = set(_WORD.findall(folded))
        if "%" in folded:
            words.update(_WORD.findall(_PERCENT_ESCAPE.sub(" ", folded)))
        for word in self._words.intersection(words):
            present.update(self._groups_by_word[word])
        if self._any_fragment.search(folded) is not None:
            for fragment, groups in self._groups_by_fragment:
                if fragment in folded:
                    present.update(groups)
        if not folded.isascii():
            for fragment, groups in self._groups_by_other_fragment:
                if fragment in folded:
                    present.update(groups)
        if not present:
            return []
        return sorted(
            check
            for group in present
            for check in self._checks_by_first_group.get(group, ())
            if self._groups_of_check[check] <= present
        )
