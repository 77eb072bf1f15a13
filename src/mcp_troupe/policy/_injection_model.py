"""The learned scorer of the injection scan: a logistic model over a sentence's words, shipped as data.

The phrase, shape and intent rules (``_injection_rules``, ``_injection_shapes``, ``_injection_intents``)
match the wordings their author thought of; each round of them lifted the family it was tuned on to ~97 %
and the next unseen family much less (docs/security.md). This scorer reads a sentence differently: it
weighs every word and word pair it holds, and a few structural signs that do not depend on wording (the
sentence speaks to the model, names the user, names other tools or servers, or secrets, carries an
obligation or a negation, sits in an HTML comment or a markdown note), and their pairs, with weights
learned from labelled sentences. Since round 6 (format 2) it also reads what a sentence asks for, by role
rather than by phrase (something kept from someone, hidden, claimed authority, a retired tool, data moved,
the session's data, consent set aside), whom its first words address, data-flow shapes (a URL whose query
value is a slot to fill, a markdown image, a placeholder, an address, a secret path, another tool's name)
and whether it sits inside a schema value. It is trained offline by ``tests/corpus/train_scorer.py`` on
the corpus's *tuning* parts only; the weights and the threshold are the file ``injection_model.tsv.gz``
beside this module. Inference is plain Python: a dict lookup per feature.

Its verdict is never ``block``: a sentence scoring at or above the threshold gives a finding of rule
``learned-score`` that withholds the tool until an operator reviews it (:func:`mcp_troupe.policy.injection.
grade`), and the finding names the score, the threshold and the features that weighed most, so
``troupe review`` says why.

Cost: the model runs only on sentences of four words or more that hold one of the structural trigger
words (:data:`_TRIGGERS`); the training script applies the same filter, so the scores it measures are the
scores the scan gives. A sentence without any of those words scores nothing.
"""

from __future__ import annotations

import gzip
import itertools
import logging
import math
import re
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Final

from mcp_troupe.policy._injection_lexicon import (
    TRIGGER_GROUPS,
    WORD,
    fold,
    foreign_groups,
    is_english,
    maybe_foreign,
)
from mcp_troupe.policy._injection_rules import LOW, _Hit
from mcp_troupe.policy._injection_text import _escape

_LOG = logging.getLogger("mcp_troupe.policy")

MODEL_FILE: Final = Path(__file__).with_name("injection_model.tsv.gz")
FORMAT: Final = "mcp-troupe injection scorer 3"
"""The first line of a model file without character grams (the shipped one); a file of another format
than this or :data:`FORMAT_GRAMS` is refused. Format 2 (round 6) has the groups, shapes and addressee
features of :func:`features`; format 3 (round 7) feeds the groups from the lexicons of nineteen other
languages (``_injection_lexicon``), reads Han and Kana runs as character pairs and ends sentences at the
ideographic full stop; an older file's weights would mean other features."""
FORMAT_GRAMS: Final = "mcp-troupe injection scorer 4"
"""Format 4 (round 12): format 3's features and the character 4-grams of each word (``c:``,
:func:`_word_grams`). A model of this format is read with the grams; one of format 3 without them, so its
scores are exactly what they were (the grams cost nothing then)."""

_WORD: Final = WORD
# Sentences end at . ! ? followed by space, at line breaks, and at HTML comment markers (an attacker's
# "<!-- note for the assistant -->" is its own sentence). Not at ";": "it is routine; do not mention it"
# is one thought, and cross-validation lost a fifth of its catches when it was split there.
# Round 7: also after the ideographic full stop and the danda, which need no space after them.
_SENTENCE_BREAK: Final = re.compile(r"(?<=[.!?])\s+|(?<=[\u3002\uff01\uff1f\u0964\u061f])\s*|\n+|<!--|-->")
# Han and Kana: no spaces between words, so a run is read as its overlapping character pairs (a Chinese
# word is mostly one or two characters; a pair is the unit that carries meaning without a dictionary).
_UNSPACED_RUN: Final = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]{2,}")
_MIN_WORDS: Final = 4
_MAX_SENTENCE_WORDS: Final = 80
"""A longer sentence is read as its first 80 words: what it says to the model comes early, and it keeps the
cost of one sentence bounded."""

