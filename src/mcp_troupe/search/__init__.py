"""Tool search: rank the tool table by a need in plain words (pure code; see :mod:`.ranking`)."""

from mcp_troupe.search.ranking import ToolDocument, ToolIndex, bm25_rank, document_from_definition

__all__ = ["ToolDocument", "ToolIndex", "bm25_rank", "document_from_definition"]
