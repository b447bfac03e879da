"""``SearchIndex``: the functions of any application ranked against a question, offline.

The ranking is BM25F (BM25 over weighted fields; Robertson and Zaragoza, 2009): each
function is a document of five fields, read from what every door's functions share:

- ``name``: the function's name (and ``title``, where it has one), split where words
  meet (``listPaymentIntents`` -> list, payment, intent);
- ``tags``: the ``@tag`` names;
- ``description``: its description;
- ``parameters``: the names of its parameters (the model's side, nested objects included);
- ``details``: the descriptions of those parameters.

A term's frequency in each field is normalised by the field's length against the
field's average, weighted (``WEIGHTS``: a word of the name says more than a word of a
parameter's description), summed over the fields and saturated once (``k1``), so a
word repeated across fields counts more than once without ever dominating. The
weights were chosen on the BFCL pool (``benchmarks/search_bench.py``), where they
lift recall@1 over plain BM25 of the same text by the figures the README gives.

Build cost is one pass over the functions' text (linear in the application); the
index holds, per term, the functions it occurs in with their weighted frequencies,
and nothing else (the schemas are not copied). A query reads only the postings of its
own terms. No network, no model: an ``EmbeddingRanker`` (vectors the user computed)
may be fused in, never required.
"""

from __future__ import annotations

import functools
import heapq
import math
import threading
import weakref
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from llmapp._limits import MAX_INDEXED_DEPTH, MAX_INDEXED_PARTS, MAX_INDEXED_TEXT
from llmapp.jsonschema import is_mapping
from llmapp.kernel import Function, llm_parameters
from llmapp.search._words import terms
from llmapp.vendors import functions_of

__all__ = ["WEIGHTS", "EmbeddingRanker", "Hit", "SearchIndex", "document", "index_of"]

F = TypeVar("F", bound=Function)

WEIGHTS: Mapping[str, float] = {
    "name": 3.0,
    "tags": 2.0,
    "description": 1.0,
    "parameters": 1.0,
    "details": 0.4,
}
"""How much a term counts in each field (BM25F's field weights)."""

_FIELD_B: Mapping[str, float] = {
    "name": 0.3,
    "tags": 0.0,
    "description": 0.75,
    "parameters": 0.5,
    "details": 0.75,
}
"""How much each field's length normalises its terms (short fields: little)."""


@dataclass(frozen=True, slots=True)
class Hit(Generic[F]):
    """One function found, with its score (higher is closer)."""

    function: F
    score: float


def document(function: Function, read: Callable[[str], list[str]] = terms) -> dict[str, list[str]]:
    """The terms of each field of a function (see the module docstring).

    Args:
        function: any function.
        read: text -> its terms (an index passes one that remembers the texts it read:
            the parameters of a large application repeat the same descriptions).
    """
    name = function.name
    title = getattr(function, "title", None)
    if isinstance(title, str) and title:
        name = f"{name} {title}"
    parameters: list[str] = []
    details: list[str] = []
    _read_parameters(llm_parameters(function), parameters, details, 0)
    return {
        "name": read(name[:MAX_INDEXED_TEXT]),
        "tags": [term for tag in function.tags or () for term in read(str(tag)[:MAX_INDEXED_TEXT])],
        "description": read((function.description or "")[:MAX_INDEXED_TEXT]),
        "parameters": [term for text in parameters for term in read(text)],
        "details": [term for text in details for term in read(text)],
    }


def _read_parameters(schema: Any, names: list[str], details: list[str], depth: int) -> None:
    """Property names and descriptions, nested objects and arrays of them included, until
    ``MAX_INDEXED_TEXT`` characters are read (a large schema costs no more than a small one)."""
    if not is_mapping(schema) or depth > MAX_INDEXED_DEPTH:
        return
    properties = schema.get("properties")
    if is_mapping(properties):
        for key, sub in properties.items():
            if len(names) + len(details) >= MAX_INDEXED_PARTS:
                return
            names.append(str(key)[:MAX_INDEXED_TEXT])
            if is_mapping(sub):
                text = sub.get("description")
                if isinstance(text, str):
                    details.append(text[:MAX_INDEXED_TEXT])
                _read_parameters(sub, names, details, depth + 1)
    items = schema.get("items")
    if is_mapping(items):
        _read_parameters(items, names, details, depth + 1)


class EmbeddingRanker:
    """Ranking by vectors the user computed (an embedding model of their choice).

    Args:
        vectors: function name -> its vector (any length, the same for all).
        embed: question -> its vector, in the same space.

    Example::

        ranker = EmbeddingRanker({f.name: model.embed(f.description) for f in app.functions},
                                 model.embed)
        index = SearchIndex(app, ranker=ranker)
    """

    def __init__(
        self, vectors: Mapping[str, Sequence[float]], embed: Callable[[str], Sequence[float]]
    ) -> None:
        self.embed = embed
        self._vectors = {name: _unit(vector) for name, vector in vectors.items()}

    def rank(self, query: str, names: Iterable[str], k: int) -> list[str]:
        """The ``k`` names closest to the query (cosine), among those given."""
        question = _unit(self.embed(query))
        scored = (
            (sum(a * b for a, b in zip(question, vector, strict=False)), name)
            for name in names
            if (vector := self._vectors.get(name)) is not None
        )
        return [name for _, name in heapq.nlargest(k, scored)]


def _unit(vector: Sequence[float]) -> list[float]:
    norm = math.sqrt(sum(value * value for value in vector)) or 1.0
    return [value / norm for value in vector]


