"""Tool search for large applications: find the few functions a question needs.

- ``SearchIndex(source)``: a lexical index (BM25F over names, tags, descriptions and
  parameters) of any application's functions; ``search(query, k)`` returns functions.
- ``EmbeddingRanker(vectors, embed)``: vectors the user brings, fused into the ranking.
- ``ToolSearch(app)``: the application seen through a ``search_tools`` function the model
  calls; the functions it finds are loaded, so the next request carries their schemas.

Example::

    searching = ToolSearch(llmapp.http.application(stripe))
    tools = openai.tools(searching)          # search_tools, then what it found
    result = searching.execute(connection, "search_tools", '{"query": "refund a charge"}')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmapp._lazy import lazy_names as _lazy_names

if TYPE_CHECKING:
    from llmapp.search._index import EmbeddingRanker, Hit, SearchIndex
    from llmapp.search._tool import ToolSearch, search_function, short_description

_HOMES = {
    "EmbeddingRanker": "llmapp.search._index",
    "Hit": "llmapp.search._index",
    "SearchIndex": "llmapp.search._index",
    "ToolSearch": "llmapp.search._tool",
    "search_function": "llmapp.search._tool",
    "short_description": "llmapp.search._tool",
}

__getattr__, __dir__ = _lazy_names(__name__, _HOMES)

__all__ = [
    "EmbeddingRanker",
    "Hit",
    "SearchIndex",
    "ToolSearch",
    "search_function",
    "short_description",
]
