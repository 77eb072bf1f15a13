"""What a need asks to *do*, against what a tool *does*: the action verbs of both, for the ranking.

Words alone mix up the tools of one object: "which teams exist in linear" shares "team" with
``getTeams``, ``createTeam``, ``archiveTeam`` and ``removeUserFromTeam`` alike, and a question asks to read,
never to change. Tool names say their action in a verb (``get_issue``, ``linear_createIssue``,
``API-post-page``, ``bb_delete``); users say theirs in the first word of a request ("archive the old
list") or ask a question ("what", "which", "is there", "how many"). :func:`need_actions` reads the
request's action, :func:`tool_action` the tool's, and :func:`action_factor` scales the tool's score:
up when they agree, down when they conflict (a question against a tool that changes something, "add"
against "remove").

Pure code; the vocabulary is general English for software actions, not fitted to any server.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

__all__ = [
    "ACTION_BOOST",
    "CONFLICT_FACTOR",
    "OPPOSITE_FACTOR",
    "READ",
    "action_factor",
    "need_actions",
    "tool_action",
]

READ: Final = "read"
"""The action of a tool or need that only looks: get, list, search, show, count, check."""

# Each verb as written in tool names and requests (lower case, unstemmed) → its action. An action other
# than READ changes something. One verb, one action: the finer shades are left to the word match.
_ACTIONS: Final[dict[str, tuple[str, ...]]] = {
    READ: (
        "get",
        "gets",
        "read",
        "fetch",
        "retrieve",
        "show",
        "view",
        "see",
        "display",
        "list",
        "lists",
        "search",
        "find",
        "query",
        "lookup",
        "look",
        "describe",
        "inspect",
        "browse",
        "count",
        "check",
        "explain",
        "analyze",
        "analyse",
        "tell",
        "which",
        "what",
        "who",
        "whose",
        "where",
        "when",
        "how",
        "is",
        "are",
        "was",
        "were",
        "does",
        "did",
        "has",
        "have",
        "any",
        "all",
        "one",
        "stats",
        "status",
        "download",
        "export",
        "preview",
        "info",
        "details",
        "detail",
        "discover",
        "whoami",
        "compare",
        "diff",
        "summarize",
        "summarise",
        "load",
        "estimate",
        "validate",
        "verify",
        "lint",
        "audit",
        "scan",
        "by",
        "grep",
        "locate",
        "measure",
        "calculate",
        "fetchs",
        "dump",
    ),
    "create": (
        "create",
        "add",
        "new",
        "insert",
        "make",
        "post",
        "generate",
        "register",
        "compose",
        "draft",
        "write",
        "build",
        "append",
        "upload",
        "attach",
        "invite",
        "book",
        "schedule",
        "file",
        "submit",
        "put",
        "log",
        "record",
        "spin",
        "provision",
        "save",
        "store",
        "import",
        "enqueue",
        "leave",
        "jot",
        "note",
        "enroll",
        "subscribe",
        "star",
        "follow",
        "tag",
        "label",
        "fork",
        "clone",
        "copy",
        "duplicate",
        "init",
        "initialize",
        "setup",
        "declare",
        "raise",
        "issue",
    ),
    "update": (
        "update",
        "edit",
        "modify",
        "change",
        "patch",
        "set",
        "rename",
        "replace",
        "adjust",
        "alter",
        "fix",
        "upsert",
        "bump",
        "mark",
        "reorder",
        "format",
        "assign",
        "rotate",
        "promote",
        "convert",
        "toggle",
        "resize",
        "configure",
        "recategorize",
        "reschedule",
        "split",
        "merge",
        "combine",
        "approve",
        "accept",
        "resolve",
        "close",
        "complete",
        "finish",
        "tick",
        "restore",
        "recover",
        "undo",
        "revert",
        "reopen",
        "apply",
        "protect",
        "void",
        "reset",
        "highlight",
        "bold",
        "rewrite",
    ),
    "state": (
        "start",
        "stop",
        "pause",
        "resume",
        "halt",
        "cancel",
        "abort",
        "terminate",
        "kill",
        "enable",
        "disable",
        "lock",
        "unlock",
        "block",
        "unblock",
        "scale",
        "restart",
        "reload",
        "refresh",
        "sync",
        "deploy",
        "redeploy",
        "release",
        "ship",
        "rollout",
        "rollback",
        "publish",
        "unpublish",
        "launch",
        "retry",
        "rerun",
        "activate",
        "deactivate",
        "suspend",
        "unarchive",
        "mute",
        "unmute",
        "connect",
    ),
    "move": ("move", "transfer", "relocate", "switch", "migrate"),
    "send": (
        "send",
        "reply",
        "respond",
        "notify",
        "message",
        "email",
        "share",
        "forward",
        "broadcast",
        "announce",
        "comment",
        "react",
        "ping",
        "text",
        "dm",
        "tweet",
    ),
    "delete": (
        "delete",
        "remove",
        "erase",
        "destroy",
        "purge",
        "trash",
        "discard",
        "unlink",
        "rm",
        "clear",
        "wipe",
        "uninstall",
        "revoke",
        "unassign",
        "unsubscribe",
        "unwatch",
        "unfollow",
        "unstar",
        "archive",
        "forget",
        "empty",
        "clean",
        "dismiss",
        "deny",
        "reject",
        "decline",
        "unapprove",
        "unsplit",
        "ungroup",
        "detach",
        "disconnect",
        "logout",
        "drain",
        "drop",
        "cleanup",
    ),
}
# Actions that leave what they touch as it was: no conflict with a question.
_LOOKING: Final = frozenset({READ})
# A tool-name verb that says little when another verb follows it (``API-post-search``, ``bb_put`` alone).
_WEAK_IN_NAMES: Final = frozenset({"post", "put", "patch", "by", "one", "all", "new", "file", "note", "tag"})
# Words that start a request without saying its action ("please", "can you", "I want to", "help me").
_FILLER: Final = frozenset(
    {
        "please",
        "can",
        "could",
        "would",
        "will",
        "you",
        "i",
        "we",
        "me",
        "us",
        "to",
        "want",
        "need",
        "like",
        "let",
        "lets",
        "help",
        "try",
        "just",
        "now",
        "quickly",
        "and",
        "then",
        "also",
        "ok",
        "okay",
        "hey",
        "pls",
        "kindly",
        "should",
        "must",
        "gotta",
        "wanna",
        "id",
        "im",
        "quick",
        "first",
        "actually",
        "really",
        "simply",
    }
)
# Opening words of a question; a question reads, whatever verb follows ("what files have I changed").
_QUESTION: Final = frozenset(
    {
        "what",
        "which",
        "who",
        "whose",
        "where",
        "when",
        "how",
        "is",
        "are",
        "was",
        "were",
        "does",
        "did",
        "has",
        "have",
        "any",
        "whats",
        "whos",
        "wheres",
        "hows",
        "why",
    }
)
# "how do I <verb>", "how can I <verb>", "what is the way to <verb>": a question that asks for an action.
_HOW_TO: Final = (("how", "do", "i"), ("how", "can", "i"), ("how", "to"), ("how", "would", "i"))

_VERB_ACTION: Final[dict[str, str]] = {verb: action for action, verbs in _ACTIONS.items() for verb in verbs}
# Pairs that undo each other; mixing them up is worse than any other mismatch.
_OPPOSITES: Final = frozenset({frozenset(("create", "delete"))})
_OPPOSITE_VERBS: Final = frozenset(
    frozenset(pair)
    for pair in (
        ("start", "stop"),
        ("pause", "resume"),
        ("enable", "disable"),
        ("open", "close"),
        ("lock", "unlock"),
        ("block", "unblock"),
        ("mute", "unmute"),
        ("connect", "disconnect"),
        ("approve", "deny"),
        ("accept", "reject"),
        ("publish", "unpublish"),
        ("upload", "download"),
        ("import", "export"),
        ("push", "pull"),
        ("login", "logout"),
        ("close", "reopen"),
        ("complete", "reopen"),
        ("archive", "restore"),
        ("attach", "detach"),
        ("split", "unsplit"),
    )
)

_CHANGING: Final = frozenset({"create", "update", "delete", "move", "send"})

ACTION_BOOST: Final = 1.3
"""Score factor for a tool whose action is the need's."""
CONFLICT_FACTOR: Final = 0.6
"""Score factor for a tool whose action differs from the need's (a question against a tool that changes)."""
OPPOSITE_FACTOR: Final = 0.4
"""Score factor for a tool that does the opposite of the need (create against delete, lock against unlock)."""
READ_FOR_CHANGE_FACTOR: Final = 0.8
"""Score factor for a tool that only reads when the need asks for a change."""


