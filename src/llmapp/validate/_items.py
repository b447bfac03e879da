"""A refusal naming the item of a list, or the key of a dict, that a checker's loop refused,
and the walk's loop started from it.

A checker loops over the items of a property's container and stops at the first it refuses:
every item before it passed the very tests the walk would ask of it. Its refusal
(``refused_item``) names that item in ``Refusal.item``; the walker of that property then
starts its own loop there (``items_from``, ``keys_from``) instead of judging each item from
the first again. The item is found by the walk in C: ``operator.indexOf`` answers the first
item that is, or equals, the refused one, never one after it, so the walk may start early
(an equal item before it, ``1`` before ``True``), never late. Only a plain ``list``, ``tuple``
or ``dict`` is searched: it is iterated as the check iterated it (a subclass may yield
other items each time, or other items than its copy the check read); anything else, a
search that raises, or a refusal naming no item, is walked whole.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from ._runtime import NO_ITEM, Refusal

__all__ = ["items_from", "keys_from", "refused_item"]


def refused_item(refused: Refusal, item: object, items: Any) -> Refusal:
    """``refused`` (a kept refusal inside a property) naming the ``item`` (or key) it
    refused among ``items``; ``refused`` itself where ``item`` is the first: the walk would
    skip nothing, and a new refusal costs what the walk of a small record does."""
    if next(iter(items), NO_ITEM) is item:
        return refused
    made = int.__new__(Refusal, 0)
    made.__dict__.update(refused.__dict__)
    made.item = item
    return made


def _start(values: Iterable[Any], item: object) -> int:
    """The position of the first of ``values`` that is or equals ``item``; 0 when none is,
    or when a comparison raises."""
    try:
        return operator.indexOf(values, item)
    except Exception:  # (no such item, or an ``__eq__`` that raises): walked whole
        return 0


def items_from(items: Any, refused: Refusal) -> Iterator[tuple[int, Any]]:
    """``enumerate(items)`` from the item ``refused`` names, where ``items`` is a plain
    list or tuple and holds that very item there: a checker judging a copy of a dict
    subclass names the copy, which only an item after the refused one might equal."""
    item, kind = refused.item, type(items)
    if item is NO_ITEM or (kind is not list and kind is not tuple):
        return enumerate(items)
    start = _start(items, item)
    if start and items[start] is item:
        return enumerate(items[start:], start)
    return enumerate(items)


def keys_from(mapping: dict[Any, Any], refused: Refusal) -> Iterable[tuple[Any, Any]]:
    """``mapping.items()`` from the key ``refused`` names, where ``mapping`` is a plain dict
    (the very dict the check read, the key one of its own: found no later than itself)."""
    key = refused.item
    if key is NO_ITEM or type(mapping) is not dict:
        return mapping.items()
    start = _start(mapping, key)
    return islice(mapping.items(), start, None) if start else mapping.items()
