"""Rank tools by what a need asks for: a field-weighted BM25 with word splitting, stemming and expansion.

Pure code: no threads, no clock. A :class:`ToolIndex` holds one :class:`ToolDocument` per tool, grouped by
server so that a server's new catalog (a reconnect, ``list_changed``) replaces that server's part alone
(:meth:`ToolIndex.replace_server`) without touching the rest.

How a tool is matched:

- **Words.** Names are split at every boundary people write words with (``getIssueComments``,
  ``get_issue``, ``get-issue``, ``github.get``, ``v2Api``), lower-cased and reduced by a light English stemmer
  (:func:`stem`: plurals, ``-ing``, ``-ed``, ``-ion``, a final ``e``), so "creating issues" meets
  ``create_issue``.
- **Fields.** The tool's own name counts most, then its title, the server's name, its description (the
  first sentence more than the rest), the parameter names and their descriptions (:data:`FIELD_WEIGHTS`).
  Scores are BM25F: term frequencies are normalised per field by that field's length, weighted, summed,
  then saturated once.
- **Expansion.** Each word of the need also brings in the words of its groups in the hand-built
  :mod:`~mcp_troupe.search.lexicon` at :data:`EXPANSION_WEIGHT` ("show" → get, read, fetch, view ...;
  "ticket" → issue, bug ...), and a few phrases are read as a whole ("pull request", "who am i").
- **Coverage.** A tool that matches more of the need's distinct concepts wins over one that repeats one
  of them: the sum is scaled by the share of concepts matched (:data:`COVERAGE_WEIGHT`).

:func:`bm25_rank` is the plain baseline (BM25 over name and description words, nothing else), kept for the
measurement in ``docs/tool-search.md``.
"""

from __future__ import annotations

import heapq
import logging
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, Final

from mcp_troupe.search.embedding import Embedder, TokenEmbedder
from mcp_troupe.search.intent import action_factor, need_actions, tool_action
from mcp_troupe.search.lexicon import GROUPS, PARTICLE_OBJECTS, PHRASES, STOPWORDS
from mcp_troupe.search.spelling import Vocabulary

__all__ = [
    "COVERAGE_WEIGHT",
    "EXPANSION_WEIGHT",
    "FIELD_WEIGHTS",
    "PlainBm25",
    "ToolDocument",
    "ToolIndex",
    "bm25_rank",
    "document_from_definition",
    "split_words",
    "stem",
    "terms",
]

FIELD_WEIGHTS: Final[dict[str, float]] = {
    "name": 4.0,
    "title": 2.5,
    "server": 3.0,
    "summary": 1.6,
    "description": 0.8,
    "parameters": 0.8,
    "parameter_descriptions": 0.3,
}
"""How much a word found in each field counts."""
# BM25F length normalisation per field (0: none, 1: full); names are short and even, descriptions are not.
_FIELD_B: Final[dict[str, float]] = {
    "name": 0.3,
    "title": 0.3,
    "server": 0.0,
    "summary": 0.5,
    "description": 0.75,
    "parameters": 0.5,
    "parameter_descriptions": 0.75,
}
K1: Final = 1.2
EXPANSION_WEIGHT: Final = 0.6
"""Weight of a word that the lexicon added, against 1.0 for a word of the need itself."""
COVERAGE_WEIGHT: Final = 1.0
NAME_COVERAGE_WEIGHT: Final = 1.0
"""How strongly the share of the need's concepts found in the tool's own name (or title) scales it."""
"""How strongly the share of the need's concepts a tool matches scales its score."""
TYPO_WEIGHT: Final = 0.8
"""Weight of an index term one edit from a word of the need that the index does not hold ("screnshot" →
``screenshot``; :mod:`~mcp_troupe.search.spelling`), against 1.0 for the word as typed."""
SERVER_MENTION_BOOST: Final = 1.3
"""Score factor for the tools of a server the need names ("in notion", "on trello")."""
SERVER_MENTION_SHARE: Final = 0.6
"""A word names a server when at least this share of the tools holding it are that server's."""
DENSE_WEIGHT: Final = 0.5
"""In a hybrid index whose model gives no word vectors, the share of the embedding model's similarity in a
tool's score (the rest lexical)."""
HYBRID_WEIGHTS: Final = (0.40, 0.35, 0.25)
"""With a model that gives word vectors (:class:`~mcp_troupe.search.embedding.TokenEmbedder`): the shares
of the lexical score, the text vectors' similarity and the word-by-word match. Tuned on the tuning needs
(docs/tool-search.md), in the middle of a plateau rather than at its best point."""
WORD_MATCH_POWER: Final = 4.0
"""The word-by-word match, scaled to its best, is raised to this power: it lifts the few tools whose words
are all near the need's and says little about the rest."""
FUSION_DEPTH: Final = 50
"""How many of the best tools of each ranking a hybrid index mixes."""
_EMBEDDED_CHARS: Final = 300
INLINE_EMBEDDING: Final = 64
"""With the model ready, at most this many new tools are embedded in the searching thread; more (a large
server's catalog) go to the background, and the ranking is lexical until they are done."""
# Descriptions can be long (whole manuals); words past this many count no more.
_MAX_FIELD_WORDS: Final = 400