def _verbs_of(words: Sequence[str]) -> list[str]:
    return [word for word in words if word in _VERB_ACTION]


def need_actions(words: Sequence[str]) -> tuple[frozenset[str], str | None]:
    """The actions a request asks for and its leading verb, from its lower-case words in order.

    ``(frozenset(), None)`` when the request says no action it knows (then nothing is scaled).
    """
    rest = list(words)
    for prefix in _HOW_TO:
        if tuple(rest[: len(prefix)]) == prefix:
            rest = rest[len(prefix) :]
            break
    else:
        if rest and rest[0] in _QUESTION:
            return frozenset({READ}), rest[0]
    while rest and rest[0] in _FILLER:
        rest = rest[1:]
    if rest[:2] == ["give", "me"] or rest[:2] == ["tell", "me"] or rest[:2] == ["show", "me"]:
        return frozenset({READ}), rest[0]
    if rest and rest[0] in _VERB_ACTION:
        return frozenset({_VERB_ACTION[rest[0]]}), rest[0]
    return frozenset(), None


def tool_action(name_words: Sequence[str], skip: Iterable[str] = ()) -> tuple[str | None, str | None]:
    """The action of a tool and its verb, from the words of its name (``skip``: its server's words)."""
    skipped = set(skip)
    words = list(name_words)
    while words and words[0] in skipped:
        words = words[1:]  # the server's prefix (``linear_getTeams``, ``brave_news_search``), not its verb
    verbs = _verbs_of(words)
    strong = [verb for verb in verbs if verb not in _WEAK_IN_NAMES]
    verb = strong[0] if strong else (verbs[0] if verbs else None)
    if verb is None:
        return None, None
    return _VERB_ACTION[verb], verb


def action_factor(
    needed: frozenset[str], need_verb: str | None, action: str | None, tool_verb: str | None
) -> float:
    """How much to scale a tool's score for how its action meets the need's (1.0: no opinion)."""
    if not needed or action is None or tool_verb is None:
        return 1.0
    if need_verb is not None and (
        tool_verb == "un" + need_verb
        or need_verb == "un" + tool_verb
        or frozenset((need_verb, tool_verb)) in _OPPOSITE_VERBS
    ):
        return OPPOSITE_FACTOR  # lock/unlock, archive/unarchive, start/stop
    if action in needed:
        return ACTION_BOOST
    if any(frozenset((action, want)) in _OPPOSITES for want in needed):
        return OPPOSITE_FACTOR
    if needed <= _LOOKING:
        # A question, or "show"/"list": a tool that changes things is rarely what is asked for; one that
        # runs something (an audit, a script) may be.
        return CONFLICT_FACTOR if action in _CHANGING else 1.0
    if action == READ:
        return READ_FOR_CHANGE_FACTOR  # "add a label": listing the labels is a step, not the act
    return 1.0  # two different changes (update against state): the words decide
