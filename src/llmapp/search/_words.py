"""Text to search terms: the one tokeniser the index and its queries share.

A function's name is code (``get_weather``, ``listPaymentIntents``, ``HTTPServer.start``),
its description prose, and a query prose: each is split where words meet (non-letters,
``camelCase`` humps, an acronym before a word, letters beside digits), lower-cased, rid of
the words every description holds (``the``, ``a``, ``of``), and cut to a light stem
(``payments`` -> ``payment``, ``listing`` -> ``list``, ``categories`` -> ``category``), so
"list the payments" meets ``list_payment``. The stemmer is deliberately light: it only
removes inflections, never derivations, so ``organisation`` and ``organ`` stay apart.
"""

from __future__ import annotations

import functools
import re
import unicodedata

__all__ = ["STOPWORDS", "stem", "terms"]

# An acronym before a capitalised word (HTTPServer -> HTTP, Server), a capitalised or
# lower-case word, an all-caps run, digits: each a word of its own.
_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[^\W\d_A-Z]+|[A-Z]+|\d+")

STOPWORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "does",
        "for",
        "from",
        "has",
        "have",
        "how",
        "i",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "please",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "this",
        "those",
        "to",
        "was",
        "we",
        "what",
        "when",
        "where",
        "which",
        "who",
        "will",
        "with",
        "would",
        "you",
        "your",
    ]
)
"""Words too common in descriptions and questions to tell functions apart."""


def stem(word: str) -> str:
    """A light inflectional stem: plural ``-s``/``-es``/``-ies``, ``-ing``, ``-ed``, and a
    final ``-e`` (so ``create``, ``created`` and ``creating`` meet at ``creat``)."""
    base = _inflection(word)
    return base[:-1] if len(base) > 4 and base.endswith("e") else base


def _inflection(word: str) -> str:
    if len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    # What is left must keep a vowel: ``string`` and ``speed`` are no inflections.
    if word.endswith("ing") and len(word) > 5 and _VOWELS.intersection(word[:-3]):
        return _undouble(word[:-3])
    if word.endswith("ed") and not word.endswith("eed") and _VOWELS.intersection(word[:-2]):
        return _undouble(word[:-2])
    return word


_VOWELS = frozenset("aeiouy")


def _undouble(word: str) -> str:
    """``stopp`` -> ``stop``: the doubled consonant an ``-ing``/``-ed`` leaves."""
    if len(word) > 2 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        return word[:-1]
    return word


def terms(text: str) -> list[str]:
    """The search terms of a text, in order (a term may repeat).

    Example::

        terms("listPaymentIntents for the customer")  # ['list', 'payment', 'intent', 'customer']
    """
    normal = unicodedata.normalize("NFKC", text)
    found = []
    for word in _WORDS.findall(normal):
        lowered = word.casefold()
        if lowered not in STOPWORDS:
            found.append(_stemmed(lowered))
    return found


@functools.lru_cache(maxsize=65_536)
def _stemmed(word: str) -> str:
    return stem(word)