_log = logging.getLogger(__name__)

_CAMEL = re.compile(
    r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])"
)
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s|\n")
_VOWEL = re.compile(r"[aeiouy]")


def split_words(text: str) -> list[str]:
    """``text`` in lower-case words, cut at spaces, punctuation, ``_``, ``-``, ``.``, camelCase, digits."""
    words: list[str] = []
    for chunk in _NON_WORD.split(text):
        if chunk:
            words.extend(part.lower() for part in _CAMEL.split(chunk) if part)
    return words


def stem(word: str) -> str:
    """A light English stem: ``issues``/``issue`` → ``issu``, ``creating``/``creation`` → ``creat``."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith("sses") or word.endswith(("xes", "ches", "shes", "zes")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and _VOWEL.search(word[: -len(suffix)]):
            word = word[: -len(suffix)]
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]  # running → run, stopped → stop
            break
    if word.endswith("ly") and len(word) > 5:
        word = word[:-2]  # recently → recent
    if word.endswith(("tion", "sion")) and len(word) > 6:  # not "notion" → "not", "action" → "act"
        word = word[:-3]
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def terms(text: str) -> list[str]:
    """The index terms of ``text``: split, stop words dropped, stemmed."""
    return [stem(word) for word in split_words(text) if word not in STOPWORDS and len(word) > 1]


def _build_synonyms() -> dict[str, frozenset[str]]:
    table: dict[str, set[str]] = {}
    for group in GROUPS:
        stems = {stem(word) for word in group}
        for word in stems:
            table.setdefault(word, set()).update(stems)
    return {word: frozenset(others - {word}) for word, others in table.items()}


_SYNONYMS: Final = _build_synonyms()
_PHRASES: Final = sorted(PHRASES.items(), key=lambda item: -len(item[0]))
_TWO_WORD_PHRASES: Final = frozenset(phrase for phrase in PHRASES if phrase.count(" ") == 1)


@dataclass(frozen=True, slots=True)
class ToolDocument:
    """What the index reads of one tool: its key (the name the model calls) and its words by field."""

    key: str
    server: str
    name: str
    title: str = ""
    description: str = ""
    parameters: tuple[tuple[str, str], ...] = ()


def document_from_definition(
    key: str, server: str, name: str, description: str, input_schema: Mapping[str, Any], title: str = ""
) -> ToolDocument:
    """A :class:`ToolDocument` from a tool's definition (top-level parameters and their descriptions)."""
    parameters: list[tuple[str, str]] = []
    properties = input_schema.get("properties") if isinstance(input_schema, Mapping) else None
    if isinstance(properties, Mapping):
        for param, schema in list(properties.items())[:100]:
            text = schema.get("description", "") if isinstance(schema, Mapping) else ""
            parameters.append((str(param), text if isinstance(text, str) else ""))
    return ToolDocument(
        key=key,
        server=server,
        name=name,
        title=title or "",
        description=description or "",
        parameters=tuple(parameters),
    )


def _fields(document: ToolDocument) -> dict[str, list[str]]:
    description = document.description[:4000]
    parts = _SENTENCE_END.split(description.strip(), maxsplit=1)
    summary = parts[0] if parts else ""
    rest = parts[1] if len(parts) > 1 else ""
    return {
        "name": terms(document.name),
        "title": terms(document.title),
        "server": terms(document.server),
        "summary": terms(summary)[:_MAX_FIELD_WORDS],
        "description": terms(rest)[:_MAX_FIELD_WORDS],
        "parameters": [term for param, _ in document.parameters for term in terms(param)],
        "parameter_descriptions": [term for _, text in document.parameters for term in terms(text)][
            :_MAX_FIELD_WORDS
        ],
    }


