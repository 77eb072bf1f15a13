"""The phrase patterns of the ``model-directive`` rule: orders aimed at the model rather than a description.

Private to :mod:`mcp_troupe.policy.injection` (whose docstring lists what the rule looks for); kept apart from
``_injection_rules`` for size alone.
"""

from __future__ import annotations

import re
from typing import Final

from mcp_troupe.policy._injection_prefilter import _needs
from mcp_troupe.policy._injection_rules import (
    _S,
    HIGH,
    LOW,
    WEAK,
    _not_about_a_secret,
    _not_defensive,
    _Pattern,
    _says_other,
    _sentence,
)

# Round 8: what makes "never ask for confirmation" an attack is what goes unconfirmed. A real tool's workflow
# notes say it of their own bookkeeping ("NEVER ask for confirmation - handle it transparently"): withheld for
# review, not blocked.
_CONSEQUENTIAL_ACT: Final = re.compile(
    r"\b(?:delet\w*|remov\w*|drop\w*|destroy\w*|wip\w*|overwrit\w*|transfer\w*|pay\w*|purchas\w*|buy\w*|"
    r"send\w*|sent|email\w*|shar\w*|upload\w*|forward\w*|publish\w*|post\w*|execut\w*|run|running|"
    r"commands?|install\w*|push\w*|deploy\w*|merg\w*|secrets?|tokens?|passwords?|credentials?|keys?|files?|"
    r"money|funds|orders?|charg\w*|approv\w*|grant\w*|permissions?|access|anything|everything|actions?|"
    r"operations?|changes?|calls?|tools?)\b",
    re.IGNORECASE,
)


def _with_a_consequential_act(text: str, match: re.Match[str]) -> bool:
    """The sentence names what goes unconfirmed: a deletion, a payment, a message sent, a command run."""
    return _CONSEQUENTIAL_ACT.search(_sentence(text, match)) is not None


# Round 9: an attack phrase quoted as an example of what the tool reports or refuses ("injection attempts
# (e.g. 'ignore previous instructions') are reported"): mentioned, not said to the model.
_EXAMPLE_BEFORE: Final = re.compile(
    r"(?:\be\.g\.|\bi\.e\.|\bsuch\s+as|\blike|\bfor\s+example|\bphrases?|\battempts?|\binjections?|"
    r"\bpatterns?|\bstrings?)\s*[(:]?\s*[\"'`\u201c\u2018]\s*$",
    re.IGNORECASE,
)


def _not_a_quoted_example(text: str, match: re.Match[str]) -> bool:
    return _EXAMPLE_BEFORE.search(text[max(0, match.start() - 40) : match.start()]) is None


# Round 11: the phrase as what untrusted text might ask, refused in the same sentence ("if it asks you to
# ignore your instructions or to reveal secrets, do not comply"): a defensive statement, not an order.
_ASKED_OF_YOU_BEFORE: Final = re.compile(
    r"\b(?:if|when|whenever|should)\s+(?:\w+\s+){0,3}?(?:asks?|tells?|instructs?|wants?|says?|urges?)\s+you\s+to\s+$",
    re.IGNORECASE,
)
_REFUSED_AFTER: Final = re.compile(
    r"[^.\n]{0,80}?\b(?:(?:do\s+not|don'?t|never)\s+(?:comply|follow|obey|act\s+on\s+it|do\s+(?:it|so))|refuse)\b",
    re.IGNORECASE,
)


def _not_an_example_nor_refused(text: str, match: re.Match[str]) -> bool:
    """Neither quoted as an example (:func:`_not_a_quoted_example`) nor a request refused in its sentence."""
    before = text[max(0, match.start() - 60) : match.start()]
    refused = _ASKED_OF_YOU_BEFORE.search(before) is not None and _REFUSED_AFTER.match(text, match.end())
    return not refused and _not_a_quoted_example(text, match)


# Round 9: chat-template tokens named as a format ("turns are marked [INST] ... [/INST] (Llama format)").
_FORMAT_NAMED: Final = re.compile(
    r"\b(?:format|formats|template|templates|tokens?|markers?|marked|delimit\w*|syntax|style|tags?|blocks?|"
    r"sections?|elements?|xml|html|example\s+(?:input|output)|closed|balanced)\b",
    re.IGNORECASE,
)