_FUSION = 60
"""Reciprocal-rank fusion's constant (Cormack et al., 2009): a rank r counts 1/(60 + r)."""


class SearchIndex(Generic[F]):
    """The functions of an application (or any iterable of functions), searchable by text.

    Args:
        source: an application (class, HTTP or MCP) or an iterable of functions.
        weights: per-field weights replacing ``WEIGHTS`` (fields left out keep theirs).
        ranker: an ``EmbeddingRanker``, fused with the lexical ranking by reciprocal rank.
        k1: BM25's term-frequency saturation.

    Example::

        index = SearchIndex(llmapp.http.application(stripe_document))
        for function in index.search("refund a charge", k=5):
            print(function.name)
    """

    def __init__(
        self,
        source: Any,
        *,
        weights: Mapping[str, float] | None = None,
        ranker: EmbeddingRanker | None = None,
        k1: float = 1.2,
    ) -> None:
        self.functions: list[F] = cast("list[F]", functions_of(source))
        self.ranker = ranker
        self._by_name = {function.name: index for index, function in enumerate(self.functions)}
        weight = {**WEIGHTS, **(weights or {})}
        fields = tuple(WEIGHTS)
        read = functools.lru_cache(maxsize=4_096)(terms)
        # One pass: per term, the (document * 8 + field) it occurs in and how often, as
        # two compact arrays, and each field's length; the weights need the average
        # lengths, known only at the end.
        counts: dict[str, tuple[array[int], array[int]]] = {}
        lengths = [array("I") for _ in fields]
        for number, function in enumerate(self.functions):
            doc = document(function, read)
            for place, field in enumerate(fields):
                words = doc[field]
                lengths[place].append(len(words))
                key = number * 8 + place
                for word, count in Counter(words).items():
                    row = counts.get(word)
                    if row is None:
                        row = counts[word] = (array("I"), array("I"))
                    row[0].append(key)
                    row[1].append(count)
        total = len(self.functions)
        average = [
            (sum(lengths[place]) / total if total else 0.0) or 1.0 for place in range(len(fields))
        ]
        norms = [
            (weight[field], _FIELD_B[field], average[place]) for place, field in enumerate(fields)
        ]
        # Per term, each function's share of the score, computed once: a query only adds.
        self._postings: dict[str, tuple[array[int], array[float]]] = {}
        for word, (keys, numbers) in counts.items():
            frequency: dict[int, float] = {}
            for key, count in zip(keys, numbers, strict=True):
                number, place = divmod(key, 8)
                w, b, mean = norms[place]
                if w:
                    share = w * count / (1 - b + b * lengths[place][number] / mean)
                    frequency[number] = frequency.get(number, 0.0) + share
            if not frequency:
                continue
            idf = math.log(1 + (total - len(frequency) + 0.5) / (len(frequency) + 0.5))
            saturated = (idf * tf / (k1 + tf) for tf in frequency.values())
            self._postings[word] = (array("I", frequency), array("d", saturated))
        del counts

    def __len__(self) -> int:
        return len(self.functions)

    def ranked(self, query: str, k: int = 5) -> list[Hit[F]]:
        """The ``k`` functions closest to ``query``, best first, each with its score.

        Functions that share no term with the query are left out (unless a ranker finds
        them), so the list may be shorter than ``k``.
        """
        if k <= 0:
            return []
        scores = self._scores(query)
        depth = k if self.ranker is None else max(k, 50)
        lexical = heapq.nlargest(depth, scores.items(), key=lambda item: (item[1], -item[0]))
        if self.ranker is None:
            return [Hit(self.functions[number], score) for number, score in lexical]
        names = [function.name for function in self.functions]
        semantic = self.ranker.rank(query, names, depth)
        fused: dict[int, float] = {}
        for rank, (number, _) in enumerate(lexical):
            fused[number] = fused.get(number, 0.0) + 1 / (_FUSION + rank)
        for rank, name in enumerate(semantic):
            number = self._by_name[name]
            fused[number] = fused.get(number, 0.0) + 1 / (_FUSION + rank)
        best = heapq.nlargest(k, fused.items(), key=lambda item: (item[1], -item[0]))
        return [Hit(self.functions[number], score) for number, score in best]

    def search(self, query: str, k: int = 5) -> list[F]:
        """The ``k`` functions closest to ``query``, best first (see ``ranked``)."""
        return [hit.function for hit in self.ranked(query, k)]

    def _scores(self, query: str) -> dict[int, float]:
        found = [
            row
            for word in set(terms(query[:MAX_INDEXED_TEXT]))
            if (row := self._postings.get(word))
        ]
        if not found:
            return {}
        found.sort(key=lambda row: len(row[0]))
        numbers, shares = found.pop()  # the longest row copied whole, the rest added
        scores = dict(zip(numbers, shares, strict=True))
        for numbers, shares in found:
            for number, share in zip(numbers, shares, strict=True):
                scores[number] = scores.get(number, 0.0) + share
        return scores


_INDEXES: weakref.WeakKeyDictionary[Any, SearchIndex[Any]] = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()


def index_of(app: Any) -> SearchIndex[Any]:
    """The default ``SearchIndex`` of an application, built on first use and kept while the
    application lives (every ``ToolSearch`` of it shares the one index)."""
    with _LOCK:
        try:
            found = _INDEXES.get(app)
        except TypeError:  # an application that cannot be weakly held: built each time
            return SearchIndex(app)
        if found is None:
            found = _INDEXES[app] = SearchIndex(app)
        return found
