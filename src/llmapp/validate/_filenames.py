"""The file name each validator's source is compiled and registered under in ``linecache``.

A name is ``<llmapp-validator-{serial}[-{title}]>``. Serials of collected validators
are taken again, smallest first: CPython keeps every distinct file name ``compile`` was
given for good, so names are reused, not new each time. A validator's source leaves
``linecache`` with it (``release``), except while a validator is being built in the same
thread (``handing_on``): then it leaves once the new one is registered, which has taken
the freed serial and so its very name in the common case (no ``title``, or the same).
Replacing an entry keeps ``linecache``'s table as it is; deleting one and adding another
uses up a slot of the table each time, and CPython then resizes it from the entries it
holds to twice the table the same entries take when added afresh.

The entry's lines are a ``Lines``: the source compressed, read out only when a traceback,
a debugger or ``Validator.source`` asks (rarely), instead of a list of strings every
validator keeps while it lives. ``linecache`` takes any sequence of lines for a name in
angle brackets; its lazy entries would not do, as it never loads those for such names.
"""

from __future__ import annotations

import heapq
import itertools
import linecache
import threading
import zlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, cast, overload

from .._codegen.source import register_lines

__all__ = ["Lines", "handing_on", "register", "release", "take_serial"]

_serial = itertools.count(1)
_free_serials: list[int] = []
"""Serials of collected validators (a heap)."""
_names: dict[int, str] = {}
"""The last file name given under each serial (``register``)."""
_serial_lock = threading.RLock()  # a validator may be collected while it is held


class _Leaving(threading.local):
    """The sources of validators collected in this thread while one is built."""

    def __init__(self) -> None:
        self.sources: list[tuple[str, Lines]] | None = None


_leaving = _Leaving()


class Lines(Sequence[str]):
    """A validator's source as ``linecache`` reads it: the header's lines (the same
    strings for every validator) and the generated lines, compressed against a preset
    dictionary: the source of a validator built shortly before (``_Dictionary``), which
    holds most of what the next one writes (the same statements, paths and comments),
    so a source keeps a tenth of what it would compressed alone.

    Reading a line decompresses the whole source (a traceback reads a few lines, once);
    iterating decompresses it once."""

    __slots__ = ("_count", "_dictionary", "_header", "_packed", "size")

    def __init__(self, header: tuple[str, ...], *parts: str) -> None:
        body = "".join(parts)
        raw = body.encode("utf-8", "surrogatepass")
        self._header = header
        self._dictionary = dictionary = _dictionary.next(raw)
        packer = (
            zlib.compressobj(_LEVEL, zdict=dictionary) if dictionary else zlib.compressobj(_LEVEL)
        )
        self._packed = packer.compress(raw) + packer.flush()
        self._count = len(body.splitlines())  # the lines ``compile`` counted
        self.size = sum(map(len, self._header)) + len(body)
        """The characters of the whole source (``linecache``'s entry holds it)."""

    def _body(self) -> str:
        dictionary = self._dictionary
        unpacker = zlib.decompressobj(zdict=dictionary) if dictionary else zlib.decompressobj()
        raw = unpacker.decompress(self._packed) + unpacker.flush()
        return raw.decode("utf-8", "surrogatepass")

    def text(self) -> str:
        """The whole source."""
        return "".join(self._header) + self._body()

    def _lines(self) -> list[str]:
        return [*self._header, *self._body().splitlines(True)]

    def __len__(self) -> int:
        return len(self._header) + self._count

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        return self._lines()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._lines())


_LEVEL = 6
"""zlib's level: against a dictionary, as quick as level 1 alone and a third smaller."""


class _Dictionary:
    """The preset dictionary the next sources are compressed against: a recent source,
    replaced every ``USES`` sources, so it stays close to what is built now. Each
    ``Lines`` keeps the one it was compressed against (the very bytes: one copy for
    ``USES`` sources)."""

    USES = 64
    WINDOW = 32768
    """zlib reads no more of a dictionary than its last 32 KiB."""

    def __init__(self) -> None:
        self._text = b""
        self._uses = 0
        self._lock = threading.Lock()

    def next(self, raw: bytes) -> bytes:
        """The dictionary to compress ``raw`` against (empty for the first source)."""
        with self._lock:
            text = self._text
            self._uses += 1
            if not text or self._uses >= self.USES:
                self._text, self._uses = raw[-self.WINDOW :], 0
            return text


_dictionary = _Dictionary()


def take_serial() -> int:
    with _serial_lock:
        return heapq.heappop(_free_serials) if _free_serials else next(_serial)


def register(schema: Mapping[str, Any] | bool, lines: Lines, serial: int) -> str:
    """Put the source in ``linecache`` under a readable name, for tracebacks and pdb.

    A serial taken again under the same name gives the very string its last holder had:
    whatever keeps the file names of code (``tracemalloc`` keeps each one it sees) holds
    that one already, instead of one more string per validator."""
    title = schema.get("title") if isinstance(schema, Mapping) else None
    label = "".join(c for c in str(title)[:40] if c.isalnum() or c in "_-") if title else ""
    name = f"<llmapp-validator-{serial}{'-' + label if label else ''}>"
    filename = _names.setdefault(serial, name)
    if filename != name:
        filename = _names[serial] = name
    register_lines(filename, lines, lines.size)
    return filename


def release(filename: str, serial: int, lines: Lines) -> None:
    """A validator was collected: its serial is free, its source leaves ``linecache``
    (now, or when the validator being built in this thread is registered)."""
    with _serial_lock:
        heapq.heappush(_free_serials, serial)
    leaving = _leaving.sources
    if leaving is None:
        _unregister(filename, lines)
    else:
        leaving.append((filename, lines))


@contextmanager
def handing_on() -> Iterator[None]:
    """While a validator is built: the validators collected in this thread meanwhile
    (the one the cache drops to make room) keep their ``linecache`` entries until the
    end, so the new validator, taking a freed serial, replaces its holder's entry."""
    if _leaving.sources is not None:  # within an outer one: it removes them
        yield
        return
    leaving: list[tuple[str, Lines]] = []
    _leaving.sources = leaving
    try:
        yield
    finally:
        _leaving.sources = None
        for filename, lines in leaving:
            _unregister(filename, lines)


def _unregister(filename: str, lines: Lines) -> None:
    """Remove the entry of ``lines``, unless something else was registered under its name
    since."""
    entry = linecache.cache.get(filename)
    if entry is not None and len(entry) == 4 and cast(object, entry[2]) is lines:
        del linecache.cache[filename]