_FIELD_NAMES: Final = tuple(FIELD_WEIGHTS)
_FIELD_WEIGHT_LIST: Final = tuple(FIELD_WEIGHTS[name] for name in _FIELD_NAMES)
_FIELD_B_LIST: Final = tuple(_FIELD_B[name] for name in _FIELD_NAMES)
# How far (as a share) an average field length may move before the postings are recomputed.
_DRIFT: Final = 0.1


@dataclass(slots=True)
class _Entry:
    document: ToolDocument
    lengths: tuple[int, ...]
    counts: dict[str, tuple[int, ...]]
    # What the tool's name says it does (see mcp_troupe.search.intent), and the verb that says so.
    action: str | None = None
    verb: str | None = None


# What background work hands back: the model, the documents it embedded, their rows (in that order) and,
# for a model with word vectors, each document's token ids.
_Embedded = tuple[Embedder | None, tuple[ToolDocument, ...], Any, list[Any] | None]
Background = Callable[[Callable[[], _Embedded]], "Future[_Embedded]"]
"""Runs the model's loading and embedding elsewhere (:func:`mcp_troupe.search.background.run_in_thread`)."""


def _embed_elsewhere(
    embedder: Embedder | None,
    loader: Callable[[], Embedder | None] | None,
    documents: tuple[ToolDocument, ...],
) -> _Embedded:
    """Background work: load the model if need be, then embed ``documents`` (reads nothing else)."""
    if embedder is None and loader is not None:
        embedder = loader()
    if embedder is None or not documents:
        return embedder, (), None, None
    texts = [_embedding_text(document) for document in documents]
    tokens = embedder.token_ids(texts) if isinstance(embedder, TokenEmbedder) else None
    return embedder, documents, embedder.embed(texts), tokens


@dataclass(slots=True)
class _Query:
    # term → weight; concept index of each term (a word of the need and its expansions share one).
    weights: dict[str, float] = field(default_factory=dict)
    concepts: dict[str, set[int]] = field(default_factory=dict)
    concept_count: int = 0


def parse_query(query: str) -> _Query:
    """The weighted terms of a need, grouped into concepts (one per word of the need or phrase)."""
    parsed = _Query()
    words = split_words(query)
    # A separated phrasal verb ("bring it back", "turn them off") is read as the phrase ("bring back").
    words = [
        word
        for position, word in enumerate(words)
        if not (
            word in PARTICLE_OBJECTS
            and 0 < position < len(words) - 1
            and f"{words[position - 1]} {words[position + 1]}" in _TWO_WORD_PHRASES
        )
    ]
    padded = f" {' '.join(words)} "

    def add(term: str, weight: float, concept: int) -> None:
        if weight > parsed.weights.get(term, 0.0):
            parsed.weights[term] = weight
        parsed.concepts.setdefault(term, set()).add(concept)

    for phrase, meaning in _PHRASES:
        if f" {phrase} " in padded and not meaning:
            padded = padded.replace(f" {phrase} ", " ")  # filler ("right now"): says nothing of the tool
        elif f" {phrase} " in padded:
            concept = parsed.concept_count
            parsed.concept_count += 1
            for word in meaning:
                add(stem(word), 0.8, concept)
            padded = padded.replace(f" {phrase} ", " ")
    for term in dict.fromkeys(terms(padded)):
        # A word that a previous word of the need already brought in ("add a new", "find and search") is
        # the same concept said twice: it strengthens that concept instead of counting twice.
        earlier = [c for c in parsed.concepts.get(term, ()) if parsed.weights.get(term, 0.0) < 1.0]
        if earlier:
            parsed.weights[term] = 1.0
            continue
        concept = parsed.concept_count
        parsed.concept_count += 1
        add(term, 1.0, concept)
        for synonym in _SYNONYMS.get(term, ()):
            add(synonym, EXPANSION_WEIGHT, concept)
    return parsed