# Structural groups: words that say who a sentence speaks to or about, and how. A group's feature is on
# when the sentence holds any of its words; pairs of groups are features too ("the model" + "must").
_GROUPS: Final[Mapping[str, frozenset[str]]] = {
    "you": frozenset(("you", "your", "yourself", "you're", "you'll", "yours")),
    "model": frozenset(
        (
            *("assistant", "assistants", "model", "models", "ai", "agent", "agents", "llm", "llms"),
            *("claude", "gpt", "chatbot", "copilot", "bot"),
        )
    ),
    "user": frozenset(("user", "user's", "users", "person", "human", "customer", "owner", "people")),
    "tools": frozenset(("tool", "tools", "server", "servers", "integration", "plugin", "endpoint")),
    "other": frozenset(("other", "another", "any", "every", "all", "older", "previous", "legacy")),
    "secret": frozenset(
        (
            *("password", "passwords", "token", "tokens", "key", "keys", "credential", "credentials"),
            *("secret", "secrets", "ssh", "env", "cookie", "cookies", "session"),
        )
    ),
    "oblige": frozenset(
        (
            *("must", "should", "shall", "required", "requires", "require", "mandatory", "obliged"),
            *("need", "needs", "expected", "always", "never", "only"),
        )
    ),
    "negate": frozenset(("not", "no", "don't", "never", "nothing", "without", "avoid", "refrain")),
    "polite": frozenset(("please", "kindly", "note", "tip", "hint", "guidance")),
    "conversation": frozenset(
        ("conversation", "chat", "reply", "replies", "response", "answer", "transcript", "messages")
    ),
    "instead": frozenset(("instead", "replaces", "replacement", "supersedes", "successor", "place")),
    "prior": frozenset(("earlier", "prior", "previous", "before", "above", "already", "ahead", "advance")),
    # Round 6: groups that say what a sentence asks for, not how it is worded (issue 15's misses).
    # Secrecy: something kept from someone ("need not mention", "is not to learn", "kept between us").
    "secrecy": frozenset(
        (
            *("tell", "telling", "told", "mention", "mentioning", "mentioned", "unmentioned", "disclose"),
            *("disclosed", "disclosing", "reveal", "revealed", "inform", "informed", "aware", "unaware"),
            *("attention", "discuss", "discussed", "confidential", "discreet", "discretion", "quiet"),
            *("quietly", "silently", "silent", "secretly", "know", "learn", "notice", "point", "bring"),
        )
    ),
    # Something kept out of what is shown ("keep the rest to yourself", "suppressed from the answer").
    "hide": frozenset(
        (
            *("hide", "hidden", "conceal", "concealed", "suppress", "suppressed", "omit", "omitted"),
            *("invisible", "unseen", "internal", "yourself", "alone", "privately", "regardless"),
        )
    ),
    # Authority claimed for an order ("mandatory compliance notice from the ... team").
    "authority": frozenset(
        (
            *("compliance", "mandatory", "official", "officially", "policy", "department", "team"),
            *("office", "bulletin", "directive", "regulatory", "regulation", "governance", "audit"),
            *("authorised", "authorized", "board", "legal", "security", "administrator", "admin"),
            *("operator", "vendor", "order", "notice", "memo", "requirement", "obligatory", "approved"),
        )
    ),
    # Another tool declared dead ("the official replacement for the deprecated X").
    "deprecated": frozenset(
        (
            *("deprecated", "obsolete", "retired", "sunset", "sunsetted", "eol", "legacy", "superseded"),
            *("replaced", "consolidated", "discontinued", "migrate", "migrated", "migration", "stale"),
            *("longer", "outdated", "removed", "unreliable", "broken"),
        )
    ),
    # Data moved ("pass it along", "attach", "append ... to the link", "copy ... on every mail").
    "move": frozenset(
        (
            *("send", "sends", "sent", "forward", "forwarded", "forwards", "pass", "passed", "include"),
            *("included", "attach", "attached", "append", "appended", "copy", "copied", "upload"),
            *("uploaded", "mirror", "mirrored", "relay", "transmit", "transmitted", "share", "shared"),
            *("post", "deliver", "delivered", "embed", "embedded", "paste", "supply", "populate"),
            *("carry", "put", "place", "placed", "provide", "enter", "filled", "fill", "add"),
        )
    ),
    # What the user or the session holds: the data an exfiltration wants.
    "context": frozenset(
        (
            *("conversation", "history", "messages", "message", "transcript", "prompt", "instructions"),
            *("dialogue", "session", "clipboard", "contacts", "files", "contents", "environment"),
            *("keychain", "inbox", "thread", "email", "address", "browsing", "private", "personal"),
        )
    ),
    # Another tool run for it ("first call the vault's get_secret", "look up ... in the password manager").
    "call": frozenset(
        (
            *("call", "calls", "calling", "invoke", "invoking", "run", "running", "execute", "use"),
            *("using", "retrieve", "read", "fetch", "look", "lookup", "query", "open", "obtain"),
        )
    ),
    # The user's say-so set aside ("no need to ask again", "confirmation prompts are redundant").
    "noask": frozenset(
        (
            *("confirm", "confirmation", "confirmations", "asking", "ask", "approval", "approve"),
            *("permission", "consent", "consented", "agreed", "authorisation", "authorization"),
            *("checking", "prompts", "redundant", "exempt", "standing"),
        )
    ),
    # Scope without end ("every call", "from now on", "whatever the user chose").
    "every": frozenset(
        (
            *("every", "each", "all", "always", "whenever", "regardless", "whatever", "future"),
            *("onward", "subsequent", "now", "automatically", "exception", "immediately"),
        )
    ),
    # The writer's own voice: a vendor speaking for itself ("our partner", "we route").
    "we": frozenset(("we", "our", "us", "ours")),
}
# Round 6: shapes of a sentence that no word list sees, read from the sentence itself. A URL whose query
# value is a slot to fill ("?d=", "?q={summary}", "&k=<key>", "?c=SUMMARY"), a markdown or HTML image, a
# template placeholder, an e-mail address, a home-directory or secret file path, another tool's name
# (snake_case), a parameter named in quotes.
_SHAPES: Final[tuple[tuple[str, re.Pattern[str]], ...]] = (
    ("url", re.compile(r"https?://", re.IGNORECASE)),
    (
        "url-slot",
        re.compile(r"[?&][\w.-]{1,30}=(?:[{<\[$%]|[A-Z_]{3,}\b|\.\.\.|[\s)\"']|$)"),
    ),
    ("image", re.compile(r"!\[[^\]\n]{0,80}\]\(|<img\b", re.IGNORECASE)),
    ("slot", re.compile(r"\{\{?\s?\w|<[a-z][a-z_ ]{2,40}>")),
    ("address", re.compile(r"\b[\w.+-]{1,64}@[\w-]{1,63}\.[a-z]{2,}", re.IGNORECASE)),
    ("path", re.compile(r"~/|/etc/|\.env\b|\.ssh\b|\.aws\b|\.netrc\b|\.kube\b")),
    ("tool-name", re.compile(r"\b[a-z][a-z0-9]{1,20}_[a-z0-9_]{2,40}\b")),
    ("quoted", re.compile(r"'[a-z_]{2,30}'|`[a-z_]{2,30}`|\"[a-z_]{2,30}\"")),
)
_SHAPE_PAIRS: Final = frozenset(("move", "context", "call", "secret", "user", "model", "you", "every"))
_TRIGGERS: Final = frozenset(
    (
        *_GROUPS["you"],
        *_GROUPS["model"],
        *("user", "user's", "users", "person", "human", "people"),
        *("must", "should", "shall", "required", "mandatory", "obliged", "need", "needs", "expected"),
        *("always", "never", "not", "don't", "avoid", "refrain", "please", "kindly", "note"),
        *("earlier", "prior", "already", "ahead", "advance", "instead", "replaces", "supersedes"),
        *("successor", "replacement", "conversation", "chat", "reply", "transcript", "secret", "secrets"),
        *("password", "passwords", "credential", "credentials"),
        # Round 6: secrecy, authority and succession words, and the user and "must" of the other
        # languages the rules read (a sentence in French or Spanish scored nothing before).
        *("mention", "mentioned", "unmentioned", "disclose", "reveal", "confidential", "discreet"),
        *("mandatory", "compliance", "deprecated", "obsolete", "superseded", "sunset", "retired"),
        *("usuario", "usuaria", "utilisateur", "utilisatrice", "nutzer", "benutzer", "utente"),
        *("utilizador", "usuário", "debe", "doit", "muss", "deve", "nicht", "nunca", "jamais"),
    )
)
"""A sentence is scored only if it holds one of these: a sentence that addresses no one, names no user,
neither obliges nor forbids anything, and speaks of no earlier state, replacement, conversation or secret is
not an order. (Generic words such as "tool", "any" or "nothing" are features, not triggers: nearly every
description holds them.)"""


