"""Qualified tool names, sanitising and collision rejection.

The model calls an MCP tool by a qualified name, ``mcp__<server>__<tool>``. Providers accept only
``^[A-Za-z0-9_-]{1,64}$`` (no dots, at most 64 characters), while MCP allows ``.`` and up to 128 characters
(spec: 2025-11-25 server/tools "Tool Names", SEP-986). So names are mangled here, deterministically, and
every mangling that could make two tools share a name is caught by :func:`assign_names`, which rejects *all*
parties to a collision rather than letting one silently shadow another (PEERS.md §2.7,
langchain-mcp-adapters#605).
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from mcp_troupe._frozen import constructor

__all__ = [
    "BUILTIN_PREFIX",
    "MAX_NAME_LENGTH",
    "NAME_PATTERN",
    "SERVER_NAME_PATTERN",
    "NameTable",
    "NameVerdict",
    "assign_names",
    "name_rejection",
    "qualify",
    "sanitize",
]

BUILTIN_PREFIX = "mcp__"
"""Prefix of every qualified MCP tool name."""

MAX_NAME_LENGTH = 64
"""Longest tool name the model providers accept."""

NAME_PATTERN = re.compile(r"\A[A-Za-z0-9_-]{1,64}\Z")
"""What a qualified name must match to be sent to a provider."""

SERVER_NAME_PATTERN = re.compile(r"\A[A-Za-z0-9._-]{1,64}\Z")
"""What an operator-chosen server name must match (checked by the config loader)."""

# ASCII only on purpose: ``\w`` and ``str.isalnum`` accept Unicode letters that providers reject.
_UNSAFE_CHAR = re.compile(r"[^A-Za-z0-9_-]")
_SEPARATOR = "__"
_HASH_HEX_CHARS = 8
# When a name must be shortened, the sanitised server and tool parts share what is left after the prefix,
# both separators and the "_" + hash suffix (64 - 5 - 2 - 9 = 48 characters).
_PARTS_BUDGET = MAX_NAME_LENGTH - len(BUILTIN_PREFIX) - len(_SEPARATOR) - 1 - _HASH_HEX_CHARS


def sanitize(part: str) -> str:
    """Replace every character outside ``[A-Za-z0-9_-]`` with ``_``; an empty part becomes ``_``."""
    # Nearly every name is safe already; three string methods in C say so faster than the regex's pass.
    if part.isascii() and part.replace("_", "a").replace("-", "a").isalnum():
        return part
    return _UNSAFE_CHAR.sub("_", part) or "_"


# A server's part is the same for each of its tools (thousands in one catalog); server names are the
# operator's, so few.
_sanitized_server: Final = functools.lru_cache(maxsize=256)(sanitize)


def qualify(server: str, tool: str) -> str:
    """Return the qualified name ``mcp__<server>__<tool>`` the model calls, at most 64 characters.

    A name that would be longer is shortened: it keeps as much of the sanitised server and tool parts as
    fits (the server part gives way first, down to half the room, since the tool part is what tells the
    model what it calls) and ends in ``_`` plus the first 8 hex digits of the SHA-256 of the *unsanitised*
    ``server NUL tool``. Hashing the originals means two long names that differ only in characters that
    sanitising or truncating erased still get different names. SHA-256 rather than ``hash()``: the result
    must be the same in every process.

    A shortened name can still, rarely, equal another tool's name (a 32-bit hash, or a server that picks
    its tool name to match); :func:`assign_names` catches that like any other collision.
    """
    safe_server, safe_tool = _sanitized_server(server), sanitize(tool)
    qualified = f"{BUILTIN_PREFIX}{safe_server}{_SEPARATOR}{safe_tool}"
    if len(qualified) <= MAX_NAME_LENGTH:
        return qualified
    # Keep the whole tool part if the server part can give way down to half the budget; otherwise the
    # server keeps half and the tool part is cut too. The kept lengths always add up to the budget here.
    server_keep = min(len(safe_server), max(_PARTS_BUDGET - len(safe_tool), _PARTS_BUDGET // 2))
    tool_keep = _PARTS_BUDGET - server_keep
    # surrogatepass: server-supplied JSON may carry lone surrogates, which strict UTF-8 cannot encode.
    original = f"{server}\x00{tool}".encode("utf-8", "surrogatepass")
    digest = hashlib.sha256(original).hexdigest()[:_HASH_HEX_CHARS]
    return f"{BUILTIN_PREFIX}{safe_server[:server_keep]}{_SEPARATOR}{safe_tool[:tool_keep]}_{digest}"


@dataclass(frozen=True, slots=True)
class NameVerdict:
    """The qualified name of one server tool, and why it was rejected (``None`` when accepted)."""

    server: str
    tool: str
    qualified: str
    rejected_reason: str | None

    @property
    def is_accepted(self) -> bool:
        """Whether the tool may be offered to the model under ``qualified``."""
        return self.rejected_reason is None


_NAME_VERDICT: Final = constructor(NameVerdict)  # one per tool of every catalog (mcp_troupe._frozen)

_Holder = tuple[str, str]
"""A tool that holds a qualified name: (server, tool)."""


def assign_names(
    batches: Mapping[str, Sequence[str]], *, reserved: Collection[str] = ()
) -> dict[tuple[str, str], NameVerdict]:
    """Qualify every server tool and reject the ones whose names are ambiguous.

    ``batches`` maps each server name to its tools' original names, in server order; ``reserved`` holds the
    agent's own (built-in) tool names. A tool is rejected when:

    - its server listed the same name more than once (every copy: which one would be called is unknown);
    - its qualified name, or its original name, equals a reserved name. The qualified name matters for
      routing; the original name is rejected too because a server tool named exactly like a built-in
      invites the model (and the operator reading logs) to confuse the two, a form of tool shadowing;
    - its qualified name equals another tool's, on the same server after sanitising (``a.b`` and ``a_b``)
      or across servers (server ``a`` tool ``b__c`` and server ``a__b`` tool ``c``). *Every* side is
      rejected, never first-come-first-served, so no server can shadow another by connecting first.

    A tool with several problems gets all of them in its reason, joined by ``"; "``. The result is keyed by
    ``(server, tool)`` in first-seen order (servers in the given order, tools in listing order) and depends
    on nothing but the inputs.
    """
    reserved_names = frozenset(reserved)
    listed_count: dict[tuple[str, str], int] = {}
    for server, tools in batches.items():
        for tool in tools:
            key = (server, tool)
            listed_count[key] = listed_count.get(key, 0) + 1

    qualified_of = {key: qualify(*key) for key in listed_count}
    holders: defaultdict[str, list[tuple[str, str]]] = defaultdict(list)
    for key, qualified in qualified_of.items():
        holders[qualified].append(key)

    verdicts: dict[tuple[str, str], NameVerdict] = {}
    for key, qualified in qualified_of.items():
        server, tool = key
        reason = name_rejection(
            server,
            tool,
            qualified,
            listed=listed_count[key],
            holders=holders[qualified],
            reserved=reserved_names,
        )
        verdicts[key] = NameVerdict(server=server, tool=tool, qualified=qualified, rejected_reason=reason)
    return verdicts


def name_rejection(
    server: str,
    tool: str,
    qualified: str,
    *,
    listed: int,
    holders: Iterable[tuple[str, str]],
    reserved: Collection[str],
) -> str | None:
    """Why ``tool`` of ``server`` may not be offered as ``qualified``, or None (see :func:`assign_names`).

    ``listed`` is how many times its server listed it; ``holders`` every ``(server, tool)`` whose qualified
    name is ``qualified`` (itself included, in first-seen order). For callers that keep the holders
    themselves and re-judge only the names a change touched.
    """
    reasons: list[str] = []
    if listed > 1:
        reasons.append(f"tool {tool!r} is listed {listed} times by server {server!r}")
    if qualified in reserved:
        reasons.append(f"qualified name {qualified!r} is a built-in tool of the agent")
    if tool in reserved:
        reasons.append(f"tool {tool!r} of server {server!r} is named like the built-in tool {tool!r}")
    others = [other for other in holders if other != (server, tool)]
    if others:
        named = ", ".join(f"{tool_name!r} of server {server_name!r}" for server_name, tool_name in others)
        reasons.append(f"qualified name {qualified!r} collides with {named}")
    return "; ".join(reasons) or None


class NameTable:
    """:func:`assign_names`, kept up to date one server at a time.

    A client with many servers re-names on every connect, reconnect and ``list_changed``; naming every
    catalog again each time costs the sum of all catalogs per change. This table keeps, per qualified name,
    who holds it, so :meth:`set_server` touches only the names the changed server held before or holds now
    (a collision starts or ends with it), and :meth:`verdicts_of` judges those alone. After any sequence of
    :meth:`set_server` calls, the verdicts equal ``assign_names`` over the current lists (servers ordered as
    in ``server_order``; servers not in it come after, in first-seen order).
    """

    __slots__ = ("_holders", "_listed", "_order", "_positions", "_qualified", "_reserved")

    def __init__(self, server_order: Sequence[str] = (), *, reserved: Collection[str] = ()) -> None:
        self._order = {name: index for index, name in enumerate(server_order)}
        self._reserved = frozenset(reserved)
        # Per server: tool → times listed, tool → listing position, tool → qualified name (listing order).
        self._listed: dict[str, dict[str, int]] = {}
        self._positions: dict[str, dict[str, int]] = {}
        self._qualified: dict[str, dict[str, str]] = {}
        # Qualified name → its holders (server, tool): the one holder itself, or (two and more: a collision)
        # an ordered set of them. Nearly every name has one holder, and a one-entry dict per tool would be an
        # object more for the garbage collector to walk, per tool of every catalog (issue 18); a tuple of
        # strings it stops tracking at its first collection.
        self._holders: dict[str, _Holder | dict[_Holder, None]] = {}

    def set_server(self, server: str, tools: Sequence[str] | None) -> list[str]:
        """Make ``tools`` (in listing order, repeats kept) ``server``'s names; ``None`` removes the server.

        Returns every qualified name whose verdicts may have changed: the server's old and new names.
        """
        touched: dict[str, None] = {}
        for tool, qualified in self._qualified.pop(server, {}).items():
            self._remove_holder(qualified, (server, tool))
            touched[qualified] = None
        self._listed.pop(server, None)
        self._positions.pop(server, None)
        if tools is not None:
            if server not in self._order:
                self._order[server] = len(self._order)
            listed: dict[str, int] = {}
            for tool in tools:
                listed[tool] = listed.get(tool, 0) + 1
            qualified_of = {tool: qualify(server, tool) for tool in listed}
            self._listed[server] = listed
            self._positions[server] = {tool: position for position, tool in enumerate(listed)}
            self._qualified[server] = qualified_of
            for tool, qualified in qualified_of.items():
                self._add_holder(qualified, (server, tool))
                touched[qualified] = None
        return list(touched)

    def extend_server(self, server: str, tools: Sequence[str]) -> list[str]:
        """Append ``tools`` (in listing order, repeats kept) to ``server``'s names, as if :meth:`set_server`
        had been given the longer list; the cost is that of ``tools`` alone.

        Returns the qualified names whose verdicts may have changed: those ``tools`` hold (a repeat of an
        earlier tool, or a collision with another server, changes the verdicts of that name's holders).
        """
        if server not in self._order:
            self._order[server] = len(self._order)
        listed = self._listed.setdefault(server, {})
        positions = self._positions.setdefault(server, {})
        qualified_of = self._qualified.setdefault(server, {})
        touched: dict[str, None] = {}
        for tool in tools:
            listed[tool] = listed.get(tool, 0) + 1
            qualified = qualified_of.get(tool)
            if qualified is None:
                positions[tool] = len(positions)
                qualified = qualified_of[tool] = qualify(server, tool)
                self._add_holder(qualified, (server, tool))
            touched[qualified] = None
        return list(touched)

    def _add_holder(self, qualified: str, holder: _Holder) -> None:
        held = self._holders.get(qualified)
        if held is None:
            self._holders[qualified] = holder
        elif isinstance(held, tuple):
            if held != holder:
                self._holders[qualified] = {held: None, holder: None}
        else:
            held[holder] = None

    def _remove_holder(self, qualified: str, holder: _Holder) -> None:
        held = self._holders[qualified]
        if isinstance(held, tuple):
            del self._holders[qualified]
            return
        del held[holder]
        if len(held) == 1:
            (self._holders[qualified],) = held  # one holder again: kept as itself

    def names_of(self, server: str) -> Mapping[str, str]:
        """``server``'s tools (each once, in listing order) → their qualified names."""
        return self._qualified.get(server, {})

    def verdicts_of(self, qualified: str) -> Iterator[NameVerdict]:
        """The verdict on every tool that holds ``qualified`` now (none when nobody does)."""
        held = self._holders.get(qualified)
        if held is None:
            return
        holders: tuple[_Holder, ...]
        if isinstance(held, tuple):
            # The common case, the only holder: name_rejection's answer without its lists and joins.
            server, tool = held
            listed = self._listed[server][tool]
            if listed == 1 and qualified not in self._reserved and tool not in self._reserved:
                yield _NAME_VERDICT(server, tool, qualified, None)
                return
            holders = (held,)
        else:
            # A collision names the other sides in server and listing order, however they arrived.
            holders = tuple(sorted(held, key=self._position))
        for server, tool in holders:
            reason = name_rejection(
                server,
                tool,
                qualified,
                listed=self._listed[server][tool],
                holders=holders,
                reserved=self._reserved,
            )
            yield NameVerdict(server=server, tool=tool, qualified=qualified, rejected_reason=reason)

    def _position(self, key: _Holder) -> tuple[int, int]:
        server, tool = key
        return self._order[server], self._positions[server][tool]