class ToolIndex:
    """An inverted index over tools, updated one server at a time.

    Each posting holds the tool's length-normalised, field-weighted term frequency (BM25F's pseudo
    frequency), computed against the average field lengths of the moment. Those averages move as servers
    come and go; when any has moved by more than :data:`_DRIFT` since the postings were computed, the next
    search recomputes them all (linear in the index, and rare), so a search is one pass over the postings
    of the need's words.
    """

    def __init__(
        self,
        embedder: Embedder | None = None,
        *,
        load_embedder: Callable[[], Embedder | None] | None = None,
        background: Background | None = None,
    ) -> None:
        """An empty index; with ``embedder`` (or ``load_embedder``, called at the first search) it is hybrid.

        A hybrid index embeds each tool once, when a search first needs it (or :meth:`warm_up` asks), so
        an index that is never searched costs nothing more than a lexical one. With ``background``, the
        model's loading and any embedding of more than :data:`INLINE_EMBEDDING` tools run there, and
        searches rank by words alone until that work is done (:attr:`is_hybrid` says when it is); without
        it they run in the searching thread.
        """
        self._embedder = embedder
        self._load_embedder = load_embedder
        self._background = background
        self._job: Future[_Embedded] | None = None
        self._vectors: dict[str, Any] = {}
        # Per tool, the ids of its embedded text's words, and per word id the number of tools holding it.
        self._token_ids: dict[str, Any] = {}
        self._token_df: dict[int, int] = {}
        self._unembedded: set[str] = set()
        self._matrix: tuple[list[str], Any] | None = None
        self._rows: dict[str, int] = {}
        self._entries: dict[str, _Entry] = {}
        self._by_server: dict[str, list[str]] = {}
        self._postings: dict[str, dict[str, float]] = {}
        # Term → the tools whose own name (or title) holds it: matches there say most about what a tool does.
        self._in_name: dict[str, set[str]] = {}
        # Term → the servers whose name holds it ("notion", "github", "jira"): a need that names a server
        # (or product) wants that server's tools.
        self._server_terms: dict[str, set[str]] = {}
        # Every term with the number of tools holding it, for correcting a need's typos.
        self._vocabulary = Vocabulary()
        self._total_lengths = [0] * len(_FIELD_NAMES)
        self._averages: list[float] = [1.0] * len(_FIELD_NAMES)

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def is_hybrid(self) -> bool:
        """Whether searches mix in the embedding model now: it is loaded and every tool has its vector."""
        return self._embedder is not None and not self._unembedded and self._job is None

    def warm_up(self) -> None:
        """Start (in the background, when the index has one) what a hybrid search will need: the model's
        loading and the vectors of new tools. Without a background this waits for the first search."""
        if self._background is not None:
            self._dense_embedder()

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def replace_server(self, server: str, documents: Iterable[ToolDocument]) -> None:
        """Make ``documents`` the whole of ``server``'s part of the index (empty: remove the server)."""
        for key in self._by_server.pop(server, ()):
            self._remove(key)
        keys = []
        for document in documents:
            if document.key in self._entries:
                self._remove(document.key)
            self._add(document)
            keys.append(document.key)
        if keys:
            self._by_server[server] = keys
        for term in set(terms(server)):
            holders = self._server_terms.setdefault(term, set())
            if keys:
                holders.add(server)
            else:
                holders.discard(server)
                if not holders:
                    del self._server_terms[term]
        self._refresh()

    def update_server(
        self, server: str, documents: Iterable[ToolDocument], removed: Iterable[str] = ()
    ) -> None:
        """Add (or replace) ``documents`` in ``server``'s part of the index and drop its keys in ``removed``;
        the rest of its part stands. For a catalog published a slice at a time (the registry's big-catalog
        judging), where :meth:`replace_server` would redo the whole part per slice."""
        keys = self._by_server.get(server, [])
        gone = set(removed)
        for key in gone:
            if key in self._entries and self._entries[key].document.server == server:
                self._remove(key)
        added = []
        for document in documents:
            if document.key in self._entries:
                self._remove(document.key)
            self._add(document)
            added.append(document.key)
        gone.update(added)
        kept = [key for key in keys if key not in gone] + added
        if kept:
            self._by_server[server] = kept
        else:
            self._by_server.pop(server, None)
        self._refresh()

    def _pseudo(self, entry: _Entry, counts: tuple[int, ...]) -> float:
        pseudo = 0.0
        for index, count in enumerate(counts):
            if count:
                b = _FIELD_B_LIST[index]
                norm = 1.0 - b + b * entry.lengths[index] / self._averages[index]
                pseudo += _FIELD_WEIGHT_LIST[index] * count / norm
        return pseudo

    def _add(self, document: ToolDocument) -> None:
        fields = _fields(document)
        counts: dict[str, list[int]] = {}
        for index, name in enumerate(_FIELD_NAMES):
            for term in fields[name]:
                counts.setdefault(term, [0] * len(_FIELD_NAMES))[index] += 1
        lengths = tuple(len(fields[name]) for name in _FIELD_NAMES)
        action, verb = tool_action(split_words(document.name), skip=split_words(document.server))
        entry = _Entry(
            document, lengths, {term: tuple(values) for term, values in counts.items()}, action, verb
        )
        self._entries[document.key] = entry
        if self._embedder is not None or self._load_embedder is not None:
            self._unembedded.add(document.key)
            self._matrix = None
        for index, length in enumerate(lengths):
            self._total_lengths[index] += length
        if len(self._entries) == 1:
            self._averages = self._current_averages()
        for term, values in entry.counts.items():
            self._vocabulary.add(term)
            self._postings.setdefault(term, {})[document.key] = self._pseudo(entry, values)
            if values[0] or values[1]:
                self._in_name.setdefault(term, set()).add(document.key)

    def _remove(self, key: str) -> None:
        entry = self._entries.pop(key, None)
        if entry is None:
            return
        self._unembedded.discard(key)
        if self._vectors.pop(key, None) is not None:
            self._matrix = None
        self._forget_tokens(key)
        for term in entry.counts:
            self._vocabulary.discard(term)
            postings = self._postings.get(term)
            if postings is not None:
                postings.pop(key, None)
                if not postings:
                    del self._postings[term]
            named = self._in_name.get(term)
            if named is not None:
                named.discard(key)
                if not named:
                    del self._in_name[term]
        for index, length in enumerate(entry.lengths):
            self._total_lengths[index] -= length

    def _add_corrections(self, parsed: _Query) -> None:
        """Give each word of the need that no tool holds the terms one typo from it, in its concept, at
        :data:`TYPO_WEIGHT` (their lexicon groups lower still): "screnshot" finds ``take_screenshot``."""
        for term, weight in list(parsed.weights.items()):
            if weight < 1.0 or term in self._postings:
                continue
            concepts = parsed.concepts[term]
            for correction in self._vocabulary.corrections(term):
                expansions = [(correction, TYPO_WEIGHT)] + [
                    (synonym, TYPO_WEIGHT * EXPANSION_WEIGHT) for synonym in _SYNONYMS.get(correction, ())
                ]
                for word, value in expansions:
                    if value > parsed.weights.get(word, 0.0):
                        parsed.weights[word] = value
                    parsed.concepts.setdefault(word, set()).update(concepts)

    def _current_averages(self) -> list[float]:
        total = max(len(self._entries), 1)
        return [max(length / total, 1.0) for length in self._total_lengths]

    def _refresh(self) -> None:
        """Recompute every posting when the average field lengths have drifted too far."""
        current = self._current_averages()
        if all(abs(now - then) <= _DRIFT * then for now, then in zip(current, self._averages, strict=True)):
            return
        self._averages = current
        for key, entry in self._entries.items():
            for term, values in entry.counts.items():
                self._postings[term][key] = self._pseudo(entry, values)

    def search(
        self, query: str, limit: int = 5, *, allowed: Callable[[str], bool] | None = None
    ) -> list[tuple[str, float]]:
        """The ``limit`` best ``(key, score)`` pairs for ``query``, best first; ``allowed`` filters keys."""
        if limit <= 0 or not self._entries:
            return []
        parsed = parse_query(query)
        self._add_corrections(parsed)
        total = len(self._entries)
        # Per concept, each tool's best contribution: a concept counts once, by its best-matching word, so
        # a tool matching many weak synonyms of one word does not outscore a tool matching the word itself.
        by_concept: list[dict[str, float]] = [{} for _ in range(parsed.concept_count)]
        named: list[set[str]] = [set() for _ in range(parsed.concept_count)]
        for term, query_weight in parsed.weights.items():
            postings = self._postings.get(term)
            if not postings:
                continue
            df = len(postings)
            factor = query_weight * math.log(1.0 + (total - df + 0.5) / (df + 0.5))
            in_name = self._in_name.get(term, set())
            for concept in parsed.concepts[term]:
                named[concept].update(in_name)
                best = by_concept[concept]
                for key, pseudo in postings.items():
                    value = factor * pseudo / (K1 + pseudo)
                    if value > best.get(key, 0.0):
                        best[key] = value
        scores: dict[str, float] = {}
        matched: dict[str, int] = {}
        for best in by_concept:
            for key, value in best.items():
                scores[key] = scores.get(key, 0.0) + value
                matched[key] = matched.get(key, 0) + 1
        needed, need_verb = need_actions(split_words(query))
        if parsed.concept_count:
            name_matched: dict[str, int] = {}
            for keys in named:
                for key in keys:
                    name_matched[key] = name_matched.get(key, 0) + 1
            mentioned = self._mentioned_servers(parsed)
            for key in scores:
                share = matched[key] / parsed.concept_count
                name_share = name_matched.get(key, 0) / parsed.concept_count
                scores[key] *= 1.0 + COVERAGE_WEIGHT * share + NAME_COVERAGE_WEIGHT * name_share
                entry = self._entries[key]
                if needed:
                    scores[key] *= action_factor(needed, need_verb, entry.action, entry.verb)
                if entry.document.server in mentioned:
                    scores[key] *= SERVER_MENTION_BOOST
        dense = self._dense_scores(
            query, [key for key, _ in heapq.nlargest(FUSION_DEPTH, scores.items(), key=_score_of)]
        )
        if dense is not None:
            model = self._embedder
            assert model is not None  # a dense score means the model is ready
            scores = _fuse(scores, dense, lambda keys: self._word_scores(model, query, keys))
            for key in scores:
                entry = self._entries[key]
                if needed:
                    scores[key] *= action_factor(needed, need_verb, entry.action, entry.verb)
        candidates = scores.items()
        if allowed is not None:
            candidates = [(key, score) for key, score in candidates if allowed(key)]  # type: ignore[assignment]
        return sorted(
            heapq.nlargest(limit * 2, candidates, key=_score_of), key=lambda item: (-item[1], item[0])
        )[:limit]

    def _dense_scores(self, query: str, also: Iterable[str] = ()) -> dict[str, float] | None:
        """The :data:`FUSION_DEPTH` tools nearest to ``query`` under the embedding model, with their cosine
        and those of ``also`` (``None``: the index is lexical)."""
        embedder = self._dense_embedder()
        if embedder is None or not self._entries:
            return None
        if self._matrix is None:
            import numpy  # the embedding extra brings it; a lexical index never gets here

            keys = list(self._vectors)
            # float32: the bundled table is float16, whose products numpy computes an order slower.
            matrix = numpy.vstack([self._vectors[key] for key in keys]).astype(numpy.float32)
            # A tool with no word the model knows gets a zero (or NaN) row: it is then near nothing.
            matrix = numpy.nan_to_num(matrix, nan=0.0, posinf=0.0, neginf=0.0)
            self._matrix = (keys, matrix)
            self._rows = {key: row for row, key in enumerate(keys)}
        keys, matrix = self._matrix
        import numpy

        # einsum's own loop, not BLAS: on a shared machine a threaded BLAS matvec over a few thousand rows
        # waits on its threads and takes twenty times as long.
        vector = numpy_vector(embedder.embed([query])[0])
        if not numpy.isfinite(vector).all() or not vector.any():
            return {}  # a need with no word the model knows ("", "   "): the words alone decide
        similarities = numpy.einsum("ij,j->i", matrix, vector)
        depth = min(FUSION_DEPTH, len(keys))
        best = similarities.argpartition(-depth)[-depth:] if depth < len(keys) else range(len(keys))
        found = {keys[row]: float(similarities[row]) for row in best}
        rows = self._rows
        for key in also:  # the lexical ranking's best, to be mixed with their own similarity
            row = rows.get(key)
            if row is not None and key not in found:
                found[key] = float(similarities[row])
        return found

    def _dense_embedder(self) -> Embedder | None:
        """The model, once it is loaded and every tool has its vector; ``None`` while it is not (the
        ranking is then lexical). Starts, or picks up the result of, the background work that gets there."""
        job = self._job
        if job is not None:
            if not job.done():
                return None
            self._job = None
            try:
                embedder, documents, rows, tokens = job.result()
            except Exception as error:  # "embeddings: on" with a broken install: say so once, stay lexical
                self._give_up(error)
                return None
            if embedder is None:  # "auto" and the package is not installed
                self._give_up(None)
                return None
            self._embedder, self._load_embedder = embedder, None
            self._store_vectors(documents, rows, tokens)
        embedder = self._embedder
        if embedder is None and self._load_embedder is None:
            return None
        if not self._unembedded:
            return embedder
        documents = tuple(self._entries[key].document for key in sorted(self._unembedded))
        if self._background is not None and (embedder is None or len(documents) > INLINE_EMBEDDING):
            loader = self._load_embedder if embedder is None else None
            self._job = self._background(lambda: _embed_elsewhere(embedder, loader, documents))
            return None
        try:
            embedder, documents, rows, tokens = _embed_elsewhere(embedder, self._load_embedder, documents)
        except Exception as error:
            self._give_up(error)
            return None
        if embedder is None:
            self._give_up(None)
            return None
        self._embedder, self._load_embedder = embedder, None
        self._store_vectors(documents, rows, tokens)
        return embedder

    def _give_up(self, error: Exception | None) -> None:
        """The model cannot be had: the index is lexical from now on (an error is logged once)."""
        if error is not None:
            _log.error("tool search stays lexical: %s", error)
        self._embedder = self._load_embedder = None
        self._unembedded.clear()
        self._vectors.clear()
        self._token_ids.clear()
        self._token_df.clear()
        self._matrix = None

    def _store_vectors(
        self, documents: Sequence[ToolDocument], rows: Any, tokens: Sequence[Any] | None
    ) -> None:
        """Keep the vectors of ``documents`` that still describe an indexed tool: one that changed or
        went away while it was being embedded elsewhere stays (or is no longer) to be embedded."""
        if rows is None:
            return
        for position, (document, row) in enumerate(zip(documents, rows, strict=True)):
            entry = self._entries.get(document.key)
            if entry is not None and document.key in self._unembedded and entry.document == document:
                self._vectors[document.key] = row
                self._unembedded.discard(document.key)
                self._matrix = None
                if tokens is not None:
                    self._forget_tokens(document.key)
                    ids = tokens[position]
                    self._token_ids[document.key] = ids
                    for token in ids.tolist():
                        self._token_df[token] = self._token_df.get(token, 0) + 1

    def _forget_tokens(self, key: str) -> None:
        ids = self._token_ids.pop(key, None)
        if ids is None:
            return
        for token in ids.tolist():
            left = self._token_df.get(token, 0) - 1
            if left > 0:
                self._token_df[token] = left
            else:
                self._token_df.pop(token, None)

    def _word_scores(self, embedder: Embedder, query: str, keys: Iterable[str]) -> dict[str, float] | None:
        """Word by word: per word of the need, its nearest word in each of ``keys``'s embedded text (the
        cosine of their vectors), averaged with the need's words weighted by rarity (an idf over tools).
        ``None`` when the model has no word vectors."""
        if not isinstance(embedder, TokenEmbedder) or not self._token_ids:
            return None
        import numpy

        query_ids = embedder.token_ids([query])[0]
        if not len(query_ids):
            return {}
        total = len(self._token_ids)
        frequencies = numpy.asarray([self._token_df.get(token, 0) for token in query_ids.tolist()])
        weights = numpy.log1p((total - frequencies + 0.5) / (frequencies + 0.5))
        weights = weights / weights.sum()
        chosen = [(key, ids) for key in keys if len(ids := self._token_ids.get(key, ())) > 0]
        if not chosen:
            return {}
        starts = numpy.cumsum([0] + [len(ids) for _, ids in chosen[:-1]])
        tool_vectors = embedder.token_vectors(numpy.concatenate([ids for _, ids in chosen]))
        # einsum's own loop, not BLAS (see _dense_scores): a few thousand word pairs at most.
        cosines = numpy.einsum("ij,kj->ik", embedder.token_vectors(query_ids), tool_vectors)
        nearest = numpy.maximum.reduceat(cosines, starts, axis=1)
        scores = weights @ nearest
        return {key: float(score) for (key, _), score in zip(chosen, scores, strict=True)}

    def _mentioned_servers(self, parsed: _Query) -> set[str]:
        """The servers the need names: a word of the need (not an expansion) that is mostly the name.

        "run" is a word of ``google-cloud-cloud-run`` but also of hundreds of other tools, so it names no
        server; "notion" or "trello" is found almost only in those servers' tools.
        """
        mentioned: set[str] = set()
        for term, weight in parsed.weights.items():
            if weight < 1.0:
                continue
            servers = self._server_terms.get(term)
            if not servers:
                continue
            df = len(self._postings.get(term, ()))
            own = sum(len(self._by_server.get(server, ())) for server in servers)
            if df and own / df >= SERVER_MENTION_SHARE:
                mentioned.update(servers)
        return mentioned

    def document(self, key: str) -> ToolDocument | None:
        """The document indexed under ``key``."""
        entry = self._entries.get(key)
        return entry.document if entry is not None else None


