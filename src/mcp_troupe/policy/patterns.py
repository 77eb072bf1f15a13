"""Regular expressions from untrusted schemas, run in linear time.

A server's schemas carry ``pattern`` and ``patternProperties`` regexes that we evaluate ourselves (against
``structuredContent``, and as the meta-schema's ``format: regex`` check). Python's ``re`` backtracks and holds
the GIL while it does, so one pattern such as ``^(a|aa)+$`` against 30 characters stalls *every* thread of
the process for seconds. Every pattern from a server is therefore run by RE2 (``google-re2``), whose matching
time is linear in the text, and never by ``re``.

RE2 cannot run what needs backtracking: backreferences (``\\1``), lookahead and lookbehind, possessive and
atomic groups, repetition counts above 1000. Such a pattern is *unverifiable*, a deliberate verdict:

- In an ``inputSchema`` it is not ours to run (the model provider reads the schema), so it is only checked
  to be a syntactically valid regex (bounded by the pattern-length limit of ``policy.bounds``).
- Where we would have to run it (``structuredContent`` against an ``outputSchema``), the check is not done
  and the result says so on a line of its own: "could not be checked in bounded time". The call is not
  failed: the server's answer is shown, and the note tells the model and the operator it was not validated.

The semantics are RE2's, which are closer to the ECMA-262 dialect JSON Schema names than ``re``'s are: ``$``
matches only at the very end (``re`` also matches before a final newline), and ``\\d``/``\\w`` are ASCII.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from typing import Any, Final

import re2  # type: ignore[import-untyped, import-not-found, unused-ignore]  # google-re2 ships no type information
from jsonschema import FormatChecker, validators
from jsonschema.exceptions import ValidationError
from jsonschema.protocols import Validator

__all__ = [
    "MAX_PROGRAM_BYTES",
    "UnverifiablePattern",
    "is_valid_regex",
    "meta_format_checker",
    "pattern_search",
    "safe_validator",
    "unverifiable_reason",
]

MAX_PROGRAM_BYTES: Final = 8 * 1024 * 1024
"""Memory RE2 may use for one compiled pattern; a bigger one is unverifiable, not a memory hog."""

_CACHE_SIZE: Final = 512
# Patterns longer than this are compiled each time rather than kept: the cache must not hold megabytes.
_CACHED_PATTERN_CHARS: Final = 4096


class UnverifiablePattern(Exception):
    """A pattern RE2 cannot run (it needs backtracking, or is too big); ``reason`` says which."""

    def __init__(self, pattern: str, reason: str) -> None:
        shown = pattern if len(pattern) <= 60 else pattern[:59] + "…"
        super().__init__(f"pattern {shown!r} cannot be run in linear time: {reason}")
        self.pattern = pattern
        self.reason = reason


def _options() -> Any:
    options = re2.Options()
    options.log_errors = False  # RE2 would write every rejected pattern to our stderr
    options.max_mem = MAX_PROGRAM_BYTES
    return options


_OPTIONS: Final = _options()


def _compile_uncached(pattern: str) -> Any:
    try:
        return re2.compile(pattern, _OPTIONS)
    except re2.error as exc:
        message = exc.args[0] if exc.args else exc
        text = message.decode("utf-8", "replace") if isinstance(message, bytes) else str(message)
        raise UnverifiablePattern(pattern, text) from None


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _compile_cached(pattern: str) -> Any:
    return _compile_uncached(pattern)


def _compile(pattern: str) -> Any:
    if len(pattern) <= _CACHED_PATTERN_CHARS:
        return _compile_cached(pattern)
    return _compile_uncached(pattern)


def unverifiable_reason(pattern: str) -> str | None:
    """Why RE2 cannot run ``pattern`` (``None`` when it can)."""
    try:
        _compile(pattern)
    except UnverifiablePattern as exc:
        return exc.reason
    return None


def pattern_search(pattern: str, text: str) -> bool:
    """Whether ``pattern`` matches anywhere in ``text`` (JSON Schema's unanchored ``pattern`` rule).

    Raises:
        UnverifiablePattern: RE2 cannot run the pattern.
    """
    return _compile(pattern).search(text) is not None


def is_valid_regex(pattern: object) -> bool:
    """The ``format: regex`` check of the meta-schema, without running a backtracking engine on anything.

    A pattern RE2 compiles is valid. One it refuses may still be a valid regex that needs backtracking
    (``\\1``, lookaround): for those, only ``re``'s *compiler* is asked, never its matcher, and compiling is
    not where ``re`` is exponential. The caller bounds the pattern's length first (``policy.bounds``).
    """
    if not isinstance(pattern, str):
        return True  # format checks apply only to strings (JSON Schema: formats ignore other types)
    if unverifiable_reason(pattern) is None:
        return True
    try:
        re.compile(pattern)
    except (re.error, RecursionError, OverflowError):
        return False
    return True


# ---- jsonschema keywords that use RE2 -----------------------------------------------------------------


def _pattern(validator: Any, pattern: str, instance: object, schema: Mapping[str, Any]) -> Iterator[Any]:
    if not validator.is_type(instance, "string") or not isinstance(pattern, str):
        return
    assert isinstance(instance, str)
    if not pattern_search(pattern, instance):
        yield ValidationError(f"{instance!r:.200} does not match {pattern!r:.200}")


def _pattern_properties(
    validator: Any, patterns: Mapping[str, Any], instance: object, schema: Mapping[str, Any]
) -> Iterator[Any]:
    if not validator.is_type(instance, "object") or not isinstance(patterns, dict):
        return
    assert isinstance(instance, dict)
    for pattern, subschema in patterns.items():
        for key, value in instance.items():
            if isinstance(key, str) and pattern_search(pattern, key):
                yield from validator.descend(value, subschema, path=key, schema_path=pattern)


def _additional_properties(
    validator: Any, additional: object, instance: object, schema: Mapping[str, Any]
) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    assert isinstance(instance, dict)
    properties = schema.get("properties")
    declared = properties if isinstance(properties, dict) else {}
    pattern_map = schema.get("patternProperties")
    patterns = list(pattern_map) if isinstance(pattern_map, dict) else []
    extras = [
        key
        for key in instance
        if key not in declared and not any(pattern_search(pattern, key) for pattern in patterns)
    ]
    if validator.is_type(additional, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], additional, path=extra)
    elif additional is False and extras:
        names = ", ".join(repr(extra) for extra in sorted(extras, key=str)[:20])
        if patterns:
            yield ValidationError(f"{names} not allowed: no property or pattern of the schema matches")
        else:
            yield ValidationError(f"Additional properties are not allowed ({names} unexpected)")


_RE2_KEYWORDS: Final = {
    "pattern": _pattern,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional_properties,
}


@functools.cache
def _safe_class(cls: Any) -> Any:
    return validators.extend(cls, _RE2_KEYWORDS)  # type: ignore[no-untyped-call]


def _uses_both(schema: object) -> bool:
    """Whether ``schema`` holds both ``unevaluatedProperties`` and ``patternProperties``, anywhere."""
    has_unevaluated = has_pattern_properties = False
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            has_unevaluated = has_unevaluated or "unevaluatedProperties" in node
            has_pattern_properties = has_pattern_properties or isinstance(node.get("patternProperties"), dict)
            if has_unevaluated and has_pattern_properties:
                return True
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def safe_validator(schema: Mapping[str, Any]) -> Validator:
    """A validator for ``schema`` (its own ``$schema`` dialect, 2020-12 by default) whose regexes run in RE2.

    ``pattern``, ``patternProperties`` and ``additionalProperties`` (which consults ``patternProperties``)
    use RE2. jsonschema's ``unevaluatedProperties`` consults ``patternProperties`` through ``re`` deep in
    its own code, so a schema that combines the two is refused here rather than run.

    Raises:
        UnverifiablePattern: the schema combines ``unevaluatedProperties`` with ``patternProperties``.
        jsonschema.SchemaError: the schema is not valid for its dialect.
    """
    if _uses_both(schema):
        raise UnverifiablePattern(
            "patternProperties", "unevaluatedProperties together with patternProperties is not supported"
        )
    cls = validators.validator_for(schema)
    safe = _safe_class(cls)
    safe.check_schema(dict(schema), format_checker=meta_format_checker(cls))
    validator: Validator = safe(schema)
    return validator


@functools.cache
def meta_format_checker(cls: Any) -> Any:
    """The (cached) format checker of validator class ``cls``, ``regex`` checked by :func:`is_valid_regex`."""
    checker = cls.FORMAT_CHECKER
    patched = FormatChecker(formats=())
    patched.checkers = {**checker.checkers}
    patched.checks("regex")(is_valid_regex)
    return patched