# The gate before any sentence is split: a cheap word split of ASCII text (every ASCII character that is
# not a letter or digit read as a space, apostrophes too) and the triggers' parts before an apostrophe
# ("don't" -> "don"). A word _WORD finds in the triggers always leaves that part as a word here, so the
# gate never skips a text with a scorable sentence; it only lets a few more through to the full reading.
# (On bytes: bytes.translate with a 256-byte table is several times faster than str.translate.)
_SEPARATORS: Final = bytes(
    code if chr(code).isascii() and chr(code).isalnum() else ord(" ") for code in range(256)
)
_GATE: Final = frozenset(word.partition("'")[0].encode() for word in _TRIGGERS)


def _may_score(text: str) -> bool:
    """Whether a sentence of ``text`` may hold a trigger word (never ``False`` when one does)."""
    if text.isascii():
        split = text.lower().encode().translate(_SEPARATORS).split()
        return not _GATE.isdisjoint(split) or maybe_foreign(text, split)
    words = _WORD.findall(text.lower())
    if not _TRIGGERS.isdisjoint(words) or maybe_foreign(text, (), words):
        return True
    # Round 8: features() reads words without their diacritics ("ÀI" is "ai"), so the gate must too.
    return not _TRIGGERS.isdisjoint(fold(word) for word in words)