def numpy_vector(row: Any) -> Any:
    """``row`` as a float32 numpy vector (the model's rows may be float16)."""
    import numpy

    return numpy.asarray(row, dtype=numpy.float32)


def _embedding_text(document: ToolDocument) -> str:
    """What the embedding model reads of a tool: its name and server in words, title, first line."""
    first_line = document.description.strip().split("\n", 1)[0][:_EMBEDDED_CHARS]
    parts = [" ".join(split_words(document.name)), " ".join(split_words(document.server))]
    return ". ".join(part for part in (*parts, document.title, first_line) if part)


def _fuse(
    lexical: Mapping[str, float],
    dense: Mapping[str, float],
    word_scores: Callable[[Iterable[str]], Mapping[str, float] | None] = lambda _keys: None,
) -> dict[str, float]:
    """Lexical and embedding scores, each scaled to its best, mixed by :data:`HYBRID_WEIGHTS` (with the
    word-by-word match that ``word_scores`` gives for the candidates) or, without it, :data:`DENSE_WEIGHT`.

    Only the best :data:`FUSION_DEPTH` of each ranking take part: past those neither has an opinion.
    """
    top_lexical = heapq.nlargest(FUSION_DEPTH, lexical.items(), key=_score_of)
    top_dense = heapq.nlargest(FUSION_DEPTH, dense.items(), key=_score_of)
    lexical_best = top_lexical[0][1] if top_lexical and top_lexical[0][1] > 0 else 1.0
    dense_best = top_dense[0][1] if top_dense and top_dense[0][1] > 0 else 1.0
    candidates = sorted({key for key, _ in top_lexical} | {key for key, _ in top_dense})
    words = word_scores(candidates)
    if words is None:
        lexical_weight, dense_weight, word_weight = 1.0 - DENSE_WEIGHT, DENSE_WEIGHT, 0.0
        words = {}
    else:
        lexical_weight, dense_weight, word_weight = HYBRID_WEIGHTS
    word_best = max((value for value in words.values() if value > 0), default=1.0)
    fused: dict[str, float] = {}
    for key in candidates:
        lexical_part = lexical.get(key, 0.0) / lexical_best
        dense_part = max(dense.get(key, 0.0), 0.0) / dense_best  # past the best of its ranking: no opinion
        word_part = (max(words.get(key, 0.0), 0.0) / word_best) ** WORD_MATCH_POWER
        score = lexical_weight * lexical_part + dense_weight * dense_part + word_weight * word_part
        if score > 0.0:  # a tool neither ranking finds anything in is not a result
            fused[key] = score
    return fused


