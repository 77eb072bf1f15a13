"""Every check of the textual injection rules, with its trigger words and its confidence, and the prefilter.

Private to :mod:`mcp_troupe.policy.injection`. The patterns live in ``_injection_directives`` and
``_injection_rules`` (phrases) and
``_injection_shapes`` (social-engineering shapes); this module turns them into numbered checks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from mcp_troupe.policy._injection_directives import _MODEL_DIRECTIVE_PATTERNS
from mcp_troupe.policy._injection_intents import (
    EXFILTRATION_INTENTS,
    MODEL_DIRECTIVE_INTENTS,
    SHADOWING_INTENTS,
)
from mcp_troupe.policy._injection_languages import (
    EXFILTRATION_FOREIGN,
    MODEL_DIRECTIVE_FOREIGN,
    SHADOWING_FOREIGN,
)
from mcp_troupe.policy._injection_prefilter import _Needs, _needs, _Prefilter
from mcp_troupe.policy._injection_rules import (
    _EXFILTRATION_PATTERNS,
    _PUT_INTO_PARAMETER_NEEDS,
    _SEND_VERBS,
    _SENSITIVE_PATH_PATTERNS,
    _SHADOWING_PATTERNS,
    EXFILTRATION,
    HIGH,
    LOW,
    MODEL_DIRECTIVE,
    SENSITIVE_PATH,
    SHADOWING,
    WEAK,
    Confidence,
    _Check,
    _compile,
    _LazyPattern,
    _moves_it,
    _Pattern,
    _Predicate,
    _secret_from_a_source_into_parameter,
    _secret_into_parameter,
    _sent_to_address,
    _sent_to_address_always,
    _someones_secret_into_parameter,
)
from mcp_troupe.policy._injection_shapes import (
    EXFILTRATION_SHAPES,
    MODEL_DIRECTIVE_SHAPES,
    SHADOWING_SHAPES,
)

_RANK: Final[dict[str, int]] = {WEAK: 0, LOW: 1, HIGH: 2}


class _Accepted:
    """A check: the first match of ``regex`` that ``predicate`` accepts (a graded pattern's strong half).

    It remembers the regex's first match in the last text it searched, so that the pattern's weaker half
    (:class:`_Fallback`, run next on the same text) need not search again.
    """

    __slots__ = ("_last", "predicate", "regex")

    def __init__(self, regex: _LazyPattern, predicate: _Predicate) -> None:
        self.regex = regex
        self.predicate = predicate
        self._last: tuple[str, re.Match[str] | None] | None = None

    def __call__(self, text: str) -> re.Match[str] | None:
        first: re.Match[str] | None = None
        accepted: re.Match[str] | None = None
        for match in self.regex.finditer(text):
            if first is None:
                first = match
            if self.predicate(text, match):
                accepted = match
                break
        # One tuple, assigned at once: a scan on another thread sees this one or its own, never a mix.
        self._last = (text, first)
        return accepted

    def first_match(self, text: str) -> re.Match[str] | None:
        """The regex's first match in ``text``: remembered from the last call when it was on this text."""
        last = self._last
        if last is not None and last[0] is text:
            return last[1]
        return self.regex.search(text)


class _Fallback:
    """A check: the first match of a graded pattern's regex (its weaker half), reusing :class:`_Accepted`."""

    __slots__ = ("accepted", "regex")

    def __init__(self, accepted: _Accepted) -> None:
        self.accepted = accepted
        self.regex = accepted.regex

    def __call__(self, text: str) -> re.Match[str] | None:
        return self.accepted.first_match(text)


def _expand(patterns: Sequence[_Pattern], default: Confidence) -> list[tuple[_Check, _Needs, Confidence]]:
    """Each pattern as checks: one, or for a graded pattern its accepted matches then (if any) the rest."""
    checks: list[tuple[_Check, _Needs, Confidence]] = []
    for pattern, regex in zip(patterns, _compile(pattern[0] for pattern in patterns), strict=True):
        if len(pattern) == 2:
            checks.append((regex.search, pattern[1], default))
        elif len(pattern) == 3:
            checks.append((regex.search, pattern[1], pattern[2]))
        else:
            _, needs, confidence, predicate, fallback = pattern
            accepted = _Accepted(regex, predicate)
            checks.append((accepted, needs, confidence))
            if fallback is not None:
                checks.append((_Fallback(accepted), needs, fallback))
    return checks


_GRADED_RULES: Final[list[tuple[str, list[tuple[_Check, _Needs, Confidence]]]]] = [
    (
        MODEL_DIRECTIVE,
        _expand(
            [
                *_MODEL_DIRECTIVE_PATTERNS,
                *MODEL_DIRECTIVE_SHAPES,
                *MODEL_DIRECTIVE_INTENTS,
                *MODEL_DIRECTIVE_FOREIGN,
            ],
            HIGH,
        ),
    ),
    (
        SHADOWING,
        _expand([*_SHADOWING_PATTERNS, *SHADOWING_SHAPES, *SHADOWING_INTENTS, *SHADOWING_FOREIGN], LOW),
    ),
    # A secret's path alone is what SSH-key and secret-scanning tools are about: it only corroborates.
    # It is low when its sentence also moves it somewhere ("include ~/.ssh/config in your reply").
    (
        SENSITIVE_PATH,
        _expand(
            [(pattern[0], pattern[1], LOW, _moves_it, WEAK) for pattern in _SENSITIVE_PATH_PATTERNS], WEAK
        ),
    ),
    (
        EXFILTRATION,
        [
            *_expand(
                [*_EXFILTRATION_PATTERNS, *EXFILTRATION_SHAPES, *EXFILTRATION_INTENTS, *EXFILTRATION_FOREIGN],
                HIGH,
            ),
            # Each function only returns a match of its regex, so the regex's triggers are the function's.
            (_sent_to_address_always, _needs(_SEND_VERBS), HIGH),
            (_sent_to_address, _needs(_SEND_VERBS), HIGH),
            (_secret_from_a_source_into_parameter, _PUT_INTO_PARAMETER_NEEDS, HIGH),
            (_someones_secret_into_parameter, _PUT_INTO_PARAMETER_NEEDS, HIGH),
            (_secret_into_parameter, _PUT_INTO_PARAMETER_NEEDS, WEAK),
        ],
    ),
]

_TEXT_RULES: Final[list[tuple[str, list[tuple[_Check, _Needs]]]]] = [
    (rule, [(check, needs) for check, needs, _ in checks]) for rule, checks in _GRADED_RULES
]

# Every check with its rule, in the order the rules are tried; a check's number is its index here.
_CHECKS: Final[list[tuple[str, _Check]]] = [
    (rule, check) for rule, checks in _GRADED_RULES for check, _, _ in checks
]
# The confidence of each check, by number.
_CONFIDENCE: Final[list[Confidence]] = [
    confidence for _, checks in _GRADED_RULES for _, _, confidence in checks
]

_PREFILTER: Final = _Prefilter([needs for _, checks in _GRADED_RULES for _, needs, _ in checks])

_EVERY_CHECK: Final = range(len(_CHECKS))


def _checks_for(text: str, *, prefilter: bool) -> Sequence[int]:
    """The checks to run on ``text``: those the prefilter lets through, or all of them."""
    return _PREFILTER.runnable(text) if prefilter else _EVERY_CHECK


def _text_matches(text: str, checks: Sequence[int]) -> Iterator[tuple[str, re.Match[str], Confidence]]:
    """Yield (rule, match, confidence) for every textual rule that ``text`` triggers, running only ``checks``.

    One match per rule, of the highest confidence any of its checks finds (the first of that confidence): a
    check is skipped once its rule has matched with a confidence at least its own.
    """
    found: dict[str, tuple[re.Match[str], Confidence]] = {}
    for number in checks:
        rule, check = _CHECKS[number]
        confidence = _CONFIDENCE[number]
        previous = found.get(rule)
        if previous is not None and _RANK[previous[1]] >= _RANK[confidence]:
            continue
        match = check(text)
        if match is not None:
            found[rule] = (match, confidence)
    for rule, (match, confidence) in found.items():
        yield rule, match, confidence
