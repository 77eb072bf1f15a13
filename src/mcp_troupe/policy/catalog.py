"""One tool's verdict: everything the registry decides about a server's tool before it may be registered.

Pure: a function of the tool's definition and the server's configuration. The registry caches verdicts per
catalog it received, so re-applying policy to the whole table (first connect, reconnect, ``list_changed``)
costs one evaluation per tool that arrived, not one per rebuild; naming and collisions
(``names.assign_names``) are decided across all servers afterwards.

The order of the checks is the order an operator reads them in: filters (their own choice) first, then a
broken input schema, then injection findings.

Injection findings are graded (:func:`~mcp_troupe.policy.injection.grade`): under ``mcpSecurityPolicy:
block`` a tool of an untrusted server whose findings grade ``block`` is rejected, and one that grades
``withhold`` is *withheld* — kept from the model like a rejected tool, but recorded for an operator to review
(``troupe review``, :mod:`mcp_troupe.review`). :func:`apply_review` turns the operator's decision, recorded by
fingerprint, into the final verdict: released tools are registered with their findings as warnings, kept ones
rejected.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableMapping
from dataclasses import dataclass, replace
from typing import Final

from mcp_troupe._frozen import constructor
from mcp_troupe.policy._injection_model import preload as preload_scorer
from mcp_troupe.policy.bounds import CatalogLimits, schema_problem, text_problem
from mcp_troupe.policy.definition import schema_checks, schema_entry
from mcp_troupe.policy.filters import is_included
from mcp_troupe.policy.fingerprint import fingerprint, fingerprint_of_parts
from mcp_troupe.policy.injection import Finding, grade, scan_tool
from mcp_troupe.policy.trust import TrustLevel, effective_risk
from mcp_troupe.protocol.mcp import ToolDefinition
from mcp_troupe.types import Risk

__all__ = [
    "ChecksKey",
    "ContentChecks",
    "ToolVerdict",
    "apply_review",
    "checks_key",
    "evaluate_tool",
    "prepare",
]


@dataclass(frozen=True, slots=True)
class ContentChecks:
    """The costly part of a verdict (schema problems, injection findings): a function of the definition alone,
    so it can be reused for an unchanged tool. Keyed by the fingerprint and the title (:func:`checks_key`)."""

    schema_problems: tuple[str, ...]
    findings: tuple[Finding, ...]


ChecksKey = str
"""What :class:`ContentChecks` are kept under: a fingerprint and a title, in one (:func:`checks_key`)."""


def checks_key(fingerprint: str, title: str | None) -> ChecksKey:
    """The key of a definition's :class:`ContentChecks`: its fingerprint, and its title when it has one.

    The title is scanned but is not part of the fingerprint, so it is part of the key. A string, not a
    ``(fingerprint, title)`` pair: a catalog's cache holds a key per tool for as long as the catalog stands,
    and a pair is one more object per tool for the garbage collector to count and walk (issue 18); a
    definition without a title, nearly every one, is keyed by its fingerprint itself. A fingerprint is hex
    digits (or ``unjudged:`` and hex digits), so the NUL keeps every (fingerprint, title) apart.
    """
    return fingerprint if title is None else f"{fingerprint}\x00{title}"


@dataclass(frozen=True, slots=True)
class ToolVerdict:
    """What policy says of one tool: ``rejected`` (a reason), ``withheld`` until reviewed (a reason), or
    registered at ``risk`` with ``warnings``. ``findings`` are the injection findings behind any of them."""

    rejected: str | None
    risk: Risk
    fingerprint: str
    warnings: tuple[str, ...] = ()
    withheld: str | None = None
    findings: tuple[Finding, ...] = ()


def _unjudged_fingerprint(name: str) -> str:
    # A definition rejected for its size is never hashed whole (that is the work its size attacks); its
    # verdict is keyed by its name alone, and it can never be approved or routed.
    return "unjudged:" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()


def _describe(findings: list[Finding]) -> str:
    rules = sorted({finding.rule for finding in findings})
    first = findings[0]
    return f"looks like prompt injection ({', '.join(rules)}) in {first.field}: {first.excerpt!r}"


def evaluate_tool(
    tool: ToolDefinition,
    *,
    trust: TrustLevel,
    include: tuple[str, ...] | None,
    exclude: tuple[str, ...],
    security_policy: str,
    cache: MutableMapping[ChecksKey, ContentChecks] | None = None,
    limits: CatalogLimits | None = None,
) -> ToolVerdict:
    """Decide whether ``tool`` may be registered, at what risk, and with which warnings.

    ``security_policy`` is ``block`` (a suspicious tool is rejected) or ``warn`` (registered, with the
    finding as a warning). A ``trusted`` server — one the operator controls — is scanned too, but its findings
    only warn: the operator vouched for it, and blocking its tools would be the operator arguing with itself.

    ``limits`` (:class:`~mcp_troupe.policy.bounds.CatalogLimits`) are checked first: a definition beyond
    them is rejected unread, with the bound in the reason.

    ``cache`` (owned by the caller) keeps the schema check and the injection scan of each definition seen, so
    re-listing unchanged tools (``list_changed``, a reconnect) costs a fingerprint each, not a scan.
    """
    risk = effective_risk(tool.annotations, trust)
    # What is known of this input schema from other tools with the same one (policy.definition): its
    # bounds, its canonical JSON and its checks, each worked out once.
    entry = schema_entry(tool.input_schema)
    if limits is not None:
        # First, before anything walks the definition recursively or hashes it (policy.bounds), in the
        # order definition_problem checks: texts, input schema, output schema.
        too_big = text_problem(tool, limits)
        if too_big is None:
            too_big = (
                entry.bounds_problem(tool.input_schema, limits)
                if entry is not None
                else schema_problem(tool.input_schema, "inputSchema", limits)
            )
        if too_big is None and tool.output_schema is not None:
            too_big = schema_problem(tool.output_schema, "outputSchema", limits)
        if too_big is not None:
            return ToolVerdict(rejected=too_big, risk=risk, fingerprint=_unjudged_fingerprint(tool.name))
    if entry is not None and isinstance(tool.name, str) and isinstance(tool.description, str):
        digest = fingerprint_of_parts(tool.name, tool.description, entry.canonical(tool.input_schema))
    else:
        digest = fingerprint(tool.name, tool.description, tool.input_schema)
    filtered = is_included(tool.name, include, exclude)
    if filtered is not None:
        return ToolVerdict(rejected=filtered, risk=risk, fingerprint=digest)
    key = checks_key(digest, tool.title)
    checks = cache.get(key) if cache is not None else None
    if checks is None:
        # The schema check and the scan of the schema's strings share one walk, and are reused for a schema
        # seen before (policy.definition). A broken schema is rejected unscanned: no need to scan what will
        # not be registered.
        schema = entry.checks(tool.input_schema) if entry is not None else schema_checks(tool.input_schema)
        if schema.problems:
            checks = ContentChecks(schema.problems, ())
        else:
            found = scan_tool(
                tool.name, tool.description, tool.input_schema, title=tool.title, input_strings=()
            )
            findings = (*found, *schema.findings) if found else schema.findings
            # Nearly every tool has nothing to report: they share one object, one allocation fewer per tool
            # for the garbage collector to walk in a big first listing (issue 18).
            checks = _CONTENT_CHECKS((), findings) if findings else _NOTHING_FOUND
        if cache is not None:
            cache[key] = checks
    if checks.schema_problems:
        return ToolVerdict(
            rejected="invalid inputSchema: " + "; ".join(checks.schema_problems[:3]),
            risk=risk,
            fingerprint=digest,
        )
    findings = checks.findings
    if findings:
        reason = _describe(list(findings))
        graded = grade(findings)
        if security_policy == "block" and trust != "trusted" and graded != "clean":
            if graded == "block":
                return ToolVerdict(rejected=reason, risk=risk, fingerprint=digest, findings=findings)
            return ToolVerdict(
                rejected=None, risk=risk, fingerprint=digest, withheld=reason, findings=findings
            )
        return ToolVerdict(
            rejected=None, risk=risk, fingerprint=digest, warnings=(reason,), findings=findings
        )
    return _CLEAN_VERDICT(None, risk, digest)


_CONTENT_CHECKS: Final = constructor(ContentChecks)
_NOTHING_FOUND: Final = ContentChecks((), ())
_CLEAN_VERDICT: Final = constructor(ToolVerdict)
"""``ToolVerdict(...)`` built directly: nearly every tool of a catalog gets one (mcp_troupe._frozen)."""


def prepare() -> None:
    """Start reading what judging needs and is read once per process (the injection scan's learned model,
    ~9,000 weights, 15-25 ms) on a daemon thread of its own; the registry calls it when it starts, so the
    first connect's policy pass on the registry's thread does not wait for it (issue 18)."""
    preload_scorer()


def apply_review(verdict: ToolVerdict, decision: str | None) -> ToolVerdict:
    """The verdict after an operator's review of a withheld tool (``released``, ``kept``, or ``None``).

    Only a withheld verdict changes: ``released`` registers the tool with its findings as a warning, ``kept``
    rejects it, ``None`` (not reviewed yet) leaves it withheld.
    """
    if verdict.withheld is None or decision is None:
        return verdict
    if decision == "released":
        return replace(verdict, withheld=None, warnings=(f"released by operator review: {verdict.withheld}",))
    if decision == "kept":
        return replace(verdict, withheld=None, rejected=f"kept out by operator review: {verdict.withheld}")
    raise ValueError(f"unknown review decision {decision!r}")