def _score_of(item: tuple[str, float]) -> float:
    return item[1]


def _plain_words(text: str) -> list[str]:
    return [word for word in _NON_WORD.split(text.lower()) if word]


class PlainBm25:
    """Plain BM25 (k1 1.2, b 0.75) over each tool's name and description words: the baseline.

    No splitting of identifiers, no stemming, no expansion, one field: what a search over tool definitions
    gets with nothing added, kept so that ``docs/tool-search.md`` can measure what the ranking adds.
    """

    def __init__(self, documents: Iterable[ToolDocument]) -> None:
        self._keys: list[str] = []
        self._counts: list[dict[str, int]] = []
        self._lengths: list[int] = []
        self._frequencies: dict[str, int] = {}
        for doc in documents:
            words = _plain_words(f"{doc.name} {doc.description}")
            counts: dict[str, int] = {}
            for word in words:
                counts[word] = counts.get(word, 0) + 1
            for word in counts:
                self._frequencies[word] = self._frequencies.get(word, 0) + 1
            self._keys.append(doc.key)
            self._counts.append(counts)
            self._lengths.append(len(words))
        self._average = sum(self._lengths) / max(len(self._keys), 1)

    def rank(self, query: str, limit: int = 5) -> list[str]:
        """The keys of the ``limit`` best tools for ``query``, best first (ties by key)."""
        total = len(self._keys)
        query_words = set(_plain_words(query))
        idf = {
            word: math.log(1.0 + (total - df + 0.5) / (df + 0.5))
            for word in query_words
            if (df := self._frequencies.get(word, 0))
        }
        scores = []
        for key, counts, length in zip(self._keys, self._counts, self._lengths, strict=True):
            score = 0.0
            norm = K1 * (0.25 + 0.75 * length / max(self._average, 1.0))
            for word, weight in idf.items():
                count = counts.get(word, 0)
                if count:
                    score += weight * count * (K1 + 1) / (count + norm)
            if score > 0:
                scores.append((score, key))
        scores.sort(key=lambda item: (-item[0], item[1]))
        return [key for _, key in scores[:limit]]


def bm25_rank(documents: Iterable[ToolDocument], query: str, limit: int = 5) -> list[str]:
    """:class:`PlainBm25` built for one query (build the class once to rank many)."""
    return PlainBm25(documents).rank(query, limit)