def sentences(text: str) -> Iterator[tuple[str, bool]]:
    """The sentences of ``text``, each with whether ``text`` has a markup sign (HTML comment, markdown
    note or heading) that the sentence's features should carry."""
    markup = "<!--" in text or "\n>" in text or text.startswith(">") or "**" in text or "\n#" in text
    markup = markup or text.startswith("#")
    for piece in _SENTENCE_BREAK.split(text):
        piece = piece.strip()
        if piece:
            yield piece, markup


def is_value_field(field: str) -> bool:
    """Whether ``field`` (a path such as ``inputSchema.properties.mode.enum[1]``) is a string inside a
    ``default``, ``const``, ``enum`` or ``examples`` value, rather than a description or a title."""
    if not field.endswith(("t", "]")):
        return False
    while field.endswith("]"):
        field = field[: field.rfind("[")]
    return field.endswith((".default", ".const", ".enum", ".examples"))


def _words(sentence: str) -> list[str]:
    """The words of a sentence, lower-cased: a run of Han or Kana as its character pairs, and in a
    sentence that is not ASCII every word without its diacritics (``usuário`` is ``usuario``)."""
    lowered = sentence.lower()
    if lowered.isascii():
        return _WORD.findall(lowered)[:_MAX_SENTENCE_WORDS]
    words: list[str] = []
    for word in _WORD.findall(lowered):
        if _UNSPACED_RUN.search(word):
            for piece in re.split(r"([\u3040-\u30ff\u3400-\u9fff]+)", word):
                if len(piece) > 1 and _UNSPACED_RUN.fullmatch(piece):
                    words += [piece[index : index + 2] for index in range(len(piece) - 1)]
                elif piece:
                    words.append(fold(piece))
        else:
            words.append(fold(word))
    return words[:_MAX_SENTENCE_WORDS]


_GRAM: Final = 4
_GRAM_MIN_WORD: Final = 5
"""Words shorter than this give no character n-grams: their unigram says all there is."""