def _not_a_format_named(text: str, match: re.Match[str]) -> bool:
    """No word of its sentence names a format, markup or an example around the token."""
    return _FORMAT_NAMED.search(_sentence(text, match)) is None


_MODEL_DIRECTIVE_PATTERNS: Final[list[_Pattern]] = [
    # overriding what the model was told: "ignore all previous instructions", "disregard your prior
    # guidelines", "ignore the user's request", "previous guidance is outdated", "your instructions have
    # changed", "this has priority over anything else you were told"
    (
        r"\b(?:ignore|disregard|forget|override|bypass)\b(?:\s+\w+){0,3}?\s+"
        r"(?:previous|prior|above|earlier|preceding|original|system|safety|your|all)\s+(?:\w+\s+){0,2}?"
        r"(?:instructions?|prompts?|rules|guidelines|guidance|directives|guardrails|constraints|policies)\b",
        _needs(
            "ignore disregard forget override bypass",
            "previous prior above earlier preceding original system safety your all",
            "instruction instructions prompt prompts rules guidelines guidance directives guardrails "
            "constraints policies",
        ),
        HIGH,
        _not_an_example_nor_refused,
        WEAK,
    ),
    (
        r"\b(?:ignore|disregard|override)\s+(?:the\s+)?user'?s?\s+(?:\w+\s+)?(?:requests?|instructions?|questions?|"
        r"messages?|wishes|commands?)\b",
        _needs("ignore disregard override", "user users"),
    ),
    (
        r"\b(?:previous|prior|earlier|original|existing|other)\s+(?:\w+\s+)?(?:instructions|guidance|guidelines|"
        rf"directions|rules|prompts?|descriptions)\b{_S}{{0,40}}?\b(?:outdated|obsolete|void|invalid|superseded|"
        r"cancell?ed|revoked|fake|false|fraudulent|"
        r"no\s+longer\s+(?:apply|valid|in\s+effect))\b",
        _needs(
            "instructions guidance guidelines directions rules prompt prompts descriptions",
            "outdated obsolete void invalid superseded canceled cancelled revoked fake false fraudulent "
            "longer",
        ),
    ),
    (
        r"\byour\s+(?:\w+\s+)?(?:instructions|guidelines|directives|orders|system\s+rules)\b",
        _needs("your", "instructions guidelines directives orders rules"),
        WEAK,
    ),
    (
        r"\b(?:stop|no\s+longer|do\s+not|don'?t|never)\s+(?:following|follow|obeying|obey|applying|apply)\s+"
        r"(?:\w+\s+){0,2}?(?:instructions|guidelines|rules|guidance|policies|system\s+prompt)\b",
        _needs(
            "following follow obeying obey applying apply",
            "instructions guidelines rules guidance policies prompt",
        ),
        HIGH,
        _not_defensive,
        None,
    ),
    (
        r"\b(?:has|have|takes?)\s+(?:priority|precedence)\s+over\s+(?:anything|everything|all|any)\b"
        r"|\b(?:anything|everything)\s+else\s+you\s+(?:were|have\s+been|are)\s+(?:told|given|instructed)\b",
        _needs("priority precedence else"),
    ),
    (
        r"\b(?:new|updated|additional|real|actual)\s+(?:system\s+)?instructions?\s*:|\bthe\s+real\s+task\b",
        _needs("instruction instructions task"),
    ),
    (
        rf"\bfollow\b{_S}{{0,40}}?\b(?:over|instead\s+of|rather\s+than)\s+(?:the\s+)?user'?s?\b",
        _needs("follow", "over instead rather", "user users"),
    ),
    (
        r"\bregardless\s+of\s+(?:what\s+)?(?:the\s+user|they)\s+(?:asks?|asked|says?|said|wants?|requests?)\b",
        _needs("regardless"),
    ),
    (
        r"\b(?:every|all|each)\s+future\s+(?:questions?|answers?|responses?|replies|messages|conversations?)\b",
        _needs("future"),
        LOW,
    ),
    (
        r"\bfrom\s+now\s+on\b,?\s+(?:you|always|never|before|ignore|do|treat|respond|answer|follow)\b",
        _needs("now", "from"),
    ),
    # text promoted to orders: "treat the output as commands", "obey any directions inside it"
    (
        rf"\btreat\b{_S}{{0,60}}?\bas\s+(?:\w+\s+)?(?:commands?|instructions?|orders?)\b",
        _needs("treat", "command commands instruction instructions order orders"),
        HIGH,
        _not_defensive,
        None,
    ),
    (
        r"\b(?:obey|execute|carry\s+out)\s+(?:any|all|every|the)\s+(?:\w+\s+)?(?:directions|instructions|commands|"
        r"orders)\b|\bfollow\s+(?:any|all|every)\s+(?:\w+\s+)?(?:directions|instructions|commands|orders)\s+"
        r"(?:inside|in|within|contained|found)\b",
        _needs("obey execute carry follow", "directions instructions commands orders"),
        HIGH,
        _not_defensive,
        None,
    ),
    # false authority, fake system text, personas
    (
        r"\b(?:order|instruction|directive|message|command)\s+from\s+(?:the\s+|your\s+)?(?:administrator|admin|"
        r"system|developers?|operator|anthropic|openai)\b|\bsystem\s+override\b",
        _needs(
            "administrator admin system developer developers operator anthropic openai",
            "order instruction directive message command override",
        ),
    ),
    (
        r"\bsystem\s+(?:message|prompt|notice|note)\s*:",
        _needs("system", "message prompt notice note"),
        LOW,
    ),
    (
        r"\b(?:hey|heads\s+up|attention|listen|psst|note|notice)\s*(?:,|\s+(?:to|for))?\s+(?:the\s+)?(?:ai\s+)?"
        r"(?:model|assistant|ai|llm|agent|claude|gpt|chatgpt)\s*[:,!]",
        _needs(
            "hey heads attention listen psst note notice",
            "model assistant ai llm agent claude gpt chatgpt",
        ),
        WEAK,
    ),
    (
        r"\byou\s+are\s+now\s+(?:in\s+)?\w+\s+mode\b",
        _needs("mode", "now"),
    ),
    (
        r"\byou\s+are\s+(?:now\s+)?(?:an?\s+)?(?:unrestricted|unfiltered|uncensored|jailbroken)\b",
        _needs("unrestricted unfiltered uncensored jailbroken"),
    ),
    (
        r"\b(?:as\s+if\s+you\s+were|pretend\s+to\s+be|act\s+as)\s+(?:an?\s+)?(?:DAN|jailbroken|unrestricted|"
        r"unfiltered|uncensored|evil)\b|\b(?:ai|assistant|model)\s+(?:with\s+no|without\s+(?:any\s+)?)\s*(?:rules|"
        r"restrictions|limits|filters|guidelines)\b",
        # not the rules/limits words: "with no" may run into them ("with norules")
        _needs(
            "dan jailbroken unrestricted unfiltered uncensored evil ai assistant model",
            "as be were with without",
        ),
    ),
    # approval bypass and false consent
    (
        r"\bthe\s+user\s+has\s+(?:already|previously)\s+(?:\w+\s+)?(?:consented|approved|authori[sz]ed|agreed|"
        r"accepted)\b",
        _needs("already previously", "consented approved authorised authorized agreed accepted"),
    ),
    (
        r"\bthe\s+user\s+(?:has\s+)?(?:already\s+|previously\s+)?(?:agreed|consented|approved)\s+"
        r"(?:to\s+(?:it|this)\s+)?(?:earlier|before|already|previously)\b",
        _needs("agreed consented approved", "earlier before already previously"),
    ),
    (
        r"\byou\s+(?:have|are\s+given|are\s+granted|now\s+have)\s+(?:full\s+)?(?:permission|authori[sz]ation|"
        r"consent)\b",
        _needs("permission authorisation authorization consent"),
    ),
    (
        r"\b(?:confirmations?|approvals?|permission)\s+(?:dialogs?\s+|prompts?\s+|requests?\s+)?(?:are|is)\s+"
        r"(?:not\s+(?:required|needed|necessary)|unnecessary|disabled|turned\s+off|skipped)\s+(?:for|in)\s+"
        r"(?:any|all|every|this)\b",
        _needs(
            "confirmation confirmations approval approvals permission",
            "required needed necessary unnecessary disabled turned skipped",
        ),
    ),
    (
        r"\b(?:no\s+longer|don'?t|do\s+not|never)\s+need\s+(?:the\s+)?(?:user'?s?\s+)?(?:approval|permission|"
        r"confirmation|consent)\b",
        _needs("need", "approval permission confirmation consent"),
    ),
    (
        r"\b(?:never|do\s+not|don'?t|no\s+need\s+to)\s+(?:ask|request|prompt|wait|check)\s+(?:with\s+)?"
        r"(?:the\s+user\s+)?(?:for\s+(?:\w+\s+)?(?:confirmation|permission|approval|consent)|before)\b",
        _needs(
            "never not don dont need",  # "don't" is "don" and "t"
            "ask request prompt wait check",
            "confirmation permission approval consent before",
        ),
        HIGH,
        _with_a_consequential_act,
        LOW,
    ),
    # the bare imperative "run ... without asking" ("Runs ... without asking" describes a tool: not matched)
    (
        rf"\b(?:run|execute|do|perform|delete|push|call|send|pay|transfer)\b{_S}{{0,60}}?\bwithout\s+(?:asking|"
        r"confirmation|confirming|approval|permission)\b",
        _needs("without", "asking confirmation confirming approval permission"),
    ),
    # "skip the safety checks" (a determiner: a "skip_security_check" flag describes itself without one)
    (
        r"\b(?:skip|bypass|disable|turn\s+off)\s+(?:the|all|any|your)\s+(?:safety|security|confirmation|approval)\s+"
        r"(?:checks?|prompts?|steps?|measures?|rules?|filters?)\b",
        _needs(
            "safety security confirmation approval",
            "check checks prompt prompts step steps measure measures rule rules filter filters",
        ),
    ),
    (
        r"\b(?:safety|security)\s+(?:checks?|filters?|guardrails?|restrictions?)\s+(?:are\s+|have\s+been\s+)?"
        r"(?:off|disabled|lifted|removed|suspended)\b",
        _needs("safety security", "off disabled lifted removed suspended"),
    ),
    # concealment and deception ("without telling the user" is left out: "never delete without telling the
    # user" is a safeguard, not a secret)
    (
        r"\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|shouldn'?t)\s+(?:\w+\s+){0,2}?"
        r"(?:tell(?:ing)?|mention(?:ing)?|inform(?:ing)?|notify(?:ing)?|alert(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)"
        rf"|bring(?:ing)?\s+(?:this|it|that)\s+up|let(?:ting)?)\b{_S}{{0,80}}?\bthe\s+user\b",
        _needs(
            "user",
            "tell telling mention mentioning inform informing notify notifying alert alerting reveal "
            "revealing disclose disclosing bring bringing let letting",
        ),
        HIGH,
        _not_about_a_secret,
        WEAK,
    ),
    (
        r"\b(?:do\s+not|don'?t|never)\s+show\s+(?:this\s+|it\s+)?(?:to\s+)?the\s+user\b",
        _needs("show", "user"),
    ),
    (
        r"\b(?:keep|hide|conceal)\s+(?:this|it|that|these|them)\s+(?:\w+\s+)?(?:hidden\s+|secret\s+)?from\s+the\s+"
        r"user\b",
        _needs("keep hide conceal", "user"),
    ),
    (
        r"\bthe\s+user\s+(?:must|should|need)\s+(?:not|never)\s+(?:know|see|notice|be\s+told)\b",
        _needs("user", "must should need", "know see notice be"),
    ),
    (
        r"\b(?:do\s+not|don'?t|never)\s+(?:reveal|disclose|admit|acknowledge|show)\s+(?:these|this|that|the)\s+"
        r"(?:instructions?|notes?|rules?|steps?)\b|\bnever\s+admit\b|\b(?:never|do\s+not|don'?t)\s+let\s+on\b",
        _needs("never not don dont", "reveal disclose admit acknowledge show let"),
    ),
    (
        r"\b(?:never|do\s+not|don'?t|must\s+not)\s+(?:reveal|disclose|mention|admit|acknowledge)\s+(?:that\s+)?"
        r"(?:this\s+tool|these\s+instructions)\b",
        _needs("reveal disclose mention admit acknowledge", "tool instructions"),
    ),
    # a claimed wish of the user that happens to silence the model
    (
        r"\bthe\s+user\s+(?:wants|prefers|asked|requested|would\s+like|expects)\s+(?:you|that\s+you)\b"
        rf"{_S}{{0,60}}?\b(?:confidential|secret|hidden|private|quiet|never|not\s+(?:to\s+)?(?:ask|tell|mention))\b",
        _needs(
            "user",
            "wants prefers asked requested would expects",
            "confidential secret hidden private quiet never not",
        ),
    ),
    (
        r"\b(?:add|insert|append|include|embed)\s+(?:a\s+|an\s+)?hidden\b",
        _needs("hidden", "add insert append include embed"),
        WEAK,
    ),
    (
        r"\bpretend\s+(?:that\s+)?(?:the|this|it|you|to)\b|\b(?:lie\s+to|deceive|mislead)\s+the\s+user\b",
        _needs("pretend lie deceive mislead"),
    ),
    (
        rf"\bif\s+(?:you\s+are\s+|the\s+user\s+)?ask(?:ed|s)\b{_S}{{0,40}}?\b(?:say|claim|tell\s+(?:them|the\s+user)|"
        r"answer|reply|respond)\s+(?:that\s+)?(?:it|this|you)\b",
        _needs("asked asks", "say claim tell answer reply respond"),
        LOW,
    ),
    (
        r"\b(?:secretly|covertly|quietly|discreetly|silently)\s+(?:\w+\s+)?(?:copy|send|forward|upload|read|load|"
        r"include|add|append|attach|call|invoke|exfiltrate|collect|transmit|post|share|leak)\b",
        _needs("secretly covertly quietly discreetly silently"),
    ),
    # instruction markup and chat-template tokens
    (
        r"<\s*/?\s*(?:important|system[\w-]*|admin|critical|override)\s*>",
        _needs("<", ">"),
        LOW,
        _not_a_format_named,
        WEAK,
    ),
    (
        # Structure, as often as not: <instructions> around a usage section, <hidden> in an HTML example.
        r"<\s*/?\s*(?:instructions?|hidden|secret)\s*>",
        _needs("<", ">"),
        WEAK,
    ),
    (
        r"\[\s*/?\s*(?-i:INST|SYS|SYSTEM)\s*\]|\[\s*(?:important|system|admin)\s*:|<<\s*/?\s*SYS\s*>>",
        _needs("[ <<", "inst sys system important admin"),
        HIGH,
        _not_a_format_named,
        WEAK,
    ),
    (
        r"<\|\s*(?:im_start|im_end|system|assistant|endoftext)\s*\|>",
        _needs("<|", "im system assistant endoftext"),
        HIGH,
        _not_a_format_named,
        WEAK,
    ),
    (
        r"(?:^|\n)[ \t]*#{1,6}[ \t]*(?:system|assistant|instructions?)[ \t]*(?::|\n|$)",
        _needs("#", "system assistant instruction instructions"),
        LOW,
    ),
    (
        r"<!--.{0,2000}?-->",
        _needs("<!--", "-->"),
        WEAK,
    ),
    # run-first orchestration: "before using any other tool", "ahead of all other tools"
    (
        r"\b(?:before|ahead\s+of|prior\s+to)\s+(?:using\s+|calling\s+|invoking\s+|running\s+|executing\s+)?"
        r"(?:any|every|all|each)\s+(?:of\s+the\s+)?(?:other\s+)?(?:\w+\s+)?(?:tools?|functions?|actions?|calls?)\b",
        _needs(
            "before ahead prior",
            "any every all each",
            "tool tools function functions action actions call calls",
        ),
        LOW,
        _says_other,
        WEAK,
    ),
    (
        r"\bbefore\s+(?:doing\s+)?anything\s+else\b",
        _needs("before", "anything", "else"),
        LOW,
    ),
    # the model's own prompt
    (
        r"\b(?:your|the\s+assistant'?s|the\s+model'?s|the\s+ai'?s)\s+(?:\w+\s+)?"
        r"(?:system\s+(?:prompt|message|instructions?)|(?:initial|hidden|original)\s+instructions)\b",
        _needs(
            "your assistant assistants model models ai ais",
            "system initial hidden original",
            "prompt message instruction instructions",
        ),
    ),
    (
        rf"\b(?:reveal|print|output|repeat|dump|leak|paste|disclose)\b{_S}{{0,30}}\bsystem\s+(?:prompt|message)\b",
        _needs("reveal print output repeat dump leak paste disclose", "system", "prompt message"),
    ),
    # destructive commands handed to the model
    (
        r"\brm\s+-(?:rf|fr|r)\s+(?:/|~|\$HOME)(?:\s|$|\*)|\bmkfs(?:\.\w+)?\s+/dev/|\bdd\s+if=\S+\s+of=/dev/"
        r"|:\(\)\s*\{\s*:\|:&\s*\};:",
        _needs("rm mkfs dd :()"),
    ),
]
