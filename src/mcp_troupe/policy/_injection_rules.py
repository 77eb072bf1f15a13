"""The textual rules of the injection scan: every pattern, its trigger words and its confidence.

Private to :mod:`mcp_troupe.policy.injection` (whose docstring lists what each rule looks for).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Final, Literal

from mcp_troupe.policy._injection_prefilter import _inflected, _Needs, _needs
from mcp_troupe.policy._injection_starts import Folded, Starts, folded, starts

MODEL_DIRECTIVE: Final = "model-directive"
SHADOWING: Final = "shadowing"
SENSITIVE_PATH: Final = "sensitive-path"
EXFILTRATION: Final = "exfiltration"
INVISIBLE_UNICODE: Final = "invisible-unicode"
ENCODED_BLOB: Final = "encoded-blob"

RULES: Final[Mapping[str, str]] = MappingProxyType(
    {
        MODEL_DIRECTIVE: "orders aimed at the model: override its instructions, hide things from the user, "
        "run first, talk about its system prompt, <IMPORTANT>/<SYSTEM> tags",
        SHADOWING: "orders about other tools or servers: redirect, override or disparage them",
        SENSITIVE_PATH: "names secrets or the files that hold them (~/.ssh, id_rsa, .env, /etc/passwd, "
        "cloud credentials, MCP client configs)",
        EXFILTRATION: "moves data out: to a URL, address or parameter; asks for secrets or the model's "
        "context",
        INVISIBLE_UNICODE: "characters a reviewer cannot see: zero-width, bidi controls, tag characters, "
        "control characters",
        ENCODED_BLOB: "long base64 or hex runs, or short ones that decode to flagged text",
    }
)
"""Rule id -> what the rule looks for; every :class:`Finding` carries one of these ids, or ``learned-score``
(the learned scorer's, ``_injection_model.LEARNED_SCORE``, which is no textual rule and only withholds)."""

Confidence = Literal["high", "low", "weak"]
"""How sure a finding is: ``high`` blocks the tool, ``low`` withholds it until an operator reviews it,
``weak`` only counts together with another finding (see :func:`mcp_troupe.policy.injection.grade`)."""
HIGH: Final = "high"
LOW: Final = "low"

WEAK: Final = "weak"

# A pattern: (regex, trigger groups), or with its confidence where it differs from the rule's default, or
# graded: (regex, trigger groups, confidence, predicate, fallback) — the matches that ``predicate(text,
# match)`` accepts have ``confidence``, the others ``fallback`` (``None``: they are no finding).
_Predicate = Callable[[str, "re.Match[str]"], bool]
_Pattern = (
    tuple[str, _Needs]
    | tuple[str, _Needs, Confidence]
    | tuple[str, _Needs, Confidence, _Predicate, Confidence | None]
)

# --- textual rules ----------------------------------------------------------------------------------------
#
# Every pattern is case-insensitive and stays inside one sentence or line (_S, or explicit bounds), so a
# long benign description cannot match by stringing together words from different paragraphs. Bounded
# repetitions keep every search linear in the length of the text.

_FLAGS = re.IGNORECASE


class _LazyPattern:
    """A regex compiled on its first search, not when the module is imported, and searched in long ASCII
    text only where its matches can begin (:mod:`._injection_starts`).

    There are a few hundred patterns, and compiling them all took about 0.55 s of CPU, a third of a
    ``troupe`` command's start-up, while a catalog's texts mostly pass the prefilter with a handful of
    checks left to run (a benign catalog never reaches most patterns). Compiling twice, when two threads
    search first at once, only costs time: both results are the same pattern.
    """

    __slots__ = ("_compiled", "_starts", "flags", "pattern")

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None
        self._starts: Starts | None = None

    def compiled(self) -> re.Pattern[str]:
        """The compiled regex (compiled now if it is the first use)."""
        compiled = self._compiled
        if compiled is None:
            prefixes = starts(self.pattern, self.flags)
            # Set before the regex: a thread that sees the regex compiled sees the starts too.
            self._starts = None if prefixes is None else Starts(prefixes)
            compiled = self._compiled = re.compile(self.pattern, self.flags)
        return compiled

    def search(self, text: str, pos: int = 0) -> re.Match[str] | None:
        """:meth:`re.Pattern.search`."""
        compiled = self._compiled or self.compiled()
        found = self._starts
        lowered = None if found is None or len(text) < _STARTS_FROM else _folded(text)
        if lowered is None or found is None:
            return compiled.search(text, pos)
        match = compiled.match
        for start in found.positions(lowered, pos):
            result = match(text, start)
            if result is not None:
                return result
        return None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """:meth:`re.Pattern.finditer` (every match of these patterns is at least one character long)."""
        compiled = self._compiled or self.compiled()
        found = self._starts
        lowered = None if found is None or len(text) < _STARTS_FROM else _folded(text)
        if lowered is None or found is None:
            return compiled.finditer(text)
        return self._finditer(compiled, found, text, lowered)

    @staticmethod
    def _finditer(
        compiled: re.Pattern[str], found: Starts, text: str, lowered: Folded
    ) -> Iterator[re.Match[str]]:
        end = 0
        for start in found.positions(lowered):
            if start < end:
                continue  # inside the last match: finditer goes on from its end
            result = compiled.match(text, start)
            if result is not None:
                yield result
                end = result.end()


# Below this length a text is searched as it is: looking for the starts first costs about as much.
_STARTS_FROM = 120


@functools.lru_cache(maxsize=8)
def _folded(text: str) -> Folded | None:
    """:func:`._injection_starts.folded`, kept for the few texts in hand: every pattern the prefilter lets
    run on one text looks for its starts in the same folded copy."""
    return folded(text)


# One character of the same sentence: anything but a line break or a full stop that ends a sentence (a dot
# followed by a space or the end). Dots inside paths, URLs and file names (~/.ssh/id_rsa, e.g.) do not end it.
_S = r"(?:[^.\n]|\.(?=\S))"

# Every repetition is bounded, so that a long run without spaces costs linear time, not quadratic.
_ADDRESS = (
    r"(?:(?:https?|s?ftp|wss?|s3|gs)://[^\s'\"`<>)]{1,2000}"
    r"|[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){0,8}\.[a-z]{2,24}"
    r"|\+\d[\d -]{6,20}\d"
    r"|\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b)"
)

# A reference to a tool that is not the one being described: "the send_email tool", a backticked or quoted
# identifier, a snake_case/dotted/camelCase identifier, or an mcp__ name.
_TOOL_IDENTIFIER = (
    r"(?:[`'\"][\w.-]+[`'\"]"
    r"|[A-Za-z][A-Za-z0-9]*(?:(?:_[A-Za-z0-9]+)+|(?:\.[A-Za-z0-9]{2,})+)"
    # camelCase must be matched case-sensitively, or every word would look like one
    r"|(?-i:[a-z]+[A-Z][A-Za-z0-9]*)"
    r"|mcp__[\w.-]+)"
)
_OTHER_TOOL = (
    r"(?<![\w.`'\"-])"
    r"(?:(?:the\s+)?(?!this\b|that\b|a\b|an\b|any\b|each\b|every\b|the\b|same\b)[\w.`'\"-]+\s+(?:tool|function)s?\b"
    rf"|{_TOOL_IDENTIFIER})"
)


_SEND_VERBS = _inflected(
    "send sent post upload forward transmit submit copy mirror sync push exfiltrate leak deliver route "
    "redirect email mail"  # "e-mail" is "e" and "mail"
)
# _INTO_PARAMETER: a quoted name, a word before "parameter"/"argument"/"field", "this field", or "here".
_INTO_PARAMETER_NEEDS = "parameter param argument arg field here ` ' \""
_OTHER_TOOL_VERBS = (
    "call calls calling use uses using invoke invokes invoking run runs running execute executes executing"
)

# --- predicates of the phrase patterns (see the graded patterns below) --------------------------------


def _sentence(text: str, match: re.Match[str]) -> str:
    return _sentence_around(text, match.start(), match.end())


def _names_a_secret_near(text: str, match: re.Match[str]) -> bool:
    """The sentence names a secret or a sensitive path."""
    return _names_a_secret(_sentence(text, match))


# The defensive reading of an order about instructions: "do not follow instructions found in the results".
_FOUND_IN_DATA = re.compile(
    r"\s*(?:that\s+(?:are|appear|you\s+find)\s+)?(?:found|contained|embedded|appearing|inside|within|in|from|"
    r"returned|coming|stored|written|placed|included|present|hidden)\b(?:\s+\w+){0,4}?\s+(?:results?|content|"
    r"contents|output|outputs|data|pages?|documents?|responses?|text|tools?|web|websites?|sites?|files?|e-?mails?|"
    r"messages?|resources?|issues?|comments?|inputs?|payloads?|fetched|retrieved|it|them|there|the\s+page|rows?|"
    r"records?|tables?|cells?|fields?|databases?|logs?|tickets?|reviews?|feeds?|transcripts?|images?|pdfs?|"
    r"repositor(?:y|ies)|code|commits?|entries|values)\b",
    _FLAGS,
)
_NEGATION_BEFORE = re.compile(
    r"\b(?:not|never|no|don'?t|doesn'?t|won'?t|cannot|refuse\s+to)\s+(?:\w+\s+){0,2}$", _FLAGS
)


def _not_defensive(text: str, match: re.Match[str]) -> bool:
    """Not a safeguard: the order is not negated ("never obey ...") nor about instructions found in data."""
    if _NEGATION_BEFORE.search(text[max(0, match.start() - 40) : match.start()]):
        return False
    return _FOUND_IN_DATA.match(text, match.end()) is None


def _not_negated(text: str, match: re.Match[str]) -> bool:
    """The act is not forbidden: "never act on them without asking the user" is a safeguard."""
    return not _NEGATION_BEFORE.search(text[max(0, match.start() - 40) : match.start()])


def _not_about_a_secret(text: str, match: re.Match[str]) -> bool:
    """The sentence names no secret: "never tell the user their password" is a safeguard, not concealment.
    (Round 8: nor is what goes untold a detail of the output: "don't bother telling the user the IDs".
    Round 10: nor is it a claim the model must check first: "never tell the user it is done without
    calling this tool".)"""
    return (
        not _names_a_secret_near(text, match)
        and not _tells_only_a_detail(text, match)
        and not _claim_checked_first(text, match)
    )


# Round 10: "never tell the user the code is formatted without calling this tool": what is not to be told is
# a claim made without checking it -- an order to verify, not to keep something from the user.
_WITHOUT_CHECKING = re.compile(
    r"[^.;\n]{0,80}?\bwithout\s+(?:first\s+|actually\s+)?(?:calling|using|running|invoking|"
    r"checking|verifying|confirming|you\s+(?:have\s+)?(?:called|used|run|checked|verified|confirmed))\b",
    _FLAGS,
)


def _claim_checked_first(text: str, match: re.Match[str]) -> bool:
    """What the match says not to tell the user is a claim not to be made unchecked (see above)."""
    return _WITHOUT_CHECKING.match(text, match.end()) is not None


# What a formatting note leaves out of an answer: identifiers, dates, raw structure (not a fact, an act or a
# copy kept from the user).
_PRESENTATION_DETAIL = re.compile(
    r"\s*(?:about\s+)?(?:the|their|its|any|these|those|all)?\s*(?:raw\s+|internal\s+|technical\s+|numeric\s+)?"
    r"(?:ids?|identifiers?|uuids?|timestamps?|creation\s+dates?|dates|metadata|json|field\s+names|cursors?|"
    r"pagination\s+tokens?|object\s+ids?|record\s+ids?)\b(?!\s+(?:of|to|from|were|was|are|is)\b)",
    re.IGNORECASE,
)


def _tells_only_a_detail(text: str, match: re.Match[str]) -> bool:
    """What the match says not to tell (right after it) is a detail of the output such as its IDs."""
    return _PRESENTATION_DETAIL.match(text, match.end()) is not None


def _says_other(text: str, match: re.Match[str]) -> bool:
    """The match is about *other* tools ("before any other tool"), not a server's ("any of the git tools")."""
    return re.search(r"\bother\b", match.group(), re.IGNORECASE) is not None


# What a bent call to another tool changes: where it sends, to whom, what it pays.
_BENT_TARGET = re.compile(
    r"\b(?:recipients?|destinations?|accounts?|b?cc|remotes?|channels?|payees?|branch|iban|wallet|addresses|"
    r"attendees?|invitees?|url|endpoint|webhook|assign\w*)\b|@[\w-]+\.|https?://",
    re.IGNORECASE,
)


def _names_a_tool_or_target(text: str, match: re.Match[str]) -> bool:
    """A call to another tool that is named as a tool, or whose target (recipient, account, URL) changes."""
    if re.search(r"\b(?:tool|function)s?\b|mcp__", match.group(), re.IGNORECASE):
        return True
    return _BENT_TARGET.search(_sentence(text, match)) is not None


_SHADOWING_PATTERNS: list[_Pattern] = [
    # "when the send_message tool is used", "if the transfer_funds tool is called"
    (
        rf"\b(?:when(?:ever)?|each\s+time|every\s+time|if|once)\b{_S}{{0,30}}?{_OTHER_TOOL}\s+(?:is|gets|was)\s+"
        r"(?:called|used|invoked|run|executed|available)\b",
        _needs("when whenever time if once", "is gets was", "called used invoked run executed available"),
        LOW,
        _names_a_tool_or_target,
        WEAK,
    ),
    # "when calling send_email, always add bcc", "whenever you call mcp__x__y, set ..."
    (
        r"\b(?:when(?:ever)?|each\s+time|every\s+time|before|after)\s+(?:you\s+)?"
        r"(?:call(?:s|ing)?|us(?:e|es|ing)|invok(?:e|es|ing)|run(?:s|ning)?|execut(?:e|es|ing))\s+"
        rf"{_OTHER_TOOL}{_S}{{0,80}}?\b(?:always|must|never|set|change|replace|add|include|bcc|cc|send|redirect|"
        r"forward|route|mark|instead|navigate|visit|open|first)\b",
        _needs(
            "when whenever time before after",
            _OTHER_TOOL_VERBS,
            "always must never set change replace add include bcc cc send redirect forward route mark "
            "instead navigate visit open first",
        ),
        LOW,
        _names_a_tool_or_target,
        WEAK,
    ),
    (
        rf"\bside[\s-]effects?\s+on\b{_S}{{0,60}}\b(?:tool|function|server)s?\b",
        _needs("side", "effect effects"),
    ),
    (
        r"\b(?:overrides?|supersedes?|replaces?|takes\s+precedence\s+over)\s+(?:the\s+)?(?:\w+\s+){0,2}?"
        r"(?:of|for|from)?\s*(?:all\s+|any\s+)?(?:the\s+)?other\s+(?:mcp\s+)?(?:tools?|servers?|functions?)\b",
        # not "other": "of" may run into it ("ofother")
        _needs(
            "override overrides supersede supersedes replace replaces takes",
            "tool tools server servers function functions",
        ),
    ),
    # disparaging or overriding other tools or servers
    (
        rf"\bother\s+(?:\w+\s+)?(?:tools?|servers?)\b{_S}{{0,60}}?"
        r"\b(?:deprecated|must\s+not|should\s+not|malicious|unsafe|broken|compromised|disabled|unreliable|discarded|"
        r"fake|(?:are|is)\s+wrong)\b",
        _needs(
            "other",
            "tool tools server servers",
            "deprecated must should malicious unsafe broken compromised disabled unreliable discarded fake "
            "wrong",
        ),
    ),
    (
        rf"\b(?:from|on|of|in)\s+the\s+[\w.-]+\s+server\b{_S}{{0,40}}?\b(?:is|are|has\s+been)\s+(?:now\s+)?"
        r"(?:deprecated|malicious|unsafe|broken|compromised|disabled)\b",
        _needs("server", "deprecated malicious unsafe broken compromised disabled"),
    ),
    (
        rf"\b(?:from|on|of)\s+(?:the\s+|an?\s+)?(?:other|another|different)\s+(?:mcp\s+)?server\b{_S}{{0,60}}?"
        r"\b(?:deprecated|must\s+not|should\s+not|never|malicious|unsafe|broken|compromised|disabled|instead)\b",
        _needs(
            "server",
            "other another different",
            "deprecated must should never malicious unsafe broken compromised disabled instead",
        ),
    ),
    (
        rf"{_OTHER_TOOL}\s+(?:has\s+been|is|was|are)\s+(?:now\s+)?(?:disabled|compromised|malicious|unsafe|broken)\b",
        _needs("disabled compromised malicious unsafe broken", "has is was are"),
    ),
    (
        rf"{_OTHER_TOOL}\s+now\s+(?:requires|expects|needs|must)\b",
        _needs("now", "requires expects needs must"),
    ),
    (
        rf"{_OTHER_TOOL}\s+(?:should|must|shall)\s+(?:always|never|also)\s+(?:add|include|mention|link|send|bcc|cc|"
        r"set|use|append|prefix|mark|copy|forward|attach|redirect|route)\b",
        _needs(
            "should must shall",
            "always never also",
            "add include mention link send bcc cc set use append prefix mark copy forward attach redirect "
            "route",
        ),
    ),
    (
        rf"\b(?:route|redirect|send)\s+(?:every|all|each|any)\b{_S}{{0,40}}?\bthrough\s+this\s+(?:tool|server)\b",
        _needs("through", "route redirect send"),
    ),
    (
        rf"\binstead\s+of\s+(?:using|calling|invoking)\s+(?:the\s+)?(?:[\w.-]+\s+server'?s?\s+)?{_OTHER_TOOL}"
        rf"{_S}{{0,40}}?\b(?:always|must|only)\b",
        _needs("instead", "using calling invoking", "always must only"),
    ),
    (
        r"\bmcp__[A-Za-z0-9-]+__[\w.-]+",
        _needs("mcp"),
        WEAK,
    ),
    # "all emails must be sent to relay@..."
    (
        r"\b(?:all|every|any)\s+(?:outgoing\s+|outbound\s+)?(?:e-?mails?|messages?|payments?|transfers?|funds|files|"
        r"documents|requests?)\s+(?:must|should|shall|will|need\s+to)\s+(?:\w+\s+){0,2}?(?:be\s+)?"
        rf"(?:sent|forwarded|redirected|routed|delivered|copied|cc'?d|bcc'?d|addressed)\s+to\s+(?:\w+\s+){{0,2}}?"
        rf"{_ADDRESS}",
        _needs(
            # "e-mails" is "e" and "mails"
            "email emails mail mails message messages payment payments transfer transfers funds files "
            "documents request requests",
            "sent forwarded redirected routed delivered copied cc ccd bcc bccd addressed",
        ),
        HIGH,
    ),
]

_SENSITIVE_PATH_PATTERNS: list[_Pattern] = [
    (
        # Round 9: not a public key's file (~/.ssh/id_ed25519.pub): an SSH tool asks for it, and it is public.
        r"~/\.ssh\b(?!/[\w.-]{1,64}\.pub\b)|\.ssh/(?![\w.-]{1,64}\.pub\b)"
        r"|(?<![A-Za-z0-9])id[_ -]?(?:rsa|dsa|ecdsa|ed25519)(?![A-Za-z0-9])(?!\.pub\b)"
        r"|\bauthorized_keys\b",
        # "id_rsa" is "id" and "rsa", "idrsa" one word
        _needs("ssh rsa dsa ecdsa ed25519 idrsa iddsa idecdsa ided25519 authorized"),
    ),
    (
        r"/etc/(?:passwd|shadow|gshadow|sudoers)\b",
        _needs("etc", "passwd shadow gshadow sudoers"),
    ),
    (
        r"\.aws/(?:credentials|config)\b|\.azure/|\.config/gcloud\b|application_default_credentials\.json",
        _needs("aws azure gcloud credentials"),
    ),
    (
        r"\.kube/config\b|\.docker/config\.json\b|\.config/gh/",
        _needs("kube docker gh"),
    ),
    (
        r"(?<![\w.-])\.env(?:\.[\w-]+)?(?![\w-])",
        _needs("env"),
    ),
    (
        r"\.netrc\b|\.git-credentials\b|\.npmrc\b|\.pypirc\b|\.pgpass\b|\.gnupg\b|\.(?:bash|zsh)_history\b",
        _needs("netrc git npmrc pypirc pgpass gnupg bash zsh"),
    ),
    (
        r"\bmcp\.json\b|\bclaude_desktop_config\.json\b|~/\.cursor\b|\.cursor/|~/\.claude\b|\.codeium/windsurf",
        _needs("mcp claude cursor codeium"),
    ),
    (
        r"-----BEGIN [A-Z ]*PRIVATE KEY-----|\b(?:ssh|gpg|pgp)\s+private\s+keys?\b",
        # not "private": [A-Z ]* may run into it ("RSAPRIVATE")
        _needs("begin ssh gpg pgp"),
    ),
    (
        r"/proc/self/environ\b|\b169\.254\.169\.254\b|/var/run/secrets\b|\bwallet\.dat\b|Library/Keychains\b",
        _needs("environ 169 secrets wallet keychains"),
    ),
]

# Where data is put: a quoted or named parameter, or "here" / "this field" in a property's own description.
_INTO_PARAMETER = (
    r"(?:\b(?:in|into|as|inside|within|to|via|through|under)\s+(?:the\s+)?"
    r"(?:[`'\"][\w-]+[`'\"]|(?!(?:a|an|the|this|that|each|every|any)\s)\w+\s+(?:parameter|param|argument|arg|field)\b)"
    r"|\b(?:(?:in|into|to)\s+)?(?:this\s+(?:field|parameter|argument)|here)\b)"
)

# Secrets, named in prose. Together with a destination in the same sentence they make an exfiltration.
_SECRET = re.compile(
    r"\b(?:api[\s_-]?keys?|api[\s_-]?tokens?|access[\s_-]?tokens?|auth(?:entication)?[\s_-]?tokens?|bearer\s+tokens?|tokens|"
    r"credentials?|passwords?|passphrases?|secrets?|private[\s_-]keys?|ssh\s+keys?|environment\s+variables?|"
    r"env\s+vars?|cookies|session\s+(?:ids?|tokens?)|seed\s+phrases?|recovery\s+phrases?|clipboard|"
    r"(?:every|all|each)\s+(?:of\s+the\s+)?(?:user'?s?\s+|previous\s+)?messages?|conversation(?![\s/]*(?:chat\s*)?(?:titles?|names?|ids?|labels?|tabs?|topics?)\b)|chat\s+history|"
    r"everything\s+the\s+user\s+(?:has\s+)?(?:said|written|typed|asked|shared))\b",
    re.IGNORECASE,
)
# --- predicates of graded patterns ------------------------------------------------------------------------
#
# A graded pattern is of high confidence only where its sentence also says what makes it an attack; the
# same words without that are what real tools say (a write tool asks for "the full text in 'content'", an
# API tool for "your API key in 'api_key'", a Slack tool returns "all previous messages").

# Where the data would come from: a file read, the environment, the model's own context.
_SOURCE = re.compile(
    r"\b(?:read|open|cat|load|grab|dump|fetch|retriev|collect|harvest|scrap)\w*\b(?:[^.\n]|\.(?=\S)){0,40}?"
    r"\b(?:files?|contents?|config(?:uration)?|credentials|keys?|environment|history|secrets?|tokens?|records|"
    r"results)\b|\b(?:home\s+directory|directory\s+listing|file\s+listing)\b"
    r"|\bcontents?\s+of\b|\b(?:conversation|chat\s+history|system\s+prompt|(?:previous|prior|earlier)\s+messages)\b"
    r"|\beverything\s+the\s+user\b",
    _FLAGS,
)
# Many secrets at once, or secrets by their variable names.
_HARVEST = re.compile(
    r"\b(?:every|all|each|any)\b(?:[^.\n]|\.(?=\S)){0,30}?\b(?:secrets?|keys?|tokens?|credentials?|passwords?|"
    r"values?|variables?|logins?)\b|\b(?:secrets|credentials|passwords|logins|environment\s+variables|env\s+vars|"
    r"api\s+keys|access\s+keys|tokens)\b|\b(?:the\s+)?(?:values|output|results)\b|\bwhat\s+(?:it|they)\s+returns?\b"
    r"|(?-i:\b[A-Z][A-Z0-9]*_(?:API_KEY|KEY|TOKEN|SECRET|PASSWORD)\b)",
    _FLAGS,
)
# An obligation laid on whoever reads the text, with an act that serves an attacker.
_OBLIGATION = re.compile(
    r"\b(?:must|required|requires|shall|mandatory|mandated|obliged|need\s+to|needs\s+to|have\s+to|has\s+to|"
    r"are\s+to|is\s+to)\b",
    _FLAGS,
)
_SERVING_ACT = re.compile(
    r"\b(?:forward|copy|copied|include|attach|send|sent|skip|bypass|disable|b?cc|upload|share|override|"
    r"disclose|paste|submit|approve|pre-?approved|certified|audit|report)\w*",
    _FLAGS,
)
# Other tools put down or forbidden, or this one pushed in their place.
_DISPARAGEMENT = re.compile(
    r"\b(?:never|do\s+not|don'?t|must\s+not|should\s+not|stop)\s+(?:\w+\s+){0,3}?(?:use|call|invoke|rely|trust)"
    r"\w*\b|\b(?:unsafe|insecure|vulnerab\w*|compromised|broken|corrupt\w*|malicious|fabricat\w*|fake|"
    r"untrustworthy|unreliable)\b|\bonly\s+(?:trustworthy|safe|trusted|reliable)\b|\bignore\s+the\s+rest\b"
    r"|\b(?:use|call)\s+this\s+(?:tool|one|server)\s+(?:instead|exclusively|for\s+(?:all|every|any))\b"
    r"|\b(?:route|send|direct)\s+(?:every|all|each|any)\b(?:[^.\n]|\.(?=\S)){0,40}?\bthrough\s+(?:here|this)\b"
    r"|\bnever\s+again\b|\bwill\s+fail\b",
    _FLAGS,
)
# Addressed to where the user would see it.
_USER_FACING = re.compile(
    r"\b(?:user|person|people|chat|conversation|transcript|reply|replies|answer|message|customer)\b"
    r"|\bjust\s+(?:confirm|say|reply|acknowledge)\b|\b(?:it|that\s+it)\s+(?:worked|succeeded)\b",
    _FLAGS,
)
# Data put into the call: a parameter, "this field", the value of something, or sent out.
_INTO_CALL = re.compile(
    rf"{_INTO_PARAMETER}|\b(?:as\s+the\s+value|value\s+of\s+this|in\s+the\s+(?:request|call)|to\s+this\s+"
    r"(?:tool|request|call))\b|\b(?:send|forward|upload|post|attach|include|put|pass|supply|copy|provide|"
    r"give|hand|repeat|output|print|write)\w*\b|\b(?:verbatim|word\s+for\s+word)\b",
    _FLAGS,
)
_DISPARAGEMENT_WINDOW = 300


def _from_a_source(text: str, match: re.Match[str]) -> bool:
    """The sentence names a secret read from somewhere, a sensitive path, or the model's context."""
    sentence = _sentence(text, match)
    return _SOURCE.search(sentence) is not None or any(path.search(sentence) for path in _SENSITIVE_PATHS)


def _harvests(text: str, match: re.Match[str]) -> bool:
    """The sentence takes secrets wholesale (every secret, the values, OPENAI_API_KEY), or from a source."""
    return _HARVEST.search(_sentence(text, match)) is not None or _from_a_source(text, match)


def _obliges(text: str, match: re.Match[str]) -> bool:
    """The sentence (or the line after a notice's colon) lays an obligation with an act that serves an
    attacker: forward, copy, include, skip, approve."""
    sentence = _sentence(text, match)
    return _OBLIGATION.search(sentence) is not None and _SERVING_ACT.search(sentence) is not None


def _disparages(text: str, match: re.Match[str]) -> bool:
    """Near the match, other tools are forbidden or put down, or this one is pushed in their place."""
    # The match's own words do not count: "do not use the other tools" alone is a usage rule.
    before = text[max(0, match.start() - _DISPARAGEMENT_WINDOW) : match.start()]
    after = text[match.end() : match.end() + _DISPARAGEMENT_WINDOW]
    return _DISPARAGEMENT.search(before) is not None or _DISPARAGEMENT.search(after) is not None


def _user_facing(text: str, match: re.Match[str]) -> bool:
    """The sentence is about what the user sees."""
    return _USER_FACING.search(_sentence(text, match)) is not None


def _into_call(text: str, match: re.Match[str]) -> bool:
    """The sentence puts the data into a call or sends it."""
    return _INTO_CALL.search(_sentence(text, match)) is not None


_STRONG_QUALIFIER = re.compile(
    r"\b(?:always|also|every|all|secretly|silently|quietly|automatically|as\s+well|too|in\s+addition|"
    r"each\s+time|every\s+time|everything|mirrored|copies|copy\s+of)\b",
    _FLAGS,
)


def _sent_to_address_always(text: str) -> re.Match[str] | None:
    """:func:`_sent_to_address` where the sentence says it happens always, also, or unseen."""
    for match in _SEND_TO_ADDRESS_STARTS.finditer(text):
        if _STRONG_QUALIFIER.search(_sentence_around(text, match.start(), match.end())):
            return match
    return None


def _secret_from_a_source_into_parameter(text: str) -> re.Match[str] | None:
    """:func:`_secret_into_parameter` where the secret is read from somewhere or taken wholesale."""
    for match in _put_into_parameter(text):
        sentence = _sentence_around(text, match.start(), match.end())
        if _names_a_secret(sentence) and (_from_a_source(text, match) or _HARVEST.search(sentence)):
            return match
    return None


# A sensitive path or a private key: what a parameter's value must never be.
_PRIVATE_KEY = re.compile(r"\bprivate[\s_-]+keys?\b", _FLAGS)


def _names_a_path_or_private_key(text: str, match: re.Match[str]) -> bool:
    """The sentence names a sensitive path or a private key."""
    sentence = _sentence(text, match)
    return _PRIVATE_KEY.search(sentence) is not None or any(
        path.search(sentence) for path in _SENSITIVE_PATHS
    )


def _moves_secrets(text: str, match: re.Match[str]) -> bool:
    """Secrets taken wholesale and put into a parameter or sent to an address (not a tool that reveals or
    scans secrets describing itself)."""
    sentence = _sentence(text, match)
    moved = re.search(_INTO_PARAMETER, sentence, _FLAGS) or re.search(_ADDRESS, sentence, _FLAGS)
    return moved is not None and _harvests(text, match)


_EXFILTRATION_PATTERNS: list[_Pattern] = [
    # "bcc: archive@...", "cc them to x@..."
    (
        rf"\b(?:bcc|cc)\b\s*:?\s*(?:\w+\s+){{0,3}}?{_ADDRESS}",
        _needs("bcc cc"),
        LOW,
    ),
    # "include its contents in the 'notes' parameter", "put its full text here"
    (
        r"\b(?:its|their|the|this|that|these|those|both|all|any|full|whole|entire|complete|raw)\s+"
        r"(?:[\w']+\s+){0,2}?(?:contents?|text|output|tokens?|keys?|credentials|passwords?|secrets?)\b"
        rf"{_S}{{0,40}}?{_INTO_PARAMETER}",
        _needs(
            "content contents text output token tokens key keys credentials password passwords secret "
            "secrets",
            _INTO_PARAMETER_NEEDS,
        ),
        HIGH,
        _from_a_source,
        WEAK,
    ),
    # secrets or environment put into a call
    (
        r"\b(?:include|pass|send|put|attach|collect|forward|upload|post|copy|paste|dump|leak|share|exfiltrate|"
        rf"enumerate|harvest|reveal)\b{_S}{{0,40}}?\b(?:environment\s+variables?|env\s+vars?|api[\s_-]?keys?|"
        r"access\s+tokens?|api\s+tokens?|credentials|passwords?|secrets|private\s+keys?|session\s+(?:tokens?|"
        r"cookies?))\b",
        _needs(
            "include pass send put attach collect forward upload post copy paste dump leak share exfiltrate "
            "enumerate harvest reveal",
            # "api_key" is "api" and "key", "apikey" one word
            "environment env api apikey apikeys access credentials password passwords secrets private "
            "session",
        ),
        HIGH,
        _moves_secrets,
        WEAK,
    ),
    # the model's own context
    (
        r"\b(?:your|the\s+assistant'?s|the\s+model'?s)\s+(?:\w+\s+)?system\s+prompt\b",
        _needs("system", "prompt"),
    ),
    (
        r"\bsystem\s+prompt\s+you\s+(?:were|have\s+been)\s+given\b",
        _needs("system", "prompt", "given"),
    ),
    (
        r"\b(?:entire|full|complete|whole)\s+(?:conversation|chat|dialog(?:ue)?)\b"
        r"|\b(?:the\s+user'?s|your|this|our)\s+(?:full\s+|entire\s+|whole\s+|complete\s+)?(?:conversation|chat|"
        r"message)\s+history\b",
        _needs("conversation chat dialog dialogue history"),
        HIGH,
        _into_call,
        WEAK,
    ),
    (
        r"\b(?:every|all|each)\s+(?:of\s+the\s+)?(?:previous|prior|earlier)\s+messages?\b",
        _needs("message messages", "previous prior earlier"),
        HIGH,
        _into_call,
        WEAK,
    ),
    (
        r"\byour\s+(?:\w+\s+)?chain[\s-]of[\s-]thought\b",
        _needs("chain", "thought"),
    ),
    (
        r"\b(?:every|all|each)\s+(?:of\s+the\s+)?tools?\s+(?:available\s+to\s+you|you\s+(?:have|can))\b",
        _needs("tool tools", "available you"),
    ),
    (
        rf"{_ADDRESS}\s+(?:in|as|to\s+the)\s+(?:the\s+)?b?cc\b",
        _needs("bcc cc"),
        LOW,
    ),
    (
        r"\b(?:fill|populate)\s+(?:this|it|this\s+field|this\s+parameter)\s+with\s+(?:the\s+)?(?:\w+\s+){0,2}?"
        r"(?:contents?|text|output|values?|data)\s+of\b",
        _needs("fill populate", "with", "content contents text output value values data"),
        HIGH,
        _from_a_source,
        WEAK,
    ),
    # an extra recipient: "invite x@... as well", "always cc x@..."
    (
        rf"\b(?:invite|add|include|cc|bcc|copy)\s+(?:\w+\s+){{0,2}}?{_ADDRESS}{_S}{{0,40}}?\b(?:as\s+well|too|also|"
        r"always|every|each)\b",
        _needs("invite add include cc bcc copy", "well too also always every each"),
        LOW,
    ),
    # credential phishing through the model
    (
        r"\bask\s+(?:the\s+user|them|him|her)\s+(?:for|to\s+(?:paste|provide|enter|share|type|send))\s+"
        r"(?:their|his|her|the|your)\s+(?:\w+\s+)?(?:password|passphrase|recovery\s+phrase|seed\s+phrase|"
        r"private\s+key|2fa|otp|one-time\s+(?:code|password)|mnemonic)\b",
        _needs("ask", "password passphrase phrase key 2fa otp code mnemonic"),
        LOW,
    ),
    # data smuggled into the URLs the model fetches
    (
        rf"\b(?:append|add|attach)\b{_S}{{0,60}}?\bto\s+(?:every|all|each|any)\s+(?:\w+\s+)?(?:urls?|links?|"
        r"requests?)\b",
        _needs("append add attach", "url urls link links request requests"),
    ),
    # shell transfer to a host
    (
        r"\b(?:curl|wget|ncat|netcat|Invoke-WebRequest)\b[^\n]{0,120}?(?:https?://|\b\d{1,3}(?:\.\d{1,3}){3}\b)",
        _needs("curl wget ncat netcat invoke"),
        WEAK,
    ),
    # markdown image whose URL carries a placeholder for data
    (
        r"(?:!\[[^\]\n]{0,100}\]\(|<img\s[^>]{0,200}?src\s*=\s*[\"']?)\s*https?://[^)\s\"'?]{0,500}\?"
        r"[^)\s\"']{0,500}?=\s*(?:\{|<|\$|%7B|(?-i:[A-Z][A-Z_]{3,}\b))",
        _needs("![ <img", "http https"),
    ),
]

# Sending something to an address: a verb, then "to <URL, e-mail, phone number or IP>" in the same sentence.
_SEND_TO_ADDRESS = re.compile(
    r"\b(?:send|sent|post|upload|forward|transmit|submit|copy|mirror|sync|push|exfiltrate|leak|deliver|route|"
    rf"redirect|e-?mail|mail)(?:s|ed|ing)?\b{_S}{{0,100}}?\b(?:to|at)\s+(?:the\s+)?(?:\w+\s+){{0,2}}?{_ADDRESS}",
    _FLAGS,
)
# The same, searched where its matches can begin (see _LazyPattern); the tests draw texts from the regex.
_SEND_TO_ADDRESS_STARTS = _LazyPattern(_SEND_TO_ADDRESS.pattern, _SEND_TO_ADDRESS.flags)
# ... which counts only when the sentence also says what goes or how often, so that "Send an email to the
# recipient" or a support address in prose does not.
_SEND_TO_ADDRESS_QUALIFIER = re.compile(
    r"\b(?:always|also|every|all|copy|copies|secretly|silently|automatically|first|as\s+well|too|in\s+addition|"
    r"results?|contents?|data|text|document|documents|history|files?|credentials|keys?|conversation|output|"
    r"messages?|images?|notes?|each|every\s+time|everything|user'?s?)\b",
    _FLAGS,
)
# Putting something into a parameter: counts only when the sentence names a secret or a sensitive path.
_PUT_INTO_PARAMETER = re.compile(
    r"\b(?:pass|include|put|insert|embed|attach|append|add|place|paste|copy|hand|give|send|resend|fill|store|set|"
    r"provide|dump|write|save|record)\b"
    rf"{_S}{{0,60}}?{_INTO_PARAMETER}",
    _FLAGS,
)
_PUT_INTO_PARAMETER_STARTS = _LazyPattern(_PUT_INTO_PARAMETER.pattern, _PUT_INTO_PARAMETER.flags)
_PUT_INTO_PARAMETER_NEEDS = _needs(
    "pass include put insert embed attach append add place paste copy hand give send resend fill store set "
    "provide dump write save record",
    _INTO_PARAMETER_NEEDS,
)

# "Values set here override the defaults": a participle with nothing put, not an order to put something here;
# "a session_id you can pass back into ask_question": a value the tool returned, handed back to it.
_BARE_PARTICIPLE = re.compile(
    r"(?:set|stored|saved|recorded|written|added|provided)\s+here|\w+\s+(?:it\s+|them\s+)?back\b.*|"
    # Round 10: "a variable ... with its value set to the value of this field": taken from the field.
    r"(?:set|defaults?)\s+to\s+(?:the\s+)?value\s+(?:of|in|from)\b.*",
    re.IGNORECASE | re.DOTALL,
)


@functools.lru_cache(maxsize=4)
def _put_into_parameter(text: str) -> tuple[re.Match[str], ...]:
    """The matches of :data:`_PUT_INTO_PARAMETER` that put something (round 8: not "values set here").

    Kept for the last few texts: three checks in a row look through the same matches of one text.
    """
    return tuple(
        match
        for match in _PUT_INTO_PARAMETER_STARTS.finditer(text)
        if _BARE_PARTICIPLE.fullmatch(match.group(0)) is None
    )


_Check = Callable[[str], re.Match[str] | None]
# A finding before it is given its field: (rule, found in decoded text, excerpt).
_Hit = tuple[str, bool, str, Confidence]


def _compile(patterns: Iterable[str]) -> list[_LazyPattern]:
    # DOTALL only for the HTML comment pattern, whose body may span lines.
    return [
        _LazyPattern(pattern, (_FLAGS | re.DOTALL) if "<!--" in pattern else _FLAGS) for pattern in patterns
    ]


_SENSITIVE_PATHS = _compile(pattern[0] for pattern in _SENSITIVE_PATH_PATTERNS)
# A full stop followed by a space, the end, or markdown (".- **Note**", "].**"), or a line break.
_SENTENCE_END = re.compile(r"\.(?=\s|$|[*#\[-])|\n")
_SENTENCE_LOOKBACK = 400


def _sentence_around(text: str, start: int, end: int) -> str:
    """The sentence (or line) holding ``text[start:end]``, looking back at most a few hundred characters."""
    left = max(0, start - _SENTENCE_LOOKBACK)
    for boundary in _SENTENCE_END.finditer(text, left, start):
        left = boundary.end()
    after = _SENTENCE_END.search(text, end)
    right = after.start() if after else len(text)
    return text[left:right]


def _names_a_secret(sentence: str) -> bool:
    return _SECRET.search(sentence) is not None or any(path.search(sentence) for path in _SENSITIVE_PATHS)


def _sent_to_address(text: str) -> re.Match[str] | None:
    """'send/post/forward ... to <address>' in a sentence that says what goes or how often."""
    for match in _SEND_TO_ADDRESS_STARTS.finditer(text):
        if _SEND_TO_ADDRESS_QUALIFIER.search(_sentence_around(text, match.start(), match.end())):
            return match
    return None


def _secret_into_parameter(text: str) -> re.Match[str] | None:
    """'pass/put ... in the "x" parameter' in a sentence that names a secret or a sensitive path."""
    for match in _put_into_parameter(text):
        if _names_a_secret(_sentence_around(text, match.start(), match.end())):
            return match
    return None


# A secret's path handed on: the imperative that moves it, or where it goes.
_MOVED = re.compile(
    r"\b(?:pass|include|send|attach|upload|put|paste|exfiltrate|forward|email|post|hand|supply|provide|cat|"
    r"dump|copy)\b|\balong\b|\b(?:your|the)\s+(?:reply|response|answer)\b|\b(?:parameter|argument|field)\b|"
    # Round 10: "... then call this tool with what it returned".
    r"\bcall\s+(?:this|the)\s+tool\s+with\b|\bwith\s+what\s+(?:it|that)\s+returned\b",
    _FLAGS,
)


def _moves_it(text: str, match: re.Match[str]) -> bool:
    """The sentence with a sensitive path also hands it on (an imperative to pass, send, include, cat it)."""
    return _MOVED.search(_sentence(text, match)) is not None


# "Pass your API key in 'api_key'": the caller's own credential for this very service, not someone's secret.
_OWN_CREDENTIAL = re.compile(
    r"\byour\s+(?:own\s+)?(?:\w+\s+)?(?:api[\s_-]?keys?|api[\s_-]?tokens?|access[\s_-]?tokens?|tokens?|"
    r"credentials?|passwords?)\b",
    _FLAGS,
)


def _someones_secret_into_parameter(text: str) -> re.Match[str] | None:
    """:func:`_secret_into_parameter` unless the secret is the caller's own credential for this service
    ("your API key"), taken from nowhere."""
    for match in _put_into_parameter(text):
        sentence = _sentence_around(text, match.start(), match.end())
        if not _names_a_secret(sentence):
            continue
        if (
            _OWN_CREDENTIAL.search(sentence)
            and not _from_a_source(text, match)
            and not _HARVEST.search(sentence)
        ):
            continue
        return match
    return None