@lru_cache(maxsize=8192)
def _word_grams(word: str) -> tuple[str, ...]:
    """The character 4-grams of one (folded, lower-cased) word with its two ends marked, as features:
    ``mention`` gives ``c:<men``, ``c:ment`` ... ``c:ion>``. Words repeat across a catalog, so they are
    cached."""
    padded = f"<{word}>"
    return tuple(f"c:{padded[index : index + _GRAM]}" for index in range(len(padded) - _GRAM + 1))


def features(
    sentence: str, markup: bool = False, value: bool = False, grams: bool = False
) -> list[str] | None:
    """The features of one sentence, or ``None`` when the sentence is not scored (too short, or no trigger
    word). Unigrams are ``u:word``, word pairs ``b:word word``, the first word ``f:word``, structural groups
    ``g:name`` and their pairs ``p:a+b``; since round 6 also who the first words address (``a:model``,
    ``a:user``), data-flow shapes (``s:url-slot``, ``s:image`` ...) and their pairs with what is asked
    (``q:image+move``), and ``k:value`` for a sentence inside a schema value (``value``): prose that
    addresses someone is rare in a ``default`` or an ``enum``, and full-schema poisoning puts it there.
    With ``grams`` (a model of :data:`FORMAT_GRAMS`), also the character 4-grams ``c:`` of every word of
    five letters or more."""
    words = _words(sentence)
    if len(words) < _MIN_WORDS:
        return None
    foreign: set[str] = set()
    if _TRIGGERS.isdisjoint(words):
        # Not an English trigger: a sentence in another language is scored when its words feed a trigger
        # group (a user, an obligation, something kept from someone ...), read from every lexicon.
        if is_english(words, sentence):
            return None
        foreign = foreign_groups(sentence, words)
        if foreign.isdisjoint(TRIGGER_GROUPS):
            return None
    elif not is_english(words, sentence):
        foreign = foreign_groups(sentence, words)
    found = [f"u:{word}" for word in words]
    found += [f"b:{first} {second}" for first, second in itertools.pairwise(words)]
    found.append(f"f:{words[0]}")
    present = set(words)
    # Round 12: the character 4-grams of every word of five letters or more. A weight learned for
    # "<ment" or "tion" reaches the inflected and compound forms nobody listed ("unmentioned",
    # "bildirmeyin", "systeeminstructies") and the words of a language no lexicon has; out of fold they
    # caught more of the eleven families than the words alone (docs/security.md, round 12).
    if grams:
        for word in dict.fromkeys(words):
            if len(word) >= _GRAM_MIN_WORD:
                found += _word_grams(word)
    groups = sorted(
        name for name, lexicon in _GROUPS.items() if name in foreign or not lexicon.isdisjoint(present)
    )
    if markup:
        groups.append("markup")
    found += [f"g:{name}" for name in groups]
    found += [f"p:{a}+{b}" for index, a in enumerate(groups) for b in groups[index + 1 :]]
    # Who is addressed: the model (or "you") named in the first words is the subject the sentence orders.
    lead = set(words[:4])
    lead_foreign = foreign_groups(" ".join(words[:4]), words[:4]) if foreign else set()
    if (
        not lead.isdisjoint(_GROUPS["model"])
        or not lead.isdisjoint(_GROUPS["you"])
        or "model" in lead_foreign
        or "you" in lead_foreign
    ):
        found.append("a:model")
    elif not lead.isdisjoint(_GROUPS["user"]) or "user" in lead_foreign:
        found.append("a:user")
    shapes = [name for name, pattern in _SHAPES if pattern.search(sentence)]
    found += [f"s:{name}" for name in shapes]
    # A shape with what is asked: an image or URL slot with a move of data, a tool name with a call.
    found += [f"q:{shape}+{group}" for shape in shapes for group in groups if group in _SHAPE_PAIRS]
    if value:
        found.append("k:value")
    return found


@dataclass(frozen=True, slots=True)
class Model:
    """Weights of the logistic model: ``score = sigmoid(bias + sum of the weights of a sentence's
    features)``; a sentence at or above ``threshold`` withholds its tool."""

    bias: float
    threshold: float
    weights: Mapping[str, float]
    grams: bool = False
    """Whether the model reads the character 4-grams (:data:`FORMAT_GRAMS`)."""

    def logit(self, found: Iterable[str]) -> float:
        """The log-odds of one sentence's features (each counted once)."""
        weights = self.weights
        return self.bias + sum(weights.get(feature, 0.0) for feature in set(found))


