"""The registry's composed parts on their own (actors/registry_search.py, registry_builtins.py,
registry_records.py): what each does with the narrow callbacks it is given, without an actor or a loop."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

import pytest

from mcp_troupe.actors import registry_builtins
from mcp_troupe.actors.registry_builtins import BuiltinTools
from mcp_troupe.actors.registry_messages import CallTool
from mcp_troupe.actors.registry_records import unknown_tool
from mcp_troupe.actors.registry_search import ToolSearch
from mcp_troupe.config import TroupeConfig, parse_config
from mcp_troupe.errors import ToolDenied
from mcp_troupe.types import Risk, ToolSpec


def _config(mode: str, threshold: int = 1) -> TroupeConfig:
    return parse_config(
        {
            "tools": {"mcp": {"tool_search": {"mode": mode, "threshold": threshold, "embeddings": "off"}}},
            "permissions": {"approval": {"mode": "auto"}},
        }
    )


def _spec(server: str, tool: str, description: str, **changes: Any) -> ToolSpec:
    return ToolSpec(
        name=f"mcp__{server}__{tool}",
        original_name=tool,
        server=server,
        description=description,
        input_schema={"type": "object"},
        risk=Risk.READ_ONLY,
        **changes,
    )


class _Table:
    """A stand-in for the registry's table, read through the callbacks ToolSearch takes."""

    def __init__(self, *specs: ToolSpec) -> None:
        self.specs = {spec.name: spec for spec in specs}
        self.ready = {spec.server for spec in specs}
        self.scheduled = 0

    def search(self, config: TroupeConfig) -> ToolSearch:
        def schedule() -> None:
            self.scheduled += 1

        return ToolSearch(
            config,
            table=lambda: self.specs,
            entries_of=lambda server: [spec for spec in self.specs.values() if spec.server == server],
            is_ready=lambda server: server in self.ready,
            schedule=schedule,
        )


def test_changes_ask_for_one_index_update_while_search_is_active() -> None:
    table = _Table(_spec("mail", "send_invoice", "Send an invoice to a customer by email"))
    search = table.search(_config("on"))

    search.reindex(["mail"])
    search.reindex(["mail"])
    assert table.scheduled == 1  # one _IndexNow in flight at a time

    search.on_index_now()
    search.reindex(["mail"])
    assert table.scheduled == 2


def test_an_inactive_search_never_schedules_but_a_search_indexes_first() -> None:
    table = _Table(_spec("mail", "send_invoice", "Send an invoice to a customer by email"))
    search = table.search(_config("off"))

    search.reindex(["mail"])
    assert table.scheduled == 0
    assert not search.is_active()
    assert [spec.name for spec in search.search("invoice", 5)] == ["mcp__mail__send_invoice"]


def test_auto_mode_is_active_past_the_threshold_of_the_table() -> None:
    table = _Table(_spec("a", "one", "first"), _spec("a", "two", "second"))
    assert table.search(_config("auto", threshold=1)).is_active()
    assert not table.search(_config("auto", threshold=2)).is_active()


def test_search_offers_only_tools_callable_now() -> None:
    table = _Table(
        _spec("mail", "send_invoice", "Send an invoice by email"),
        _spec("ledger", "book_invoice", "Book an invoice in the ledger"),
        _spec("audit", "flag_invoice", "Flag an invoice for audit", is_quarantined=True),
    )
    table.ready.discard("ledger")
    search = table.search(_config("on"))
    for server in ("mail", "ledger", "audit"):
        search.reindex([server])

    assert [spec.name for spec in search.search("invoice", 10)] == ["mcp__mail__send_invoice"]


def test_reset_forgets_every_entry() -> None:
    table = _Table(_spec("mail", "send_invoice", "Send an invoice by email"))
    search = table.search(_config("on"))
    search.reindex(["mail"])
    search.index_now()

    search.reset()

    assert search.search("invoice", 10) == []


def test_the_result_store_keeps_the_newest_within_its_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(registry_builtins, "RESULTS_MAX_ENTRIES", 2)
    monkeypatch.setattr(registry_builtins, "RESULTS_MAX_CHARS", 10)
    builtins = BuiltinTools(_config("off"), runtime=None, servers={})  # type: ignore[arg-type]
    assert builtins.specs(ready_only=True) == []

    builtins.store("troupe://results/a", "aaaa")
    builtins.store("troupe://results/b", "bbbb")
    builtins.store("troupe://results/c", "cccc")  # over the count: the oldest goes
    assert list(builtins._results) == ["troupe://results/b", "troupe://results/c"]
    builtins.store("troupe://results/d", "ddddddd")  # over the characters: the oldest go until it fits
    assert list(builtins._results) == ["troupe://results/d"]
    builtins.store("troupe://results/e", "e" * 25)  # alone too big: cut, and says so
    assert builtins._results["troupe://results/e"].startswith("e" * 10 + "\n[the stored text was cut at 10")

    # A stored result lists mcp_resources as ready, with no server offering resources.
    assert [spec.name for spec in builtins.specs(ready_only=True)] == ["mcp_resources"]
    builtins.clear()
    assert builtins.specs(ready_only=False) == []


def test_a_denied_builtin_call_fails_at_once() -> None:
    config = parse_config({"tools": {"profile": "public_gateway"}})
    builtins = BuiltinTools(config, runtime=None, servers={})  # type: ignore[arg-type]
    reply: Future[Any] = Future()

    builtins.on_call(CallTool("mcp_resources", {"action": "list"}, reply))

    with pytest.raises(ToolDenied, match="mcp_resources"):
        reply.result(timeout=1)


def test_an_unknown_name_gets_the_reason_or_the_nearest_names() -> None:
    spec = _spec("mail", "send_invoice", "Send an invoice")
    table = {spec.name: spec}

    rejected = unknown_tool("mcp__mail__evil", {"mcp__mail__evil": "a hidden instruction"}, [], table)
    assert str(rejected) == "unknown tool 'mcp__mail__evil': rejected: a hidden instruction"
    misspelt = unknown_tool("mcp__mail__send_invoise", {}, [], table)
    assert str(misspelt).endswith("did you mean 'mcp__mail__send_invoice'?")
    assert str(unknown_tool("nothing_like_it", {}, [], table)) == "unknown tool 'nothing_like_it'"