def parse(text: str) -> Model:
    """Read a model file's text (:data:`FORMAT`, then ``bias``, ``threshold`` and ``feature<TAB>weight``
    lines). A malformed file raises ``ValueError`` naming the line."""
    lines = text.splitlines()
    if not lines or lines[0] not in (FORMAT, FORMAT_GRAMS):
        raise ValueError(f"injection model: first line is not {FORMAT!r} or {FORMAT_GRAMS!r}")
    values: dict[str, float] = {}
    weights: dict[str, float] = {}
    for number, line in enumerate(lines[1:], start=2):
        name, tab, value = line.rpartition("\t")
        try:
            weight = float(value)
        except ValueError:
            weight = math.nan
        if not tab or not name or not math.isfinite(weight):
            raise ValueError(f"injection model: line {number} is not 'feature<TAB>number': {line[:60]!r}")
        if name in ("bias", "threshold"):
            values[name] = weight
        else:
            weights[name] = weight
    if set(values) != {"bias", "threshold"} or not 0.0 < values["threshold"] < 1.0:
        raise ValueError("injection model: needs 'bias' and a 'threshold' between 0 and 1")
    return Model(values["bias"], values["threshold"], weights, grams=lines[0] == FORMAT_GRAMS)


def dump(model: Model) -> bytes:
    """The model file's bytes: deterministic (sorted features, fixed precision, no gzip timestamp)."""
    header = FORMAT_GRAMS if model.grams else FORMAT
    lines = [header, f"bias\t{model.bias:.4f}", f"threshold\t{model.threshold:.4f}"]
    lines += [f"{feature}\t{weight:.4f}" for feature, weight in sorted(model.weights.items())]
    return gzip.compress(("\n".join(lines) + "\n").encode(), compresslevel=9, mtime=0)


@cache
def shipped() -> Model:
    """The model shipped with the package (read once)."""
    return parse(gzip.decompress(MODEL_FILE.read_bytes()).decode())


@dataclass(frozen=True, slots=True)
class Score:
    """The highest-scoring sentence of a text and why it scored."""

    probability: float
    sentence: str
    top: tuple[tuple[str, float], ...]
    """The features that added most to the score, with their weights, highest first."""


def _sigmoid(logit: float) -> float:
    if logit >= 0:
        return 1.0 / (1.0 + math.exp(-logit))
    odds = math.exp(logit)
    return odds / (1.0 + odds)


def best_sentence(text: str, model: Model | None = None, *, value: bool = False) -> Score | None:
    """The highest-scoring sentence of ``text`` (``None`` when no sentence is scored); ``value`` when the
    text is a string inside a schema value (:func:`is_value_field`)."""
    model = shipped() if model is None else model
    if not _may_score(text):
        return None  # no sentence of it can be scored: skip the split
    return _best_scored(text, model, value)


def _best_scored(text: str, model: Model, value: bool = False) -> Score | None:
    """:func:`best_sentence` of a text that passed the gate (:func:`_may_score`)."""
    best: tuple[float, str, list[str]] | None = None
    for sentence, markup in sentences(text):
        found = features(sentence, markup, value, model.grams)
        if found is None:
            continue
        logit = model.logit(found)
        if best is None or logit > best[0]:
            best = (logit, sentence, found)
    if best is None:
        return None
    logit, sentence, found = best
    weights = model.weights
    ranked = sorted(((weights[f], f) for f in set(found) if weights.get(f, 0.0) > 0), reverse=True)
    return Score(_sigmoid(logit), sentence, tuple((feature, weight) for weight, feature in ranked[:4]))


_GROUP_WORDS: Final = {
    "you": "second person",
    "model": "names the model",
    "user": "names the user",
    "tools": "names tools or servers",
    "other": "other/any/every",
    "secret": "names secrets",
    "oblige": "obligation",
    "negate": "negation",
    "polite": "note/please",
    "conversation": "the reply or chat",
    "instead": "a replacement",
    "prior": "before/already",
    "markup": "HTML comment or markdown note",
    "secrecy": "kept from someone",
    "hide": "hidden or internal",
    "authority": "claims authority",
    "deprecated": "something retired",
    "move": "moves data",
    "context": "the session's data",
    "call": "calls or reads",
    "noask": "consent or confirmation",
    "every": "every/always/now",
    "we": "the vendor's voice",
}


def describe_feature(feature: str) -> str:
    """A feature as a reviewer reads it: ``'do not'``, ``[names the user]``, ``[names the model +
    obligation]``."""
    kind, _, value = feature.partition(":")
    match kind:
        case "u" | "b":
            return repr(value)
        case "f":
            return f"starts with {value!r}"
        case "g":
            return f"[{_GROUP_WORDS.get(value, value)}]"
        case "p":
            a, _, b = value.partition("+")
            return f"[{_GROUP_WORDS.get(a, a)} + {_GROUP_WORDS.get(b, b)}]"
        case "a":
            return f"[addresses the {value} first]"
        case "s":
            return f"[shape: {value}]"
        case "q":
            shape, _, group = value.partition("+")
            return f"[shape: {shape} + {_GROUP_WORDS.get(group, group)}]"
        case "k":
            return "[in a default or enum value]"
        case "c":
            return f"{value!r} in a word"
        case _:
            return feature


LEARNED_SCORE: Final = "learned-score"
"""The rule id of the scorer's findings. Not one of the textual ``RULES``: its findings withhold a tool,
never block it, and never corroborate another rule's finding (:func:`mcp_troupe.policy.injection.grade`)."""

_SENTENCE_EXCERPT: Final = 100


_LOADING: Final = threading.Lock()


@cache
def _model_or_none() -> Model | None:
    """The shipped model, or ``None`` (logged once) if its file is missing or damaged: the textual rules
    still run, and a damaged install must not stop every catalog from being listed."""
    # One reading at a time: a scan that needs the model while preload()'s thread reads it waits for that
    # reading (then shipped() is cached) instead of doing it again.
    with _LOADING:
        try:
            return shipped()
        except (OSError, ValueError, EOFError, UnicodeDecodeError) as error:
            _LOG.warning("injection scan: the learned scorer is off, its model cannot be read (%s)", error)
            return None


_PRELOADING: Final = threading.Lock()
_preloader: list[threading.Thread] = []  # the one loader thread started (at most one a process)


def preload() -> None:
    """Read the shipped model now, on a daemon thread of its own, unless it is read or being read already.

    The registry calls it when it starts: the first scan that needs the model (in the first connect, on
    the registry's thread, issue 18) then finds it read while the server was being spawned. Troupes started
    at once share one loader thread: the model is read once a process.
    """
    with _PRELOADING:
        if _model_or_none.cache_info().currsize or any(thread.is_alive() for thread in _preloader):
            return
        thread = threading.Thread(target=_model_or_none, name="mcp-troupe-scorer-load", daemon=True)
        _preloader[:] = [thread]
        thread.start()


def learned_hits(readable: str, value: bool = False) -> list[_Hit]:
    """The scorer's hit on one normalised string of a tool definition: none, or one that names the score,
    the threshold, the features that weighed most and the sentence. ``value``: the string is inside a
    schema value (:func:`is_value_field`)."""
    if not _may_score(readable):
        return []  # no sentence of it can be scored: the model is not even read for it
    model = _model_or_none()
    if model is None:
        return []
    best = _best_scored(readable, model, value)
    if best is None or best.probability < model.threshold:
        return []
    top = ", ".join(f"{describe_feature(feature)} {weight:+.1f}" for feature, weight in best.top)
    sentence = _escape(best.sentence)
    if len(sentence) > _SENTENCE_EXCERPT:
        sentence = sentence[: _SENTENCE_EXCERPT - 1] + "…"
    excerpt = f"learned scorer {best.probability:.3f} >= {model.threshold:.3f} ({top}): {sentence}"
    return [(LEARNED_SCORE, False, excerpt, LOW)]
